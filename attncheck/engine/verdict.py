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
- Asymptotic claims: judged on the trend of the implied constant along the path (bounded), or of the quantity
  itself (tends to 0, :mod:`.vanishing`).
- A certificate (interval branch and bound) may upgrade HOLDS to CERTIFIED or refute.
"""
from __future__ import annotations

import math

import numpy as np

from attncheck import stats
from attncheck.core.claims import Claim, Kind, Verdict
from attncheck.engine import series
from attncheck.engine.checks import Point
from attncheck.engine.growth import ASYM_ALPHA, RESOLUTION, draws_to_decide, tail_growth
from attncheck.engine.vanishing import vanishing_rule


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
    if p.estimate:
        out["estimate"] = p.estimate
    return out


#: the slowest approach to a limit modelled as bounded: c_inf - a n^-g with g >= G_MIN
G_MIN = 0.25


def estimates(points: list[Point]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(n, implied constant, standard error) per point: the re-estimate on fresh draws where the
    engine made one (:meth:`AsymptoticCheck.reestimate`), else the search's worst value taken as exact."""
    n = np.array([path_n(p.point) for p in points], float)
    c = np.array([p.estimate["value"] if p.estimate else p.worst["implied_constant"] for p in points], float)
    se = np.array([p.estimate["se"] if p.estimate else 0.0 for p in points], float)
    return n, c, se


def _limit(n, c, se) -> dict:
    """The fitted limit: c = c_inf - a (n / n_last)^-g by weighted least squares, g in {1/4, 1/2, 1, 2}
    (the best chi^2 wins), over the whole path; the limit c_inf with its standard error."""
    best = None
    for g in (G_MIN, 0.5, 1.0, 2.0):
        fit = stats.line_fit((n / n[-1]) ** -g, c, se)
        if best is None or fit.chi2 < best[1].chi2:
            best = (g, fit)
    g, fit = best
    return {"limit": float(fit.coef[0]), "limit_se": float(fit.se[0]), "limit_model": f"c_inf - a n^-{g:g}",
            "limit_fit_a": float(-fit.coef[1]), "limit_g": g}


