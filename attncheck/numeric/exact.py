"""Exact evaluation of one case: the last step of the escalation (docs/writing-claims.md, "Ties and float constants").

A case's inputs are float64 numbers, hence rationals, so an evaluator written against ``xp`` and run on
:class:`EXACT` computes its slack as a SymPy expression in those rationals, with no rounding at all. Its sign is
decided exactly where SymPy can (``exp(-log 5) - 1/5`` is 0); a tie no rewriting settles (an irrational one, such
as ``exp(sqrt(2 + sqrt 3)) - exp(sqrt 6/2) exp(sqrt 2/2)``) or an operation the backend lacks stays undecided, with
the reason.

*Reading* (``reading=True``): every float the evaluation meets that is not one of the case's inputs is a constant
of the evaluator (``1.0 / len(x)``, a ``0.5`` in a bound); one that is the double nearest to a short rational
(denominator at most :data:`DENOMINATOR`) is read as that rational, and the readings are recorded. A violation that
vanishes under the reading is below the rounding of the evaluator's own constants (``1.0 / 5`` is 1.1e-17 above
1/5), never a counterexample.

The cost is bounded without a clock: an evaluation stops (:class:`TooLarge`) after :data:`MAX_OPS` operations, at
a value of more than :data:`MAX_SIZE` nodes, or at a rational power (``x ** r``, or ``exp(r log b)``, which SymPy
turns into ``b ** r``) whose exponent is not small: a numerator above :data:`MAX_POWER` or a denominator that does
not divide :data:`ROOTS` (SymPy's exact powers of integers with large denominators do not finish).
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np

from attncheck.core import lazy
from attncheck.numeric.interval import ARB, ObjectXP, Undecided, as_scalar

#: SymPy and python-flint are imported at the first exact evaluation
sympy, flint = lazy.module("sympy"), lazy.module("flint")

#: operations of one exact evaluation (each arithmetic operation or function of one value)
MAX_OPS = 20_000
#: nodes of one value, counted as a tree (shared subexpressions count each time)
MAX_SIZE = 4_000
#: largest numerator of a rational exponent
MAX_POWER = 4_096
#: every denominator of a rational exponent divides this (square, cube, 4th, 6th, 8th roots...): sums of such
#: exponents keep it, so a product of powers of one base never has a larger denominator
ROOTS = 24
#: largest denominator of the rational a float constant is read as
DENOMINATOR = 10**6
#: working precisions (bits) of the arb balls that decide a nonzero sign
BALL_BITS = (128, 512, 4096)


class TooLarge(ArithmeticError):
    """An exact evaluation past its operation, size or power limit."""


def read(c: float) -> Fraction | None:
    """The short rational (denominator <= DENOMINATOR) whose nearest double is ``c``, or None: when there is none,
    or when it is ``c``'s own binary value (1/2, 3/4: nothing to read)."""
    exact = Fraction(c)
    if exact.denominator <= DENOMINATOR:
        return None
    q = exact.limit_denominator(DENOMINATOR)
    return q if float(q) == c else None


def floats_of(obj, out: set | None = None, depth: int = 6) -> set:
    """The float values in a case, its inputs: numbers, arrays, sequences, dicts, and the attributes of objects
    (dataclasses, named tuples, plain classes), ``depth`` levels down."""
    out = set() if out is None else out
    if depth < 0 or isinstance(obj, (bool, np.bool_, str, bytes, type)):
        return out
    if isinstance(obj, (float, np.floating)):
        out.add(float(obj))
    elif isinstance(obj, np.ndarray):
        if obj.dtype.kind == "f":
            out.update(float(v) for v in np.unique(obj))
        elif obj.dtype == object:
            for v in obj.ravel():
                floats_of(v, out, depth - 1)
    elif isinstance(obj, (list, tuple, set, frozenset, dict)):
        for v in obj.values() if isinstance(obj, dict) else obj:
            floats_of(v, out, depth - 1)
    elif dataclasses.is_dataclass(obj):
        for f in dataclasses.fields(obj):
            floats_of(getattr(obj, f.name), out, depth - 1)
    elif hasattr(obj, "__dict__"):
        floats_of(vars(obj), out, depth - 1)
    return out


