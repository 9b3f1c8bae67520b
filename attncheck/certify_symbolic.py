"""Symbolic route to CERTIFIED: the claim's own evaluator run on SymPy symbols (:mod:`attncheck.symbolic`).

A box's parameters become symbols (a parameter fixed by the box, lo == hi, its exact value);
the evaluator returns its slack as expressions.

- Identity (:class:`~attncheck.symbolic.Exact`, from ``close``): proved when every lhs - rhs
  rewrites to 0 (together, expand, powsimp, simplify: equalities for the symbols' assumptions),
  with a guard: the difference, evaluated in arb at the box's centre, must contain 0.
- Inequality (a :class:`~attncheck.precision.Slack`): the slack is reduced to factors whose
  signs multiply to its sign (numerator and denominator of one fraction, the factors of
  each, log X -> X - 1; factors positive on the whole box dropped), and each factor's sign
  is proved on the box by branch and bound on inf-sup intervals (:mod:`attncheck.endpoints`):
  a coordinate whose partial derivative (exact, by SymPy) has one sign on a sub-box is
  fixed at its worst end; the others are bisected (geometrically for the ``log`` names).

A point where the reduced slack is negative is re-checked on the claim's own evaluator in
mpmath (:func:`attncheck.certify_params.recheck`) before anything is refuted.
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import sympy
from sympy.polys.polyfuncs import horner

from flint import arb

from .endpoints import Iv, compile_iv, expm1, exprel, of_box
from .interval import ARB, BranchesOnData, Undecided
from .symbolic import PREC, SYM, Exact, const

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


# ---- inequalities: sign factors ---------------------------------------------------------------

def _positive(expr, ivs: dict) -> bool:
    if expr.is_positive:
        return True
    try:
        with ARB(PREC).context():
            return compile_iv(expr)(ivs).sign(strict=True) == 1
    except TypeError:
        return False


def _positive_on(expr, box: dict, depth: int) -> bool:
    """``expr`` > 0 on the box: by one interval evaluation, else because all its sign factors are
    positive (so :func:`sign_factors` drops them all)."""
    return _positive(expr, of_box(box)) or (depth < 3 and not sign_factors(expr, box, depth + 1))


def _log_sum(f, box: dict, depth: int):
    """For ``f`` = sum r_i log X_i + rest (r_i real, X_i > 0 on the box, rest free of logs):
    exp(rest) prod X_i^{r_i} - 1, which has the sign of f; None if f is not of that form."""
    product, rest = sympy.Integer(1), []
    for term in sympy.Add.make_args(f):
        r, dep = term.as_independent(sympy.log, as_Add=False)
        if dep == 1:
            rest.append(term)
        elif isinstance(dep, sympy.log) and r.is_real and not r.has(sympy.log) and \
                _positive_on(dep.args[0], box, depth):
            product *= dep.args[0] ** r
        else:
            return None
    return sympy.exp(sympy.Add(*rest)) * product - 1


FACTOR_OPS = 200
"""Largest numerator or denominator (in SymPy operations) that :func:`sign_factors` factors."""


class SignFactor(NamedTuple):
    """A factor of a slack: ``under`` a denominator (must be nonzero), ``absolute`` (inside |.|: only its
    being nonzero matters, its sign counts as +1)."""

    expr: object
    under: bool = False
    absolute: bool = False


def sign_factors(expr, box: dict, depth: int = 0, below: bool = False, log: tuple = (),
                 absolute: bool = False) -> list:
    """:class:`SignFactor` s whose signs multiply to the sign of ``expr`` on ``box`` (factors positive on the
    whole box dropped): numerator and denominator, their factors, log X as X - 1, a sum of logs
    sum r_i log X_i as prod X_i^{r_i} - 1, |X| as X (absolute), a sum of exponentials that is expm1(delta)
    times a bracket (:func:`common_expm1`; ``log``: the power-law names) as the bracket."""
    ivs = of_box(box)
    out = []

    def deeper(e, under, absolute=absolute):
        return sign_factors(e, box, depth + 1, under, log, absolute)

    for part, under in zip(sympy.fraction(sympy.together(expr)), (below, True)):
        if sympy.count_ops(part) <= FACTOR_OPS and not any(isinstance(g.args[0], sympy.Add)
                                                           for g in part.atoms(sympy.log)):
            part = sympy.factor(part)  # over its generators (symbols, exp(.), log of products); log(sum) kept
        for f in sympy.Mul.make_args(sympy.factor_terms(part)):
            if (f.is_number and f.is_positive) or isinstance(f, sympy.exp) or _positive(f, ivs):
                continue
            base, e = f.as_base_exp()
            if depth >= 4:
                out.append(SignFactor(f, under, absolute))
            elif isinstance(f, sympy.Abs):
                out += deeper(f.args[0], under, absolute=True)
            elif isinstance(f, sympy.log) and _positive_on(f.args[0], box, depth):  # sign(log X) = sign(X - 1)
                out += deeper(f.args[0] - 1, under)
            elif e.is_Integer and e > 1 and int(e) % 2 == 1:
                out += deeper(base, under)
            elif isinstance(f, sympy.Add) and f.has(sympy.log) and (combined := _log_sum(f, box, depth)) is not None:
                out += deeper(combined, under)
            elif isinstance(f, sympy.Add) and (split := common_expm1(f, box, log)) is not None:
                out += [SignFactor(sympy.Integer(-1), under, absolute)] * (split[0] < 0) + deeper(split[1], under)
            else:
                out.append(SignFactor(f, under, absolute))
    return out


# ---- inequalities: forms of one sign factor ----------------------------------------------------

class Form:
    """A function with the sign of a factor g, in its own coordinates: the names in ``logs`` as
    log_<name> (x = exp(log_x)), the names in ``shift`` as x - shift[x]."""

    def __init__(self, expr, logs=(), shift=None):
        self.expr, self.logs, self.shift = expr, frozenset(logs), dict(shift or {})
        self.g = compile_iv(expr)
        self.symbols = {s.name: s for s in expr.free_symbols}
        self._d = {}

    def coordinate(self, name):
        return f"log_{name}" if name in self.logs else f"{name}_shift" if name in self.shift else name

    def ivs(self, box: dict) -> dict:
        out = {}
        for name, (lo, hi) in box.items():
            lo, hi = arb(lo), arb(hi)
            if name in self.logs:
                lo, hi = lo.log(), hi.log()
            elif name in self.shift:
                lo, hi = lo - self.shift[name], hi - self.shift[name]
            out[self.coordinate(name)] = Iv(lo, hi)
        return out

    def derivative(self, name):
        """d form / d coordinate(name) (compiled on first use); None if the form does not depend on it."""
        c = self.coordinate(name)
        if c not in self.symbols:
            return None
        if c not in self._d:
            self._d[c] = compile_iv(sympy.diff(self.expr, self.symbols[c]))
        return self._d[c]

    def value(self, box: dict) -> Iv:
        return self.g(self.ivs(box))


def _exponent(term):
    """(coefficient, exponent) of a term c * exp(E)."""
    coeff, exponent = sympy.Integer(1), sympy.Integer(0)
    for f in sympy.Mul.make_args(term):
        if isinstance(f, sympy.exp):
            exponent += f.args[0]
        else:
            coeff *= f
    return coeff, exponent


class ExpSum:
    """``expr`` in log coordinates as a sum of exponentials sum_i c_i exp(E_i): the power-law variables
    (names in ``log`` with lo > 0 under a log or a symbolic power) as x = exp(log_x)."""

    def __init__(self, expr, whole: dict, log: tuple):
        names = {s.name: s for s in expr.free_symbols}
        self.logs = {n for n, s in names.items() if n in log and whole[n][0] > 0 and any(
            isinstance(p, sympy.log) and p.has(s) or isinstance(p, sympy.Pow) and p.base.has(s)
            and not p.exp.is_Integer for p in sympy.preorder_traversal(expr))}
        self.coords = {n: sympy.Symbol(f"log_{n}", real=True) for n in self.logs}
        e = sympy.expand_power_base(expr.subs({names[n]: sympy.exp(c) for n, c in self.coords.items()}))
        e = e.replace(lambda p: isinstance(p, sympy.Pow) and p.base.is_Number and p.base > 0 and not p.exp.is_Number,
                      lambda p: sympy.exp(p.exp * sympy.log(p.base)))
        e = sympy.powsimp(sympy.expand(sympy.expand_log(e), power_exp=False), combine="exp")
        self.parts = [_exponent(term) for term in sympy.Add.make_args(sympy.expand(e, power_exp=False))]
        self.ivs = Form(sympy.Integer(0), logs=self.logs).ivs(whole)

    def tidy(self, e):
        """An exponent collected over the log_x (one occurrence each: tight ranges)."""
        return sympy.factor_terms(sympy.collect(sympy.expand(e), list(self.coords.values())))

    def back(self, e):
        """An expression in log coordinates back in the claim's symbols."""
        return e.subs({c: sympy.log(sympy.Symbol(n, positive=True)) for n, c in self.coords.items()})


