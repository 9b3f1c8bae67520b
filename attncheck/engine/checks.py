"""The checks, one per kind: evaluate one case, record what was seen, raise on a violation.

A check is called by every search stage (corners, Hypothesis, optimizer) with one case;
it updates the path point's record and returns the case's *tightness score* (lower is
closer to failing). Its :meth:`Check.objective` is the smooth version of that score the
optimizer minimises; for random kinds it uses common random numbers, and it never
decides anything. A deterministic check decides each case as it comes; a probabilistic one
only *screens* it, and :meth:`Check.finish` confirms the worst cases on fresh draws after
the search (:mod:`.screen`).
"""
from __future__ import annotations

import heapq
import zlib
from dataclasses import dataclass, field

import numpy as np

from attncheck import stats
from attncheck.core.claims import Claim, Outside
from attncheck.core.estimate import Estimate
from attncheck.core.profiles import Budget, Profile
from attncheck.core.record import case_data
from attncheck.engine.screen import Confirmed, Pool, Screened
from attncheck.numeric import precision
from attncheck.numeric.precision import NonFinite

STAGES = ("corners", "hypothesis", "design", "optimizer")
OUTSIDE = 1e300  # what a case outside the hypotheses reports as its relative slack: as far from failing as any


def seed_of(*parts) -> int:
    """A stable 31-bit seed from any reprs (no Python hash randomisation)."""
    return zlib.crc32(repr(parts).encode()) & 0x7FFFFFFF


def case_rng(seed: int, claim_id: str, case) -> np.random.Generator:
    """The Monte Carlo generator of one case: a function of (seed, claim, case) only."""
    return np.random.default_rng(np.random.SeedSequence([seed, seed_of(claim_id), seed_of(repr(case))]))


def take(R, idx):
    """The draws ``idx`` of a sample (an array, a tuple or a dict of arrays)."""
    if idx is None:
        return R
    if isinstance(R, tuple):
        return tuple(r[idx] for r in R)
    if isinstance(R, dict):
        return {k: v[idx] for k, v in R.items()}
    return R[idx]


def short(case, limit: int = 600) -> str:
    text = repr(case)
    return text if len(text) <= limit else text[:limit] + " ..."


class Violation(Exception):
    """A counterexample; raised through Hypothesis so that it shrinks the case."""

    def __init__(self, info: dict):
        super().__init__(info.get("case", ""))
        self.info = info


@dataclass
class Point:
    """What was seen at one scaling-path point."""

    point: object
    cases: int = 0
    samples: int = 0
    stages: dict = field(default_factory=lambda: dict.fromkeys(STAGES, 0))
    worst: dict | None = None
    refuted: bool = False
    undecided: int = 0
    outside: int = 0  # cases outside the claim's hypotheses (the evaluator raised Outside); not in ``cases``
    outside_case: dict | None = None  # the first of them, with the evaluator's reason
    counterexample: dict | None = None
    min_lower_gap: float | None = None  # screened kinds: min over confirmed cases of (one-sided 95% bound - claim)
    suspects: int = 0  # screened kinds: distinct cases significant at the screen's liberal level
    unconfirmed_suspects: int = 0  # ... of which not confirmed (not among the Profile.confirm worst)
    confirmed: list = field(default_factory=list)  # screened kinds: one summary per confirmed case
    tight: list = field(default_factory=list)  # heap of (-score, n, values): the tightest cases with known values
    undecided_cases: list = field(default_factory=list)  # the first few elements no precision nor exact evaluation decided
    constants: int = 0  # elements whose tiny violation was the rounding of the evaluator's float constants
    constant_case: dict | None = None  # the first of them, with the constants and the rationals they were read as
    worst_case: object = None  # asymptotic: the case behind ``worst`` (re-estimated on fresh draws)
    replicates: list = field(default_factory=list)  # asymptotic: (value, se or None) of each fresh re-estimate
    estimate: dict | None = None  # asymptotic: the re-estimate that enters the trend (value, se, replicates)

    def count(self, stage: str) -> None:
        self.cases += 1
        self.stages[stage] = self.stages.get(stage, 0) + 1

    def offer(self, score: float, values: dict | None, keep: int) -> None:
        """Remember ``values`` if it is among the ``keep`` tightest cases (optimizer starts)."""
        if values is None or keep <= 0 or not np.isfinite(score):
            return
        item = (-score, len(self.tight) + self.cases, values)
        if len(self.tight) < keep:
            heapq.heappush(self.tight, item)
        elif item[0] > self.tight[0][0]:
            heapq.heapreplace(self.tight, item)

    def note(self, notes, case, keep: int = 3) -> None:
        """Record the notes of :func:`precision.holds` on one case: undecided elements (the first ``keep``) and
        float-constant diagnoses (counted, the first kept)."""
        for n in notes:
            shown = dict(n, case=short(case))
            if "constants" in n:
                self.constants += 1
                self.constant_case = self.constant_case or shown
            if "undecided" in n and len(self.undecided_cases) < keep and shown not in self.undecided_cases:
                self.undecided_cases.append(shown)

    def tightest(self) -> list[dict]:
        return [v for _, _, v in sorted(self.tight, key=lambda t: (-t[0], t[1]))]


