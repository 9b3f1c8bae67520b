"""Gauss-Hermite quadrature for expectations over N(0, Sigma) in a few dimensions.

E f(x) with x = L z, z ~ N(0, I_d), L L^T = Sigma, on the tensor grid of the m-point
probabilists' Gauss-Hermite rule: exact for polynomials of degree <= 2m - 1 in each
coordinate, so for the entire functions of the goel2026 identities (e^{u^T x} times
polynomials) its error is the tail of the exponential series (negligible for
|L^T u| <= m / 6, say).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.polynomial.hermite_e import hermegauss


@lru_cache(maxsize=16)
def standard_grid(d: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """(z, w): the m^d tensor nodes of N(0, I_d) and their weights (summing to 1); read-only."""
    z1, w1 = hermegauss(m)
    w1 = w1 / w1.sum()
    z = np.stack(np.meshgrid(*([z1] * d), indexing="ij"), axis=-1).reshape(-1, d)
    w = np.prod(np.stack(np.meshgrid(*([w1] * d), indexing="ij"), axis=-1).reshape(-1, d), axis=1)
    z.flags.writeable = w.flags.writeable = False
    return z, w


def grid(Sigma: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray]:
    """(x, w): the m^d nodes x (m^d, d) of N(0, Sigma) and weights w summing to 1."""
    z, w = standard_grid(Sigma.shape[0], m)
    return z @ np.linalg.cholesky(Sigma).T, w


def tilted_mean(u: np.ndarray, Sigma: np.ndarray, m: int) -> np.ndarray:
    """E[e^{u^T x'} x'] / E[e^{u^T x'}], x' ~ N(0, Sigma), for each row of u (..., d), by quadrature."""
    x, w = grid(Sigma, m)
    s = u @ x.T
    s = s - s.max(axis=-1, keepdims=True)
    e = w * np.exp(s)
    return (e @ x) / e.sum(axis=-1, keepdims=True)
