"""Symbolic route to CERTIFIED: the claim's own evaluator run on SymPy symbols (:mod:`attncheck.numeric.symbolic`).

A box's parameters become symbols (a parameter fixed by the box, lo == hi, its exact value);
the evaluator returns its slack as expressions.

- Identity (:class:`~attncheck.numeric.symbolic.Exact`, from ``close``): proved when every lhs - rhs
  rewrites to 0 (together, expand, powsimp, simplify: equalities for the symbols' assumptions),
  with a guard: the difference, evaluated in arb at the box's centre, must contain 0.
- Inequality (a :class:`~attncheck.numeric.precision.Slack`): the slack is reduced to sign factors
  (:func:`attncheck.certify.sign_forms.sign_factors`), and each factor's sign is proved on the box by
  branch and bound on inf-sup intervals (:mod:`attncheck.numeric.endpoints`) over the forms of the
  factor (:func:`attncheck.certify.sign_forms.forms`): on a sub-box, a coordinate along which a form's
  partial derivative (exact, by SymPy) has one sign is fixed at its worst end; the others are
  bisected (geometrically for the ``log`` names). Budgets are box counts.

A point where the reduced slack is negative is re-checked on the claim's own evaluator in
mpmath (:func:`attncheck.certify.params.recheck`) before anything is refuted.
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

import numpy as np
import sympy

from attncheck.certify.sign_forms import Form, forms, sign_factors
from attncheck.numeric.endpoints import Iv, compile_iv, of_box
from attncheck.numeric.interval import ARB, BranchesOnData, Undecided
from attncheck.numeric.symbolic import PREC, SYM, Exact, const

IDENTITY_ROUTE = "symbolic (SymPy: lhs - rhs of the claim's own evaluator rewritten to 0, exact)"
INEQUALITY_ROUTE = ("symbolic-interval (SymPy sign factors of the claim's own slack, inf-sup arb branch and bound "
                    "with monotonicity)")


def symbols_of(box: dict) -> dict:
    """A symbol per parameter with lo < hi (positive / nonnegative / real as lo allows), else its exact value."""
    out = {}
    for name, (lo, hi) in box.items():
        if lo == hi:
            out[name] = const(lo)
        else:
            out[name] = sympy.Symbol(name, positive=True) if lo > 0 else \
                sympy.Symbol(name, nonnegative=True) if lo == 0 else sympy.Symbol(name, real=True)
    return out


def free_box(box: dict) -> dict:
    return {k: v for k, v in box.items() if v[0] < v[1]}


@dataclass
class Result:
    status: str  # "certified", "refuted" (a point to re-check), "incomplete" or "not applicable"
    boxes: int = 0
    depth: int = 0
    detail: str = ""
    point: dict | None = None
    fraction: float = 0.0
    leaves: list = field(default_factory=list)
    route: str = ""


def evaluate_symbolic(evaluate, case_of, box: dict):
    """The claim's slack on symbols; raises what the evaluator raises on them."""
    return evaluate(case_of(symbols_of(box)), SYM(free_box(box)))


def exact(expr):
    """``expr`` with its SymPy Floats (float64 constants mixed in by the evaluator) as their exact rationals."""
    expr = const(expr)
    return expr.xreplace({f: sympy.Rational(f) for f in expr.atoms(sympy.Float)})


# ---- identities ---------------------------------------------------------------------------------

_REWRITES = (
    sympy.together,
    lambda e: sympy.expand(sympy.powsimp(sympy.expand_power_base(sympy.together(e)))),
    lambda e: sympy.expand(sympy.powsimp(sympy.expand_log(sympy.expand_power_base(sympy.together(e))))),
    sympy.simplify,
)


def is_zero(expr) -> bool:
    """True if a chain of SymPy equalities (under the symbols' assumptions) rewrites ``expr`` to 0."""
    for rewrite in _REWRITES:
        if rewrite(expr) == 0:
            return True
    return False


def _centre(box: dict) -> dict:
    return {k: (lo, hi) if lo == hi else ((lo + hi) / 2,) * 2 for k, (lo, hi) in box.items()}


