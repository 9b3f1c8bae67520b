"""Run one claim: choose the check and budget, search every path point, decide, record."""
from __future__ import annotations

import time
import traceback

import numpy as np

from attncheck import stats
from attncheck.core.claims import Claim, Kind, Verdict
from attncheck.core.profiles import Profile, get_profile
from attncheck.core.record import case_data
from attncheck.engine import cost
from attncheck.engine.checks import AsymptoticCheck, DeterministicCheck, ExpectationCheck, ProbabilisticCheck, short
from attncheck.engine.extend import settle
from attncheck.engine.search import EvaluationFailed, carry_worst, search_point
from attncheck.engine.verdict import decide
from attncheck.numeric.precision import Escalation, NonFinite

_CHECKS = {Kind.IDENTITY: DeterministicCheck, Kind.INEQUALITY: DeterministicCheck,
           Kind.PROBABILISTIC: ProbabilisticCheck, Kind.ASYMPTOTIC: AsymptoticCheck,
           Kind.EXPECTATION: ExpectationCheck}


def alpha_per_test(claim: Claim, prof: Profile, n_random_claims: int) -> tuple[float, float]:
    """(per claim, per test) levels: Bonferroni over claims, then over the confirmations (path points x
    ``prof.confirm`` cases x the looks of one confirmation); the screened cases spend nothing (:mod:`.screen`)."""
    alpha_claim = stats.bonferroni(prof.alpha, max(prof.claims, n_random_claims))
    looks = len(stats.looks(*claim.mc_sizes(prof.mc_first, prof.confirm_budget)))
    return alpha_claim, alpha_claim / (len(claim.points(prof.name)) * prof.confirm * looks)


def run(claim: Claim, profile: str | Profile = "quick", seed: int = 0, n_random_claims: int = 1,
        progress=None, stages=(), first=None) -> dict:
    """Check one claim and return its results.json record (docs/results-schema.md).

    ``stages`` run after the sampled verdict (:func:`.verdict.decide`); ``first(claim, profile name)``, before the
    search, returns the certification of a box that covers the claim's domain or None: where it returns one, the
    claim is CERTIFIED and no case is drawn (:func:`covered`). :func:`attncheck.run.session.run_claim` passes the
    certification as both and adds the replay command."""
    prof = profile if isinstance(profile, Profile) else get_profile(profile)
    if n_random_claims < 1:
        raise ValueError("n_random_claims must be >= 1")
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    start = time.perf_counter()
    esc = Escalation()
    cost_class, proxy = cost.choose(claim, prof.name)
    budget = prof.budget(claim.kind.random, cost_class.value)
    alpha_claim = alpha_test = None
    if claim.kind.tested:
        alpha_claim, alpha_test = alpha_per_test(claim, prof, n_random_claims)
    seen = []
    try:
        cert = first(claim, prof.name) if first is not None and not claim.kind.random else None
        if cert is not None:
            verdict, evidence = Verdict.CERTIFIED, covered(claim, prof.name, cert)
        else:
            verdict, evidence = _search(claim, prof, budget, seed, esc, alpha_test, progress, stages, seen)
    except EvaluationFailed as e:
        verdict, evidence = Verdict.ERROR, failed_evaluation(e)
    except NonFinite as e:
        verdict, evidence = Verdict.ERROR, {"error": f"non-finite value: {e}"}
    except Exception as e:  # an evaluation that fails is an ERROR, never a pass
        verdict = Verdict.ERROR
        failed = e.subgroup(EvaluationFailed) if isinstance(e, ExceptionGroup) else None  # several bugs found
        evidence = failed_evaluation(failed.exceptions[0]) if failed else \
            {"error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc()}
    if verdict is Verdict.REFUTED and claim.erratum is not None:
        verdict = Verdict.ERRATUM
    evidence.update({
        "profile": prof.name, "seed": seed, "seconds": round(time.perf_counter() - start, 3),
        "cost": cost_class.value, "budget": {"examples": budget.examples, "corners": budget.corners,
                                             "optimizer_starts": budget.starts, "optimizer_evals": budget.evals,
                                             "design": budget.design},
        "cases": sum(p.cases for p in seen), "escalation": {
            "evaluated": esc.evaluated, "escalated": esc.escalated, "undecided": esc.undecided,
            "sign_flips": esc.flipped, "max_dps": esc.max_dps, "exact": esc.exact, "constants": esc.constants},
    })
    if proxy is not None:
        evidence["cost_proxy"] = proxy
    if prof.scale != 1.0:
        evidence["budget"]["scale"] = prof.scale
    if claim.kind.tested:
        evidence["alpha_per_test"] = alpha_test
        evidence["alpha_per_claim"] = alpha_claim
        first, most = claim.mc_sizes(prof.mc_first, prof.confirm_budget)
        evidence["confirmation"] = {"screen_draws": claim.mc_sizes(prof.screen, prof.screen)[1],
                                    "screen_alpha": stats.SCREEN_ALPHA, "cases_per_point": prof.confirm,
                                    "first_look": first, "draws_max": most}
    return record(claim, verdict, evidence)


def _search(claim, prof, budget, seed, esc, alpha_test, progress, stages, seen: list) -> tuple[Verdict, dict]:
    """Search every path point (appending each to ``seen``), extend an asymptotic path, decide."""
    checks = []
    for point in claim.points(prof.name):
        checks.append(_CHECKS[claim.kind](claim, prof, budget, seed, point, esc, alpha_test))
        seen.append(search_point(checks[-1], point))
        if progress:
            progress(claim, seen[-1])
    if claim.carry_worst:
        carry_worst(checks, seen)
    extended = {}
    if claim.kind is Kind.ASYMPTOTIC:
        extended = settle(claim, prof, checks, seen, lambda point: AsymptoticCheck(
            claim, prof, budget, seed, point, esc, alpha_test), progress)
    verdict, evidence = decide(claim, seen, prof.name, stages)
    if extended:
        evidence["extended"] = extended
    return verdict, evidence


def covered(claim: Claim, profile: str, certification: dict) -> dict:
    """The evidence of a claim certified before its search (``first``): the certification, and every path point
    with no case drawn (``covered``: the proof covers the point's domain)."""
    return {"path": [{"point": point, "cases": 0, "stages": {}, "refuted": False, "covered": True}
                     for point in claim.points(profile)], "certification": certification}


def failed_evaluation(e: EvaluationFailed) -> dict:
    """ERROR evidence: the failing case (shrunk by Hypothesis where it shrinks) and the
    traceback of the evaluator's failure, down to the frame that raised it."""
    cause = e.__cause__ or e
    error = f"non-finite value: {cause}" if isinstance(cause, NonFinite) else f"{type(cause).__name__}: {cause}"
    return {"error": error, "failing_case": {"case": short(e.case, 4000), "case_data": case_data(e.case),
                                             "point": e.point, "found_by": e.stage},
            "traceback": "".join(traceback.format_exception(type(cause), cause, cause.__traceback__))}


def record(claim: Claim, verdict: Verdict, evidence: dict) -> dict:
    """A claim's entry in results.json (:class:`attncheck.core.record.ClaimRecord`)."""
    return {
        "id": claim.id, "paper": claim.paper, "label": claim.label, "part": claim.part,
        "kind": claim.kind.value, "relation": claim.relation if claim.kind.random else None,
        "statement": claim.statement, "source": claim.source,
        "reading": claim.reading.to_json(), "verdict": verdict.value, "evidence": _jsonable(evidence),
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
