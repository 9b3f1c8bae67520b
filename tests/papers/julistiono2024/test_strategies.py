"""julistiono2024 strategies: the step sizes att_cases draws and the exponents wide_exponents draws."""
from hypothesis import given, settings

from attncheck.papers.julistiono2024.strategies.mirror_descent import (
    ETA_WIDE,
    P_FLOAT,
    P_MAX,
    att_cases,
    wide_exponents,
)


@settings(max_examples=200, deadline=None, database=None)
@given(att_cases())
def test_att_cases_draw_eta_in_the_typical_or_the_wide_range(case):
    assert 1e-4 <= case.eta <= 1e2 or ETA_WIDE[0] * (1 - 1e-12) <= case.eta <= ETA_WIDE[1] * (1 + 1e-12)


def test_att_cases_reach_both_ends_of_the_wide_range():
    seen = []

    @settings(max_examples=300, deadline=None, database=None, derandomize=True)  # a fixed draw: not flaky
    @given(att_cases())
    def collect(case):
        seen.append(case.eta)

    collect()
    assert min(seen) < 1e-6 and max(seen) > 1e10


@settings(max_examples=20, deadline=None, database=None)
@given(att_cases(eta_lo=1e-3, eta_hi=1e-3))
def test_att_cases_keep_a_fixed_eta(case):
    assert abs(case.eta / 1e-3 - 1) < 1e-12


def test_wide_exponents_stay_in_range_and_reach_both_parts():
    seen = []

    @settings(max_examples=300, deadline=None, database=None, derandomize=True)  # a fixed draw: not flaky
    @given(wide_exponents(2.0, P_FLOAT))
    def collect(p):
        seen.append(p)

    collect()
    assert all(2.0 <= p <= P_FLOAT for p in seen)
    assert any(p <= 4.0 for p in seen) and any(p > 1e100 for p in seen) and P_FLOAT in seen
    assert sum(p <= P_MAX for p in seen) > 50  # the standard range keeps a large share of the draws
