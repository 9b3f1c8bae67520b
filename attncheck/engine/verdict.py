"""The verdict policy: from what the search saw at each path point to one verdict.

- Deterministic and probabilistic claims: REFUTED on a violation (a probabilistic one confirmed on
  fresh draws, :mod:`.screen`; for ``eventually`` claims only at the end of the path, judged by
  :func:`failure_trend`: REFUTED when the failure rate levels off above the allowed level over
  the tail, HOLDS with the extrapolated n from which it holds when the fit supports a rate
  falling to it, INCONCLUSIVE otherwise), INCONCLUSIVE when no precision nor exact evaluation
  decides some slack, HOLDS otherwise. A probabilistic HOLDS is *confirmed* when every confirmed
  case's one-sided 95% lower bound reaches the claim (and every suspect was confirmed), *not
  refuted* otherwise; an expectation HOLDS likewise when every case's one-sided 95% interval of
  every mean lies on the claimed side of 0 (``==``: never).
- Asymptotic claims: judged on the trend of the implied constant along the path.
- A certificate (interval branch and bound) may upgrade HOLDS to CERTIFIED or refute.
"""
from __future__ import annotations

import math

from attncheck import stats
from attncheck.core.claims import Claim, Kind, Verdict
from attncheck.engine import series
from attncheck.engine.checks import Point


def path_n(point) -> float:
    """The size n of a path point: the point itself, its first coordinate, or its "n"."""
    if isinstance(point, dict):
        return float(point["n"])
    if isinstance(point, (tuple, list)):
        return float(point[0])
    return float(point)


def point_summary(p: Point) -> dict:
    out = {"point": p.point, "cases": p.cases, "stages": dict(p.stages), "refuted": p.refuted}
    if p.samples:
        out["draws"] = p.samples
    if p.worst:
        out["worst"] = p.worst
    if p.undecided:
        out["undecided"] = p.undecided
    if p.undecided_cases:
        out["undecided_cases"] = p.undecided_cases
    if p.constants:
        out["float_constants"] = {"cases": p.constants, "first": p.constant_case}
    if p.confirmed:
        out.update(suspects=p.suspects, confirmed=p.confirmed)
    if p.outside:
        out.update(outside=p.outside, outside_case=p.outside_case)
    return out


def decelerating(n: list, c: list) -> bool:
    """The implied constant's log-slope over the last step is at most half that of the step before.

    A constant approaching a finite limit from below (c - a/n, the usual pre-asymptotic pattern)
    shows a significant upward fit on a short path, but its log-slope shrinks geometrically; a
    power n^e (or log n) keeps it (nearly) constant. Such a rise is never taken as a refutation.
    """
    if len(c) < 3 or min(c[-3:]) <= 0:
        return False
    s1 = math.log(c[-2] / c[-3]) / math.log(n[-2] / n[-3])
    s2 = math.log(c[-1] / c[-2]) / math.log(n[-1] / n[-2])
    return s1 > 0 and s2 <= s1 / 2


