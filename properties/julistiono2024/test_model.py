"""julistiono2024 Appendix A.3-A.5: the loss, its gradient and one ell_p-AttGD step
(Lemmas 16-18, 22-25, main-body Lemma 4).

Statements are the reconstructions of docs/papers/julistiono2024.md (no formula survived the
extraction); each reading carries its provenance tag. Shared reading:
logistic loss (CODE), v fixed (the A.2-A.5 analysis), un-normalized ell_p-AttGD step
W(k+1) = (grad psi)^{-1}(grad psi(W(k)) - eta grad L(W(k))) (CODE), datasets of Section 4.1's
kind (unit-norm Gaussian tokens, random labels; n <= 6, T <= 8, d <= 10). Every slack
carries the magnitude of the terms whose rounding could change it, so float64 decides only
what it can and mpmath (the evaluators run in both backends) decides the rest.
"""
import numpy as np

from attncheck import Choice, Int, Provenance, Reading, Real, Reason, Slack, Space, Unchecked, claim, le
from attncheck.papers.julistiono2024 import certification as cert
from attncheck.papers.julistiono2024 import readings as rd
from attncheck.papers.julistiono2024.data.mirror_descent import section_4_1
from attncheck.papers.julistiono2024.models import mirror_descent as md
from attncheck.papers.julistiono2024.models import step_cases as sc
from attncheck.papers.julistiono2024.models.att_svm import reference_geometry
from attncheck.papers.julistiono2024.strategies.mirror_descent import (
    CONE_SEEDS,
    ETA_WIDE,
    P_STANDARD,
    AttCase,
    att_cases,
)

PAPER = "julistiono2024 (arXiv 2410.14581)"
#: the loss and the drawn datasets (attncheck.papers.julistiono2024.readings)
SETTING = (rd.LOSS, rd.ATT_DATA)
W_ANY = "W(k) = s G with s in {0} u [1e-3, 1e3] (log) and G Gaussian, 30% exact zeros half the time"
#: the step claims (W(k) scale s <= 30, p in (1.1, 6]) and the parts of the domain they leave out
STEP = {"W": "W(k) = s G with s in {0} u [1e-3, 30] (log), G Gaussian, 30% exact zeros half the time"}
STEP_SHARED = SETTING + (rd.STEP_P,)
STEP_UNCHECKED = (rd.STEP_SCALE, rd.STEP_P_LOW, rd.STEP_P_HIGH, *rd.STEP_ETA)
STEP_CASES = att_cases(p_lo=1.1, scale_hi=30.0)


# ---- Lemma 16 ---------------------------------------------------------------------------------

@claim(
    "julistiono2024/lemma-16/main", kind="inequality", source=f"{PAPER}, Appendix A.3, Lemma 16",
    statement=r"\frac1n\sum_i\ell(\max_t\gamma_{it})\le\mathcal L(W)\le\frac1n\sum_i\ell(\min_t\gamma_{it})",
    domain=att_cases(), dps=(30, 60, 120, 240, 2400),
    certify=cert.ATTENTION_DATA,
    reading=Reading(provenance=Provenance("DERIVED", "high confidence; constants explicit. The appendix's 'bounded "
                                                     "above by ... below by ...' is about gamma_i^T s_i; the loss "
                                                     "bounds come in reversed order"),
                    shared=SETTING, notes={"W": W_ANY}),
)
def lemma_16(case, xp):
    data = sc.data(case)
    L = md.loss(data, case.W, xp=xp)
    g = md.gammas(data, xp=xp)
    lo = xp.sum(md.logistic(np.max(g, axis=1), xp)) / len(g)
    hi = xp.sum(md.logistic(np.min(g, axis=1), xp)) / len(g)
    return Slack(xp.minimum(L - lo, hi - L), xp.abs(L) + xp.abs(hi) + xp.abs(lo))


# ---- Lemma 17 ---------------------------------------------------------------------------------

