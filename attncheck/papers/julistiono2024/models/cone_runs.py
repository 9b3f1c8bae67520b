"""julistiono2024: un-normalized ell_p-AttGD runs from the cone points of Lemmas 19-21 (Appendix A.4-A.5: Lemma 28's
(27) and cone invariance, Lemma 29's (29') and rate, Lemma 30), and the slack forms of (29') over a run.

A run records N_k = ||W(k)||_p, N_k^(p-1), bar D_k = D_psi(bar W_mm, bar W(k)), L(W(k)), pi_emp(W(k)) and the step
increments (``mirror_descent.track``); ``Run.exact`` recomputes it at the escalation's precision (on arb balls,
read back as mpmath numbers). Moved verbatim from properties/julistiono2024/test_convergence.py (the claims keep their
evaluators there).
"""
import numpy as np

from attncheck.numeric.arbfloat import ArbRun, to_mp
from attncheck.numeric.precision import Slack
from attncheck.papers.julistiono2024.models import mirror_descent as md
from attncheck.papers.julistiono2024.strategies.mirror_descent import CONE_SEEDS, ConeCase

#: the datasets of the long runs (Lemma 29's rate, Lemma 30's growth)
SEEDS = CONE_SEEDS

_RUNS: dict = {}
_EXACT: dict = {}


def _run_key(R, seed, p, u, w, eta) -> tuple:
    """What a run depends on: at u = 0 the start is R ||W_mm||_p bar W_mm whatever w (att_svm.cone_direction), so
    runs that differ in w alone are one run there."""
    return R, seed, p, u, (w if u != 0 else None), eta


def _track(R, seed, p, u, w, eta, K):
    """The cone point and its run's first K steps; runs are kept and continued (longer K reuse shorter ones)."""
    key = _run_key(R, seed, p, u, w, eta)
    if key not in _RUNS:
        if len(_RUNS) > 256:
            _RUNS.clear()
        case = ConeCase(R, seed, p, u, w, eta=eta)
        _RUNS[key] = case, md.track(case.data, case.W, case.geom.W_mm, p, eta, K)
    case, tr = _RUNS[key]
    if len(tr.N) <= K:
        tr = tr.extend(case.data, case.geom.W_mm, p, eta, K + 1 - len(tr.N))
        _RUNS[key] = case, tr
    if case.w != w:  # the same run (u = 0), this cone point's own parameters
        case = ConeCase(R, seed, p, u, w, eta=eta)
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
        """The same run (K steps from the same float64 W(0)) for xp = MP(dps): iterates exact to dps digits, computed
        on arb balls (ArbRun, 10x faster than mpmath) and read back as mpf (each ball checked within 10^-dps)."""
        key = (_run_key(float(self.R), self.seed, self.p, self.u, self.w, self.eta), int(self.K), xp.dps)
        if key not in _EXACT:
            if len(_EXACT) > 64:
                _EXACT.clear()
            with ArbRun(xp.dps).context() as arb:
                tr = md.track(self.case.data, self.case.W, self.geom.W_mm, self.p, self.eta, int(self.K), xp=arb)
            _EXACT[key] = md.Track(*(to_mp(column, xp.dps) for column in tr))
        return _EXACT[key]

    def __repr__(self):
        return (f"Run(R={self.R!r}, K={self.K}, seed={self.seed}, p={self.p}, u={self.u!r}, w={self.w}, "
                f"eta={self.eta!r})")


def d_rounding(tr, xp):
    """Rounding scale of bar D_k from W(k) (k = 1..K; enters the scales, hence only what is decidable). float64: D is
    formed termwise and is quadratic in bar W - bar W_mm, so an entry rounding moves it by ~ sqrt(D) eps, not D eps.
    mpmath: md.track forms D as 1 - <theta, bar W_mm> / ||theta||_q, a difference of numbers near 1, whose error is
    ~10^-dps absolute, so the quantities compared have magnitude 1 (without it, a 30-digit run of lemma-29/eq-29 at
    R0 = 30 ||W_mm||_p, u = 0 decided relative slacks of -6e-16 that are +1e-18 at 60 and 100 digits). |D|: D >= 0
    exactly, but its mpmath form can round to -1e-31 on the max-margin direction (u = 0)."""
    rounding = xp.sqrt(xp.abs(xp.asarray(tr.D[1:]))) + xp.sqrt(xp.abs(xp.asarray(tr.D[:1])))
    return rounding if xp.native else rounding + 1


def pi_running(tr):
    """pi valid at W(0..k-1) for k = 1..K: the running maximum of max(0, pi_emp)."""
    return np.maximum.accumulate(np.maximum(tr.pi, 0.0))[:-1]


def _stated(seed, p, f, eta, m=1.0):
    """Lemma 28's constants: mu = m mu(alpha) (m in (0, 1]), pi/(1+pi) = mu, mu' = f mu, R^p (mu - mu') = eta (L_max -
    L_min)/(1+pi); returns (mu, R / ||W_mm||_p)."""
    from attncheck.papers.julistiono2024.models.att_svm import reference_geometry

    g = reference_geometry(seed, p)
    mu = m * g.mu_alpha()
    pi = mu / (1 - mu)
    lo, hi = md.loss_bounds(g.data)
    R = (eta * (hi - lo) / ((1 + pi) * (mu - f * mu))) ** (1 / p)
    return mu, R / g.svm.norm


