"""julistiono2024: the quantities the cone lemmas compare at a cone point W (Appendix A.3, Lemma 19 steps 1-2 and
(12a)-(12c), Lemma 20 <grad L, W_mm>, Lemma 21's pi_emp), for a ``ConeCase`` of strategies.mirror_descent.

Moved verbatim from properties/julistiono2024/test_cone.py (the claims keep their evaluators there).
"""
import numpy as np

from attncheck.papers.julistiono2024.models import mirror_descent as md

#: score gap beyond which float64 softmax weights are too small to trust (they underflow at ~745)
UNDERFLOW_GAP = 600.0


def undecidable_in_float(case, xp):
    """True when float64 softmax weights of every sample are below e^-600 (the gradient is not representable)."""
    if not xp.native:
        return False
    h = np.sort(md.scores(case.data, case.W), axis=-1)
    return bool(np.min(h[:, -1] - h[:, -2]) > UNDERFLOW_GAP)


# ---- Lemma 19 ---------------------------------------------------------------------------------

def eps(case):
    """eps_mu at the tightest admissible mu: the point's own D_psi(bar W_mm, bar W) (any mu in [D, mu(alpha)] is)."""
    g = case.geom
    return g.eps_mu(float(md.directional_bregman(g.W_mm, case.Wbar, g.p)))


def margins_mm(g):
    """(n, T) margins (x_{i alpha_i} - x_it)^T W_mm z_i of the certified solution (NaN at t = alpha_i)."""
    from attncheck.papers.julistiono2024.models.att_svm import AttConstraints

    full = np.full(g.support.shape, np.nan)
    full[AttConstraints(g.data, g.alpha).mask] = g.svm.margins
    return full


def step2(case, xp):
    """h = X (W - W_mm) z with W - W_mm = ||W_mm||_p (bar W - bar W_mm), ||W - W_mm||_p, and eps at the point.

    The difference is formed from the two unit directions (W_mm = ||W_mm||_p bar W_mm by definition), and D_psi is
    taken between the same two matrices, so on the ray (u = 0) every term is exactly 0 and ties stay exact.
    """
    g, p = case.geom, case.geom.p
    Wbar_mm = md.normalize(g.W_mm, p)
    dW = xp.asarray(case.Wbar - Wbar_mm) * g.svm.norm
    D = md.bregman(Wbar_mm, case.Wbar, p, xp)
    pp = xp.asarray(p)
    base = g.A_q * g.svm.norm
    if p >= 2:
        eps = base * (pp * 2 ** pp * D) ** (1 / pp)
    else:
        eps = base * g.m ** (1 / pp - xp.asarray(0.5)) * (2 * D / (pp - 1)) ** xp.asarray(0.5)
    return md.scores(g.data, dW, xp), md.lp_norm(dW, p, xp), eps


def pairs(case, xp):
    """Per (i, t in T_i, tau in bar T_i): h_t - h_tau, h_alpha - h_tau, m_tau - 1 - nu, and eps."""
    g = case.geom
    h, _, eps = step2(case, xp)
    excess = (margins_mm(g) - 1.0) - g.nu  # >= 0 on bar T_i by the definition of nu_alpha
    i, t, tau = np.nonzero(g.support[:, :, None] & g.non_support[:, None, :])
    h_alpha = h[np.arange(len(g.alpha)), g.alpha]
    return h[i, t] - h[i, tau], h_alpha[i] - h[i, tau], excess[i, tau], eps


# ---- Lemmas 20 and 21 -------------------------------------------------------------------------

def inner_mm(case, xp):
    """<grad L(W), W_mm> (Lemma 20), in the pairwise form."""
    return md.grad_inner(case.data, case.W, case.geom.W_mm, xp=xp)


def pi_emp(case, xp):
    """pi_emp(W) = <grad L, bar W> / <grad L, bar W_mm> - 1 (both negative in the cone)."""
    g = case.geom
    num, den = md.grad_inners(case.data, case.W, (case.Wbar, g.W_mm), xp=xp)
    return num / (den / g.svm.norm) - 1
