"""julistiono2024: one un-normalized ell_p-AttGD step W(k+1) = (grad psi)^{-1}(grad psi(W(k)) - eta grad L(W(k))) at a
drawn ``AttCase`` (Appendix A.4, Lemmas 22-25; main-body Lemma 4's norms ||W(k)||_p, ||W(k+1)||_p and
||grad L(W(k))||_q).

Moved verbatim from properties/julistiono2024/test_model.py (the claims keep their evaluators there).
"""
from attncheck.papers.julistiono2024.data.mirror_descent import section_4_1
from attncheck.papers.julistiono2024.models import mirror_descent as md


def data(case):
    """The case's dataset: ``section_4_1(seed, n, T, d)``."""
    seed, n, T, d = case.key
    return section_4_1(seed, n, T, d)


def step(case, xp, W=None):
    """W(k+1) from W(k) = case.W (or W), in the backend xp."""
    data_, W = data(case), case.W if W is None else W
    return md.md_step(W, md.grad(data_, W, xp=xp), case.eta, case.p, xp=xp)


def descent(case, xp):
    """(W(k+1), grad L(W(k)), L(W(k))) at W(k) = case.W, in the backend xp, from one evaluation of the scores at W(k)."""
    G, L = md.grad_loss(data(case), case.W, xp=xp)
    return md.md_step(case.W, G, case.eta, case.p, xp=xp), G, L


def abs_inner(A, B, xp):
    """<|A|, |B|>, the rounding scale of <A, B>."""
    return xp.sum(xp.abs(xp.asarray(A)) * xp.abs(xp.asarray(B)))


def increments(case, xp):
    """Lemma 4: ||W(k)||_p, ||W(k+1)||_p and ||grad L(W(k))||_q."""
    data_, p = data(case), case.p
    W1 = step(case, xp)
    G = md.grad(data_, case.W, xp=xp)
    gq = md.lp_norm(G, md.dual_exponent(p, xp), xp)
    return md.lp_norm(case.W, p, xp), md.lp_norm(W1, p, xp), gq