class StatedRun(Run):
    """A run from the thin cone C_{p, mu', R} with Lemma 28's constants for mu = m mu(alpha) (W(0) at D = u mu',
    ||W(0)||_p = R)."""

    def __init__(self, K, seed, p, f, u, w, eta, m=1.0):
        self.mu, R = _stated(seed, p, f, eta, m)
        self.f, self.m = f, m
        super().__init__((R, K), seed, p, u * f * m, w, eta)
        self.u = u  # the drawn u (the point sits at D = u mu', i.e. u f m of mu(alpha))

    def __repr__(self):
        return (f"StatedRun(K={self.K}, seed={self.seed}, p={self.p}, f={self.f!r}, u={self.u!r}, w={self.w}, "
                f"eta={self.eta!r}, m={self.m!r})")


def eq29_steps(tr, eta):
    """(29') times N_k^(p-1), as a sum of per-step terms (float64): with N_k^(p-1) bar D_k = ||theta_k||_q -
    <theta_k, bar W_mm> (Section 1.3) and <theta_{s+1} - theta_s, bar W_mm> = -eta g_s (the update rule), the slack is
    S_k = sum_{s<k} pi_s dNp1_s - dNp1_s - eta g_s + eta dL_s / N_0. Each term is first order in the step and formed
    without cancellation, so S_k (second order where pi_s ~ 0) keeps its relative accuracy at any R0."""
    pi, dN, g, dL = np.maximum(tr.pi, 0.0)[:-1], tr.dNp1[:-1], tr.g[:-1], tr.dL[:-1]
    terms = (pi * dN, -dN, -eta * g, eta * dL / tr.N[0])
    return Slack(np.cumsum(sum(terms)), np.cumsum(sum(np.abs(t) for t in terms)))


def eq29(tr, eta, xp):
    """(29') at k = 1..K: N_0^(p-1) bar D_0 + sum_{s<k} pi_s (N_{s+1}^(p-1) - N_s^(p-1)) + eta (L_0 - L_k) / N_0
    >= N_k^(p-1) bar D_k (the slack divided by N_k^(p-1))."""
    pi = xp.asarray(np.maximum(tr.pi, 0.0)[:-1])
    terms = pi * xp.asarray(np.diff(tr.Np1))
    dL = eta * (xp.asarray(tr.L[0]) - xp.asarray(tr.L[1:])) / tr.N[0]
    n0, nk, Dk = xp.asarray(tr.Np1[0]), xp.asarray(tr.Np1[1:]), xp.asarray(tr.D[1:])
    num = n0 * xp.asarray(tr.D[0]) + np.cumsum(terms) + dL
    loss_scale = eta * (abs(tr.L[0]) + np.abs(tr.L[1:])) / tr.N[0]
    scale = (n0 * xp.asarray(tr.D[0]) + np.cumsum(np.abs(terms)) + loss_scale) / nk + Dk + d_rounding(tr, xp)
    return Slack(num / nk - Dk, scale)


_LONG_RUNS: dict = {}


def _long_states(p, K):
    """[(N_K, bar D_K)] of the runs from ConeCase(1, seed, p, 0.5, 0), seed in SEEDS, K plain steps with eta = 1
    (float64, the dual point as state, as in md.track), advanced together (md.iterate on the list of datasets); the
    runs are continued from their last state (longer K reuse shorter ones)."""
    if p not in _LONG_RUNS:
        cases = [ConeCase(1.0, seed, p, 0.5, 0, eta=1.0) for seed in SEEDS]
        _LONG_RUNS[p] = cases, 0, _start(cases, p), {}
    cases, k, theta, seen = _LONG_RUNS[p]
    if K not in seen:
        if K < k:  # an earlier K than the state reached: start again
            k, theta = 0, _start(cases, p)
        theta = md.iterate([case.data for case in cases], theta, p, 1.0, K - k)
        seen[K] = [_state(case, th, p) for case, th in zip(cases, theta, strict=True)]
        _LONG_RUNS[p] = cases, K, theta, seen
    return seen[K]


def _start(cases, p):
    """The runs' dual points grad psi(W(0)), one per case."""
    return np.stack([md.mirror_map(case.W, p) for case in cases])


def _state(case, theta, p):
    """(||W||_p, bar D) at the dual point theta of the run from ``case``."""
    W = md.inverse_mirror_map(theta, p)
    N = float(md.lp_norm(W, p))
    return N, float(md.bregman(md.normalize(case.geom.W_mm, p), W / N, p))


class LongRuns:
    """The runs (one per dataset of SEEDS) at exponent p after K steps (repr: the parameters)."""

    def __init__(self, K, p):
        self.K, self.p = K, p
        self.N, self.D = map(np.array, zip(*_long_states(p, K), strict=True))

    def __repr__(self):
        return f"LongRuns(K={self.K}, p={self.p}, seeds={SEEDS})"
