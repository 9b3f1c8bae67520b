"""julistiono2024: strategies."""
