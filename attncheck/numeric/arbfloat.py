"""A fast arbitrary-precision backend: plain arb balls (python-flint) in place of mpmath numbers, read back as mpf.

A long iteration of small matrix arithmetic in :class:`~attncheck.numeric.precision.MP` pays pure-Python mpmath
arithmetic for every entry; the same operations on ``flint.arb`` run in C (docs/measurements.md, Session 11:
about 10x for products and sums of 10 x 10 object matrices, 17x for powers). :class:`ArbRun` is an ``xp`` whose values
are plain ``flint.arb`` balls at ``dps`` digits plus :data:`GUARD_BITS`; :func:`to_mp` reads a result back as mpf
numbers after checking that every ball lies within 10^-dps of its midpoint, relative to max(1, |midpoint|): the
accuracy an ``MP(dps)`` computation assumes, here checked.

Comparisons are arb's own: True only where the balls decide it, so ``a > 0`` and ``a < 0`` are both False on a ball
that straddles 0. A model that branches on a sign must ask whether it was decided (``xp.enclosure``, and
:class:`~attncheck.numeric.interval.Undecided` where it was not); a maximum taken only to scale a sum (log-sum-exp,
``top`` of an l_p norm) may pick either of two overlapping balls.
"""
from __future__ import annotations

import math
from contextlib import contextmanager

import mpmath
import numpy as np

from attncheck.core import lazy
from attncheck.numeric.interval import ObjectXP, as_scalar

flint = lazy.module("flint")

#: bits carried beyond dps digits, so the rounding of a long run stays far below 10^-dps
GUARD_BITS = 64


class InaccurateBall(ArithmeticError):
    """A ball wider than 10^-dps of its value: the run lost more digits than its guard bits hold."""


def _to_arb(v):
    if isinstance(v, flint.arb):
        return v
    if isinstance(v, (bool, np.bool_, int, np.integer)):
        return flint.arb(int(v))
    return flint.arb(float(v))  # a float64 is an exact binary number


def _ufunc(f):
    return np.frompyfunc(f, 1, 1)


class ArbRun(ObjectXP):
    """``xp`` on numpy object arrays of ``flint.arb`` at ``dps`` digits (plus guard bits); use inside ``context()``."""

    name = "arb-run"
    native, precise, enclosure, exact = False, False, True, False
    _convert = _ufunc(_to_arb)
    _exp, _log = _ufunc(lambda v: v.exp()), _ufunc(lambda v: v.log())
    _log1p, _expm1, _sqrt = _ufunc(lambda v: v.log1p()), _ufunc(lambda v: v.expm1()), _ufunc(lambda v: v.sqrt())
    _abs = _ufunc(abs)
    _max = np.frompyfunc(lambda a, b: a if a >= b else (b if b >= a else a.max(b)), 2, 1)
    _min = np.frompyfunc(lambda a, b: a if a <= b else (b if b <= a else a.min(b)), 2, 1)

    def __init__(self, dps: int):
        self.dps = int(dps)
        self.prec = math.ceil(self.dps * math.log2(10)) + GUARD_BITS

    @contextmanager
    def context(self):
        """Work at ``prec`` bits for this computation; the previous precision is restored."""
        old = flint.ctx.prec
        flint.ctx.prec = self.prec
        try:
            yield self
        finally:
            flint.ctx.prec = old

    @property
    def scalar(self):
        return flint.arb

    def logsumexp(self, a, axis=-1):
        a = np.asarray(a, dtype=object)
        top = np.max(a, axis=axis, keepdims=True)  # any element: it is factored out exactly
        out = self.log(np.sum(self.exp(a - top), axis=axis, keepdims=True)) + top
        return as_scalar(np.squeeze(out, axis=axis))

    @staticmethod
    def to_float(a):
        """The midpoints as float64 (for choices that any value would serve, e.g. an anchor token)."""
        return np.asarray(a, dtype=object).astype(float)


def _mpf(x: flint.arb, tol: flint.arb):
    """x's midpoint as an mpf, x checked within tol max(1, |midpoint|)."""
    if x.is_nan():
        return mpmath.mpf("nan")
    if not x.rad() <= tol * max(flint.arb(1), abs(x.mid())):
        raise InaccurateBall(f"{x.str(10, radius=True)} is not within {tol.str(3)} of its midpoint")
    return mpmath.mpf(tuple(int(v) for v in x.mid().man_exp()))


def to_mp(a, dps: int):
    """arb balls (an object array or one) as mpf midpoints, each checked within 10^-dps (see :class:`ArbRun`);
    a NaN stays NaN (an entry that is not computed, as the last step of a run)."""
    tol = flint.arb(10) ** -dps  # the bound, formed once for every entry
    with mpmath.workdps(dps):
        if isinstance(a, flint.arb):
            return _mpf(a, tol)
        return np.frompyfunc(lambda x: _mpf(_to_arb(x), tol), 1, 1)(np.asarray(a, dtype=object))
