"""The classes of the self-attention datasets of Definition D.1 for the settings of
Appendix D (X = QK^T in {1_{d x d}, I_d}, V = I_d), evaluated by
:mod:`attncheck.papers.deng2023.models.class_attention` (Definitions C.1, C.2, C.4, C.6).

For X in {1, I} and V = I the residues other than those of j3 and of the query are exchangeable, so five
column groups and four key cells describe every row exactly, whatever n and d:

* key cells (rows of A2 = A3): ``j3`` (the row j3; count 1), ``same`` (the other rows
  of residue r3 = j3 mod (d-2); t-1), ``own`` (the rows of one residue rho != r3; t),
  ``rest`` (the rows of the remaining d-4 residues; (d-4) t);
* query classes (rows of A1): ``j3``, ``same`` and ``own`` (a representative of the
  n - t rows whose residue rho differs from r3; rho = j0 mod (d-2), and rho = r3 + 1
  for the queries of residue r3);
* column groups: ``first`` (column 1), ``r3`` and ``own`` (the identity columns of
  residues r3 and rho), ``rest`` (the d-4 other identity columns), ``last`` (column d),
  of widths 1, 1, 1, d-4, 1.

Every representative row has one b sqrt(log n) among the identity columns, so with the
rows written on the column groups, A1 X A2^T is exact for X = 1 (products of row sums)
and X = I (matching groups; no query lives in ``rest``). c_{j0} is constant on each
column group: c[q, g] = sum_k count_k f[q, k] A[k, g] / width_g. Cells, classes and
groups of multiplicity zero (t = 1, d = 3, d = 4) are dropped.

All functions take the numeric backend ``xp`` of :mod:`attncheck.numeric.precision`, so the
engine can re-evaluate undecided slacks in mpmath. Dense entry (j0, j1) is
``values[query_class(j0), key_cell(j0, j1)]``; c_{j0, i0} is
``c[query_class(j0), column_group(j0, i0)]`` (0-based indices, as in
:mod:`attncheck.papers.deng2023.data.attention`).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from attncheck.numeric.precision import F64
from attncheck.papers.deng2023.data.attention import SelfAttentionParams
from attncheck.papers.deng2023.models import class_attention as core
from attncheck.papers.deng2023.models.class_attention import X_CHOICES

_CHUNK = 1 << 21
"""Largest number of group sums converted to float64 at once in top_score."""

QUERIES = ("j3", "same", "own")
KEYS = ("j3", "same", "own", "rest")
GROUPS = ("first", "r3", "own", "rest", "last")


def _frozen(a: np.ndarray) -> np.ndarray:
    """``a`` made read-only (shared by every evaluation of a case)."""
    a.flags.writeable = False
    return a


@dataclass(frozen=True)
class Grouped:
    """A Definition D.1 dataset (A1 = A2 = A3) as query classes, key cells and column groups.

    ``rho`` fixes the residue of the ``own`` cell, class and group for the queries of
    residue r3 (default r3 + 1 mod d-2); two datasets sharing one y use it to align
    their column groups.
    """

    params: SelfAttentionParams
    rho: int | None = None

    def __post_init__(self):
        if self.rho is not None and not (0 <= self.rho < self.k and self.rho != self.params.j3 % self.k):
            raise ValueError(f"rho must be a residue mod {self.k} other than j3's; got {self.rho}")

    @property
    def n(self) -> int:
        return self.params.n

    @property
    def k(self) -> int:
        """d - 2, the width of the identity blocks."""
        return self.params.k

    @property
    def t(self) -> int:
        """n / (d - 2)."""
        return self.params.n // self.params.k

    def _all_counts(self):
        n, k, t = self.n, self.k, self.t
        keys = np.array([1, t - 1, t if k >= 2 else 0, max(k - 2, 0) * t], dtype=np.int64)
        queries = np.array([1, t - 1, n - t], dtype=np.int64)
        widths = np.array([1, 1, 1 if k >= 2 else 0, max(k - 2, 0), 1], dtype=np.int64)
        return keys, queries, widths

    def _present(self):
        """Which key cells, query classes and column groups have a nonzero multiplicity."""
        return tuple(counts > 0 for counts in self._all_counts())

    @cached_property
    def _structure(self) -> tuple:
        """(indices, counts) of the present key cells, query classes and column groups, formed once
        per dataset (read-only: every evaluation of the case shares them)."""
        out = []
        for counts, present in zip(self._all_counts(), self._present(), strict=True):
            index = np.flatnonzero(present)
            out.append((_frozen(index), _frozen(counts[index])))
        return tuple(out)

    @property
    def keys(self) -> np.ndarray:
        """Indices into KEYS of the key cells present."""
        return self._structure[0][0]

    @property
    def queries(self) -> np.ndarray:
        """Indices into QUERIES of the query classes present."""
        return self._structure[1][0]

    @property
    def groups(self) -> np.ndarray:
        """Indices into GROUPS of the column groups present."""
        return self._structure[2][0]

    @cached_property
    def query_cells(self) -> np.ndarray:
        """Rows of the per-key-cell arrays holding each present query class's own cell."""
        return _frozen(np.array([int(np.flatnonzero(self.keys == q)[0]) for q in self.queries]))

    @property
    def key_counts(self) -> np.ndarray:
        return self._structure[0][1]

    @property
    def query_counts(self) -> np.ndarray:
        return self._structure[1][1]

    @property
    def widths(self) -> np.ndarray:
        """Number of columns of each present column group (they sum to d)."""
        return self._structure[2][1]

    # ---- dense index -> class -------------------------------------------------------------

    def _rho(self, j0: int) -> int:
        r3 = self.params.j3 % self.k
        if j0 % self.k != r3:
            return j0 % self.k
        return (r3 + 1) % self.k if self.rho is None else self.rho

    def query_class(self, j0: int) -> int:
        """Row of the per-class arrays holding query j0."""
        j3, k = self.params.j3, self.k
        name = "j3" if j0 == j3 else "same" if j0 % k == j3 % k else "own"
        return int(np.flatnonzero(self.queries == QUERIES.index(name))[0])

    def key_cell(self, j0: int, j1: int) -> int:
        """Column of the per-(class, cell) arrays holding key j1 as seen from query j0."""
        j3, k = self.params.j3, self.k
        r = j1 % k
        name = "j3" if j1 == j3 else "same" if r == j3 % k else "own" if r == self._rho(j0) else "rest"
        return int(np.flatnonzero(self.keys == KEYS.index(name))[0])

    def column_group(self, j0: int, i0: int) -> int:
        """Entry of the per-class c arrays holding column i0 of c_{j0}."""
        k = self.k
        if i0 == 0:
            name = "first"
        elif i0 == self.params.d - 1:
            name = "last"
        else:
            r = i0 - 1
            name = "r3" if r == self.params.j3 % k else "own" if r == self._rho(j0) else "rest"
        return int(np.flatnonzero(self.groups == GROUPS.index(name))[0])

    # ---- Definition D.1 rows ---------------------------------------------------------------

    def n_value(self, xp=F64):
        """n as a backend value."""
        return xp.asarray(float(self.n))

    def t_value(self, xp=F64):
        """t = n / (d - 2) as a backend value."""
        return xp.asarray(float(self.t))

    def scale(self, xp=F64):
        """sqrt(log n)."""
        return xp.sqrt(xp.log(self.n_value(xp)))

    def rows(self, xp=F64):
        """Representative rows of the key cells on the column groups; (cells, groups)."""
        p = self.params
        s = self.scale(xp)
        a, b, c = (xp.asarray(v) * s for v in (p.a, p.b, p.c))
        zero = 0 * s
        full = [[a, b, zero, zero, c], [zero, b, zero, zero, c],
                [zero, zero, b, zero, c], [zero, zero, zero, b, c]]
        table = np.array([[full[i][j] for j in self.groups] for i in self.keys], dtype=object)
        return xp.asarray(table)


