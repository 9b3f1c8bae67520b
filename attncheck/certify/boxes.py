"""Interval certification (verdict CERTIFIED) by branch and bound in arb ball arithmetic.

A deterministic claim of a few real variables may carry a :class:`Certificate`: a box
of its domain and an interval extension of its slack. Every sub-box whose slack is
provably >= 0 (> 0 if strict) is done; a sub-box whose slack is provably negative is a
counterexample; the rest are bisected along their widest side, up to a budget.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from flint import arb

from attncheck.core.declarations import Certificate


@dataclass
class Outcome:
    status: str  # "certified", "refuted" or "incomplete"
    boxes: int
    certified_fraction: float
    counterexample: dict | None = None


def _ball(lo: float, hi: float) -> arb:
    return arb((lo + hi) / 2, (hi - lo) / 2)


def _volume(box: dict, whole: dict) -> float:
    frac = 1.0
    for k, (lo, hi) in box.items():
        w = whole[k][1] - whole[k][0]
        frac *= (hi - lo) / w if w > 0 else 1.0
    return frac


def _split(box: dict, whole: dict) -> tuple[dict, dict]:
    def rel(k):
        w = whole[k][1] - whole[k][0]
        return (box[k][1] - box[k][0]) / w if w > 0 else 0.0

    k = max(box, key=rel)
    lo, hi = box[k]
    mid = (lo + hi) / 2
    return {**box, k: (lo, mid)}, {**box, k: (mid, hi)}


def run(cert: Certificate) -> Outcome:
    """Branch and bound over the certificate's box."""
    whole = dict(cert.box)
    queue, done, seen = deque([whole]), 0.0, 0
    while queue:
        box = queue.popleft()  # breadth first: the widest boxes are settled first
        seen += 1
        s = cert.slack({k: _ball(lo, hi) for k, (lo, hi) in box.items()})
        if s > 0 or (not cert.strict and s >= 0):
            done += _volume(box, whole)
            continue
        point = {k: (lo + hi) / 2 for k, (lo, hi) in box.items()}
        p = cert.slack({k: arb(v) for k, v in point.items()})
        if p < 0 or (cert.strict and p <= 0):
            return Outcome("refuted", seen, done, {"point": point, "slack": str(p)})
        if seen >= cert.max_boxes or all(lo == hi for lo, hi in box.values()):
            return Outcome("incomplete", seen, done)
        queue.extend(_split(box, whole))
    return Outcome("certified", seen, 1.0)
