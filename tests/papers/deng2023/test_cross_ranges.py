"""The a0 and a1 ranges of the Appendix F strategies (attncheck.papers.deng2023.strategies.cross_attention)
and the reduced evaluator at their ends: a0 = 1e-200, a1 = 1 + 2^-52 and a1 = 10^300 (Definition F.1)."""
from __future__ import annotations

import math

import mpmath
from hypothesis import find, given, settings

from attncheck.numeric.precision import MP
from attncheck.papers.deng2023 import certification
from attncheck.papers.deng2023.models.class_attention import definition_f1 as cm
from attncheck.papers.deng2023.strategies import cross_attention as cas


@settings(max_examples=300, deadline=None)
@given(cas.a0_values(), cas.a1_values(cas.A1_MAX))
def test_drawn_parameters_lie_in_definition_f1(a0, a1):
    assert cas.A0_MIN <= a0 < 0.1 and 1.0 < a1 <= cas.A1_MAX
    cas.CrossCase(12, 4, 0, a0, a1, 0, 0).params()


def test_ranges_reach_both_ends_of_each_interval():
    assert find(cas.a0_values(), lambda a: a == cas.A0_MIN) == cas.A0_MIN
    assert find(cas.a0_values(), lambda a: a == math.nextafter(0.1, 0.0)) < 0.1
    assert find(cas.a1_values(cas.A1_MAX), lambda a: a == math.nextafter(1.0, 2.0)) > 1.0
    assert find(cas.a1_values(cas.A1_MAX), lambda a: a == 1e300) == 1e300
    assert find(cas.a0_values(), lambda a: 1e-150 < a < 1e-100)  # the log-uniform draw covers the decades between
    assert find(cas.a1_values(cas.A1_MAX), lambda a: 1e100 < a < 1e200)


def test_certification_box_is_the_drawn_range():
    assert certification.F_A_RANGE == {"a0": (cas.A0_MIN, 0.1), "a1": (cas.A1_MIN, cas.A1_MAX)}


def test_tiny_a0_tight_bound_decided_at_240_digits():
    """Lemma F.6 Part 3a (D0): f_{j2,j3} = n^{a0}/(n^{a0}+n-1) < n^{a0-1}; at a0 = 1e-200 the gap is
    (n^{a0} - 1)/n ~ a0 log n / n relative, resolved in 240-digit arithmetic."""
    n, a0 = 10**15, 1e-200
    with mpmath.workdps(240):
        f = cm.f(n, 2, a0, MP(240), True)[cm.QUERY_J2, cm.KEY_J3]
        bound = mpmath.power(n, mpmath.mpf(a0) - 1)
        gap = (bound - f) / bound
        expect = (mpmath.power(n, a0) - 1) / (mpmath.power(n, a0) + n - 1)
        assert gap > 0 and mpmath.almosteq(gap, expect, rel_eps=mpmath.mpf(10) ** -20)


def test_huge_a1_keys_exact_in_mpmath():
    """a1 = 10^300 (D1, j2 = j3): f_{j2,j1} = 1/(n^{a1} + n - 1) for j1 != j3 is exp(-a1 log n) to leading
    order, far below float64's range and held in mpmath's unbounded exponent."""
    n, a1 = 10**15, 1e300
    with mpmath.workdps(30):
        f = cm.f(n, 3, a1, MP(30), True)
        log_f = mpmath.log(f[cm.QUERY_J2, cm.KEY_REST])
        assert mpmath.almosteq(log_f, -mpmath.mpf(a1) * mpmath.log(n), rel_eps=mpmath.mpf(10) ** -20)
        assert f[cm.QUERY_J2, cm.KEY_J3] == 1  # 1 - (n-1) n^{-a1} to 30 digits


def test_a1_next_to_one_tells_apart_from_one():
    """a1 = 1 + 2^-52: the score of the special key exceeds the plain ones by (a1 - 1) log n > 0 exactly."""
    n, a1 = 10**6, math.nextafter(1.0, 2.0)
    with mpmath.workdps(60):
        S = cm.scores(n, a1, MP(60))
        assert S[cm.QUERY_J2, cm.KEY_J3] - S[cm.QUERY_J2, cm.KEY_R3] > mpmath.log(n)
