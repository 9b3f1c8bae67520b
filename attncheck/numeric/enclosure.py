"""Slacks known only as arb balls, computed outside ``xp`` (an exact law summed in balls, a bound), and decided by
the escalation of :func:`attncheck.numeric.precision.holds` exactly where the ball excludes 0.

:func:`ge` runs ``balls(prec) -> (lhs, rhs)`` at the working precision of the backend (:func:`bits`) and returns
the slack of ``lhs >= rhs`` with the ball's midpoint as its value and, added to its scale, the radius over the
backend's error bound (float64: :data:`~attncheck.numeric.precision.DEFAULT_MARGIN`, a claim's margin left at
its default; mpmath at dps: 10^(12 - dps)). A sign is then decided only where the midpoint exceeds twice the
radius. A ball that contains 0 stays undecided at every precision (its value is never the exact 0 mpmath takes as
a tie, unless the ball is the exact 0), and the exact backend, which balls cannot feed, leaves it undecided with
the ball as the reason.
"""
from __future__ import annotations

import mpmath
from flint import arb

from attncheck.numeric.interval import ARB, Undecided
from attncheck.numeric.precision import DEFAULT_MARGIN, Slack

#: working precision (bits) for float64; mpmath at dps gets 4 dps + 64 (dps = 30 ... 240: 184 ... 1024 bits)
F64_BITS = 128
#: working precision of the last look, for the exact backend's reason
EXACT_BITS = 4096


def bits(xp) -> int:
    """The working precision (bits) of the balls for the backend ``xp``."""
    if xp.native:
        return F64_BITS
    if xp.precise:
        return 4 * xp.dps + 64
    if xp.exact:
        return EXACT_BITS
    raise TypeError(f"no enclosure for the {xp.name} backend: the slack is summed in arb balls outside xp")


def ge(balls, xp, strict: bool = False) -> Slack:
    """Slack of ``lhs >= rhs`` (``>`` if strict) for ``balls(prec) -> (lhs, rhs)``, arb balls at ``prec`` bits."""
    prec = bits(xp)
    with ARB(prec).context():
        lhs, rhs = balls(prec)
        diff, scale = lhs - rhs, abs(lhs) + abs(rhs)
        if xp.exact:
            raise Undecided(f"the slack is the arb ball {diff.str(5, radius=True)} at {prec} bits: no exact value")
        mid, rad = diff.mid(), diff.rad()
        if mid == 0 and rad != 0:  # a nonzero value inside the ball, within the error bound: undecided
            mid = rad / 2
        if xp.native:
            return Slack(float(mid), float(scale) + 2 * float(rad) / DEFAULT_MARGIN, strict)
        return Slack(_mpf(mid), _mpf(scale.mid()) + 2 * _mpf(rad) * mpmath.mpf(10) ** (xp.dps - 12), strict)


def _mpf(x: arb) -> mpmath.mpf:
    """An exact arb (a midpoint, a radius) as mpmath's number at the working dps."""
    man, exp = x.man_exp()
    return mpmath.ldexp(int(man), int(exp))
