"""Corners and a space-filling design over a strategy's choices: the stages for claims with no Space.

Every Hypothesis strategy, ``@st.composite``, ``flatmap``, ``filter`` and ``one_of`` included,
builds its value from a sequence of primitive choices (integers, floats, booleans, ...). Here
the j-th bounded integer, bounded float or boolean choice is answered by the engine:

- **design** (:func:`cases`): from coordinate j of row i of a scrambled Sobol design, so a
  parameter drawn by the strategy's j-th choice is stratified over its range, as the Space
  design stratifies a declared parameter, whatever the strategy does with it;
- **corners** (:func:`corners`): at one end of its range or just inside it, the rows being
  every choice low, every choice high, every choice just inside either end, a covering
  design over {low, high} (every pair of choices meets in all four end combinations), then
  seeded random vertices. A violation that needs several draws at their ends at once (a
  vertex of the choice space) is then tried before any random case.

Bounded choices past the design's dimensions are uniform draws (design) or repeat the row's
levels periodically (corners); unbounded numbers, weighted integers, strings and bytes come
from Hypothesis' own provider (seeded per row). A row whose draw is rejected (``filter``,
``assume``, too large) is skipped. Rows are a fixed function of the seed.
"""
from __future__ import annotations

import math
import random

import numpy as np
from hypothesis.control import BuildContext
from hypothesis.errors import StopTest, UnsatisfiedAssumption
from hypothesis.internal.conjecture.choice import choices_size
from hypothesis.internal.conjecture.data import MAX_DEPTH, ConjectureData
from hypothesis.internal.conjecture.providers import HypothesisProvider
from hypothesis.internal.floats import float_to_int, int_to_float
from hypothesis.strategies._internal.lazy import unwrap_strategies
from scipy.stats import qmc

from attncheck.core.space import INSIDE

DIMENSIONS = 32
"""Choices answered from a row; the design's later bounded ones are uniform draws (seeded per row)."""

LOW, HIGH, INSIDE_LOW, INSIDE_HIGH = range(4)
"""A corner row's level of one choice: an end of its range, or just inside it."""


class _Answering(HypothesisProvider):
    """Hypothesis' provider with bounded integer, bounded float and boolean choices answered by the subclass
    (``_integer``, ``_unit``, ``_boolean``); the answers are kept in ``answered``."""

    lifetime = "test_case"

    def __init__(self, data, /):
        super().__init__(data)
        self._next_index, self.answered = 0, []

    def _index(self) -> int:
        self._next_index += 1
        return self._next_index - 1

    def _keep(self, x):
        self.answered.append(x)
        return x

    def draw_boolean(self, p: float = 0.5) -> bool:
        if p <= 0 or p >= 1:
            return p >= 1
        return self._keep(self._boolean(self._index(), p))

    def draw_integer(self, min_value=None, max_value=None, *, weights=None, shrink_towards=0) -> int:
        if min_value is None or max_value is None or weights is not None:
            return super().draw_integer(min_value, max_value, weights=weights, shrink_towards=shrink_towards)
        return self._keep(self._integer(self._index(), min_value, max_value))

    def draw_float(self, *, min_value=-math.inf, max_value=math.inf, allow_nan=True,
                   smallest_nonzero_magnitude) -> float:
        if not (math.isfinite(min_value) and math.isfinite(max_value)):
            return super().draw_float(min_value=min_value, max_value=max_value, allow_nan=allow_nan,
                                      smallest_nonzero_magnitude=smallest_nonzero_magnitude)
        x = min(max(min_value + self._unit(self._index()) * (max_value - min_value), min_value), max_value)
        if 0 < abs(x) < smallest_nonzero_magnitude:  # the strategy excludes tiny magnitudes
            x = math.copysign(smallest_nonzero_magnitude, x)
            x = x if min_value <= x <= max_value else 0.0
        return self._keep(x)


class DesignProvider(_Answering):
    """Choice j answered from coordinate j of ``u`` (uniform past its end)."""

    def __init__(self, data, /, *, u):
        super().__init__(data)
        self._u = u

    def _coordinate(self, j: int) -> float:
        return float(self._u[j]) if j < len(self._u) else self._random.random()

    def _boolean(self, j, p):
        return self._coordinate(j) < p

    def _integer(self, j, lo, hi):
        return lo + min(int(self._coordinate(j) * (hi - lo + 1)), hi - lo)

    def _unit(self, j):
        return self._coordinate(j)


class CornerProvider(_Answering):
    """Choice j at level ``levels[j mod len]`` (LOW, HIGH, INSIDE_LOW, INSIDE_HIGH): an integer at lo, hi,
    lo + 1 or hi - 1, a float at an end or ``rel`` of its range inside it, a boolean False (low) or True."""

    def __init__(self, data, /, *, levels, rel):
        super().__init__(data)
        self._levels, self._rel = levels, rel

    def _level(self, j: int) -> int:
        return int(self._levels[j % len(self._levels)])

    def _boolean(self, j, p):
        return self._level(j) in (HIGH, INSIDE_HIGH)

    def _integer(self, j, lo, hi):
        return min(max({LOW: lo, HIGH: hi, INSIDE_LOW: lo + 1, INSIDE_HIGH: hi - 1}[self._level(j)], lo), hi)

    def _unit(self, j):
        return {LOW: 0.0, HIGH: 1.0, INSIDE_LOW: self._rel, INSIDE_HIGH: 1.0 - self._rel}[self._level(j)]


