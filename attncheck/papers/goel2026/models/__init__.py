"""goel2026: models."""
