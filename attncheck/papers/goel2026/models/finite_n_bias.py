"""goel2026's finite-n biases: per-draw unbiased estimators with per-draw size O(1/n), or exact.

The biases E grad L_n - grad L (Theorem 4), E L_n - L (Theorem 1, after eq. (2)) and
E grad R_hat - grad R (Theorem 5) are O(1/n), while the plain per-draw differences spread
O(n^{-1/2}): their Monte Carlo means would need N >> n draws. Here every term linear in a
fluctuation with a known conditional mean is replaced by a variable with the same mean
and per-draw size O(1/n), so that the relative error stays O(N^{-1/2}) at every n:

* mu_i - m_i -> its Stein form g = p_ii (x_i - m_i) - sum_{j != i} p_ij^2 m_i (Lemma 11,
  E_{-i} g = E_{-i} mu_i - m_i exactly);
* C_i - Sigma -> its second-order Stein form (Lemma 20, with mu_i - m_i -> g in its linear terms);
* E grad R_hat - grad R needs no draws: grad R_hat is a polynomial in Sigma_hat, whose means are exact
  (:mod:`.wishart_moments`).

Notation of the claims file: m = Sigma B^T x, Err = A Sigma B^T - M, delta = mu - m,
Gamma = C - Sigma; query rows one per draw (exchangeability: E grad L_n is the mean of one
query row's term). The identities are DERIVED in the module's docstrings and checked
against the plain estimators in tests/papers/goel2026/test_models.py.
"""
from __future__ import annotations

import numpy as np

from attncheck.papers.goel2026.data.gaussian_regression import Problem
from attncheck.papers.goel2026.models import laplace_moments as lm
from attncheck.papers.goel2026.models import softmax_moments as sm
from attncheck.papers.goel2026.models import stein_forms as sf
from attncheck.papers.goel2026.models import wishart_moments as wm


def _dot(a, b):
    """Row-wise a . b, as a column (size, 1)."""
    return np.einsum("sa,sa->s", a, b)[:, None]


def stein_cov_gap_times(D: sm.QueryDraws, m, g, v, Sigma) -> np.ndarray:
    """Per draw Gamma~ v (size, d), Gamma~ the symmetric Stein form of C_i - Sigma (Lemma 20, E_{-i} Gamma~ =
    E_{-i} C_i - Sigma): p_ii (x x^T - Sigma - m m^T) - sum_j (3p_ij^2 - 2p_ij^3) m m^T - (g m^T + m g^T +
    delta delta^T), the last bracket being m m^T - mu mu^T with delta -> g in its linear terms; by inner
    products but for delta delta^T (D.gap_outer: given the scores for score draws, the same mean)."""
    x, w = D.x_i, D.w3[:, None]
    vm = _dot(v, m)
    return (D.p_self[:, None] * (_dot(v, x) * x - v @ Sigma - vm * m) - w * vm * m
            - (_dot(v, g) * m + vm * g + np.einsum("sbc,sc->sb", D.gap_outer(m), v)))


def _row_parts(A, B, problem: Problem, D: sm.QueryDraws):
    """(m, g, Err x) for the softmax draws D of query rows x = D.x_i (size, d)."""
    x = D.x_i
    m = x @ B @ problem.Sigma
    Ex = x @ (A @ problem.Sigma @ B.T - problem.M).T
    return m, sf.mean_gap(D, x, m), Ex


def gradient_bias_draws(A, B, problem: Problem, D: sm.QueryDraws) -> np.ndarray:
    """Per draw (size, (k + d) d): [bias_A; bias_B], whose mean is E grad L_n - grad L exactly (Theorem 4):

    bias_A = -M x g^T + A (g m^T + m g^T + delta delta^T)   (from -M E[x delta^T] + A E[mu mu^T - m m^T]),
    bias_B = x (Err x)^T A Gamma~ + x g^T A^T A Sigma + x delta^T A^T A Gamma
    (from E grad_B L_n = E[x x^T Err^T A C] + E[x delta^T A^T A C], the noise term having mean 0),
    Gamma~ the Stein form of C - Sigma, Gamma = C - Sigma itself (product of two fluctuations).
    Both are outer products x v^T: A (a b^T) = (A a) b^T and x (v^T G) = x (G^T v)^T. D: the softmax draws of
    the query rows x, over their keys, or from their scores, where delta delta^T, delta and delta^T A^T A C take
    their means given the scores (D.gap_outer, D.mu_bar, D.tilted_cov): the same mean."""
    x = D.x_i
    m, g, Ex = _row_parts(A, B, problem, D)
    S, AtA = problem.Sigma, A.T @ A
    bA = (-sf.outer(x @ problem.M.T, g) + sf.outer(g @ A.T, m) + sf.outer(m @ A.T, g)
          + np.einsum("kb,sbc->skc", A, D.gap_outer(m)))
    bB = sf.outer(x, stein_cov_gap_times(D, m, g, Ex @ A, S) + g @ AtA @ S + D.tilted_cov(AtA, m)
                - (D.mu_bar - m) @ AtA @ S)
    return np.concatenate([bA.reshape(len(x), -1), bB.reshape(len(x), -1)], axis=1)


