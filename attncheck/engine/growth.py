"""The growth exponent of an implied constant over the tail of its path (docs/verdicts.md, "Asymptotic claims"),
shared by the bounded rule (:func:`.verdict.asymptotic_rule`) and the vanishing rule (:func:`.vanishing.vanishing_rule`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attncheck import stats

#: growth slower than n^RESOLUTION over the tail of the path is not told apart from a limit
RESOLUTION = 0.02
#: one-sided level of each asymptotic test (growth, curvature, resolution): the suite's alpha
ASYM_ALPHA = 0.01


def tail_length(k: int) -> int:
    """Points in the tail of a k-point path: the last half, at least 2."""
    return max(2, -(-k // 2))


@dataclass(frozen=True)
class TailGrowth:
    """The tail's growth exponent e with its one-sided bounds [lo, hi]: c ~ a + b log n over the last m points,
    e = b / S (S the mean |c| there); ``exact`` when every tail constant is exact and positive (bounds from its steps)."""

    e: float
    lo: float
    hi: float
    line: stats.WeightedFit
    S: float
    m: int
    exact: bool


def tail_growth(n, c, se, z: float) -> TailGrowth:
    """The growth exponent over the tail (the last half of the path, at least 2 points), at one-sided level z.

    c ~ a + b log n by weighted least squares, e = b / S (for c = A n^e, dc/dlog n = e c, and the fit's slope is
    that at the middle of the tail). When the tail has more points than parameters and scatters beyond its errors,
    the upper bound is widened by the Birge ratio (scatter can hide growth), the lower one is not. When every tail
    constant is exact (se 0) and positive, the bounds are the smallest and largest step exponents
    log(c_{i+1}/c_i) / log(n_{i+1}/n_i) of the tail (nothing scatters: the line's misfit is the curve's shape)."""
    n, c, se = (np.asarray(v, float) for v in (n, c, se))
    k = n.size
    m = tail_length(k)
    tail = slice(k - m, k)
    line = stats.line_fit(np.log(n[tail]), c[tail], se[tail])
    b, sb = float(line.coef[1]), float(line.se[1])
    sb_low = sb / max(1.0, line.birge)  # the lower side from the stated errors alone
    S = float(np.mean(np.abs(c[tail])))
    if S == 0.0:  # the tail is exactly 0: scale by the path (or it is 0 everywhere: no growth at all)
        S = float(np.max(np.abs(c))) or 1.0
    e, lo, hi = b / S, (b - z * sb_low) / S, (b + z * sb) / S
    exact = bool(np.all(se[tail] == 0) and np.all(c[tail] > 0))
    if exact:
        steps = np.diff(np.log(c[tail])) / np.diff(np.log(n[tail]))
        e = float(np.log(c[-1] / c[k - m]) / np.log(n[-1] / n[k - m]))
        lo, hi = float(steps.min()), float(steps.max())
    return TailGrowth(e, lo, hi, line, S, m, exact)


def draws_to_decide(line, S: float, z: float, threshold: float, upper: bool) -> float:
    """The factor on the draws that would bring the bound of the growth exponent on the undecided side (``upper``:
    the upper one) past ``threshold`` if the estimates' means stayed where they are (inf where none would).

    The slope's variance v (from the stated errors) shrinks like 1/F with F times the draws. On the upper side the
    rule widens it by max(1, chi2/dof); of chi2, about dof is the errors' own scatter, which shrinks with them,
    and the excess chi2 - dof is the tail's misfit to a line in log n (a limit approached like n^-g), which does
    not: with F times the draws chi2 is about dof + F (chi2 - dof), so the widened variance is v (1/F + (chi2 -
    dof)^+ / dof), with a floor. F solves v (1/F + (chi2 - dof)^+ / dof) = (gap/z)^2; the lower side is not widened."""
    b, sb = float(line.coef[1]), float(line.se[1])
    gap = abs(b - threshold * S)
    v = sb ** 2 / max(1.0, line.birge ** 2)
    misfit = max(0.0, line.chi2 - line.dof) / line.dof if upper and line.dof > 0 else 0.0
    room = (gap / z) ** 2 / v - misfit if gap > 0 else 0.0
    return 1.0 / room if room > 0 else math.inf