def _transcendental(expr) -> bool:
    """Has exp, log or a power with a non-integer exponent of the symbols."""
    return any((isinstance(p, (sympy.log, sympy.exp)) or isinstance(p, sympy.Pow) and not p.exp.is_Integer)
               and not p.is_number for p in sympy.preorder_traversal(expr))


def forms(expr, whole: dict, log: tuple, max_terms: int = 10) -> list:
    """Forms with the sign of ``expr`` on ``whole``: itself; a polynomial shifted to the box's lower
    corner (x = lo + x', x' >= 0: positive coefficients show positivity) and in Horner form over its widest
    ranges first (one occurrence of each: what monotonicity fixes, the interval then sees exactly); its
    :class:`ExpSum`, that sum
    divided by each of its terms exp(E_j), and its terms paired (:func:`pairs`)."""
    out = [Form(expr)]
    names = {s.name: s for s in expr.free_symbols}
    if names and expr.is_polynomial(*names.values()):
        shift = {n: whole[n][0] for n in names}
        primed = {s: whole[n][0] + sympy.Symbol(f"{n}_shift", nonnegative=True) for n, s in names.items()}
        out.append(Form(sympy.expand(expr.subs(primed)), shift=shift))
        widest = sorted(names, key=lambda n: -_decades(*whole[n]))  # Horner in the widest ranges first
        out.append(Form(sympy.factor_terms(horner(sympy.expand(expr), *(names[n] for n in widest)))))
    if not _transcendental(expr):
        return out
    es = ExpSum(expr, whole, log)
    parts, tidy = es.parts, es.tidy
    out.append(Form(sympy.Add(*(c * sympy.exp(tidy(e)) for c, e in parts)), logs=es.logs))
    if 2 <= len(parts) <= max_terms:
        for _, ej in parts:
            out.append(Form(sympy.Add(*(c * sympy.exp(tidy(e - ej)) for c, e in parts)), logs=es.logs))
        matched, rest = pairs(parts, es.ivs)
        if matched:
            unpaired = [c * sympy.exp(tidy(e)) for c, e in rest]
            out.append(Form(sympy.Add(*(sympy.exp(tidy(ej)) * (ci * expm1(tidy(ei - ej)) + ci + cj)
                                        for ci, ei, cj, ej in matched), *unpaired), logs=es.logs))
            # expm1(x) = x exprel(x): a small factor common to every difference (a in a log n) comes out
            out.append(Form(sympy.factor_terms(sympy.Add(*(
                sympy.exp(tidy(ej)) * (ci * tidy(ei - ej) * exprel(tidy(ei - ej)) + ci + cj)
                for ci, ei, cj, ej in matched), *unpaired)), logs=es.logs))
    return out


