"""julistiono2024 Appendix A.5: the iterates stay in the cone (Lemma 28), the rate in the norm (Lemma 29) and the
divergence of the norm (Lemma 30), along un-normalized ell_p-AttGD runs started at the cone points of Lemmas 19-21.

A run starts at W(0) = ConeCase(R0, ...) (the cone construction of properties/test_julistiono2024_cone.py) and
records N_k = ||W(k)||_p, N_k^(p-1) = ||grad psi(W(k))||_q, bar D_k, L(W(k)), pi_emp(W(k)), <grad L, bar W_mm> and the
step increments of N^(p-1) and L at every step (``mirror_descent.track``: the dual point as state; losses as
excesses over L_ref; increments formed without cancellation). The slacks are formed from these per-step quantities
in float64; a slack within the float64 margin (MARGIN: the rounding a float64 run accumulates) is decided on the run
recomputed in mpmath at the escalation's precision (``Run.exact``: every iterate exact to dps digits), never on
float64 per-step values. (29') is tight to second order in the step where pi_s ~ 0: its float64 form is the sum of
first-order per-step terms (lemma-29/eq-29), which keeps its relative accuracy at any R0.
"""
import numpy as np

from attncheck import Choice, Int, Reading, Real, Slack, Space, claim
from attncheck.numeric.precision import F64
from attncheck.papers.julistiono2024.models import mirror_descent as md
from attncheck.papers.julistiono2024.strategies.mirror_descent import CONE, P_STANDARD, ConeCase

PAPER = "julistiono2024 (arXiv 2410.14581)"


_RUNS: dict = {}
_EXACT: dict = {}


def _track(R, seed, p, u, w, eta, K):
    """The cone point and its run's first K steps; runs are kept and continued (longer K reuse shorter ones)."""
    key = (R, seed, p, u, w, eta)
    if key not in _RUNS:
        if len(_RUNS) > 256:
            _RUNS.clear()
        case = ConeCase(R, seed, p, u, w, eta=eta)
        _RUNS[key] = case, md.track(case.data, case.W, case.geom.W_mm, p, eta, K)
    case, tr = _RUNS[key]
    if len(tr.N) <= K:
        tr = tr.extend(case.data, case.geom.W_mm, p, eta, K + 1 - len(tr.N))
        _RUNS[key] = case, tr
    return case, tr.head(K)


class Run:
    """ell_p-AttGD from a cone point: R0 = R ||W_mm||_p, K un-normalized steps of size eta (repr: the parameters)."""

    def __init__(self, point, seed, p, u, w, eta):
        (self.R, self.K), self.seed, self.p, self.u, self.w, self.eta = point, seed, p, u, w, eta
        self.case, self.tr = _track(float(self.R), seed, p, u, w, eta, int(self.K))

    @property
    def geom(self):
        return self.case.geom

    def exact(self, xp):
        """The same run (K steps from the same float64 W(0)) in xp = MP(dps): iterates exact to dps digits."""
        key = (repr(self), xp.dps)
        if key not in _EXACT:
            if len(_EXACT) > 64:
                _EXACT.clear()
            _EXACT[key] = md.track(self.case.data, self.case.W, self.geom.W_mm, self.p, self.eta, int(self.K), xp=xp)
        return _EXACT[key]

    def __repr__(self):
        return (f"Run(R={self.R!r}, K={self.K}, seed={self.seed}, p={self.p}, u={self.u!r}, w={self.w}, "
                f"eta={self.eta!r})")


def _space(point):
    return Space(build=lambda **v: Run(point, **v), seed=Int(0, 3), p=Choice(P_STANDARD), u=Real(0.0, 1.0),
                 w=Int(0, 2 ** 31), eta=Real(1e-3, 1.0, log=True))


#: path points (R0 / ||W_mm||_p, steps K); the inequalities are judged at the last R0 (eventually)
R_PATH = {"quick": [(1.0, 60), (3.0, 60), (10.0, 60)],
          "deep": [(1.0, 2000), (3.0, 2000), (10.0, 2000), (30.0, 2000)]}
