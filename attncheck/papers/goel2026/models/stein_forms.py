"""Stein forms of one query's softmax moments (goel2026, arXiv 2603.01514, Appendix D.2-D.4) and the
Monte Carlo estimators of the O(1/n) rates of Lemmas 10-23.

Notation of softmax_moments: query x_i fixed (or one per draw), the other n - 1 keys i.i.d.
N(0, Sigma), self-term included; m = Sigma B^T x_i, mu_i = sum_j p_ij x_j, C_i the softmax covariance.

* Lemma 11 (Stein's lemma in x_j): E_{-i} mu_i - m_i = E_{-i}[p_ii (x_i - m_i) - sum_{j != i} p_ij^2 m_i];
* Lemma 20 (second order): E_{-i} C_i - Sigma = E_{-i}[p_ii (x x^T - Sigma - m m^T)
  - sum_j (3p_ij^2 - 2p_ij^3) m m^T] + m m^T - E_{-i}[mu mu^T];
* both at n = 2, d = 1 as one-dimensional integrals (:func:`stein_1d_sides`).

The per-draw Stein forms have size O(1/n), where mu_i - m_i and C_i - Sigma spread O(n^{-1/2}), so their
means keep a relative Monte Carlo error O(N^{-1/2}) at every n.
"""
from __future__ import annotations

import math
import warnings

import mpmath
import numpy as np
from scipy.special import expit


def sq_mean(v) -> float:
    """Unbiased ||E v||^2 from draws v (size, ...): ||mean||^2 - tr(Cov)/N."""
    v = np.asarray(v, float).reshape(len(v), -1)
    return float(np.sum(v.mean(axis=0) ** 2) - np.sum(v.var(axis=0, ddof=1)) / len(v))


def norm_mean(v) -> float:
    """||E v|| from draws v: the root of :func:`sq_mean`, 0 where that is negative."""
    return math.sqrt(max(0.0, sq_mean(v)))


def sum_var(v) -> float:
    """tr Cov(v): the sum of the unbiased variances of the entries of the draws v (size, ...)."""
    return float(np.sum(np.var(np.reshape(v, (len(v), -1)), axis=0, ddof=1)))


def mean_var(v) -> float:
    """The unbiased variances of the entries of the draws v (size, k), averaged over the k entries."""
    return float(np.mean(np.var(v, axis=0, ddof=1)))


def weighted(rows, w):
    """Per-draw rows with importance weights w (size,) (:func:`softmax_moments.wide_queries`): the first factor of a
    pair (or the rows) times w, so that every mean of a product of one draw's rows keeps its target."""
    if isinstance(rows, tuple):
        first = rows[0]
        return (first * w.reshape((-1,) + (1,) * (first.ndim - 1)), *rows[1:])
    return rows * w.reshape((-1,) + (1,) * (rows.ndim - 1))


def pair_mean(pair) -> float:
    """E[v . v'] from draws of two replicas (v, v') with independent keys and the same x_i: unbiased
    E_i ||E_{-i} v||^2 (Lemmas 12, 16, 21)."""
    a, b = pair
    return float(np.mean(np.sum(a * b, axis=tuple(range(1, a.ndim)))))


def mean_gap(D, x, m):
    """Per draw: p_ii (x_i - m_i) - sum_{j != i} p_ij^2 m_i, whose mean is E_{-i} mu_i - m_i exactly
    (Lemma 11). Its terms have relative Monte Carlo error O(N^{-1/2}) at every n, where
    mu_i - m_i itself has an O(n^{-1/2}) spread around an O(1/n) mean."""
    return D.p_self[:, None] * (x - m) - D.p2[:, None] * m


def outer(a, b):
    """a b^T, per draw where a or b has a leading draw axis."""
    return a[..., :, None] * b[..., None, :]


def mumu_gap(D, m, m_row):
    """Per draw, a variable whose mean is E_{-i}[mu_i mu_i^T] - m_i m_i^T exactly: g m^T + m g^T +
    (mu - m)(mu - m)^T, mu - m replaced in its linear terms by its Stein form g (Lemma 11); O(1/n) per draw where
    mu mu^T - m m^T spreads O(n^{-1/2}). ``D``: softmax draws (from the scores: (mu - m)(mu - m)^T given them, the
    same mean); m = Sigma B^T x_i, ``m_row`` the same vector as the row x_i^T B Sigma (the two products round
    differently); either one per draw (size, d) or one for all (d,)."""
    g = mean_gap(D, D.x_i, m_row)
    return outer(g, m) + outer(m, g) + D.gap_outer(m)


def cov_gap(D, m, m_row, Sigma):
    """Per draw, a variable whose mean is E_{-i} C_i - Sigma exactly (Lemma 20): the Stein form
    p_ii (x x^T - Sigma - m m^T) - sum_j (3p_ij^2 - 2p_ij^3) m m^T + m m^T - mu mu^T, with
    m m^T - mu mu^T = -(E[mu mu^T] - m m^T) in the form of :func:`mumu_gap`. Every term is O(1/n) per draw; C_i -
    Sigma itself spreads O(n^{-1/2}). m, m_row as in :func:`mumu_gap`."""
    mm = outer(m, m)
    return (D.p_self[:, None, None] * (outer(D.x_i, D.x_i) - Sigma - mm) - D.w3[:, None, None] * mm
            - mumu_gap(D, m, m_row))