@claim(
    "julistiono2024/lemma-17/main", kind="identity", source=f"{PAPER}, Appendix A.3, Lemma 17",
    statement=r"\nabla\mathcal L(W)=\frac1n\sum_i\ell'(\gamma_i^\top\mathbb S(h_i))\,X_i^\top\mathbb S'(h_i)\gamma_i z_i^\top,"
              r"\ \mathbb S'=\mathrm{diag}(\mathbb S)-\mathbb S\mathbb S^\top,\ h_i=X_iWz_i",
    domain=att_cases(),
    certify=cert.ATTENTION_DATA,
    reading=Reading(provenance=Provenance("DERIVED", "exact"), shared=SETTING,
                    notes={"W": W_ANY,
                           "reference": "the printed formula (S' formed densely) against the pairwise form 1/2 sum s_t "
                                        "s_tau (gamma_t - gamma_tau)(x_t - x_tau) the models use: two forms of the same "
                                        "printed formula, so this claim does not check that the formula is the "
                                        "gradient. That is checked against torch autograd only in "
                                        "tests/papers/julistiono2024/test_models.py (both forms; one dataset n = 6, T = 8, "
                                        "d = 10, W at scales 0.1, 1, 5, rtol 1e-10)",
                           "tolerance": "entrywise, 1e-9 of the rounding scale of the dense formula (1/n) sum_i "
                                        "|ell'_i| sum_t s_t (|gamma_t| + |gamma_i^T s_i|) |x_tj| |z_ik|"}),
)
def lemma_17(case, xp):
    data = sc.data(case)
    dense, pair = md.grad_dense(data, case.W, xp=xp), md.grad(data, case.W, xp=xp)
    s = md.softmax(md.scores(data, case.W, xp), xp)
    g = md.gammas(data, xp=xp)
    lp = xp.abs(md.logistic_prime(xp.sum(g * s, axis=-1), xp))
    w = s * (xp.abs(g) + xp.abs(xp.sum(g * s, axis=-1))[:, None])  # (n, T)
    absX, absz = np.abs(data.X), np.abs(data.z)
    rows = xp.sum(w[:, :, None] * absX, axis=1) * lp[:, None]  # (n, d)
    scale = xp.sum(rows[:, :, None] * absz[:, None, :], axis=0) / len(data.Y)
    return Slack(1e-9 * scale - xp.abs(dense - pair), scale)


# ---- Lemma 18 ---------------------------------------------------------------------------------

@claim(
    "julistiono2024/lemma-18/main", kind="inequality", source=f"{PAPER}, Appendix A.3, Lemma 18",
    statement=r"\|\nabla\mathcal L(W)\|_F\le G=\tfrac12M\max_i\|X_i\|_2\|\gamma_i\|_2\|z_i\|_2,"
              r"\ M=\sup_{|u|\le\max|\gamma_{it}|}|\ell'(u)|",
    domain=att_cases(),
    certify=cert.ATTENTION_DATA,
    reading=Reading(provenance=Provenance("DERIVED", "explicit constant; lambda_max(S') <= 1/2. The paper's proof "
                                                     "bounds the entries of S' by 1 (they lie in [-1/4, 1/4]), a looser "
                                                     "constant that this one implies"),
                    shared=SETTING, notes={"W": W_ANY}),
)
def lemma_18(case, xp):
    data = sc.data(case)
    G = md.grad(data, case.W, xp=xp)
    return le(xp.sum(G * G) ** 0.5, md.gradient_bound(data), xp)


# ---- Lemma 22 ---------------------------------------------------------------------------------

#: W(k) = s G: s in float64's range for |W_jk|^(p-1) (readings.STEP_GEOM_SCALE); zeros: 0 none, 1 exact zero entries
#: (about 30%), 2 W(k) = 0
GEOM_SPACE = Space(seed=Int(0, len(CONE_SEEDS) - 1), p=Choice(P_STANDARD), scale=Real(1e-100, 1e100, log=True),
                   eta=Real(*ETA_WIDE, log=True), w=Int(0, 2 ** 31), sel=Int(0, 2), zeros=Int(0, 2))


