"""deng2023's Hypothesis strategies: valid by construction, domain boundaries included.

Each strategy draws from the whole admissible domain of a claim and mixes in the
adversarial patterns the proofs' worst cases suggest (all scores at one endpoint, a
few high scores among low ones, ...), so the search does not rely on luck. The paper-wide
delta and the widths m of Definition 3.7 live here; one module per topic holds the rest.
"""
from __future__ import annotations

import math

from attncheck.core.domains import cached_strategy, in_interval

DELTA_LO = 1e-3
"""Smallest delta drawn (the papers' delta in (0, 0.1)): a claimed 1 - delta >= 0.999 is still refutable
with the quick profile's 16000 draws; delta in (0, 10^-3) is unchecked."""


@cached_strategy
def delta():
    """delta in [DELTA_LO, 0.1) (the papers' delta in (0, 0.1); see each claim's interpretation)."""
    return in_interval(DELTA_LO, 0.1, exclude_hi=True)


def m_smallest(n: int, delta: float, draw=None) -> int:
    """deng2023 Definition 3.7, m = C log(n/delta) with C > 1 as small as admissible:
    floor(log(n/delta)) + 1 (the most lenient width for an "F = 0" claim)."""
    return math.floor(math.log(n / delta)) + 1


def m_large(n: int, delta: float, draw) -> int:
    """m = ceil(C log(n/delta)) with C drawn in [2, 3] (a lenient width for an "F > 0" claim)."""
    return math.ceil(draw(in_interval(2.0, 3.0)) * math.log(n / delta))
