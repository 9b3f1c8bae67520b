"""Strategies for deng2023 Appendices A, C and E: general matrices and the D1 datasets of
Definition D.1 in the setting of Section E.

Two row-class views of a D1 dataset (A1 = A2 = A3, V = I_d) feed the claims' evaluators:

* :meth:`SelfAttentionCase.classes` — the distinct rows of the dataset as the shared
  :class:`~attncheck.papers.deng2023.data.attention.CompressedDataset` lists them (p, q <= d - 1 classes,
  every position of j3), for moderate d;
* :meth:`SelfAttentionCase.orbits` — the rows up to the permutations of the d - 2
  identity columns that fix the residue of j3. When (d-2) | n these permutations map the
  dataset to itself and commute with X = I_d and X = 1_{d x d}, so every row is one of
  j3, a plain row of j3's residue, or a plain row of another residue, and every column
  one of: first, j3's residue, the row's own residue, the d - 4 others, last. Five
  columns and at most four key classes describe any n and d (10^12 costs what 10 costs).

Rows are kept at unit scale (entries a, b, c, 0; the dataset is sqrt(log n) times this)
so that evaluators can rebuild the scores in mpmath from the exact parameters.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from attncheck.core.domains import cached_strategy, in_interval, integers_with, near_ends
from attncheck.papers.deng2023.data.attention import SelfAttentionParams
from attncheck.papers.deng2023.models.class_attention.section_e import ClassModel
from attncheck.papers.deng2023.strategies import delta

# column roles of the orbit view
FIRST, R3, OWN, REST, LAST = range(5)


@dataclass(frozen=True)
class AttentionInputs:
    """General inputs of Appendix C: A1, A2, A3 in R^{n x d}, Q, K, V in R^{d x d}, y in R^{d x m}."""

    A1: np.ndarray
    A2: np.ndarray
    A3: np.ndarray
    Q: np.ndarray
    K: np.ndarray
    V: np.ndarray
    y: np.ndarray
    tau: float

    @property
    def X(self) -> np.ndarray:
        """QK^T (x = vec(QK^T))."""
        return self.Q @ self.K.T

    def __repr__(self) -> str:
        arrays = ", ".join(f"{k}={getattr(self, k).tolist()!r}" for k in ("A1", "A2", "A3", "Q", "K", "V", "y"))
        return f"AttentionInputs({arrays}, tau={self.tau!r})"


@cached_strategy
def _matrix(rows: int, cols: int, bound: float):
    return st.lists(in_interval(-bound, bound), min_size=rows * cols, max_size=rows * cols).map(
        lambda v: np.reshape(np.asarray(v, float), (rows, cols)))


@st.composite
def attention_inputs(draw, a_bound: float, qk_bound: float, max_n: int = 5, max_d: int = 4,
                     max_m: int = 3) -> AttentionInputs:
    """Signed A1, A2, A3 in [-a_bound, a_bound]^{n x d}, Q, K in [-qk_bound, qk_bound]^{d x d},
    V in [-1, 1]^{d x d}, Rademacher y in {-1, 1}^{d x m}, tau in [-1, 1]; n = 1, d = 1 included."""
    n, d, m = draw(st.integers(1, max_n)), draw(st.integers(1, max_d)), draw(st.integers(1, max_m))
    A1, A2, A3 = (draw(_matrix(n, d, a_bound)) for _ in range(3))
    Q, K = (draw(_matrix(d, d, qk_bound)) for _ in range(2))
    y = np.asarray(draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=d * m, max_size=d * m))).reshape(d, m)
    return AttentionInputs(A1, A2, A3, Q, K, draw(_matrix(d, d, 1.0)), y, draw(in_interval(-1.0, 1.0)))


@dataclass(frozen=True)
class SelfAttentionCase:
    """A D1 dataset of Definition D.1 (label 1, A1 = A2 = A3, V = I_d) and the choices of a claim.

    ``bc``: "sum" (b + c = 1, Definition D.1) or "sum_of_squares" (b^2 + c^2 = 1, Section E);
    ``X``: "identity" (QK^T = I_d, Section E) or "ones" (QK^T = 1_{d x d}, as printed in
    Lemma E.2); ``j0``: the row orbit a claim looks at ("j3", "same-residue", "other-residue");
    ``gamma``: d - 2 ~ n^gamma on a scaling path; ``delta``: the failure level.
    """

    n: int
    d: int
    a: float
    b: float
    c: float
    j3: int
    bc: str = "sum_of_squares"
    X: str = "identity"
    j0: str = "j3"
    gamma: float | None = None
    delta: float = 0.1

    @property
    def k(self) -> int:
        """d - 2, the width of the identity blocks."""
        return self.d - 2

    @property
    def t(self) -> int:
        """n / (d - 2)."""
        return self.n // self.k

    def params(self) -> SelfAttentionParams:
        """The validated dataset parameters (every hypothesis of Definition D.1 is checked)."""
        return SelfAttentionParams(self.n, self.d, self.a, self.b, self.c, self.j3, 1, self.bc)

    def x_matrix(self, size: int) -> np.ndarray:
        return np.eye(size) if self.X == "identity" else np.ones((size, size))

    def _coefficients(self, size: int) -> np.ndarray:
        return np.array([self.a] + [self.b] * (size - 2) + [self.c])

    def model(self) -> ClassModel:
        """The row classes up to d - 2 = CLASSES_K_MAX (one column per dataset column), the row orbits beyond
        (five column roles, O(1) in d; the same values, tests/papers/deng2023/test_appendix_ae_claims.py)."""
        return self.classes() if self.k <= CLASSES_K_MAX else self.orbits()

    def classes(self) -> ClassModel:
        """The compressed dataset's row classes at unit scale (j3 anywhere)."""
        data = self.params().compressed()
        unit = lambda rows: (rows != 0) * self._coefficients(self.d)  # noqa: E731
        return ClassModel(unit(data.queries.rows), data.queries.counts, unit(data.keys.rows), data.keys.counts,
                          np.ones(self.d, np.int64), 1 + self.j3 % self.k, np.arange(1, self.d - 1), self.n)

    def orbits(self) -> ClassModel:
        """Query orbits (j3, plain of j3's residue, plain of another residue) against key
        classes (j3, plain of j3's residue, plain of the own residue, plain of the other
        d - 4 residues), on the five columns FIRST, R3, OWN, REST, LAST."""
        self.params()
        k, t = self.k, self.t
        coef = self._coefficients(5)
        row = lambda col, special: coef * np.isin(np.arange(5), [col, LAST] + [FIRST] * special)  # noqa: E731
        keys = [(row(R3, True), 1), (row(R3, False), t - 1), (row(OWN, False), t if k >= 2 else 0),
                (row(REST, False), (k - 2) * t if k >= 3 else 0)]
        keys = [(r, m) for r, m in keys if m > 0]
        queries = np.array([row(R3, True), row(R3, False), row(OWN, False)])
        return ClassModel(queries, _counts([1, t - 1, (k - 1) * t]), np.array([r for r, _ in keys]),
                          _counts([m for _, m in keys]), _counts([1, 1, min(k - 1, 1), max(k - 2, 0), 1]),
                          R3, np.array([R3, OWN, REST]), self.n)