def _geom_case(seed, p, scale, eta, w, sel, zeros):
    data = section_4_1(seed)
    d = data.X.shape[-1]
    rng = np.random.default_rng(w)
    W = scale * rng.standard_normal((d, d))
    if zeros == 1:  # grad psi is not smooth at 0 for p < 2
        W[rng.random((d, d)) < 0.3] = 0.0
    elif zeros == 2:
        W = np.zeros((d, d))
    return AttCase((seed, 6, 8, 10), W, reference_geometry(seed, p, sel).W_mm, float(eta), float(p))


GEOM_SPACE.build = _geom_case


@claim(
    "julistiono2024/lemma-22/i", kind="inequality", source=f"{PAPER}, Appendix A.4, Lemma 22",
    statement=r"\|W(k+1)\|_p^{p-1}\ge\langle\nabla\psi(W(k)),\bar W^{mm}\rangle-\eta\langle\nabla\mathcal L(W(k)),\bar W^{mm}\rangle",
    space=GEOM_SPACE,
    certify=cert.GEOMETRY_STEP,
    reading=Reading(
        provenance=Provenance("DERIVED", "two readings match the proof; this is (i), V = W^mm"),
        shared=(rd.LOSS, rd.ALPHA_LOCAL),
        unchecked=(rd.STEP_GEOM_SCALE, rd.OTHER_SHAPES, rd.CONE_P_OFF) + rd.STEP_ETA + (rd.ALPHA_OTHER,),
        notes={"W_mm": "ell_p-AttSVM solution of the Section 4.1 dataset (seeds 0-7) for alpha of sel in {0, 1, 2} "
                       "(julistiono2024/alpha-local), p in {1.1, 1.5, 1.75, 2, 2.5, 3, 4} (solved once per (seed, p, "
                       "sel))",
               "eta": "any eta in [1e-12, 1e300] (log-uniform; the step is an exact identity plus Hoelder: no size condition)",
               "data": "the eight Section 4.1 datasets (n = 6, T = 8, d = 10; seeds 0-7), not the drawn datasets of "
                       "the other model claims",
               "W": "W(k) = s G with s in [1e-100, 1e100] (log) and G Gaussian; a third of the draws with about 30% "
                    "exact zero entries, a third W(k) = 0 (zeros in {0, 1, 2})"}),
)
def lemma_22_i(case, xp):
    data, p = sc.data(case), case.p
    Wbar = md.normalize(case.V, p)
    W1 = sc.step(case, xp)
    G = md.grad(data, case.W, xp=xp)
    lhs = md.lp_norm(W1, p, xp) ** (xp.asarray(p) - 1)
    rhs = xp.sum(md.mirror_map(case.W, p, xp) * Wbar) - case.eta * xp.sum(G * Wbar)
    return Slack(lhs - rhs, xp.abs(lhs) + sc.abs_inner(md.mirror_map(case.W, p, xp), Wbar, xp)
                 + case.eta * sc.abs_inner(G, Wbar, xp))


