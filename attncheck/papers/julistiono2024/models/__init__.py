"""julistiono2024: models."""