def gradient_bias_given_queries(A, B, problem: Problem, x, n: int) -> np.ndarray:
    """Per query row x (size, d): E_{-i} of :func:`gradient_bias_draws`, exactly (to quadrature accuracy, at a cost
    independent of n: :mod:`.laplace_moments`), (size, (k + d) d); its mean over x ~ N(0, Sigma) is E grad L_n - grad L.
    With delta = mu - m = A_ D + a Y + R (D = x - m, A_ = p_ii, R = sum_j p_ij r_j; laplace_moments' notation),
    P = Sigma - a a^T, K = A^T A and v = A^T Err x: g and mu_bar - m -> e = E delta = E A_ D + E Y a (their AtA Sigma
    terms cancel), delta delta^T -> G2 = E A_^2 D D^T + E A_Y (D a^T + a D^T) + E Y^2 a a^T + E P2 P, Gamma~ ->
    E C - Sigma = E A_ (D D^T - Sigma) + E U a a^T - G2 (C = sum_k p_ik (x_k - m)(x_k - m)^T - delta delta^T), and
    C K delta -> E[C K delta] (:func:`_cov_times_gap`)."""
    S, AtA = problem.Sigma, A.T @ A
    u = x @ B
    m = u @ S
    sigma = np.sqrt(np.sum(u * m, axis=1))
    a = m / np.where(sigma > 0, sigma, 1.0)[:, None]
    D = x - m
    mom = lm.bias_moments(np.sum(x * u, axis=1), sigma, n).T
    mo, cu = mom[:6], mom[6:]
    EA, EY, EAA, EAY, EYY, P2 = (c[:, None] for c in mo)
    e = EA * D + EY * a
    DD, Da, aa = sf.outer(D, D), sf.outer(D, a), sf.outer(a, a)
    G2 = EAA[:, :, None] * DD + EAY[:, :, None] * (Da + np.swapaxes(Da, 1, 2)) + EYY[:, :, None] * aa \
        + P2[:, :, None] * (S - aa)
    gap_C = EA[:, :, None] * (DD - S) + cu[0][:, None, None] * aa - G2
    v = x @ (A @ S @ B.T - problem.M).T @ A
    bA = -sf.outer(x @ problem.M.T, e) + sf.outer(e @ A.T, m) + sf.outer(m @ A.T, e) + np.einsum("kb,sbc->skc", A, G2)
    bB = sf.outer(x, np.einsum("sbc,sc->sb", gap_C, v) + _cov_times_gap(D, a, S, AtA, mo, cu))
    return np.concatenate([bA.reshape(len(x), -1), bB.reshape(len(x), -1)], axis=1)


