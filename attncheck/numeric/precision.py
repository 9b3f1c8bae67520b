"""Numeric backends, slack values and adaptive mpmath escalation.

Evaluators are written once against a backend ``xp``: :data:`F64` (numpy float64,
the fast path) or :class:`MP` (numpy object arrays of ``mpmath.mpf`` at a working
precision). Inputs given in float64 are exact binary numbers, so re-evaluating them
with mpmath decides the true sign of a slack for *those* inputs.

A slack is "ambiguous" in float64 when ``|value| <= margin * scale``; such cases are
re-evaluated at rising precision until the sign is decided (:func:`holds`), and what no precision
decides (a tie) is evaluated once in exact arithmetic (:mod:`attncheck.numeric.exact`). A tiny
violation is re-checked with the evaluator's float constants read as the rationals they round.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import mpmath
import numpy as np

from attncheck.core.claims import DPS_SCHEDULE
from attncheck.numeric import exact

#: relative float64 error margin used when a claim does not set its own
DEFAULT_MARGIN = 1e-11
#: a violation at most this relative size (2^-40, about 8000 float64 ulps) is re-checked with the evaluator's
#: float constants read as rationals: a larger one cannot come from the rounding of a few constants
ROUNDING = 2.0**-40
#: the advice every float-constant diagnosis carries
THROUGH_XP = ("write the bound through xp, e.g. 1 / xp.asarray(float(len(x))) instead of 1.0 / len(x) "
              "(docs/writing-claims.md, \"Ties and float constants\")")


class _F64:
    """numpy float64 backend."""

    name = "float64"
    native, precise, enclosure, exact = True, False, False, False
    exp, log, log1p, sqrt, abs = np.exp, np.log, np.log1p, np.sqrt, np.abs
    expm1 = np.expm1
    maximum, minimum = np.maximum, np.minimum
    where = staticmethod(np.where)

    @staticmethod
    def asarray(a):
        return np.asarray(a, dtype=float)

    @staticmethod
    def sum(a, axis=None):
        return np.sum(a, axis=axis)

    @staticmethod
    def logsumexp(a, axis=-1):
        a = np.asarray(a, dtype=float)
        top = np.max(a, axis=axis, keepdims=True)
        top = np.where(np.isfinite(top), top, 0.0)
        out = np.log(np.sum(np.exp(a - top), axis=axis, keepdims=True)) + top
        return np.squeeze(out, axis=axis)

    @staticmethod
    def to_float(a):
        return np.asarray(a, dtype=float)


F64 = _F64()


def _ufunc(f):
    return np.frompyfunc(f, 1, 1)


class MP:
    """mpmath backend on numpy object arrays; use inside ``mpmath.workdps(dps)``."""

    name = "mpmath"
    native, precise, enclosure, exact = False, True, False, False
    exp, log, log1p, sqrt = _ufunc(mpmath.exp), _ufunc(mpmath.log), _ufunc(mpmath.log1p), _ufunc(mpmath.sqrt)
    expm1 = _ufunc(mpmath.expm1)
    abs = _ufunc(abs)
    _max = np.frompyfunc(lambda a, b: a if a >= b else b, 2, 1)
    _min = np.frompyfunc(lambda a, b: a if a <= b else b, 2, 1)

    def __init__(self, dps: int):
        self.dps = dps

    @staticmethod
    def asarray(a):
        arr = np.asarray(a)
        if arr.dtype == object:
            return arr
        return _ufunc(lambda v: mpmath.mpf(float(v)))(arr) if arr.ndim else mpmath.mpf(float(arr))

    def maximum(self, a, b):
        return self._max(a, b)

    def minimum(self, a, b):
        return self._min(a, b)

    @staticmethod
    def where(cond, a, b):
        return np.where(cond, a, b)

    @staticmethod
    def sum(a, axis=None):
        return np.asarray(np.sum(np.asarray(a, dtype=object), axis=axis), dtype=object)

    def logsumexp(self, a, axis=-1):
        a = np.asarray(a, dtype=object)
        top = np.max(a, axis=axis, keepdims=True)
        out = self.log(np.sum(self.exp(a - top), axis=axis, keepdims=True)) + top
        return np.squeeze(out, axis=axis)

    @staticmethod
    def to_float(a):
        return np.asarray(a, dtype=object).astype(float)


@dataclass
class Slack:
    """Signed distance of a claim from failing: holds iff value >= 0 (> 0 if strict).

    ``scale`` is the magnitude of the quantities compared; float64 cannot decide a
    value within ``margin * scale`` of zero.
    """

    value: object
    scale: object
    strict: object = False  # a bool, or a bool array (per element, see all_of)

    def holds(self, value=None):
        v = self.value if value is None else value
        return np.where(self.strict, v > 0, v >= 0)


def le(a, b, xp=F64, strict: bool = False) -> Slack:
    """Slack of ``a <= b`` (``a < b`` if strict)."""
    return Slack(b - a, xp.abs(a) + xp.abs(b), strict)


def ge(a, b, xp=F64, strict: bool = False) -> Slack:
    """Slack of ``a >= b`` (``a > b`` if strict)."""
    return le(b, a, xp, strict)


def lt(a, b, xp=F64) -> Slack:
    return le(a, b, xp, strict=True)


def gt(a, b, xp=F64) -> Slack:
    return le(b, a, xp, strict=True)


def close(lhs, rhs, rtol: float, atol: float = 0.0, xp=F64) -> Slack:
    """Slack of the identity ``|lhs - rhs| <= rtol * max(|lhs|, |rhs|) + atol``; a backend with its own
    ``close`` (the symbolic one: the identity itself, proved exactly) decides it."""
    if hasattr(xp, "close"):
        return xp.close(lhs, rhs, rtol, atol)
    scale = xp.maximum(xp.abs(lhs), xp.abs(rhs))
    return Slack(rtol * scale + atol - xp.abs(lhs - rhs), scale + atol)


def all_of(*slacks: Slack, xp=F64) -> Slack:
    """Conjunction of slacks on the same samples, strict or not: holds iff each one holds.

    The value is the smallest relative slack; it is strict where that smallest one is
    strict (at equal values, strict wins), so an exact tie fails exactly when it should.
    """
    out, strict = None, None
    for s in slacks:
        rel = s.value / xp.maximum(s.scale, 1e-300)
        mine = np.broadcast_to(np.asarray(s.strict, bool), np.shape(rel))
        if out is None:
            out, strict = rel, mine
            continue
        take = np.asarray((rel < out) | ((rel == out) & mine), bool)
        out, strict = xp.where(take, rel, out), np.where(take, mine, strict)
    return Slack(out, 1.0 + 0.0 * out, strict)


def both(*slacks: Slack, xp=F64) -> Slack:
    """Conjunction of non-strict slacks on the same samples: the smallest relative slack."""
    if any(np.any(s.strict) for s in slacks):
        raise ValueError("both() combines non-strict slacks only")
    rel = [s.value / xp.maximum(s.scale, 1e-300) for s in slacks]
    out = rel[0]
    for r in rel[1:]:
        out = xp.minimum(out, r)
    return Slack(out, 1.0 + 0.0 * out)


class NonFinite(ArithmeticError):
    """A slack evaluated to NaN or inf: the claim's verdict is ERROR, never a pass."""