def value_at(expr, point_box: dict) -> Iv:
    with ARB(PREC).context():
        return compile_iv(expr)(of_box(point_box))


def prove_identity(slack: Exact, box: dict) -> Result:
    diffs = list(np.ravel(np.asarray(slack.value, dtype=object)))
    free = free_box(box)
    for i, d in enumerate(diffs):
        d = exact(d)
        if is_zero(d):
            centre = value_at(d, _centre(free)) if d.free_symbols else None
            if centre is not None and centre.definite():
                return Result("incomplete", detail=f"element {i}: rewritten to 0 but nonzero at the centre (SymPy)")
            continue
        for point in (_centre(free), {k: (lo, lo) for k, (lo, hi) in free.items()},
                      {k: (hi, hi) for k, (lo, hi) in free.items()}):
            v = value_at(d, point) if d.free_symbols else value_at(d, {})
            if v.definite():  # provably nonzero there
                return Result("refuted", point={k: lo for k, (lo, _) in point.items()},
                              detail=f"element {i}: lhs - rhs = {v!r} != 0")
        return Result("incomplete", detail=f"element {i}: lhs - rhs not rewritten to 0: {str(d)[:200]}")
    return Result("certified", boxes=0, detail=f"{len(diffs)} element(s): lhs - rhs rewritten to 0", fraction=1.0)


# ---- inequalities: branch and bound on one sign factor ---------------------------------------------

def _width(k, lo, hi, whole, log):
    wlo, whi = whole[k]
    if k in log:
        return (math.log(hi) - math.log(lo)) / (math.log(whi) - math.log(wlo))
    return (hi - lo) / (whi - wlo)


def _split(box, whole, log):
    free = [k for k, (lo, hi) in box.items() if lo < hi]
    if not free:
        return None
    k = max(free, key=lambda n: _width(n, *box[n], whole, log))
    lo, hi = box[k]
    mid = math.sqrt(lo) * math.sqrt(hi) if k in log else lo / 2 + hi / 2
    if not lo < mid < hi:
        return None
    return {**box, k: (lo, mid)}, {**box, k: (mid, hi)}


def _reduce(form: Form, box: dict, sigma: int) -> dict:
    """Fix every coordinate along which sigma * form is monotone on the box at the end where it is smallest."""
    box = dict(box)
    changed = True
    while changed:
        changed = False
        ivs = form.ivs(box)
        for k, (lo, hi) in box.items():
            d = form.derivative(k) if lo < hi else None
            s = d(ivs).sign() if d is not None else 0
            if s:
                box[k] = (lo, lo) if s * sigma > 0 else (hi, hi)
                changed = True
                break
    return box


def _centre_point(box, log):
    return {k: (lo, hi) if lo == hi else ((math.sqrt(lo) * math.sqrt(hi) if k in log else lo / 2 + hi / 2),) * 2
            for k, (lo, hi) in box.items()}


def prove_factor(expr, whole: dict, sigma: int, strict: bool, log: tuple, max_boxes: int) -> Result:
    """Prove sigma * g > 0 (>= 0 if not strict) on ``whole`` for the factor g = ``expr``: on the coordinates g depends
    on (a coordinate it does not read is never split: its range is proved whole)."""
    names = {s.name for s in expr.free_symbols}
    whole = {k: v for k, v in whole.items() if k in names} or whole
    portfolio = forms(expr, whole, log)
    plain = portfolio[0]
    portfolio.reverse()  # the most rewritten forms first
    queue, seen, depth, done = deque([(whole, 0)]), 0, 0, 0.0
    while queue:
        box, level = queue.popleft()
        seen, depth = seen + 1, max(depth, level)
        with ARB(PREC).context():
            proved = False
            for i, form in enumerate(portfolio):
                value = form.value(_reduce(form, box, sigma))
                if value.known and value.sign(strict) * sigma == 1:
                    proved = True
                    portfolio.insert(0, portfolio.pop(i))  # try the form that worked first on the next box
                    break
            if not proved:
                centre = _centre_point(box, log)
                at = plain.value(centre)
                if at.known and at.sign(strict) * sigma == -1:
                    return Result("refuted", seen, depth, point={k: v[0] for k, v in centre.items()},
                                  detail=f"factor {str(expr)[:120]} has the wrong sign at {centre}")
        if proved:
            done += _share(box, whole, log)
            continue
        halves = _split(box, whole, log)
        if halves is None or seen >= max_boxes:
            return Result("incomplete", seen, depth, fraction=done,
                          detail=f"factor {str(expr)[:120]}: {seen} boxes, {done:.3g} of the box")
        queue.extend((h, level + 1) for h in halves)
    return Result("certified", seen, depth, fraction=1.0)


