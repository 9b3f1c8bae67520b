"""Seed replication (``attncheck report --seeds K``): each claim under K master seeds.

The report keeps the record of the first seed (``--seed``) and adds to it
``"replication": {"seeds", "verdicts", "shares", "flips"}``: the verdict under each seed,
the share of seeds giving each verdict, and whether the verdict differs between seeds.
A verdict that flips is flagged at the top of its paper's section (HTML and summary.md).
"""
from __future__ import annotations

from collections import Counter


def seeds(master: int, k: int) -> list[int]:
    """The K master seeds: ``master, master + 1, ..., master + K - 1``."""
    if k < 1:
        raise ValueError(f"--seeds must be >= 1, got {k}")
    return [master + i for i in range(k)]


def merge(by_seed: dict[int, dict[str, dict]], master: int) -> list[dict]:
    """The master seed's records, each with its ``replication`` entry (by_seed: seed -> id -> record)."""
    order = sorted(by_seed)
    out = []
    for cid, rec in by_seed[master].items():
        verdicts = [by_seed[s][cid]["verdict"] for s in order if cid in by_seed[s]]
        counts = Counter(verdicts)
        out.append({**rec, "replication": {
            "seeds": [s for s in order if cid in by_seed[s]], "verdicts": verdicts,
            "shares": {v: counts[v] / len(verdicts) for v in sorted(counts, key=lambda v: -counts[v])},
            "flips": len(counts) > 1}})
    return out
