"""Hypothesis strategies for julistiono2024 (ell_p geometry, attention data, cone points).

Exponents mix the values of the paper's experiments and of the claims file's hints with
uniform draws over the whole admissible range; matrices mix log-uniform magnitudes with
random signs, exact zeros, one-hot and constant patterns (the equality cases of Lemma 12)
and near-equal pairs (the 0/0 corner of Lemma 13).
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from hypothesis import strategies as st

from attncheck.core.domains import in_interval

#: exponents of the experiments and the claims file's hints
P_STANDARD = (1.1, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0)
#: largest exponent drawn ("large p") where the claim's terms may overflow or the series of power_differences is sized
P_MAX = 64.0
#: largest exponent of Lemma 12 (entries normalized to max |W_jk| = 1): float64's range
P_FLOAT = 1e300
#: the Section 4.1 datasets (n = 6, T = 8, d = 10) of the cone and run claims: their ell_p-AttSVM solves (argmax and
#: the selections of att_svm.locally_optimal_selections, p in P_STANDARD) have KKT residual <= 8.9e-14 (2026-12-07)
CONE_SEEDS = tuple(range(8))
#: the step sizes drawn besides the typical ones: up to float64 overflow; below 1e-12 slacks of high order in eta exceed 240 digits
ETA_WIDE = (1e-12, 1e300)


def exponents(lo: float, hi: float, *, open_lo: bool = False, open_hi: bool = False):
    """p in the interval, with the standard values inside it, the included ends and points just above 1."""
    inside = [p for p in P_STANDARD if (lo < p if open_lo else lo <= p) and (p < hi if open_hi else p <= hi)]
    near_one = [1.0 + e for e in (1e-9, 1e-6, 1e-3)] if lo == 1.0 and open_lo else []
    parts = [in_interval(lo, hi, exclude_lo=open_lo, exclude_hi=open_hi)]
    if inside or near_one:
        parts.insert(0, st.sampled_from(inside + near_one))
    return st.one_of(*parts)


def wide_exponents(lo: float, hi: float):
    """p in [lo, hi] with hi > P_MAX: exponents(lo, P_MAX) half the time, else log-uniform in [P_MAX, hi]."""
    large = st.floats(float(np.log10(P_MAX)), float(np.log10(hi))).map(lambda e: float(min(10.0 ** e, hi)))
    return st.one_of(exponents(lo, P_MAX), large, st.just(hi))


def _entries(size: int):
    mag = st.floats(-6.0, 3.0).map(lambda e: 10.0 ** e)
    entry = st.one_of(st.just(0.0), st.tuples(st.sampled_from((-1.0, 1.0)), mag).map(lambda sm: sm[0] * sm[1]))
    return st.lists(entry, min_size=size, max_size=size)


@st.composite
def matrices(draw, max_side: int = 4):
    """Any r x c matrix (r, c <= max_side): random log-magnitudes, zero, one-hot or constant."""
    r, c = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    kind = draw(st.sampled_from(("random", "random", "one-hot", "constant", "zero")))
    if kind == "random":
        return np.reshape(draw(_entries(r * c)), (r, c))
    W = np.zeros((r, c))
    if kind == "one-hot":
        W[draw(st.integers(0, r - 1)), draw(st.integers(0, c - 1))] = draw(st.floats(-1e3, 1e3))
    elif kind == "constant":
        W[:] = draw(st.floats(-1e3, 1e3))
    return W


@st.composite
def matrix_pairs(draw, p, max_side: int = 4, unit_ball: bool = False):
    """(W, V) of one shape: independent, equal, near-equal, sign-flipped, with zeros; optionally rescaled into ||.||_p <= 1."""
    from attncheck.papers.julistiono2024.models.mirror_descent import lp_norm

    W = draw(matrices(max_side))
    how = draw(st.sampled_from(("independent", "equal", "near", "flip", "zero-one")))
    if how == "independent":
        V = np.reshape(draw(_entries(W.size)), W.shape)
    elif how == "equal":
        V = W.copy()
    elif how == "near":
        rel = 10.0 ** draw(st.floats(-12.0, -1.0))
        signs = np.reshape(draw(st.lists(st.sampled_from((-1.0, 1.0)), min_size=W.size, max_size=W.size)), W.shape)
        V = W * (1.0 + rel * signs)
    elif how == "flip":
        V = -W * draw(st.floats(0.0, 2.0))
    else:
        V = np.zeros_like(W)
    if unit_ball:
        out = []
        for A in (W, V):
            nrm = lp_norm(A, p)
            radius = draw(st.one_of(st.just(1.0), st.floats(0.0, 1.0)))
            out.append(A / nrm * radius if nrm > 0 else A)
        W, V = out
    return W, V


@st.composite
def power_pairs(draw, p_lo: float = 1.0, p_hi: float = P_MAX, p_open_lo: bool = True):
    """{y, delta, p}: x = y + delta >= y >= 0 with delta down to 1e-12 (relative ties) and exact zeros."""
    y = draw(st.one_of(st.just(0.0), st.floats(-6.0, 3.0).map(lambda e: 10.0 ** e), in_interval(0.0, 100.0)))
    delta = draw(st.one_of(st.just(0.0), st.floats(-12.0, 3.0).map(lambda e: 10.0 ** e),
                           st.floats(-12.0, -2.0).map(lambda e: y * 10.0 ** e)))
    p = draw(exponents(p_lo, p_hi, open_lo=p_open_lo))
    return {"y": float(y), "delta": float(delta), "p": float(p)}


class AttCase(NamedTuple):
    """One (dataset, W, V, eta, p) draw for the model lemmas."""

    key: tuple  # (seed, n, T, d): the dataset, see attncheck.papers.julistiono2024.data.mirror_descent.synthetic
    W: np.ndarray
    V: np.ndarray
    eta: float
    p: float


@st.composite
def att_cases(draw, p_lo: float = 1.0, p_hi: float = 6.0, eta_lo: float = 1e-4, eta_hi: float = 1e2,
              scale_hi: float = 1e3):
    """Datasets of Section 4.1's kind (n <= 6, T <= 8, d <= 10) with W of any scale up to scale_hi, zero included;
    eta log-uniform in [eta_lo, eta_hi] or, when eta_lo < eta_hi, as often in ETA_WIDE (the float64 range)."""
    seed = draw(st.integers(0, 7))
    n, T, d = draw(st.integers(1, 6)), draw(st.integers(2, 8)), draw(st.integers(1, 10))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 31)))
    scale = draw(st.one_of(st.just(0.0), st.floats(-3.0, np.log10(scale_hi)).map(lambda e: 10.0 ** e)))
    W = scale * rng.standard_normal((d, d))
    if draw(st.booleans()):  # exact zeros (grad psi is not smooth there for p < 2)
        W[rng.random((d, d)) < 0.3] = 0.0
    V = rng.standard_normal((d, d))
    decades = st.floats(np.log10(eta_lo), np.log10(eta_hi))
    if eta_lo < eta_hi:
        decades = st.one_of(decades, st.floats(np.log10(ETA_WIDE[0]), np.log10(ETA_WIDE[1])))
    eta = draw(decades.map(lambda e: 10.0 ** e))
    p = draw(exponents(p_lo, p_hi, open_lo=True))
    return AttCase((seed, n, T, d), W, V, float(eta), float(p))


@lru_cache(maxsize=4096)
def _cone_direction(seed, p, u, w, sel=0):
    """The unit direction of a cone point (shared by every R and every claim that draws the same parameters)."""
    from attncheck.papers.julistiono2024.models.att_svm import cone_direction, reference_geometry

    geom = reference_geometry(seed, p, sel)
    d = geom.W_mm.shape[0]
    Wbar = cone_direction(geom, u, np.random.default_rng(w).standard_normal((d, d)))
    Wbar.setflags(write=False)
    return Wbar


class ConeCase:
    """A cone point W with ||W||_p = R ||W_mm||_p and its geometry (repr: the parameters)."""

    def __init__(self, R, seed, p, u, w, pi=None, eta=None, sel=0):
        from attncheck.papers.julistiono2024.models.att_svm import reference_geometry

        self.R, self.seed, self.p, self.u, self.w, self.pi, self.eta, self.sel = R, seed, p, u, w, pi, eta, sel
        self.geom = reference_geometry(seed, p, sel)
        self.Wbar = _cone_direction(seed, p, u, w, sel)
        self.W = R * self.geom.svm.norm * self.Wbar

    @property
    def data(self):
        return self.geom.data

    def __repr__(self):
        extra = "".join(f", {k}={getattr(self, k)!r}" for k in ("pi", "eta") if getattr(self, k) is not None)
        extra += f", sel={self.sel}" if self.sel else ""
        return f"ConeCase(R={self.R!r}, seed={self.seed}, p={self.p}, u={self.u!r}, w={self.w}{extra})"
