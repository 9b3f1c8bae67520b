"""goel2026: strategies."""
