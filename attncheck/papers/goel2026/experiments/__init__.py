"""goel2026: experiments."""
