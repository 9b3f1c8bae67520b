"""Strategies for deng2023 Sections 3-5 (toy model) and Lemma 3.1 (Hoeffding)."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from attncheck.core.domains import cached_strategy, in_interval, integers_with, partition
from attncheck.papers.deng2023.data import toy
from attncheck.papers.deng2023.models.toy import GroupedScores
from attncheck.papers.deng2023.strategies import delta

PATTERNS = st.sampled_from(["constant", "two-level", "mixed"])
"""The score patterns of :func:`toy_scores`."""


@cached_strategy
@st.composite
def toy_scores(draw, n: int, label: int) -> GroupedScores:
    """Scores Ax of a dataset of D0 (label 0) or D1 (label 1) of Definition 3.8, any n >= 2.

    Patterns: all scores at one value (endpoints included); ``j`` scores at 1.4 log n
    and the rest at log n with j in {1, ~m^0.6, m/2, m - 1} or anywhere; up to six
    arbitrary score levels with arbitrary multiplicities.
    """
    lo, hi = toy.score_interval(n)
    m = n - label
    pattern = draw(PATTERNS)
    if pattern == "constant":
        z, k = [draw(in_interval(lo, hi))], np.array([m], np.int64)
    elif pattern == "two-level" and m >= 2:
        special = sorted({min(max(1, j), m - 1) for j in (1, round(m ** 0.6), m // 2, m - 1)})
        j = draw(integers_with(tuple(special), 1, m - 1))
        z, k = [hi, lo], np.array([j, m - j], np.int64)
    else:
        parts = draw(st.integers(1, min(6, m)))
        z = draw(st.lists(in_interval(lo, hi), min_size=parts, max_size=parts))
        k = draw(partition(m, parts))
    return toy.d0(n, z, k) if label == 0 else toy.d1(n, z, k)


@dataclass(frozen=True)
class ToyCase:
    """One input of a deng2023 Section 4/5 claim: a dataset and the network's parameters."""

    n: int
    scores: GroupedScores
    delta: float
    m: int = 0
    tau: float = 0.0

    @property
    def L(self) -> float:
        """log(n / delta), the paper's log(n/delta)."""
        return math.log(self.n / self.delta)


@st.composite
def toy_case(draw, n: int, label: int, m_rule=None, tau=None) -> ToyCase:
    """A :class:`ToyCase`: ``m_rule(n, delta, draw) -> m`` and ``tau(n, delta) -> strategy``."""
    d = draw(delta())
    m = m_rule(n, d, draw) if m_rule else 0
    t = draw(tau(n, d)) if tau else 0.0
    return ToyCase(n, draw(toy_scores(n, label)), d, m, t)


@dataclass(frozen=True)
class HoeffdingCase:
    """Independent X_i in [a_i, b_i], grouped: k[g] copies of a two-point variable on
    {a[g], b[g]} with Pr[X = b[g]] = q[g]; deviation t = s * sqrt(sum_i (b_i - a_i)^2)."""

    k: tuple
    a: tuple
    b: tuple
    q: tuple
    s: float

    @property
    def width2(self) -> float:
        """sum_i (b_i - a_i)^2."""
        return float(sum(k * (b - a) ** 2 for k, a, b in zip(self.k, self.a, self.b, strict=False)))

    @property
    def t(self) -> float:
        return self.s * math.sqrt(self.width2)


@st.composite
def hoeffding_case(draw, max_groups: int = 3, max_count: int = 10**6) -> HoeffdingCase:
    """Two-point variables (the extremal case of Hoeffding's lemma), boundaries included:
    a single fair coin, tiny and huge counts, degenerate q in {0, 1}, t up to 2.5 widths."""
    g = draw(st.integers(1, max_groups))
    k = draw(st.lists(st.one_of(st.just(1), st.integers(1, max_count)), min_size=g, max_size=g))
    a = draw(st.lists(st.floats(-10, 10), min_size=g, max_size=g))
    w = draw(st.lists(st.one_of(st.just(1.0), st.floats(0.01, 10)), min_size=g, max_size=g))
    q = draw(st.lists(st.one_of(st.sampled_from([0.5, 0.0, 1.0]), st.floats(0, 1)), min_size=g, max_size=g))
    s = draw(st.one_of(st.sampled_from([0.5, 1.0]), st.floats(0.05, 2.5)))
    return HoeffdingCase(tuple(k), tuple(a), tuple(ai + wi for ai, wi in zip(a, w, strict=False)), tuple(q), s)