RUN = {
    **CONE,
    "run": "W(0) the cone point W above with R = R0 (so W(0) is in the thin cone C_{p, u mu(alpha), R0}), then K "
           "un-normalized ell_p-AttGD steps (the lemmas' update; the experiments normalize), iterates in float64",
    "eta": "'eta small' read as eta in [1e-3, 1] (log scale), as in lemma-27/main",
    "R0": "R0 / ||W_mm||_p in {1, 3, 10} with K = 60 steps (deep: {1, 3, 10, 30}, K = 2000); the lemma needs R0 >= "
          "R_pi, whose formula is unknown, so the claim is judged at the largest R0 (eventually)",
    "pi": "pi_s = max(0, pi_emp(W(s))) with pi_emp = <grad L, bar W> / <grad L, bar W_mm> - 1 (the smallest pi for "
          "which Lemma 21's conclusion holds at W(s), as in the claims file's check of Lemma 27)",
    "unchecked": CONE["unchecked"] + "; eta in (0, 1e-3): not drawn; k > K: the statement's 'every k' is cut at the "
                 "path's horizon K = 60 steps (quick) and K = 2000 (deep)",
}


#: float64 error margin of the trajectory claims: a float64 run carries a few ulps of rounding per step (measured
#: against 30-digit runs: up to ~9 eps k relative to a slack's scale after k steps), so K <= 2000 steps stay below it
MARGIN = 1e-10
#: margin of lemma-29/eq-29's per-step float64 form: measured against 60-digit runs (R0 = 1 to 30, 60 and 400 steps,
#: p = 1.1 to 4) its error stays below 3e-16 of its scale (tests/test_julistiono2024_models.py); 1e-12 leaves 3000x
EQ29_MARGIN = 1e-12
#: lemma-29/eq-29's escalation starts at 60 digits: where float64 leaves its slack open (R0 = 30 ||W_mm||_p, the
#: slack ~1e-18 of its scale near the max-margin ray), 30 digits decided none of 1600 open steps in five runs (p = 1.1
#: to 3, u = 0 to 0.65), and a 60-digit run costs 1.07 times a 30-digit one (2000 steps: 26.3 s against 24.5 s)
EQ29_DPS = (60, 120, 240)


def _slack(run, form, xp, fast=None):
    """The claim's slack over k = 1..K: form(track, xp) on the float64 run, or fast(track) where given (a float64 form
    whose terms keep their relative accuracy, see lemma-29/eq-29); in mpmath, form on the run recomputed in the
    working precision (Run.exact), never on float64 per-step values (their rounding is not bounded there)."""
    if xp is F64:
        return fast(run.tr) if fast else form(run.tr, xp)
    return form(run.exact(xp), xp)


def _d_rounding(tr, xp):
    """Rounding scale of bar D_k from W(k) (k = 1..K; enters the scales, hence only what is decidable). float64: D is
    formed termwise and is quadratic in bar W - bar W_mm, so an entry rounding moves it by ~ sqrt(D) eps, not D eps.
    mpmath: md.track forms D as 1 - <theta, bar W_mm> / ||theta||_q, a difference of numbers near 1, whose error is
    ~10^-dps absolute, so the quantities compared have magnitude 1 (without it, a 30-digit run of lemma-29/eq-29 at
    R0 = 30 ||W_mm||_p, u = 0 decided relative slacks of -6e-16 that are +1e-18 at 60 and 100 digits). |D|: D >= 0
    exactly, but its mpmath form can round to -1e-31 on the max-margin direction (u = 0)."""
    rounding = xp.sqrt(xp.abs(xp.asarray(tr.D[1:]))) + xp.sqrt(xp.abs(xp.asarray(tr.D[:1])))
    return rounding if xp is F64 else rounding + 1


def _pi_running(tr):
    """pi valid at W(0..k-1) for k = 1..K: the running maximum of max(0, pi_emp)."""
    return np.maximum.accumulate(np.maximum(tr.pi, 0.0))[:-1]


# ---- Lemma 28 ---------------------------------------------------------------------------------