@dataclass(frozen=True)
class Symbols:
    """The real parameters of a relaxed dataset: a, b, c (label as in Definition D.1)."""

    a: object
    b: object
    c: object
    label: int
    j3: int = 0


@dataclass(frozen=True)
class Relaxed(Grouped):
    """A Definition D.1 dataset with k = d - 2 and t = n/(d-2) relaxed to reals (e.g. arb balls, for
    certification over a box): the counts 1, t - 1, t, (k-2) t and the widths are values, n = k t.

    The class structure is not relaxed: ``same`` (t >= 2: the cell and class of j3's residue's other
    rows are present) and ``k_class`` (1, 2 or 3 meaning k >= 3: the ``own`` and ``rest`` cells and
    groups) are fixed, and the values of k, t must lie in that structure's range.
    """

    k_value: object = None
    t_real: object = None
    same: bool = True
    k_class: int = 3

    @property
    def n(self):
        return self.k_value * self.t_real

    @property
    def k(self):
        return self.k_value

    @property
    def t(self):
        return self.t_real

    def _all_counts(self):
        k, t = self.k_value, self.t_real
        keys = np.array([1, t - 1, t, (k - 2) * t], dtype=object)
        queries = np.array([1, t - 1, k * t - t], dtype=object)
        widths = np.array([1, 1, 1, k - 2, 1], dtype=object)
        return keys, queries, widths

    def _present(self):
        own, rest = self.k_class >= 2, self.k_class >= 3
        return (np.array([True, self.same, own, rest]), np.array([True, self.same, own]),
                np.array([True, True, own, rest, True]))

    def n_value(self, xp=F64):
        return xp.asarray(self.n)

    def t_value(self, xp=F64):
        return xp.asarray(self.t_real)


