"""Algorithm 1 of Goel, Soltanolkotabi, Bartlett (arXiv 2603.01514): structure-aware
preconditioned gradient descent, and the plain SGD baseline of Appendix A.

Algorithm 1 (claims file Section 1.13, RECONSTRUCTED step by step from the prose):

1. Sigma_hat = X X^T / n, C_hat = Y X^T / n, M_hat = C_hat Sigma_hat^{-1};
2. spectral initialisation: the manifold point with R = I for (Sigma_hat, M_hat);
3. theta <- theta - eta Sigma_bar_hat^{-1} g Sigma_hat^{-1}, g = grad L_n + grad R_hat, i.e.
   A <- A - eta grad_A Sigma_hat^{-1}, B <- B - eta Sigma_hat^{-1} grad_B Sigma_hat^{-1}.

Appendix A's stochastic variant takes grad L_n on a minibatch of b samples drawn without
replacement at every step (keys and queries from the minibatch, UNKNOWN in the paper);
SGD uses the same steps and minibatches, no preconditioner and no regularizer.
"""
from __future__ import annotations

import numpy as np

from attncheck.papers.goel2026.data.gaussian_regression import Problem, sym_powers
from attncheck.papers.goel2026.models import softmax_regression as sr


def data_moments(x, y):
    """(Sigma_hat, M_hat) = (X X^T / n, Y X^T / n Sigma_hat^{-1}) (step 1)."""
    n = x.shape[-2]
    S_hat = np.swapaxes(x, -1, -2) @ x / n
    C_hat = np.swapaxes(y, -1, -2) @ x / n
    return S_hat, C_hat @ np.linalg.inv(S_hat)


def spectral_factors(S_hat, M_hat):
    """(U, D, V^T, Sigma_hat^{-1/2}) with X_hat = M_hat Sigma_hat^{1/2} = U D V^T (step 2); batched. Where singular
    values tie, the SVD is not unique and a second SVD of a copy of X_hat equal to rounding may pick other bases: a
    claim about the U, D, V of theta_0 (Lemma 5) takes them from here. Sigma_hat^{1/2} and Sigma_hat^{-1/2} come from
    one eigendecomposition (``sym_powers``)."""
    Sh, Si = sym_powers(S_hat, 0.5, -0.5)
    U, D, Vt = np.linalg.svd(M_hat @ Sh, full_matrices=False)
    return U, D, Vt, Si


def spectral_init(S_hat, M_hat, factors=None):
    """(A_0, B_0) = (U D^{1/2} Sigma_hat^{-1/2}, Sigma_hat^{-1/2} V D^{1/2} Sigma_hat^{-1/2}) of
    :func:`spectral_factors` (given, or computed here); the same arrays as ``sr.unlift(sr.base_of(M_hat @
    sym_sqrt(S_hat)), S_hat, k)``, with one batched ``eigh`` instead of two."""
    U, D, Vt, Si = spectral_factors(S_hat, M_hat) if factors is None else factors
    r = np.sqrt(D)[..., None, :]
    return (U * r) @ Si, Si @ (np.swapaxes(Vt, -1, -2) * r) @ Si


def precondition(gA, gB, S_hat_inv):
    """Sigma_bar_hat^{-1} g Sigma_hat^{-1}, blockwise (step 3)."""
    return gA @ S_hat_inv, S_hat_inv @ gB @ S_hat_inv


def train(problem: Problem, x, y, A0, B0, *, eta: float, steps: int, method: str = "algorithm1",
          batch: int | None = None, rng=None, record=None) -> dict:
    """Run Algorithm 1 (``method="algorithm1"``) or plain SGD (``"sgd"``) from (A0, B0).

    ``batch=None``: full-batch in-sample gradients (O(n^2 d) per step); otherwise ``batch``
    samples drawn without replacement from the n training pairs at each step, from ``rng``
    (give both methods generators with the same seed for the same minibatches).
    Records, at the steps in ``record`` (default every step), the excess population loss
    L(theta_t) - L* in closed form (Theorem 1.1) and dist_Sigma(theta_t, M).
    """
    if method not in ("algorithm1", "sgd"):
        raise ValueError(f"method must be 'algorithm1' or 'sgd', got {method!r}")
    n = x.shape[0]
    S_hat, _ = data_moments(x, y)
    S_inv = np.linalg.inv(S_hat)
    marks = set(range(steps + 1)) if record is None else set(record)
    A, B = A0.copy(), B0.copy()
    out = {"t": [], "excess": [], "distance": []}
    L_star = sr.optimal_loss(problem)
    for t in range(steps + 1):
        if t in marks:
            out["t"].append(t)
            out["excess"].append(float(sr.population_loss(A, B, problem) - L_star))
            out["distance"].append(float(sr.manifold_distance(A, B, problem)))
        if t == steps:
            break
        if batch is None:
            xb, yb = x, y
        else:
            idx = rng.choice(n, size=batch, replace=False)
            xb, yb = x[idx], y[idx]
        gA, gB = sr.empirical_gradients(A, B, xb, yb)
        if method == "algorithm1":
            rA, rB = sr.regularizer_gradients(A, B, S_hat)
            gA, gB = precondition(gA + rA, gB + rB, S_inv)
        A, B = A - eta * gA, B - eta * gB
        if not (np.all(np.isfinite(A)) and np.all(np.isfinite(B))):
            raise FloatingPointError(f"{method} diverged at step {t} (eta = {eta})")
    out["A"], out["B"] = A, B
    return out