def _counts(values: list) -> np.ndarray:
    """Integer counts as int64 or, where int64 cannot hold them (n >= 2^63), as Python integers (an object
    array; the models read either as values, ``class_attention.counts_of``). A width is then d - 4 >= 1 or 1:
    an object array of widths has no empty group."""
    return np.array(values, np.int64 if max(values) < 2**63 else object)


CLASSES_K_MAX = 40
"""The largest d - 2 evaluated on the row classes (SelfAttentionCase.classes: one column per dataset column)."""
A_MAX = 1e20
"""The largest a drawn for Section E (a1 >= 1 is unbounded above): the largest the Section E certificates close
over (readings.A1_E_HUGE)."""


@cached_strategy
def a_values(lo: float, hi: float = A_MAX, *, exclude_lo: bool = False):
    """a in [lo, hi] (or (lo, hi]): the endpoints, 1.2, 2, 5, 20, 100, uniform on [lo, min(hi, 100)] and, for hi
    above 100, a log-uniform over [100, hi]."""
    inner = in_interval(lo, min(hi, 100.0), exclude_lo=exclude_lo)
    picks = [v for v in (1.2, 2.0, 5.0, 20.0, 100.0) if lo < v < hi]
    if hi > 100.0:
        inner = st.one_of(inner, st.sampled_from([hi]), st.floats(math.log(100.0), math.log(hi)).map(
            lambda u: min(hi, max(100.0, math.exp(u)))))
    return st.one_of(st.sampled_from(picks), inner) if picks else inner


