"""julistiono2024 Appendix A.3: the cone lemmas (19 step 1, 20, 21).

Every point W lies in the cone C_{p, mu(alpha), R}(W_mm) = {||W||_p = R, D_psi(bar W_mm, bar W) <= mu(alpha)}
(claims file 1.7), built as bar W = normalize(bar W_mm + r E) with r set by bisection so that
D_psi(bar W_mm, bar W) = u mu(alpha), u in [0, 1] (u = 1: the cone's boundary). Datasets: Section 4.1
(n = 6, T = 8, d = 10, seeds 0-7) with alpha_i = argmax_t gamma_it (locally optimal), ell_p-AttSVM
solved to KKT residual <= 1e-13 for p in {1.1, 1.5, 1.75, 2, 2.5, 3, 4}. R is given as a multiple of
||W_mm||_p along a path; once every sample's second-largest softmax weight is below e^-600 the
float64 evaluation is declared undecidable (NaN) and mpmath decides.
"""
import numpy as np

from attncheck import Choice, Int, Provenance, Reading, Real, Reason, Slack, Space, Unchecked, all_of, claim, lt
from attncheck.papers.julistiono2024 import certification as cert
from attncheck.papers.julistiono2024 import readings as rd
from attncheck.papers.julistiono2024.models import cone
from attncheck.papers.julistiono2024.models import mirror_descent as md
from attncheck.papers.julistiono2024.strategies.mirror_descent import CONE_SEEDS, ETA_WIDE, P_STANDARD, ConeCase

PAPER = "julistiono2024 (arXiv 2410.14581)"


def _space(R, **extra):
    return Space(build=lambda **v: ConeCase(R, **v), seed=Int(0, len(CONE_SEEDS) - 1), p=Choice(P_STANDARD), u=Real(0.0, 1.0),
                 w=Int(0, 2 ** 31), sel=Int(0, 2), **extra)


NAN = Slack(np.nan, np.nan)
#: the cone claims' setting and the parts of the domain it leaves out (attncheck.papers.julistiono2024.readings)
CONE_SHARED = rd.CONE_SETTING
CONE_UNCHECKED = rd.CONE_UNCHECKED + (rd.CONE_P_OFF,)


# ---- Lemma 19 ---------------------------------------------------------------------------------

#: Lemma 19: the statement's constants and the set behind "(8)" are not known
L19_PROVENANCE = Provenance("DERIVED-UNCERTAIN", "exact constants and the name of the set in (8) unknown; eps_mu is "
                                                 "the claims file's closeness bound (Lemma 13, then Lemma 12 for p < 2)")
L19 = Reading(provenance=L19_PROVENANCE, unchecked=CONE_UNCHECKED, shared=CONE_SHARED + (rd.LEMMA_19_MU,))


@claim(
    "julistiono2024/lemma-19/closeness", kind="inequality", source=f"{PAPER}, Appendix A.3, Lemma 19 (step 1)",
    statement=r"D_\psi(\bar W^{mm},\bar W)\le\mu\ \Rightarrow\ \|\bar W-\bar W^{mm}\|_p\le\varepsilon_\mu/(A_q\|W^{mm}\|_p)",
    space=_space(1.0), certify=cert.CONE, reading=L19, cost="normal",
)
def lemma_19_closeness(case, xp):
    g = case.geom
    # the pair D_psi is taken on (directional_bregman normalizes both), so a direction off the unit sphere by rounding
    # is not compared with its own normalization
    dist = float(md.lp_norm(md.normalize(case.Wbar, g.p) - md.normalize(g.W_mm, g.p), g.p))
    bound = cone.eps(case) / (g.A_q * g.svm.norm)
    return Slack(bound - dist, bound + dist)


L19_EXACT = Reading(
    provenance=L19_PROVENANCE, unchecked=CONE_UNCHECKED,
    shared=CONE_SHARED + (rd.LEMMA_19_MU, rd.LEMMA_19_EXACT))


@claim(
    "julistiono2024/lemma-19/holder", kind="inequality", source=f"{PAPER}, Appendix A.3, Lemma 19 (step 2)",
    statement=r"|(x_{it}-x_{i\tau})^\top(W-W^{mm})z_i|\le A_q\|W-W^{mm}\|_p\le\varepsilon_\mu",
    space=_space(1.0), certify=cert.CONE, reading=L19_EXACT, cost="normal",
)
def lemma_19_holder(case, xp):
    h, nrm, eps = cone.step2(case, xp)
    i, t, tau = np.nonzero(~np.eye(h.shape[1], dtype=bool)[None].repeat(h.shape[0], 0))
    gap = xp.abs(h[i, t] - h[i, tau])
    lhs = case.geom.A_q * nrm
    return all_of(Slack(lhs - gap, lhs + gap), Slack(eps - lhs, eps + lhs), xp=xp)


