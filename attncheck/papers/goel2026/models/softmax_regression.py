"""Softmax self-attention regression of Goel, Soltanolkotabi, Bartlett (arXiv 2603.01514).

Parameters theta = (A, B), A in R^{k x d} (value), B in R^{d x d} (key-query product).
Predictor (Section 1.2): y_hat(x) = A sum_j p_j(x) x_j, p_j(x) = softmax_j(x^T B x_j).
Every function takes numpy float64 arrays with any leading batch axes (datasets).

Conventions (claims file, goel2026-claims.md; tags there):

* in-sample loss L_n (eq. (1), RECONSTRUCTED): keys include the query itself (self-term
  j = i); ``self_term=False`` gives the leave-one-out variant;
* population loss L (eq. (2)): closed form of Theorem 1.1 and the ratio of expectations
  by Monte Carlo;
* regularizer R = tr(G Sigma G Sigma) / 8, G = A^T A - B^T Sigma B (Section 1.8, RECONSTRUCTED);
* lifted coordinates Z = [U; V] = [A Sigma^{1/2}; Sigma^{1/2} B Sigma^{1/2}], so that the
  Sigma-norm ||theta||_Sigma is ||Z||_F (Section 1.9);
* manifold of minima {Z_0 R : R in O(d)} and its Sigma-norm projection (Procrustes, 1.10-1.11).
"""
from __future__ import annotations

import numpy as np

from attncheck.papers.goel2026.data.gaussian_regression import Problem, sym_sqrt

T = lambda a: np.swapaxes(a, -1, -2)  # noqa: E731  batched transpose


# ---- attention --------------------------------------------------------------------------

def softmax_weights(xq: np.ndarray, xk: np.ndarray, B: np.ndarray, self_term: bool = True) -> np.ndarray:
    """p_ij = exp(x_i^T B x_j) / sum_l exp(x_i^T B x_l) (Section 1.2), shape (..., nq, nk).

    ``self_term=False`` (leave-one-out, xq is xk) drops j = i."""
    s = xq @ B @ T(xk)
    if not self_term:
        s = s + np.where(np.eye(s.shape[-1], dtype=bool), -np.inf, 0.0)
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)


def attend(xq, xk, B, self_term: bool = True):
    """(p, mu) with mu_i = sum_j p_ij x_j (the attention output before A)."""
    p = softmax_weights(xq, xk, B, self_term)
    return p, p @ xk


def weighted_cov(p, xk, mu):
    """C_i = sum_j p_ij (x_j - mu_i)(x_j - mu_i)^T, shape (..., nq, d, d) (Lemma 8)."""
    return np.einsum("...ij,...ja,...jb->...iab", p, xk, xk) - mu[..., :, None] * mu[..., None, :]


# ---- losses and their gradients ---------------------------------------------------------

def empirical_loss(A, B, x, y, self_term: bool = True):
    """L_n(theta) = (1/2n) sum_i ||y_i - A mu_i||^2, eq. (1); one value per dataset."""
    _, mu = attend(x, x, B, self_term)
    r = y - mu @ A.T
    return 0.5 * np.mean(np.sum(r * r, axis=-1), axis=-1)


def row_gradients(A, B, xq, yq, xk, self_term: bool = True):
    """Per-query terms of the gradient of L_n (Section 1.12, DERIVED):
    grad_A L_n = -(1/n) sum_i r_i mu_i^T and grad_B L_n = -(1/n) sum_i x_i r_i^T A C_i,
    r_i = y_i - A mu_i; returns (r_i mu_i^T, x_i r_i^T A C_i), shapes (..., nq, k, d), (..., nq, d, d).

    C_i is never formed: v^T C_i = sum_j p_ij (v^T x_j) x_j^T - (v^T mu_i) mu_i^T with v = A^T r_i."""
    p, mu = attend(xq, xk, B, self_term)
    r = yq - mu @ A.T
    v = r @ A
    w = (p * (v @ T(xk))) @ xk - np.sum(v * mu, axis=-1, keepdims=True) * mu
    return r[..., :, None] * mu[..., None, :], xq[..., :, None] * w[..., None, :]


