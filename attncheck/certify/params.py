"""Certification of a deterministic claim from its own parameters and its own evaluator.

A claim declares ``certify=Parameters(box, case)``: its real parameters with closed
ranges, and how a case of its evaluator is built from them (integers such as n relaxed
to reals where the evaluator is analytic in them). The engine then runs the claim's
evaluator on arb balls (:class:`attncheck.numeric.interval.ARB`) by branch and bound over the
whole box:

- a sub-box whose every slack element is provably >= 0 (> 0 where strict) is proved;
- a sub-box with an element provably < 0 holds a counterexample: its midpoint is
  re-checked in mpmath and reported (REFUTED);
- an undecided sub-box (a comparison of overlapping balls raised
  :class:`~attncheck.numeric.interval.Undecided`, or a slack ball straddles 0) is bisected along
  its widest side (geometrically for the ``log`` parameters), up to ``max_boxes``.

Before the ball route, the symbolic route (:mod:`attncheck.certify.symbolic`) runs the same evaluator
on SymPy symbols: identities proved exactly, inequalities by sign factors on inf-sup intervals; a point
it finds is refuted only after the same mpmath re-check. The evidence names the route that decided.

A claim that cannot be certified declares ``certify=Ineligible(reason)``.
"""
from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass

import mpmath
import numpy as np
from flint import arb

from attncheck.core.declarations import Cases, Parameters
from attncheck.numeric.interval import ARB, Ball, BranchesOnData, Undecided
from attncheck.numeric.precision import MP, _sign_mp


@dataclass
class Outcome:
    status: str  # "certified", "refuted", "incomplete", "not eligible" or "error" (the sampled verdict stands)
    boxes: int
    depth: int
    seconds: float
    certified_fraction: float
    counterexample: dict | None = None
    route: str = ""
    reason: str = ""  # status "not eligible": one of REASONS
    detail: str = ""

    def evidence(self, params: Parameters) -> dict:
        out = {"status": self.status, "route": self.route, "boxes": self.boxes, "depth": self.depth,
               "seconds": round(self.seconds, 3), "certified_fraction": self.certified_fraction,
               "box": {k: list(v) for k, v in params.box.items()}}
        if params.relaxed:
            out["relaxed"] = params.relaxed
        if self.reason:
            out["reason"] = self.reason
        if self.detail:
            out["detail"] = self.detail
        return out


def _enclose(lo: float, hi: float) -> Ball:
    return Ball(arb(lo).union(arb(hi)))


def _fraction(box: dict, params: Parameters) -> float:
    """Share of the whole box (in the bisection coordinates: log for ``log`` names)."""
    frac = 1.0
    for k, (lo, hi) in box.items():
        wlo, whi = params.box[k]
        if k in params.log:
            lo, hi, wlo, whi = (math.log(v) for v in (lo, hi, wlo, whi))
        frac *= (hi - lo) / (whi - wlo) if whi > wlo else 1.0
    return frac


def _split(box: dict, params: Parameters) -> tuple[dict, dict] | None:
    """Bisect the relatively widest side; None when no side can be split in float64."""
    def coords(k, lo, hi):
        return (math.log(lo), math.log(hi)) if k in params.log else (lo, hi)

    def rel(k):
        lo, hi = coords(k, *box[k])
        wlo, whi = coords(k, *params.box[k])
        return (hi - lo) / (whi - wlo) if whi > wlo else 0.0

    k = max(box, key=rel)
    lo, hi = box[k]
    mid = math.sqrt(lo) * math.sqrt(hi) if k in params.log else lo / 2 + hi / 2
    if not lo < mid < hi:
        return None
    return {**box, k: (lo, mid)}, {**box, k: (mid, hi)}


def _elements(s):
    value = np.atleast_1d(np.asarray(s.value, dtype=object))
    scale = np.broadcast_to(np.atleast_1d(np.asarray(s.scale, dtype=object)), value.shape).ravel()
    strict = np.broadcast_to(np.atleast_1d(np.asarray(s.strict, bool)), value.shape).ravel()
    return value.ravel(), scale, strict


def _sign(v: Ball, strict: bool) -> int:
    """+1 proved, -1 provably failing, 0 undecided (three-valued)."""
    x = Ball(v).x
    if (x > 0) or (not strict and x >= 0):
        return 1
    if (x < 0) or (strict and x <= 0):
        return -1
    return 0


def judge(evaluate, params: Parameters, box: dict, xp: ARB) -> int:
    """+1 if the slack is proved on ``box``, -1 if some element fails on all of it, 0 otherwise."""
    values = {k: _enclose(lo, hi) for k, (lo, hi) in box.items()}
    with xp.context():
        try:
            value, _, strict = _elements(evaluate(params.case(values), xp))
        except Undecided:
            return 0
        signs = [_sign(v, st) for v, st in zip(value, strict, strict=False)]
    if min(signs) == 1:
        return 1
    return -1 if -1 in signs else 0


def recheck(evaluate, params: Parameters, point: dict, dps: int = 50) -> dict | None:
    """The slack at ``point`` in mpmath: a dict if some element is decided negative there."""
    with mpmath.workdps(dps):
        value, scale, strict = _elements(evaluate(params.case(dict(point)), MP(dps)))
        for i, (v, sc, st) in enumerate(zip(value, scale, strict, strict=False)):
            v = mpmath.mpf(v)
            sign = _sign_mp(v, mpmath.mpf(sc), dps)
            if sign == -1 or (st and sign == 0):
                return {"point": dict(point), "element": i, "slack": mpmath.nstr(v, 12), "dps": dps}
    return None