class _Replay(ConjectureData):
    """Hypothesis' ConjectureData for one row that the engine answers: the same values, rejections and overruns,
    without what only generation and shrinking read (the span record, the choice nodes, the observer); each
    strategy object is validated once per stage (``checked``: id -> (strategy, unwrapped or None if empty))."""

    def __init__(self, *args, checked: dict, **kwargs):
        self._checked = checked
        super().__init__(*args, **kwargs)

    def draw(self, strategy, label=None, observe_as=None):
        hit = self._checked.get(id(strategy))
        if hit is None:
            strategy.validate()
            hit = self._checked[id(strategy)] = (strategy, None if strategy.is_empty else unwrap_strategies(strategy))
        if hit[1] is None:
            self.mark_invalid("empty strategy")
        if self.depth >= MAX_DEPTH:
            self.mark_invalid("max depth exceeded")
        self.depth += 1
        try:
            return hit[1].do_draw(self)
        finally:
            self.depth -= 1

    def start_span(self, label: int) -> None:
        self.depth += 1

    def stop_span(self, *, discard: bool = False) -> None:
        self.depth -= 1

    def _draw(self, choice_type, constraints, *, observe, forced):
        if self.length == self.max_length:
            self.mark_overrun()
        value = forced if forced is not None else getattr(self.provider, f"draw_{choice_type}")(**constraints)
        if choice_type == "float" and math.isnan(value):
            value = int_to_float(float_to_int(value))
        if observe:
            self.length += 0 if self.provider.avoid_realization else choices_size([value])
            if self.length > self.max_length:
                self.mark_overrun()
        return value


def _draw(strategy, provider, kw: dict, rnd: random.Random, checked: dict):
    """(value, answered choices) of one row, or None where the draw is rejected."""
    data = _Replay(random=rnd, provider=provider, provider_kw=kw, checked=checked)
    try:
        with BuildContext(data, wrapped_test=None):
            value = data.draw(strategy)
    except (StopTest, UnsatisfiedAssumption):
        return None
    return value, tuple(data.provider.answered)


def design_rows(n: int, seed: int) -> np.ndarray:
    """The first ``n`` rows of the scrambled Sobol design over :data:`DIMENSIONS` choices (seeded)."""
    return qmc.Sobol(DIMENSIONS, scramble=True, seed=seed).random(n)


def design_case(strategy, u, seed: int, i: int, checked: dict | None = None):
    """(value,) of ``strategy`` with its choices answered by design row ``u`` (the i-th), or None if rejected."""
    drawn = _draw(strategy, DesignProvider, {"u": u}, random.Random(seed * 1_000_003 + i), {} if checked is None else checked)
    return None if drawn is None else drawn[:1]


def cases(strategy, n: int, seed: int):
    """Up to ``n`` values of ``strategy``, row i of a scrambled Sobol design (seeded) answering its choices;
    rejected rows are left out. ``n`` should be a power of two (the design's stratification is then exact)."""
    checked = {}
    for i, u in enumerate(design_rows(n, seed)):
        drawn = design_case(strategy, u, seed, i, checked)
        if drawn is not None:
            yield drawn[0]


def corner_rows(seed: int):
    """(levels, rel) of the corner rows, in order: all low, all high, all just inside each end (at each
    relative offset of :data:`attncheck.core.space.INSIDE`), a covering design over {low, high} (row r and its
    complement set choice j to bit r of j: any two choices differ in some bit, so every pair meets as
    (low, high) and (high, low), and as (low, low), (high, high) in the first two rows), then seeded random
    vertices, endlessly."""
    j = np.arange(DIMENSIONS)
    yield np.full(DIMENSIONS, LOW), INSIDE[0]
    yield np.full(DIMENSIONS, HIGH), INSIDE[0]
    for rel in INSIDE:
        yield np.full(DIMENSIONS, INSIDE_LOW), rel
        yield np.full(DIMENSIONS, INSIDE_HIGH), rel
    for r in range((DIMENSIONS - 1).bit_length()):
        bit = (j >> r) & 1
        yield np.where(bit == 1, HIGH, LOW), INSIDE[0]
        yield np.where(bit == 1, LOW, HIGH), INSIDE[0]
    rng = np.random.default_rng(seed)
    while True:
        yield np.where(rng.random(DIMENSIONS) < 0.5, LOW, HIGH), INSIDE[0]


def corners(strategy, n: int, seed: int, tries: int = 4):
    """Up to ``n`` distinct values of ``strategy`` with its bounded choices at the corners of
    :func:`corner_rows`; rows whose choices repeat an earlier row's, or whose draw is rejected, are skipped
    (at most ``tries * n`` rows are tried)."""
    seen, rows, checked = set(), corner_rows(seed), {}
    for i in range(tries * n):
        if len(seen) >= n:
            return
        levels, rel = next(rows)
        drawn = _draw(strategy, CornerProvider, {"levels": levels, "rel": rel}, random.Random(seed * 1_000_003 + i),
                      checked)
        if drawn is not None and drawn[1] not in seen:
            seen.add(drawn[1])
            yield drawn[0]