@claim(
    "julistiono2024/lemma-28/eq-27", kind="inequality", source=f"{PAPER}, Appendix A.4, Lemma 28 (proof, (27))",
    statement=r"\bar D_{k+1}\le\frac{\pi}{1+\pi}+\frac{N_0^{p-1}(\bar D_0-\frac{\pi}{1+\pi})+\frac{\eta(\mathcal L_{\max}"
              r"-\mathcal L_{\min})}{(1+\pi)N_0}}{N_{k+1}^{p-1}}",
    space=_space, path=R_PATH, eventually=True, cost="expensive", margin=MARGIN,
    reading=Reading(notes={**RUN, "provenance": "DERIVED (claims file Lemma 28: (26) summed from (25), divided by "
                                         "N_{k+1}^{p-1} with the identity of Section 1.3)",
                    "L_max, L_min": "Lemma 16's bounds (1/n) sum_i ell(min_t / max_t gamma_it)",
                    "pi here": "pi = the running maximum of pi_s over s <= k (one pi valid along the whole sum (26))"}),
)
def lemma_28_eq27(run, xp):
    lo, hi = md.loss_bounds(run.geom.data)

    def form(tr, xp):
        pi = xp.asarray(_pi_running(tr))
        A = pi / (1 + pi)
        c = run.eta * (hi - lo) / ((1 + pi) * tr.N[0])
        D0, n0, nk, Dk = xp.asarray(tr.D[0]), xp.asarray(tr.Np1[0]), xp.asarray(tr.Np1[1:]), xp.asarray(tr.D[1:])
        rhs = A + (n0 * (D0 - A) + c) / nk
        return Slack(rhs - Dk, A + (n0 * (D0 + A) + c) / nk + Dk + _d_rounding(tr, xp))

    return _slack(run, form, xp)


def _stated(seed, p, f, eta):
    """Lemma 28's constants: mu = mu(alpha), pi/(1+pi) = mu, mu' = f mu, R^p (mu - mu') = eta (L_max - L_min)/(1+pi);
    returns (mu, R / ||W_mm||_p)."""
    from attncheck.papers.julistiono2024.models.att_svm import reference_geometry

    g = reference_geometry(seed, p)
    mu = g.mu_alpha()
    pi = mu / (1 - mu)
    lo, hi = md.loss_bounds(g.data)
    R = (eta * (hi - lo) / ((1 + pi) * (mu - f * mu))) ** (1 / p)
    return mu, R / g.svm.norm


class StatedRun(Run):
    """A run from the thin cone C_{p, mu', R} with Lemma 28's constants (W(0) at D = u mu', ||W(0)||_p = R)."""

    def __init__(self, K, seed, p, f, u, w, eta):
        self.mu, R = _stated(seed, p, f, eta)
        self.f = f
        super().__init__((R, K), seed, p, u * f, w, eta)
        self.u = u  # the drawn u (the point sits at D = u mu', i.e. u f of mu(alpha))

    def __repr__(self):
        return (f"StatedRun(K={self.K}, seed={self.seed}, p={self.p}, f={self.f!r}, u={self.u!r}, w={self.w}, "
                f"eta={self.eta!r})")


