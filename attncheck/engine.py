"""Run one claim: generate cases, evaluate, escalate precision, decide the verdict.

Two engines on purpose. Hypothesis searches the "for all" part of a claim (domain,
boundaries, shrinking, ``target`` toward the tightest case). A seeded numpy Monte
Carlo draws the "with probability" part in bulk; its outcomes are i.i.d. and feed
exact binomial tests. Hypothesis examples are never treated as i.i.d. samples.
"""
from __future__ import annotations

import time
import traceback
import zlib
from dataclasses import dataclass, field

import numpy as np
from hypothesis import HealthCheck, Phase, Verbosity, given, settings, target
from hypothesis import seed as hyp_seed

from . import certify, precision, stats
from .claims import Claim, Kind, Verdict
from .precision import Escalation, NonFinite
from .profiles import Profile, get_profile

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


class _Violation(Exception):
    """Raised inside a Hypothesis test to report a counterexample."""

    def __init__(self, info: dict):
        super().__init__(info.get("case", ""))
        self.info = info


def _hyp_settings(shrink: bool, examples: int) -> settings:
    phases = [Phase.explicit, Phase.generate, Phase.target] + ([Phase.shrink] if shrink else [])
    return settings(max_examples=examples, deadline=None, database=None, phases=phases,
                    suppress_health_check=_HEALTH, verbosity=Verbosity.quiet, print_blob=False,
                    derandomize=False)


def _seed(*parts) -> int:
    return zlib.crc32(repr(parts).encode()) & 0x7FFFFFFF


def case_rng(seed: int, claim_id: str, case) -> np.random.Generator:
    """The Monte Carlo generator of one case: a function of (seed, claim, case) only."""
    return np.random.default_rng(np.random.SeedSequence([seed, _seed(claim_id), _seed(repr(case))]))


def _take(R, idx):
    if idx is None:
        return R
    if isinstance(R, tuple):
        return tuple(r[idx] for r in R)
    if isinstance(R, dict):
        return {k: v[idx] for k, v in R.items()}
    return R[idx]


def _flat(s: precision.Slack, idx):
    """The slack's elements as flat arrays, restricted to idx (for re-evaluation)."""
    value = np.ravel(np.asarray(s.value))
    scale = np.ravel(np.broadcast_to(np.asarray(s.scale), np.shape(s.value)))
    if idx is not None:
        value, scale = value[idx], scale[idx]
    return precision.Slack(value, scale, s.strict)


def _short(case, limit: int = 600) -> str:
    text = repr(case)
    return text if len(text) <= limit else text[:limit] + " ..."


@dataclass
class _Point:
    """What was seen at one scaling-path point."""

    point: object
    cases: int = 0
    samples: int = 0
    worst: dict | None = None
    refuted: bool = False
    undecided: int = 0
    extra: dict = field(default_factory=dict)


def _explore(claim: Claim, prof: Profile, seed: int, point, shrink: bool, body) -> _Point:
    """Let Hypothesis drive ``body(case, pt)`` over the claim's domain at one path point."""
    pt = _Point(point)

    @hyp_seed(_seed(seed, claim.id, repr(point)))
    @_hyp_settings(shrink=shrink, examples=prof.examples)
    @given(claim.strategy(point))
    def search(case):
        body(case, pt)

    try:
        search()
    except _Violation as v:
        pt.refuted = True
        pt.extra["counterexample"] = v.info
    return pt


def _run_point_deterministic(claim: Claim, prof: Profile, seed: int, point, esc: Escalation) -> _Point:
    margin = claim.margin or precision.DEFAULT_MARGIN

    def check(case, pt):
        d = precision.holds(lambda xp, idx: _flat(claim.evaluate(case, xp), idx), margin, esc)
        rel = float(np.min(d.value / np.maximum(np.abs(d.scale), 1e-300)))
        pt.cases += 1
        pt.undecided += int(d.undecided.any())
        target(-rel, label="relative slack (minimised)")
        if pt.worst is None or rel < pt.worst["relative_slack"]:
            pt.worst = {"relative_slack": rel, "case": _short(case)}
        violated = ~d.ok & ~d.undecided  # undecided elements make the verdict INCONCLUSIVE, not REFUTED
        if violated.any():
            raise _Violation({"case": _short(case, 4000), "relative_slack": rel,
                              "violations": int(violated.sum()), "elements": int(d.ok.size)})

    return _explore(claim, prof, seed, point, True, check)


