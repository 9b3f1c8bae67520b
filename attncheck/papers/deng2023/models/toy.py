"""deng2023 Sections 3-5: the toy softmax/linear "attention" classifier.

Dense forms follow Definitions 3.2-3.6 literally on (A, x). Structured forms take the
score vector Ax as :class:`GroupedScores` (distinct values with multiplicities), so a
dataset of any n costs O(#groups): signs enter through their group sums
(:mod:`attncheck.papers.deng2023.models.random_signs`).

All functions take a backend ``xp`` (:mod:`attncheck.numeric.precision`) so the same code runs
in float64 and in mpmath.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attncheck.numeric.precision import F64

# ---- Definitions 3.2-3.4 (dense) -------------------------------------------------

def u_lin(A, x, xp=F64):
    """Definition 3.2: u_lin(A; x) = Ax."""
    return xp.asarray(A) @ xp.asarray(x)


def alpha_lin(A, x, xp=F64):
    """Definition 3.2: alpha_lin(A; x) = <u_lin(A, x), 1_n>."""
    return xp.sum(u_lin(A, x, xp), axis=-1)


def f_lin(A, x, xp=F64):
    """Definition 3.2: f_lin(A; x) = alpha_lin(A, x)^{-1} u_lin(A, x)."""
    u = u_lin(A, x, xp)
    return u / xp.sum(u, axis=-1)[..., None]


def u_exp(A, x, xp=F64):
    """Definition 3.3: u_exp(A; x) = exp(Ax) (overflows for large scores; see f_exp)."""
    return xp.exp(u_lin(A, x, xp))


def log_alpha_exp(A, x, xp=F64):
    """log of Definition 3.3's alpha_exp(A, x) = <exp(Ax), 1_n>, via log-sum-exp."""
    return xp.logsumexp(u_lin(A, x, xp), axis=-1)


def f_exp(A, x, xp=F64):
    """Definition 3.3: f_exp(A, x) = alpha_exp^{-1} u_exp, computed in log domain."""
    z = u_lin(A, x, xp)
    return xp.exp(z - xp.logsumexp(z, axis=-1)[..., None])


def phi(z, xp=F64):
    """Definition 3.4: ReLU phi(z) = max(z, 0)."""
    return xp.maximum(z, 0.0 * z)


def phi_tau(z, tau, xp=F64):
    """Definition 3.4: phi_tau(z) = max(z - tau, 0)."""
    return phi(z - tau, xp)


def network(f, y, tau, xp=F64):
    """Definitions 3.5/3.6: phi(sum_j phi_tau(<f, y_j>)) for y of shape (..., n, m); the m inner products <f, y_j> as
    one product f^T y."""
    scores = (f[..., None, :] @ y)[..., 0, :]
    return phi(xp.sum(phi_tau(scores, tau, xp), axis=-1), xp)


def F_exp(A, x, y, tau, xp=F64):
    """Definition 3.5: F_exp(A; x, y) = phi(sum_j phi_tau(<f_exp(A, x), y_j>))."""
    return network(f_exp(A, x, xp), y, tau, xp)


def F_lin(A, x, y, tau, xp=F64):
    """Definition 3.6 (printed as F_exp; it is F_lin): phi(sum_j phi_tau(<f_lin(A, x), y_j>))."""
    return network(f_lin(A, x, xp), y, tau, xp)


# ---- structured forms ---------------------------------------------------------------

@dataclass(frozen=True)
class GroupedScores:
    """Score vector Ax in R^n as distinct values ``z[g]`` repeated ``k[g]`` times."""

    z: np.ndarray
    k: np.ndarray

    def __post_init__(self):
        z, k = np.asarray(self.z, float), np.asarray(self.k)
        if z.ndim != 1 or z.shape != k.shape or z.size == 0:
            raise ValueError(f"z and k must be non-empty 1-d arrays of equal length, got {z.shape}, {k.shape}")
        if not np.issubdtype(k.dtype, np.integer) or np.any(k < 1):
            raise ValueError("multiplicities k must be integers >= 1")
        if not np.all(np.isfinite(z)):
            raise ValueError("scores z must be finite")
        object.__setattr__(self, "z", z)
        object.__setattr__(self, "k", k.astype(np.int64))

    @property
    def n(self) -> int:
        return int(self.k.sum())

    def dense(self) -> np.ndarray:
        """The full score vector Ax (only for small n: tests and dense checks)."""
        return np.repeat(self.z, self.k)

    def __repr__(self) -> str:
        return f"GroupedScores(z={self.z.tolist()!r}, k={self.k.tolist()!r})"


def f_lin_grouped(s: GroupedScores, xp=F64):
    """f_lin per group: z_g / sum_g k_g z_g (Definition 3.2)."""
    z = xp.asarray(s.z)
    return z / xp.sum(xp.asarray(s.k) * z)


def f_exp_grouped(s: GroupedScores, xp=F64):
    """f_exp per group: exp(z_g - log sum_g k_g exp(z_g)) (Definition 3.3, log domain)."""
    z = xp.asarray(s.z)
    return xp.exp(z - xp.logsumexp(z + xp.log(xp.asarray(s.k))))


def grouped_inner(f_g, S, xp=F64):
    """<f, sigma> for signs summarised by group sums S[..., g]: sum_g f_g S_g."""
    return xp.sum(xp.asarray(S) * f_g, axis=-1)


def min_abs_signed_sum(f_g, k, xp):
    """min over sigma in {-1, 1}^n of |sum_i f_i sigma_i| for weights f_g repeated k_g times, when the
    weight w of group 0 (k_0 = 1: the D1 spike of Definition 3.8) outweighs the rest R: then it is w - R,
    attained by sigma = +1 at the spike and -1 elsewhere (|sum| >= w - |rest| >= w - R); Lemma 4.2 Part 2."""
    if int(k[0]) != 1:
        raise ValueError(f"group 0 must be a single weight (the spike), got multiplicity {k[0]}")
    w = f_g[0]
    rest = xp.sum(f_g[1:] * xp.asarray(np.asarray(k[1:], float)))
    if float(w) < float(rest):
        raise NotImplementedError("the spike does not outweigh the other weights: the adversarial sigma is "
                                  "not the closed form here (a subset-sum search would be needed)")
    return w - rest
