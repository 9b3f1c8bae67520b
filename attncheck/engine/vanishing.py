"""The vanishing rule: an asymptotic claim that a quantity tends to 0 (a little-o(1), ``claim(..., vanishes=True)``;
e.g. bombari2024 Lemma D.4's o(1/sqrt d), read as sqrt(d) r -> 0), judged on the growth exponent of the quantity
itself over the tail of its path (docs/verdicts.md, "Tends to 0"): log c ~ a + e log n by weighted least squares
(errors se / c; the bounds of e widened by the Birge ratio on both sides when the points scatter or curve beyond
their errors), or, where the tail is exact or not positive, the bounded rule's fit (:func:`.growth.tail_growth`).

- HOLDS when the quantity falls faster than n^-resolution both over the tail and over the last step (the one-sided
  upper bounds of both exponents below -resolution), or is exactly 0 over the tail. A quantity that falls to a
  plateau within the tail keeps its tail fit falling but not its last step.
- REFUTED when a fall faster than n^-resolution is excluded over the tail (the lower bound above -resolution), the
  last point is significantly above 0, and the path has at least 3 points: the quantity levels off or grows.
- INCONCLUSIVE otherwise, with the draws factor that would decide it if the estimates stayed where they are.

The resolution is the bounded rule's, mirrored: a fall slower than n^-resolution (e.g. n^-0.01) is told apart from
a positive limit in neither direction, and a plateau not yet reached at the path's end is a fall.
"""
from __future__ import annotations

import math

import numpy as np

from attncheck import stats
from attncheck.core.claims import Verdict
from attncheck.engine.growth import ASYM_ALPHA, RESOLUTION, TailGrowth, draws_to_decide, tail_growth, tail_length


def _bounds(g) -> str:
    return f"n^{g.e:.3g} [{g.lo:.3g}, {g.hi:.3g}]"


def log_growth(n, c, se, z: float) -> TailGrowth:
    """The exponent e of c ~ A n^e over the tail (the last half, at least 2 points) with one-sided bounds at level z:
    a weighted line in log-log for positive noisy values, else :func:`.growth.tail_growth` (exact or <= 0)."""
    n, c, se = (np.asarray(v, float) for v in (n, c, se))
    m = tail_length(n.size)
    nt, ct, st = n[-m:], c[-m:], se[-m:]
    if not np.all(ct > 0) or np.all(st == 0):
        return tail_growth(n, c, se, z)
    line = stats.line_fit(np.log(nt), np.log(ct), st / ct)
    e, s = float(line.coef[1]), float(line.se[1])  # se widened by the Birge ratio where chi2 > dof
    return TailGrowth(e, e - z * s, e + z * s, line, 1.0, m, False)


def vanishing_rule(n, c, se, alpha: float = ASYM_ALPHA, resolution: float = RESOLUTION) -> tuple[Verdict, dict]:
    """Tends to 0 or not, from the quantities c +- se along the path n (increasing); see the module docstring."""
    n, c, se = (np.asarray(v, float) for v in (n, c, se))
    k = n.size
    z = stats.z_one_sided(alpha)
    g = log_growth(n, c, se, z)
    last = log_growth(n[-2:], c[-2:], se[-2:], z)
    ev = {"implied_constant_max": float(np.max(c)), "tends_to": 0.0,
          "estimates": [[float(a), float(v), float(s)] for a, v, s in zip(n, c, se, strict=True)],
          "growth_exponent": g.e, "growth_exponent_ci": [g.lo, g.hi], "growth_level": 1 - 2 * alpha,
          "growth_over": [float(n[k - g.m]), float(n[-1])], "last_step_exponent": last.e,
          "last_step_exponent_ci": [last.lo, last.hi], "resolution": resolution}
    tail = slice(k - g.m, k)
    if np.all(c[tail] == 0) and np.all(se[tail] == 0):
        return Verdict.HOLDS, dict(ev, exactly_zero="the quantity is exactly 0 over the tail")
    if g.hi < -resolution and last.hi < -resolution:
        return Verdict.HOLDS, ev
    above = c[-1] - z * se[-1] > 0
    if k >= 3 and g.lo > -resolution and above:
        return Verdict.REFUTED, dict(ev, reason=(
            f"the quantity does not tend to 0: over n in [{n[k - g.m]:g}, {n[-1]:g}] it changes like {_bounds(g)} "
            f"(one-sided {1 - alpha:g} bounds), so a fall faster than n^-{resolution:g} is excluded, and at n = "
            f"{n[-1]:g} it is {c[-1]:.4g} ± {se[-1]:.2g}, significantly above 0"))
    return Verdict.INCONCLUSIVE, dict(ev, **_undecided(g, last, z, resolution, above, k))


def _factor(g, z: float, resolution: float, upper: bool) -> float:
    """The draws factor that would move the bound of g on the ``upper`` side past -resolution (inf for exact values,
    whose bounds are their steps and do not shrink with draws)."""
    if g.exact or float(g.line.se[1]) == 0.0:
        return math.inf
    return draws_to_decide(g.line, g.S, z, -resolution, upper=upper)


def _undecided(g, last, z: float, resolution: float, above: bool, k: int) -> dict:
    """Why neither verdict is significant, and the draws factor that would make the nearer one so (the tail's for the
    fall, or the larger of the tail's and the last step's), if the estimates stayed where they are."""
    what = f"the quantity changes like {_bounds(g)} over the tail and {_bounds(last)} over the last step"
    if g.e < -resolution and last.e < -resolution:
        side = f"a fall faster than n^-{resolution:g} is not significant"
        factor = max(_factor(fit, z, resolution, upper=True) for fit in (g, last) if fit.hi >= -resolution)
    elif g.e > -resolution and above and k >= 3:
        side = f"the absence of a fall faster than n^-{resolution:g} is not significant"
        factor = _factor(g, z, resolution, upper=False)
    else:
        if g.e < -resolution:
            side = f"the tail falls, but the last step does not fall faster than n^-{resolution:g}"
        elif not above:
            side = "it does not fall, but its last point is not significantly above 0"
        else:
            side = "it does not fall, and a path of 3 points at least would decide"
        factor = math.inf
    out = {"reason": f"{what}: {side}"}
    if math.isfinite(factor):
        out["decide_with"] = {"draws_factor": factor}
        out["reason"] += f"; about {factor:.2g} times the draws at the tail points would decide, if the estimates stay"
    return out
