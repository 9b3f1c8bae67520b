"""Strategies for deng2023 Appendix F (cross-attention, Definition F.1) and Theorem 1.2.

A case fixes n, d with n = (d-1) t, both dataset parameters a0 in (0, 0.1) and a1 > 1
(Definition F.1 introduces both; ``label`` says which one builds the dataset), the special
indices j2, j3 and, where a claim needs them, a row j0, delta and the width m.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache

from hypothesis import strategies as st

from attncheck.core.domains import cached_strategy, in_interval, integers_with
from attncheck.papers.deng2023.data.attention import CrossAttentionParams
from attncheck.papers.deng2023.models.class_attention.definition_f1 import rows_where
from attncheck.papers.deng2023.strategies import delta as delta_strategy

A0_MIN = 1e-200
"""a0 is drawn in [1e-200, the float64 below 0.1]: the open interval (0, 0.1) approached from both ends (below
1e-200 the slacks ~ a0 log n / n of the tight bounds leave 240-digit arithmetic)."""
A0_MAX = math.nextafter(0.1, 0.0)
A1_MIN = math.nextafter(1.0, 2.0)
"""a1 > 1 is drawn from the float64 after 1 (1 + 2^-52) up."""
A1_MAX = 1e300
"""The largest a1 drawn (a1 > 1 is unbounded above)."""


@cache
def divisors(n: int) -> tuple[int, ...]:
    """Sorted divisors of n (trial division; the scaling paths use n with small prime factors)."""
    primes, m, p = {}, n, 2
    while p * p <= m:
        while m % p == 0:
            primes[p] = primes.get(p, 0) + 1
            m //= p
        p += 1
    if m > 1:
        primes[m] = primes.get(m, 0) + 1
    divs = [1]
    for p, e in primes.items():
        divs = [q * p ** i for q in divs for i in range(e + 1)]
    return tuple(sorted(divs))


def width_near(n: int, beta: float) -> int:
    """The divisor k = d-1 of n nearest to n^beta in log scale, with d = k + 1 <= n."""
    admissible = [k for k in divisors(n) if k + 1 <= n]
    return min(admissible, key=lambda k: (abs(math.log(k) - beta * math.log(n)), k))


@dataclass(frozen=True)
class CrossCase:
    """One input of an Appendix F claim (0-based indices)."""

    n: int
    d: int
    label: int
    a0: float
    a1: float
    j2: int
    j3: int
    j0: int = 0
    delta: float = 0.1
    m: int = 1

    @property
    def t(self) -> int:
        return self.n // (self.d - 1)

    @property
    def a(self) -> float:
        """The coefficient of the dataset: a0 for D0, a1 for D1."""
        return self.a1 if self.label else self.a0

    @property
    def shape(self) -> CrossCase:
        """The integer case whose positions and present classes the evaluators read: itself (a case with
        counts relaxed to values carries an integer case of its structure here)."""
        return self

    def params(self) -> CrossAttentionParams:
        """The Definition F.1 parameters (validated: n = (d-1) t, a0 in (0, 0.1), a1 > 1)."""
        return CrossAttentionParams(self.n, self.d, self.a, self.j2, self.j3, self.label)


@dataclass(frozen=True)
class PairCase:
    """Theorem 1.2: one dataset of D0 and one of D1 of the same n, d, one network (delta, m)."""

    d0: CrossCase
    d1: CrossCase
    delta: float
    m: int


@cached_strategy
def a0_values(hi: float = 0.1):
    """a0 in (0, hi) (Definition F.1: hi = 0.1), both ends approached: the float64 below hi, and a0
    log-uniform down to A0_MIN."""
    top = math.nextafter(hi, 0.0)
    return st.one_of(in_interval(A0_MIN, top), log_uniform(A0_MIN, top))


def log_uniform(lo: float, hi: float):
    """Floats in [lo, hi] (0 < lo < hi) with log-uniformly drawn magnitude."""
    return st.floats(math.log(lo), math.log(hi)).map(lambda u: min(hi, max(lo, math.exp(u))))


@cached_strategy
def a1_values(a1_max: float):
    """a1 in (1, a1_max]: the float64 after 1, 1 + 1e-12, 2, 20, 1000, a1_max, uniform on [a1_min, 20] and
    a1 - 1 log-uniform over the whole range (so both 1 + 2^-52 and 10^6 are approached)."""
    ends = sorted({A1_MIN, 1.0 + 1e-12, 2.0, min(20.0, a1_max), min(1000.0, a1_max), a1_max})
    return st.one_of(st.sampled_from(ends), st.floats(A1_MIN, min(20.0, a1_max)),
                     log_uniform(A1_MIN - 1.0, a1_max - 1.0).map(lambda x: min(a1_max, max(A1_MIN, 1.0 + x))))


@cached_strategy
@st.composite
def special_indices(draw, n: int, pair: str | None = None) -> tuple[int, int]:
    """(j2, j3): first or last row, or anywhere (every residue of j3 mod d-1); equal or distinct
    (pair None), or only ``pair = "equal"`` / ``"distinct"`` (distinct needs n >= 2)."""
    j3 = draw(integers_with((0, n - 1), 0, n - 1))
    if pair == "equal":
        return j3, j3
    if pair == "distinct":
        if n < 2:
            raise ValueError(f"distinct special indices need n >= 2, got n = {n}")
        others = [j for j in (0, n - 1, j3 - 1, j3 + 1) if 0 <= j < n and j != j3]
        j2 = draw(st.one_of(st.sampled_from(others), st.integers(0, n - 1).filter(lambda j: j != j3)))
        return j2, j3
    if pair is not None:
        raise ValueError(f"pair must be None, 'equal' or 'distinct', got {pair!r}")
    j2 = draw(integers_with((j3, 0, n - 1), 0, n - 1))
    return j2, j3


@cached_strategy
def widths(n: int, beta, min_d: int = 2, max_d: int | None = None):
    """d-1: any divisor of n with min_d <= d <= max_d (smallest and largest included) if beta
    is None, else the divisor nearest n^beta with beta drawn from ``beta`` (a strategy), d <= n."""
    if beta is None:
        ks = [k for k in divisors(n) if k + 1 >= min_d and (max_d is None or k + 1 <= max_d)]
        return st.one_of(st.sampled_from([ks[0], ks[-1]]), st.sampled_from(ks))
    return beta.map(lambda b: width_near(n, b))


def _dataset(draw, n: int, width: int, label: int, a1_max: float, pair: str | None = None,
             a0_max: float = 0.1) -> CrossCase:
    """A validated :class:`CrossCase` with d = width + 1 and drawn a0 < a0_max, a1, j2, j3 (see special_indices)."""
    j2, j3 = draw(special_indices(n, pair))
    case = CrossCase(n, width + 1, label, draw(a0_values(a0_max)), draw(a1_values(a1_max)), j2, j3)
    case.params()
    return case


@st.composite
def cross_case(draw, n: int, label: int, *, beta=None, min_d: int = 2, max_d: int | None = None, row=None,
               a1_max: float = A1_MAX, m_rule=None, pair: str | None = None, with_delta: bool = False,
               a0_max: float = 0.1) -> CrossCase:
    """A :class:`CrossCase` of Definition F.1 at size n.

    beta: strategy of exponents, d-1 = divisor of n nearest n^beta (scaling paths); None:
    every divisor (min_d <= d <= max_d). row: condition on j0 (per-row claims). m_rule(n, delta,
    draw) -> m; with m_rule or with_delta, delta is drawn in [10^-3, 0.1). pair: j2 = j3 ("equal"),
    j2 != j3 ("distinct") or either (None). a0_max: a0 drawn in (0, a0_max).
    """
    case = _dataset(draw, n, draw(widths(n, beta, min_d, max_d)), label, a1_max, pair, a0_max)
    if row is not None:
        case = replace(case, j0=draw(st.sampled_from(rows_where(n, case.j2, case.j3, row))))
    if m_rule is not None or with_delta:
        d = draw(delta_strategy())
        case = replace(case, delta=d, m=m_rule(n, d, draw) if m_rule is not None else case.m)
    return case


@st.composite
def pair_case(draw, n: int, *, beta, a1_max: float, m_rule) -> PairCase:
    """Theorem 1.2: D0 and D1 datasets with their own a0, a1, j2, j3 and a shared network."""
    width = draw(widths(n, beta))
    d0, d1 = (_dataset(draw, n, width, label, a1_max) for label in (0, 1))
    d = draw(delta_strategy())
    return PairCase(d0, d1, d, m_rule(n, d, draw))

