"""Grouped, backend-generic evaluators of Deng et al. 2023 (Definitions C.1, C.2, C.4,
C.6) on the self-attention datasets of Definition D.1, for the settings of Appendix D:
X = QK^T in {1_{d x d}, I_d} and V = I_d.

Why not :mod:`attncheck.models.attention_structured`: that module handles any X, V but
keeps one class per residue mod d-2 (cost O(d^3), numpy only). For X in {1, I} and
V = I the residues other than those of j3 and of the query are exchangeable, so five
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

All functions take the numeric backend ``xp`` of :mod:`attncheck.precision`, so the
engine can re-evaluate undecided slacks in mpmath. Dense entry (j0, j1) is
``values[query_class(j0), key_cell(j0, j1)]``; c_{j0, i0} is
``c[query_class(j0), column_group(j0, i0)]`` (0-based indices, as in
:mod:`attncheck.data.attention`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..data.attention import SelfAttentionParams
from ..precision import F64

QUERIES = ("j3", "same", "own")
KEYS = ("j3", "same", "own", "rest")
GROUPS = ("first", "r3", "own", "rest", "last")
X_CHOICES = ("ones", "identity")


@dataclass(frozen=True)
class Grouped:
    """A Definition D.1 dataset (A1 = A2 = A3) as query classes, key cells and column groups."""

    params: SelfAttentionParams

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

    @property
    def keys(self) -> np.ndarray:
        """Indices into KEYS of the key cells present."""
        return np.flatnonzero(self._all_counts()[0] > 0)

    @property
    def queries(self) -> np.ndarray:
        """Indices into QUERIES of the query classes present."""
        return np.flatnonzero(self._all_counts()[1] > 0)

    @property
    def groups(self) -> np.ndarray:
        """Indices into GROUPS of the column groups present."""
        return np.flatnonzero(self._all_counts()[2] > 0)

    @property
    def key_counts(self) -> np.ndarray:
        return self._all_counts()[0][self.keys]

    @property
    def query_counts(self) -> np.ndarray:
        return self._all_counts()[1][self.queries]

    @property
    def widths(self) -> np.ndarray:
        """Number of columns of each present column group (they sum to d)."""
        return self._all_counts()[2][self.groups]

    # ---- dense index -> class -------------------------------------------------------------

    def _rho(self, j0: int) -> int:
        r3 = self.params.j3 % self.k
        return (r3 + 1) % self.k if j0 % self.k == r3 else j0 % self.k

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

    def scale(self, xp=F64):
        """sqrt(log n)."""
        return xp.sqrt(xp.log(xp.asarray(float(self.n))))

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


def _as(xp, values):
    return xp.asarray(np.asarray(values, dtype=float))


def scores(g: Grouped, X: str, xp=F64):
    """A1 X A2^T per (query class, key cell) (Claims C.3, C.5) for X = 1_{dxd} or I_d."""
    if X not in X_CHOICES:
        raise ValueError(f"X must be one of {X_CHOICES}; got {X!r}")
    R = g.rows(xp)
    Q = R[[int(np.flatnonzero(g.keys == q)[0]) for q in g.queries]]
    if X == "ones":
        return xp.sum(Q, axis=1)[:, None] * xp.sum(R, axis=1)[None, :]
    return Q @ R.T


def u_lin(g: Grouped, X: str, xp=F64):
    """u_lin(A, x)_{j0, j1} = (A_{j0} x)_{j1} (Definition C.1); (classes, cells)."""
    return scores(g, X, xp)


def alpha_lin(g: Grouped, X: str, xp=F64):
    """alpha_lin_{j0} = <u_lin_{j0}, 1_n> (Definition C.1); (classes,)."""
    return xp.sum(u_lin(g, X, xp) * _as(xp, g.key_counts), axis=1)


def f_lin(g: Grouped, X: str, xp=F64):
    """f_lin_{j0} = alpha_lin_{j0}^{-1} u_lin_{j0} (Definition C.1); (classes, cells)."""
    return u_lin(g, X, xp) / alpha_lin(g, X, xp)[:, None]


def log_u_exp(g: Grouped, X: str, xp=F64):
    """log u_exp(A, x)_{j0, j1} = (A_{j0} x)_{j1} (Definition C.4); (classes, cells)."""
    return scores(g, X, xp)


def log_alpha_exp(g: Grouped, X: str, xp=F64):
    """log alpha_exp_{j0} = log <exp(A_{j0} x), 1_n> (Definition C.4), log-sum-exp; (classes,)."""
    return xp.logsumexp(scores(g, X, xp) + xp.log(_as(xp, g.key_counts))[None, :], axis=-1)


def log_f_exp(g: Grouped, X: str, xp=F64):
    """log f_exp_{j0, j1} = log u_exp - log alpha_exp (Definition C.4); (classes, cells)."""
    return scores(g, X, xp) - log_alpha_exp(g, X, xp)[:, None]


def f_exp(g: Grouped, X: str, xp=F64):
    """f_exp_{j0} = alpha_exp_{j0}^{-1} u_exp_{j0} (Definition C.4), log domain; (classes, cells)."""
    return xp.exp(log_f_exp(g, X, xp))


def c_from_f(g: Grouped, f, xp=F64):
    """c_{j0, i0} = <f_{j0}, (A3 V)_{i0}> with V = I_d (Definitions C.1, C.4); (classes, groups)."""
    weights = f * _as(xp, g.key_counts)[None, :]
    return (weights @ g.rows(xp)) / _as(xp, g.widths)[None, :]


def c_lin(g: Grouped, X: str, xp=F64):
    """c_lin per query class and column group (Definition C.1, V = I_d)."""
    return c_from_f(g, f_lin(g, X, xp), xp)


def c_exp(g: Grouped, X: str, xp=F64):
    """c_exp per query class and column group (Definition C.4, V = I_d)."""
    return c_from_f(g, f_exp(g, X, xp), xp)


def sign_group_sums(widths: np.ndarray, rng: np.random.Generator, shape: tuple) -> np.ndarray:
    """Sums of i.i.d. Rademacher signs over each column group, shape ``shape + (groups,)``.

    A vector y in {-1, +1}^d enters <c_{j0}, y> only through these sums (c_{j0} is
    constant on each group); a sum over w signs is 2 Binomial(w, 1/2) - w, exact in
    distribution.
    """
    widths = np.asarray(widths, np.int64)
    dtype = np.int32 if widths.max() < 2**30 else np.int64
    out = np.empty(tuple(shape) + widths.shape, dtype)
    for i, w in enumerate(widths):
        draw = rng.integers(0, 2, shape) if w == 1 else rng.binomial(w, 0.5, shape)
        out[..., i] = 2 * draw - w
    return out


def inner(c_row, Y, xp=F64):
    """<c_{j0}, y> for one query class's c (groups,) and group sums Y (..., groups)."""
    Y = np.asarray(Y)
    total = Y[..., 0] * c_row[0]
    for i in range(1, Y.shape[-1]):
        total = total + Y[..., i] * c_row[i]
    return total


def top_score(c, Y, xp=F64):
    """max over query classes j0 and columns l of <c_{j0}, y_l> for Y (draws, m, groups).

    F = phi(sum_{j0} sum_l phi_tau(<c_{j0}, y_l>)) (Definitions C.2, C.6) is > 0 iff this
    maximum exceeds tau, and = 0 otherwise (phi_tau >= 0, multiplicities >= 1). For
    X = 1_{dxd} every query class holds equal rows, so the class representative's
    y-column groups serve every row of the class.
    """
    best = None
    for q in range(c.shape[0]):
        value = np.max(inner(c[q], Y, xp), axis=-1)
        best = value if best is None else xp.maximum(best, value)
    return best