@cached_strategy
def bc_values(bc: str, b_lo: float = 0.1, b_hi: float | None = None, *, exclude_lo: bool = False,
              exclude_hi: bool = False):
    """(b, c) with b + c = 1 ("sum") or b^2 + c^2 = 1 ("sum_of_squares"), b in [b_lo, b_hi] (ends
    excluded on request). The default b_hi keeps c >= 0.1 (Definition D.1's bound)."""
    hi = b_hi if b_hi is not None else (0.9 if bc == "sum" else math.sqrt(0.99))
    b = near_ends(b_lo, hi, exclude_lo=exclude_lo, exclude_hi=exclude_hi)
    if bc == "sum":
        return b.map(lambda v: (v, max(1.0 - v, 0.1)))
    return b.map(lambda v: (v, math.sqrt(1.0 - v * v)))


@cached_strategy
def _j3(n: int, k: int):
    """The first row, the second row (another residue), row d - 2 (j3's residue again), the last row, anywhere."""
    return integers_with(tuple(sorted(j for j in {0, 1, k, n - 1} if j < n)), 0, n - 1)


@st.composite
def self_attention_case(draw, a, bc: str, X: str, n_max: int, k_min: int = 1, k_max: int | None = 40
                        ) -> SelfAttentionCase:
    """A D1 dataset with n = (d-2) t <= n_max, d - 2 in [k_min, k_max] (d = 3, 4 included), t = 1,
    the largest t and anything between; j3 anywhere; (b, c) from :func:`bc_values`. k_max None: d - 2 up to
    n_max, uniform in [k_min, 40] (10 and 40 drawn often) or log-uniform above 40."""
    top = min(40 if k_max is None else k_max, max(n_max // 2, k_min))
    k = draw(integers_with(tuple(sorted({k_min, min(k_min + 1, top), min(10, top), top})), k_min, top))
    if k_max is None and n_max > 2 * CLASSES_K_MAX and draw(st.booleans()):
        k = draw(st.sampled_from([CLASSES_K_MAX + 1, n_max]) | st.floats(
            math.log(CLASSES_K_MAX + 1), math.log(n_max)).map(lambda u: int(math.exp(u))))
        k = min(max(k, CLASSES_K_MAX + 1), n_max)
    t_lo = 1 if k > 1 else 2
    t_max = max(n_max // k, t_lo)
    t = draw(integers_with((t_lo, t_max), t_lo, t_max))
    n = k * t
    b, c = draw(bc_values(bc))
    return SelfAttentionCase(n, k + 2, draw(a), b, c, draw(_j3(n, k)), bc, X)


@st.composite
def scaled_case(draw, N: int, a, b_range, j0=("j3",), with_delta: bool = False) -> SelfAttentionCase:
    """A Section E dataset (b^2 + c^2 = 1, X = I_d) at scale N with d - 2 ~ N^gamma,
    gamma in (2 b^2 + 0.02, 1]: t = max(2, round(N^(1 - gamma))), d - 2 = N // t, n = (d-2) t <= N,
    so (d-2) | n, d <= n, d = omega(n^{2b^2 + 0.02}) and t sqrt(d) = o(n^{1 - b^2 - 0.01}).
    b in [b_lo, b_hi) ((b_lo, b_hi) if b_lo = 0); j3 = n - 1 (every position is equivalent on the orbits)."""
    b, c = draw(bc_values("sum_of_squares", *b_range, exclude_lo=b_range[0] == 0.0, exclude_hi=True))
    gamma = draw(near_ends(2 * b * b + 0.02, 1.0, exclude_lo=True))
    t = max(2, round(N ** (1.0 - gamma)))
    k = max(1, N // t)
    t = max(t, 3) if k == 1 else t
    n = k * t
    orbit = draw(st.sampled_from([o for o in j0 if o != "other-residue" or k >= 2]))
    eps = draw(delta()) if with_delta else 0.1
    return SelfAttentionCase(n, k + 2, draw(a), b, c, n - 1, "sum_of_squares", "identity", orbit, gamma, eps)