@claim(
    "julistiono2024/lemma-22/ii", kind="inequality", source=f"{PAPER}, Appendix A.4, Lemma 22",
    statement=r"\|W(k+1)\|_p^{p-1}\ge\|W(k)\|_p^{p-1}-\eta\langle\nabla\mathcal L(W(k)),W(k)\rangle/\|W(k)\|_p",
    domain=STEP_CASES.filter(lambda c: np.any(c.W)),
    certify=cert.ATTENTION_DATA,
    reading=Reading(
        provenance=Provenance("DERIVED", "two readings match the proof; this is (ii), V = W(k) != 0"),
        shared=STEP_SHARED, unchecked=STEP_UNCHECKED,
        notes={**STEP, "eta": "eta log-uniform in [1e-4, 1e2] or in [1e-12, 1e300] (half each)",
               "evaluation": "both sides through z = grad psi(W(k+1)) = grad psi(W(k)) - eta grad L(W(k)), the step's "
                             "definition: ||W(k+1)||_p^(p-1) = ||z||_q and the right side = <z, W(k)> / ||W(k)||_p "
                             "(exact identities, <grad psi(W), W> = ||W||_p^p), with W(k) / ||W(k)||_p formed first. At d = 1 a "
                             "step that keeps the sign of W makes the two sides equal; this form computes that tie as "
                             "an exact 0 (W / |W| = +-1 exactly), which the round trip through W(k+1), or z W / |W|, "
                             "left undecided at 240 digits"}),
)
def lemma_22_ii(case, xp):
    z = md.mirror_map(case.W, case.p, xp) - case.eta * md.grad(sc.data(case), case.W, xp=xp)  # grad psi(W(k+1))
    N = md.lp_norm(case.W, case.p, xp)
    lhs = md.lp_norm(z, md.dual_exponent(case.p, xp), xp)  # ||W(k+1)||_p^(p-1) = ||grad psi(W(k+1))||_q
    rhs = xp.sum(z * (xp.asarray(case.W) / N))  # = ||W(k)||_p^(p-1) - eta <grad L(W(k)), W(k)> / ||W(k)||_p
    return Slack(lhs - rhs, xp.abs(lhs) + sc.abs_inner(z, case.W, xp) / N)


# ---- Lemma 23 and Lemma 25 (candidate a): exact identities of one step --------------------------

def _identity(lhs, rhs, rounding):
    return Slack(1e-9 * rounding - abs(lhs - rhs), rounding)


@claim(
    "julistiono2024/lemma-23/part-1", kind="identity", source=f"{PAPER}, Appendix A.4, Lemma 23 (Azizan-Hassibi / Sun "
    "et al.)", statement=r"D_\psi(W,W(k+1))=D_\psi(W,W(k))+\eta\langle\nabla\mathcal L(W(k)),W-W(k)\rangle+D_\psi(W(k),W(k+1))",
    domain=STEP_CASES,
    certify=cert.ATTENTION_DATA,
    reading=Reading(provenance=Provenance("DERIVED", "exact"), shared=STEP_SHARED + (rd.IDENTITY_TOLERANCE,),
                    unchecked=STEP_UNCHECKED, notes={**STEP, "comparison point": "W = the case's V (any matrix)"}),
)
def lemma_23_1(case, xp):
    data, p, W, Wk = sc.data(case), case.p, xp.asarray(case.V), xp.asarray(case.W)
    W1 = sc.step(case, xp)
    G = md.grad(data, case.W, xp=xp)
    lhs = md.bregman(W, W1, p, xp)
    rhs = md.bregman(W, Wk, p, xp) + case.eta * xp.sum(G * (W - Wk)) + md.bregman(Wk, W1, p, xp)
    rounding = (md.bregman_scale(W, W1, p, xp) + md.bregman_scale(W, Wk, p, xp) + md.bregman_scale(Wk, W1, p, xp)
                + case.eta * sc.abs_inner(G, W - Wk, xp))
    return _identity(lhs, rhs, rounding)


@claim(
    "julistiono2024/lemma-23/part-2", kind="identity", source=f"{PAPER}, Appendix A.4, Lemma 23",
    statement=r"D_\psi(W,W(k+1))=D_\psi(W,W(k))+\eta\langle\nabla\mathcal L(W(k)),W-W(k+1)\rangle-D_\psi(W(k+1),W(k))",
    domain=STEP_CASES,
    certify=cert.ATTENTION_DATA,
    reading=Reading(provenance=Provenance("DERIVED", "exact"), shared=STEP_SHARED + (rd.IDENTITY_TOLERANCE,),
                    unchecked=STEP_UNCHECKED, notes={**STEP, "comparison point": "W = the case's V (any matrix)"}),
)
def lemma_23_2(case, xp):
    data, p, W, Wk = sc.data(case), case.p, xp.asarray(case.V), xp.asarray(case.W)
    W1 = sc.step(case, xp)
    G = md.grad(data, case.W, xp=xp)
    lhs = md.bregman(W, W1, p, xp)
    rhs = md.bregman(W, Wk, p, xp) + case.eta * xp.sum(G * (W - W1)) - md.bregman(W1, Wk, p, xp)
    rounding = (md.bregman_scale(W, W1, p, xp) + md.bregman_scale(W, Wk, p, xp) + md.bregman_scale(W1, Wk, p, xp)
                + case.eta * sc.abs_inner(G, W - W1, xp))
    return _identity(lhs, rhs, rounding)


