"""Gaussian linear-regression data of Goel, Soltanolkotabi, Bartlett (arXiv 2603.01514), Section 1.

x_i ~ N(0, Sigma) i.i.d., y_i = M x_i + eps_i with eps_i ~ N(0, sigma^2 I_k) (the noise law
is RECONSTRUCTED: isotropic), k >= d, M of full column rank (assumptions A1, A2).

Two samplers:

* :func:`sample` draws the raw pairs (x_i, y_i), batched over datasets;
* :func:`sample_moments` draws, exactly in distribution and at O(d^3) per dataset, the
  statistics Algorithm 1 needs from the data: Sigma_hat = X X^T / n (Wishart, Bartlett
  decomposition) and M_hat = C_hat Sigma_hat^{-1} = M + E X^T Sigma_hat^{-1} / n, whose
  noise term given X is Gaussian with row covariance sigma^2 Sigma_hat^{-1} / n.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def sym_sqrt(S: np.ndarray, power: float = 0.5) -> np.ndarray:
    """S^power of symmetric positive definite matrices (batched, by eigendecomposition)."""
    w, Q = np.linalg.eigh(S)
    return (Q * w[..., None, :] ** power) @ np.swapaxes(Q, -1, -2)


def sym_powers(S: np.ndarray, *powers: float) -> tuple[np.ndarray, ...]:
    """(S^p for p in ``powers``) from one eigendecomposition: each the same array as ``sym_sqrt(S, p)``."""
    w, Q = np.linalg.eigh(S)
    Qt = np.swapaxes(Q, -1, -2)
    return tuple((Q * w[..., None, :] ** p) @ Qt for p in powers)


@dataclass(frozen=True)
class Problem:
    """(Sigma, M, sigma): covariance d x d, regression matrix k x d, noise level."""

    Sigma: np.ndarray
    M: np.ndarray
    sigma: float

    def __post_init__(self):
        d = self.Sigma.shape[0]
        k = self.M.shape[0]
        if self.Sigma.shape != (d, d) or self.M.shape != (k, d):
            raise ValueError(f"Sigma must be d x d and M k x d, got {self.Sigma.shape}, {self.M.shape}")
        if k < d:
            raise ValueError(f"assumption A2 needs k >= d, got k={k}, d={d}")
        if not np.allclose(self.Sigma, self.Sigma.T) or np.linalg.eigvalsh(self.Sigma)[0] <= 0:
            raise ValueError("assumption A1 needs Sigma symmetric positive definite")
        if not self.sigma >= 0:
            raise ValueError(f"noise level sigma must be >= 0, got {self.sigma}")

    @property
    def d(self) -> int:
        return self.Sigma.shape[0]

    @property
    def k(self) -> int:
        return self.M.shape[0]

    @property
    def X(self) -> np.ndarray:
        """X := M Sigma^{1/2} (claims file, Section 2)."""
        return self.M @ sym_sqrt(self.Sigma)


def random_problem(rng, d: int, k: int, *, cond: float = 4.0, x_scale: float = 0.5, spread: float = 0.5,
                   sigma: float = 0.1) -> Problem:
    """A random (Sigma, M, sigma): Sigma with eigenvalues log-spaced in [cond^{-1/2}, cond^{1/2}]
    (condition number ``cond``) in a random basis, and M = X Sigma^{-1/2} with X = U diag(s) V^T,
    U, V random with orthonormal columns and s log-spaced from spread * x_scale to x_scale:
    sigma_1(X) = x_scale (the A3 size), sigma_d(X) / sigma_1(X) = spread."""
    Q, _ = np.linalg.qr(rng.standard_normal((d, d)))
    Sigma = (Q * np.geomspace(1.0, cond, d)) @ Q.T / np.sqrt(cond)
    Sigma = (Sigma + Sigma.T) / 2
    U, _ = np.linalg.qr(rng.standard_normal((k, d)))
    V, _ = np.linalg.qr(rng.standard_normal((d, d)))
    X = (U * np.geomspace(x_scale, spread * x_scale, d)) @ V.T
    return Problem(Sigma, X @ sym_sqrt(Sigma, -0.5), sigma)


def appendix_a_problem(rng, d: int, k: int, *, c_sigma: float = 0.5, c_M: float = 0.1,
                       sigma: float = 0.1) -> Problem:
    """The Appendix A recipe as reconstructed (claims file 4.3): Sigma = H H^T / d + c_Sigma I,
    M = c_M G, with G (k x d) and H (d x d) i.i.d. N(0, 1) (the paper's constants are lost)."""
    H = rng.standard_normal((d, d))
    G = rng.standard_normal((k, d))
    Sigma = H @ H.T / d + c_sigma * np.eye(d)
    return Problem((Sigma + Sigma.T) / 2, c_M * G, sigma)


def sample(problem: Problem, rng, n: int, batch: tuple = ()) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) of shapes batch + (n, d), batch + (n, k)."""
    L = np.linalg.cholesky(problem.Sigma)
    x = rng.standard_normal(batch + (n, problem.d)) @ L.T
    y = x @ problem.M.T + problem.sigma * rng.standard_normal(batch + (n, problem.k))
    return x, y


def wishart_mean(Sigma: np.ndarray, n: int, rng, size: int) -> np.ndarray:
    """Sigma_hat = (1/n) sum_{i<=n} x_i x_i^T for ``size`` datasets, by the Bartlett decomposition."""
    d = Sigma.shape[0]
    if n < d:
        raise ValueError(f"the Bartlett decomposition needs n >= d, got n={n}, d={d}")
    T = np.zeros((size, d, d))
    T[:, np.arange(d), np.arange(d)] = np.sqrt(rng.chisquare(n - np.arange(d), (size, d)))
    low = np.tril_indices(d, -1)
    T[:, low[0], low[1]] = rng.standard_normal((size, len(low[0])))
    LT = np.linalg.cholesky(Sigma) @ T
    return LT @ np.swapaxes(LT, -1, -2) / n


def sample_moments(problem: Problem, rng, n: int, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(Sigma_hat, M_hat, N) for ``size`` datasets of n pairs, exactly in distribution.

    N = E_noise X^T / n (k x d): given the covariates, its rows are i.i.d. N(0, sigma^2 Sigma_hat / n);
    M_hat = M + N Sigma_hat^{-1} (Algorithm 1, step 1)."""
    S_hat = wishart_mean(problem.Sigma, n, rng, size)
    L = np.linalg.cholesky(S_hat)
    N = problem.sigma / np.sqrt(n) * rng.standard_normal((size, problem.k, problem.d)) @ np.swapaxes(L, -1, -2)
    return S_hat, problem.M + N @ np.linalg.inv(S_hat), N


def whitened_noise_moments(d: int, k: int, n: int, sigma: float, rng, size: int) -> tuple[np.ndarray, np.ndarray]:
    """(Sigma_z_hat, N) for ``size`` datasets, exactly in distribution (Lemma 6's noise cross term):
    Sigma_z_hat = Z_c Z_c^T / n (Wishart(I, n)/n) for whitened covariates Z_c and N = E_noise Z_c^T / n,
    whose rows are N(0, sigma^2 Sigma_z_hat / n) given the covariates."""
    Sz = wishart_mean(np.eye(d), n, rng, size)
    N = sigma / np.sqrt(n) * rng.standard_normal((size, k, d)) @ np.swapaxes(np.linalg.cholesky(Sz), -1, -2)
    return Sz, N
