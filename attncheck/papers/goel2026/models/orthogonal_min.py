"""Minimisation over the orthogonal group O(d), independent of any closed form (Lemma 1's audit).

Lemma 1's theta* = P_M(theta) is the point of M = {Z_0 R : R in O(d)} nearest to Z(theta). sr.project
takes it from the Procrustes SVD, which satisfies Lemma 1 by algebra; here the minimum over O(d) is
searched numerically instead: multi-start Riemannian descent (Cayley retraction, batched over starts)
followed by Newton steps in the chart Q exp(S), S skew, with a finite-difference Hessian. Starts are
Haar-random in both components (det = +1 and det = -1), since O(d) is not connected.
"""
from __future__ import annotations

import numpy as np

from attncheck.papers.goel2026.strategies.softmax_regression import random_orthogonal


def _skew_basis(d: int) -> np.ndarray:
    """E_ij - E_ji (i < j), shape (d(d-1)/2, d, d): an orthogonal basis of the skew matrices (norm sqrt 2)."""
    i, j = np.triu_indices(d, 1)
    E = np.zeros((len(i), d, d))
    E[np.arange(len(i)), i, j], E[np.arange(len(i)), j, i] = 1.0, -1.0
    return E


def _cayley(Q, W):
    """Q (I - W/2)^{-1} (I + W/2): orthogonal for skew W, and Q + Q W + O(W^2); re-orthonormalised (QR, column
    signs kept, so the component too) against the solve's rounding."""
    eye = np.eye(Q.shape[-1])
    Qn, Rr = np.linalg.qr(Q @ np.linalg.solve(eye - W / 2, eye + W / 2))
    return Qn * np.sign(np.diagonal(Rr, axis1=-2, axis2=-1))[..., None, :]


def _rgrad(Q, G):
    """Riemannian gradient in the chart W -> Q W: skew(Q^T G)."""
    S = np.swapaxes(Q, -1, -2) @ G
    return (S - np.swapaxes(S, -1, -2)) / 2


def starts(rng, d: int, per_component: int) -> np.ndarray:
    """per_component Haar starts in each of SO(d) and O(d) \\ SO(d)."""
    Q = np.stack([random_orthogonal(rng, d) for _ in range(2 * per_component)])
    det = np.linalg.det(Q)
    Q[..., 0] *= np.where(det > 0, 1.0, -1.0)[:, None]       # all det +1
    Q[per_component:, :, 0] *= -1.0                           # half det -1
    return Q


def minimise(fun, Q0, descent: int = 60, newton: int = 10, h: float = 1e-5):
    """Minimise fun over O(d) from each start Q0[s] (s, d, d), staying in each start's component.

    fun(Q) -> (f, G): values (s,) and Euclidean gradients (s, d, d), batched. Returns (Q, f, g): the
    end points, their values and the Frobenius norms of their Riemannian gradients skew(Q^T G)."""
    Q = np.array(Q0, float)
    d = Q.shape[-1]
    f, G = fun(Q)
    t = np.ones(len(Q))
    steps = 2.0 ** -np.arange(-2, 12)  # candidate step multipliers, evaluated at once
    for _ in range(descent):
        W = -_rgrad(Q, G)
        trial = _cayley(Q[:, None], (t[:, None] * steps)[..., None, None] * W[:, None])
        ft, _ = fun(trial.reshape(-1, d, d))
        ft = ft.reshape(len(Q), len(steps))
        best = np.argmin(ft, axis=1)
        move = ft[np.arange(len(Q)), best] < f
        t = np.minimum(np.where(move, t * steps[best], t / 4), 1 / np.maximum(np.linalg.norm(W, axis=(-2, -1)), 1e-300))
        Q = np.where(move[:, None, None], trial[np.arange(len(Q)), best], Q)
        f, G = fun(Q)
    E = _skew_basis(d)
    p = len(E)
    if p == 0:
        return Q, f, np.zeros(len(Q))
    for _ in range(newton):
        g = np.einsum("sij,pij->sp", _rgrad(Q, G), E)
        moved = _cayley(Q[:, None, None], np.array([h, -h])[:, None, None, None] * E[None, :])
        _, Gm = fun(moved.reshape(-1, d, d))
        gm = np.einsum("sij,pij->sp", _rgrad(moved.reshape(-1, d, d), Gm), E).reshape(len(Q), 2, p, p)
        Hs = (gm[:, 0] - gm[:, 1]) / (2 * h)
        Hs = (Hs + np.swapaxes(Hs, -1, -2)) / 2
        lam = np.linalg.eigvalsh(Hs)
        shift = np.maximum(0.0, 1e-12 * np.abs(lam).max(-1) - lam.min(-1))  # a descent step at a saddle
        x = -np.linalg.solve(Hs + shift[:, None, None] * np.eye(p), g[..., None])[..., 0]
        Qn = _cayley(Q, np.einsum("sp,pij->sij", x, E))
        fn, Gn = fun(Qn)
        gn = np.linalg.norm(_rgrad(Qn, Gn), axis=(-2, -1))
        take = (fn < f) | (gn < np.linalg.norm(g, axis=-1) / np.sqrt(2))  # lower, or flatter where f rounds
        Q = np.where(take[:, None, None], Qn, Q)
        f, G = np.where(take, fn, f), np.where(take[:, None, None], Gn, G)
    return Q, f, np.linalg.norm(_rgrad(Q, G), axis=(-2, -1))


def nearest_on_orbit(Z0, Z, rng, per_component: int = 2):
    """argmin over R in O(d) of ||Z - Z_0 R||_F^2, by :func:`minimise` from Haar starts in both components.

    Returns (R, f, g, f_by_component): the best end point, its value, its Riemannian gradient norm and the
    best value found in SO(d) and in O(d) \\ SO(d)."""
    M = Z0.T @ Z
    c = np.sum(Z * Z) + np.sum(Z0 * Z0)

    def fun(Q):
        return c - 2 * np.einsum("ij,sij->s", M, Q), np.broadcast_to(-2 * M, Q.shape)

    Q, f, g = minimise(fun, starts(rng, Z0.shape[-1], per_component))
    best = int(np.argmin(f))
    return Q[best], f[best], g[best], (f[:per_component].min(), f[per_component:].min())