def _cov_times_gap(D, a, S, K, mo, cu):
    """E_{-i}[C K delta] per query (size, d), K symmetric: C K delta = C' K delta - delta (delta^T K delta) with
    C' = A_ D D^T + sum_j p_ij (a y_j + r_j)(a y_j + r_j)^T, and only the terms even in the residuals r_j ~ N(0, P)
    (given the scores) survive: E[C' K delta] = D (E A_^2 D.KD + E A_Y D.Ka) + a (a.KD E[A_ W] + a.Ka E[Y W]) (W = sum_j
    p_ij y_j^2 = U + 1 - A_) + E V (tr(KP) a + P K a) + P K (E[A_ (1 - A_)] D + E[(1 - A_) Y] a), and with b = A_ D + a Y,
    R ~ N(0, sum_j p_ij^2 P): E[delta delta^T K delta] = E[b b^T K b] + E[P2 b] tr(KP) + 2 P K E[P2 b]."""
    EA, EY, EAA, EAY, EYY, P2 = mo
    EU, EAU, EYU, EV, A3, A2Y, AY2, Y3, PA, PY = cu
    Ka, KD = a @ K, D @ K
    DKD, DKa, aKa = (np.sum(p * q, axis=1) for p, q in ((D, KD), (D, Ka), (a, Ka)))
    trKP = np.trace(K @ S) - aKa

    def PK(b):  # P K b per query, b (size, d)
        Kb = b @ K
        return Kb @ S - a * np.sum(a * Kb, axis=1)[:, None]

    def col(c):
        return c[:, None]

    first = (D * col(EAA * DKD + EAY * DKa) + a * col(DKa * (EAU + EA - EAA) + aKa * (EYU + EY - EAY))
             + col(EV) * (col(trKP) * a + PK(a)) + PK(D * col(EA - EAA) + a * col(EY - EAY)))
    pb = D * col(PA) + a * col(PY)
    second = (D * col(A3 * DKD + 2 * A2Y * DKa + AY2 * aKa) + a * col(A2Y * DKD + 2 * AY2 * DKa + Y3 * aKa)
              + col(trKP) * pb + 2 * PK(pb))
    return first - second


def query_rows(terms, A, B, problem: Problem, n: int, rng, size: int, tau: float = 1.0) -> np.ndarray:
    """``terms(A, B, problem, x, n)`` over ``size`` query rows x ~ N(0, tau^2 Sigma), each times its importance weight
    (sm.wide_queries): every mean over the rows is the N(0, Sigma) mean; the keys are integrated out exactly."""
    x, w = sm.wide_queries(problem.Sigma, rng, size, tau)
    return sf.weighted(terms(A, B, problem, x, n), w)


def loss_gap_draws(A, B, problem: Problem, D: sm.QueryDraws) -> np.ndarray:
    """Per draw (size,): (Err x)^T A g + ||A delta||^2 / 2, whose mean is E L_n - L exactly: one row's
    1/2||y - A mu||^2 - 1/2||y - A m||^2 = -(y - A m)^T A delta + 1/2||A delta||^2, y - A m = -Err x + eps.
    ||A delta||^2 = tr(A delta delta^T A^T), delta delta^T given the scores for score draws (D.gap_outer)."""
    m, g, Ex = _row_parts(A, B, problem, D)
    return np.sum(Ex * (g @ A.T), axis=1) + 0.5 * np.einsum("kb,sbc,kc->s", A, D.gap_outer(m), A)


def regularizer_bias(A, B, Sigma, n: int) -> np.ndarray:
    """E grad R_hat - grad R exactly ((k + d) d,), Sigma_hat the mean of n outer products (Theorem 5): grad_A R =
    A Sigma G Sigma / 2 and grad_B R = -Sigma B Sigma G Sigma / 2 with G = A^T A - B^T Sigma B are chains of
    Sigma_hat of length 2 to 4 (Section 1.8), whose biases :func:`wishart_moments.chain_bias` gives in closed form."""
    AtA, Bt = A.T @ A, B.T
    bias_A = 0.5 * A @ (wm.chain_bias(Sigma, [AtA], n) - wm.chain_bias(Sigma, [Bt, B], n))
    bias_B = -0.5 * (wm.chain_bias(Sigma, [B, AtA], n) - wm.chain_bias(Sigma, [B, Bt, B], n))
    return np.concatenate([bias_A.ravel(), bias_B.ravel()])


def row_draws(terms, A, B, problem: Problem, n: int, rng, size: int, tau: float = 1.0, rows: int = 2**20) -> np.ndarray:
    """``terms(A, B, problem, D)`` over ``size`` draws of (query row x, its n - 1 other keys), each times the
    query's importance weight: x ~ N(0, tau^2 Sigma) weighted back to N(0, Sigma) (sm.wide_queries; tau = 1: plain),
    so that every mean over the draws is the N(0, Sigma) mean. Generated in chunks of at most ``rows`` draws x keys
    (memory O(rows), never all draws at once). D: the softmax draws of x from the keys' scores (sm.score_draws: the
    law of p and mu of the keys themselves)."""
    chunk = max(1, rows // max(n, 1))
    out = []
    for start in range(0, size, chunk):
        m = min(chunk, size - start)
        x, w = sm.wide_queries(problem.Sigma, rng, m, tau)
        out.append(sf.weighted(terms(A, B, problem, sm.score_draws(x, B, problem.Sigma, rng, n, m)), w))
    return np.concatenate(out)