@dataclass
class Escalation:
    """Count of cases float64 left undecided and how they were settled."""

    evaluated: int = 0
    escalated: int = 0
    undecided: int = 0
    max_dps: int = 0
    flipped: int = 0  # mpmath sign disagreed with float64
    exact: int = 0  # decided by exact evaluation after the last precision
    constants: int = 0  # violations that vanish (or turn undecided) with the float constants read as rationals


class Decided(NamedTuple):
    ok: np.ndarray
    value: np.ndarray
    scale: np.ndarray
    undecided: np.ndarray
    rel: np.ndarray  # value / scale, from mpmath where escalated (finite even when float64 overflowed)
    notes: tuple = ()  # dicts, one per element left undecided ("undecided": why) or re-read ("constants")


def _sign_mp(value, scale, dps):
    """+1/-1 if |value| exceeds the mp error bound at dps, 0 for an exact zero, None if undecided."""
    if value == 0:
        return 0
    if abs(value) > abs(scale) * mpmath.mpf(10) ** (12 - dps):
        return 1 if value > 0 else -1
    return None


def _relative(value, scale):
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return value / np.maximum(np.abs(scale), 1e-300)


def holds(evaluate, margin: float = DEFAULT_MARGIN, stats: Escalation | None = None,
          schedule: tuple[int, ...] = DPS_SCHEDULE, inputs=None):
    """Decide, element-wise, whether ``evaluate(xp) -> Slack`` holds.

    ``evaluate(xp, index)`` is called with ``F64`` and ``index=None`` first; elements
    with ``|value| <= margin * scale``, and elements whose float64 value or scale is
    not finite (overflow, inf - inf), are re-evaluated as ``evaluate(MP(dps), index)``
    (only those elements) at each precision of ``schedule`` in turn. An element whose
    value is exactly zero at two consecutive precisions counts as an exact tie. Only a
    slack that mpmath too finds non-finite raises :class:`NonFinite`. What the last
    precision leaves undecided is evaluated once exactly (:func:`exact.decide`).

    ``inputs`` (the case, or None): its floats are the case's inputs, every other float the
    evaluation meets is a constant of the evaluator. Given, an element that fails by
    at most :data:`ROUNDING` relative is re-evaluated exactly with those constants read as the
    short rationals they round: if it then holds, the violation was the constants' rounding (it
    holds, with a note naming them); if that cannot be decided, it is undecided; if it still
    fails, the violation stands.

    Returns a :class:`Decided` over the flattened elements: whether each holds, its
    slack value (mpmath-refined where escalated), its scale, whether it stayed
    undecided (such elements count as not holding), the relative slack, and the notes.
    """
    stats = stats if stats is not None else Escalation()
    with np.errstate(over="ignore", invalid="ignore"):
        s = evaluate(F64, None)
        value = np.atleast_1d(np.asarray(s.value, dtype=float)).copy()
        scale = np.broadcast_to(np.atleast_1d(np.asarray(s.scale, dtype=float)), value.shape).copy()
        finite = np.isfinite(value) & np.isfinite(scale)
        ok = np.atleast_1d(s.holds(value)) & finite
    rel = _relative(value, scale)
    stats.evaluated += value.size
    amb = np.flatnonzero(~finite | (np.abs(value) <= margin * np.abs(scale)))
    undecided = np.zeros(value.shape, bool)
    notes = []
    if amb.size:
        stats.escalated += amb.size
        pending = _escalate(evaluate, amb, ok, value, scale, rel, finite, stats, schedule)
        if pending.size:
            pending = _exactly(evaluate, pending, ok, value, rel, finite, stats, notes)
        undecided[pending] = True
        stats.undecided += pending.size
        ok[pending] = False
    if inputs is not None:
        _constants(evaluate, ok, undecided, rel, inputs, stats, notes)
    return Decided(ok, value, scale, undecided, rel, tuple(notes))


