"""Conditional moments of one query's softmax weights (goel2026 Lemmas 9-23), by Monte Carlo.

Query x_i fixed, keys x_1..x_n with x_i among them (self-term) and the other n - 1 keys
i.i.d. N(0, Sigma): one draw of x_{-i} costs O(n d), never an n x n matrix. Notation of the
claims file: m(x) = Sigma B^T x, q(x) = x^T B Sigma B^T x, s(x) = x^T B x, mu_i = sum_j p_ij x_j,
C_i = sum_j p_ij (x_j - mu_i)(x_j - mu_i)^T.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def tilt(x_i, B, Sigma) -> tuple[float, float, np.ndarray]:
    """(q, s, m) = (x^T B Sigma B^T x, x^T B x, Sigma B^T x)."""
    u = B.T @ x_i
    return float(u @ Sigma @ u), float(x_i @ B @ x_i), Sigma @ u


@dataclass
class QueryDraws:
    """Softmax quantities of one query over ``size`` draws of the other n - 1 keys."""

    p_self: np.ndarray  # (size,) p_ii
    p_other: np.ndarray  # (size, n - 1) p_ij, j != i
    mu: np.ndarray  # (size, d)
    keys: np.ndarray  # (size, n - 1, d)
    x_i: np.ndarray  # (d,) or (size, d)

    def cov(self) -> np.ndarray:
        """C_i per draw, (size, d, d)."""
        dx = self.keys - self.mu[:, None, :]
        d0 = self.x_i - self.mu
        return np.swapaxes(dx * self.p_other[..., None], 1, 2) @ dx + self.p_self[:, None, None] * \
            d0[:, :, None] * d0[:, None, :]


def draw_keys(Sigma, rng, n: int, size: int) -> np.ndarray:
    """x_{-i}: (size, n - 1, d) i.i.d. N(0, Sigma)."""
    d = Sigma.shape[0]
    return (rng.standard_normal((size * (n - 1), d)) @ np.linalg.cholesky(Sigma).T).reshape(size, n - 1, d)


def query(x_i, B, keys) -> QueryDraws:
    """p_ii, p_ij (j != i) and mu_i for the query x_i ((d,), or one per draw (size, d)) over the key
    sets ``keys`` (size, n - 1, d), x_i itself being a key too (self-term)."""
    u = x_i @ B  # rows u^T = x_i^T B, i.e. u = B^T x_i
    s_self = np.sum(x_i * u, axis=-1)
    s = keys @ u if u.ndim == 1 else (keys @ u[:, :, None])[:, :, 0]
    top = np.maximum(s.max(axis=1), s_self)
    e_self = np.exp(s_self - top)
    e = np.exp(s - top[:, None])
    Z = e_self + e.sum(axis=1)
    p_self, p_other = e_self / Z, e / Z[:, None]
    mu = p_self[:, None] * x_i + (p_other[:, None, :] @ keys)[:, 0]
    return QueryDraws(p_self, p_other, mu, keys, x_i)
