"""bombari2024: data."""
