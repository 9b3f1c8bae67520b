"""Hypothesis strategies for the Section 6 GLM identities of bombari2024: feature matrices Phi (N x p,
full row rank), the features phi(X), phi(X^i(Delta)), labels and the initialisation theta_0.

Families: Gaussian features, non-negative (ReLU random-features-like) features, and
ill-conditioned ones (rows of Phi and phi near a common direction, spread eps down to 1e-7),
where float64 cannot decide the identities and mpmath does.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st


@dataclass(frozen=True)
class FeatureCase:
    N: int
    p: int
    family: str
    eps: float
    seed: int
    theta0: str  # "zero" or "gaussian"
    near: float  # ||phi' - phi|| relative to ||phi|| (0: X^i(Delta) = X)

    def arrays(self):
        """(Phi, phi, phi_pert, Y, y, theta0), float64."""
        rng = np.random.default_rng(self.seed)
        N, p = self.N, self.p
        if self.family == "gaussian":
            F = rng.standard_normal((N + 1, p))
        elif self.family == "relu":
            # a uniform floor, not a constant one: a row of all-negative Gaussians (probability 2^-p) would
            # otherwise repeat another such row and make Phi_r rank deficient
            F = np.maximum(rng.standard_normal((N + 1, p)), 0.0) + 1e-3 * rng.uniform(0.5, 1.0, (N + 1, p))
        else:  # ill-conditioned: every row near one direction
            F = rng.standard_normal(p)[None, :] + self.eps * rng.standard_normal((N + 1, p))
        Phi, phi = F[:N], F[N]
        pert = phi + self.near * np.linalg.norm(phi) * rng.standard_normal(p) / np.sqrt(p)
        Y = rng.choice([-1.0, 1.0], N)
        y = float(rng.choice([-1.0, 1.0]))
        theta0 = np.zeros(p) if self.theta0 == "zero" else rng.standard_normal(p) / np.sqrt(p)
        return Phi, phi, pert, Y, y, theta0


def feature_case(max_N: int = 6, max_p: int = 12):
    """N in [1, max_N], p in [N + 1, max_p] (K_r = Phi_r Phi_r^T invertible almost surely in every family)."""
    return st.integers(1, max_N).flatmap(lambda N: st.builds(
        FeatureCase, st.just(N), st.integers(N + 1, max_p), st.sampled_from(["gaussian", "relu", "ill"]),
        st.sampled_from([1e-1, 1e-3, 1e-5, 1e-7]), st.integers(0, 2**31 - 1), st.sampled_from(["zero", "gaussian"]),
        st.one_of(st.sampled_from([0.0, 1.0]), st.floats(0.0, 2.0))))
