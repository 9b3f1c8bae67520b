"""matplotlib on the Agg backend (no display needed), for the claims' and the experiments' figures."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def pyplot():
    """matplotlib.pyplot on the Agg backend (selected when this module is imported)."""
    return plt
