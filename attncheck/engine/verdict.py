"""The verdict policy: from what the search saw at each path point to one verdict.

- Deterministic and probabilistic claims: REFUTED on a violation (for ``eventually``
  claims only at the end of the path, and only when the failure rate does not fall
  significantly along the path: a falling one is INCONCLUSIVE with the extrapolated n
  at which it would hold), INCONCLUSIVE when mpmath could not decide some slack,
  HOLDS otherwise. A probabilistic HOLDS is *confirmed* when every case's one-sided 95%
  lower bound reaches the claim, *not refuted* otherwise.
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


#: level of the "failure rate falls" test of eventually-claims (two-sided interval of the exponent)
TREND_ALPHA = 0.01


def failure_trend(points: list[Point]) -> dict | None:
    """Fit the worst case's failure rate 1 - pass_rate to a power of n along the path,
    weighted by the draws behind each point (:func:`stats.fit_binomial_power_law`).

    Returns the fit and, when it falls significantly (99% CI of the exponent below 0: a chance
    fall of a flat rate would spare a false claim, so the level is the suite's alpha = 0.01),
    the extrapolated n at which the failure rate reaches what the claim allows (1 - p
    at the last point). None when fewer than 3 points have a failure rate strictly between 0 and 1.
    """
    rows = [(path_n(p.point), p.worst["draws"] - p.worst["successes"], p.worst["draws"], p.worst["claimed"])
            for p in points if p.worst and "pass_rate" in p.worst]
    pos = [(n, k, m) for n, k, m, _ in rows if 0 < k < m]
    if len(pos) < 3 or len({n for n, _, _ in pos}) < 2:
        return None
    fit = stats.fit_binomial_power_law(*zip(*pos, strict=False), alpha=TREND_ALPHA)
    out = {"failure_rate": [[n, k / m] for n, k, m in pos], "exponent": fit.slope,
           "exponent_ci99": [fit.lower, fit.upper], "falls": fit.lower < 0 and fit.upper < 0}
    allowed = 1.0 - rows[-1][3]
    if out["falls"] and allowed > 0:
        n_last, f_last = pos[-1][0], pos[-1][1] / pos[-1][2]
        # f(n) = f_last (n / n_last)^slope reaches the allowed failure rate at n = 10^log10_n (in logs: a slope
        # near 0 puts it beyond float range; the value itself only where it is finite)
        log10_n = math.log10(n_last) + math.log10(allowed / f_last) / fit.slope
        out["holds_from_extrapolated_log10"] = log10_n
        if log10_n < 300:
            out["holds_from_extrapolated"] = 10.0 ** log10_n
    return out


def _strength(claim: Claim, points: list[Point]) -> str | None:
    if claim.kind is not Kind.PROBABILISTIC:
        return None
    gaps = [p.min_lower_gap for p in points if p.min_lower_gap is not None]
    return "confirmed" if gaps and min(gaps) >= 0 else "not refuted"


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
            trend = failure_trend(seen) if claim.kind is Kind.PROBABILISTIC else None
            if trend is None or not trend["falls"]:
                if trend is not None:
                    ev["failure_trend"] = trend
                return Verdict.REFUTED, ev
            ev["failure_trend"] = trend
            return Verdict.INCONCLUSIVE, dict(ev, reason=(
                "fails at the last point, but its failure rate falls like n^{:.3g} along the path; "
                "extrapolated to hold from n ~ 10^{:.3g}".format(trend["exponent"],
                                                           trend.get("holds_from_extrapolated_log10", math.inf))))
    if not any(p.cases for p in seen) and any(p.outside for p in seen):
        return Verdict.INCONCLUSIVE, dict(ev, reason="no case inside the claim's hypotheses: every case drawn "
                                                     "was outside them (the evaluator raised Outside)")
    if any(p.undecided for p in (tail if claim.eventually else seen)):
        return Verdict.INCONCLUSIVE, dict(ev, reason=f"float64 and mpmath up to {claim.precisions[-1]:d} digits "
                                                     "could not decide the sign of some slacks")
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