@claim(
    "julistiono2024/lemma-28/main", kind="inequality", source=f"{PAPER}, Appendix A.4, Lemma 28",
    statement=r"W(0)\in\mathcal C_{p,\mu',R}(W^{mm})\Rightarrow W(k)\in\mathcal C_{p,\mu,R}(W^{mm})\ \forall k\ge1",
    space=lambda K: Space(build=lambda **v: StatedRun(K, **v), seed=Int(0, 3), p=Choice(P_STANDARD),
                          f=Real(0.01, 0.99), u=Real(0.0, 1.0), w=Int(0, 2 ** 31), eta=Real(1e-3, 1.0, log=True)),
    path={"quick": [60], "deep": [150, 2000]}, cost="expensive", margin=MARGIN,
    reading=Reading(notes={**CONE, "provenance": "DERIVED (claims file Lemma 28; constants existential, the stated choice "
                                          "is checked)",
                    "constants": "mu = mu(alpha); pi with pi/(1+pi) = mu; mu' = f mu, f in [0.01, 0.99]; R from "
                                 "R^p (pi/(1+pi) - mu') = eta (L_max - L_min)/(1+pi) (Lemma 16's bounds). R_pi of "
                                 "Lemma 21 (formula unknown) is not enforced; on these datasets this R is about 5 to 9e7 "
                                 "||W_mm||_p (small eta gives the small R)",
                    "run": "W(0) = R normalize(bar W_mm + r E) with D_psi(bar W_mm, bar W(0)) = u mu', u in [0, 1]; "
                           "K = 60 un-normalized steps (deep: 150, then 2000), eta in [1e-3, 1] (log scale), float64",
                    "check": "bar D_k <= mu for k = 1..K; the cone's other half, ||W(k)||_p >= R, is the norm's "
                             "monotonicity (lemma-30/monotone); at this R one step changes ||W||_p by less than its "
                             "rounding, so that half is unchecked here",
                    "caveat": "in these runs the check is not exercised beyond the start: at this R the per-step change "
                              "of bar D is tiny (excursions bar D_k - bar D_0 measured below 1e-18 over 150 steps; many "
                              "runs do not move in float64), while bar D_0 <= u f mu <= 0.99 mu holds by construction, "
                              "so the check reduces to bar D_0 <= mu and a HOLDS here says no more than that; the "
                              "dynamics near the cone's edge are checked by lemma-28/eq-27 at R0 <= 10 (deep 30) "
                              "||W_mm||_p, where runs leave the mu(alpha)-cone (excursions up to 0.2 at R0 = "
                              "||W_mm||_p: outside this lemma's hypothesis, not failures)",
                    "unchecked": CONE["unchecked"] + "; mu < mu(alpha) (the statement is for every mu in (0, "
                                 "mu(alpha)]; only mu = mu(alpha) is drawn); eta in (0, 1e-3): not drawn; k > K: the "
                                 "statement's 'every k >= 1' is cut at K = 60 steps (quick) and K = 150, 2000 (deep)"}),
)
def lemma_28(run, xp):
    def form(tr, xp):
        D = xp.asarray(tr.D[1:])
        return Slack(run.mu - D, run.mu + D + _d_rounding(tr, xp))

    return _slack(run, form, xp)


# ---- Lemma 29 ---------------------------------------------------------------------------------

@claim(
    "julistiono2024/lemma-29/eq-29", kind="inequality", source=f"{PAPER}, Appendix A.5, Lemma 29 ((29') of the "
    "claims file)",
    statement=r"\bar D_k\le\frac{N_0^{p-1}\bar D_0+\sum_{s<k}\pi_s(N_{s+1}^{p-1}-N_s^{p-1})+\eta\frac{\mathcal L(W(0))"
              r"-\mathcal L(W(k))}{N_0}}{N_k^{p-1}}",
    space=_space, path=R_PATH, eventually=True, cost="expensive", margin=EQ29_MARGIN, dps=EQ29_DPS,
    reading=Reading(notes={**RUN, "provenance": "DERIVED-UNCERTAIN (claims file Lemma 29: (29') is the DERIVED checkable "
                                         "form; the paper's display is lost)",
                    "pi here": "pi_s = max(0, pi_emp(W(s))) step by step (pi varying with the step)",
                    "evaluation": "float64: the slack times N_k^(p-1) as the sum of the per-step terms pi_s dN_s - dN_s "
                                  "- eta <grad L(W(s)), bar W_mm> + eta dL_s / N_0 (an exact rewriting through Section "
                                  "1.3 and the update rule), each formed without cancellation (error measured below "
                                  "3e-16 of the scale against 60-digit runs; margin 1e-12); mpmath: the printed form "
                                  "on the run recomputed at the escalation's precision (60, 120, 240 digits: "
                                  "EQ29_DPS). The slack is second order in the step where pi_s ~ 0 (about 1e-15 "
                                  "relative at R0 = 10 ||W_mm||_p, eta = 1e-3): formed from differences of float64 "
                                  "iterates it sat at their rounding, which no precision applied afterwards could "
                                  "decide (the INCONCLUSIVE of an earlier version)"}),
)
def lemma_29_eq29(run, xp):
    return _slack(run, lambda tr, xp: _eq29(tr, run.eta, xp), xp, fast=lambda tr: _eq29_steps(tr, run.eta))