def _flat(s: precision.Slack, idx):
    """The slack's elements as flat arrays, restricted to idx (for re-evaluation); a per-element ``strict``
    (:func:`~attncheck.numeric.precision.all_of`) is flattened and restricted with them."""
    value = np.asarray(s.value)
    scale = np.broadcast_to(s.scale, value.shape).ravel()
    strict = s.strict if np.ndim(s.strict) == 0 else np.broadcast_to(s.strict, value.shape).ravel()
    value = value.ravel()
    if idx is not None:
        value, scale = value[idx], scale[idx]
        strict = strict if np.ndim(strict) == 0 else strict[idx]
    return precision.Slack(value, scale, strict)


def _min_rel(d: precision.Decided) -> float:
    rel = d.rel[np.isfinite(d.rel)]
    return float(rel.min()) if rel.size else 0.0


class Check:
    """Base: what every kind shares (claim, budget, seeds, escalation counters)."""

    shrink = False
    covers = True  # runs the space-filling design (search.design_values)
    # runs the design over the strategy's choices when the claim has no Space (engine.choices); off for the
    # random kinds: their composite strategies (the network theorems among them) would take about twice as long
    choices = False

    def __init__(self, claim: Claim, prof: Profile, budget: Budget, seed: int, point,
                 esc: precision.Escalation, alpha_test: float | None = None):
        self.claim, self.prof, self.budget, self.seed, self.point = claim, prof, budget, seed, point
        self.esc, self.alpha_test = esc, alpha_test
        self.margin = claim.margin or precision.DEFAULT_MARGIN
        self._crn = np.random.SeedSequence([seed, seed_of(claim.id), seed_of(repr(point)), 0xC12])

    def crn(self) -> np.random.Generator:
        """Common random numbers: the same stream for every optimizer evaluation, and a
        stream distinct from every case's own :func:`case_rng` (a SeedSequence's state is a
        pure function of its entropy, so one serves every call)."""
        return np.random.default_rng(self._crn)

    def __call__(self, case, pt: Point, stage: str, values: dict | None = None) -> float:
        raise NotImplementedError

    def objective(self, case) -> float:
        raise NotImplementedError

    def pending(self, pt: Point) -> list:
        """The cases to decide after the search of a point (:meth:`ScreenedCheck.settle`): none but for the
        screened kinds."""
        return []


class DeterministicCheck(Check):
    """identity / inequality: the slack must hold on every element (float64, then mpmath)."""

    shrink = True
    choices = True

    def decide(self, case) -> precision.Decided:
        """The slack's elements decided (float64, then the mpmath schedule where float64 cannot)."""
        return precision.holds(lambda xp, idx: _flat(self.claim.evaluate(case, xp), idx), self.margin, self.esc,
                               self.claim.precisions, inputs=case)

    def __call__(self, case, pt, stage, values=None):
        try:
            d = self.decide(case)
        except Outside as out:  # neither a pass nor a failure: counted apart, never the tightest
            pt.outside += 1
            pt.outside_case = pt.outside_case or {"case": short(case), "why": str(out), "found_by": stage}
            return OUTSIDE
        rel = _min_rel(d)
        pt.count(stage)
        pt.undecided += int(d.undecided.any())
        pt.note(d.notes, case)
        pt.offer(rel, values, self.budget.starts)
        if pt.worst is None or rel < pt.worst["relative_slack"]:
            pt.worst = {"relative_slack": rel, "case": short(case), "found_by": stage}
        violated = ~d.ok & ~d.undecided  # undecided elements make the verdict INCONCLUSIVE, not REFUTED
        if violated.any():
            raise Violation({"case": short(case, 4000), "case_data": case_data(case), "relative_slack": rel,
                             "found_by": stage,
                             "violations": int(violated.sum()), "elements": int(d.ok.size)})
        return rel

    def objective(self, case):
        return _min_rel(self.decide(case))


