"""julistiono2024: data."""
