"""bombari2024: models."""
