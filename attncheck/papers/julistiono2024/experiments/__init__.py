"""julistiono2024: experiments."""
