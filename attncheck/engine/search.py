"""The search at one path point: corners, Hypothesis, a space-filling design, the optimizer.

The Space is the claim's declared one, or one read off its strategy where that is exact
(:mod:`.derived`: ``st.floats(lo, hi)``, ``st.integers(lo, hi)``, tuples of them, ...).

1. **Corners**: every combination of the Space's parameters' endpoints, then points
   just inside each boundary, within the budget. An exact tie at a boundary can hide
   a failure beside it. (With a derived Space, after Hypothesis.) For a deterministic
   claim with no Space, the corners of its strategy's choices (:func:`.choices.corners`:
   each bounded draw at its ends and just inside, all low, all high, mixed vertices).
2. **Hypothesis** draws the domain (the claim's strategy, or the Space's), targets the
   tightest case and, for deterministic claims, shrinks a counterexample.
3. **Design**: scrambled Sobol points covering the Space, so that a violation on a few
   percent of the domain is hit whatever Hypothesis' draws favour; for a deterministic
   claim with no Space, the same design answers its strategy's choices (:mod:`.choices`).
4. **Optimizer**: from the tightest cases seen (and seeded random points), a bounded
   derivative-free search (Powell) over the Space's real coordinates minimises the
   check's objective; its best point is checked like any other case.

The first violation ends the point's search. A probabilistic check only screens the cases
during the stages; its worst ones are confirmed on fresh draws after them (:mod:`.screen`). Every stage is a fixed function of the
seed and the budget, so a seed replays the same cases.
"""
from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, Phase, Verbosity, given, settings, target
from hypothesis import seed as hyp_seed
from scipy.optimize import minimize

from attncheck.core.claims import Outside
from attncheck.engine import choices
from attncheck.engine.checks import OUTSIDE, Check, Point, Violation, seed_of, short
from attncheck.engine.derived import derive

_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
           HealthCheck.large_base_example]


def _no_local_constants() -> None:
    """Stop Hypothesis from mixing literals of the loaded modules into its draws.

    Hypothesis (>= 6.131) draws, now and then, constants found in the user's loaded
    modules, so one seed would give different cases depending on what is imported
    (a claims file alone vs the whole test suite). attncheck's replay promise needs the
    same cases from the same seed, so the pool is emptied process-wide.
    """
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # pragma: no cover - older Hypothesis has no constant pool
        return
    if hasattr(providers, "_get_local_constants"):
        empty = providers.Constants()
        providers._get_local_constants = lambda: empty
        providers.CONSTANTS_CACHE.cache.clear()


_no_local_constants()


def _hyp_settings(shrink: bool, examples: int) -> settings:
    """Hypothesis stops at the first violation (``report_multiple_bugs=False``): looking for more would stop
    10 s of wall clock after the first, so a refuted claim's cases and counterexample would depend on the machine."""
    phases = [Phase.explicit, Phase.generate, Phase.target] + ([Phase.shrink] if shrink else [])
    return settings(max_examples=examples, deadline=None, database=None, phases=phases,
                    suppress_health_check=_HEALTH, verbosity=Verbosity.quiet, print_blob=False,
                    derandomize=False, report_multiple_bugs=False)


class EvaluationFailed(Exception):
    """The evaluator raised, or gave a value neither float64 nor mpmath could make finite, on
    one case; raised through Hypothesis so that the case shrinks. The cause is chained."""

    def __init__(self, case, stage: str, point):
        super().__init__(f"evaluation failed at {stage} case {short(case)}")
        self.case, self.stage, self.point = case, stage, point


def _checked(check: Check, case, pt: Point, stage: str, values=None) -> float:
    """``check(case, ...)``, any failure but a violation re-raised with the case attached."""
    try:
        return check(case, pt, stage, values)
    except Violation:
        raise
    except Exception as exc:
        raise EvaluationFailed(case, stage, pt.point) from exc


def space_of(claim, point):
    """The claim's Space at ``point``: declared, else derived exactly from its strategy, else None."""
    space = claim.space_at(point)
    return space if space is not None else derive(claim.strategy(point))


def corner_values(claim, point, budget) -> list[dict]:
    space = space_of(claim, point)
    return space.corners(budget.corners) if space is not None and budget.corners else []


def _over_choices(check: Check, pt: Point, stage: str, count: int, make, tag: str) -> None:
    """A stage over the strategy's choices, for a claim with no Space (:mod:`.choices`): ``make(strategy, count,
    seed)`` gives its cases, seeded by (seed, claim, point, ``tag``)."""
    if check.choices and count:
        seed = seed_of(check.seed, check.claim.id, repr(pt.point), tag)
        for case in make(check.claim.strategy(pt.point), count, seed):
            _checked(check, case, pt, stage)


def _corners(check: Check, pt: Point) -> None:
    space = space_of(check.claim, pt.point)
    if space is None:
        _over_choices(check, pt, "corners", check.budget.corners, choices.corners, "choice corners")
        return
    for values in corner_values(check.claim, pt.point, check.budget):
        _checked(check, space.case(values), pt, "corners", values)