class ScreenedCheck(Check):
    """A random kind that screens every case during the search and confirms the worst after it
    (:mod:`.screen`: the protocol, the alpha split, the two methods a kind writes)."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.pool = Pool(self.prof.confirm)
        self.refuted: dict[str, dict] = {}  # repr(case) -> its counterexample, raised again if Hypothesis replays it

    def screen(self, case, pt: Point) -> Screened:
        raise NotImplementedError

    def confirm(self, case, pt: Point) -> Confirmed:
        raise NotImplementedError

    def __call__(self, case, pt, stage, values=None):
        if self.refuted and repr(case) in self.refuted:  # Hypothesis re-runs a failing example before it reports it
            raise Violation(self.refuted[repr(case)])
        s = self.screen(case, pt)
        pt.count(stage)
        pt.offer(s.gap, values, self.budget.starts)
        self.pool.offer(case, stage, s)
        if s.flagrant and self.pool.take(case):
            self.settle(case, stage, s, pt)
        return s.gap

    def pending(self, pt):
        """The pool's cases, worst first (:mod:`.search` settles each in turn)."""
        pt.suspects, pt.unconfirmed_suspects = self.pool.suspects, self.pool.unconfirmed_suspects()
        return self.pool.worst()

    def settle(self, case, stage: str, s: Screened, pt: Point) -> None:
        """Confirm one screened case; a refuted one is the point's counterexample (raised as a
        :class:`Violation`). ``pt.worst`` is the first confirmed, the screen's worst: its estimate comes from draws
        that did not select it, so that the failure trend of an eventually-claim is not biased by selection (the
        smallest of several confirmed estimates would be)."""
        c = self.confirm(case, pt)
        info = dict(c.info, case=short(case), found_by=stage, screen=s.info)
        pt.confirmed.append({"gap": c.gap, "draws": info.get("draws"), "found_by": stage, "decision": c.state})
        if c.lower_gap is not None:
            pt.min_lower_gap = c.lower_gap if pt.min_lower_gap is None else min(pt.min_lower_gap, c.lower_gap)
        if pt.worst is None:
            pt.worst = dict(info, gap=c.gap)
        if c.state == "refute":
            self.refuted[repr(case)] = dict(info, case=short(case, 4000), case_data=case_data(case))
            raise Violation(self.refuted[repr(case)])