@claim(
    "julistiono2024/lemma-25/candidate-a", kind="identity", source=f"{PAPER}, Appendix A.4, Lemma 25 (statement "
    "missing from the text)",
    statement=r"-\eta\langle\nabla\mathcal L(W(k)),W(k)\rangle=(p-1)[\psi(W(k+1))-\psi(W(k))]-D_\psi(W(k),W(k+1))",
    domain=STEP_CASES,
    certify=cert.ATTENTION_DATA,
    reading=Reading(
        provenance=Provenance("MISSING", "the statement was dropped by extraction; this is DERIVED candidate (a), "
                                         "exact. Candidate (b) is lemma-24/descent, candidate (c) is lemma-14/form-b"),
        shared=STEP_SHARED, unchecked=STEP_UNCHECKED,
        notes={**STEP, "tolerance": "1e-9 of the rounding scale (|terms| of D_psi, (p-1)(psi(W(k+1)) + psi(W(k))), "
                                    "eta |<grad L|, |W(k)|>)"}),
)
def lemma_25_a(case, xp):
    data, p, Wk = sc.data(case), case.p, xp.asarray(case.W)
    W1 = sc.step(case, xp)
    G = md.grad(data, case.W, xp=xp)
    pp = xp.asarray(p)
    lhs = -case.eta * xp.sum(G * Wk)
    rhs = (pp - 1) * (md.psi(W1, p, xp) - md.psi(Wk, p, xp)) - md.bregman(Wk, W1, p, xp)
    rounding = (md.bregman_scale(Wk, W1, p, xp) + (pp - 1) * (md.psi(W1, p, xp) + md.psi(Wk, p, xp))
                + case.eta * sc.abs_inner(G, Wk, xp))
    return _identity(lhs, rhs, rounding)


# ---- Lemma 24 ---------------------------------------------------------------------------------

@claim(
    "julistiono2024/lemma-24/identity", kind="identity", source=f"{PAPER}, Appendix A.4, Lemma 24",
    statement=r"\mathcal L(W(k+1))=\mathcal L(W(k))-\tfrac1\eta D_\psi(W(k),W(k+1))-\tfrac1\eta D_{\psi-\eta\mathcal L}(W(k+1),W(k))",
    domain=STEP_CASES,
    certify=cert.ATTENTION_DATA,
    reading=Reading(
        provenance=Provenance("DERIVED", "exact identity behind the descent lemma"),
        shared=STEP_SHARED, unchecked=STEP_UNCHECKED,
        notes={**STEP, "tolerance": "1e-9 of eta times the rounding scale (|L| terms, the divergences' terms, "
                                    "eta |<grad L|, |W(k+1) - W(k)|>)"}),
)
def lemma_24_identity(case, xp):
    data, p, eta, Wk = sc.data(case), case.p, case.eta, xp.asarray(case.W)
    W1 = sc.step(case, xp)
    G = md.grad(data, case.W, xp=xp)
    L0, L1 = md.loss(data, Wk, xp=xp), md.loss(data, W1, xp=xp)
    D_fw = md.bregman(Wk, W1, p, xp)
    D_mix = md.bregman(W1, Wk, p, xp) - eta * (L1 - L0 - xp.sum(G * (W1 - Wk)))  # D_{psi - eta L}(W(k+1), W(k))
    rounding = (eta * (xp.abs(L0) + xp.abs(L1)) + md.bregman_scale(Wk, W1, p, xp) + md.bregman_scale(W1, Wk, p, xp)
                + eta * sc.abs_inner(G, W1 - Wk, xp))
    return _identity(eta * L1, eta * L0 - D_fw - D_mix, rounding)