@claim(
    "julistiono2024/lemma-19/12a", kind="inequality", source=f"{PAPER}, Appendix A.3, Lemma 19 (12a)",
    statement=r"t\in\mathcal T_i,\ \tau\in\bar{\mathcal T}_i:\ (x_{it}-x_{i\tau})^\top Wz_i\ge\nu_\alpha-2\varepsilon_\mu",
    space=_space(1.0), certify=cert.CONE, reading=L19_EXACT, cost="normal",
)
def lemma_19_12a(case, xp):
    d_t_tau, _, excess, eps = cone.pairs(case, xp)
    # (x_t - x_tau)^T W z = m_tau - m_t + h_t - h_tau with m_t = 1: slack = (m_tau - 1 - nu) + h_t - h_tau + 2 eps
    return Slack(excess + d_t_tau + 2 * eps, excess + xp.abs(d_t_tau) + 2 * eps)


@claim(
    "julistiono2024/lemma-19/12b", kind="inequality", source=f"{PAPER}, Appendix A.3, Lemma 19 (12b)",
    statement=r"\tau\in\bar{\mathcal T}_i:\ (x_{i\alpha_i}-x_{i\tau})^\top Wz_i\ge1+\nu_\alpha-\varepsilon_\mu",
    space=_space(1.0), certify=cert.CONE, reading=L19_EXACT, cost="normal",
)
def lemma_19_12b(case, xp):
    _, d_a_tau, excess, eps = cone.pairs(case, xp)
    return Slack(excess + d_a_tau + eps, excess + xp.abs(d_a_tau) + eps)


@claim(
    "julistiono2024/lemma-19/12c", kind="inequality", source=f"{PAPER}, Appendix A.3, Lemma 19 (12c)",
    statement=r"t\in\mathcal T_i:\ (x_{i\alpha_i}-x_{it})^\top Wz_i\le1+\varepsilon_\mu",
    space=_space(1.0), certify=cert.CONE, reading=L19_EXACT, cost="normal",
)
def lemma_19_12c(case, xp):
    g = case.geom
    h, _, eps = cone.step2(case, xp)
    i, t = np.nonzero(g.support)
    d_a_t = h[np.arange(len(g.alpha)), g.alpha][i] - h[i, t]
    return Slack(eps - d_a_t, eps + xp.abs(d_a_t))


# ---- Lemma 20 ---------------------------------------------------------------------------------

R_PATH = {"quick": [1.0, 10.0, 100.0, 1e3, 1e4], "deep": [1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1e3, 3e3, 1e4, 1e5]}


@claim(
    "julistiono2024/lemma-20/main", kind="inequality", source=f"{PAPER}, Appendix A.3, Lemma 20",
    statement=r"W\in\mathcal C_{p,\mu,R_\mu}(W^{mm}):\ \langle\nabla\mathcal L(W),W^{mm}\rangle<0",
    space=lambda R: _space(R), path=R_PATH, eventually=True, cost="expensive",
    certify=cert.CONE,
    reading=Reading(provenance=Provenance("DERIVED-UNCERTAIN", "qualitative claim certain, R_mu formula unknown"),
                    unchecked=CONE_UNCHECKED, shared=CONE_SHARED + (rd.R_MU_PATH,),
                    notes={"evaluation": "pairwise form of <grad L, W_mm> (no cancellation at large R)"}),
)
def lemma_20(case, xp):
    if cone.undecidable_in_float(case, xp):
        return NAN
    return lt(cone.inner_mm(case, xp), 0.0, xp)


@claim(
    "julistiono2024/lemma-20/companion", kind="inequality", source=f"{PAPER}, Appendix A.3, Lemma 20 (companion used by "
    "Lemma 22)", statement=r"W\in\mathcal C_{p,\mu,R_\mu}(W^{mm}):\ \langle\nabla\mathcal L(W),W\rangle<0",
    space=lambda R: _space(R), path=R_PATH, eventually=True, cost="expensive",
    certify=cert.CONE,
    reading=Reading(provenance=Provenance("DERIVED", "observed companion in the claims file; it makes ||W(k)||_p "
                                                     "increase via Lemma 22 (ii)"),
                    unchecked=CONE_UNCHECKED, shared=CONE_SHARED + (rd.R_MU_PATH,)),
)
def lemma_20_companion(case, xp):
    if cone.undecidable_in_float(case, xp):
        return NAN
    return lt(md.grad_inner(case.data, case.W, case.W, xp=xp), 0.0, xp)


# ---- Lemma 21 ---------------------------------------------------------------------------------

