"""julistiono2024: ell_p mirror descent on a one-layer softmax attention classifier.

Objects of Section 1 of the restated claims (docs/papers/julistiono2024.md, "Restated statements"):

- the potential psi(W) = ||W||_p^p / p (entrywise ell_p), its mirror map and inverse,
  the Bregman divergence D_psi summed over scalar terms d_p(x, y), and the directional
  Bregman divergence D_psi(W_mm / ||W_mm||_p, W / ||W||_p) (Definition 1, Section 1.3);
- the classifier f_W(X) = v^T X^T S(X W z), the ERM objective with logistic loss and
  its gradient (Lemma 17) in the pairwise form that avoids cancellation at large ||W||;
- ell_p-AttGD, plain and normalized, and joint (W, v) training (Sections 1.4, 4.2).

Every function takes a backend ``xp`` (:mod:`attncheck.numeric.precision`), so the same code
runs in float64 and in mpmath (needed once softmax weights underflow, ||W|| R >~ 700).
Matrices are d x d; samples carry a leading axis of length n.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

import mpmath
import numpy as np

from attncheck.numeric.interval import Undecided
from attncheck.numeric.precision import F64
from attncheck.papers.julistiono2024.data.mirror_descent import AttData

# ---- potential, mirror map, Bregman divergence (Definition 1) ------------------------


def _sign(a, xp=F64):
    """sign(a) in {-1, 0, 1}, for float and mpmath arrays alike (float64: np.sign; NaN stays NaN, as the maps do)."""
    if xp.native:
        return np.sign(np.asarray(a, dtype=float))
    a = xp.asarray(a)
    pos = np.asarray(a > 0, dtype=bool)
    neg = np.asarray(a < 0, dtype=bool)
    if xp.enclosure and not np.all(pos | neg | np.asarray(a == 0, dtype=bool)):
        raise Undecided("the sign of a ball that straddles 0")
    return xp.where(pos, 1.0, 0.0) - xp.where(neg, 1.0, 0.0)


def _nonzero(x, xp=F64) -> bool:
    """x != 0, decided (an enclosure that straddles 0 without being 0 raises Undecided)."""
    if xp.enclosure and not (x != 0 or x == 0):
        raise Undecided("whether a ball that straddles 0 is 0")
    return bool(x != 0)


def dual_exponent(p, xp=F64):
    """q = p / (p - 1), the Hoelder dual of p > 1 (in the backend's precision)."""
    if not p > 1:
        raise ValueError(f"p must be > 1, got {p}")
    p = xp.asarray(p)
    return p / (p - 1)


def lp_norm(W, p, xp=F64):
    """Entrywise ell_p norm ||W||_p = (sum_jk |W_jk|^p)^(1/p) over all entries (CODE: pnorm of the flattened W).

    Scaled by max |W_jk| first, so large p neither overflows nor underflows.
    """
    a, p = xp.abs(xp.asarray(W)), xp.asarray(p)
    top = np.max(a)
    if top == 0:
        return 0.0 * top
    return top * xp.sum((a / top) ** p) ** (1 / p)


def psi(W, p, xp=F64):
    """Definition 1: psi(W) = ||W||_p^p / p."""
    p = xp.asarray(p)
    return xp.sum(xp.abs(xp.asarray(W)) ** p) / p


def mirror_map(W, p, xp=F64):
    """grad psi(W) = sign(W) |W|^(p-1) (entrywise)."""
    W, p = xp.asarray(W), xp.asarray(p)
    return _sign(W, xp) * xp.abs(W) ** (p - 1)


def inverse_mirror_map(theta, p, xp=F64):
    """(grad psi)^(-1)(theta) = sign(theta) |theta|^(1/(p-1)) (Section 1.4's entrywise closed form)."""
    theta, p = xp.asarray(theta), xp.asarray(p)
    return _sign(theta, xp) * xp.abs(theta) ** (1 / (p - 1))


#: below this |x - y| / |y| the scalar Bregman term is summed as a power series
SERIES_BELOW = 1e-3
SERIES_TERMS = 8


def bregman_terms(x, y, p, xp=F64):
    """Scalar terms d_p(x, y) = |x|^p/p - |y|^p/p - sign(y)|y|^(p-1)(x - y) >= 0 (Section 1.3).

    In float64, where x and y have the same sign and u = (x - y)/y is small, the term is
    evaluated as |y|^p/p * sum_{k>=2} binom(p, k) u^k (the Taylor series of (1+u)^p - 1 - p u),
    so no difference of nearly equal numbers is formed; mpmath takes the direct formula.
    """
    x, y, p = xp.asarray(x), xp.asarray(y), xp.asarray(p)
    direct = xp.abs(x) ** p / p - xp.abs(y) ** p / p - mirror_map(y, p, xp) * (x - y)
    if not xp.native:
        return direct
    with np.errstate(divide="ignore", invalid="ignore"):
        u = np.where(y != 0, (x - y) / np.where(y != 0, y, 1.0), np.inf)
    small = np.abs(u) < SERIES_BELOW
    if not np.any(small):
        return direct
    us = np.where(small, u, 0.0)
    terms = np.multiply.accumulate(us[None].repeat(SERIES_TERMS, axis=0), axis=0)  # u^1, ..., u^8
    terms[1:] *= np.reshape(_binomials(float(p))[1:], (-1,) + (1,) * us.ndim)  # c_k u^k, k >= 2
    terms[0] = 0.0
    series = np.add.accumulate(terms, axis=0)[-1]  # 0 + c_2 u^2 + ... + c_8 u^8, summed in that order
    return np.where(small, np.abs(y) ** p / p * series, direct)


@lru_cache(maxsize=64)
def _binomials(p):
    """binom(p, k) for k = 1..SERIES_TERMS, each from the one before (the series coefficients of bregman_terms)."""
    coef, out = 1.0, []
    for k in range(1, SERIES_TERMS + 1):
        coef *= (p - k + 1) / k
        out.append(coef)
    return np.array(out)


def bregman_scale(W, V, p, xp=F64):
    """Magnitude of the terms of the direct formula of D_psi(W, V): the rounding scale of any slack built on it."""
    W, V, p = xp.asarray(W), xp.asarray(V), xp.asarray(p)
    return xp.sum(xp.abs(W) ** p / p + xp.abs(V) ** p / p + xp.abs(V) ** (p - 1) * xp.abs(W - V))


def bregman(W, V, p, xp=F64):
    """D_psi(W, V) = psi(W) - psi(V) - <grad psi(V), W - V>, summed termwise (never as psi(W) - psi(V) - ...)."""
    return xp.sum(bregman_terms(W, V, p, xp))


class BregmanTo:
    """V -> bregman(W, V, p) and W -> normalize(W, p) in float64 for one first argument W and one p: the float64
    operations of :func:`bregman_terms` (series branch included), :func:`bregman`, :func:`lp_norm` and :func:`normalize`
    on the same operands in the same order, with what depends on W and p only (|W|^p / p, p - 1, 1/p, the series
    coefficients) formed once and no backend dispatch per call, so every value is bregman's bit for bit (tested against
    it). For the many divergences from one fixed point of a bisection (att_svm.cone_direction)."""

    def __init__(self, W, p):
        self.x = np.asarray(W, dtype=float)
        self.p = np.asarray(p, dtype=float)
        self.p_minus_1, self.inv_p = self.p - 1, 1 / self.p
        self.x_term = np.abs(self.x) ** self.p / self.p
        self.coef = np.reshape(_binomials(float(p))[1:], (-1,) + (1,) * self.x.ndim)

    def __call__(self, V):
        """bregman(W, V, p) (a float64 scalar)."""
        x, p, y = self.x, self.p, np.asarray(V, dtype=float)
        ay = np.abs(y)
        y_term = ay ** p / p
        xy = x - y
        direct = self.x_term - y_term - (np.sign(y) * ay ** self.p_minus_1) * xy
        nonzero = y != 0
        with np.errstate(divide="ignore", invalid="ignore"):
            u = np.where(nonzero, xy / np.where(nonzero, y, 1.0), np.inf)
        small = np.abs(u) < SERIES_BELOW
        if not small.any():
            return np.add.reduce(direct, axis=None)
        us = np.where(small, u, 0.0)
        terms = np.multiply.accumulate(us[None].repeat(SERIES_TERMS, axis=0), axis=0)
        terms[1:] *= self.coef
        terms[0] = 0.0
        series = np.add.accumulate(terms, axis=0)[-1]
        return np.add.reduce(np.where(small, y_term * series, direct), axis=None)

    def normalize(self, W):
        """normalize(W, p) in float64."""
        W = np.asarray(W, dtype=float)
        a = np.abs(W)
        top = np.maximum.reduce(a, axis=None)
        if top == 0:
            return W / (0.0 * top)
        return W / (top * np.add.reduce((a / top) ** self.p, axis=None) ** self.inv_p)


def normalize(W, p, xp=F64):
    """W / ||W||_p."""
    W = xp.asarray(W)
    return W / lp_norm(W, p, xp)


def directional_bregman(W_mm, W, p, xp=F64):
    """bar D(W) = D_psi(W_mm / ||W_mm||_p, W / ||W||_p): the quantity plotted in Section 4.1."""
    return bregman(normalize(W_mm, p, xp), normalize(W, p, xp), p, xp)


def directional_bregman_correlation(W_mm, W, p, xp=F64):
    """1 - <grad psi(W), W_mm/||W_mm||_p> / ||W||_p^(p-1) (Section 1.3), evaluated as 1 - <grad psi(W/||W||_p), .>
    (degree p-1 homogeneity of grad psi; no underflow at tiny ||W||)."""
    return 1.0 - xp.sum(mirror_map(normalize(W, p, xp), p, xp) * normalize(W_mm, p, xp))


# ---- the attention classifier and its loss (Section 1.1, Lemmas 16-18) -------------------


def logistic(u, xp=F64):
    """ell(u) = log(1 + e^(-u))."""
    u = xp.asarray(u)
    return xp.log1p(xp.exp(-u))


def logistic_prime(u, xp=F64):
    """ell'(u) = -1 / (1 + e^u)."""
    u = xp.asarray(u)
    return -1.0 / (1.0 + xp.exp(u))


def scores(data, W, xp=F64):
    """h_i = X_i W z_i, shape (n, T): the attention score of token t is x_it^T W z_i."""
    W = xp.asarray(W)
    if xp.native:
        return np.einsum("itd,id->it", data.X, np.asarray(data.z) @ W.T)
    X, z = _mpf_tokens(data) if xp.precise else (np.asarray(data.X), np.asarray(data.z))
    Wz = z @ W.T  # (n, d); object matmul sums the products in order, without temporaries
    return (X @ Wz[:, :, None])[..., 0]


_MPF_TOKENS: dict = {}


def _mpf_tokens(data):
    """data.X and data.z as mpf object arrays for the mpmath backend, cached per dataset: each float64 entry
    converted once, exactly (53 bits), so the mpmath products are those of the float entries, without a conversion
    per product. The exact, interval and symbolic backends take the floats as they are (their own types)."""
    held = _MPF_TOKENS.get(id(data))
    if held is None or held[0] is not data:
        if len(_MPF_TOKENS) > 64:
            _MPF_TOKENS.clear()
        with mpmath.workprec(53):
            held = data, *(_to_mpf(np.asarray(a)) for a in (data.X, data.z))
        _MPF_TOKENS[id(data)] = held
    return held[1:]


def _to_mpf(a):
    """a float array as mpf objects (an object array is kept as it is)."""
    return a if a.dtype == object else np.frompyfunc(mpmath.mpf, 1, 1)(a)


def softmax(h, xp=F64):
    """S(h) along the last axis, in log domain."""
    h = xp.asarray(h)
    if xp.native and np.all(np.isfinite(h)):
        e = np.exp(h - np.max(h, axis=-1, keepdims=True))
        return e / np.sum(e, axis=-1, keepdims=True)
    return xp.exp(h - xp.logsumexp(h, axis=-1)[..., None])


def gammas(data, v=None, xp=F64):
    """gamma_it = Y_i v^T x_it, shape (n, T) (Section 1.1)."""
    v = data.v if v is None else v
    X = _mpf_tokens(data)[0] if xp.precise else np.asarray(data.X)
    return np.asarray(data.Y)[:, None] * xp.sum(X * xp.asarray(v), axis=-1)


def outputs(data, W, v=None, xp=F64):
    """Y_i f_W(X_i) = gamma_i^T S(X_i W z_i), shape (n,)."""
    return xp.sum(gammas(data, v, xp) * softmax(scores(data, W, xp), xp), axis=-1)


def loss(data, W, v=None, xp=F64):
    """(ERM): L(W) = (1/n) sum_i ell(gamma_i^T S(X_i W z_i)) with the logistic loss."""
    return xp.sum(logistic(outputs(data, W, v, xp), xp)) / len(data.Y)


def loss_excess(data, W, anchor, v=None, xp=F64):
    """L(W) - (1/n) sum_i ell(gamma_{i, a_i}) for fixed token indices a, without cancellation.

    With delta_i = sum_t s_it (gamma_it - gamma_{i a_i}) (small once the weights concentrate on a_i), each term is
    ell(u + delta) - ell(u) = log1p(e^-u expm1(-delta) / (1 + e^-u)), u = gamma_{i a_i}; differences of L between
    iterates are then formed from these small numbers, not from L itself.
    """
    return _loss_excess(softmax(scores(data, W, xp), xp), gammas(data, v, xp), anchor, xp)


def _loss_excess(s, g, anchor, xp):
    """loss_excess from the softmax weights s and the gammas g."""
    u = g[np.arange(len(g)), anchor]
    delta = xp.sum(s * (g - u[:, None]), axis=-1)
    e = xp.exp(-u)
    return xp.sum(xp.log1p(e * xp.expm1(-delta) / (1.0 + e))) / len(g)


def _pair_weights(s, gamma, xp=F64):
    """c_it = sum_tau s_itau (gamma_it - gamma_itau): with it, h^T S'(h) gamma = sum_t s_t c_t h_t."""
    return xp.sum(s[:, None, :] * (gamma[:, :, None] - gamma[:, None, :]), axis=-1)


def grad_inner(data, W, V, v=None, xp=F64):
    """<grad L(W), V> = (1/n) sum_i ell'_i * 1/2 sum_{t,tau} s_t s_tau (gamma_t - gamma_tau)(g_t - g_tau), g = X_i V z_i.

    Lemma 17 in the pairwise form of the claims file (Section 2 preamble): every difference
    is formed before it is weighted, so the sign is right at any ||W||.
    """
    return grad_inners(data, W, (V,), v, xp)[0]


def grad_inners(data, W, Vs, v=None, xp=F64):
    """[grad_inner(data, W, V) for V in Vs], with the scores, weights and gammas at W formed once (V = W: g = h)."""
    h = scores(data, W, xp)
    s = softmax(h, xp)
    gamma = gammas(data, v, xp)
    weights = s[:, :, None] * s[:, None, :] * (gamma[:, :, None] - gamma[:, None, :])
    lp = logistic_prime(xp.sum(gamma * s, axis=-1), xp)
    out = []
    for V in Vs:
        g = h if V is W else scores(data, V, xp)
        pair = weights * (g[:, :, None] - g[:, None, :])
        out.append(xp.sum(lp * xp.sum(xp.sum(pair, axis=-1), axis=-1) / 2.0) / len(data.Y))
    return out


def grad_loss(data, W, v=None, xp=F64):
    """(grad L(W), L(W)) from one evaluation of the scores, weights and gammas at W (:func:`grad`, :func:`loss`)."""
    h = scores(data, W, xp)
    s, gamma = softmax(h, xp), gammas(data, v, xp)
    return _grad(data, h, s, gamma, xp), xp.sum(logistic(xp.sum(gamma * s, axis=-1), xp)) / len(data.Y)


def grad(data, W, v=None, xp=F64):
    """Lemma 17: grad L(W) = (1/n) sum_i ell'_i X_i^T S'(h_i) gamma_i z_i^T, in pairwise form.

    X^T S'(h) gamma = 1/2 sum_{t,tau} s_t s_tau (gamma_t - gamma_tau)(x_t - x_tau)
                    = sum_t s_t c_t (x_t - x_a)   for any anchor a (sum_t s_t c_t = 0),
    with c_t = sum_tau s_tau (gamma_t - gamma_tau) and a the token of largest weight, so the
    dominant token drops out exactly and no large terms cancel.
    """
    h = scores(data, W, xp)
    return _grad(data, h, softmax(h, xp), gammas(data, v, xp), xp)


def _grad(data, h, s, gamma, xp):
    """grad from the scores h, their softmax s and the gammas."""
    X = np.asarray(data.X)
    c = _pair_weights(s, gamma, xp)
    anchor = np.argmax(xp.to_float(h), axis=-1)
    dX = X - X[np.arange(len(X)), anchor][:, None, :]  # x_t - x_a, (n, T, d)
    lp = logistic_prime(xp.sum(gamma * s, axis=-1), xp)
    if xp.native:
        return (lp[:, None] * np.einsum("it,itd->id", s * c, dX)).T @ np.asarray(data.z) / len(data.Y)
    u = xp.sum((s * c)[:, :, None] * dX, axis=1)  # X_i^T S' gamma_i, (n, d)
    return xp.sum((lp[:, None] * u)[:, :, None] * np.asarray(data.z)[:, None, :], axis=0) / len(data.Y)


class Gradient:
    """grad L(W) in float64, for the long runs: :func:`grad`'s operations (Lemma 17, pairwise form) with what does not
    depend on W (the gammas, their pairwise differences gamma_it - gamma_itau, the token differences x_it - x_ia for
    every anchor a) formed once, so each call is the same arithmetic as ``grad(data, W)``.

    data: one dataset, or a list of datasets of one shape (n, T, d); then W carries a leading axis, one matrix per
    dataset, and the runs advance together (every operation acts per dataset, elementwise or along its own axes).
    """

    def __init__(self, data, v=None):
        many = isinstance(data, list)
        stack = np.stack if many else (lambda parts: parts[0])
        parts = data if many else [data]
        self.X = stack([np.asarray(d.X, dtype=float) for d in parts])
        self.z = stack([np.asarray(d.z, dtype=float) for d in parts])
        self.gamma = stack([gammas(d, v) for d in parts])
        self.n = len(parts[0].Y)
        self.gamma_pairs = self.gamma[..., :, None] - self.gamma[..., None, :]
        self.dX = self.X[..., None, :, :] - self.X[..., :, None, :]  # dX[i, a, t] = x_it - x_ia
        self.rows = np.ix_(*map(np.arange, self.gamma.shape[:-1]))  # (dataset,) sample indices

    def __call__(self, W):
        h = np.einsum("...itd,...id->...it", self.X, self.z @ W.swapaxes(-1, -2))
        # softmax's float path where every score is finite (a finite sum of the scores says so in one reduction; a
        # sum that overflows is sent to softmax, which checks the scores themselves), reductions called directly
        if math.isfinite(np.add.reduce(h, axis=None)):
            e = np.exp(h - np.maximum.reduce(h, axis=-1, keepdims=True))
            s = e / np.add.reduce(e, axis=-1, keepdims=True)
        else:
            s = softmax(h)
        c = np.add.reduce(s[..., None, :] * self.gamma_pairs, axis=-1)
        dX = self.dX[(*self.rows, h.argmax(axis=-1))]
        lp = -1.0 / (1.0 + np.exp(np.add.reduce(self.gamma * s, axis=-1)))
        inner = lp[..., None] * np.einsum("...it,...itd->...id", s * c, dX)
        return inner.swapaxes(-1, -2) @ self.z / self.n


def grad_dense(data, W, v=None, xp=F64):
    """Lemma 17 exactly as printed, with S'(h) = diag(S(h)) - S(h) S(h)^T formed densely.

    Cancels catastrophically at large ||W||; kept as the literal formula the claim checks.
    """
    X = np.asarray(data.X)
    s = softmax(scores(data, W, xp), xp)
    gamma = gammas(data, v, xp)
    Sg = s * gamma - s * xp.sum(s * gamma, axis=-1)[:, None]  # S'(h) gamma, (n, T)
    u = xp.sum(Sg[:, :, None] * X, axis=1)
    lp = logistic_prime(xp.sum(gamma * s, axis=-1), xp)
    return xp.sum((lp[:, None] * u)[:, :, None] * np.asarray(data.z)[:, None, :], axis=0) / len(data.Y)


def grad_v(data, W, v=None, xp=F64):
    """grad_v L = (1/n) sum_i ell'_i Y_i X_i^T S(X_i W z_i) (joint training, Section 4.2)."""
    s = softmax(scores(data, W, xp), xp)
    lp = logistic_prime(xp.sum(gammas(data, v, xp) * s, axis=-1), xp)
    pooled = xp.sum(s[:, :, None] * np.asarray(data.X), axis=1)  # X_i^T s_i
    return xp.sum((lp * np.asarray(data.Y))[:, None] * pooled, axis=0) / len(data.Y)


def loss_bounds(data, v=None):
    """Lemma 16: (L_min, L_max) = ((1/n) sum_i ell(max_t gamma_it), (1/n) sum_i ell(min_t gamma_it))."""
    g = gammas(data, v)
    return float(np.mean(logistic(g.max(axis=1)))), float(np.mean(logistic(g.min(axis=1))))


def gradient_bound(data, v=None):
    """Lemma 18's constant G = 1/2 M max_i ||X_i||_2 ||gamma_i||_2 ||z_i||_2, M = sup |ell'| on [-max|gamma|, max|gamma|]."""
    g = gammas(data, v)
    M = float(1.0 / (1.0 + np.exp(-np.max(np.abs(g)))))
    per = [np.linalg.norm(Xi, 2) * np.linalg.norm(gi) * np.linalg.norm(zi) for Xi, gi, zi in zip(data.X, g, data.z, strict=False)]
    return 0.5 * M * max(per)


# ---- ell_p-AttGD (Section 1.4) ---------------------------------------------------------------

#: guard of the normalized step (float64 machine epsilon, as in the authors' code; see Section 1.4)
EPS = float(np.finfo(float).eps)


def md_step(W, G, eta, p, normalized=False, xp=F64):
    """One mirror-descent step grad psi(W+) = grad psi(W) - eta G; normalized: G / (||G||_q + eps)."""
    if xp.native:
        return MirrorStep(eta, p, normalized)(np.asarray(W, dtype=float), np.asarray(G, dtype=float))
    if normalized:
        G = xp.asarray(G) / (lp_norm(G, dual_exponent(p, xp), xp) + EPS)
    G, W = xp.asarray(G), xp.asarray(W)
    moved = inverse_mirror_map(mirror_map(W, p, xp) - eta * G, p, xp)
    return xp.where(np.asarray(G == 0, dtype=bool), W, moved)  # exact where the gradient entry is 0


class MirrorStep:
    """md_step in float64 for one (eta, p): the exponents p - 1, 1/(p - 1), q and 1/q formed once, then per step
    the same operations as md_step and lp_norm, without the backend's dispatch."""

    def __init__(self, eta, p, normalized=False):
        p = np.asarray(p, dtype=float)
        self.eta, self.normalized = eta, normalized
        self.up, self.down = p - 1, 1 / (p - 1)
        self.q = np.asarray(p / (p - 1))
        self.q_root = 1 / self.q

    def __call__(self, W, G):
        if self.normalized:
            G = G / (self._dual_norm(G) + EPS)
        theta = np.sign(W) * np.abs(W) ** self.up - self.eta * G
        moved = np.sign(theta) * np.abs(theta) ** self.down
        # exact where the gradient entry is 0 (with no such entry, where() would return ``moved`` itself)
        return moved if np.logical_and.reduce(G, axis=None) else np.where(G == 0, W, moved)

    def _dual_norm(self, G):
        """lp_norm(G, q)."""
        a = np.abs(G)
        top = np.maximum.reduce(a, axis=None)
        if top == 0:
            return 0.0 * top
        return top * np.add.reduce((a / top) ** self.q, axis=None) ** self.q_root


def attgd(data, W0, p, eta, steps, normalized=False, every=1, plain=False):
    """ell_p-AttGD from W0 (v fixed): the iterates W(0), W(every), ... (float64), shape (K, d, d).

    A C-ordered W(0) is run by :class:`_FusedRun` (the operations of Gradient and MirrorStep, into buffers held for
    the run); ``plain=True``, or W(0) in another memory layout (whose iterates keep that layout, and BLAS and the sums
    over all entries follow it), calls Gradient and MirrorStep step by step (the reference the fused run is tested
    against bit for bit)."""
    W = np.array(W0, dtype=float)
    if not plain and W.ndim == 2 and W.flags.c_contiguous and not isinstance(data, list):
        return _FusedRun(data, p, eta, normalized)(W, steps, every)
    gradient, step = Gradient(data), MirrorStep(eta, p, normalized)
    out = [W.copy()]
    for k in range(1, steps + 1):
        W = step(W, gradient(W))
        if k % every == 0:
            out.append(W.copy())
    return np.stack(out)


#: np.einsum without its Python wrapper (np.einsum(..., optimize=False) calls exactly this; about 2.5 us a call)
_einsum = getattr(getattr(np, "_core", None) and np._core.multiarray, "c_einsum", np.einsum)


class _FusedRun:
    """attgd for one dataset and a C-ordered W: per step Gradient.__call__ and then MirrorStep.__call__, the same
    numpy operations on operands of the same shapes, strides and dtypes, in the same order (so every rounding, every
    summation order and every BLAS call is the same), written into arrays allocated once per run (output arguments
    passed positionally), with the ufuncs, reductions and constants bound to locals (the Python scalar operands as
    float64 0-d arrays), einsum called without its Python wrapper, and no attribute lookups per step. Powers keep the
    ``**`` operator (in place: numpy's scalar-exponent fast paths for 1, 2, 0.5 are those of the out-of-place ``**``
    the reference uses). About 30% less CPU a step than the plain loop; tested bit for bit against it
    (tests/papers/julistiono2024/test_models.py)."""

    def __init__(self, data, p, eta, normalized):
        self.gradient, self.step = Gradient(data), MirrorStep(eta, p, normalized)

    def __call__(self, W, steps, every):
        gr, stp = self.gradient, self.step
        X, z, gamma = gr.X, gr.z, gr.gamma
        nn, T, d = X.shape
        pairs = gr.gamma_pairs
        dX, rows = gr.dX, gr.rows[0]
        up, down, q, q_root, normalized = stp.up, stp.down, stp.q, stp.q_root, stp.normalized
        # the Python scalars of the reference as float64 0-d arrays (the same values; numpy converts a Python scalar
        # operand to exactly these on every call)
        eta, one, minus_one, n = (np.asarray(float(x)) for x in (stp.eta, 1.0, -1.0, gr.n))
        add, mul, sub, div, exp, sign, absolute, matmul = (np.add, np.multiply, np.subtract, np.divide, np.exp, np.sign,
                                                           np.abs, np.matmul)
        add_r, max_r, and_r, isfinite, copyto = np.add.reduce, np.maximum.reduce, np.logical_and.reduce, math.isfinite, np.copyto
        zW, h, m, e, se = np.empty((nn, d)), np.empty((nn, T)), np.empty((nn, 1)), np.empty((nn, T)), np.empty((nn, 1))
        prod, c = np.empty((nn, T, T)), np.empty((nn, T))
        gs, u, lp, sc, inner = np.empty((nn, T)), np.empty(nn), np.empty(nn), np.empty((nn, T)), np.empty((nn, d))
        G, Gn, a, t1, t2, theta = (np.empty((d, d)) for _ in range(6))
        s = np.empty((nn, T))
        s_b, lp_col = s[:, None, :], lp[:, None]
        spare = np.empty((d, d))  # W and spare alternate: each step's W is written into the one not read
        out = [W.copy()]
        for k in range(1, steps + 1):
            # ---- Gradient.__call__(W)
            matmul(z, W.T, zW)
            _einsum("itd,id->it", X, zW, out=h)
            if isfinite(add_r(h, None)):
                max_r(h, -1, None, m, True)
                sub(h, m, e)
                exp(e, e)
                add_r(e, -1, None, se, True)
                div(e, se, s)
            else:
                s[...] = softmax(h)
            mul(s_b, pairs, prod)
            add_r(prod, -1, None, c)
            sel = dX[rows, h.argmax(-1)]
            mul(gamma, s, gs)
            add_r(gs, -1, None, u)
            exp(u, u)
            add(one, u, u)
            div(minus_one, u, lp)
            mul(s, c, sc)
            _einsum("it,itd->id", sc, sel, out=inner)
            mul(lp_col, inner, inner)
            matmul(inner.T, z, G)
            div(G, n, G)
            # ---- MirrorStep.__call__(W, G)
            if normalized:
                absolute(G, a)
                top = max_r(a, None)
                if top == 0:
                    norm = 0.0 * top
                else:
                    div(a, top, a)
                    a **= q
                    norm = top * add_r(a, None) ** q_root
                div(G, norm + EPS, Gn)
                g = Gn
            else:
                g = G
            sign(W, t1)
            absolute(W, t2)
            t2 **= up
            mul(t1, t2, t1)
            mul(eta, g, t2)
            sub(t1, t2, theta)
            sign(theta, t1)
            absolute(theta, t2)
            t2 **= down
            moved = mul(t1, t2, spare)
            if not and_r(g, None):  # exact where the gradient entry is 0
                copyto(moved, W, where=g == 0)
            W, spare = moved, W
            if k % every == 0:
                out.append(W.copy())
        return np.stack(out)


def iterate(data, theta, p, eta, steps):
    """``steps`` un-normalized ell_p-AttGD steps from the dual point theta = grad psi(W) (float64, v fixed), as in
    :func:`track` without its per-step quantities: the dual point after the last step. data may be a list of
    datasets of one shape, theta then one dual point per dataset (the runs advance together, see Gradient)."""
    gradient = Gradient(data)
    for _ in range(steps):
        theta = theta - eta * gradient(inverse_mirror_map(theta, p))
    return theta


def joint_gd(data, W0, v0, p, eta, steps, normalized=True, every=1):
    """ell_p-JointGD (Section 4.2): simultaneous mirror steps on W and v; returns (Ws, vs)."""
    W, v = np.array(W0, dtype=float), np.array(v0, dtype=float)
    Ws, vs = [W.copy()], [v.copy()]
    for k in range(1, steps + 1):
        GW, Gv = grad(data, W, v), grad_v(data, W, v)
        W, v = md_step(W, GW, eta, p, normalized), md_step(v, Gv, eta, p, normalized)
        if k % every == 0:
            Ws.append(W.copy())
            vs.append(v.copy())
    return np.stack(Ws), np.stack(vs)


def _same_sign_growth(theta, h, r, xp=F64):
    """(|theta + h|^r - |theta|^r) / |theta|^r = expm1(r log1p(h / theta)) where theta + h keeps theta's sign (else
    None there): the relative change of a power, without forming the difference of two nearly equal numbers."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = h / xp.where(np.asarray(theta != 0, bool), theta, 1.0)
    keep = np.asarray((theta != 0) & (ratio > -1), bool)
    ratio = xp.where(keep, ratio, 0.0)
    return keep, xp.expm1(r * xp.log1p(ratio))


def dual_norm_increment(theta, h, q, xp=F64):
    """||theta + h||_q - ||theta||_q, summed as relative changes of |theta_j|^q (Lemma 4 (i)'s increment of
    ||grad psi||_q = N^(p-1); no cancellation when h is far below theta's rounding)."""
    theta, h, q = xp.asarray(theta), xp.asarray(h), xp.asarray(q)
    a = xp.abs(theta)
    top = np.max(a)
    keep, growth = _same_sign_growth(theta, h, q, xp)
    base = (a / top) ** q
    direct = (xp.abs(theta + h) / top) ** q - base
    dA = xp.sum(xp.where(keep, base * growth, direct))
    A = xp.sum(base)
    return top * A ** (1 / q) * xp.expm1(xp.log1p(dA / A) / q)


def primal_increment(theta, h, p, xp=F64):
    """W(theta + h) - W(theta) with W(theta) = (grad psi)^(-1)(theta), entrywise without cancellation."""
    theta, h, p = xp.asarray(theta), xp.asarray(h), xp.asarray(p)
    keep, growth = _same_sign_growth(theta, h, 1 / (p - 1), xp)
    W = inverse_mirror_map(theta, p, xp)
    return xp.where(keep, W * growth, inverse_mirror_map(theta + h, p, xp) - W)


def loss_decrease(data, W, dW, v=None, xp=F64):
    """L(W) - L(W + dW) from the score changes dh = X dW z, without cancellation (per sample i, with a the token
    of largest weight: s'_t - s_t = s_t expm1(dh_t - dh_a - log1p(sum_t s_t expm1(dh_t - dh_a))), then
    u' - u = sum_{t != a} (gamma_t - gamma_a)(s'_t - s_t) and ell(u) - ell(u') = -log1p(e^-u expm1(u - u') /
    (1 + e^-u)))."""
    h = scores(data, W, xp)
    return _loss_decrease(h, softmax(h, xp), gammas(data, v, xp), scores(data, dW, xp), xp)


def _loss_decrease(h, s, g, dh, xp):
    """loss_decrease from the scores h at W, their softmax s, the gammas g and the score changes dh."""
    rows = np.arange(len(g))
    a = np.argmax(xp.to_float(h), axis=-1)
    rel = dh - dh[rows, a][:, None]
    shift = xp.log1p(xp.sum(s * xp.expm1(rel), axis=-1))
    ds = s * xp.expm1(rel - shift[:, None])
    du = xp.sum((g - g[rows, a][:, None]) * ds, axis=-1)  # the t = a term is 0
    u = xp.sum(g * s, axis=-1)
    e = xp.exp(-u)
    return -xp.sum(xp.log1p(e * xp.expm1(-du) / (1.0 + e))) / len(g)


class Track(NamedTuple):
    """Per-iterate quantities of an ell_p-AttGD run (index k = 0..steps), Lemmas 27-30 (claims file Section 2).

    N: ||W(k)||_p; Np1: ||grad psi(W(k))||_q = N^(p-1) (Section 1.3); D: bar D_k = D_psi(bar W_mm, bar W(k));
    L: L(W(k)) - L_ref (loss_excess with the tokens selected at W(0) at k = 0, then less the decreases dL in
    float64; differences only); pi: pi_emp(W(k)) =
    <grad L, bar W(k)> / <grad L, bar W_mm> - 1 (Lemma 21's ratio); g: <grad L(W(k)), bar W_mm> (pairwise form);
    dNp1, dL: the step out of W(k), N_{k+1}^(p-1) - N_k^(p-1) and L(W(k)) - L(W(k+1)), each formed without
    cancellation (dual_norm_increment, primal_increment, loss_decrease), so they keep their relative accuracy when a
    step is far below the rounding of N and L.
    """

    N: np.ndarray
    Np1: np.ndarray
    D: np.ndarray
    L: np.ndarray
    pi: np.ndarray
    g: np.ndarray
    dNp1: np.ndarray
    dL: np.ndarray
    theta_last: np.ndarray  # grad psi of the last iterate, from which a run is continued

    def head(self, K) -> Track:
        """The first K steps (iterates 0..K)."""
        return Track(*(a[:K + 1] for a in self[:-1]), self.theta_last)

    def extend(self, data, W_mm, p, eta, steps) -> Track:
        """The same run continued by ``steps`` more steps (the first ``len(self)`` entries unchanged)."""
        more = track(data, None, W_mm, p, eta, steps, theta0=self.theta_last)
        joined = (np.concatenate([a, b[1:]]) for a, b in zip(self[:-1], more[:-1], strict=False))
        return Track(*joined, more.theta_last)


def track(data, W0, W_mm, p, eta, steps, theta0=None, anchor=None, xp=F64, plain=False) -> Track:
    """Un-normalized ell_p-AttGD from W0 with the quantities of :class:`Track` at every iterate, in xp's precision.

    The state is the dual point theta(k) = grad psi(W(k)) (the update rule acts there: theta(k+1) = theta(k) -
    eta grad L(W(k))) and W(k) = (grad psi)^(-1)(theta(k)); in float64 a step below theta's rounding leaves W(k)
    unchanged exactly, instead of moving it by the round trip through the mirror map, while the increments dNp1, dL
    are those of the exact step from theta(k). In mpmath (``xp = MP(dps)``, inside ``mpmath.workdps(dps)``) every
    iterate is exact to dps digits: the run of the same float64 W0 whose per-step changes are below float64
    rounding (there D is taken as 1 - <theta, bar W_mm> / ||theta||_q, Section 1.3, exact at that precision). The
    same operations run on arb balls (``xp = ArbRun(dps)``, inside its ``context()``), about 10x faster, with
    every sign the run branches on decided.
    theta0 (instead of W0): start there. anchor: the tokens of L_ref (default alpha_i = argmax_t gamma_it).
    In float64 the run is advanced first (the dual points and gradients only) and the quantities of every iterate
    are then formed on the stacked iterates at once (:func:`_track_f64`, the same operations entry by entry);
    ``plain=True`` forms them step by step as mpmath does (the reference the stacked form is tested against).
    """
    if xp.native and not plain:
        return _track_f64(data, W0, W_mm, p, eta, steps, theta0, anchor)
    mp = not xp.native
    if mp:
        data = AttData(*(xp.asarray(a) for a in (data.X, data.z, data.Y, data.v)))
    scalar = (lambda a: np.asarray(a, dtype=object).item()) if mp else float
    q, Wbar_mm, eta = dual_exponent(p, xp), normalize(W_mm, p, xp), xp.asarray(eta)
    theta = mirror_map(xp.asarray(W0), p, xp) if theta0 is None else theta0
    gamma = gammas(data, xp=xp)  # fixed along the run; scores and weights are shared by G and L at each step
    anchor = np.argmax(xp.to_float(gamma), axis=1) if anchor is None else anchor
    rows = []
    for k in range(steps + 1):
        W = inverse_mirror_map(theta, p, xp)
        h = scores(data, W, xp)
        s = softmax(h, xp)
        G = _grad(data, h, s, gamma, xp)
        N, Np1 = lp_norm(W, p, xp), lp_norm(theta, q, xp)
        step = -eta * G
        g, gW = xp.sum(G * Wbar_mm), xp.sum(G * W)  # G in the anchored pairwise form: no cancellation inside
        if mp:  # at dps digits plain sums and differences are accurate; the increments are differences of rows
            D, incr = 1 - xp.sum(theta * Wbar_mm) / Np1, (None, None)
        else:
            D = bregman(Wbar_mm, W / N, p)
            dh = scores(data, primal_increment(theta, step, p))
            incr = dual_norm_increment(theta, step, q), _loss_decrease(h, s, gamma, dh, xp)
        # G = 0 (underflow): Lemma 21's inequality reads 0 >= 0 and holds with pi = 0
        pi = gW / N / g - 1 if _nonzero(g, xp) else 0 * N
        L = _loss_excess(s, gamma, anchor, xp) if mp or k == 0 else rows[-1][3] - rows[-1][7]
        rows.append(tuple(map(scalar, (N, Np1, D, L, pi, g))) + incr)
        if k < steps:
            theta = theta + step
    if mp:
        cols = [np.array(col, dtype=object) for col in list(zip(*rows, strict=False))[:6]]
        last = xp.asarray(math.nan)  # the step out of the last iterate is not taken
        cols += [np.append(np.diff(cols[1]), last), np.append(-np.diff(cols[3]), last)]
        return Track(*cols, theta)
    return Track(*(np.array(col, dtype=float) for col in zip(*rows, strict=False)), theta)


# ---- track in float64: the run first, then every iterate's quantities on the stacked iterates ----------------------
# Each helper below is its namesake applied to every k of a stack (k, ...) at once: the same elementwise operations,
# and each sum or maximum over one iterate's entries taken over the trailing axes (numpy reduces them in the same
# order as the whole array of one iterate; tests/papers/julistiono2024 compares the two bit for bit).

_EACH = (-2, -1)  # the entries of one iterate in a stack of d x d matrices


def _scalar_powers(x, e) -> np.ndarray:
    """x[k] ** e for every k by float64 scalars' power, as the plain forms raise one iterate's sum: an array's power
    may take a SIMD kernel that rounds differently (AVX-512 builds of numpy, by an ulp)."""
    e = np.float64(e)
    return np.array([np.float64(v) ** e for v in np.ravel(x)]).reshape(np.shape(x))


def _lp_norms(A, p):
    """lp_norm(A[k], p) for every k."""
    a, p = np.abs(A), np.asarray(p, dtype=float)
    top = np.max(a, axis=_EACH, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        norm = top * _scalar_powers(np.sum((a / top) ** p, axis=_EACH, keepdims=True), 1 / p)
    return np.where(top == 0, 0.0 * top, norm)[..., 0, 0]


def _dual_norm_increments(theta, h, q):
    """dual_norm_increment(theta[k], h[k], q) for every k."""
    a, q = np.abs(theta), np.asarray(q, dtype=float)
    top = np.max(a, axis=_EACH, keepdims=True)
    keep, growth = _same_sign_growth(theta, h, q)
    base = (a / top) ** q
    direct = (np.abs(theta + h) / top) ** q - base
    dA = np.sum(np.where(keep, base * growth, direct), axis=_EACH)
    A = np.sum(base, axis=_EACH)
    return top[..., 0, 0] * _scalar_powers(A, 1 / q) * np.expm1(np.log1p(dA / A) / q)


def _stacked_scores(data, W):
    """scores(data, W[k]) for every k, shape (k, n, T)."""
    return np.einsum("itd,kid->kit", data.X, np.asarray(data.z) @ W.swapaxes(-1, -2))


def _stacked_softmax(h):
    """softmax(h[k]) for every k (an iterate with a non-finite score takes softmax's log-domain path, as alone)."""
    finite = np.all(np.isfinite(h), axis=_EACH)
    with np.errstate(invalid="ignore"):
        e = np.exp(h - np.max(h, axis=-1, keepdims=True))
        s = e / np.sum(e, axis=-1, keepdims=True)
    for k in np.flatnonzero(~finite):
        s[k] = softmax(h[k])
    return s


def _loss_decreases(h, s, g, dh):
    """_loss_decrease(h[k], s[k], g, dh[k], F64) for every k."""
    rows = np.arange(len(g))
    a = np.argmax(h, axis=-1)  # (k, n)
    rel = dh - np.take_along_axis(dh, a[..., None], axis=-1)
    shift = np.log1p(np.sum(s * np.expm1(rel), axis=-1))
    ds = s * np.expm1(rel - shift[..., None])
    du = np.sum((g - g[rows, a][..., None]) * ds, axis=-1)
    u = np.sum(g * s, axis=-1)
    e = np.exp(-u)
    return -np.sum(np.log1p(e * np.expm1(-du) / (1.0 + e)), axis=-1) / len(g)


def _track_f64(data, W0, W_mm, p, eta, steps, theta0=None, anchor=None) -> Track:
    """track in float64: the dual points theta(k) and gradients G(k) = grad L(W(k)), k = 0..steps, advanced step by
    step (:class:`Gradient`: grad's arithmetic), then N, N^(p-1), bar D, pi, g and the increments of every iterate
    formed at once on the stacked iterates, and L by the same running differences as the plain loop."""
    q, Wbar_mm, eta = dual_exponent(p), normalize(W_mm, p), np.asarray(eta, dtype=float)
    theta = mirror_map(np.asarray(W0, dtype=float), p) if theta0 is None else theta0
    gamma = gammas(data)
    anchor = np.argmax(gamma, axis=1) if anchor is None else anchor
    gradient = Gradient(data)
    thetas, Ws, Gs = [], [], []
    for k in range(steps + 1):
        W = inverse_mirror_map(theta, p)
        G = gradient(W)
        thetas.append(theta)
        Ws.append(W)
        Gs.append(G)
        if k < steps:
            theta = theta + -eta * G
    other_layout = {k: th for k, (th, W) in enumerate(zip(thetas, Ws, strict=True))
                    if not (th.flags.c_contiguous and W.flags.c_contiguous)}
    thetas, Ws, Gs = np.stack(thetas), np.stack(Ws), np.stack(Gs)
    step = -eta * Gs
    N, Np1 = _lp_norms(Ws, p), _lp_norms(thetas, q)
    D = np.sum(bregman_terms(Wbar_mm, Ws / N[:, None, None], p), axis=_EACH)
    g, gW = np.sum(Gs * Wbar_mm, axis=_EACH), np.sum(Gs * Ws, axis=_EACH)
    with np.errstate(divide="ignore", invalid="ignore"):
        pi = np.where(g != 0, gW / N / g - 1, 0 * N)  # G = 0 (underflow): pi = 0, as in the plain loop
    h = _stacked_scores(data, Ws)
    s = _stacked_softmax(h)
    dNp1 = _dual_norm_increments(thetas, step, q)
    dL = _loss_decreases(h, s, gamma, _stacked_scores(data, primal_increment(thetas, step, p)))
    L0 = float(_loss_excess(s[0], gamma, anchor, F64))
    cols = [N, Np1, D, pi, g, dNp1, dL]
    for k in other_layout:
        # an iterate in another memory layout than the stack's (W(0) a transpose, say) is summed in its own order by
        # the plain loop: its row is the plain loop's own
        row = track(data, None, W_mm, p, eta, 0, theta0=other_layout[k], anchor=anchor, plain=True)
        for col, value in zip(cols, (row.N, row.Np1, row.D, row.pi, row.g, row.dNp1, row.dL), strict=True):
            col[k] = value[0]
        L0 = row.L[0] if k == 0 else L0
    L = np.subtract.accumulate(np.concatenate([[L0], dL[:-1]]))  # L(k+1) = L(k) - dL(k), in order
    return Track(N, Np1, D, L, pi, g, dNp1, dL, theta)