def _eq29_steps(tr, eta):
    """(29') times N_k^(p-1), as a sum of per-step terms (float64): with N_k^(p-1) bar D_k = ||theta_k||_q -
    <theta_k, bar W_mm> (Section 1.3) and <theta_{s+1} - theta_s, bar W_mm> = -eta g_s (the update rule), the slack is
    S_k = sum_{s<k} pi_s dNp1_s - dNp1_s - eta g_s + eta dL_s / N_0. Each term is first order in the step and formed
    without cancellation, so S_k (second order where pi_s ~ 0) keeps its relative accuracy at any R0."""
    pi, dN, g, dL = np.maximum(tr.pi, 0.0)[:-1], tr.dNp1[:-1], tr.g[:-1], tr.dL[:-1]
    terms = (pi * dN, -dN, -eta * g, eta * dL / tr.N[0])
    return Slack(np.cumsum(sum(terms)), np.cumsum(sum(np.abs(t) for t in terms)))


def _eq29(tr, eta, xp):
    """(29') at k = 1..K: N_0^(p-1) bar D_0 + sum_{s<k} pi_s (N_{s+1}^(p-1) - N_s^(p-1)) + eta (L_0 - L_k) / N_0
    >= N_k^(p-1) bar D_k (the slack divided by N_k^(p-1))."""
    pi = xp.asarray(np.maximum(tr.pi, 0.0)[:-1])
    terms = pi * xp.asarray(np.diff(tr.Np1))
    dL = eta * (xp.asarray(tr.L[0]) - xp.asarray(tr.L[1:])) / tr.N[0]
    n0, nk, Dk = xp.asarray(tr.Np1[0]), xp.asarray(tr.Np1[1:]), xp.asarray(tr.D[1:])
    num = n0 * xp.asarray(tr.D[0]) + np.cumsum(terms) + dL
    loss_scale = eta * (abs(tr.L[0]) + np.abs(tr.L[1:])) / tr.N[0]
    scale = (n0 * xp.asarray(tr.D[0]) + np.cumsum(np.abs(terms)) + loss_scale) / nk + Dk + _d_rounding(tr, xp)
    return Slack(num / nk - Dk, scale)


#: long runs: steps K along the path (R0 / ||W_mm||_p = 1, eta = 1); the ratio peaks at K ~ 2000-4000 (the transient)
K_PATH = {"quick": [(2000,), (4000,), (8000,)], "deep": [(1000,), (4000,), (16000,), (64000,)]}
SEEDS = (0, 1, 2, 3)
LONG = {
    **CONE,
    "run": "W(0) the cone point at R0 = ||W_mm||_p, u = 0.5, w = 0, eta = 1 (un-normalized), p in {1.75, 2, 3} "
           "(the experiments' exponents), datasets seeds 0-3; K along the path: quick 2000-8000 steps, deep "
           "1000-64000 (the claims file asks for >= 1e5 steps: unchecked)",
    "case": "one case per p: the ratio is the largest over the four datasets (the worst run's constant)",
    "transient": "from R0 = ||W_mm||_p bar D first rises (excursion ~0.06-0.2, outside Lemma 28's cone); the largest "
                 "ratio peaks at K ~ 2000-4000 steps and then falls (measured); a path inside K <= 1000 sees only "
                 "that rise and cannot decide (the quick path of an earlier version: INCONCLUSIVE)",
    "p": "p in {1.75, 2, 3} (the experiments' exponents). Unchecked: p in (1, 1.75), p > 3 and p between these values "
         "(not drawn)",
    "eta": "eta = 1 only",
    "unchecked": CONE["unchecked"] + "; eta != 1, in particular every eta < 1 that 'eta small' admits (one run per "
                 "(seed, p), at eta = 1); starts other than u = 0.5, w = 0; the admissible start of Lemma 28 "
                 "(||W(0)||_p >= R with R >= R_pi): W(0) here has ||W(0)||_p = ||W_mm||_p, below the R of Lemma 28's "
                 "constants (about 5 to 9e7 ||W_mm||_p in lemma-28/main, growing with eta), so these runs start "
                 "outside Lemma 28's hypothesis",
}

_LONG_RUNS: dict = {}