def mumu(D):
    """mu_i mu_i^T per draw."""
    return D.mu[:, :, None] * D.mu[:, None, :]


QUERY_GATE = 2.0
"""The query control variate's gate in :func:`query_cv`: e^{-gamma q} with gamma = QUERY_GATE / log n."""


def query_cv(x, B, Sigma, n):
    """Per query x (size, d), a variable of mean 0 under x ~ N(0, Sigma) exactly that follows n tr Var_{-i}(mu_i) -> e^q
    (tr Sigma + |m|^2) (the ratio estimator's variance: n e^{-q} effective keys) in x: e^{(1 - gamma) q} (|m|^2 - k),
    gamma = QUERY_GATE / log n, k = E|m|^2 under N(0, Sigma) tilted by e^{(1 - gamma) q}. With Sigma = L L^T, x = L v,
    q = v^T G v and m = K v (G = L^T B Sigma B^T L, K = Sigma B^T L), that law is v ~ N(0, M^{-1}), M = I - 2 (1 - gamma) G,
    so k = tr(K M^{-1} K^T) (Lemma 7's Gaussian integral). The gate e^{-gamma q} turns the variate down where one key can
    dominate the sums (e^{2q} ~ n), where n tr Var_{-i}(mu_i) no longer grows like e^q."""
    L = np.linalg.cholesky(Sigma)
    K = Sigma @ B.T @ L
    gamma = QUERY_GATE / math.log(n)
    M = np.eye(len(L)) - 2 * (1 - gamma) * (K.T @ B.T @ L)
    k = float(np.trace(K @ np.linalg.solve(M, K.T)))
    m = x @ B @ Sigma
    q = np.sum((x @ B) * m, axis=1)
    return np.exp((1 - gamma) * q) * (np.sum(m * m, axis=1) - k)


def lemma11_parts(x_i, m, D):
    """Per draw: mu_i - m_i and its Stein form p_ii (x_i - m_i) - sum_{j != i} p_ij^2 m_i (same mean, Lemma 11)."""
    lhs = D.mu - m[None]
    rhs = mean_gap(D, x_i, m)
    return lhs, rhs


def lemma20_parts(x_i, m, Sigma, D):
    """Per draw: C_i - Sigma and the per-draw terms of the Stein form (same mean, Lemma 20)."""
    x = x_i
    mm = np.outer(m, m)
    lhs = D.cov() - Sigma[None]
    w = D.w3
    rhs = (D.p_self[:, None, None] * (np.outer(x, x) - Sigma - mm)[None]
           - w[:, None, None] * mm[None] + mm[None] - D.mu[:, :, None] * D.mu[:, None, :])
    return lhs, rhs


def stein_1d_sides(x_i, b, var, xp, second):
    """n = 2, d = 1: both sides of Lemma 11 (or, ``second``, Lemma 20) as one-dimensional integrals over
    x_j ~ N(0, var), and the scale of their terms: (lhs, rhs, scale). float64: scipy adaptive quadrature to
    1e-13 relative on intervals cut at 0, m, x_i; mpmath (backend ``xp``): tanh-sinh on (-inf, 0, m, inf)."""
    mp = xp.precise
    num = mpmath.mpf if mp else float
    xi, b, s2 = num(x_i), num(b), num(var)
    m = s2 * b * xi
    E = mpmath.exp if mp else math.exp

    def p_j(t):  # p_ij = 1 / (1 + exp(b xi (xi - t)))
        return 1 / (1 + mpmath.exp(b * xi * (xi - t))) if mp else float(expit(b * xi * (t - xi)))

    def expect(f):
        def g(t):
            return (f(t) * E(-t * t / (2 * s2)) / (mpmath.sqrt(2 * mpmath.pi * s2) if mp else
                                                               math.sqrt(2 * math.pi * s2)))
        if mp:
            return mpmath.quad(g, [-mpmath.inf, 0, m, mpmath.inf])
        from scipy.integrate import quad
        R = abs(float(m)) + abs(float(xi)) + 40 * math.sqrt(float(s2))  # the Gaussian mass beyond is e^{-800}
        cuts = sorted({-R, 0.0, float(m), float(xi), R})
        with warnings.catch_warnings():  # scipy warns when 1e-13 is below its own roundoff estimate
            warnings.simplefilter("ignore")
            return sum(quad(g, a, c, epsabs=0, epsrel=1e-13, limit=200)[0] for a, c in zip(cuts, cuts[1:], strict=False))

    def mu(t):
        return (1 - p_j(t)) * xi + p_j(t) * t

    if not second:
        lhs = expect(mu) - m
        rhs = expect(lambda t: 1 - p_j(t)) * (xi - m) - expect(lambda t: p_j(t) ** 2) * m
    else:
        def C(t):
            return (1 - p_j(t)) * (xi - mu(t)) ** 2 + p_j(t) * (t - mu(t)) ** 2
        lhs = expect(C) - s2
        rhs = (expect(lambda t: 1 - p_j(t)) * (xi * xi - s2 - m * m)
               - expect(lambda t: 3 * p_j(t) ** 2 - 2 * p_j(t) ** 3) * m * m + m * m
               - expect(lambda t: mu(t) ** 2))
    scale = abs(m) + abs(xi) + s2 if not second else s2 + xi * xi + m * m
    return lhs, rhs, scale