def _forms(e):
    """The expression, then rewritings that expose a structural zero: logs combined (``r log b`` as ``log b**r``,
    only for small exponents r) or split (``log 6`` as ``log 2 + log 3``, only for integers below 2^64: they are
    factored), each only where SymPy knows the arguments positive (never ``force``: log(-2) + log(-3) is not log 6)."""
    yield e
    logs = e.atoms(sympy.log)
    if not logs:
        return
    products = e.find(lambda t: t.is_Mul and any(isinstance(f, sympy.log) for f in t.args))
    coefficients = [sympy.Mul(*[f for f in t.args if not isinstance(f, sympy.log)]) for t in products]
    if all(_small(r) for r in coefficients):
        yield sympy.logcombine(e)
    if all(max(abs(r.p), r.q) < 2**64 for g in logs for r in g.args[0].atoms(sympy.Rational)):
        yield sympy.expand_log(e, factor=True)
    else:
        yield sympy.expand_log(e)


def _ball(e) -> flint.arb:
    """An arb ball enclosing the number ``e`` at the current precision (TypeError for what it cannot enclose)."""
    arb = flint.arb
    if e.is_Rational:
        return arb(int(e.p)) / arb(int(e.q))
    if e is sympy.E:
        return arb(1).exp()
    if e is sympy.pi:
        return arb.pi()
    args = [_ball(a) for a in e.args]
    if e.is_Add:
        return sum(args[1:], args[0])
    if e.is_Mul:
        out = args[0]
        for a in args[1:]:
            out = out * a
        return out
    if e.is_Pow:
        base, power = e.args
        if power.is_Integer:
            return args[0] ** int(power)
        if power == sympy.S.Half:
            return args[0].sqrt()
        return (args[1] * args[0].log()).exp()  # a positive base (nan ball otherwise: decides nothing)
    for f, g in ((sympy.exp, arb.exp), (sympy.log, arb.log), (sympy.Abs, abs)):
        if isinstance(e, f):
            return g(args[0])
    raise TypeError(f"no ball for {type(e).__name__}")


def sign(e) -> int | None:
    """+1 / -1 / 0 for a positive / negative / zero number, decided exactly: 0 only where a form of it is the
    rational 0 (a structural zero), +-1 where an arb ball encloses it away from 0 (at up to 4096 bits); None
    otherwise. SymPy's own numeric sign is never used (it can call an exact zero negative)."""
    for form in _forms(e):
        if form.is_Rational:
            return (form.p > 0) - (form.p < 0)
    for prec in BALL_BITS:
        with ARB(prec).context():
            try:
                v = _ball(e)
            except TypeError:
                return None
            if v > 0:
                return 1
            if v < 0:
                return -1
    return None


