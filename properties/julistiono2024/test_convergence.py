"""julistiono2024 Appendix A.5: the iterates stay in the cone (Lemma 28), the rate in the norm (Lemma 29) and the
divergence of the norm (Lemma 30), along un-normalized ell_p-AttGD runs started at the cone points of Lemmas 19-21.

A run (models.cone_runs) starts at W(0) = ConeCase(R0, ...) (the cone construction of test_cone.py) and
records N_k = ||W(k)||_p, N_k^(p-1) = ||grad psi(W(k))||_q, bar D_k, L(W(k)), pi_emp(W(k)), <grad L, bar W_mm> and the
step increments of N^(p-1) and L at every step (``mirror_descent.track``: the dual point as state; losses as
excesses over L_ref; increments formed without cancellation). The slacks are formed from these per-step quantities
in float64; a slack within the float64 margin (MARGIN: the rounding a float64 run accumulates) is decided on the run
recomputed in mpmath at the escalation's precision (``Run.exact``: every iterate exact to dps digits), never on
float64 per-step values. (29') is tight to second order in the step where pi_s ~ 0: its float64 form is the sum of
first-order per-step terms (lemma-29/eq-29), which keeps its relative accuracy at any R0.
"""
import numpy as np

from attncheck import Choice, Int, Provenance, Reading, Real, Reason, Slack, Space, Unchecked, claim
from attncheck.papers.julistiono2024 import certification as cert
from attncheck.papers.julistiono2024 import readings as rd
from attncheck.papers.julistiono2024.models import mirror_descent as md
from attncheck.papers.julistiono2024.models.cone_runs import (
    LongRuns,
    Run,
    StatedRun,
    d_rounding,
    eq29,
    eq29_steps,
    pi_running,
)
from attncheck.papers.julistiono2024.strategies.mirror_descent import CONE_SEEDS, P_STANDARD

PAPER = "julistiono2024 (arXiv 2410.14581)"


#: the runs' smallest step size (readings.ETA_SMALL, .ETA_BELOW)
ETA_RUN_LO = 1e-4
#: lemma-29/eq-29's smallest step size (readings.ETA_BELOW_EQ29: its mpmath escalations grow as eta falls)
EQ29_ETA_LO = 1e-3
#: lemma-28/main's smallest mu / mu(alpha) (readings.MU_BELOW)
MU_LO = 0.01


def _space(point, eta_lo=ETA_RUN_LO):
    return Space(build=lambda **v: Run(point, **v), seed=Int(0, len(CONE_SEEDS) - 1), p=Choice(P_STANDARD), u=Real(0.0, 1.0),
                 w=Int(0, 2 ** 31), eta=Real(eta_lo, 1.0, log=True))


#: path points (R0 / ||W_mm||_p, steps K); the inequalities are judged at the last R0 (eventually)
R_PATH = {"quick": [(1.0, 60), (3.0, 60), (10.0, 60)],
          "deep": [(1.0, 2000), (3.0, 2000), (10.0, 2000), (30.0, 2000)]}
#: the runs' setting and the parts of the domain it leaves out (attncheck.papers.julistiono2024.readings)
RUN_SHARED = rd.RUN_SETTING
RUN_UNCHECKED = rd.RUN_UNCHECKED


#: float64 error margin of the trajectory claims: a float64 run carries a few ulps of rounding per step (measured
#: against 30-digit runs: up to ~9 eps k relative to a slack's scale after k steps), so K <= 2000 steps stay below it
MARGIN = 1e-10
#: margin of lemma-29/eq-29's per-step float64 form: measured against 60-digit runs (R0 = 1 to 30, 60 and 400 steps,
#: p = 1.1 to 4) its error stays below 3e-16 of its scale (tests/papers/julistiono2024/test_models.py); 1e-12 leaves 3000x
EQ29_MARGIN = 1e-12
#: lemma-29/eq-29's escalation starts at 60 digits: where float64 leaves its slack open (R0 = 30 ||W_mm||_p, the
#: slack ~1e-18 of its scale near the max-margin ray), 30 digits decided none of 1600 open steps in five runs (p = 1.1
#: to 3, u = 0 to 0.65), and a 60-digit run costs 1.07 times a 30-digit one (2000 steps: 26.3 s against 24.5 s)
EQ29_DPS = (60, 120, 240)


