"""Sign factors of a symbolic slack and the forms that keep a factor's sign (the symbolic-interval route,
:mod:`attncheck.certify.symbolic`).

:func:`sign_factors` reduces a slack to factors whose signs multiply to its sign; :func:`forms` gives,
for one factor, functions of the same sign that inf-sup intervals (:mod:`attncheck.numeric.endpoints`) bound
tightly: shifted and Horner polynomials, the power-law variables in log coordinates as a sum of
exponentials, that sum divided by each term, its terms paired as expm1 / exprel. Every rewrite is an
equality or a division by a positive quantity, so a sign proved for a form is the factor's sign.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import sympy
from flint import arb
from sympy.polys.polyfuncs import horner

from attncheck.numeric.endpoints import Iv, compile_iv, expm1, exprel, of_box
from attncheck.numeric.interval import ARB
from attncheck.numeric.symbolic import PREC


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

    for part, under in zip(sympy.fraction(sympy.together(expr)), (below, True), strict=False):
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


# ---- forms of one sign factor --------------------------------------------------------------------

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