class ProbabilisticCheck(ScreenedCheck):
    """Pr[outcome] {>=, ==} p: screened on common random numbers, the worst cases confirmed by an exact
    sequential Clopper-Pearson test on fresh i.i.d. draws (:mod:`.screen`)."""

    def _successes(self, case, R, size: int, pt: Point) -> int:
        """Outcomes of ``size`` draws that hold (float64, then mpmath); an undecided one counts as a success
        (a refutation needs decided failures) and is counted in ``pt.undecided``."""
        claim = self.claim
        d = precision.holds(lambda xp, idx: claim.evaluate(case, take(R, idx), xp), self.margin, self.esc,
                            claim.precisions)
        if d.ok.shape != (size,):
            raise ValueError(f"claim {claim.id}: evaluate must return one outcome per draw, "
                             f"got shape {d.ok.shape} for {size} draws")
        pt.undecided += int(d.undecided.sum())
        pt.samples += size
        return int((d.ok | d.undecided).sum())

    def _gap(self, rate: float, p: float) -> float:
        return rate - p if self.claim.relation == ">=" else -abs(rate - p)

    def screen(self, case, pt):
        claim = self.claim
        size = claim.mc_sizes(self.prof.screen, self.prof.screen)[1]
        k = self._successes(case, claim.sample(case, self.crn(), size), size, pt)
        p = claim.p(case)
        return Screened(stats.screen_score(k, size, p, claim.relation), self._gap(k / size, p),
                        {"pass_rate": k / size, "draws": size}, claims=p > 0.0,
                        flagrant=stats.decide(k, size, p, claim.relation, self.alpha_test).state == "refute")

    def confirm(self, case, pt):
        claim = self.claim
        rng = case_rng(self.seed, claim.id, case)
        p = claim.p(case)
        first, budget = claim.mc_sizes(self.prof.mc_first, self.prof.confirm_budget)
        plain = claim.mc_sizes(self.prof.mc_first, self.prof.mc_budget)[1]
        k = drawn = 0
        for size in stats.looks(first, budget):
            k, drawn = k + self._successes(case, claim.sample(case, rng, size - drawn), size - drawn, pt), size
            decision = stats.decide(k, drawn, p, claim.relation, self.alpha_test)
            # past the plain per-case budget, more draws only while the estimate sits on the failing side
            if decision.state != "continue" or (drawn >= plain and not stats.off_claim(k, drawn, p, claim.relation)):
                break
        rate = k / drawn
        lo, hi = stats.clopper_pearson(k, drawn, 0.05)
        lower_gap = None
        if p > 0.0:
            lower_gap = (stats.cp_lower(k, drawn, 0.05) - p) if claim.relation == ">=" else \
                (0.0 if lo <= p <= hi else -abs(rate - p))
        info = {"claimed": p, "pass_rate": rate, "successes": k, "draws": drawn, "ci95": [lo, hi],
                "decision_bounds": [decision.lower, decision.upper],
                "rng": f"case_rng(seed={self.seed}, claim_id={claim.id!r}, case)"}
        return Confirmed(decision.state, info, self._gap(rate, p), lower_gap)

    def objective(self, case):
        claim = self.claim
        crn = claim.mc_sizes(self.budget.crn, self.budget.crn)[1]
        s = claim.evaluate(case, claim.sample(case, self.crn(), crn), precision.F64)
        with np.errstate(invalid="ignore"):
            v = np.asarray(s.value, float)
            ok = np.isfinite(v) & np.asarray(s.holds(v), bool)
        return self._gap(float(ok.mean()), claim.p(case))


