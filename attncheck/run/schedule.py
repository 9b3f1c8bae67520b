"""Longest claims first: the order in which a parallel run hands out its claims.

Two workers finish together only if the long claims do not start last (a 2-minute claim
handed out at the end leaves the other worker idle for 2 minutes). The expected cost of a
claim is its ``evidence.seconds`` in an earlier report (any profile: only the ranking is
used); claims that report does not know are taken as the longest, so a new claim is never
the straggler. The order changes nothing else: each claim's seed depends on its id only.
"""
from __future__ import annotations

import json
from pathlib import Path


def committed(root: str | Path = ".") -> Path:
    """The results.json of the report committed under ``root`` (reports/), the order's last resort."""
    return Path(root) / "reports" / "results.json"


def past_seconds(*results: str | Path | None) -> dict[str, float]:
    """{claim id: seconds} from the first of these results.json files that gives any (None entries skipped); {} if
    none is there or can be read."""
    for path in filter(None, results):
        try:
            claims = json.loads(Path(path).read_text())["claims"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        out = {}
        for c in claims:
            s = (c.get("evidence") or {}).get("seconds")
            if isinstance(s, (int, float)):
                out[c["id"]] = float(s)
        if out:
            return out
    return {}


def longest_first(ids: list[str], seconds: dict[str, float]) -> list[int]:
    """Indices of ``ids`` ordered by expected cost, longest first (unknown ids first, in their order)."""
    return sorted(range(len(ids)), key=lambda i: -seconds.get(ids[i], float("inf")))