def _escalate(evaluate, pending, ok, value, scale, rel, finite, stats, schedule) -> np.ndarray:
    """Re-evaluate the ambiguous elements in mpmath at each precision of ``schedule`` (see :func:`holds`); update
    them in place and return those still undecided."""
    zero_seen = np.zeros(value.shape, bool)
    for dps in schedule:
        stats.max_dps = max(stats.max_dps, dps)
        with mpmath.workdps(dps):
            sm = evaluate(MP(dps), pending)
            vals = np.atleast_1d(np.asarray(sm.value, dtype=object))
            scs = np.broadcast_to(np.atleast_1d(np.asarray(sm.scale, dtype=object)), vals.shape)
            strs = np.broadcast_to(np.atleast_1d(np.asarray(sm.strict, bool)), vals.shape)
            still = []
            for i, v, sc, strict in zip(pending, vals, scs, strs, strict=False):
                v, sc = mpmath.mpf(v), mpmath.mpf(sc)
                if not (mpmath.isfinite(v) and mpmath.isfinite(sc)):
                    raise NonFinite(f"slack is not finite in float64 nor in mpmath at dps={dps}: {v}")
                # the best value so far, decided or not (finite even where float64 overflowed)
                value[i], scale[i] = float(v), float(sc)
                rel[i] = float(v / max(abs(sc), mpmath.mpf("1e-300")))
                sign = _sign_mp(v, sc, dps)
                if sign == 0 and not zero_seen[i]:
                    zero_seen[i] = True
                    still.append(i)
                    continue
                if sign is None:
                    still.append(i)
                    continue
                new_ok = sign > 0 if strict else sign >= 0
                stats.flipped += int(finite[i] and bool(new_ok) != bool(ok[i]))
                ok[i] = new_ok
            pending = np.asarray(still, dtype=int)
        if pending.size == 0:
            break
    return pending


def _exactly(evaluate, pending, ok, value, rel, finite, stats, notes) -> np.ndarray:
    """Settle what no precision decided by one exact evaluation; return what stays undecided (noted, with why)."""
    ex = exact.decide(evaluate, pending)
    still = []
    for k, i in enumerate(pending):
        new_ok = ex.holds(k)
        if new_ok is None:
            still.append(i)
            notes.append({"element": int(i), "undecided": ex.reason(k)})
            continue
        stats.exact += 1
        stats.flipped += int(finite[i] and new_ok != bool(ok[i]))
        ok[i] = new_ok
        if ex.signs[k] == 0:
            value[i] = rel[i] = 0.0
    return np.asarray(still, dtype=int)


def _constants(evaluate, ok, undecided, rel, inputs, stats, notes) -> None:
    """Re-check tiny violations with the evaluator's float constants read as rationals (see :func:`holds`)."""
    tiny = [int(i) for i in np.flatnonzero(~ok & ~undecided & (np.abs(rel) <= ROUNDING))]
    if not tiny:
        return
    ex = exact.decide(evaluate, tiny, exact.floats_of(inputs), reading=True)
    if not ex.readings or ex.why:  # no constant read, or the evaluator does not run exactly: the violation stands
        return
    constants = [{"value": c, "read_as": str(q)} for c, q in sorted(ex.readings.items())]
    for k, i in enumerate(tiny):
        new_ok = ex.holds(k)
        if new_ok is False:
            continue
        stats.constants += 1
        note = {"element": i, "constants": constants, "relative_slack": float(rel[i]), "advice": THROUGH_XP}
        if new_ok is None:
            undecided[i] = True
            stats.undecided += 1
            note["undecided"] = f"fails by {rel[i]:.3g} (relative) with the float constants as written; " \
                                f"with them read as rationals, {ex.reason(k)}"
        else:
            ok[i] = True
            note["holds"] = "holds exactly with the float constants read as rationals: the violation is their rounding"
        notes.append(note)