def empirical_gradients(A, B, x, y, self_term: bool = True):
    """(grad_A L_n, grad_B L_n) in closed form (Section 1.12)."""
    gA, gB = row_gradients(A, B, x, y, x, self_term)
    return -gA.mean(axis=-3), -gB.mean(axis=-3)


def population_loss(A, B, problem: Problem):
    """L(theta) = ||(A Sigma B^T - M) Sigma^{1/2}||_F^2 / 2 + k sigma^2 / 2 (Theorem 1.1)."""
    E = A @ problem.Sigma @ T(B) - problem.M
    return 0.5 * np.einsum("...ij,jk,...ik->...", E, problem.Sigma, E) + optimal_loss(problem)


def optimal_loss(problem: Problem) -> float:
    """L* = k sigma^2 / 2 (Theorem 1)."""
    return 0.5 * problem.k * problem.sigma ** 2


def population_loss_mc(A, B, problem: Problem, rng, n_outer: int, n_inner: int, chunk: int = 100) -> float:
    """L(theta) as the ratio of expectations, eq. (2), by Monte Carlo: for each chunk of ``chunk``
    outer draws (x, eps), the inner expectations E_x'[exp(x^T B x') x'] / E_x'[exp(x^T B x')] over
    n_inner fresh draws x' (fresh per chunk, so the inner errors average out over the chunks)."""
    Lc = np.linalg.cholesky(problem.Sigma)
    total = 0.0
    for start in range(0, n_outer, chunk):
        m = min(chunk, n_outer - start)
        x = rng.standard_normal((m, problem.d)) @ Lc.T
        xi = rng.standard_normal((n_inner, problem.d)) @ Lc.T
        y = x @ problem.M.T + problem.sigma * rng.standard_normal((m, problem.k))
        r = y - attend(x, xi, B)[1] @ A.T
        total += 0.5 * float(np.sum(r * r))
    return total / n_outer


def population_gradients(A, B, problem: Problem):
    """(grad_A L, grad_B L) = (E Sigma B Sigma, Sigma E^T A Sigma), E = A Sigma B^T - M (Section 1.12)."""
    S = problem.Sigma
    E = A @ S @ T(B) - problem.M
    return E @ S @ B @ S, S @ T(E) @ A @ S


def regularizer(A, B, Sigma):
    """R(theta) = tr(G Sigma G Sigma) / 8, G = A^T A - B^T Sigma B (Section 1.8, RECONSTRUCTED);
    with Sigma_hat in place of Sigma this is R_hat."""
    G = T(A) @ A - T(B) @ Sigma @ B
    GS = G @ Sigma
    return np.einsum("...ij,...ji->...", GS, GS) / 8


def regularizer_gradients(A, B, Sigma):
    """(grad_A R, grad_B R) = (A Sigma G Sigma / 2, -Sigma B Sigma G Sigma / 2) (Section 1.8, DERIVED)."""
    G = T(A) @ A - T(B) @ Sigma @ B
    SGS = Sigma @ G @ Sigma
    return 0.5 * A @ SGS, -0.5 * Sigma @ B @ SGS


def objective_gradients(A, B, problem: Problem):
    """grad F = grad (L + R), population version."""
    a1, b1 = population_gradients(A, B, problem)
    a2, b2 = regularizer_gradients(A, B, problem.Sigma)
    return a1 + a2, b1 + b2


def objective_excess(A, B, problem: Problem):
    """F(theta) - F* = L - L* + R."""
    return population_loss(A, B, problem) - optimal_loss(problem) + regularizer(A, B, problem.Sigma)


# ---- Sigma geometry, lifted coordinates -------------------------------------------------

def lift(A, B, Sigma):
    """Z = [U; V] = [A Sigma^{1/2}; Sigma^{1/2} B Sigma^{1/2}] (Section 1.9), shape (..., k + d, d)."""
    S = sym_sqrt(Sigma)
    return np.concatenate([A @ S, S @ B @ S], axis=-2)


def unlift(Z, Sigma, k: int):
    """(A, B) from Z (inverse of :func:`lift`)."""
    Si = sym_sqrt(Sigma, -0.5)
    return Z[..., :k, :] @ Si, Si @ Z[..., k:, :] @ Si


