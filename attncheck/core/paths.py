"""Scaling paths with a dimension of their own besides n (deng2023's d = n^beta for every beta)."""
from __future__ import annotations

from collections.abc import Callable, Iterable


def grid(dim: str, values: Iterable, n: Iterable | Callable) -> list[dict]:
    """Path points ``{dim: v, "n": x}`` for every value v and every x of ``n`` (a list, or v -> list),
    ordered by v, then by n."""
    out = []
    for v in values:
        ns = list(n(v) if callable(n) else n)
        if sorted(ns) != ns or len(set(ns)) != len(ns):
            raise ValueError(f"the n of series {dim} = {v} must increase, got {ns}")
        out += [{dim: v, "n": x} for x in ns]
    return out