def scores(g: Grouped, X: str, xp=F64):
    """A1 X A2^T per (query class, key cell) (Claims C.3, C.5) for X = 1_{dxd} or I_d."""
    return _scores(g, g.rows(xp), X, xp)


def _scores(g: Grouped, R, X: str, xp):
    """:func:`scores` from the rows R = ``g.rows(xp)``."""
    if X not in X_CHOICES:
        raise ValueError(f"X must be one of {X_CHOICES}; got {X!r}")
    return core.scores(R[g.query_cells], R, X, g.widths, xp)


def u_lin(g: Grouped, X: str, xp=F64):
    """u_lin(A, x)_{j0, j1} = (A_{j0} x)_{j1} (Definition C.1); (classes, cells)."""
    return scores(g, X, xp)


def alpha_lin(g: Grouped, X: str, xp=F64):
    """alpha_lin_{j0} = <u_lin_{j0}, 1_n> (Definition C.1); (classes,)."""
    return core.alpha_lin(scores(g, X, xp), g.key_counts, xp)


def f_lin(g: Grouped, X: str, xp=F64):
    """f_lin_{j0} = alpha_lin_{j0}^{-1} u_lin_{j0} (Definition C.1); (classes, cells)."""
    return core.f(scores(g, X, xp), g.key_counts, xp, softmax=False)


def log_u_exp(g: Grouped, X: str, xp=F64):
    """log u_exp(A, x)_{j0, j1} = (A_{j0} x)_{j1} (Definition C.4); (classes, cells)."""
    return scores(g, X, xp)


def log_alpha_exp(g: Grouped, X: str, xp=F64):
    """log alpha_exp_{j0} = log <exp(A_{j0} x), 1_n> (Definition C.4); (classes,)."""
    return core.log_alpha_exp(scores(g, X, xp), g.key_counts, xp)


def log_f_exp(g: Grouped, X: str, xp=F64):
    """log f_exp_{j0, j1} = log u_exp - log alpha_exp (Definition C.4); (classes, cells)."""
    return core.log_f_exp(scores(g, X, xp), g.key_counts, xp)


def f_exp(g: Grouped, X: str, xp=F64):
    """f_exp_{j0} = alpha_exp_{j0}^{-1} u_exp_{j0} (Definition C.4); (classes, cells)."""
    return core.f(scores(g, X, xp), g.key_counts, xp, softmax=True)


def _c(g: Grouped, X: str, xp, softmax: bool):
    R = g.rows(xp)
    return core.c_parts(_scores(g, R, X, xp), R, g.key_counts, g.widths, xp, softmax).c


def c_lin(g: Grouped, X: str, xp=F64):
    """c_lin per query class and column group (Definition C.1, V = I_d)."""
    return _c(g, X, xp, softmax=False)


def c_exp(g: Grouped, X: str, xp=F64):
    """c_exp per query class and column group (Definition C.4, V = I_d)."""
    return _c(g, X, xp, softmax=True)


def aligned_pair(p0: SelfAttentionParams, p1: SelfAttentionParams):
    """Grouped forms of two datasets of equal n, d on shared column groups, for one draw of y.

    Returns (g0, g1, perm): the group sums Y drawn for g0's groups serve g1 as Y[..., perm].
    When the j3's have different residues, each dataset's ``own`` group is the other's
    j3-residue column, so groups 1 and 2 swap; otherwise the partitions coincide.
    """
    if (p0.n, p0.d) != (p1.n, p1.d):
        raise ValueError("the two datasets must share n and d")
    r0, r1 = p0.j3 % p0.k, p1.j3 % p1.k
    if r0 == r1:
        return Grouped(p0), Grouped(p1), None
    g0, g1 = Grouped(p0, rho=r1), Grouped(p1, rho=r0)
    perm = np.arange(len(g1.groups))
    perm[[1, 2]] = [2, 1]
    return g0, g1, perm


def inner(c_row, Y):
    """<c_{j0}, y> for one query class's c (groups,) and group sums Y (..., groups); float64
    or mpmath as c_row is."""
    Y = np.asarray(Y)
    total = Y[..., 0] * c_row[0]
    for i in range(1, Y.shape[-1]):
        total = total + Y[..., i] * c_row[i]
    return total