@claim(
    "julistiono2024/lemma-21/main", kind="inequality", source=f"{PAPER}, Appendix A.3, Lemma 21",
    statement=r"\forall\pi>0\ \exists R_\pi:\ W\in\mathcal C_{p,\mu,R_\pi}(W^{mm})\Rightarrow"
              r"\langle\nabla\mathcal L(W),W/\|W\|_p\rangle\ge(1+\pi)\langle\nabla\mathcal L(W),W^{mm}/\|W^{mm}\|_p\rangle",
    space=lambda R: _space(R, pi=Real(1e-4, 1.0, log=True)), path=R_PATH, eventually=True, cost="expensive",
    certify=cert.CONE,
    reading=Reading(
        provenance=Provenance("DERIVED-UNCERTAIN", "R_pi formula unknown"),
        unchecked=CONE_UNCHECKED + (Unchecked("pi in (0, 1e-4)", Reason.NOT_DRAWN, "the R_pi it needs is unknown and "
                                                                                    "may lie beyond the path's end"),),
        shared=CONE_SHARED + (rd.R_MU_PATH, rd.PI_DRAWN),
        notes={"pi": "the statement's 'every pi > 0' is checked for the drawn pi. pi > 1 follows at the same point from "
                     "any drawn pi (the checked form pi_emp <= pi is monotone in pi)",
               "form": "equivalently pi_emp(W) = <grad L, bar W>/<grad L, bar W_mm> - 1 <= pi"}),
)
def lemma_21(case, xp):
    if cone.undecidable_in_float(case, xp):
        return NAN
    pe = cone.pi_emp(case, xp)
    return Slack(case.pi - pe, case.pi + 1 + xp.abs(pe + 1))


# ---- Lemma 27 ---------------------------------------------------------------------------------

R27_PATH = {"quick": [1.0, 3.0, 10.0, 30.0, 100.0], "deep": [1.0, 2.0, 3.0, 5.0, 10.0, 20.0, 30.0, 50.0, 100.0]}


@claim(
    "julistiono2024/lemma-27/main", kind="inequality", source=f"{PAPER}, Appendix A.4, Lemma 27 (25)",
    statement=r"\langle\nabla\psi(W(k+1))-\nabla\psi(W(k)),\bar W^{mm}\rangle\ge\frac1{1+\pi}\Big[\|W(k+1)\|_p^{p-1}"
              r"-\|W(k)\|_p^{p-1}-\frac{\eta(\mathcal L(W(k))-\mathcal L(W(k+1)))}{\|W(k)\|_p}\Big]",
    space=lambda R: _space(R, pi=Real(1e-4, 1.0, log=True), eta=Real(ETA_WIDE[0], 1.0, log=True)), path=R27_PATH,
    eventually=True, cost="expensive",
    certify=cert.CONE,
    reading=Reading(
        provenance=Provenance("DERIVED", "Sun et al. Eq. 12 analogue; R_pi of Lemma 21 unknown"),
        unchecked=CONE_UNCHECKED + (
            Unchecked("pi in (0, 1e-4)", Reason.BEYOND_PATH,
                      "Lemma 21's R_pi, which (25) needs, grows as pi falls and is unknown: it may lie past the "
                      "path's end R = 100 ||W_mm||_p (the R > 100 part)"),
            Unchecked("pi > 1", Reason.NOT_DRAWN, "the right side falls with pi only where its bracket is positive, so "
                                                  "pi > 1 is not implied by the drawn pi as in lemma-21/main"),
            rd.ETA_BELOW_STEP,
            Unchecked("R > 100 ||W_mm||_p", Reason.FLOAT_RANGE, "one step changes ||W||_p^(p-1) and L by less than "
                                                                "e^-300 relative (beyond 240-digit arithmetic)")),
        shared=CONE_SHARED + (rd.PI_DRAWN, rd.ETA_SMALL_STEP),
        notes={"W(k)": "the cone point W; W(k+1) its un-normalized ell_p-AttGD step in the evaluating precision",
               "R": "R_pi unknown: judged at the path's end, R / ||W_mm||_p in {1, 3, 10, 30, 100} (eventually)",
               "evaluation": "left side from the update rule; increments formed without cancellation "
                             "(docs/papers/julistiono2024.md)"}),
)
def lemma_27(case, xp):
    g, p, eta = case.geom, case.geom.p, case.eta
    G = md.grad(case.data, case.W, xp=xp)
    q = md.dual_exponent(p, xp)
    theta0 = md.mirror_map(case.W, p, xp)
    lhs = -eta * cone.inner_mm(case, xp) / g.svm.norm
    N0 = md.lp_norm(case.W, p, xp)
    if xp.native:  # the increments of N^(p-1) and L formed without cancellation (exact rewriting of the same slack)
        dn = md.dual_norm_increment(theta0, -eta * G, q)
        dL = md.loss_decrease(case.data, case.W, md.primal_increment(theta0, -eta * G, p))
        rhs = (dn - eta * dL / N0) / (1 + case.pi)
        return Slack(lhs - rhs, abs(lhs) + (abs(dn) + eta * abs(dL) / N0) / (1 + case.pi))
    W1 = md.inverse_mirror_map(theta0 - eta * G, p, xp)
    n0, n1 = md.lp_norm(theta0, q, xp), md.lp_norm(theta0 - eta * G, q, xp)
    L0, L1 = md.loss(case.data, case.W, xp=xp), md.loss(case.data, W1, xp=xp)
    rhs = (n1 - n0 - eta * (L0 - L1) / N0) / (1 + case.pi)
    return Slack(lhs - rhs, xp.abs(lhs) + (n1 + n0 + eta * (xp.abs(L0) + xp.abs(L1)) / N0) / (1 + case.pi))
