"""Inf-sup intervals with arb endpoints, and SymPy expressions compiled to them.

An arb ball keeps its radius to 30 bits, so a ball for a range of many decades such as
n in [4, 10^15] reaches below 0 (its radius rounds up by 2^-30 of 10^15) and log n of it
is nan. An :class:`Iv` keeps both ends as exact arb points, each rounded outward, so
monotone functions (exp, log, sqrt, log1p, expm1) map [lo, hi] to their values at the
ends and positive ranges stay positive over any number of decades. Comparisons are
three-valued as in :mod:`attncheck.numeric.interval`; a range that meets a pole or leaves a
function's domain is :data:`WHOLE` (nan ends), which decides nothing.
"""
from __future__ import annotations

from collections.abc import Callable

import sympy
from flint import arb


def _lo(x: arb) -> arb:
    return x.lower()


def _hi(x: arb) -> arb:
    return x.upper()


_ZERO, _MINUS_ONE = arb(0), arb(-1)


def _ends(lo: arb, hi: arb) -> Iv:
    """Iv(lo, hi) for arb ends, without the conversions of ``Iv()`` (the arithmetic's hot path)."""
    out = object.__new__(Iv)
    out.lo, out.hi = lo.lower(), hi.upper()
    return out


class Iv:
    """The interval [lo, hi] (exact arb points; nan ends: nothing is known)."""

    __slots__ = ("lo", "hi")

    def __init__(self, lo, hi=None):
        lo = lo if isinstance(lo, arb) else arb(lo)
        hi = lo if hi is None else hi if isinstance(hi, arb) else arb(hi)
        self.lo, self.hi = _lo(lo), _hi(hi)

    @property
    def known(self) -> bool:
        return self.lo.is_finite() and self.hi.is_finite()

    def __add__(self, o):
        o = iv(o)
        return _ends(self.lo + o.lo, self.hi + o.hi)

    __radd__ = __add__

    def __neg__(self):
        return _ends(-self.hi, -self.lo)

    def __sub__(self, o):
        return self + (-iv(o))

    def __rsub__(self, o):
        return iv(o) + (-self)

    def __mul__(self, o):
        o = iv(o)
        a_lo, a_hi, b_lo, b_hi = self.lo, self.hi, o.lo, o.hi
        if not (a_lo.is_finite() and a_hi.is_finite() and b_lo.is_finite() and b_hi.is_finite()):
            return WHOLE
        if a_lo >= _ZERO and b_lo >= _ZERO:  # one sign each: the extremes are two of the four end products
            return _ends(a_lo * b_lo, a_hi * b_hi)
        if a_hi <= _ZERO and b_hi <= _ZERO:
            return _ends(a_hi * b_hi, a_lo * b_lo)
        if a_lo >= _ZERO and b_hi <= _ZERO:
            return _ends(a_hi * b_lo, a_lo * b_hi)
        if a_hi <= _ZERO and b_lo >= _ZERO:
            return _ends(a_lo * b_hi, a_hi * b_lo)
        p = [a_lo * b_lo, a_lo * b_hi, a_hi * b_lo, a_hi * b_hi]
        return _ends(min(_lo(x) for x in p), max(_hi(x) for x in p))

    __rmul__ = __mul__

    def reciprocal(self):
        if not self.known or not (self.lo > 0 or self.hi < 0):
            return WHOLE
        return _ends(1 / self.hi, 1 / self.lo)

    def __truediv__(self, o):
        return self * iv(o).reciprocal()

    def __rtruediv__(self, o):
        return iv(o) * self.reciprocal()

    def __pow__(self, n: int):
        if n < 0:
            return (self ** -n).reciprocal()
        if n % 2 == 1 or self.lo >= 0:
            return _ends(self.lo ** n, self.hi ** n) if n % 2 == 1 or self.known else WHOLE
        if self.hi <= 0:
            return _ends(self.hi ** n, self.lo ** n)
        return Iv(arb(0), max(_hi(self.lo ** n), _hi(self.hi ** n))) if self.known else WHOLE

    def monotone(self, f: Callable[[arb], arb], domain_lo=None, strict_lo=False):
        """f increasing on its domain [domain_lo, inf) ((domain_lo, inf) if strict_lo)."""
        if domain_lo is not None and (self.lo < domain_lo or (strict_lo and self.lo <= domain_lo)):
            return WHOLE
        return _ends(f(self.lo), f(self.hi))

    def exp(self): return self.monotone(arb.exp)
    def expm1(self): return self.monotone(arb.expm1)
    def log(self): return self.monotone(arb.log, _ZERO, strict_lo=True)
    def log1p(self): return self.monotone(arb.log1p, _MINUS_ONE, strict_lo=True)
    def sqrt(self): return self.monotone(arb.sqrt, _ZERO)
    def exprel(self): return self.monotone(_exprel)

    def __abs__(self):
        if self.lo >= 0:
            return self
        if self.hi <= 0:
            return -self
        return Iv(arb(0), max(-self.lo, self.hi)) if self.known else WHOLE

    def sign(self, strict: bool = False) -> int:
        """+1 if >= 0 (> 0 if strict) everywhere, -1 if < 0 (<= 0 if strict) everywhere, 0 otherwise."""
        if not self.known:
            return 0
        if self.lo > 0 or (not strict and self.lo >= 0):
            return 1
        if self.hi < 0 or (strict and self.hi <= 0):
            return -1
        return 0

    def definite(self) -> int:
        """+1 if > 0 everywhere, -1 if < 0 everywhere, 0 otherwise (a range that holds 0 or is unknown)."""
        if self.known and self.lo > 0:
            return 1
        if self.known and self.hi < 0:
            return -1
        return 0

    def __repr__(self):
        return f"Iv[{self.lo.str(8)}, {self.hi.str(8)}]"