def _share(box, whole, log):
    frac = 1.0
    for k, (lo, hi) in box.items():
        if whole[k][0] < whole[k][1]:
            frac *= _width(k, lo, hi, whole, log)
    return frac


def prove_inequality(slack, box: dict, log: tuple, max_boxes: int) -> Result:
    """Every element of a symbolic slack >= 0 (> 0 where strict) on ``box``."""
    values = np.ravel(np.asarray(slack.value, dtype=object))
    stricts = np.broadcast_to(np.asarray(slack.strict, bool), np.shape(slack.value)).ravel()
    free = free_box(box)
    boxes, depth, leaves = 0, 0, []
    done = {}
    for i, (v, strict) in enumerate(zip(values, stricts, strict=False)):
        v = exact(v)
        if v.is_number:
            with ARB(PREC).context():
                s = value_at(v, {}).sign(bool(strict))
            if s != 1:
                return Result("refuted" if s == -1 else "incomplete", boxes, depth, point={k: lo for k, (lo, _) in
                              free.items()}, detail=f"element {i}: constant slack {v}")
            continue
        factors = sign_factors(v, free, log=log)
        boxes += 1  # the whole box, on which the dropped factors were shown positive
        sign = 1
        for f, under, absolute in factors:
            key = (f, bool(strict) or under)
            if absolute and not key[1]:
                continue  # |X| >= 0 always: a non-strict slack needs nothing of it
            if key not in done:
                centre = value_at(f, _centre(free))
                sigma = centre.definite() or 1  # the sign to prove: the centre's
                out = prove_factor(f, free, sigma, key[1], log, max_boxes)
                boxes, depth = boxes + out.boxes, max(depth, out.depth)
                if out.status != "certified":
                    out.boxes, out.depth = boxes, depth
                    if out.status == "refuted":
                        out.detail = f"element {i}: " + out.detail
                    return out
                done[key] = sigma
                leaves.append(str(f)[:80])
            sign *= 1 if absolute else done[key]
        if sign != 1:
            return Result("refuted", boxes, depth, point={k: (lo + hi) / 2 for k, (lo, hi) in free.items()},
                          detail=f"element {i}: the slack's factors have a negative sign on the whole box")
    return Result("certified", boxes, depth, fraction=1.0, leaves=leaves,
                  detail=f"{len(values)} element(s), {len(leaves)} sign factor(s) proved by {boxes} boxes")


def run(evaluate, case_of, box: dict, log: tuple = (), max_boxes: int = 4000) -> Result:
    """The symbolic route on one box; "not applicable" when the evaluator does not run on symbols.
    ``max_boxes``: per sign factor (a count, never a time: the outcome is the same on every machine)."""
    try:
        slack = evaluate_symbolic(evaluate, case_of, box)
    except (Undecided, BranchesOnData, TypeError, AttributeError, ValueError, ZeroDivisionError) as e:
        return Result("not applicable", detail=f"{type(e).__name__}: {str(e)[:200]}")
    if isinstance(slack, Exact):
        out = prove_identity(slack, box)
        out.route = IDENTITY_ROUTE
        return out
    try:
        out = prove_inequality(slack, box, log, max_boxes)
    except TypeError as e:  # a function without an interval form
        return Result("not applicable", detail=f"{type(e).__name__}: {str(e)[:200]}")
    out.route = INEQUALITY_ROUTE
    return out
