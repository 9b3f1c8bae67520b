"""Settle an asymptotic claim: re-estimate every point's worst case, then extend an undecided path.

After the search, each point's worst case is re-estimated on fresh draws
(:meth:`.checks.AsymptoticCheck.reestimate`), so that the trend is fitted to unbiased values
with standard errors. While the rule (:func:`.verdict.asymptotic_verdict`) is INCONCLUSIVE, the
engine first multiplies the re-estimates at every point (``Profile.asym_more_draws``: smaller
errors) when the rule asks for draws (the growth interval straddles the resolution), then
continues the path's geometric progression in n (its smallest step ratio), one point per series at a time
(``Profile.asym_extra_points`` at most, never beyond the claim's ``n_max``; dict points keep their
other coordinates, list points are not extended). If the rule still asks for draws, and the factor it
names (times 3/2, as the estimate moves) stays within ``Profile.asym_max_draws``, the tail points of
each series (its last half, at least the last three) are re-estimated once more with that factor.
Every budget is a count, never a time.
"""
from __future__ import annotations

import math

from attncheck.core.claims import Claim, Verdict
from attncheck.core.profiles import Profile
from attncheck.engine import series
from attncheck.engine.checks import AsymptoticCheck, Point
from attncheck.engine.growth import tail_length
from attncheck.engine.search import carry_worst, search_point
from attncheck.engine.verdict import asymptotic_verdict, path_n

#: headroom on the draws factor the rule names: it assumes the estimate stays where it is
MARGIN = 1.5


def next_points(claim: Claim, points: list) -> list:
    """The next point of each series: its last n times the smallest ratio n_k / n_(k-1) along it (the
    ratio of a geometric path; on an irregular one the extension never steps further than the path did),
    the other coordinates kept. Empty when the path has list points, or every next n exceeds ``claim.n_max``."""
    out = []
    for _, pts in series.split(points):
        if isinstance(pts[-1], (list, tuple)) or len(pts) < 2:
            return []
        last, ns = pts[-1], [path_n(p) for p in pts]
        ratio = min(b / a for a, b in zip(ns[:-1], ns[1:], strict=True))
        n2 = ns[-1] * ratio
        if ratio <= 1 or (claim.n_max is not None and n2 > claim.n_max):
            continue
        n2 = int(round(n2)) if isinstance(last["n"] if isinstance(last, dict) else last, int) else n2
        out.append(dict(last, n=n2) if isinstance(last, dict) else n2)
    return out


def _reestimate(prof: Profile, checks: list[AsymptoticCheck], seen: list[Point], factor: int) -> None:
    for check, pt in zip(checks, seen, strict=True):
        base = prof.asym_rate_replicates if "se" in pt.worst else prof.asym_replicates
        check.reestimate(pt, factor * base)


def _draws_factor(ev: dict) -> float:
    """The largest draws factor the undecided rule (or one of its per-x series) asks for; 0 if none asks for draws
    rather than a larger n."""
    rows = [ev] + [e for key, v in ev.items() if key.startswith("per_") and isinstance(v, list) for e in v]
    return max((e.get("decide_with", {}).get("draws_factor", 0.0) for e in rows), default=0.0)


def _straddles(ev: dict) -> bool:
    """Whether the undecided rule (or one of its undecided per-x series) has an interval of the growth exponent
    whose lower bound is within the resolution: fresh draws move the estimates, so the engine's first step re-draws
    them even where the rule, reading the tail's misfit to a line as curvature, names no factor."""
    rows = [ev] if "verdict" not in ev else []
    rows += [e for key, v in ev.items() if key.startswith("per_") and isinstance(v, list)
             for e in v if e.get("verdict") == "INCONCLUSIVE"]
    return any(e.get("growth_exponent_ci", [math.inf])[0] <= e.get("resolution", -math.inf) for e in rows)


def tail_factor(factor: int, ev: dict, cap: int) -> int | None:
    """The replicate factor for the tail points: the factor so far times the one the rule names (times MARGIN),
    or None when the rule names none, an infinite one, or one past ``cap``."""
    want = factor * _draws_factor(ev) * MARGIN
    return math.ceil(want) if math.isfinite(want) and factor < math.ceil(want) <= cap else None


def _tails(checks: list[AsymptoticCheck], seen: list[Point]) -> tuple[list[AsymptoticCheck], list[Point]]:
    """The checks and points of each series' tail: what the rule fits (its last half, at least 3 points)."""
    pairs = list(zip(checks, seen, strict=True))
    tail = []
    for _, group in series.split([pt for _, pt in pairs]):
        tail += group[-max(3, tail_length(len(group))):]  # the steps and the curvature use the last three
    keep = {id(pt) for pt in tail}
    return [c for c, pt in pairs if id(pt) in keep], [pt for _, pt in pairs if id(pt) in keep]


def settle(claim: Claim, prof: Profile, checks: list[AsymptoticCheck], seen: list[Point], new_check,
           progress=None) -> dict:
    """Re-estimate, and extend while undecided; ``checks`` and ``seen`` grow in place (``new_check(point)``
    makes the check of an added point). Returns what was added (the evidence's ``extended``), or {}."""
    factor = 1
    _reestimate(prof, checks, seen, factor)
    added: dict = {}
    verdict, ev = asymptotic_verdict(claim, seen)
    if verdict is not Verdict.INCONCLUSIVE:
        return added
    if prof.asym_more_draws > 1 and (_draws_factor(ev) > 0 or _straddles(ev)):
        factor = prof.asym_more_draws
        _reestimate(prof, checks, seen, factor)
        added["replicates_factor"] = factor
    rounds = 0
    while asymptotic_verdict(claim, seen)[0] is Verdict.INCONCLUSIVE and rounds < prof.asym_extra_points:
        rounds += 1
        new = next_points(claim, [pt.point for pt in seen])
        if not new:
            break
        for point in new:
            checks.append(new_check(point))
            seen.append(search_point(checks[-1], point))
            if progress:
                progress(claim, seen[-1])
            added.setdefault("points", []).append(point)
        if claim.carry_worst:
            carry_worst(checks, seen)
        _reestimate(prof, checks, seen, factor)
    verdict, ev = asymptotic_verdict(claim, seen)
    want = tail_factor(factor, ev, prof.asym_max_draws)
    if verdict is Verdict.INCONCLUSIVE and want is not None:
        _reestimate(prof, *_tails(checks, seen), want)
        added["tail_replicates_factor"] = want
    return added