ETA_PATH = {"quick": [1e-2, 1.0, 1e2, 1e4, 1e6, 1e10, 1e16],
            "deep": [1e-2, 1e-1, 1.0, 10.0, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e10, 1e13, 1e16]}


@claim(
    "julistiono2024/lemma-24/descent", kind="inequality", source=f"{PAPER}, Appendix A.4, Lemma 24",
    statement=r"\eta\text{ small enough}:\ D_\psi(W(k),W(k+1))\le\eta(\mathcal L(W(k))-\mathcal L(W(k+1)))"
              r"\ (\text{so }\mathcal L(W(k+1))\le\mathcal L(W(k)))",
    domain=lambda inv_eta: att_cases(p_lo=1.1, p_hi=6.0, eta_lo=1 / inv_eta, eta_hi=1 / inv_eta, scale_hi=10.0),
    path=ETA_PATH, eventually=True,
    certify=cert.ATTENTION_DATA,
    reading=Reading(
        provenance=Provenance("DERIVED", "'small enough' is local: psi - eta L convex along the step"),
        shared=SETTING,
        unchecked=tuple(Unchecked(part, Reason.BEYOND_PATH, "the admissible eta shrinks to 0 with the curvature "
                                                            "(p-1)|w|^(p-2) of psi, so no fixed path point covers "
                                                            "every case") for part in ("p in (1, 1.1]", "s > 10"))
        + (Unchecked("p > 6", Reason.NOT_DRAWN, "the claims file's hint range is (1, 6]"),
           Unchecked("eta below the path's end (1e-16)", Reason.BEYOND_PATH,
                     "'for eta small enough' is judged at the path's last point")),
        notes={"path": "the path variable is 1/eta (eta = 1e2 down to 1e-16); 'for eta small enough' is judged at "
                       "the end of the path (eventually); for p near 6 and W near 0 the admissible eta is below 1e-10",
               "W": "W(k) = s G with s in {0} u [1e-3, 10] (log) and G Gaussian, 30% exact zeros half the time",
               "domain": "p in (1.1, 6] (att_cases: the values 1.5-4 of P_STANDARD, 6 and uniform draws) and ||W|| "
                         "scale s <= 10"}),
)
def lemma_24_descent(case, xp):
    data, p, eta, Wk = sc.data(case), case.p, case.eta, xp.asarray(case.W)
    W1, G, L0 = sc.descent(case, xp)
    D = md.bregman(Wk, W1, p, xp)
    L1 = md.loss(data, W1, xp=xp)
    return Slack(eta * (L0 - L1) - D, md.bregman_scale(Wk, W1, p, xp) + eta * (xp.abs(L0) + xp.abs(L1))
                 + eta * sc.abs_inner(G, W1 - Wk, xp))


# ---- Lemma 4 (main body; proved at the start of A.5) ---------------------------------------------

L4_PROVENANCE = Provenance("DERIVED-UNCERTAIN", "the exact final form is unknown; these bounds are true")
L4_SHARED = STEP_SHARED + (rd.LEMMA_4_GQ,)
L4 = {**STEP, "eta": "eta log-uniform in [1e-4, 1e2] or in [1e-12, 1e300] (half each)"}


