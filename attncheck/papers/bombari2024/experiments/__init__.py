"""bombari2024: experiments."""
