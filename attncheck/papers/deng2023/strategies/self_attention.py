"""Strategies for deng2023 Appendix D: Definition D.1 self-attention datasets and the
parameters of Lemmas D.2-D.17, Theorems D.5-D.17, 6.2 and 1.1.

Valid by construction: d - 2 is drawn among the divisors of n (n = (d-2) t), b + c = 1
exactly with b, c >= 0.1, j3 and j0 != j3 by position class. Boundaries are drawn often:
a0 near 0 and near 0.1, a1 at 0.7, 1 and large values, b and c at 0.1, d - 2 at 1, 2
and n (or the ends of the hypothesis range), j3 in the first and last row and at block
edges.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, cached_property

from hypothesis import strategies as st

from attncheck.core.domains import cached_strategy, in_interval, integers_with
from attncheck.papers.deng2023.data.attention import SelfAttentionParams
from attncheck.papers.deng2023.models.class_attention.definition_d1 import Grouped
from attncheck.papers.deng2023.strategies import delta

A0_LOW = 1e-12
"""Smallest a0 drawn: the slacks of the a0-dependent bounds vanish like a0 log n / n;
below 1e-12 (at n = 10^15) they leave the reach of the 240-digit mpmath escalation."""
A0_ENDS = (A0_LOW, 1e-6, 0.05, 0.099, 0.1 - 1e-9)
A1_ENDS = (0.7, 1.0, 5.0, 20.0, 100.0)


@cached_strategy
def a0_values(hi: float = 0.1):
    """a0 in (0, hi) (Definition D.1: hi = 0.1), approaching both ends."""
    ends = [v for v in A0_ENDS if v < hi] + [hi * (1 - 1e-9)]
    return st.one_of(st.sampled_from(sorted(set(ends))), st.floats(A0_LOW, hi, exclude_max=True))


def a0_below_beta(beta: float):
    """a0 in (0, min(0.1, (beta - 0.02)/4)): d = n^beta is omega(n^{4 a0 + 0.02}) (Lemma D.8, Theorem D.9)."""
    return a0_values(min(0.1, (beta - 0.02) / 4))


def a1_growing(n: int):
    """a1 in [0.7, max(20, n^{1/4})]: Definition D.1 bounds a1 only below; a 'sufficiently large n'
    may depend on a1, so the cap grows without bound along the path and every a1 is drawn from some n on."""
    return a1_values(max(20.0, float(n) ** 0.25))


@cached_strategy
def a1_values(hi: float = 20.0, lo: float = 0.7):
    """a1 in [lo, hi] (Definition D.1: a1 >= 0.7, no upper bound), ends and 1, 5, 20 included."""
    ends = [v for v in A1_ENDS if lo <= v <= hi] + [lo, hi]
    return st.one_of(st.sampled_from(sorted(set(ends))), st.floats(lo, hi))


def exact_split(x: float) -> tuple[float, float]:
    """(b, c) near (x, 1 - x) with b + c = 1 exactly in binary and b, c >= 0.1.

    The larger of the two is x or fl(1 - x) and the smaller is 1 minus it, exact by
    Sterbenz' lemma; so every case is a genuine point of Definition D.1 and mpmath
    decides its slacks for it (with b = 0.9, c = 0.1 rounded separately, b + c = 1 +
    2.8e-17 turns exact ties of the paper's inequalities into spurious violations).
    The ends 0.9 / 0.1 are reached within one ulp: fl(0.9) + fl(0.1) != 1.
    """
    big = x if x >= 0.5 else 1.0 - x
    while 1.0 - big < 0.1:
        big = math.nextafter(big, 0.0)
    small = 1.0 - big
    return (big, small) if x >= 0.5 else (small, big)


@cached_strategy
def b_and_c():
    """(b, c) with b + c = 1 exactly and b, c >= 0.1 (Definition D.1), both ends included."""
    return in_interval(0.1, 0.9).map(exact_split)


@cache
def divisors(n: int) -> tuple[int, ...]:
    """Sorted divisors of n (n must have only prime factors below 10^4: the path points)."""
    primes, rest, p = [], n, 2
    while rest > 1 and p < 10**4:
        while rest % p == 0:
            primes.append(p)
            rest //= p
        p += 1
    if rest != 1:
        raise ValueError(f"path point {n} has a prime factor >= 10^4")
    out = {1}
    for q in primes:
        out |= {v * q for v in out}
    return tuple(sorted(out))


@cache
def block_widths(n: int, lo: float = 1, hi: float | None = None):
    """k = d - 2 among the divisors of n in [lo, hi], the two ends drawn often."""
    ks = [k for k in divisors(n) if lo <= k <= (n if hi is None else hi)]
    if not ks:
        raise ValueError(f"no divisor of n = {n} in [{lo}, {hi}]")
    return st.one_of(st.sampled_from([ks[0], ks[-1]]), st.sampled_from(ks))


def any_width(min_k: int = 1):
    """Any d >= 2 + min_k with (d - 2) | n: Definition D.1 alone (no relation between d and n)."""
    return lambda n: block_widths(n, lo=min_k)


def hypothesis_width(n: int):
    """d - 2 in [sqrt(n), n/2]: d = n^beta with beta in [1/2, 1], our reading of
    d in [omega(n^0.02), n] (and of d = omega(n^(4 a0 + 0.02)), t sqrt(d) = o(n^0.99))."""
    return block_widths(n, lo=math.isqrt(n - 1) + 1, hi=n // 2)


@cache
def only_width(k: int):
    """``widths`` with d - 2 = k at every n (one function per k: :func:`dataset` keeps its strategies per widths)."""
    fixed = st.just(k)
    return lambda _: fixed


def width_near(n: int, beta: float) -> int:
    """d - 2: the divisor of n in [1, max(1, n/2)] nearest n^beta in log scale (one growth law d = n^beta)."""
    ks = [k for k in divisors(n) if k <= max(1, n // 2)]
    return min(ks, key=lambda k: (abs(math.log(k) - beta * math.log(n)), k))


def beta_width(beta: float):
    """``widths`` for a path over (beta, n): d - 2 = :func:`width_near` (n, beta)."""
    return lambda n: st.just(width_near(n, beta))


def a1_within_budget(n: int, b: float, budget: float = 0.05) -> float:
    """Largest a1 in [0.7, 1) with (a1 + b) n^{a1-1} <= budget (bisection): n "large enough
    for a1" in the corrected Lemma D.4 Part 2. ValueError if even a1 = 0.7 fails."""
    excess = lambda a: (a + b) * n ** (a - 1) - budget  # noqa: E731
    lo, hi = 0.7, 1.0
    if excess(lo) > 0:
        raise ValueError(f"no a1 >= 0.7 has (a1 + b) n^(a1-1) <= {budget} at n = {n}, b = {b}")
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if excess(mid) <= 0 else (lo, mid)
    return lo


@cached_strategy
@st.composite
def special_row(draw, n: int, k: int) -> int:
    """j3 in [0, n): first and last row, the edges of the first block, the middle, anywhere."""
    return draw(integers_with(tuple(sorted({0, n - 1, k - 1, min(k, n - 1), n // 2})), 0, n - 1))


@cached_strategy
@st.composite
def other_row(draw, n: int, k: int, j3: int) -> int:
    """j0 != j3: the next row (another residue), j3 + k (same residue), the row before, anywhere."""
    offset = draw(integers_with(tuple(sorted({1, k % n or 1, n - 1})), 1, n - 1))
    return (j3 + offset) % n


@dataclass(frozen=True)
class Case:
    """One input of an Appendix D claim: a dataset and the lemma's free parameters.

    ``a0`` is set only for a lemma stated on D_1 whose bounds use the symbol a0
    (Lemma D.6 as printed); ``j0`` is the query row of a per-row claim; ``m`` the
    network width of a theorem.
    """

    params: SelfAttentionParams
    delta: float | None = None
    m: int | None = None
    j0: int | None = None
    a0: float | None = None

    @cached_property
    def grouped(self) -> Grouped:
        """The dataset's classes and groups, formed once per case."""
        return Grouped(self.params)

    @property
    def symbol_a(self) -> float:
        """The value of the lemma's a0/a1 symbol: ``a0`` if set, else the dataset's."""
        return self.params.a if self.a0 is None else self.a0

    def __repr__(self) -> str:
        p = self.params
        fields = [f"n={p.n}", f"d={p.d}", f"D{p.label}", f"a={p.a!r}", f"b={p.b!r}", f"c={p.c!r}", f"j3={p.j3}"]
        extra = [f"{name}={getattr(self, name)!r}" for name in ("j0", "a0", "delta", "m")
                 if getattr(self, name) is not None]
        return "Case(" + ", ".join(fields + extra) + ")"


@dataclass(frozen=True)
class PairCase:
    """A D_0 and a D_1 dataset of equal n, d, b, c (one network serves both) and the network."""

    d0: SelfAttentionParams
    d1: SelfAttentionParams
    delta: float
    m: int

    def __repr__(self) -> str:
        p0, p1 = self.d0, self.d1
        return (f"PairCase(n={p0.n}, d={p0.d}, b={p0.b!r}, c={p0.c!r}, a0={p0.a!r}, j3_0={p0.j3}, "
                f"a1={p1.a!r}, j3_1={p1.j3}, delta={self.delta!r}, m={self.m})")


M_FIRE_C = 10.0
"""C of m = ceil(C log(n/delta)) for F_exp > 0: (9/10)^m <= delta/n needs C >= 1/log(10/9) = 9.49,
with Lemma D.4 Part 1's firing probability 1/10 per column y_l."""


def m_fire(n: int, delta_: float) -> int:
    """m = ceil(10 log(n/delta))."""
    return math.ceil(M_FIRE_C * math.log(n / delta_))


@cached_strategy
@st.composite
def dataset(draw, n: int, label: int, widths, a=None, bc=None) -> SelfAttentionParams:
    """A Definition D.1 dataset of size n: k = d - 2 from ``widths(n)``, a from ``a`` (a
    strategy, or a function b -> strategy; default a0_values() for D_0, a1_values() for D_1)."""
    k = draw(widths(n))
    b, c = bc if bc is not None else draw(b_and_c())
    a = a if a is not None else (a0_values() if label == 0 else a1_values())
    a = draw(a(b) if callable(a) else a)
    return SelfAttentionParams(n, k + 2, a, b, c, draw(special_row(n, k)), label)


@st.composite
def case(draw, n: int, label: int, widths=any_width(), a=None, *, a0_symbol: bool = False,  # noqa: B008 (a strategy)
         m_rule=None) -> Case:
    """A :class:`Case`: ``a0_symbol`` draws an a0 for a lemma stated on D_1 with a0 in its
    bounds, ``m_rule(n, delta)`` a network width (with delta)."""
    params = draw(dataset(n, label, widths, a))
    d_ = draw(delta()) if m_rule is not None else None
    return Case(params, delta=d_, m=m_rule(n, d_) if m_rule is not None else None,
                a0=draw(a0_values()) if a0_symbol else None)


@st.composite
def sign_case(draw, n: int, label: int, j0: bool, a=None, widths=hypothesis_width) -> Case:
    """A :class:`Case` of a random-sign lemma (D.4, D.8, D.12, D.16): d from ``widths``, delta."""
    params = draw(dataset(n, label, widths, a))
    return Case(params, delta=draw(delta()), j0=draw(other_row(n, params.k, params.j3)) if j0 else None)


@st.composite
def pair_case(draw, n: int, m_rule=m_fire, widths=hypothesis_width, a0=None, a1=None) -> PairCase:
    """A D_0 / D_1 pair for one network (Theorem 1.1): shared n, d, b, c; own a (from ``a0``, ``a1``) and j3."""
    k = draw(widths(n))
    bc = draw(b_and_c())
    d0 = draw(dataset(n, 0, only_width(k), a0, bc=bc))
    d1 = draw(dataset(n, 1, only_width(k), a1, bc=bc))
    d_ = draw(delta())
    return PairCase(d0, d1, d_, m_rule(n, d_))
