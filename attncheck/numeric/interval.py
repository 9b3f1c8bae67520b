"""Interval backend ``xp`` on arb balls (python-flint), beside float64 and mpmath.

An evaluator written once against ``xp`` (see :mod:`attncheck.numeric.precision`) runs on a box
of its parameters unchanged: every value is a :class:`Ball` that encloses the true
value over the box. Comparisons are three-valued: a comparison the balls cannot
decide raises :class:`Undecided` (never a silent True or False), which the
certification engine reads as "split the box". ``maximum``/``minimum`` of overlapping
balls are enclosed without deciding; ``where`` needs a decided condition.

The working precision is set per computation, by ``with ARB(prec).context():``, and
restored on exit; nothing here changes it globally. ``mpmath.iv`` is never used (its
``exp`` can miss the true value, mpmath issue #1181).
"""
from __future__ import annotations

from contextlib import contextmanager

import numpy as np

from attncheck.core import lazy

flint = lazy.module("flint")  # python-flint is imported at the first ball


class Undecided(ArithmeticError):
    """A comparison of overlapping balls: neither True nor False on this box."""


class BranchesOnData(TypeError):
    """An evaluator asked a ball for one float value (``float(x)``): it branches on data."""


def _arb(v) -> flint.arb:
    arb = flint.arb
    if isinstance(v, Ball):
        return v.x
    if isinstance(v, arb):
        return v
    if isinstance(v, (bool, np.bool_)):
        return arb(int(v))
    if isinstance(v, (int, np.integer)):
        return arb(int(v))
    f = float(v)  # float64 constants are exact binary numbers
    return arb(f)


class Ball:
    """An arb ball with three-valued comparisons (``Undecided`` when they overlap)."""

    __slots__ = ("x",)

    def __init__(self, x):
        self.x = _arb(x)

    # arithmetic -------------------------------------------------------------------------
    def __add__(self, o): return _lift(o, lambda b: Ball(self.x + b))
    def __radd__(self, o): return _lift(o, lambda b: Ball(b + self.x))
    def __sub__(self, o):
        if isinstance(o, Ball) and o.x is self.x:  # one quantity minus itself (e.g. S - max S at the max): 0
            return Ball(flint.arb(0))
        return _lift(o, lambda b: Ball(self.x - b))
    def __rsub__(self, o): return _lift(o, lambda b: Ball(b - self.x))
    def __mul__(self, o): return _lift(o, lambda b: Ball(self.x * b))
    def __rmul__(self, o): return _lift(o, lambda b: Ball(b * self.x))
    def __truediv__(self, o):
        if isinstance(o, Ball) and o.x is self.x and not o.x.contains(0):  # one nonzero quantity over itself
            return Ball(flint.arb(1))
        return _lift(o, lambda b: Ball(self.x / b))
    def __rtruediv__(self, o): return _lift(o, lambda b: Ball(b / self.x))
    def __neg__(self): return Ball(-self.x)
    def __pos__(self): return self
    def __abs__(self): return Ball(abs(self.x))

    def __pow__(self, o):
        if isinstance(o, (int, np.integer)) and not isinstance(o, bool):
            return Ball(self.x ** int(o))
        return _lift(o, lambda b: Ball(self.x ** b))

    def __rpow__(self, o): return _lift(o, lambda b: Ball(b ** self.x))

    # three-valued comparisons -----------------------------------------------------------
    def _cmp(self, o, op):
        if isinstance(o, np.ndarray):
            return NotImplemented
        b = _arb(o)
        yes, no = op(self.x, b), _NEGATE[op](self.x, b)
        if yes:
            return True
        if no:
            return False
        raise Undecided(f"cannot compare {self.x.str(5)} with {b.str(5)}")

    def __lt__(self, o): return self._cmp(o, _LT)
    def __le__(self, o): return self._cmp(o, _LE)
    def __gt__(self, o): return self._cmp(o, _GT)
    def __ge__(self, o): return self._cmp(o, _GE)
    def __eq__(self, o): return self._cmp(o, _EQ)
    def __ne__(self, o): return self._cmp(o, _NE)
    __hash__ = None

    def __bool__(self):
        return self._cmp(0, _NE)

    def __float__(self):
        raise BranchesOnData("a Ball has no single float value; an evaluator that needs one branches on data")

    def __repr__(self):
        return f"Ball({self.x.str(10, radius=True)})"


