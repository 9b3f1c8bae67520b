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

    def cov(self, rows: int = 2**14) -> np.ndarray:
        """C_i per draw, (size, d, d): the centred keys in chunks of at most ``rows`` key rows, so that
        the (draws, n - 1, d) temporaries stay in cache."""
        size, n1, d = self.keys.shape
        out = np.empty((size, d, d))
        step = max(1, rows // n1)
        for a in range(0, size, step):
            b = slice(a, a + step)
            dx = self.keys[b] - self.mu[b, None, :]
            np.matmul(np.swapaxes(dx * self.p_other[b, :, None], 1, 2), dx, out=out[b])
        d0 = self.x_i - self.mu
        out += self.p_self[:, None, None] * d0[:, :, None] * d0[:, None, :]
        return out


def draw_keys(Sigma, rng, n: int, size: int, rows: int = 2**16) -> np.ndarray:
    """x_{-i}: (size, n - 1, d) i.i.d. N(0, Sigma), z L^T with z standard normal rows drawn ``rows`` at a
    time into one buffer (the same stream as one draw of all the rows, without its full-size temporary)."""
    d = Sigma.shape[0]
    LT = np.linalg.cholesky(Sigma).T
    out = np.empty((size * (n - 1), d))
    z = np.empty((min(rows, len(out)), d))
    for a in range(0, len(out), rows):
        m = min(rows, len(out) - a)
        rng.standard_normal(out=z[:m])
        np.matmul(z[:m], LT, out=out[a:a + m])
    return out.reshape(size, n - 1, d)


def query(x_i, B, keys) -> QueryDraws:
    """p_ii, p_ij (j != i) and mu_i for the query x_i ((d,), or one per draw (size, d)) over the key
    sets ``keys`` (size, n - 1, d), x_i itself being a key too (self-term)."""
    u = x_i @ B  # rows u^T = x_i^T B, i.e. u = B^T x_i
    s_self = np.sum(x_i * u, axis=-1)
    s = keys @ u if u.ndim == 1 else (keys @ u[:, :, None])[:, :, 0]
    top = np.maximum(s.max(axis=1), s_self)
    e_self = np.exp(s_self - top)
    p_other = np.exp(np.subtract(s, top[:, None], out=s), out=s)  # in place: one (size, n - 1) array
    Z = e_self + p_other.sum(axis=1)
    p_self = e_self / Z
    p_other /= Z[:, None]
    mu = p_self[:, None] * x_i + (p_other[:, None, :] @ keys)[:, 0]
    return QueryDraws(p_self, p_other, mu, keys, x_i)
