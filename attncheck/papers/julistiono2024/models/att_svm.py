"""julistiono2024: the ell_p-AttSVM and ell_p-SVM programs (claims file Sections 1.5-1.7).

Both are ``min ||w||_p  s.t.  A w >= 1`` for a linear constraint operator A:

- ell_p-AttSVM: w = W (d x d), rows of A are (x_{i alpha_i} - x_it) z_i^T for t != alpha_i;
- ell_p-SVM (decoder): w = v (d), rows are Y_i x_{i alpha_i}^T.

The solver (DERIVED, Section 1.5) maximises the smooth dual
``g(lam) = sum lam - ||A^T lam||_q^q / q`` over lam >= 0 with L-BFGS-B, polishes the
active set with Newton's method on A_S w(lam_S) = 1, and recovers
``w = sign(U)|U|^(q-1)``, ``U = A^T lam``. The AttSVM operator is applied in structured
form (never the n(T-1) x d^2 matrix). Every solution carries its certificate: KKT
residuals and the duality gap against the rescaled feasible point.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cache

import numpy as np
from scipy.optimize import minimize

from attncheck.papers.julistiono2024.models.mirror_descent import (
    dual_exponent,
    gammas,
    inverse_mirror_map,
    lp_norm,
    mirror_map,
    psi,
)


class AttConstraints:
    """Rows (x_{i alpha_i} - x_it) z_i^T, t != alpha_i, as an operator on d x d matrices."""

    def __init__(self, data, alpha):
        X = np.asarray(data.X)
        n, T, d = X.shape
        self.alpha = np.asarray(alpha, dtype=int)
        if self.alpha.shape != (n,) or np.any((self.alpha < 0) | (self.alpha >= T)):
            raise ValueError(f"alpha must hold one token index in [0, {T}) per sample, got {alpha}")
        self.delta = X[np.arange(n), self.alpha][:, None, :] - X  # (n, T, d): x_alpha - x_t
        self.mask = np.ones((n, T), bool)
        self.mask[np.arange(n), self.alpha] = False  # t != alpha_i
        self.z = np.asarray(data.z)
        self.shape = (d, d)
        self.m = int(self.mask.sum())

    def apply(self, W):
        """Margins (x_alpha - x_t)^T W z_i of the constraints, flattened (length m)."""
        Wz = self.z @ W.T  # (n, d): W z_i
        return np.einsum("itd,id->it", self.delta, Wz)[self.mask]

    def adjoint(self, lam):
        """U = sum_{i,t} lam_it (x_alpha - x_t) z_i^T."""
        L = np.zeros(self.mask.shape)
        L[self.mask] = lam
        return np.einsum("it,itd,ie->de", L, self.delta, self.z)

    def gram_rows(self, idx):
        """The rows idx as a dense (len(idx), d*d) matrix (Newton polish on the active set only)."""
        i, t = np.nonzero(self.mask)
        i, t = i[idx], t[idx]
        return np.einsum("kd,ke->kde", self.delta[i, t], self.z[i]).reshape(len(idx), -1)


class DenseConstraints:
    """Rows of an explicit matrix A (m x D), e.g. Y_i x_{i alpha_i}^T for the decoder ell_p-SVM."""

    def __init__(self, A):
        self.A = np.asarray(A, dtype=float)
        self.shape = (self.A.shape[1],)
        self.m = self.A.shape[0]

    def apply(self, w):
        return self.A @ w

    def adjoint(self, lam):
        return self.A.T @ lam

    def gram_rows(self, idx):
        return self.A[idx]


@dataclass
class SVMSolution:
    """Solution w of min ||w||_p s.t. A w >= 1, its dual lam and its optimality certificate."""

    w: np.ndarray
    lam: np.ndarray
    margins: np.ndarray  # A w
    p: float
    kkt: float  # max of primal infeasibility, complementarity |lam (Aw - 1)|, dual infeasibility
    gap: float  # psi(w / min(1, min margin)) - g(lam) >= 0: duality gap of a feasible point, relative
    seconds: float

    @property
    def norm(self) -> float:
        return float(lp_norm(self.w, self.p))

    def supports(self, tol: float = 1e-6) -> np.ndarray:
        """Boolean mask of the constraints at margin 1 (the support tokens T_i of Definition 3)."""
        return np.abs(self.margins - 1.0) <= tol


def _dual(cons, p):
    q = dual_exponent(p)

    def fg(lam):
        U = cons.adjoint(lam)
        w = inverse_mirror_map(U, p)  # = sign(U)|U|^(q-1)
        val = np.sum(lam) - np.sum(np.abs(U) ** q) / q
        return -val, cons.apply(w) - 1.0

    return fg


def _certificate(cons, lam, p):
    q = dual_exponent(p)
    U = cons.adjoint(lam)
    w = inverse_mirror_map(U, p)
    margins = cons.apply(w)
    kkt = max(float(np.max(np.maximum(0.0, 1.0 - margins), initial=0.0)),
              float(np.max(np.abs(lam * (margins - 1.0)), initial=0.0)),
              float(np.max(np.maximum(0.0, -lam), initial=0.0)))
    dual_val = np.sum(lam) - np.sum(np.abs(U) ** q) / q
    low = float(np.min(margins))
    primal_val = psi(w / min(1.0, low), p) if low > 0 else np.inf
    gap = float((primal_val - dual_val) / max(abs(primal_val), 1e-300))
    return w, margins, kkt, gap


def _polish(cons, lam, p, iters=30, tol=1e-13):
    """Newton's method on A_S w(lam_S) = 1 over the active set S = {lam > 0}; None if it leaves lam >= 0."""
    S = np.flatnonzero(lam > 1e-10 * max(1.0, np.max(lam, initial=0.0)))
    if S.size == 0:
        return None
    q = dual_exponent(p)
    A_S = cons.gram_rows(S)
    lam = lam.copy()
    lam[np.setdiff1d(np.arange(lam.size), S)] = 0.0
    for _ in range(iters):
        U = cons.adjoint(lam)
        F = cons.apply(inverse_mirror_map(U, p))[S] - 1.0
        if np.max(np.abs(F)) < tol:
            break
        Dg = (q - 1.0) * np.abs(U.ravel()) ** (q - 2.0)  # Hessian of |U|^q / q
        J = (A_S * Dg) @ A_S.T
        step = np.linalg.lstsq(J, F, rcond=None)[0]
        lam[S] -= step
    return lam if np.all(lam >= 0) else None


