"""bombari2024 Lemma D.3 (D.27)-(D.31) without the d x d matrix W: the candidate pairs of
:func:`raf_witness.candidate_pairs` and sigma(Delta) = X W Delta / sqrt(d), drawn exactly in law in coordinates.

Everything Lemma D.3 computes is an inner product or a norm of vectors in a few subspaces of R^d: the rows of X, the
v of (D.24), x^T W and W^T delta for x, delta in their span S, and the h of the aligned pairs. With Q an orthonormal
basis of S (dim m = r + b: the row space of X, rank r, then the span of the b draws of v), W's rows restricted to S
are Q^T W = B Q^T + C Q_perp^T with B = Q^T W Q (m x m) and C = Q^T W Q_perp independent, both with i.i.d.
N(0, 1/d) entries (W's law is invariant under rotations). C = L O^T (its LQ factor L, p = min(m, d - m) columns,
O orthonormal in Q_perp), and L has the Bartlett law of :func:`lq_factor`. In the coordinates (S, span O, one more
axis for the rest of R^d), W acts on S as the (m + p + 1)-square matrix with rows [B, L, 0] on S and 0 elsewhere:
x^T W, W^T delta and X W Delta agree with the d-dimensional products for x, delta in S, for every Delta. The b draws
of v (isotropic in the (d - r)-dimensional complement of the rows of X) are the rows of an LQ factor too, and h
(isotropic in the complement of the rows of X W) is a Gaussian of the coordinates projected off those rows, plus
the norm of a Gaussian of the d - m - p remaining dimensions on the last axis. Cost O(n m^2 + m^3) a draw, with
no dependence on d beyond the coordinates of X (:func:`row_coords`, O(n^2 d) once per X).
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from attncheck.papers.bombari2024.models import raf_witness as rw
from attncheck.papers.bombari2024.readings import fraction


def lq_factor(rng: np.random.Generator, rows: int, k: int) -> np.ndarray:
    """The LQ factor L (rows x min(rows, k), lower trapezoidal, positive diagonal) of a rows x k matrix of i.i.d.
    N(0, 1) entries, drawn directly (Bartlett): L_jj ~ chi_{k - j}, L_ij ~ N(0, 1) below the diagonal."""
    p = min(rows, k)
    L = np.tril(rng.standard_normal((rows, p)), -1)
    L[np.arange(p), np.arange(p)] = np.sqrt(rng.chisquare(k - np.arange(p)))
    return L


def row_coords(X: np.ndarray) -> np.ndarray:
    """X U_r: the rows of X in the basis U_r of their span (n x r, r = rank X by
    :func:`raf_witness.rank_of`), without a d x n factor: with X^T = Q R (Householder QR, O(d n^2)) and the
    SVD R = U S V^T, X^T = (Q U) S V^T, so U_r = (Q U)_{:r} and X U_r = V_{:r} S_{:r}."""
    R = np.linalg.qr(X.T, mode="r")
    _, s, Vt = np.linalg.svd(R)
    r = rw.rank_of(s)
    return Vt[:r].T * s[:r]


def case_coords(tc) -> np.ndarray:
    """:func:`row_coords` of a token case's X (read-only), once per token matrix: the optimizer's evaluations of a
    case and its re-estimates share X, which changes neither with i nor with the knob of a family that ignores it."""
    return _coords(tc.canonical)


@functools.lru_cache(maxsize=16)
def _coords(tc) -> np.ndarray:
    Xr = row_coords(tc.X)
    Xr.setflags(write=False)
    return Xr


def orth_h(XW: np.ndarray, rng: np.random.Generator, d: int, U: np.ndarray | None = None) -> np.ndarray:
    """One draw (1 x (m + p + 1)) of h of :func:`raf_witness.pair_along` in the coordinates: isotropic in the
    complement of the rows of X W in R^d, norm sqrt(d). The last axis carries the norm of its part in the
    d - m - p dimensions that no coordinate spans. U: :func:`raf_witness.row_space` of XW's first m + p columns,
    when already computed."""
    k = XW.shape[1] - 1
    U = rw.row_space(XW[:, :k]) if U is None else U
    g = rng.standard_normal(k)
    h = np.append(g - U @ (U.T @ g), math.sqrt(rng.chisquare(d - k)) if d > k else 0.0)
    norm = np.linalg.norm(h)
    if norm == 0:
        raise ValueError("rank(X W) = d: no h orthogonal to the rows of X W")
    return (h * (math.sqrt(d) / norm))[None]


@dataclass(frozen=True)
class Draw:
    """The part of one draw of :func:`candidate_pairs` that does not depend on i (read-only arrays): X, W, X W,
    U = :func:`raf_witness.row_space` of X W, the top direction v, frac, the first two pairs and the generator's
    state after them (the i-dependent pair and the last one are drawn from it)."""

    X: np.ndarray
    W: np.ndarray
    XW: np.ndarray
    U: np.ndarray
    v: np.ndarray
    frac: int
    first: tuple
    state: dict


def draw(Xr: np.ndarray, d: int, seed, vs: int = 8) -> Draw:
    """One draw of W (N(0, 1/d) entries) in the coordinates of Xr (:func:`row_coords`), with the witness pair of
    (D.31) and the pair aligned with the top direction of the rows of X W: :func:`candidate_pairs` before i."""
    n, r = Xr.shape
    if r >= d:
        raise ValueError("rank(X) = d: no v orthogonal to the rows of X")
    rng = np.random.default_rng(int(seed))
    Lv = lq_factor(rng, vs, d - r)  # the draws of v in a basis of their span
    m = r + Lv.shape[1]
    Lw = lq_factor(rng, m, d - m) / math.sqrt(d)  # C = Q^T W Q_perp in the basis O of its rows
    k = m + Lw.shape[1]
    W = np.zeros((k + 1, k + 1))
    W[:m, :m] = rng.standard_normal((m, m)) / math.sqrt(d)
    W[:m, m:k] = Lw
    X, V = np.zeros((n, k + 1)), np.zeros((vs, k + 1))
    X[:, :r] = Xr
    V[:, r:m] = Lv * (math.sqrt(d) / np.linalg.norm(Lv, axis=1, keepdims=True))
    XW, frac = X @ W, fraction(n)
    U, v = rw.row_space(XW[:, :k]), rw.top_direction(XW, frac)  # shared by the three aligned pairs
    first = (rw.d3_best(X, W, rng, frac, d=d, V=V),
             rw.aligned_pair(XW, rng, rw.rows_along(XW, frac, v), d, lambda A, g: orth_h(A, g, d, U)))
    for a in (X, W, XW, U, v, *first[0], *first[1]):
        a.setflags(write=False)
    return Draw(X, W, XW, U, v, frac, first, rng.bit_generator.state)


def pairs_at(dr: Draw, d: int, i: int):
    """(X, W, pairs) of :func:`candidate_pairs` from its i-free part: the first two pairs, then, from the generator
    where they left it, the pair toward token i and the pair along v (each draws a fixed amount, whatever i)."""
    rng = np.random.default_rng(0)
    rng.bit_generator.state = dr.state

    def orth(A, g):
        return orth_h(A, g, d, dr.U)

    pairs = [*dr.first,
             rw.aligned_pair(dr.XW, rng, rw.rows_toward(dr.X, dr.XW, i, dr.frac, d), d, orth),
             rw.pair_along(dr.XW, rng, dr.v, d, orth)]
    return dr.X, dr.W, pairs


def candidate_pairs(Xr: np.ndarray, d: int, i: int, seed, vs: int = 8):
    """(X, W, pairs) in the coordinates, for one draw of W (N(0, 1/d) entries), from the rows Xr of X in the basis
    of their span (:func:`row_coords`): the four candidate pairs of :func:`raf_witness.candidate_pairs` with the
    same law, and X, W such that :func:`raf_witness.sigma` (X, W, Delta, d) is sigma(Delta) of (D.27)."""
    return pairs_at(draw(Xr, d, seed, vs), d, i)


def case_pairs(tc, i: int, seed, vs: int = 8):
    """:func:`candidate_pairs` of a token case, its i-free part (:func:`draw`) kept per (token matrix, seed): the
    optimizer's evaluations of a case share their seeds (common random numbers) and, but for a knob the family
    uses, X; only i changes."""
    return pairs_at(_draw(tc.canonical, int(seed), vs), tc.d, i)


@functools.lru_cache(maxsize=8)
def _draw(tc, seed: int, vs: int) -> Draw:
    return draw(case_coords(tc), tc.d, seed, vs)
