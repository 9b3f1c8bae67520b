"""deng2023: data."""
