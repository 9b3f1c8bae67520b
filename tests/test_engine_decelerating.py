"""The asymptotic verdict: a rising but decelerating implied constant is not refuted."""
import math

from attncheck.engine.verdict import decelerating

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
