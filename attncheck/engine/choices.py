"""A space-filling design over a strategy's choices: the design stage for claims with no Space.

Every Hypothesis strategy, ``@st.composite``, ``flatmap``, ``filter`` and ``one_of`` included,
builds its value from a sequence of primitive choices (integers, floats, booleans, ...). Here
case i answers the j-th bounded integer, bounded float or boolean choice from coordinate j of
row i of a scrambled Sobol design: a parameter drawn by the strategy's j-th choice is then
stratified over its range, as the Space design stratifies a declared parameter, whatever the
strategy does with it. Such choices past the design's dimensions are uniform draws; unbounded
numbers, weighted integers, strings and bytes come from Hypothesis' own provider (both seeded
per row). A row whose draw is rejected (``filter``, ``assume``) is skipped. Rows are a fixed
function of the seed.
"""
from __future__ import annotations

import math
import random

from hypothesis.control import BuildContext
from hypothesis.errors import StopTest, UnsatisfiedAssumption
from hypothesis.internal.conjecture.data import ConjectureData
from hypothesis.internal.conjecture.providers import HypothesisProvider
from scipy.stats import qmc

DIMENSIONS = 32
"""Choices answered from the design; later bounded ones are uniform draws (seeded per row)."""


class DesignProvider(HypothesisProvider):
    """Hypothesis' provider with bounded integer, bounded float and boolean choices taken from ``u``."""

    lifetime = "test_case"

    def __init__(self, data, /, *, u):
        super().__init__(data)
        self._u, self._next_index = u, 0

    def _coordinate(self) -> float:
        j = self._next_index
        self._next_index += 1
        return float(self._u[j]) if j < len(self._u) else self._random.random()

    def draw_boolean(self, p: float = 0.5) -> bool:
        if p <= 0 or p >= 1:
            return p >= 1
        return self._coordinate() < p

    def draw_integer(self, min_value=None, max_value=None, *, weights=None, shrink_towards=0) -> int:
        if min_value is None or max_value is None or weights is not None:
            return super().draw_integer(min_value, max_value, weights=weights, shrink_towards=shrink_towards)
        return min_value + min(int(self._coordinate() * (max_value - min_value + 1)), max_value - min_value)

    def draw_float(self, *, min_value=-math.inf, max_value=math.inf, allow_nan=True,
                   smallest_nonzero_magnitude) -> float:
        if not (math.isfinite(min_value) and math.isfinite(max_value)):
            return super().draw_float(min_value=min_value, max_value=max_value, allow_nan=allow_nan,
                                      smallest_nonzero_magnitude=smallest_nonzero_magnitude)
        x = min(max(min_value + self._coordinate() * (max_value - min_value), min_value), max_value)
        if 0 < abs(x) < smallest_nonzero_magnitude:  # the strategy excludes tiny magnitudes
            x = math.copysign(smallest_nonzero_magnitude, x)
            x = x if min_value <= x <= max_value else 0.0
        return x


def cases(strategy, n: int, seed: int):
    """Up to ``n`` values of ``strategy``, row i of a scrambled Sobol design (seeded) answering its choices;
    rejected rows are left out. ``n`` should be a power of two (the design's stratification is then exact)."""
    rows = qmc.Sobol(DIMENSIONS, scramble=True, seed=seed).random(n)
    for i, u in enumerate(rows):
        data = ConjectureData(random=random.Random(seed * 1_000_003 + i), provider=DesignProvider,
                              provider_kw={"u": u})
        try:
            with BuildContext(data, wrapped_test=None):
                value = data.draw(strategy)
        except (StopTest, UnsatisfiedAssumption):
            continue
        yield value