def _run_point_random(claim: Claim, prof: Profile, seed: int, point, alpha_test: float,
                      esc: Escalation) -> _Point:
    sizes = stats.looks(prof.mc_first, prof.mc_budget)
    margin = claim.margin or precision.DEFAULT_MARGIN

    def check(case, pt):
        rng = case_rng(seed, claim.id, case)
        p = claim.p(case)
        k = drawn = 0
        for size in sizes:
            R = claim.sample(case, rng, size - drawn)
            d = precision.holds(lambda xp, idx: claim.evaluate(case, _take(R, idx), xp), margin, esc)
            if d.ok.shape != (size - drawn,):
                raise ValueError(f"claim {claim.id}: evaluate must return one outcome per draw, "
                                 f"got shape {d.ok.shape} for {size - drawn} draws")
            # an undecided draw counts as a success: refutation only on decided outcomes
            k, drawn = k + int((d.ok | d.undecided).sum()), size
            pt.undecided += int(d.undecided.sum())
            decision = stats.decide(k, drawn, p, claim.relation, alpha_test)
            if decision.state != "continue":
                break
        rate = k / drawn
        lo, hi = stats.clopper_pearson(k, drawn, 0.05)
        pt.cases += 1
        pt.samples += drawn
        gap = rate - p if claim.relation == ">=" else -abs(rate - p)
        target(-gap, label="shortfall of the pass rate")
        info = {"claimed": p, "pass_rate": rate, "successes": k, "draws": drawn, "ci95": [lo, hi],
                "decision_bounds": [decision.lower, decision.upper], "case": _short(case),
                "rng": f"case_rng(seed={seed}, claim_id={claim.id!r}, case)"}
        # a case whose claimed probability is 0 claims nothing: it is the worst case only if all are
        rank = (p == 0.0, gap)
        if pt.worst is None or rank < (pt.worst["claimed"] == 0.0, pt.worst["gap"]):
            pt.worst = dict(info, gap=gap)
        if decision.state == "refute":
            raise _Violation(dict(info, case=_short(case, 4000)))

    return _explore(claim, prof, seed, point, False, check)


def _run_point_asymptotic(claim: Claim, prof: Profile, seed: int, point) -> _Point:
    def measure(case, pt):
        rng = case_rng(seed, claim.id, case)
        ratio = np.asarray(claim.evaluate(case, claim.sample(case, rng, prof.mc_budget), precision.F64), float)
        if not np.all(np.isfinite(ratio)):
            raise NonFinite(f"implied-constant ratio is not finite for case {_short(case)}")
        q = claim.p(case)
        c_hat = float(np.quantile(ratio, q))
        pt.cases += 1
        pt.samples += ratio.size
        target(c_hat, label="implied constant")
        if pt.worst is None or c_hat > pt.worst["implied_constant"]:
            pt.worst = {"implied_constant": c_hat, "quantile": q, "case": _short(case), "draws": int(ratio.size)}

    return _explore(claim, prof, seed, point, False, measure)


def _asymptotic_verdict(points: list[_Point]) -> tuple[Verdict, dict]:
    n = [float(p.point) for p in points]
    c = [p.worst["implied_constant"] for p in points]
    if min(c) <= 0:
        return Verdict.HOLDS, {"implied_constant_max": max(c), "note": "implied constant reaches 0"}
    fit = stats.fit_power_law(n, c)
    rising = all(c[i] < c[i + 1] for i in range(len(c) - 3, len(c) - 1))
    ev = {"implied_constant_max": max(c), "growth_exponent": fit.slope,
          "growth_exponent_ci95": [fit.lower, fit.upper]}
    if fit.lower > 0 and rising:
        return Verdict.REFUTED, dict(ev, reason="the needed constant grows like n^%.3g along the path" % fit.slope)
    if fit.slope > 0:
        return Verdict.INCONCLUSIVE, dict(ev, reason="implied constant trends upward but not significantly; "
                                                      "extend the path (deep profile) to decide")
    return Verdict.HOLDS, ev