def run(evaluate, params: Parameters) -> Outcome:
    """The symbolic route (:mod:`attncheck.certify.symbolic`), then, unless it certified or refuted,
    branch and bound of ``evaluate(case, xp) -> Slack`` on arb balls over the whole declared box."""
    from attncheck.certify import symbolic as certify_symbolic  # SymPy loads (seconds) only where a certification runs

    start = time.perf_counter()
    sym = certify_symbolic.run(evaluate, params.case, params.box, params.log, params.symbolic_boxes)
    if sym.status == "certified":
        return Outcome("certified", sym.boxes, sym.depth, time.perf_counter() - start, 1.0, route=sym.route,
                       detail=sym.detail)
    said = f"{sym.status} ({sym.detail[:300]})"
    if sym.status == "refuted" and sym.point is not None:
        point = _integer_point({**{k: lo for k, (lo, _) in params.box.items()}, **sym.point}, params)
        found = recheck(evaluate, params, point)
        if found is not None:
            return Outcome("refuted", sym.boxes, sym.depth, time.perf_counter() - start, sym.fraction,
                           dict(found, found_by=f"{sym.route}, re-checked in mpmath"), sym.route,
                           detail=sym.detail)
        said = f"{sym.detail[:300]}, but the claim held in mpmath at {point}"
    out = run_balls(evaluate, params)
    out.seconds = time.perf_counter() - start
    out.detail = "; ".join(x for x in (out.detail, f"symbolic route: {said}") if x)
    return out


def _integer_point(point: dict, params: Parameters) -> dict:
    """``point`` with its integer names rounded to the nearest integer inside the box."""
    out = dict(point)
    for k in params.integers:
        lo, hi = params.box[k]
        out[k] = min(max(round(out[k]), math.ceil(lo)), math.floor(hi))
    return out


def run_balls(evaluate, params: Parameters) -> Outcome:
    """Branch and bound of ``evaluate(case, xp) -> Slack`` on arb balls over the whole declared box."""
    xp = ARB(params.prec)
    route = f"interval (arb balls, {params.prec} bits, the claim's own evaluator)"
    start = time.perf_counter()
    try:
        return _branch_and_bound(evaluate, params, xp, route, start)
    except BranchesOnData as e:
        return Outcome("not eligible", 0, 0, time.perf_counter() - start, 0.0, route=route,
                       reason="evaluator branches on data", detail=str(e))
    except (TypeError, AttributeError, ValueError) as e:  # the evaluator does not run on balls: say so
        return Outcome("error", 0, 0, time.perf_counter() - start, 0.0, route=route,
                       detail=f"{type(e).__name__}: {e}")


def run_cases(evaluate, cases: Cases) -> Outcome:
    """:func:`run` on every case; the first refutation (or error) stands for the claim."""
    outs = []
    for label, params in cases.parts:
        out = run(evaluate, params)
        outs.append((label, out))
        if out.status in ("refuted", "error", "not eligible"):
            break
    worst = next((o for _, o in outs if o.status in ("refuted", "error", "not eligible")), None)
    status = worst.status if worst else "certified" if all(o.status == "certified" for _, o in outs) \
        else "incomplete"
    share = sum(o.certified_fraction for _, o in outs) / len(cases.parts)
    detail = "; ".join(f"{label}: {o.status} ({o.boxes} boxes, {o.certified_fraction:.3g})" for label, o in outs)
    routes = "; ".join(dict.fromkeys(o.route for _, o in outs))
    return Outcome(status, sum(o.boxes for _, o in outs), max(o.depth for _, o in outs),
                   sum(o.seconds for _, o in outs), share, worst.counterexample if worst else None,
                   routes, worst.reason if worst else "", detail)


def _midpoint(box: dict, params: Parameters) -> dict | None:
    """The box's midpoint (geometric for ``log`` names), integer names at the nearest integer inside;
    None if the box holds no integer for some integer name (no point of the claim's domain)."""
    mid = {}
    for k, (lo, hi) in box.items():
        m = math.sqrt(lo) * math.sqrt(hi) if k in params.log else lo / 2 + hi / 2
        if k in params.integers:
            first, last = math.ceil(lo), math.floor(hi)
            if first > last:
                return None
            m = min(max(round(m), first), last)
        mid[k] = m
    return mid


def _branch_and_bound(evaluate, params, xp, route, start) -> Outcome:
    queue, done, seen, depth = deque([(dict(params.box), 0)]), 0.0, 0, 0
    while queue:
        box, level = queue.popleft()  # breadth first: the widest boxes are settled first
        seen, depth = seen + 1, max(depth, level)
        mid = _midpoint(box, params)
        verdict = 1 if mid is None else judge(evaluate, params, box, xp)  # no integer point: nothing to prove
        if verdict == 1:
            done += _fraction(box, params)
            continue
        thin = judge(evaluate, params, {k: (v, v) for k, v in mid.items()}, xp)
        if verdict == -1 or thin == -1:
            found = recheck(evaluate, params, mid)
            if found is not None:
                return Outcome("refuted", seen, depth, time.perf_counter() - start, done,
                               dict(found, found_by="interval branch and bound, re-checked in mpmath"), route)
        halves = _split(box, params)
        if seen >= params.max_boxes or halves is None:
            return Outcome("incomplete", seen, depth, time.perf_counter() - start, done, route=route)
        queue.extend((h, level + 1) for h in halves)
    return Outcome("certified", seen, depth, time.perf_counter() - start, 1.0, route=route)
