"""The checks, one per kind: evaluate one case, record what was seen, raise on a violation.

A check is called by every search stage (corners, Hypothesis, optimizer) with one case;
it updates the path point's record and returns the case's *tightness score* (lower is
closer to failing). Its :meth:`Check.objective` is the smooth version of that score the
optimizer minimises; for random kinds it uses common random numbers, and it never
decides anything: a refutation always comes from the check itself, on fresh draws.
"""
from __future__ import annotations

import heapq
import zlib
from dataclasses import dataclass, field

import numpy as np

from attncheck import stats
from attncheck.core.claims import Claim
from attncheck.core.estimate import Estimate
from attncheck.core.profiles import Budget, Profile
from attncheck.numeric import precision
from attncheck.numeric.precision import NonFinite

STAGES = ("corners", "hypothesis", "design", "optimizer")


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
    counterexample: dict | None = None
    min_lower_gap: float | None = None  # random kinds: min over cases of (one-sided 95% lower bound - p)
    tight: list = field(default_factory=list)  # heap of (-score, n, values): the tightest cases with known values
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

    def tightest(self) -> list[dict]:
        return [v for _, _, v in sorted(self.tight, key=lambda t: (-t[0], t[1]))]


def _flat(s: precision.Slack, idx):
    """The slack's elements as flat arrays, restricted to idx (for re-evaluation)."""
    value = np.ravel(np.asarray(s.value))
    scale = np.ravel(np.broadcast_to(np.asarray(s.scale), np.shape(s.value)))
    if idx is not None:
        value, scale = value[idx], scale[idx]
    return precision.Slack(value, scale, s.strict)


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

    def crn(self) -> np.random.Generator:
        """Common random numbers: the same stream for every optimizer evaluation, and a
        stream distinct from every case's own :func:`case_rng`."""
        return np.random.default_rng(np.random.SeedSequence(
            [self.seed, seed_of(self.claim.id), seed_of(repr(self.point)), 0xC12]))

    def __call__(self, case, pt: Point, stage: str, values: dict | None = None) -> float:
        raise NotImplementedError

    def objective(self, case) -> float:
        raise NotImplementedError


class DeterministicCheck(Check):
    """identity / inequality: the slack must hold on every element (float64, then mpmath)."""

    shrink = True
    choices = True

    def _decide(self, case) -> precision.Decided:
        return precision.holds(lambda xp, idx: _flat(self.claim.evaluate(case, xp), idx), self.margin, self.esc,
                               self.claim.precisions)

    def __call__(self, case, pt, stage, values=None):
        d = self._decide(case)
        rel = _min_rel(d)
        pt.count(stage)
        pt.undecided += int(d.undecided.any())
        pt.offer(rel, values, self.budget.starts)
        if pt.worst is None or rel < pt.worst["relative_slack"]:
            pt.worst = {"relative_slack": rel, "case": short(case), "found_by": stage}
        violated = ~d.ok & ~d.undecided  # undecided elements make the verdict INCONCLUSIVE, not REFUTED
        if violated.any():
            raise Violation({"case": short(case, 4000), "relative_slack": rel, "found_by": stage,
                             "violations": int(violated.sum()), "elements": int(d.ok.size)})
        return rel

    def objective(self, case):
        return _min_rel(self._decide(case))


class ProbabilisticCheck(Check):
    """Pr[outcome] {>=, ==} p: an exact sequential test on fresh i.i.d. draws of the case."""

    def __call__(self, case, pt, stage, values=None):
        claim = self.claim
        rng = case_rng(self.seed, claim.id, case)
        p = claim.p(case)
        k = drawn = 0
        for size in stats.looks(*claim.mc_sizes(self.prof.mc_first, self.prof.mc_budget)):
            R = claim.sample(case, rng, size - drawn)
            d = precision.holds(lambda xp, idx: claim.evaluate(case, take(R, idx), xp), self.margin, self.esc,  # noqa: B023 (called at once, inside this iteration)
                                claim.precisions)
            if d.ok.shape != (size - drawn,):
                raise ValueError(f"claim {claim.id}: evaluate must return one outcome per draw, "
                                 f"got shape {d.ok.shape} for {size - drawn} draws")
            # an undecided draw counts as a success: refutation only on decided outcomes
            k, drawn = k + int((d.ok | d.undecided).sum()), size
            pt.undecided += int(d.undecided.sum())
            decision = stats.decide(k, drawn, p, claim.relation, self.alpha_test)
            if decision.state != "continue":
                break
        rate = k / drawn
        lo, hi = stats.clopper_pearson(k, drawn, 0.05)
        pt.count(stage)
        pt.samples += drawn
        gap = rate - p if claim.relation == ">=" else -abs(rate - p)
        if p > 0.0:
            lower_gap = (stats.cp_lower(k, drawn, 0.05) - p) if claim.relation == ">=" else \
                (0.0 if lo <= p <= hi else -abs(rate - p))
            pt.min_lower_gap = lower_gap if pt.min_lower_gap is None else min(pt.min_lower_gap, lower_gap)
        pt.offer(gap, values, self.budget.starts)
        info = {"claimed": p, "pass_rate": rate, "successes": k, "draws": drawn, "ci95": [lo, hi],
                "decision_bounds": [decision.lower, decision.upper], "case": short(case), "found_by": stage,
                "rng": f"case_rng(seed={self.seed}, claim_id={claim.id!r}, case)"}
        # a case whose claimed probability is 0 claims nothing: it is the worst case only if all are
        rank = (p == 0.0, gap)
        if pt.worst is None or rank < (pt.worst["claimed"] == 0.0, pt.worst["gap"]):
            pt.worst = dict(info, gap=gap)
        if decision.state == "refute":
            raise Violation(dict(info, case=short(case, 4000)))
        return gap

    def objective(self, case):
        claim = self.claim
        crn = claim.mc_sizes(self.budget.crn, self.budget.crn)[1]
        s = claim.evaluate(case, claim.sample(case, self.crn(), crn), precision.F64)
        with np.errstate(invalid="ignore"):
            v = np.asarray(s.value, float)
            ok = np.isfinite(v) & np.asarray(s.holds(v), bool)
        rate = float(ok.mean())
        p = claim.p(case)
        return rate - p if claim.relation == ">=" else -abs(rate - p)


class AsymptoticCheck(Check):
    """The implied constant at one path point, to be bounded along the path.

    Two forms: the evaluator returns one ratio per draw (the constant is their claimed-probability
    quantile) or one :class:`~attncheck.core.estimate.Estimate` of a Monte Carlo quantity (the rate
    form: the constant is its value). The search maximises it over the cases; the maximum of noisy
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
        if not np.all(np.isfinite(ratio)):
            raise NonFinite(f"implied-constant ratio is not finite for case {short(case)}")
        return float(np.quantile(ratio, self.claim.p(case))), int(ratio.size), None

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
