"""bombari2024: strategies."""