def design_values(check: Check, point, corners: list[dict]) -> list[dict]:
    """The design's parameter values at ``point``, less those the corners already ran."""
    space = space_of(check.claim, point)
    if space is None or not check.budget.design or not check.covers:
        return []
    seen = {tuple(v.values()) for v in corners}
    out = []
    for values in space.design(check.budget.design, seed_of(check.seed, check.claim.id, repr(point), "design")):
        key = tuple(values.values())
        if key not in seen:
            seen.add(key)
            out.append(values)
    return out


def _design(check: Check, pt: Point) -> None:
    space = space_of(check.claim, pt.point)
    if space is None:
        _over_choices(check, pt, "design", check.budget.design, choices.cases, "choices")
        return
    for values in design_values(check, pt.point, corner_values(check.claim, pt.point, check.budget)):
        _checked(check, space.case(values), pt, "design", values)


def _hypothesis(check: Check, pt: Point) -> None:
    claim, point = check.claim, pt.point
    space = claim.space_at(point)
    from_space = claim.domain is None  # then the values are known and seed the optimizer

    @hyp_seed(seed_of(check.seed, claim.id, repr(point)))
    @_hyp_settings(shrink=check.shrink, examples=check.budget.examples)
    @given(space.values() if from_space else claim.strategy(point))
    def search(drawn):
        values, case = (drawn, space.case(drawn)) if from_space else (None, drawn)
        target(-_checked(check, case, pt, "hypothesis", values), label="tightness (closer to failing)")

    search()


def _starts(check: Check, pt: Point) -> list[dict]:
    """The tightest cases seen, topped up with seeded uniform points of the Space."""
    space = space_of(check.claim, pt.point)
    starts = pt.tightest()[: check.budget.starts]
    rng = np.random.default_rng(seed_of(check.seed, check.claim.id, repr(pt.point), "starts"))
    while len(starts) < check.budget.starts:
        starts.append(space.random_values(rng))
    return starts


def _optimize(check: Check, pt: Point) -> None:
    space = space_of(check.claim, pt.point)
    if space is None or not space.reals or not check.budget.starts or not check.budget.evals:
        return
    for base in _starts(check, pt):
        best = {"score": np.inf, "values": base}

        def f(u):
            values = space.from_unit(u, base)  # noqa: B023 (the optimizer calls f within this iteration)
            try:
                score = check.objective(space.case(values))
            except Outside:  # outside the claim's hypotheses: counted apart, as far from failing as any
                pt.outside += 1
                return OUTSIDE
            except Exception as exc:
                raise EvaluationFailed(space.case(values), "optimizer", pt.point) from exc
            pt.count("optimizer")
            score = score if np.isfinite(score) else np.inf
            if score < best["score"]:  # noqa: B023
                best.update(score=score, values=values)  # noqa: B023
            return score if np.isfinite(score) else 1e300

        x0 = np.clip(space.to_unit(base), 0.0, 1.0)
        minimize(f, x0, method="Powell", bounds=[(0.0, 1.0)] * len(x0),
                 options={"maxfev": check.budget.evals, "xtol": 1e-12, "ftol": 1e-15})
        _checked(check, space.case(best["values"]), pt, "optimizer", best["values"])


def _finish(check: Check, pt: Point) -> None:
    """After the stages: the check settles its pending cases (a screened kind's confirmations, worst first)."""
    for case, stage, screened in check.pending(pt):
        try:
            check.settle(case, stage, screened, pt)
        except Violation:
            raise
        except Exception as exc:
            raise EvaluationFailed(case, "confirm", pt.point) from exc


def search_point(check: Check, point) -> Point:
    """Run the four stages at one path point; a violation marks the point refuted.

    With a derived Space the claim's own strategy runs first, so that what it finds is
    found (and shrunk) as without one; the corners follow it. Otherwise (a declared Space, or
    the corners of a strategy's choices) the corners come first."""
    pt = Point(point)
    derived = check.claim.space_at(point) is None and space_of(check.claim, point) is not None
    try:
        for stage in ((_hypothesis, _corners) if derived else (_corners, _hypothesis)) + (_design, _optimize):
            stage(check, pt)
        _finish(check, pt)
    except Violation as v:
        pt.refuted = True
        pt.counterexample = v.info
    return pt


def carry_worst(checks: list[Check], points: list[Point]) -> None:
    """Every point's worst case (its parameter values) re-evaluated at every other point, as stage
    "carried": each point's implied constant is then the maximum over its own search and one common set
    of cases, so that the trend along the path is not the spread between independent searches. Values
    outside a point's Space are skipped."""
    worst = []
    for pt in points:
        for values in pt.tightest()[:1]:
            if values not in worst:
                worst.append(values)
    for check, pt in zip(checks, points, strict=False):
        space = space_of(check.claim, pt.point)
        own = pt.tightest()[:1]
        for values in worst:
            inside = values.keys() == space.params.keys() and all(
                p.contains(values[k]) for k, p in space.params.items())
            if values not in own and inside:
                _checked(check, space.case(values), pt, "carried", values)