def pairs(parts, ivs):
    """Pairs (c1, E1, c2, E2) of a positive term c1 exp(E1) and a negative one c2 exp(E2) whose exponents
    differ least on the box (greedy), and the terms left: c1 exp(E1) + c2 exp(E2) = exp(E2) (c1 expm1(E1 - E2)
    + c1 + c2) keeps its sign where the sum cancels to first order in a small parameter."""
    units = []  # a term 2 exp(E) as exp(E) + exp(E): each can pair with a different negative term
    for c, e in parts:
        m = int(abs(c)) if c.is_Integer and 2 <= abs(c) <= 4 else 1
        units += [(c / m, e)] * m
    with ARB(PREC).context():
        signs = [compile_iv(c)(ivs).definite() for c, _ in units]
        if 0 in signs:
            return [], units
        cost = {}
        for i, (_, ei) in enumerate(units):
            for j, (_, ej) in enumerate(units):
                if signs[i] > 0 > signs[j]:
                    d = abs(compile_iv(ei - ej)(ivs))
                    cost[i, j] = float(d.hi) if d.known else math.inf
    used, matched = set(), []
    for (i, j) in sorted(cost, key=cost.get):
        if i not in used and j not in used:
            used |= {i, j}
            matched.append((*units[i], *units[j]))
    return matched, [u for k, u in enumerate(units) if k not in used]


def common_expm1(expr, whole: dict, log: tuple):
    """(sign of delta, bracket) with expr = expm1(delta) * bracket, when every term of ``expr`` pairs with
    one of opposite coefficient and all pairs differ by +-delta (expm1(-x) = -exp(-x) expm1(x)), delta of
    one sign on the box: the sign of expr is sign(delta) sign(bracket). None otherwise."""
    if not _transcendental(expr):
        return None
    es = ExpSum(expr, whole, log)
    matched, rest = pairs(es.parts, es.ivs)
    if rest or not matched or any(sympy.expand(ci + cj) != 0 for ci, _, cj, _ in matched):
        return None
    delta = es.tidy(matched[0][1] - matched[0][3])
    bracket = []
    for ci, ei, _, ej in matched:
        if sympy.expand(ei - ej - delta) == 0:
            bracket.append(ci * sympy.exp(es.tidy(ej)))
        elif sympy.expand(ei - ej + delta) == 0:
            bracket.append(-ci * sympy.exp(es.tidy(ej - delta)))
        else:
            return None
    with ARB(PREC).context():
        sign = compile_iv(delta)(es.ivs).definite()
    return (sign, es.back(sympy.Add(*bracket))) if sign else None


def _decades(lo, hi):
    """How wide a range is: decades for a positive one, else its length."""
    return math.log10(hi / lo) if lo > 0 else hi - lo


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
    """Prove sigma * g > 0 (>= 0 if not strict) on ``whole`` for the factor g = ``expr``."""
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
    for i, (v, strict) in enumerate(zip(values, stricts)):
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