class Ex:
    """One exact value: a SymPy number with its size, tied to the evaluation (:class:`EXACT`) that made it."""

    __slots__ = ("e", "size", "xp")

    def __init__(self, e, size: int, xp: EXACT):
        self.e, self.size, self.xp = e, size, xp

    def _bin(self, o, f, swap=False):
        b = self.xp.lift(o)
        if b is NotImplemented:
            return NotImplemented
        return self.xp.make(f(b.e, self.e) if swap else f(self.e, b.e), self.size + b.size)

    def __add__(self, o): return self._bin(o, lambda a, b: a + b)
    def __radd__(self, o): return self._bin(o, lambda a, b: a + b, swap=True)
    def __sub__(self, o): return self._bin(o, lambda a, b: a - b)
    def __rsub__(self, o): return self._bin(o, lambda a, b: a - b, swap=True)
    def __mul__(self, o): return self._bin(o, lambda a, b: a * b)
    def __rmul__(self, o): return self._bin(o, lambda a, b: a * b, swap=True)
    def __truediv__(self, o): return self._bin(o, lambda a, b: a / b)
    def __rtruediv__(self, o): return self._bin(o, lambda a, b: a / b, swap=True)
    def __pow__(self, o): return self._bin(o, _power)
    def __rpow__(self, o): return self._bin(o, _power, swap=True)
    def __neg__(self): return self.xp.make(-self.e, self.size)
    def __pos__(self): return self
    def __abs__(self): return self.xp.make(sympy.Abs(self.e), self.size)

    def _cmp(self, o, op):
        b = self.xp.lift(o)
        if b is NotImplemented:
            return NotImplemented
        s = sign(self.e - b.e)
        if s is None:
            raise Undecided(f"cannot order {self.e} and {b.e} exactly")
        return op(s, 0)

    def __lt__(self, o): return self._cmp(o, int.__lt__)
    def __le__(self, o): return self._cmp(o, int.__le__)
    def __gt__(self, o): return self._cmp(o, int.__gt__)
    def __ge__(self, o): return self._cmp(o, int.__ge__)
    def __eq__(self, o): return self._cmp(o, int.__eq__)
    def __ne__(self, o): return self._cmp(o, int.__ne__)
    __hash__ = None

    def __bool__(self):
        return self._cmp(0, int.__ne__)

    def __float__(self):
        raise TypeError("an exact value has no float; an evaluator that needs one is not evaluated exactly")

    def __repr__(self):
        return f"Ex({self.e})"


def _small(r) -> bool:
    """A rational exponent SymPy powers integers by in bounded work; an irrational one is never expanded."""
    return not r.is_Rational or (abs(r.p) <= MAX_POWER and ROOTS % r.q == 0)


def _power(a, b):
    if not _small(b):
        raise TooLarge(f"power with exponent {b} (numerator over {MAX_POWER} or a denominator not dividing {ROOTS})")
    return a ** b


def _exp(v):
    """exp, refusing ``exp(r log b)`` for an exponent r that is not small (SymPy makes it ``b ** r``)."""
    for term in sympy.Add.make_args(v):
        if term.has(sympy.log):
            r = sympy.Mul(*[f for f in sympy.Mul.make_args(term) if not isinstance(f, sympy.log)])
            if not _small(r):
                raise TooLarge(f"exp({_short(term)}): a power with an exponent that is not small")
    return sympy.exp(v)


