"""goel2026: data."""