def sigma_norm(A, B, Sigma):
    """||theta||_Sigma = (||A Sigma^{1/2}||_F^2 + ||Sigma^{1/2} B Sigma^{1/2}||_F^2)^{1/2} = ||Z||_F."""
    return np.sqrt(np.sum(lift(A, B, Sigma) ** 2, axis=(-2, -1)))


# ---- manifold of global minima ----------------------------------------------------------

def manifold_base(problem: Problem) -> np.ndarray:
    """Z_0 = [U_X D^{1/2}; V_X D^{1/2}] from the thin SVD X = M Sigma^{1/2} = U_X D V_X^T (Section 1.10)."""
    return base_of(problem.X)


def base_of(X):
    """[U D^{1/2}; V D^{1/2}] for X = U D V^T (batched thin SVD)."""
    U, D, Vt = np.linalg.svd(X, full_matrices=False)
    r = np.sqrt(D)[..., None, :]
    return np.concatenate([U * r, T(Vt) * r], axis=-2)


def manifold_point(problem: Problem, R: np.ndarray):
    """theta_R = (U_X D^{1/2} R Sigma^{-1/2}, Sigma^{-1/2} V_X D^{1/2} R Sigma^{-1/2}), R in O(d)."""
    return unlift(manifold_base(problem) @ R, problem.Sigma, problem.k)


def procrustes_rotation(Z0, Z):
    """R* = P Q^T with Z_0^T Z = P S Q^T: the R in O(d) minimising ||Z - Z_0 R||_F (Section 1.11)."""
    P, _, Qt = np.linalg.svd(T(Z0) @ Z)
    return P @ Qt


def project(A, B, problem: Problem):
    """(A*, B*) = P_M(theta), the Sigma-norm projection onto the manifold of minima (Section 1.11)."""
    Z0 = manifold_base(problem)
    R = procrustes_rotation(Z0, lift(A, B, problem.Sigma))
    return unlift(Z0 @ R, problem.Sigma, problem.k)


def manifold_distance(A, B, problem: Problem):
    """dist_Sigma(theta, M) = ||Z - Z_0 R*||_F."""
    Z = lift(A, B, problem.Sigma)
    Z0 = manifold_base(problem)
    return np.sqrt(np.sum((Z - Z0 @ procrustes_rotation(Z0, Z)) ** 2, axis=(-2, -1)))


def constants(problem: Problem) -> dict:
    """sigma_min, sigma_max, alpha, beta, rho of Theorem 1.3 (claims file Section 2; RECONSTRUCTED
    constants, sufficient values DERIVED there)."""
    s = np.linalg.svd(problem.X, compute_uv=False)
    s1, sd = float(s[0]), float(s[-1])
    return {"sigma_1": s1, "sigma_d": sd, "sigma_min": np.sqrt(2 * sd), "sigma_max": np.sqrt(2 * s1),
            "alpha": sd / 2, "beta": 4 * s1, "rho": sd / (3 * np.sqrt(2 * s1))}


# ---- the problem in lifted coordinates (Tu et al.'s factorisation; any backend) -----------

def lifted_excess(Z, X, k: int):
    """F - F* = ||U V^T - X||_F^2 / 2 + ||U^T U - V^T V||_F^2 / 8, Z = [U; V] (Section 1.9, DERIVED).

    Plain array arithmetic, so it runs on float64 and on mpmath object arrays alike."""
    U, V = Z[:k], Z[k:]
    E, W = U @ V.T - X, U.T @ U - V.T @ V
    return np.sum(E * E) / 2 + np.sum(W * W) / 8


def lifted_grad(Z, X, k: int):
    """grad_Z F = [(U V^T - X) V + U W / 2; (U V^T - X)^T U - V W / 2], W = U^T U - V^T V."""
    U, V = Z[:k], Z[k:]
    E, W = U @ V.T - X, U.T @ U - V.T @ V
    return np.concatenate([E @ V + U @ W / 2, E.T @ U - V @ W / 2], axis=0)