class AsymptoticCheck(Check):
    """The implied constant at one path point, to be bounded along the path.

    Two forms: the evaluator returns one ratio per draw (the constant is their claimed-probability
    quantile, :func:`attncheck.stats.quantile`: a draw may be +inf, the constant may not) or one
    :class:`~attncheck.core.estimate.Estimate` of a Monte Carlo quantity (the rate form: the constant is
    its value). The search maximises it over the cases; the maximum of noisy
    constants is biased upward, so the worst case is then re-estimated on fresh draws
    (:meth:`reestimate`), and that estimate, with its standard error, enters the trend.

    No design: the constant's trend along the path is fitted to the maximum over the
    cases, and the design's power for that rule has not been measured."""

    covers = False
    FRESH = 0xF5E  # the re-estimation streams: distinct from case_rng (3 words) and crn (0xC12)

    def _size(self, first: int) -> int:
        return self.claim.mc_sizes(first, first)[1]

    def _constant(self, case, rng, size) -> tuple[float, int, float | None]:
        """(constant, draws, se): se from the evaluator's Estimate, None in the quantile form."""
        out = self.claim.evaluate(case, self.claim.sample(case, rng, size), precision.F64)
        if isinstance(out, Estimate):
            return out.value, size, out.se
        ratio = np.asarray(out, float)
        if np.isnan(ratio).any() or np.isneginf(ratio).any():
            raise NonFinite(f"implied-constant ratio is not finite for case {short(case)}")
        c = stats.quantile(ratio, self.claim.p(case))
        if not np.isfinite(c):
            raise NonFinite(f"implied constant is +inf for case {short(case)}: {int(np.isinf(ratio).sum())} of "
                            f"{ratio.size} draws are +inf, past the claimed probability's quantile")
        return c, int(ratio.size), None

    def __call__(self, case, pt, stage, values=None):
        c_hat, draws, se = self._constant(case, case_rng(self.seed, self.claim.id, case), self._size(self.prof.mc_budget))
        pt.count(stage)
        pt.samples += draws
        pt.offer(-c_hat, values, self.budget.starts)
        if pt.worst is None or c_hat > pt.worst["implied_constant"]:
            pt.worst = {"implied_constant": c_hat, "case": short(case), "draws": draws, "found_by": stage}
            pt.worst.update({"se": se} if se is not None else {"quantile": self.claim.p(case)})
            if pt.worst_case is not None and pt.worst_case is not case:
                pt.replicates, pt.estimate = [], None  # a new worst case: its re-estimate starts afresh
            pt.worst_case = case
        return -c_hat

    def objective(self, case):
        return -self._constant(case, self.crn(), self.claim.mc_sizes(self.budget.crn, self.budget.crn)[1])[0]

    @staticmethod
    def _deterministic(pt: Point) -> bool:
        """Two quantile replicates on independent streams that agree exactly: the evaluator does not depend on
        its draws (more replicates would repeat the value, se 0 either way)."""
        reps = pt.replicates
        return len(reps) >= 2 and reps[0][1] is None and reps[0][0] == reps[1][0]

    def reestimate(self, pt: Point, replicates: int) -> None:
        """Bring ``pt``'s worst case up to ``replicates`` independent re-estimates on fresh streams
        (``FRESH``, one per replicate, none used by the search), and set ``pt.estimate``:

        - quantile form: the mean of the replicate quantiles, standard error sd / sqrt(replicates)
          (0 for a deterministic evaluator: its first two replicates agree, and no more are drawn);
        - rate form: the mean of the replicate estimates, standard error sqrt(sum se_j^2) / replicates.
        The search's value is not among them: it is the maximum over the cases, biased upward."""
        size = self._size(self.prof.mc_budget)
        case = pt.worst_case
        while len(pt.replicates) < replicates and not self._deterministic(pt):
            rng = np.random.default_rng(np.random.SeedSequence(
                [self.seed, seed_of(self.claim.id), seed_of(repr(pt.point)), seed_of(repr(case)), self.FRESH,
                 len(pt.replicates)]))
            value, draws, se = self._constant(case, rng, size)
            pt.replicates.append((value, se))
            pt.samples += draws
        values = np.array([v for v, _ in pt.replicates])
        ses = [s for _, s in pt.replicates]
        if all(s is not None for s in ses):
            se = float(np.sqrt(np.sum(np.square(ses)))) / len(ses)
        else:
            se = float(np.std(values, ddof=1) / np.sqrt(values.size)) if values.size > 1 else 0.0
        pt.estimate = {"value": float(values.mean()), "se": se, "replicates": len(pt.replicates),
                       "draws_each": size}

def mean_values(claim: Claim, case, R, size: int) -> tuple[np.ndarray, np.ndarray]:
    """(V, scale), each (size, m): an expectation claim's per-draw values and the magnitude of what they compare.

    ``evaluate`` returns V, or a pair (lhs, rhs) with V = lhs - rhs and scale max(|lhs|, |rhs|) (so that
    float64 rounding of an exact tie is judged against the compared quantities); a bare V is its own scale."""
    out = claim.evaluate(case, R, precision.F64)
    if isinstance(out, tuple):
        lhs, rhs = np.broadcast_arrays(np.asarray(out[0], float), np.asarray(out[1], float))
        v, scale = lhs - rhs, np.maximum(np.abs(lhs), np.abs(rhs))
    else:
        v = np.asarray(out, float)
        scale = np.abs(v)
    if v.ndim == 0 or v.shape[0] != size:
        raise ValueError(f"claim {claim.id}: evaluate must return one value (or row) per draw, "
                         f"got shape {v.shape} for {size} draws")
    if not (np.all(np.isfinite(v)) and np.all(np.isfinite(scale))):
        raise NonFinite(f"expectation values are not finite for case {short(case)}")
    return v.reshape(size, -1), scale.reshape(size, -1)


def mean_case(claim: Claim, case, rng: np.random.Generator, sizes: list[int], alpha: float, margin: float,
              plain: int | None = None) -> tuple[stats.MeanDecision, int]:
    """The sequential mean test of one case (:func:`attncheck.stats.mean_test`) on fresh draws from ``rng``.

    ``sizes``: the cumulative draws of the looks (:func:`attncheck.stats.looks`), each look at level ``alpha``;
    stops at the first look that refutes or holds, and past ``plain`` draws as soon as no mean sits on the
    failing side of its tie band (:func:`off_mean`). A coordinate's tie band is ``margin`` times the mean
    scale of its draws (the engine's float-rounding margin of deterministic slacks). Returns the last
    look's decision and the draws it used."""
    chunks, scales, drawn = [], [], 0
    for size in sizes:
        v, scale = mean_values(claim, case, claim.sample(case, rng, size - drawn), size - drawn)
        chunks.append(v)
        scales.append(scale)
        drawn = size
        d = stats.mean_test(np.concatenate(chunks), claim.relation, alpha,
                            margin * np.concatenate(scales).mean(axis=0))
        if d.state != "continue" or (plain is not None and drawn >= plain and not off_mean(d)):
            break
    return d, drawn