def _polish_primal_dual(cons, lam, p, iters=40, tol=1e-13):
    """Newton's method on the KKT system grad psi(w) = A_S^T lam_S, A_S w = 1 in (w, lam_S), S = {lam > 0}.

    For p > 2 the dual map |U|^(q-1) has an infinite slope at U = 0 and the dual Newton step of :func:`_polish`
    stalls; the primal Hessian (p-1)|w|^(p-2) is finite there. None if lam_S leaves lam >= 0.
    """
    S = np.flatnonzero(lam > 1e-10 * max(1.0, np.max(lam, initial=0.0)))
    if S.size == 0:
        return None
    A_S = cons.gram_rows(S)
    w = inverse_mirror_map(cons.adjoint(lam), p).ravel()
    lS = lam[S].copy()
    D, k = w.size, S.size
    for _ in range(iters):
        F = np.concatenate([mirror_map(w, p) - A_S.T @ lS, A_S @ w - 1.0])
        if np.max(np.abs(F)) < tol:
            break
        J = np.zeros((D + k, D + k))
        J[np.arange(D), np.arange(D)] = (p - 1.0) * np.abs(w) ** (p - 2.0)
        J[:D, D:] = -A_S.T
        J[D:, :D] = A_S
        step = np.linalg.lstsq(J, F, rcond=None)[0]
        w, lS = w - step[:D], lS - step[D:]
    out = np.zeros_like(lam)
    out[S] = lS
    return out if np.all(out >= 0) else None


def solve_min_norm(cons, p, tol=1e-12, maxiter=20000) -> SVMSolution:
    """min ||w||_p s.t. A w >= 1 via the smooth dual (L-BFGS-B), a Newton polish, and the certificate."""
    t0 = time.perf_counter()
    fg = _dual(cons, p)
    res = minimize(fg, np.full(cons.m, 1.0 / cons.m), jac=True, method="L-BFGS-B",
                   bounds=[(0.0, None)] * cons.m,
                   options={"maxiter": maxiter, "maxfun": 4 * maxiter, "ftol": 0.0, "gtol": tol, "maxcor": 30})
    lam = np.maximum(res.x, 0.0)
    best = (lam, *_certificate(cons, lam, p))
    for polish in (_polish, _polish_primal_dual):
        if polish is _polish_primal_dual and (p <= 2 or best[3] <= tol):
            break
        polished = polish(cons, lam, p)
        if polished is not None:
            cand = (polished, *_certificate(cons, polished, p))
            if cand[3] < best[3]:
                best = cand
    lam, w, margins, kkt, gap = best
    return SVMSolution(w=w.reshape(cons.shape), lam=lam, margins=margins, p=p, kkt=kkt, gap=gap,
                       seconds=time.perf_counter() - t0)


