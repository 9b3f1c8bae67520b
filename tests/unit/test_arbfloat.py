"""The arb-run backend: mpmath's values at dps digits from C arithmetic, every ball checked before it is read."""
import math

import mpmath
import numpy as np
import pytest
from flint import arb, ctx

from attncheck.numeric.arbfloat import ArbRun, InaccurateBall, to_mp
from attncheck.numeric.precision import MP


def _f(xp, a, b):
    """A few steps of the arithmetic a run does: products, sums, powers, log-sum-exp and the unary functions."""
    a, b = xp.asarray(a), xp.asarray(b)
    for _ in range(20):
        c = a @ b / xp.asarray(7.0)
        a = xp.exp(-xp.abs(c)) + xp.log1p(xp.abs(a)) ** xp.asarray(1.5) - xp.expm1(-xp.abs(b)) * xp.sqrt(xp.abs(c))
        b = b - xp.logsumexp(a, axis=-1)[:, None] / xp.asarray(3.0)
    return xp.sum(a * b), xp.maximum(a, b), xp.minimum(a, b)


def test_a_computation_reads_back_as_mpmath_values_at_dps_digits():
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((4, 4)), rng.standard_normal((4, 4))
    with mpmath.workdps(60):
        ref = _f(MP(60), a, b)
    with ArbRun(60).context() as xp:
        got = _f(xp, a, b)
    with mpmath.workdps(60):
        for r, g in zip(ref, got, strict=True):
            g = to_mp(g, 60)
            for x, y in zip(np.ravel(r), np.ravel(g), strict=True):
                assert abs(x - y) <= mpmath.mpf(10) ** -55 * max(1, abs(x))


def test_the_precision_is_set_per_computation_and_restored():
    before = ctx.prec
    with ArbRun(60).context() as xp:
        assert ctx.prec == xp.prec == math.ceil(60 * math.log2(10)) + 64
    assert ctx.prec == before


def test_a_wide_ball_is_never_read_as_a_value():
    """A ball wider than 10^-dps of its value (a run that lost its digits) raises; a narrow one and NaN are read."""
    with pytest.raises(InaccurateBall):
        to_mp(arb(1, 1e-40), 60)
    with pytest.raises(InaccurateBall):
        to_mp(np.array([arb(2), arb(1e-30, 1e-55)], dtype=object), 60)  # accurate only to 1e-55 absolute
    assert to_mp(arb(1, 1e-70), 60) == 1
    assert mpmath.isnan(to_mp(arb("nan"), 60))


def test_comparisons_are_decided_or_false():
    """arb's comparisons hold only where decided: a ball straddling 0 is neither > 0 nor < 0 nor == 0 (models that
    branch on a sign check for it, see julistiono2024's mirror map)."""
    with ArbRun(30).context() as xp:
        x = arb(0, 1e-40)
        assert not (x > 0 or x < 0 or x == 0)
        assert xp.maximum(arb(1), x) == arb(1)
        assert xp.maximum(x, arb(0, 1e-39)).overlaps(arb(0, 1e-39))