def _long_state(seed, p, K):
    """(N_K, bar D_K) of the run from ConeCase(1, seed, p, 0.5, 0), K plain steps with eta = 1 (float64, the dual point
    as state, as in md.track); runs are continued from their last state (longer K reuse shorter ones)."""
    key = (seed, p)
    if key not in _LONG_RUNS:
        case = ConeCase(1.0, seed, p, 0.5, 0, eta=1.0)
        _LONG_RUNS[key] = case, 0, md.mirror_map(case.W, p), {}
    case, k, theta, seen = _LONG_RUNS[key]
    if K not in seen:
        if K < k:  # an earlier K than the state reached: start again
            k, theta = 0, md.mirror_map(case.W, p)
        theta = md.iterate(case.data, theta, p, 1.0, K - k)
        W = md.inverse_mirror_map(theta, p)
        N = float(md.lp_norm(W, p))
        seen[K] = N, float(md.bregman(md.normalize(case.geom.W_mm, p), W / N, p))
        _LONG_RUNS[key] = case, K, theta, seen
    return seen[K]


class LongRuns:
    """The four runs (datasets SEEDS) at exponent p after K steps (repr: the parameters)."""

    def __init__(self, K, p):
        self.K, self.p = K, p
        self.N, self.D = map(np.array, zip(*(_long_state(s, p, K) for s in SEEDS), strict=False))

    def __repr__(self):
        return f"LongRuns(K={self.K}, p={self.p}, seeds={SEEDS})"


def _long_space(point):
    (K,) = point
    return Space(build=lambda **v: LongRuns(K, **v), p=Choice((1.75, 2.0, 3.0)))


def _one(case, rng, size):
    return np.zeros(1)


@claim(
    "julistiono2024/lemma-29/rate", kind="asymptotic", source=f"{PAPER}, Appendix A.5, Lemma 29",
    statement=r"\bar D_k=O(1/N_k)\ (p>2),\ O(\log N_k/N_k)\ (p=2),\ O(1/N_k^{p-1})\ (1<p<2)",
    space=_long_space, path=K_PATH, sample=_one, probability=0.5, cost="expensive",
    reading=Reading(notes={**LONG, "provenance": "DERIVED-UNCERTAIN (claims file Lemma 29: the rate assumes pi_s <= C/N_s)",
                    "ratio": "bar D_K N_K^min(1, p-1) (divided by log N_K at p = 2), deterministic, the largest over "
                             "the four runs; its trend along K is the implied constant's trend"}),
)
def lemma_29_rate(runs, R, xp):
    N, p = runs.N, runs.p
    return np.array([np.max(runs.D * N ** min(1.0, p - 1.0) / (np.log(N) if p == 2.0 else 1.0))])


# ---- Lemma 30 ---------------------------------------------------------------------------------

@claim(
    "julistiono2024/lemma-30/monotone", kind="inequality", source=f"{PAPER}, Appendix A.5, Lemma 30 (proof: the norm "
    "increases in the cone)", statement=r"\|W(k+1)\|_p\ge\|W(k)\|_p",
    space=_space, path=R_PATH, eventually=True, cost="expensive", margin=MARGIN,
    reading=Reading(notes={**RUN, "provenance": "DERIVED (Lemma 22 (ii) with Lemma 20's companion sign)",
                    "check": "N_{k+1}^{p-1} - N_k^{p-1} >= 0 (non-decreasing; ||grad psi||_q = N^(p-1)) for k < K"}),
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
    reading=Reading(notes={**LONG, "provenance": "DERIVED-UNCERTAIN (claims file Lemma 30: the log k form is the quantitative "
                                          "reading of 'the norm diverges')",
                    "ratio": "log K / N_K (bounded iff N_K >= c log K), the largest over the four runs; an Omega "
                             "claim seen along finite K: a rising trend is a witness, not a refutation (refutable=False)",
                    "K": "quick: K in {250, 500, 1000} (the norm grows from the start; no transient to pass); deep: "
                         "1000-64000 as lemma-29/rate"}),
)
def lemma_30_log(runs, R, xp):
    return np.array([np.max(np.log(runs.K) / runs.N)])