def att_svm(data, alpha, p) -> SVMSolution:
    """ell_p-AttSVM (Section 1.5): min ||W||_p s.t. (x_{i alpha_i} - x_it)^T W z_i >= 1 for all t != alpha_i."""
    return solve_min_norm(AttConstraints(data, alpha), p)


def decoder_svm(data, alpha, p) -> SVMSolution:
    """ell_p-SVM for the decoder (Section 1.5): min ||v||_p s.t. Y_i x_{i alpha_i}^T v >= 1."""
    X = np.asarray(data.X)
    A = np.asarray(data.Y)[:, None] * X[np.arange(len(X)), np.asarray(alpha)]
    return solve_min_norm(DenseConstraints(A), p)


# ---- Definition 3 and the cone constants (Sections 1.6, 1.7) ------------------------------


def optimal_tokens(data, v=None):
    """alpha_i = argmax_t gamma_it (globally optimal, hence locally optimal when the max is unique)."""
    return np.argmax(gammas(data, v), axis=1)


@dataclass
class ConeGeometry:
    """Everything the cone lemmas 19-21 need about (data, alpha, p) with W_mm solved."""

    data: object
    alpha: np.ndarray
    p: float
    svm: SVMSolution
    support: np.ndarray  # (n, T) bool: t in T_i
    non_support: np.ndarray  # (n, T) bool: t in bar T_i
    nu: float  # non-support gap nu_alpha (inf if no non-support token)
    A_q: float  # max ||(x_it - x_itau) z_i^T||_q
    Gamma: float  # max |gamma_it - gamma_itau|

    @property
    def W_mm(self) -> np.ndarray:
        return self.svm.w

    @property
    def m(self) -> int:
        return self.W_mm.size

    def mu_alpha(self) -> float:
        """DERIVED-UNCERTAIN radius mu(alpha) of Section 1.7, chosen so that eps_mu <= nu_alpha / 4."""
        p, c = self.p, self.nu / (4.0 * self.A_q * self.svm.norm)
        if p >= 2:
            return (c ** p) / (p * 2.0 ** p)
        return (p - 1.0) / 2.0 * (c / self.m ** (1.0 / p - 0.5)) ** 2

    def eps_mu(self, mu: float) -> float:
        """Lemma 19, step 1: the closeness bound eps_mu = A_q ||W_mm||_p * (...) of the claims file."""
        p = self.p
        base = self.A_q * self.svm.norm
        if p >= 2:
            return base * (p * 2.0 ** p * mu) ** (1.0 / p)
        return base * self.m ** (1.0 / p - 0.5) * np.sqrt(2.0 * mu / (p - 1.0))

    def locally_optimal(self) -> bool:
        g = gammas(self.data)
        n = len(g)
        top = g[np.arange(n), self.alpha][:, None]
        return bool(np.all((top > g)[self.support]))


def cone_geometry(data, alpha, p, tol=1e-9) -> ConeGeometry:
    """Solve ell_p-AttSVM for alpha and derive T_i, bar T_i, nu_alpha, A_q and Gamma (Sections 1.6-1.7)."""
    cons = AttConstraints(data, alpha)
    sol = solve_min_norm(cons, p)
    full = np.full(cons.mask.shape, np.nan)
    full[cons.mask] = sol.margins
    support = cons.mask & (np.abs(full - 1.0) <= tol)
    non_support = cons.mask & ~support
    nu = float(np.min(full[non_support]) - 1.0) if non_support.any() else np.inf
    q = dual_exponent(p)
    X = np.asarray(data.X)
    diff = np.abs(X[:, :, None, :] - X[:, None, :, :])  # (n, T, T, d)
    xq = np.sum(diff ** q, axis=-1) ** (1.0 / q)
    zq = np.sum(np.abs(np.asarray(data.z)) ** q, axis=-1) ** (1.0 / q)
    A_q = float(np.max(xq.max(axis=(1, 2)) * zq))
    g = gammas(data)
    Gamma = float(np.max(g.max(axis=1) - g.min(axis=1)))
    return ConeGeometry(data, np.asarray(alpha), p, sol, support, non_support, nu, A_q, Gamma)