WHOLE = Iv.__new__(Iv)
WHOLE.lo, WHOLE.hi = arb.nan(), arb.nan()


class expm1(sympy.Function):
    """exp(x) - 1 as one function (SymPy has none): tight near 0, where exp(x) - 1 cancels."""

    def fdiff(self, argindex=1):
        return sympy.exp(self.args[0])


def _exprel(x: arb) -> arb:
    return arb(1) if x == 0 else x.expm1() / x


class exprel(sympy.Function):
    """(exp(x) - 1) / x (1 at x = 0), increasing and positive: expm1(x) = x exprel(x) keeps a small factor x
    of every term in view, so sums of such terms can be divided by it."""

    def fdiff(self, argindex=1):
        x = self.args[0]
        return (sympy.exp(x) * (x - 1) + 1) / x ** 2


def iv(v) -> Iv:
    """A number, arb or Iv as an Iv."""
    if type(v) is Iv:
        return v
    return Iv(v if isinstance(v, arb) else arb(v))


def of_box(box: dict) -> dict:
    """{name: Iv} for a box {name: (lo, hi)} (float64 ends, exact)."""
    return {k: Iv(arb(lo), arb(hi)) for k, (lo, hi) in box.items()}


def compile_iv(expr) -> Callable[[dict], Iv]:
    """``expr`` (SymPy) as a function of {symbol name: Iv} to an Iv enclosing its range; exact rationals."""
    if isinstance(expr, sympy.Symbol):
        name = expr.name
        return lambda v: v[name]
    if isinstance(expr, sympy.Float):  # a binary float: its exact rational value
        expr = sympy.Rational(expr)
    if isinstance(expr, sympy.Rational):
        c = Iv(arb(int(expr.p)) / int(expr.q))
        return lambda v: c
    if expr is sympy.E:
        c = Iv(arb(1).exp())
        return lambda v: c
    args = [compile_iv(a) for a in expr.args]
    if isinstance(expr, sympy.Add):
        def add(v):
            out = args[0](v)
            for f in args[1:]:
                out = out + f(v)
            return out
        return add
    if isinstance(expr, sympy.Mul):
        def mul(v):
            out = args[0](v)
            for f in args[1:]:
                out = out * f(v)
            return out
        return mul
    if isinstance(expr, sympy.Pow):
        base, e = args[0], expr.args[1]
        if isinstance(e, sympy.Integer):
            n = int(e)
            return lambda v: base(v) ** n
        if e == sympy.Rational(1, 2):
            return lambda v: base(v).sqrt()
        if e == sympy.Rational(-1, 2):
            return lambda v: base(v).sqrt().reciprocal()
        power = args[1]
        return lambda v: (power(v) * base(v).log()).exp()
    unary = {sympy.exp: Iv.exp, sympy.log: Iv.log, sympy.Abs: Iv.__abs__, expm1: Iv.expm1, exprel: Iv.exprel}
    if expr.func in unary and len(args) == 1:
        f, g = unary[expr.func], args[0]
        return lambda v: f(g(v))
    raise TypeError(f"no interval form for {expr.func}")