@claim(
    "julistiono2024/lemma-4/part-i", kind="inequality", source=f"{PAPER}, main body Lemma 4 (proof in A.5)",
    statement=r"\|W(k+1)\|_p^{p-1}-\|W(k)\|_p^{p-1}\le\eta\|\nabla\mathcal L(W(k))\|_q\le\eta G_q",
    domain=STEP_CASES,
    certify=cert.ATTENTION_DATA,
    reading=Reading(provenance=L4_PROVENANCE, shared=L4_SHARED, unchecked=STEP_UNCHECKED, notes={**L4, "evaluation": (
        "through the exact identity ||W||_p^(p-1) = ||grad psi(W)||_q: ||W(k+1)||_p^(p-1) = ||theta||_q with theta = "
        "grad psi(W(k)) - eta grad L(W(k)) (the update's mirror image) and eta ||grad L||_q = ||eta grad L||_q, so the "
        "slack is ||theta_0||_q + ||eta G||_q - ||theta_0 - eta G||_q. Its exact ties (theta_0 a non-negative multiple "
        "of -eta G: W(k) = 0, or d = 1 with sign(W) = -sign(G)) then evaluate to exactly 0 in float64 and in mpmath "
        "(rounding is sign-symmetric), so they are decided as equalities, not left undecided")}),
)
def lemma_4_i(case, xp):
    G = md.grad(sc.data(case), case.W, xp=xp)
    q = md.dual_exponent(case.p, xp)
    theta0, step = md.mirror_map(case.W, case.p, xp), case.eta * G
    n0, n1, ng = md.lp_norm(theta0, q, xp), md.lp_norm(theta0 - step, q, xp), md.lp_norm(step, q, xp)
    return Slack(n0 + ng - n1, n0 + ng + n1)


@claim(
    "julistiono2024/lemma-4/part-ii", kind="inequality", source=f"{PAPER}, main body Lemma 4 (proof in A.5)",
    statement=r"p\ge2:\ \|W(k+1)\|_p-\|W(k)\|_p\le(\eta G_q)^{1/(p-1)}",
    domain=att_cases(p_lo=2.0, scale_hi=30.0).filter(lambda c: c.p >= 2 and np.any(c.W)),
    certify=cert.ATTENTION_DATA,
    reading=Reading(
        provenance=L4_PROVENANCE, shared=SETTING + (rd.LEMMA_4_GQ,),
        unchecked=(rd.STEP_SCALE,
                   Unchecked("p = 2, the statement's boundary", Reason.NOT_DRAWN, "att_cases opens its lower end"),
                   Unchecked("p > 6", Reason.NOT_DRAWN, "the claims file's hint range is (1, 6]"),
                   Unchecked("W(k) = 0", Reason.NOT_DRAWN, "the domain filters it out (the equality case "
                                                           "||W(k+1)||_p = (eta ||grad L(0)||_q)^(1/(p-1)); part-i "
                                                           "keeps W = 0 and decides that tie exactly)"),
                   *rd.STEP_ETA),
        notes={**L4, "p": "p in (2, 6] (att_cases(p_lo=2): the values 2.5, 3, 4 of P_STANDARD, 6 and uniform draws)"}),
)
def lemma_4_ii(case, xp):
    N0, N1, gq = sc.increments(case, xp)
    bound = (case.eta * gq) ** (1 / (xp.asarray(case.p) - 1))
    return Slack(bound - (N1 - N0), N1 + N0 + bound)


@claim(
    "julistiono2024/lemma-4/part-iii", kind="inequality", source=f"{PAPER}, main body Lemma 4 (proof in A.5)",
    statement=r"1<p<2:\ \|W(k+1)\|_p-\|W(k)\|_p\le\frac{\eta G_q}{p-1}\max(\|W(k+1)\|_p,\|W(k)\|_p)^{2-p}",
    domain=att_cases(p_lo=1.1, p_hi=2.0, scale_hi=30.0).filter(lambda c: c.p < 2),
    certify=cert.ATTENTION_DATA,
    reading=Reading(
        provenance=L4_PROVENANCE, shared=SETTING + (rd.LEMMA_4_GQ,),
        unchecked=(rd.STEP_SCALE, rd.STEP_P_LOW, *rd.STEP_ETA),
        notes={**L4, "p": "p in (1.1, 2) (att_cases: the values 1.5, 1.75 of P_STANDARD and uniform draws)"}),
)
def lemma_4_iii(case, xp):
    N0, N1, gq = sc.increments(case, xp)
    pp = xp.asarray(case.p)
    bound = case.eta * gq / (pp - 1) * xp.maximum(N0, N1) ** (2 - pp)
    return Slack(bound - (N1 - N0), N1 + N0 + bound)