def _slack(run, form, xp, fast=None):
    """The claim's slack over k = 1..K: form(track, xp) on the float64 run, or fast(track) where given (a float64 form
    whose terms keep their relative accuracy, see lemma-29/eq-29); in mpmath, form on the run recomputed in the
    working precision (Run.exact), never on float64 per-step values (their rounding is not bounded there)."""
    if xp.native:
        return fast(run.tr) if fast else form(run.tr, xp)
    return form(run.exact(xp), xp)


# ---- Lemma 28 ---------------------------------------------------------------------------------

@claim(
    "julistiono2024/lemma-28/eq-27", kind="inequality", source=f"{PAPER}, Appendix A.4, Lemma 28 (proof, (27))",
    statement=r"\bar D_{k+1}\le\frac{\pi}{1+\pi}+\frac{N_0^{p-1}(\bar D_0-\frac{\pi}{1+\pi})+\frac{\eta(\mathcal L_{\max}"
              r"-\mathcal L_{\min})}{(1+\pi)N_0}}{N_{k+1}^{p-1}}",
    space=_space, path=R_PATH, eventually=True, cost="expensive", margin=MARGIN,
    certify=cert.RUNS,
    reading=Reading(provenance=Provenance("DERIVED", "claims file Lemma 28: (26) summed from (25), divided by "
                                                     "N_{k+1}^{p-1} with the identity of Section 1.3"),
                    unchecked=RUN_UNCHECKED, shared=RUN_SHARED,
                    notes={"L_max, L_min": "Lemma 16's bounds (1/n) sum_i ell(min_t / max_t gamma_it)",
                           "pi here": "pi = the running maximum of pi_s over s <= k (one pi valid along the whole sum "
                                      "(26))"}),
)
def lemma_28_eq27(run, xp):
    lo, hi = md.loss_bounds(run.geom.data)

    def form(tr, xp):
        pi = xp.asarray(pi_running(tr))
        A = pi / (1 + pi)
        c = run.eta * (hi - lo) / ((1 + pi) * tr.N[0])
        D0, n0, nk, Dk = xp.asarray(tr.D[0]), xp.asarray(tr.Np1[0]), xp.asarray(tr.Np1[1:]), xp.asarray(tr.D[1:])
        rhs = A + (n0 * (D0 - A) + c) / nk
        return Slack(rhs - Dk, A + (n0 * (D0 + A) + c) / nk + Dk + d_rounding(tr, xp))

    return _slack(run, form, xp)