def asymptotic_rule(n, c, se, alpha: float = ASYM_ALPHA, resolution: float = RESOLUTION) -> tuple[Verdict, dict]:
    """Bounded or growing, from the implied constants c +- se along the path n (increasing).

    - Growth over the tail (the last half of the path, at least 2 points): c ~ a + b log n by weighted least
      squares; the growth exponent is e = b / S with S the mean |c| over the tail (for c = A n^e,
      dc/dlog n = e c, and the fit's slope is that at the middle of the tail), with one-sided (1 - alpha)
      bounds from the stated errors. When the tail has more points than parameters and scatters beyond its
      errors, the upper bound is widened by the Birge ratio (scatter can hide growth), the lower one is not:
      growth that accelerates misfits a line in log n by itself, and the refutation needs the steps and the
      curvature below as well. When every tail constant is exact (se 0, a deterministic evaluator) and
      positive, nothing scatters: the bounds are the smallest and largest exponents log(c_{i+1}/c_i) /
      log(n_{i+1}/n_i) of the tail's steps (a curve such as c = A/n misfits the line, and no error hides growth).
    - The bounded model: every approach c_inf - a n^-g to a limit from below with g >= G_MIN is concave or
      linear in u = n^-G_MIN (its slope in u shrinks as n grows), while a power n^e or log n is convex in u
      (its slope in u grows without bound). Over the last three points, the slope in u of the last step
      minus that of the step before (the second divided difference) > 0 at level alpha rejects every such
      bounded model.
    - REFUTED when growth faster than n^resolution is significant (lower bound of e > resolution), the
      constant rises significantly at each of the last two steps (a dip followed by a rise is not growth)
      and the bounded model is rejected; HOLDS when growth faster than n^resolution is excluded (upper
      bound of e < resolution); INCONCLUSIVE otherwise, with what would decide it. The resolution is
      symmetric: growth slower than n^resolution is told apart from a limit in neither direction, so that
      a worst case found a little higher at the last points by the search's luck (an error the re-estimate
      does not see) refutes nothing. No single point decides: a constant <= 0 at a point is one more
      value in the fits (they are on c, not log c), and only significant quantities enter the rule.
    """
    n, c, se = (np.asarray(v, float) for v in (n, c, se))
    k = n.size
    z = stats.z_one_sided(alpha)
    g = tail_growth(n, c, se, z)
    e, lo, hi, line, S, m, exact = g.e, g.lo, g.hi, g.line, g.S, g.m, g.exact
    ev = {"implied_constant_max": float(np.max(c)),
          "estimates": [[float(a), float(v), float(s)] for a, v, s in zip(n, c, se, strict=True)],
          "growth_exponent": e, "growth_exponent_ci": [lo, hi], "growth_level": 1 - 2 * alpha,
          "growth_over": [float(n[k - m]), float(n[-1])], "resolution": resolution}
    if exact:
        ev["exact"] = "every tail constant is exact (se 0): the bounds are the smallest and largest step exponents"
    convex, short = False, []  # short: (estimate, se) of each refutation condition that is not significant
    if k >= 3:
        d, sd = stats.second_difference((n[-3:] / n[-1]) ** -G_MIN, c[-3:], se[-3:])
        ev["curvature"] = {"in": f"n^-{G_MIN:g}", "over": [float(v) for v in n[-3:]], "value": d,
                           "z": d / sd if sd > 0 else (math.inf if d > 0 else -math.inf if d < 0 else 0.0)}
        convex = d - z * sd > 0
        rises = [(c[i + 1] - c[i], math.hypot(se[i], se[i + 1])) for i in (k - 3, k - 2)]
        short = [(r, s) for r, s in rises if r - z * s <= 0] + ([] if convex else [(d, sd)])
    ev.update(_limit(n, c, se) if k >= 3 else {})
    steps = k >= 3 and all(r - z * s > 0 for r, s in rises)
    if lo > resolution and steps and convex:
        return Verdict.REFUTED, dict(ev, reason=(
            f"the implied constant grows like n^{e:.3g} over n in [{n[k - m]:g}, {n[-1]:g}] (one-sided "
            f"{1 - alpha:g} lower bound {lo:.3g} > the resolution {resolution:g}), rises at each of the last "
            f"two steps, and curves upward in n^-{G_MIN:g}, which no approach c_inf - a n^-g to a limit with "
            f"g >= {G_MIN:g} does"))
    if hi < resolution:
        return Verdict.HOLDS, ev
    return Verdict.INCONCLUSIVE, dict(ev, **_undecided(n, e, line, S, z, resolution, lo, ev, short))


def _larger_n(n, resolution: float, ev: dict) -> float | None:
    """The n where the fitted limit model's local growth exponent falls to half the resolution (at or before the
    path's last n where the fit puts it there already), or None without a rising fitted limit."""
    a, g, lim = ev.get("limit_fit_a", 0.0), ev.get("limit_g", G_MIN), ev.get("limit", 0.0)
    if a > 0 and lim > 0:
        # local exponent of c_inf - a u, u = (n / n_last)^-g: a g u / (c_inf - a u) = resolution / 2
        u = (resolution / 2) * lim / (a * (g + resolution / 2))
        return float(n[-1] * u ** (-1 / g))
    return None


def _with_larger_n(out: dict, decide: dict, n, resolution: float, ev: dict) -> dict:
    n_star = _larger_n(n, resolution, ev)
    fit = f"the fitted limit {ev.get('limit', 0.0):.4g} ({ev.get('limit_model')})"
    if n_star is not None and n_star > n[-1]:
        decide["n"] = n_star
        out["reason"] += f"; {fit} would slow the growth to n^{resolution / 2:g} by n ~ {n_star:.3g}"
    elif n_star is not None:
        decide["tail_from"] = n_star
        out["reason"] += (f"; {fit} puts the local growth below n^{resolution / 2:g} from n ~ {n_star:.3g}: a path "
                          "whose tail (its last half) starts there would decide")
    if decide:
        out["decide_with"] = decide
    return out


