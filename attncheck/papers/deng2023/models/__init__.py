"""deng2023: models."""
