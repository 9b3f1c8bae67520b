"""bombari2024 Section 6: the generalized linear model f(X, theta) = phi(X)^T theta on a feature map.

Every function takes features (rows of Phi, phi = phi(X), phi' = phi(X^i(Delta))) and a
numeric backend ``xp`` (float64 or mpmath, see :mod:`attncheck.numeric.precision`), so identities
can be re-decided at high precision where the pseudo-inverse is ill-conditioned.
In float64 Phi^+ is applied by least squares (any rank); in mpmath Phi must have full row
rank (K = Phi Phi^T invertible, the setting of Lemma 4.1 of [12]), and Phi^+ = Phi^T K^{-1}.
:func:`kernel_fit` is the float64 torch form for large p (the experiments): everything through K_r.
"""
from __future__ import annotations

from dataclasses import dataclass

import mpmath
import numpy as np
import torch


def _solve(K, b, xp):
    """K^{-1} b for a square K (float64: LAPACK; mpmath: LU at the working precision)."""
    if xp.native:
        return np.linalg.solve(np.asarray(K, float), np.asarray(b, float))
    sol = mpmath.lu_solve(mpmath.matrix(np.asarray(K, dtype=object).tolist()),
                          mpmath.matrix(np.asarray(b, dtype=object).reshape(-1, 1).tolist()))
    return np.array([sol[i] for i in range(sol.rows)], dtype=object)


def kernel(Phi):
    """K = Phi Phi^T."""
    return Phi @ Phi.T


def pinv_apply(Phi, r, xp):
    """Phi^+ r: float64 by least squares (the minimum-norm solution, any rank); mpmath as Phi^T K^{-1} r
    (Phi of full row rank)."""
    if xp.native:
        return np.linalg.lstsq(np.asarray(Phi, float), np.asarray(r, float), rcond=None)[0]
    return Phi.T @ _solve(kernel(Phi), r, xp)


def theta_star(Phi, Y, theta0, xp):
    """(6.3) theta* = theta_0 + Phi^+ (Y - Phi theta_0)."""
    return theta0 + pinv_apply(Phi, Y - Phi @ theta0, xp)


def theta_f(theta, phi, y, xp):
    """(6.5) theta*_f = theta* + phi(X) / ||phi(X)||^2 (y - phi(X)^T theta*)."""
    return theta + phi * ((y - phi @ theta) / (phi @ phi))


def stack(Phi, phi):
    """Phi_r = [Phi; phi(X)^T] ((N + 1) x p)."""
    return np.concatenate([Phi, np.asarray(phi)[None, :]], axis=0)


def theta_r(Phi, phi, Y, y, theta0, xp):
    """(6.6) theta*_r = theta_0 + Phi_r^+ (Y_r - Phi_r theta_0)."""
    return theta_star(stack(Phi, phi), np.concatenate([np.asarray(Y), np.asarray([y], dtype=np.asarray(Y).dtype)]),
                      theta0, xp)


def project_out(Phi, v, xp):
    """P_Phi^perp v = v - Phi^T K^{-1} Phi v (P_Phi: projector on the span of the rows of Phi)."""
    return v - pinv_apply(Phi, Phi @ v, xp)


def alignment(Phi, phi, phi_pert, xp):
    """(6.14)/(B.20) F(X, X^i(Delta)) = phi'^T P^perp phi / ||P^perp phi||^2."""
    p = project_out(Phi, phi, xp)
    return (phi_pert @ p) / (p @ p)


def lambda_min(K) -> float:
    """Smallest eigenvalue of a symmetric K (float64)."""
    return float(np.linalg.eigvalsh(np.asarray(K, float))[0])


def lambda_min_xp(K, xp):
    """Smallest eigenvalue of a symmetric K in the backend: float64 (:func:`lambda_min`) or mpmath (eigsy at
    the working precision); (B.22), moved verbatim from properties/bombari2024/test_generalization.py."""
    if xp.native:
        return lambda_min(K)
    E, _ = mpmath.eigsy(mpmath.matrix(np.asarray(K, dtype=object).tolist()))
    return min(E[i] for i in range(E.rows))


def condition(K) -> float:
    """2-norm condition number of a symmetric positive definite K (float64; inf if singular)."""
    ev = np.linalg.eigvalsh(np.asarray(K, float))
    return float(ev[-1] / ev[0]) if ev[0] > 0 else float("inf")


@dataclass
class KernelFit:
    """theta* (6.3), theta*_f (6.5), theta*_r (6.6) and P_Phi^perp phi(X), all with theta_0 = 0."""

    theta_star: torch.Tensor
    theta_f: torch.Tensor
    theta_r: torch.Tensor
    p: torch.Tensor


def kernel_fit(Phi: torch.Tensor, phi: torch.Tensor, Y: torch.Tensor, y: float, Kr: torch.Tensor) -> KernelFit:
    """The GLM solutions in float64 torch (any device) through the kernel K_r = Phi_r Phi_r^T ((N + 1) x (N + 1),
    given: the caller may cut it out of a larger Gram), for Phi_r of full row rank (Cholesky; raises otherwise).

    With theta_0 = 0: theta* = Phi^T K^{-1} Y, theta*_r = Phi_r^T K_r^{-1} Y_r, P_Phi^perp phi = phi - Phi^T K^{-1}
    Phi phi, K = K_r[:N, :N] and Phi phi = K_r[:N, N]; no least squares on the N x p matrix Phi.
    """
    N = Phi.shape[0]
    L = torch.linalg.cholesky(Kr)
    Lk = L[:N, :N]  # the Cholesky factor of K
    Yr = torch.cat([Y, Y.new_tensor([y])])
    ts = Phi.T @ torch.cholesky_solve(Y[:, None], Lk)[:, 0]
    tf = ts + phi * ((y - phi @ ts) / (phi @ phi))
    ar = torch.cholesky_solve(Yr[:, None], L)[:, 0]
    tr = Phi.T @ ar[:N] + phi * ar[N]
    p = phi - Phi.T @ torch.cholesky_solve(Kr[:N, N:], Lk)[:, 0]
    return KernelFit(ts, tf, tr, p)