def off_mean(d: stats.MeanDecision) -> bool:
    """Some mean sits on the failing side of the claim: past its tie band for ``<=``/``>=``, more than one
    standard error (or the band) from 0 for ``==``. The confirmation draws more while this holds."""
    if d.relation == "<=":
        return bool(np.any(d.mean > d.tie))
    if d.relation == ">=":
        return bool(np.any(d.mean < -d.tie))
    return bool(np.any(np.abs(d.mean) > np.maximum(d.se, d.tie)))


def mean_score(d: stats.MeanDecision) -> float:
    """The tightness score of an expectation case: the least standardised distance of a mean from the
    wrong side of 0 (negative: on the wrong side), over the coordinates."""
    signed = {"<=": -d.mean, ">=": d.mean, "==": -np.abs(d.mean)}[d.relation]
    return float(np.min(signed / np.maximum(np.maximum(d.se, d.tie), 1e-300))) + 0.0  # no -0.0


def mean_margin(d: stats.MeanDecision) -> float:
    """How far every mean's interval at the decision's level clears the failing side of its tie band, in
    standard errors (negative: some mean is significantly on the failing side at that level)."""
    clear = {"<=": d.tie - d.lower, ">=": d.upper + d.tie,
             "==": np.minimum(d.tie - d.lower, d.upper + d.tie)}[d.relation]
    return float(np.min(clear / np.maximum(np.maximum(d.se, d.tie), 1e-300))) + 0.0


class ExpectationCheck(ScreenedCheck):
    """E[V] {<=, >=, ==} 0 per coordinate: screened on common random numbers, the worst cases confirmed by a
    sequential mean test on fresh i.i.d. draws (:mod:`.screen`)."""

    def screen(self, case, pt):
        claim = self.claim
        size = claim.mc_sizes(self.prof.screen, self.prof.screen)[1]
        v, scale = mean_values(claim, case, claim.sample(case, self.crn(), size), size)
        pt.samples += size
        tie = self.margin * scale.mean(axis=0)
        d = stats.mean_test(v, claim.relation, stats.SCREEN_ALPHA, tie)
        flagrant = stats.mean_test(v, claim.relation, self.alpha_test, tie).state == "refute"
        return Screened(mean_margin(d), mean_score(d), {"mean": float(d.mean[d.coordinate]), "draws": size},
                        flagrant=flagrant)

    def confirm(self, case, pt):
        claim = self.claim
        first, budget = claim.mc_sizes(self.prof.mc_first, self.prof.confirm_budget)
        plain = claim.mc_sizes(self.prof.mc_first, self.prof.mc_budget)[1]
        d, drawn = mean_case(claim, case, case_rng(self.seed, claim.id, case), stats.looks(first, budget),
                             self.alpha_test, self.margin, plain)
        pt.samples += drawn
        j = d.coordinate
        info = {"relation": d.relation, "mean": float(d.mean[j]), "se": float(d.se[j]),
                "decision_bounds": [float(d.lower[j]), float(d.upper[j])], "tie_band": float(d.tie[j]),
                "draws": drawn, "coordinate": j, "coordinates": int(d.mean.size), "score": mean_score(d),
                "confirmed": d.confirmed, "rng": f"case_rng(seed={self.seed}, claim_id={claim.id!r}, case)"}
        return Confirmed(d.state, info, mean_score(d), 0.0 if d.confirmed else -np.inf)

    def objective(self, case):
        claim = self.claim
        crn = claim.mc_sizes(self.budget.crn, self.budget.crn)[1]
        v, scale = mean_values(claim, case, claim.sample(case, self.crn(), crn), crn)
        return mean_score(stats.mean_test(v, claim.relation, stats.CONFIRM_ALPHA, self.margin * scale.mean(axis=0)))