def tail_fit(n: list, c: list):
    """The power-law fit of the implied constant over the last half of a path of more than 3 points (at least 3),
    or None. A constant that rises early (c - a/n) and has slowed over the tail, where noise alone can make the
    last steps rise, shows no growth without bound; growth that keeps its pace there does."""
    if len(c) <= 3:
        return None
    k = max(3, (len(c) + 1) // 2)
    return stats.fit_power_law(n[-k:], c[-k:])


def _asymptotic(points: list[Point]) -> tuple[Verdict, dict]:
    n = [path_n(p.point) for p in points]
    c = [p.worst["implied_constant"] for p in points]
    if min(c) <= 0:
        return Verdict.HOLDS, {"implied_constant_max": max(c), "note": "implied constant reaches 0"}
    fit = stats.fit_power_law(n, c)
    rising = all(c[i] < c[i + 1] for i in range(len(c) - 3, len(c) - 1))
    ev = {"implied_constant_max": max(c), "growth_exponent": fit.slope,
          "growth_exponent_ci95": [fit.lower, fit.upper]}
    if fit.lower > 0 and rising and decelerating(n, c):
        return Verdict.INCONCLUSIVE, dict(ev, reason="implied constant rises but decelerates (the last log-slope is "
                                                      "at most half the previous one, as c - a/n does): consistent "
                                                      "with a finite limit; extend the path to decide")
    if fit.lower > 0 and rising:
        tail = tail_fit(n, c)
        if tail is not None and tail.lower <= 0 and tail.slope < fit.slope:
            return Verdict.INCONCLUSIVE, dict(
                ev, tail_growth_exponent=tail.slope, tail_growth_exponent_ci95=[tail.lower, tail.upper],
                reason="implied constant rises along the path, but more slowly and not significantly over its "
                       f"last {tail.points:d} points (n >= {n[-tail.points]:g}): consistent with a finite limit "
                       "approached from below; extend the path to decide")
        return Verdict.REFUTED, dict(ev, reason=f"the needed constant grows like n^{fit.slope:.3g} along the path")
    if fit.slope > 0:
        return Verdict.INCONCLUSIVE, dict(ev, reason="implied constant trends upward but not significantly; "
                                                      "extend the path (deep profile) to decide")
    return Verdict.HOLDS, ev


_SEVERITY = {Verdict.REFUTED: 2, Verdict.INCONCLUSIVE: 1, Verdict.HOLDS: 0}


def _across(points: list[Point], x: str) -> tuple[Verdict, dict]:
    """A bound with an unspecified e^{C x} factor (e.g. O(e^{CL}/sqrt n)): for fixed x the implied constant
    must stay bounded along n, so the n-trend is judged at each x (the most severe verdict wins); across x
    any finite C is admissible, so the rate C of the largest constant, c_max(x) ~ a e^{C x}, is fitted and
    reported (a log-linear fit), never used to refute."""
    groups = {dict(key)[x]: g for key, g in series.split(points)}
    per = {v: _asymptotic(g) for v, g in sorted(groups.items())}
    verdict = max((v for v, _ in per.values()), key=_SEVERITY.get)
    ev = {"per_" + x: [dict(e, **{x: v, "verdict": vd.value}) for v, (vd, e) in per.items()],
          "implied_constant_max": max(e["implied_constant_max"] for _, e in per.values())}
    xs = sorted(groups)
    cmax = [max(p.worst["implied_constant"] for p in groups[v]) for v in xs]
    if len(xs) >= 3 and min(cmax) > 0:
        fit = stats.fit_power_law([math.exp(v) for v in xs], cmax)
        ev.update({"rate_across_" + x: fit.slope, f"rate_across_{x}_ci95": [fit.lower, fit.upper]})
    bad = [v for v, (vd, _) in per.items() if vd is verdict and verdict is not Verdict.HOLDS]
    if bad:
        ev["reason"] = "at {} = {}: {}".format(x, bad[0], per[bad[0]][1].get("reason", ""))
    return verdict, ev


#: level of the eventually-rule's tests: the fall over the tail (two-sided interval of its exponent) and the floor
#: (one-sided profile bound); a chance fall of a flat rate would spare a false claim, so it is the suite's alpha
TREND_ALPHA = 0.01
#: level of the floor fit's goodness of fit: a path it does not describe is extrapolated neither way (stricter than
#: TREND_ALPHA, so that a smooth trend is rarely taken for steps; a stepped one, e.g. deng2023 lemma-e.3/part-2,
#: has a deviance of hundreds)
FIT_ALPHA = 0.001


def _tail(pos: list, n_half: float) -> list:
    """The points of the last half of the path (n >= n_half) with 0 < failures < draws, at least 3 (else the
    last 3 such points)."""
    tail = [r for r in pos if r[0] >= n_half]
    return tail if len(tail) >= 3 and len({r[0] for r in tail}) >= 2 else pos[-3:]


def failure_trend(points: list[Point]) -> dict | None:
    """The failure rate 1 - pass_rate of each point's worst (confirmed) case along the path, judged twice.

    - **Tail**: a power of n over the last half of the path (:func:`stats.fit_binomial_power_law`, weighted by the
      draws); ``falls`` when the 99% interval of its exponent lies below 0.
    - **Floor**: floor + a n^slope over the whole path by binomial maximum likelihood
      (:func:`stats.fit_binomial_floor`), with the floor's one-sided 99% profile lower bound.

    ``levels_off`` (the claim is REFUTED when its last point fails): the tail does not fall significantly, or the
    floor fit describes the path (``fits``: its deviance is not significant at FIT_ALPHA = 0.1%) and puts the floor
    significantly above the allowed failure rate 1 - p. ``holds_from_extrapolated(_log10)``: only where the fit
    describes the path and supports a rate falling to the allowed level (its best floor lies below it, and no
    floor at all is within the floor's 99% profile interval), the n at which the fitted rate reaches it; beyond
    the path's last n it is an extrapolation (``extrapolated``). A path the floor fit does not describe (steps,
    a different regime at each point) is extrapolated neither way. None when fewer than 3 points have
    0 < failures < draws.
    """
    rows = [(path_n(p.point), p.worst["draws"] - p.worst["successes"], p.worst["draws"], p.worst["claimed"])
            for p in points if p.worst and "pass_rate" in p.worst]
    pos = [(n, k, m) for n, k, m, _ in rows if 0 < k < m]
    if len(pos) < 3 or len({n for n, _, _ in pos}) < 2:
        return None
    tail = _tail(pos, rows[len(rows) // 2][0])
    fit = stats.fit_binomial_power_law(*zip(*tail, strict=True), alpha=TREND_ALPHA)
    allowed = 1.0 - rows[-1][3]
    floor = stats.fit_binomial_floor(*zip(*[r[:3] for r in rows], strict=True), level=allowed, alpha=TREND_ALPHA)
    falls = fit.lower < 0 and fit.upper < 0
    out = {"failure_rate": [[n, k / m] for n, k, m, _ in rows], "allowed": allowed, "tail_from": tail[0][0],
           "exponent": fit.slope, "exponent_ci99": [fit.lower, fit.upper], "falls": falls,
           "floor": floor.floor, "floor_lower99": floor.floor_lower,
           "floor_fit": {"scale": floor.scale, "slope": floor.slope, "deviance": floor.deviance,
                         "dof": floor.points - 3, "fits": floor.fits(FIT_ALPHA)}}
    fits = out["floor_fit"]["fits"]
    out["levels_off"] = not falls or (fits and floor.floor_lower > allowed)
    if not out["levels_off"] and fits and floor.floor < allowed and floor.floor_lower == 0.0:
        # in logs: a slope near 0 puts the n beyond float range; the value itself only where it is finite
        log10_n = floor.reaches(allowed)
        out["holds_from_extrapolated_log10"] = log10_n
        out["extrapolated"] = log10_n > math.log10(rows[-1][0])
        if log10_n < 300:
            out["holds_from_extrapolated"] = 10.0 ** log10_n
    return out


def _eventually(ev: dict, seen: list[Point]) -> tuple[Verdict, dict]:
    """An eventually-claim that fails at its last point (:func:`failure_trend`): REFUTED when its failure rate
    levels off above the allowed level over the tail; HOLDS (not refuted), with the n from which it holds labelled
    as an extrapolation, when the fit supports a rate falling to the allowed level; INCONCLUSIVE otherwise."""
    trend = failure_trend(seen)
    if trend is not None:
        ev["failure_trend"] = trend
    n_last = path_n(seen[-1].point)
    if trend is None or trend["levels_off"]:
        why = "fewer than 3 points with failures to fit" if trend is None else (
            f"its failure rate does not fall significantly over the tail (n >= {trend['tail_from']:g})"
            if not trend["falls"] else
            f"its failure rate levels off at {trend['floor']:.3g} (99% lower bound {trend['floor_lower99']:.3g}) "
            f"above the allowed {trend['allowed']:.3g}")
        return Verdict.REFUTED, dict(ev, reason=f"fails at the last point (n = {n_last:g}), and {why}")
    if "holds_from_extrapolated_log10" in trend:
        where = "an extrapolation beyond the path" if trend["extrapolated"] else "within the path"
        return Verdict.HOLDS, dict(ev, strength="not refuted", reason=(
            f"fails at every n up to the last point (n = {n_last:g}), but its failure rate falls over the tail "
            f"(like n^{trend['exponent']:.3g}) with no floor above the allowed {trend['allowed']:.3g}; the fit reaches "
            f"it from n ~ 10^{trend['holds_from_extrapolated_log10']:.3g}, {where}"))
    fit = trend["floor_fit"]
    if not fit["fits"]:
        return Verdict.INCONCLUSIVE, dict(ev, reason=(
            f"fails at the last point (n = {n_last:g}); its failure rate falls over the tail, but not as a smooth "
            f"trend (the floor fit's deviance is {fit['deviance']:.3g} on {fit['dof']:d} degrees of freedom, "
            "significant at 0.1%): it can be extrapolated neither to a plateau nor to the allowed level; points "
            "beyond the path would decide"))
    return Verdict.INCONCLUSIVE, dict(ev, reason=(
        f"fails at the last point (n = {n_last:g}); its failure rate falls over the tail, but the floor fit puts "
        f"its limit at {trend['floor']:.3g}, not below the allowed {trend['allowed']:.3g} (nor significantly "
        "above it): points beyond the path would decide"))


def _strength(claim: Claim, points: list[Point]) -> str | None:
    """*confirmed*: every confirmed case's one-sided 95% lower bound reaches the claim and every suspect of the
    screen was among the confirmed cases; *not refuted* otherwise."""
    if not claim.kind.tested:  # probabilistic and expectation claims
        return None
    gaps = [p.min_lower_gap for p in points if p.min_lower_gap is not None]
    unconfirmed = any(p.unconfirmed_suspects for p in points)
    return "confirmed" if gaps and min(gaps) >= 0 and not unconfirmed else "not refuted"


def _series(claim: Claim, seen: list[Point]) -> tuple[Verdict, dict]:
    """A path over (beta, n) (:mod:`.series`): each series judged on its own, then combined."""
    judged = [(dict(key), *_one_series(claim, pts)) for key, pts in series.split(seen)]
    ev: dict = {"path": [point_summary(p) for p in seen], "series": []}
    for key, verdict, sev in judged:
        row = {"series": key, "verdict": verdict.value, "n_max": path_n(sev["path"][-1]["point"])}
        row.update({k: sev[k] for k in ("holds_from", "strength", "failure_trend", "reason") if k in sev})
        ev["series"].append(row)
    for verdict in (Verdict.REFUTED, Verdict.INCONCLUSIVE):
        bad = [(key, sev) for key, v, sev in judged if v is verdict]
        if bad:
            key, sev = bad[0]
            if "counterexample" in sev:
                ev["counterexample"] = sev["counterexample"]
            return verdict, dict(ev, reason=f"series {key}: " + sev.get("reason", "fails at its largest n"))
    strengths = {sev.get("strength") for _, _, sev in judged} - {None}
    if strengths:
        ev["strength"] = "confirmed" if strengths == {"confirmed"} else "not refuted"
    return Verdict.HOLDS, ev


def _sampled(claim: Claim, seen: list[Point]) -> tuple[Verdict, dict]:
    if claim.path is not None and len(series.split(seen)) > 1:
        return _series(claim, seen)
    return _one_series(claim, seen)


def _one_series(claim: Claim, seen: list[Point]) -> tuple[Verdict, dict]:
    ev: dict = {"path": [point_summary(p) for p in seen]} if claim.path is not None else {}
    if claim.path is None:
        ev.update(point_summary(seen[0]))
        ev.pop("point")
    refuted = [p for p in seen if p.refuted]
    tail = seen
    if refuted:
        # the smallest failing n is the clearest counterexample; for "eventually" claims the
        # largest one is what decides the verdict
        shown = refuted[-1] if claim.eventually else refuted[0]
        ev["counterexample"] = dict(shown.counterexample, point=shown.point)
        if claim.path is not None and not seen[-1].refuted:
            first = next(i for i in range(len(seen)) if not any(q.refuted for q in seen[i:]))
            ev["holds_from"] = seen[first].point
            tail = seen[first:]
        if not claim.eventually:
            return Verdict.REFUTED, ev
        if seen[-1].refuted:
            if claim.kind is not Kind.PROBABILISTIC:
                return Verdict.REFUTED, ev
            return _eventually(ev, seen)
    if not any(p.cases for p in seen) and any(p.outside for p in seen):
        return Verdict.INCONCLUSIVE, dict(ev, reason="no case inside the claim's hypotheses: every case drawn "
                                                     "was outside them (the evaluator raised Outside)")
    undecided = [p for p in (tail if claim.eventually else seen) if p.undecided]
    if undecided:
        first = next((c for p in undecided for c in p.undecided_cases), None)
        shown = f"; e.g. at {first['case']} (element {first['element']}): {first['undecided']}" if first else ""
        return Verdict.INCONCLUSIVE, dict(ev, reason=f"float64, mpmath up to {claim.precisions[-1]:d} digits and "
                                                     f"exact evaluation could not decide the sign of some slacks{shown}")
    strength = _strength(claim, tail if claim.eventually else seen)
    if strength:
        ev["strength"] = strength
    return Verdict.HOLDS, ev


def decide(claim: Claim, seen: list[Point], profile: str | None = None, stages=()) -> tuple[Verdict, dict]:
    """The verdict and its evidence; a one-sided witness (``refutable=False``) never refutes.

    ``stages``: what runs after the sampled verdict, in order, each ``(claim, verdict, evidence, profile) ->
    (verdict, evidence)`` (the certification of :mod:`attncheck.certify`); ``profile`` is the profile's name."""
    if claim.kind is Kind.ASYMPTOTIC:
        verdict, extra = _asymptotic(seen) if claim.across is None else _across(seen, claim.across)
        verdict, ev = verdict, dict({"path": [point_summary(p) for p in seen]}, **extra)
    else:
        verdict, ev = _sampled(claim, seen)
    for stage in stages:
        verdict, ev = stage(claim, verdict, ev, profile)
    if verdict is Verdict.REFUTED and not claim.refutable:
        ev["would_refute"] = ev.pop("reason", "a failing case")
        return Verdict.INCONCLUSIVE, dict(ev, reason=(
            "the evaluator is a one-sided witness (e.g. a lower bound on a sup checked against an Omega "
            "claim): its failure cannot refute the claim"))
    return verdict, ev