def _LT(a, b): return a < b
def _LE(a, b): return a <= b
def _GT(a, b): return a > b
def _GE(a, b): return a >= b
def _EQ(a, b): return a == b  # arb: True only for equal exact balls
def _NE(a, b): return a != b  # arb: True only for disjoint balls


_NEGATE = {_LT: _GE, _LE: _GT, _GT: _LE, _GE: _LT, _EQ: _NE, _NE: _EQ}


def _lift(o, f):
    if isinstance(o, np.ndarray):
        return NotImplemented
    try:
        b = _arb(o)
    except (TypeError, ValueError):
        return NotImplemented
    return f(b)


def _unary(name):
    return np.frompyfunc(lambda v: Ball(getattr(_arb(v), name)()), 1, 1)


def _max(a, b):
    a, b = Ball(a), Ball(b)
    if a.x >= b.x:
        return a
    if b.x >= a.x:
        return b
    return Ball(a.x.max(b.x))


def _min(a, b):
    a, b = Ball(a), Ball(b)
    if a.x <= b.x:
        return a
    if b.x <= a.x:
        return b
    return Ball(a.x.min(b.x))


def as_scalar(out):
    """0-d object arrays back to their one element, so scalars stay scalars as in float64."""
    if isinstance(out, np.ndarray) and out.ndim == 0:
        return out[()]
    return out


class ObjectXP:
    """An ``xp`` on numpy object arrays of one scalar type (balls, SymPy expressions): element-wise
    functions from the subclass's ufuncs ``_exp``, ``_log``, ..., ``_max``, ``_min``, ``_convert``."""

    scalar: type = object

    def exp(self, a): return as_scalar(self._exp(a))
    def log(self, a): return as_scalar(self._log(a))
    def log1p(self, a): return as_scalar(self._log1p(a))
    def expm1(self, a): return as_scalar(self._expm1(a))
    def sqrt(self, a): return as_scalar(self._sqrt(a))
    def abs(self, a): return as_scalar(self._abs(a))
    def maximum(self, a, b): return as_scalar(self._max(a, b))
    def minimum(self, a, b): return as_scalar(self._min(a, b))

    def asarray(self, a):
        if isinstance(a, self.scalar):
            return a
        arr = np.asarray(a, dtype=object)
        return as_scalar(self._convert(arr)) if arr.size else arr

    @staticmethod
    def where(cond, a, b):
        """Element-wise choice; ``cond`` must be decided (a comparison of undecided values raises)."""
        return as_scalar(np.where(np.asarray(cond, dtype=bool), a, b))

    @staticmethod
    def sum(a, axis=None):
        return as_scalar(np.sum(np.asarray(a, dtype=object), axis=axis))


class ARB(ObjectXP):
    """arb ball backend on numpy object arrays of :class:`Ball`; use inside ``context()``."""

    name = "arb"
    native, precise, enclosure, exact = False, False, True, False
    scalar = Ball
    _exp, _log, _log1p, _expm1, _sqrt = (_unary(f) for f in ("exp", "log", "log1p", "expm1", "sqrt"))
    _abs = np.frompyfunc(lambda v: abs(Ball(v)), 1, 1)
    _max, _min = np.frompyfunc(_max, 2, 1), np.frompyfunc(_min, 2, 1)
    _convert = np.frompyfunc(Ball, 1, 1)

    def __init__(self, prec: int = 128):
        self.prec = int(prec)

    @contextmanager
    def context(self):
        """Work at ``prec`` bits for this computation; the previous precision is restored."""
        ctx = flint.ctx
        old = ctx.prec
        ctx.prec = self.prec
        try:
            yield self
        finally:
            ctx.prec = old

    def logsumexp(self, a, axis=-1):
        """log sum exp, with the largest upper end factored out (exact in ball arithmetic)."""
        a = np.asarray(a, dtype=object)
        top = np.max(np.frompyfunc(lambda v: Ball(Ball(v).x.upper()), 1, 1)(a), axis=axis, keepdims=True)
        out = self.log(np.sum(self._exp(a - top), axis=axis, keepdims=True)) + top
        return as_scalar(np.squeeze(out, axis=axis))

    @staticmethod
    def to_float(a):
        raise TypeError("arb balls are not converted to float64; compare them instead")