def top_score(c, Y):
    """max over query classes j0 and columns l of <c_{j0}, y_l> for Y (draws, m, groups), in
    float64 or mpmath as c is.

    F = phi(sum_{j0} sum_l phi_tau(<c_{j0}, y_l>)) (Definitions C.2, C.6) is > 0 iff this
    maximum exceeds tau, and = 0 otherwise (phi_tau >= 0, multiplicities >= 1). Valid for
    X = 1_{dxd}, where the rows of a query class are equal and c_{j0} takes one value on
    all identity columns but the j3-residue one, so one partition of y serves every row.
    """
    return top_scores([c], Y)[0]


def top_scores(cs, Y) -> list:
    """:func:`top_score` of each c of ``cs`` (float64 or mpmath arrays) for one Y: in float64 each chunk of Y is
    converted once for all of them, and a c equal to an earlier one (a network theorem that reads one network
    twice) reuses its maximum; the same numbers as :func:`top_score` of each."""
    Y = np.asarray(Y)
    cs = [np.asarray(c) for c in cs]
    keys = [c.tobytes() if c.dtype != object else (c.shape, tuple(c.ravel())) for c in cs]
    distinct = {}  # key -> index into cs of its first occurrence
    for i, key in enumerate(keys):
        distinct.setdefault(key, i)
    first = list(distinct.values())
    tops = {}
    floats = [i for i in first if cs[i].dtype != object]
    if floats:  # equal rows (the 'same' and 'own' classes under X = 1) counted once
        rows = {i: np.unique(cs[i], axis=0).T for i in floats}
        step = max(1, _CHUNK // max(1, Y[0].size))
        parts = {i: [] for i in floats}
        for s in range(0, len(Y), step):
            chunk = np.asarray(Y[s:s + step], np.float64)
            for i in floats:
                parts[i].append(np.max(chunk @ rows[i], axis=(-2, -1)))
        tops.update({i: np.concatenate(parts[i]) for i in floats})
    for i in first:
        if cs[i].dtype == object:
            c = cs[i]
            approx = np.stack([inner(c[q].astype(float), Y) for q in range(len(c))], axis=-1)
            tops[i] = _top_score_mp(c, Y, approx)
    return [tops[distinct[key]] for key in keys]


def _near(c, Y, approx):
    """(draw, pair) mask of the (column, class) pairs within 1e-9 of a draw's float64 maximum, relative to the size
    of the terms (see :func:`_top_score_mp`)."""
    size = np.stack([inner(np.abs(c[q].astype(float)), np.abs(Y)) for q in range(len(c))], axis=-1)
    flat, size = approx.reshape(len(Y), -1), size.reshape(len(Y), -1)
    return flat >= flat.max(axis=1, keepdims=True) - 1e-9 * size.max(axis=1, keepdims=True)


def _top_score_mp(c, Y, approx):
    """The maximum in mpmath, evaluating only the (column, class) pairs whose float64 value is
    within 1e-9 of the float64 maximum, relative to the size of the terms: float64 errs by
    ~1e-15 there, so no other pair can be the maximum.

    Each distinct (class, group sums) pair among them is evaluated once (group sums are small
    integers, so near-ties repeat across columns and draws) and the distinct values are ranked
    once; a draw's maximum is the value of its highest-ranked pair: the same mpmath numbers as
    evaluating every pair of every draw (:func:`_top_score_mp_plain`)."""
    near = _near(c, Y, approx)
    classes = len(c)
    draw, j = np.nonzero(near)  # row-major: each draw's pairs together, every draw has one (its maximum)
    if len(draw) == 0:
        return np.empty(0, dtype=object)
    sums = Y[draw, j // classes]
    keys = np.concatenate([(j % classes).astype(sums.dtype)[:, None], sums], axis=1)
    unique, which = np.unique(keys, axis=0, return_inverse=True)
    values = [inner(c[int(u[0])], u[1:]) for u in unique]
    order = sorted(range(len(values)), key=values.__getitem__)
    rank = np.empty(len(values), np.int64)
    rank[order] = np.arange(len(values))
    starts = np.flatnonzero(np.r_[True, draw[1:] != draw[:-1]])
    best = np.maximum.reduceat(rank[np.ravel(which)], starts)
    out = np.empty(len(Y), dtype=object)
    for i, r in zip(draw[starts], best, strict=True):
        out[i] = values[order[r]]
    return out


def _top_score_mp_plain(c, Y, approx):
    """:func:`_top_score_mp` pair by pair (the reference its tests compare with)."""
    near = _near(c, Y, approx)
    classes = len(c)
    out = np.empty(len(Y), dtype=object)
    for i in range(len(Y)):
        out[i] = max(inner(c[j % classes], Y[i, j // classes]) for j in np.flatnonzero(near[i]))
    return out