def locally_optimal_selections(data, p, limit: int = 2) -> list:
    """Up to ``limit`` locally optimal selections (Definition 3) other than the argmax: alpha = argmax with one
    alpha_i moved to sample i's second-largest gamma_it, i = 1..n in order, kept when every support token t in T_i
    of its ell_p-AttSVM has gamma_{i alpha_i} > gamma_it and bar T_i is non-empty (nu_alpha finite)."""
    top, g = optimal_tokens(data), gammas(data)
    found = []
    for i in range(len(top)):
        alpha = top.copy()
        alpha[i] = np.argsort(-g[i], kind="stable")[1]
        geom = cone_geometry(data, alpha, p)
        if geom.locally_optimal() and np.isfinite(geom.nu):
            found.append(geom)
            if len(found) == limit:
                break
    return found


@cache
def reference_geometry(seed: int, p: float, sel: int = 0) -> ConeGeometry:
    """Cone geometry of the Section 4.1 dataset ``section_4_1(seed)``, cached: sel = 0 alpha_i = argmax_t gamma_it,
    sel >= 1 the sel-th of :func:`locally_optimal_selections` (cyclically; the argmax where the dataset has none)."""
    from attncheck.papers.julistiono2024.data.mirror_descent import section_4_1

    data = section_4_1(seed)
    if sel:
        others = locally_optimal_selections(data, p)
        if others:
            return others[(sel - 1) % len(others)]
    return cone_geometry(data, optimal_tokens(data), p)


def cone_direction(geom: ConeGeometry, u: float, E: np.ndarray, plain: bool = False) -> np.ndarray:
    """A unit direction bar W = normalize(bar W_mm + r E) with D_psi(bar W_mm, bar W) = u mu(alpha) (u in [0, 1]).

    r solves log D(r) = log(u mu(alpha)) (Brent's method on log r, bracketed by doubling), then is lowered by
    bisection until D(r) <= u mu(alpha), so the point lies in the cone C_{p, mu(alpha), R} (Section 1.7) by construction, on
    its boundary at u = 1 (to rounding). D is evaluated by :class:`mirror_descent.BregmanTo` (bregman's float64
    values, about 80 calls a point); ``plain=True`` calls bregman and normalize themselves (the reference).
    """
    from scipy.optimize import brentq

    from attncheck.papers.julistiono2024.models.mirror_descent import BregmanTo, bregman, normalize

    p, Wbar = geom.p, normalize(geom.W_mm, geom.p)
    target = u * geom.mu_alpha()
    if target <= 0:
        return Wbar
    E, unit = E / lp_norm(E, p), normalize(Wbar, p)
    if plain:
        D = lambda r: float(bregman(unit, normalize(Wbar + r * E, p), p))  # noqa: E731  (directional_bregman(Wbar, .))
    else:  # the same values without the backend's dispatch (BregmanTo, tested bit for bit against bregman)
        to_unit = BregmanTo(unit, p)
        D = lambda r: float(to_unit(to_unit.normalize(Wbar + r * E)))  # noqa: E731
    lo, hi = 0.0, 1e-8
    while D(hi) < target:
        lo, hi = hi, 2 * hi
    if lo == 0.0:  # bracket from below; a target under D's rounding floor (D(0) > 0 after normalizing) gives r = 0
        lo = hi / 2
        while D(lo) >= target:
            if lo == 0.0:
                return normalize(Wbar, p)
            hi, lo = lo, lo / 2
    t = np.log(target)
    logD = lambda x: np.log(max(D(np.exp(x)), 5e-324))  # noqa: E731  (D = 0 below its resolution: the floor)
    r = np.exp(brentq(lambda x: logD(x) - t, np.log(lo), np.log(hi), xtol=1e-15, rtol=8.9e-16))
    for _ in range(64):  # r a hair above: bisect down to the largest r found with D(r) <= target (lo has D < target)
        if D(r) <= target:
            break
        mid = 0.5 * (lo + r)
        lo, r = (mid, r) if D(mid) <= target else (lo, mid)
    else:
        r = lo
    return normalize(Wbar + r * E, p)