@claim(
    "julistiono2024/lemma-28/main", kind="inequality", source=f"{PAPER}, Appendix A.4, Lemma 28",
    statement=r"W(0)\in\mathcal C_{p,\mu',R}(W^{mm})\Rightarrow W(k)\in\mathcal C_{p,\mu,R}(W^{mm})\ \forall k\ge1",
    space=lambda K: Space(build=lambda **v: StatedRun(K, **v), seed=Int(0, len(CONE_SEEDS) - 1), p=Choice(P_STANDARD),
                          f=Real(0.01, 0.99), u=Real(0.0, 1.0), w=Int(0, 2 ** 31),
                          eta=Real(ETA_RUN_LO, 1.0, log=True), m=Real(MU_LO, 1.0, log=True)),
    path={"quick": [60], "deep": [150, 2000]}, cost="expensive", margin=MARGIN,
    certify=cert.RUNS,
    reading=Reading(
        provenance=Provenance("DERIVED", "claims file Lemma 28; constants existential, stated choice checked"),
        unchecked=rd.RUN_DATA_UNCHECKED + (
            rd.CONE_P_OFF,
            rd.MU_BELOW,
            rd.ETA_BELOW,
            Unchecked("k > K (the statement's 'every k >= 1')", Reason.BEYOND_PATH,
                      "K = 60 (quick), 150 and 2000 (deep)"),
            Unchecked("the cone's other half, ||W(k)||_p >= R", Reason.FLOAT_RANGE,
                      "at this R one step moves ||W||_p less than its rounding (lemma-30/monotone)")),
        shared=rd.CONE_SETTING_ARGMAX + (rd.ETA_SMALL,),
        notes={"constants": "mu = m mu(alpha) = pi/(1+pi), m in [0.01, 1] (log); mu' = f mu, f in [0.01, 0.99]; "
                            "R as stated; R_pi (unknown) not enforced",
               "run": "W(0) = R normalize(bar W_mm + r E) at D_psi = u mu', u in [0, 1]; K un-normalized float64 "
                      "steps",
               "check": "bar D_k <= mu, k = 1..K",
               "caveat": "mostly reduces to bar D_0 <= mu; edge dynamics: lemma-28/eq-27 "
                         "(docs/papers/julistiono2024.md)"}),
)
def lemma_28(run, xp):
    def form(tr, xp):
        D = xp.asarray(tr.D[1:])
        return Slack(run.mu - D, run.mu + D + d_rounding(tr, xp))

    return _slack(run, form, xp)


# ---- Lemma 29 ---------------------------------------------------------------------------------

@claim(
    "julistiono2024/lemma-29/eq-29", kind="inequality", source=f"{PAPER}, Appendix A.5, Lemma 29 ((29') of the "
    "claims file)",
    statement=r"\bar D_k\le\frac{N_0^{p-1}\bar D_0+\sum_{s<k}\pi_s(N_{s+1}^{p-1}-N_s^{p-1})+\eta\frac{\mathcal L(W(0))"
              r"-\mathcal L(W(k))}{N_0}}{N_k^{p-1}}",
    space=lambda point: _space(point, EQ29_ETA_LO), path=R_PATH, eventually=True, cost="expensive",
    margin=EQ29_MARGIN, dps=EQ29_DPS,
    certify=cert.RUNS,
    reading=Reading(
        provenance=Provenance("DERIVED-UNCERTAIN", "claims file Lemma 29: (29') is the DERIVED checkable form; the "
                                                   "paper's display is lost"),
        unchecked=rd.RUN_UNCHECKED_EQ29, shared=rd.RUN_SETTING_EQ29,
        notes={"pi here": "pi_s = max(0, pi_emp(W(s))) step by step (pi varying with the step)",
               "evaluation": "float64: the slack times N_k^(p-1) as a sum of per-step terms (an exact rewriting), each "
                             "formed without cancellation (margin 1e-12); mpmath: the printed form recomputed at 60, "
                             "120, 240 digits (EQ29_DPS); second order where pi_s ~ 0, so not formed from differences "
                             "of float64 iterates (docs/papers/julistiono2024.md)"}),
)
def lemma_29_eq29(run, xp):
    return _slack(run, lambda tr, xp: eq29(tr, run.eta, xp), xp, fast=lambda tr: eq29_steps(tr, run.eta))


#: long runs: steps K along the path (R0 / ||W_mm||_p = 1, eta = 1); the ratio peaks at K ~ 2000-4000 (the transient)
K_PATH = {"quick": [(2000,), (4000,), (8000,)], "deep": [(1000,), (4000,), (16000,), (64000,)]}
#: the long runs' setting and the parts of the domain it leaves out (attncheck.papers.julistiono2024.readings)
LONG_SHARED = rd.LONG_SETTING
LONG_UNCHECKED = rd.LONG_UNCHECKED
LONG = {"eta": "eta = 1 only"}