def _undecided(n, e, line, S, z, resolution, lo, ev, short) -> dict:
    """Why the rule could not decide, and what would: while the interval of the growth exponent straddles
    the resolution, more draws (:func:`.growth.draws_to_decide`), or, where the tail's curvature alone keeps the upper bound
    above the resolution, a larger n; once growth at the resolution is significant, more draws where each
    refutation condition that is not yet significant (a rise of the last two steps, the curvature; ``short``) has
    a positive estimate (the factor that would make the least significant one so), and a larger n (where the
    fitted limit model's local growth exponent falls to half the resolution)."""
    b, sb = float(line.coef[1]), float(line.se[1])
    what = f"growth n^{e:.3g} over the tail, one-sided bounds [{lo:.3g}, {(b + z * sb) / S:.3g}]"
    if lo <= resolution and sb > 0:
        side = "faster than" if e < resolution else "at least as fast as"
        factor = draws_to_decide(line, S, z, resolution, upper=e < resolution)
        if math.isfinite(factor):
            return {"decide_with": {"draws_factor": factor},
                    "reason": f"{what}: the errors cannot tell growth {side} n^{resolution:g} from none; about "
                              f"{factor:.2g} times the draws at the tail points would, if the estimate stays where "
                              "it is"}
        out = {"reason": f"{what}: growth {side} n^{resolution:g} is not excluded, and if the estimates stay where "
                         f"they are, no number of draws would exclude it: the tail's constants curve in log n beyond "
                         f"their errors (chi2 {line.chi2:.3g} on {line.dof} degrees of freedom), and that misfit "
                         f"alone keeps the upper bound above n^{resolution:g}"}
        return _with_larger_n(out, {}, n, resolution, ev)
    out = {"reason": f"{what}: rising faster than n^{resolution:g}, but not shown to grow without bound (the last "
                     "steps do not both rise, or do not curve upward beyond every approach to a limit)"}
    decide = {}
    factor = max(((z * s / v) ** 2 if v > 0 and s > 0 else math.inf for v, s in short), default=math.inf)
    if math.isfinite(factor):
        decide["draws_factor"] = factor
        out["reason"] += (f"; each of them leans that way, and about {factor:.2g} times the draws at the last three "
                          "points would make it significant, if the estimates stay where they are")
    return _with_larger_n(out, decide, n, resolution, ev)


def _asymptotic(points: list[Point]) -> tuple[Verdict, dict]:
    return asymptotic_rule(*estimates(points))


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
    cmax = [float(np.max(estimates(groups[v])[1])) for v in xs]
    if len(xs) >= 3 and min(cmax) > 0:
        fit = stats.fit_power_law([math.exp(v) for v in xs], cmax)
        ev.update({"rate_across_" + x: fit.slope, f"rate_across_{x}_ci95": [fit.lower, fit.upper]})
    bad = [v for v, (vd, _) in per.items() if vd is verdict and verdict is not Verdict.HOLDS]
    if bad:
        ev["reason"] = "at {} = {}: {}".format(x, bad[0], per[bad[0]][1].get("reason", ""))
    return verdict, ev


def asymptotic_verdict(claim: Claim, seen: list[Point]) -> tuple[Verdict, dict]:
    """The asymptotic rule on the whole path, or at each value of ``claim.across``; the vanishing rule
    (:func:`.vanishing.vanishing_rule`) for a claim that its quantity tends to 0 (``claim.vanishes``)."""
    if claim.vanishes:
        return vanishing_rule(*estimates(seen))
    return _asymptotic(seen) if claim.across is None else _across(seen, claim.across)


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
        verdict, extra = asymptotic_verdict(claim, seen)
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