def run(claim: Claim, profile: str | Profile = "quick", seed: int = 0, n_random_claims: int = 1,
        progress=None) -> dict:
    """Check one claim and return its results.json record (see README, "results.json")."""
    prof = profile if isinstance(profile, Profile) else get_profile(profile)
    if n_random_claims < 1:
        raise ValueError("n_random_claims must be >= 1")
    start = time.perf_counter()
    esc = Escalation()
    points = claim.points(prof.name)
    alpha_claim = stats.bonferroni(prof.alpha, max(prof.claims, n_random_claims))
    alpha_test = None
    if claim.kind is Kind.PROBABILISTIC:
        alpha_test = alpha_claim / (len(points) * prof.examples * len(stats.looks(prof.mc_first, prof.mc_budget)))
    seen: list[_Point] = []
    evidence: dict = {}
    try:
        for point in points:
            if claim.kind is Kind.PROBABILISTIC:
                pt = _run_point_random(claim, prof, seed, point, alpha_test, esc)
            elif claim.kind is Kind.ASYMPTOTIC:
                pt = _run_point_asymptotic(claim, prof, seed, point)
            else:
                pt = _run_point_deterministic(claim, prof, seed, point, esc)
            seen.append(pt)
            if progress:
                progress(claim, pt)
        verdict, evidence = _decide(claim, seen)
    except NonFinite as e:
        verdict, evidence = Verdict.ERROR, {"error": f"non-finite value: {e}"}
    except Exception as e:  # an evaluation that fails is an ERROR, never a pass
        verdict = Verdict.ERROR
        evidence = {"error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc(limit=6)}
    if verdict is Verdict.REFUTED and claim.erratum is not None:
        verdict = Verdict.ERRATUM
    evidence.update({
        "profile": prof.name, "seed": seed, "seconds": round(time.perf_counter() - start, 3),
        "cases": sum(p.cases for p in seen), "escalation": {
            "evaluated": esc.evaluated, "escalated": esc.escalated, "undecided": esc.undecided,
            "sign_flips": esc.flipped, "max_dps": esc.max_dps},
    })
    if claim.kind is Kind.PROBABILISTIC:
        evidence["alpha_per_test"] = alpha_test
        evidence["alpha_per_claim"] = alpha_claim
    evidence["replay"] = f"attncheck check {claim.id} --profile {prof.name} --seed {seed}"
    return record(claim, verdict, evidence)


def _point_summary(claim: Claim, p: _Point) -> dict:
    out = {"point": p.point, "cases": p.cases, "refuted": p.refuted}
    if p.samples:
        out["draws"] = p.samples
    if p.worst:
        out["worst"] = p.worst
    if p.undecided:
        out["undecided"] = p.undecided
    return out


def _decide(claim: Claim, seen: list[_Point]) -> tuple[Verdict, dict]:
    verdict, ev = _verdict(claim, seen)
    if claim.certify is None or verdict is Verdict.REFUTED:
        return verdict, ev
    out = certify.run(claim.certify)
    ev["certification"] = {"status": out.status, "boxes": out.boxes, "box": claim.certify.box,
                           "certified_fraction": out.certified_fraction}
    if out.status == "refuted":
        ev["counterexample"] = dict(out.counterexample, found_by="interval branch and bound")
        return Verdict.REFUTED, ev
    if out.status == "certified" and verdict is Verdict.HOLDS:
        return Verdict.CERTIFIED, ev
    return verdict, ev


def _verdict(claim: Claim, seen: list[_Point]) -> tuple[Verdict, dict]:
    ev: dict = {"path": [_point_summary(claim, p) for p in seen]} if claim.path is not None else {}
    if claim.kind is Kind.ASYMPTOTIC:
        verdict, extra = _asymptotic_verdict(seen)
        return verdict, dict(ev, **extra)
    if claim.path is None:
        ev.update(_point_summary(claim, seen[0]))
        ev.pop("point")
    refuted = [p for p in seen if p.refuted]
    tail = seen
    if refuted:
        # the smallest failing n is the clearest counterexample; for "eventually" claims the
        # largest one is what decides the verdict
        shown = refuted[-1] if claim.eventually else refuted[0]
        ev["counterexample"] = dict(shown.extra["counterexample"], point=shown.point)
        if claim.path is not None and not seen[-1].refuted:
            first = next(i for i in range(len(seen)) if not any(q.refuted for q in seen[i:]))
            ev["holds_from"] = seen[first].point
            tail = seen[first:]
        if not claim.eventually or seen[-1].refuted:
            return Verdict.REFUTED, ev
    if any(p.undecided for p in (tail if claim.eventually else seen)):
        return Verdict.INCONCLUSIVE, dict(ev, reason="float64 and mpmath up to %d digits could not decide "
                                                     "the sign of some slacks" % precision.DPS_SCHEDULE[-1])
    return Verdict.HOLDS, ev


def record(claim: Claim, verdict: Verdict, evidence: dict) -> dict:
    """A claim's entry in results.json (schema attncheck-results/1)."""
    return {
        "id": claim.id, "paper": claim.paper, "label": claim.label, "part": claim.part,
        "kind": claim.kind.value, "relation": claim.relation if claim.kind.random else None,
        "statement": claim.statement, "source": claim.source,
        "interpretation": claim.interpretation, "verdict": verdict.value, "evidence": _jsonable(evidence),
        "erratum": claim.erratum.to_json() if claim.erratum else None,
    }


def _jsonable(x):
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating, float)):
        v = float(x)
        return v if np.isfinite(v) else repr(v)
    if isinstance(x, np.bool_):
        return bool(x)
    if x is None or isinstance(x, (str, int, bool)):
        return x
    return repr(x)