def _long_space(point):
    (K,) = point
    return Space(build=lambda **v: LongRuns(K, **v), p=Choice(P_STANDARD))


def _one(case, rng, size):
    return np.zeros(1)


@claim(
    "julistiono2024/lemma-29/rate", kind="asymptotic", source=f"{PAPER}, Appendix A.5, Lemma 29",
    statement=r"\bar D_k=O(1/N_k)\ (p>2),\ O(\log N_k/N_k)\ (p=2),\ O(1/N_k^{p-1})\ (1<p<2)",
    space=_long_space, path=K_PATH, sample=_one, probability=0.5, cost="expensive",
    reading=Reading(
        provenance=Provenance("DERIVED-UNCERTAIN", "claims file Lemma 29: the rate assumes pi_s <= C/N_s"),
        unchecked=LONG_UNCHECKED, shared=LONG_SHARED,
        notes={**LONG,
               "ratio": "bar D_K N_K^min(1, p-1) (divided by log N_K at p = 2), deterministic, the largest over the "
                        "eight runs; its trend along K is the implied constant's trend"}),
)
def lemma_29_rate(runs, R, xp):
    N, p = runs.N, runs.p
    return np.array([np.max(runs.D * N ** min(1.0, p - 1.0) / (np.log(N) if p == 2.0 else 1.0))])


# ---- Lemma 30 ---------------------------------------------------------------------------------

@claim(
    "julistiono2024/lemma-30/monotone", kind="inequality", source=f"{PAPER}, Appendix A.5, Lemma 30 (proof: the norm "
    "increases in the cone)", statement=r"\|W(k+1)\|_p\ge\|W(k)\|_p",
    space=_space, path=R_PATH, eventually=True, cost="expensive", margin=MARGIN,
    certify=cert.RUNS,
    reading=Reading(provenance=Provenance("DERIVED", "Lemma 22 (ii) with Lemma 20's companion sign"),
                    unchecked=RUN_UNCHECKED, shared=RUN_SHARED,
                    notes={"check": "N_{k+1}^{p-1} - N_k^{p-1} >= 0 (non-decreasing; ||grad psi||_q = N^(p-1)) for "
                                    "k < K"}),
)
def lemma_30_monotone(run, xp):
    def form(tr, xp):
        n = xp.asarray(tr.Np1)
        return Slack(n[1:] - n[:-1], n[1:] + n[:-1])

    # float64: the increments themselves (dual_norm_increment: relative accuracy at any step size)
    return _slack(run, form, xp, fast=lambda tr: Slack(tr.dNp1[:-1], np.abs(tr.dNp1[:-1])))


@claim(
    "julistiono2024/lemma-30/log-growth", kind="asymptotic", source=f"{PAPER}, Appendix A.5, Lemma 30",
    statement=r"\|W(k)\|_p\to\infty,\ \text{quantitatively }\|W(k)\|_p\gtrsim c_2^{-1}\log k",
    space=_long_space, path={**K_PATH, "quick": [(250,), (500,), (1000,)]}, sample=_one, probability=0.5,
    cost="expensive", refutable=False,
    reading=Reading(
        provenance=Provenance("DERIVED-UNCERTAIN", "claims file Lemma 30: the log k form is the quantitative reading "
                                                   "of 'the norm diverges'"),
        unchecked=LONG_UNCHECKED, shared=LONG_SHARED,
        notes={**LONG,
               "ratio": "log K / N_K (bounded iff N_K >= c log K), the largest over the eight runs; along finite K a "
                        "rising trend is a witness, not a refutation (refutable=False)",
               "K": "quick: K in {250, 500, 1000} (the norm grows from the start; no transient to pass); deep: "
                    "1000-64000 as lemma-29/rate"}),
)
def lemma_30_log(runs, R, xp):
    return np.array([np.max(np.log(runs.K) / runs.N)])
