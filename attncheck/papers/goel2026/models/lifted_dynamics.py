"""Optimisation in goel2026's lifted coordinates Z = [U; V] = [A Sigma^{1/2}; Sigma^{1/2} B Sigma^{1/2}]
(arXiv 2603.01514; claims file Section 1.9), where F - F* = ||U V^T - X||_F^2/2 + ||U^T U - V^T V||_F^2/8:

* :func:`minimise_lifted`: L-BFGS on F from a start Z (Theorem 1 (2), argmin F = M: "local minimisation
  of F from random starts should end on M");
* :func:`preconditioned_step`: Algorithm 1's preconditioned gradient Kbar (grad_Z F + e_Z) K with
  K = Sigma^{1/2} Sigma_hat^{-1} Sigma^{1/2}, Kbar = diag(I_k, K) (Lemma 4);
* :func:`algorithm1_lifted`: T steps of Algorithm 1 with bounded gradient errors (Theorem 2's recursion).
"""
from __future__ import annotations

import math

import numpy as np

from attncheck.papers.goel2026.data.gaussian_regression import Problem
from attncheck.papers.goel2026.models import softmax_regression as sr


def minimise_lifted(Z_start, X, k: int):
    """The result of L-BFGS-B on F - F* in lifted coordinates from ``Z_start`` (analytic gradient, to gradient
    1e-13 or 20000 iterations)."""
    from scipy.optimize import minimize
    shape = Z_start.shape

    def f(z):
        Z = z.reshape(shape)
        return sr.lifted_excess(Z, X, k), sr.lifted_grad(Z, X, k).ravel()

    return minimize(f, Z_start.ravel(), jac=True, method="L-BFGS-B",
                    options={"maxiter": 20000, "ftol": 0.0, "gtol": 1e-13})


def preconditioned_step(Z_star, H, e_Z, K, k: int):
    """Kbar G_Z K at Z = Z* + H, G_Z = grad_Z F + e_Z, with X := U* V*^T (Lemma 4)."""
    G = sr.lifted_grad(Z_star + H, Z_star[:k] @ Z_star[k:].T, k) + e_Z
    return np.concatenate([G[:k] @ K, K @ G[k:] @ K], axis=0)


def adversarial_error(H, K, k: int):
    """The unit e minimising <Kbar e K, H> = <e, Kbar H K>: -Kbar H K / ||Kbar H K||_F (the error direction that
    most lowers Lemma 4 part 1's left side, and most raises dist(Z, M)^2 to first order, for its norm)."""
    D = np.concatenate([H[:k], K @ H[k:]], axis=0) @ K
    return -D / max(np.linalg.norm(D), 1e-300)


def algorithm1_lifted(p: Problem, Z_star, H, K, eta: float, E: float, T: int, push: float, seed: int):
    """Z_{t+1} = Z_t - eta Kbar (grad_Z F(Z_t) + e_t) K (Algorithm 1 in lifted coordinates, Lemma 4) for T steps
    from Z_0 = Z* + H, ||e_t||_F^2 = E, e_t = push * (the adversarial unit -Kbar H_t K, :func:`adversarial_error`)
    + (1 - push) * (random unit), normalised (random directions from default_rng([seed, 222])).
    Returns Phi_0 = ||H_0||^2, Phi_T = dist(Z_T, M)^2, F(Z_T) - F* and L(Z_T) - L* = ||U V^T - X||^2/2."""
    k = p.k
    X = Z_star[:k] @ Z_star[k:].T
    Z0 = sr.manifold_base(p)
    rng = np.random.default_rng([seed, 222])
    Z = Z_star + H
    for _ in range(T):
        H_t = Z - Z0 @ sr.procrustes_rotation(Z0, Z)
        g = rng.standard_normal(Z.shape)
        u = push * adversarial_error(H_t, K, k) + (1 - push) * g / np.linalg.norm(g)
        e = math.sqrt(E) * u / max(np.linalg.norm(u), 1e-300)
        G = sr.lifted_grad(Z, X, k) + e
        Z = Z - eta * np.concatenate([G[:k] @ K, K @ G[k:] @ K], axis=0)
    dist2 = float(np.sum((Z - Z0 @ sr.procrustes_rotation(Z0, Z)) ** 2))
    L_gap = 0.5 * float(np.sum((Z[:k] @ Z[k:].T - X) ** 2))
    return float(np.sum(H ** 2)), dist2, float(sr.lifted_excess(Z, X, k)), L_gap
