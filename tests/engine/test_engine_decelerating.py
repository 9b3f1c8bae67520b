"""The asymptotic verdict: a rising but decelerating implied constant is not refuted."""
import math

import numpy as np

from attncheck.engine.verdict import decelerating, tail_fit

N = [64, 256, 1024]


def test_a_constant_approaching_its_limit_decelerates():
    assert decelerating(N, [7.0 - 100 / n for n in N])
    assert decelerating(N, [5.934, 6.931, 7.429])  # goel2026 lemma-20/rate, measured


def test_powers_and_logarithms_do_not():
    assert not decelerating(N, [n ** 0.1 for n in N])
    assert not decelerating(N, [n ** 0.01 for n in N])
    assert not decelerating(N, [math.log(n) for n in N])
    assert not decelerating(N, [3.0 - n / 1e4 for n in N])  # falling
    assert not decelerating(N[:2], [1.0, 2.0])


# goel2026 lemma-14/rate, deep profile, measured: an early rise, flat from n = 512 on, a noisy last step up
# (the worst case re-evaluated with 40000 draws levels off: the report's interpretation gives the numbers).
N6 = [64, 128, 256, 512, 1024, 2048]
EARLY_RISE = [11.7528, 11.9752, 12.4441, 12.7592, 12.8224, 13.0492]


def _verdict(n, c):
    from attncheck.engine.checks import Point
    from attncheck.engine.verdict import _asymptotic

    return _asymptotic([Point(point=k, worst={"implied_constant": v}) for k, v in zip(n, c, strict=False)])


def test_a_rise_that_stops_before_the_tail_is_not_a_refutation():
    from attncheck import stats

    assert stats.fit_power_law(N6, EARLY_RISE).lower > 0 and not decelerating(N6[-3:], EARLY_RISE[-3:])
    verdict, ev = _verdict(N6, EARLY_RISE)
    assert verdict.value == "INCONCLUSIVE" and ev["tail_growth_exponent_ci95"][0] <= 0
    assert _verdict(N6, [7.0 - 100 / n for n in N6])[0].value == "INCONCLUSIVE"  # decelerating, as before


def test_growth_that_goes_on_over_the_tail_is_still_refuted():
    rng = np.random.default_rng(0)
    for c in ([n ** 0.1 for n in N6], [math.log(n) for n in N6],
              [n ** 0.05 * (1 + 0.002 * rng.standard_normal()) for n in N6]):
        verdict, ev = _verdict(N6, c)
        assert verdict.value == "REFUTED" and "tail_growth_exponent" not in ev
    # three or fewer points: the tail is the whole path, the rule is unchanged
    assert tail_fit(N, [n ** 0.01 for n in N]) is None
    assert _verdict(N, [1.0, 1.2, 1.5])[0].value == "REFUTED"


def test_growth_that_speeds_up_over_an_insignificant_tail_is_still_refuted():
    """deng2023 Lemma 4.1 Part 2 at a planted 0.5 (tests/engine/test_engine.py), quick path: three tail points cannot make a
    significant fit (1 degree of freedom), but their slope exceeds the whole path's, so the growth has not slowed."""
    n = [10, 100, 1000, 1e4, 1e6, 1e9]
    c = [1.066, 1.206, 1.115, 1.795, 3.396, 15.42]
    tail = tail_fit(n, c)
    assert tail.lower <= 0
    verdict, ev = _verdict(n, c)
    assert verdict.value == "REFUTED" and "tail_growth_exponent" not in ev
