"""deng2023: experiments."""
