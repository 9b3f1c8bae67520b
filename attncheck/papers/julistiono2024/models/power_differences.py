"""Slacks of the scalar power inequalities of julistiono2024 Lemmas 14-15, free of cancellation.

For x = y + delta >= y > 0 and u = delta / y, every slack below is a difference of
nearly equal powers when u is small. There it is summed as a binomial series whose
leading term is positive, factored as y^(p-2) delta^2 (or y^(p-2) delta) so nothing
underflows before the product; elsewhere the direct form with y^a expm1(a log1p(u)).
Each function returns ``(value, scale)``: the slack and the magnitude of the terms whose
rounding could change it, so the engine's float64 margin and mpmath escalation decide
the sign correctly (``attncheck.numeric.precision``). Valid in both backends (``xp``).
"""
from __future__ import annotations

#: |u| below which the series is used
SERIES_BELOW = 1e-3
#: series terms (ratio of successive terms <= p u <= 0.064 for p <= 64)
TERMS = 24


def _binom(a, k):
    out = 1.0 + 0.0 * a
    for j in range(k):
        out = out * (a - j) / (j + 1)
    return out


def _series(coef, u, kmin=2):
    """sum_{k >= kmin} coef(k) u^(k - kmin)."""
    out, power = 0.0 * u, 1.0 + 0.0 * u
    for k in range(kmin, kmin + TERMS):
        out = out + coef(k) * power
        power = power * u
    return out


def pow_diff(y, delta, a, xp):
    """(y + delta)^a - y^a >= 0 for y, delta >= 0 (direct, via expm1/log1p; exact for a = 1)."""
    if float(a) == 1.0:
        return xp.asarray(delta)
    if float(y) == 0.0:
        return xp.asarray(delta) ** a
    y, delta = xp.asarray(y), xp.asarray(delta)
    return y ** a * xp.expm1(a * xp.log1p(delta / y))


def _use_series(y, delta):
    return float(y) > 0 and float(delta) < SERIES_BELOW * float(y)


def lemma_14a(y, delta, p, xp):
    """Lemma 14 (A): slacks of p y^(p-1) delta <= x^p - y^p and x^p - y^p <= p x^(p-1) delta."""
    p = xp.asarray(p)
    if _use_series(y, delta):
        yy, dd = xp.asarray(y), xp.asarray(delta)
        u, lead = dd / yy, yy ** (p - 2) * dd * dd
        left = lead * _series(lambda k: _binom(p, k), u)
        right = lead * _series(lambda k: (k - 1) * _binom(p, k), u)
        return (left, xp.abs(left)), (right, xp.abs(right))
    x = xp.asarray(y) + xp.asarray(delta)
    diff = pow_diff(y, delta, p, xp)
    lo, hi = p * xp.asarray(y) ** (p - 1) * delta, p * x ** (p - 1) * delta
    return (diff - lo, xp.abs(diff) + xp.abs(lo)), (hi - diff, xp.abs(diff) + xp.abs(hi))


def lemma_14b(y, delta, p, xp):
    """Lemma 14 (B): slacks of y(x^(p-1) - y^(p-1)) <= (p-1)/p (x^p - y^p) <= x(x^(p-1) - y^(p-1))."""
    p = xp.asarray(p)
    if _use_series(y, delta):
        yy, dd = xp.asarray(y), xp.asarray(delta)
        u, lead = dd / yy, yy ** (p - 2) * dd * dd
        left = lead * _series(lambda k: (k - 1.0) / k * _binom(p - 1, k - 1), u)
        right = lead / p * _series(lambda k: _binom(p, k), u)
        return (left, xp.abs(left)), (right, xp.abs(right))
    x = xp.asarray(y) + xp.asarray(delta)
    d1, dp = pow_diff(y, delta, p - 1, xp), pow_diff(y, delta, p, xp)
    mid, lo, hi = (p - 1) / p * dp, xp.asarray(y) * d1, x * d1
    return (mid - lo, xp.abs(mid) + xp.abs(lo)), (hi - mid, xp.abs(mid) + xp.abs(hi))


def lemma_15(y, delta, p, xp):
    """Lemma 15: (value, scale) of (x^(p-1) - y^(p-1)) - delta^(p-1) (>= 0 for p >= 2, <= 0 for p <= 2).

    y >= delta, u = delta/y < 1e-3: y^(p-2) delta [(p - 2) - expm1((p - 2) log u) + sum_{k>=2} binom(p-1, k) u^(k-1)],
    whose first two terms have the sign of p - 2 and dominate; otherwise, with the larger of y, delta as s and
    r = min/max: s^(p-1) [expm1((p-1) log1p(r)) - r^(p-1)] (y < delta) or [expm1(...) - u^(p-1)] (y >= delta).
    p = 2 is the exact tie x - y = delta.
    """
    if float(p) == 2.0 or float(delta) == 0.0:
        zero = 0.0 * xp.asarray(delta)
        return zero, zero
    p = xp.asarray(p)
    yy, dd = xp.asarray(y), xp.asarray(delta)
    if _use_series(y, delta):
        u = dd / yy
        a, b = p - 2, -xp.expm1((p - 2) * xp.log(u))
        tail = u * _series(lambda k: _binom(p - 1, k), u)
        lead = yy ** (p - 2) * dd
        return lead * (a + b + tail), lead * (xp.abs(a) + xp.abs(b) + xp.abs(tail))
    big, r = (dd, yy / dd) if float(y) < float(delta) else (yy, dd / yy)
    grow, power = xp.expm1((p - 1) * xp.log1p(r)), r ** (p - 1)
    # y < delta: delta^(p-1) [(1+r)^(p-1) - 1 - r^(p-1)]; y >= delta: y^(p-1) [(1+u)^(p-1) - 1 - u^(p-1)]
    return big ** (p - 1) * (grow - power), big ** (p - 1) * (xp.abs(grow) + power)