class EXACT(ObjectXP):
    """Exact backend on numpy object arrays of :class:`Ex`: one instance per evaluation (it counts operations and
    records the constants it read). ``inputs``: the case's float values; ``reading``: read the other floats as the
    short rationals they round (:func:`read`)."""

    name = "exact"
    native, precise, enclosure, exact = False, False, False, True
    scalar = Ex

    def __init__(self, inputs=frozenset(), reading: bool = False):
        self.inputs, self.reading = inputs, reading
        self.ops = 0
        self.readings: dict[float, Fraction] = {}
        self._convert = np.frompyfunc(self._lift_strict, 1, 1)
        self._exp, self._log = self._unary(_exp), self._unary(sympy.log)
        self._log1p = self._unary(lambda v: sympy.log(1 + v))
        self._expm1 = self._unary(lambda v: _exp(v) - 1)
        self._sqrt, self._abs = self._unary(sympy.sqrt), self._unary(sympy.Abs)
        self._max = np.frompyfunc(lambda a, b: self._pick(a, b, larger=True), 2, 1)
        self._min = np.frompyfunc(lambda a, b: self._pick(a, b, larger=False), 2, 1)

    def make(self, e, size: int) -> Ex:
        self.ops += 1
        if self.ops > MAX_OPS:
            raise TooLarge(f"exact evaluation past {MAX_OPS} operations")
        if size + 1 > MAX_SIZE:
            raise TooLarge(f"exact value of more than {MAX_SIZE} nodes")
        return Ex(e, size + 1, self)

    def constant(self, c: float):
        """A float as an exact number: its binary value, or in a reading the short rational it rounds."""
        if not np.isfinite(c):
            raise ValueError(f"non-finite value {c} in an exact evaluation")
        if self.reading and c not in self.inputs:
            q = read(c)
            if q is not None:
                self.readings[c] = q
                return sympy.Rational(q.numerator, q.denominator)
        return sympy.Rational(c)

    def lift(self, v):
        """An operand as an :class:`Ex` (NotImplemented for arrays and foreign types: numpy or Python go on)."""
        if isinstance(v, Ex):
            return v
        if isinstance(v, (bool, np.bool_, int, np.integer)):
            return Ex(sympy.Integer(int(v)), 1, self)
        if isinstance(v, (float, np.floating)):
            return Ex(self.constant(float(v)), 1, self)
        return NotImplemented

    def _lift_strict(self, v) -> Ex:
        out = self.lift(v)
        if out is NotImplemented:
            raise TypeError(f"no exact value for {type(v).__name__}")
        return out

    def _pick(self, a, b, larger: bool) -> Ex:
        a, b = self._lift_strict(a), self._lift_strict(b)
        return a if (a >= b) == larger else b

    def _unary(self, f):
        def apply(v):
            x = self._lift_strict(v)
            return self.make(f(x.e), x.size)
        return np.frompyfunc(apply, 1, 1)

    def logsumexp(self, a, axis=-1):
        """log sum exp(a - max a) + max a: the largest term is exp(0) = 1, so ties simplify exactly."""
        a = self._convert(np.asarray(a, dtype=object))
        top = np.max(a, axis=axis, keepdims=True)
        out = self.log(np.sum(self._exp(a - top), axis=axis, keepdims=True)) + top
        return as_scalar(np.squeeze(out, axis=axis))

    @staticmethod
    def to_float(a):
        raise TypeError("exact values are not converted to float64")


@dataclasses.dataclass
class Exactly:
    """One exact evaluation of some elements: their values and signs (None where undecided), strictness, the
    constants read (value -> rational) and, where the evaluation itself failed, why."""

    exprs: list
    signs: list
    strict: np.ndarray
    readings: dict
    why: str | None = None

    def holds(self, k: int) -> bool | None:
        """Whether element k holds, decided exactly, or None."""
        s = self.signs[k]
        return None if s is None else bool(s > 0 if self.strict[k] else s >= 0)

    def reason(self, k: int) -> str:
        return self.why or f"no exact rewriting decides the sign of {_short(self.exprs[k])}"


def _short(e, limit: int = 200) -> str:
    text = str(e)
    return text if len(text) <= limit else text[:limit] + " ..."


def decide(evaluate, idx, inputs=frozenset(), reading: bool = False) -> Exactly:
    """Evaluate ``evaluate(xp, idx) -> Slack`` once on :class:`EXACT` and decide each element's sign exactly.

    Any failure of the evaluator on exact values (an operation the backend lacks, a branch on ``float``, a limit of
    :class:`TooLarge`) leaves every element undecided, with the failure as the reason."""
    n = len(idx)
    xp = EXACT(inputs, reading)
    try:
        s = evaluate(xp, np.asarray(idx, dtype=int))
        values = np.ravel(np.asarray(s.value, dtype=object))
        strict = np.broadcast_to(np.atleast_1d(np.asarray(s.strict, bool)), values.shape)
        exprs = [xp._lift_strict(v).e for v in values]
        if len(exprs) != n:
            raise ValueError(f"{len(exprs)} exact values for {n} elements")
        return Exactly(exprs, [sign(e) for e in exprs], strict, dict(xp.readings))
    except Exception as e:  # the evaluator's code may raise anything on exact values: undecided, with why
        return Exactly([None] * n, [None] * n, np.zeros(n, bool), dict(xp.readings), f"not evaluated exactly: "
                       f"{type(e).__name__}: {_short(e)}")
