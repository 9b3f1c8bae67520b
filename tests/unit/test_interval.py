"""The arb ball backend: enclosures, three-valued comparisons, precision per computation."""
import mpmath
import numpy as np
import pytest
from flint import arb, ctx

from attncheck.numeric.interval import ARB, Ball, Undecided
from attncheck.numeric.precision import F64, le


def _box(lo, hi):
    """A ball enclosing [lo, hi] (arb radii are rounded up: slightly wider)."""
    return Ball(arb(lo).union(arb(hi)))


def test_functions_enclose_the_true_values():
    xp = ARB(128)
    with xp.context():
        x = xp.asarray([0.5, 2.0, 1e-20])
        with mpmath.workdps(60):
            for f, g in [(xp.exp, mpmath.exp), (xp.log, mpmath.log), (xp.log1p, mpmath.log1p),
                         (xp.expm1, mpmath.expm1), (xp.sqrt, mpmath.sqrt)]:
                for b, v in zip(f(x), (0.5, 2.0, 1e-20), strict=False):
                    true = g(mpmath.mpf(v))
                    assert b.x.overlaps(arb(mpmath.nstr(true, 50), abs(true) * 1e-45))
                    assert b.x.rad() < abs(true) * 1e-30
        lse = xp.logsumexp(xp.asarray([[1000.0, 1000.0]]), axis=-1)
        assert lse[0].x.overlaps(arb(1000) + arb(2).log()) and lse[0].x.rad() < 1e-30
        assert xp.sum(xp.asarray([1.0, 2.0])).x == arb(3)


def test_comparisons_are_three_valued():
    xp = ARB(64)
    with xp.context():
        x = _box(1.0, 2.0)
        assert (x < 3.0) is True and (x > 3.0) is False and (x >= 0.9) is True
        for compare in (lambda: x < 1.5, lambda: x > 1.5, lambda: x == 1.5, lambda: x != 1.5, lambda: bool(x - 1.5)):
            with pytest.raises(Undecided):
                compare()
        arr = xp.asarray([x, Ball(5.0)])
        with pytest.raises(Undecided):
            xp.where(arr > 1.5, arr, 0.0)
        with pytest.raises(Undecided):
            np.max(xp.asarray([x, _box(1.5, 3.0)]))  # numpy's max compares: an overlap is never read as an order
        assert list(xp.where(arr > 0.5, arr, 0.0)) == list(arr)
        with pytest.raises(TypeError):
            float(x)  # a ball has no single value


def test_maximum_minimum_enclose_without_deciding():
    xp = ARB(64)
    with xp.context():
        x, y = _box(1.0, 3.0), _box(2.0, 4.0)
        m, n = xp.maximum(x, y), xp.minimum(x, y)
        assert m.x.contains(arb(2)) and m.x.contains(arb(4)) and not m.x.contains(arb(1.5))
        assert n.x.contains(arb(1)) and n.x.contains(arb(3)) and not n.x.contains(arb(3.5))
        assert xp.maximum(Ball(1.0), Ball(2.0)).x == arb(2)


def test_slacks_are_evaluated_unchanged():
    xp = ARB(64)
    with xp.context():
        s = le(xp.asarray([0.5, 2.0]), 1.0, xp)
        assert (s.value[0] > 0) is True and (s.value[1] < 0) is True
    assert le(F64.asarray([0.5]), 1.0, F64).value[0] == 0.5


def test_precision_is_set_per_computation():
    before, dps = ctx.prec, mpmath.mp.dps
    lo, hi = ARB(30), ARB(300)
    with lo.context():
        r30 = lo.exp(Ball(1.0)).x.rad()
        assert ctx.prec == 30
        with hi.context():
            r300 = hi.exp(Ball(1.0)).x.rad()
        assert ctx.prec == 30
    assert ctx.prec == before and mpmath.mp.dps == dps
    assert r300 < r30 * 1e-70
    with pytest.raises(RuntimeError):
        with hi.context():
            raise RuntimeError("boom")
    assert ctx.prec == before


def test_a_quantity_minus_itself_is_exactly_zero_over_itself_one():
    xp = ARB(64)
    with xp.context():
        x = _box(1.0, 2.0)
        same = Ball(x)  # one quantity, passed on (e.g. max S returned as the dominating entry)
        assert (x - same).x == arb(0) and (x / same).x == arb(1)
        twin = _box(1.0, 2.0)  # another quantity with the same enclosure: no cancellation
        assert (x - twin).x.contains(1) and (x - twin).x.contains(-1)
        assert (x / twin).x.contains(0.6)
        z = _box(-1.0, 1.0)
        assert not (z / Ball(z)).x.is_finite() or (z / Ball(z)).x.contains(-1)  # 0 / 0 is never read as 1
