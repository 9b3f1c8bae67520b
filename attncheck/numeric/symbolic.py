"""SymPy backend ``xp``: an evaluator written once against ``xp`` runs on symbols unchanged.

Every value is a SymPy expression in the claim's parameters (positive symbols, or exact
numbers for the parameters a case fixes). float64 constants enter as the exact binary
rationals they are, so the expression is the one the float64 path rounds. ``close``
returns an :class:`Exact` slack (lhs - rhs, to be proved zero) instead of a tolerance,
so an identity is proved exactly, never to a tolerance.

Comparisons must be decided: ``maximum``/``minimum`` pick the larger/smaller operand
when the sign of their difference follows from the symbols' assumptions (after
expansion and factoring), and raise :class:`~attncheck.numeric.interval.Undecided` otherwise.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import sympy

from attncheck.numeric.endpoints import compile_iv, of_box
from attncheck.numeric.interval import ARB, ObjectXP, Undecided, as_scalar
from attncheck.numeric.precision import Slack


def const(v):
    """A number or expression as an exact SymPy value (a float64 as its exact binary rational)."""
    if isinstance(v, sympy.Float):
        return sympy.Rational(v)
    if isinstance(v, sympy.Basic):
        return v
    if isinstance(v, (bool, np.bool_)):
        return sympy.Integer(int(v))
    if isinstance(v, (int, np.integer)):
        return sympy.Integer(int(v))
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if not np.isfinite(f):
            raise ValueError(f"non-finite constant {f} in a symbolic evaluation")
        return sympy.Rational(f)
    raise TypeError(f"no symbolic value for {type(v).__name__}")


PREC = 128
"""Bits of the interval evaluations that decide signs."""


def sign(expr, box: dict | None = None) -> int | None:
    """+1 / -1 / 0 if the sign of ``expr`` is decided (>= 0 / <= 0 / == 0): by its symbols' assumptions,
    after expansion and factoring, else by one arb evaluation of the factored form over ``box``; None otherwise."""
    forms = (expr, sympy.factor(sympy.expand(expr)))
    for form in forms:
        if form.is_zero:
            return 0
        if form.is_nonnegative:
            return 1
        if form.is_nonpositive:
            return -1
    if box:
        with ARB(PREC).context():
            return compile_iv(forms[1])(of_box(box)).sign() or None
    return None


def _ufunc(f):
    return np.frompyfunc(lambda v: f(const(v)), 1, 1)


@dataclass
class Exact(Slack):
    """An identity on the symbolic backend: holds iff every element of ``value`` (lhs - rhs) is zero."""


class SYM(ObjectXP):
    """SymPy backend on numpy object arrays of expressions; ``box`` decides comparisons the symbols'
    assumptions leave open."""

    name = "sympy"
    native, precise, enclosure, exact = False, False, False, True
    scalar = sympy.Basic
    _exp, _log, _sqrt, _abs = _ufunc(sympy.exp), _ufunc(sympy.log), _ufunc(sympy.sqrt), _ufunc(sympy.Abs)
    _log1p = _ufunc(lambda v: sympy.log(1 + v))
    _expm1 = _ufunc(lambda v: sympy.exp(v) - 1)
    _convert = np.frompyfunc(const, 1, 1)

    def __init__(self, box: dict | None = None):
        self.box = box or {}
        self._max = np.frompyfunc(lambda a, b: self._pick(a, b, True), 2, 1)
        self._min = np.frompyfunc(lambda a, b: self._pick(a, b, False), 2, 1)

    def _pick(self, a, b, larger: bool):
        """The larger (smaller) of a and b, decided for every point of the box (or every positive value)."""
        a, b = const(a), const(b)
        s = sign(a - b, self.box)
        if s is None:
            raise Undecided(f"cannot order {a} and {b} on the box")
        return a if (s >= 0) == larger else b

    def logsumexp(self, a, axis=-1):
        a = np.asarray(a, dtype=object)
        return as_scalar(self.log(np.sum(self.exp(a), axis=axis)))

    @staticmethod
    def to_float(a):
        raise TypeError("symbolic values are not converted to float64")

    @staticmethod
    def close(lhs, rhs, rtol: float, atol: float = 0.0) -> Exact:
        """The identity lhs == rhs itself (the tolerance is a float64 matter, not the claim's)."""
        diff = np.asarray(lhs, dtype=object) - np.asarray(rhs, dtype=object)
        return Exact(as_scalar(diff), 1, False)
