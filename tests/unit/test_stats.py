"""Exact intervals, the sequential decision and its calibration (size and power)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sst

from attncheck import stats
from attncheck.core.profiles import PROFILES


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 500).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
       st.sampled_from([0.01, 0.05, 0.2]))
def test_clopper_pearson_is_exact(kn, alpha):
    k, n = kn
    lo, hi = stats.cp_lower(k, n, alpha), stats.cp_upper(k, n, alpha)
    assert 0 <= lo <= k / n <= hi <= 1
    # defining property: the bounds are where the binomial tail equals alpha
    if k < n:
        assert sst.binom.cdf(k, n, hi) == pytest.approx(alpha, rel=1e-6)
    if k > 0:
        assert sst.binom.sf(k - 1, n, lo) == pytest.approx(alpha, rel=1e-6)


def test_bad_inputs_are_rejected_with_the_constraint_named():
    with pytest.raises(ValueError, match=r"must lie in \[0, 1\]"):
        stats.check_probability(1.2)
    with pytest.raises(ValueError, match="alpha must lie in"):
        stats.cp_upper(1, 2, 0.0)
    with pytest.raises(ValueError, match="0 <= k <= n"):
        stats.cp_upper(3, 2, 0.05)
    with pytest.raises(ValueError, match="relation"):
        stats.decide(1, 2, 0.5, "<", 0.05)


def test_power_law_fit_recovers_exponent():
    n = np.logspace(1, 6, 8)
    fit = stats.fit_power_law(n, 3 * n ** 0.25)
    assert fit.slope == pytest.approx(0.25)


def test_binomial_power_law_is_calibrated_on_a_flat_rate_and_finds_a_slow_fall():
    """A flat failure rate is called 'falling' (95% CI of the slope below 0) in about 2.5% of runs
    whatever the scatter of the few points; a rate falling like n^-0.05 is found."""
    rng = np.random.default_rng(0)
    n = np.array([10, 1e2, 1e3, 1e4, 1e6, 1e9])
    m = np.full(n.size, 2000)
    falls = [stats.fit_binomial_power_law(n, rng.binomial(m, 0.2), m).upper < 0 for _ in range(4000)]
    assert np.mean(falls) < 0.035
    slow = stats.fit_binomial_power_law(n, rng.binomial(m, 0.5 * n ** -0.05), m)
    assert slow.upper < 0 and slow.lower < -0.05 < slow.upper


def test_binomial_power_law_rejects_degenerate_input():
    with pytest.raises(ValueError, match="0 < failures < draws"):
        stats.fit_binomial_power_law([10, 100, 1000], [0, 5, 5], [100, 100, 100])
    with pytest.raises(ValueError, match="distinct n"):
        stats.fit_binomial_power_law([10, 10, 10], [5, 5, 5], [100, 100, 100])


def _refutation_rate(p_true, p, alpha_test, first, budget, runs, rng):
    """Vectorised replica of the engine's sequential test over many independent runs."""
    sizes = stats.looks(first, budget)
    refuted = np.zeros(runs, bool)
    active = np.ones(runs, bool)
    k = np.zeros(runs, np.int64)
    drawn = 0
    for size in sizes:
        k += rng.binomial(size - drawn, p_true, runs)
        drawn = size
        hi = np.where(k == drawn, 1.0, sst.beta.ppf(1 - alpha_test, k + 1, drawn - k))
        lo = np.where(k == 0, 0.0, sst.beta.ppf(alpha_test, k, drawn - k + 1))
        newly = active & (hi < p)
        refuted |= newly
        active &= ~newly & ~((lo >= p) & (p < 1))
    return refuted.mean()


@pytest.mark.parametrize("p", [0.5, 0.9, 0.99])
def test_size_a_true_claim_at_its_bound_is_rarely_refuted(p):
    # calibration at a large level so miscalibration is visible: alpha = 0.2 over 4 looks
    prof = PROFILES["quick"]
    looks = len(stats.looks(prof.mc_first, prof.mc_budget))
    rate = _refutation_rate(p, p, 0.2 / looks, prof.mc_first, prof.mc_budget, 20000, np.random.default_rng(1))
    assert rate <= 0.2


@pytest.mark.parametrize("p", [0.5, 0.9, 0.99, 1.0])
def test_power_a_claim_0_05_too_optimistic_is_refuted(p):
    # the engine's per-test level: alpha split over the claims, the confirmed cases of one point and the looks of
    # a confirmation (attncheck.engine.screen); within the plain per-case budget
    prof = PROFILES["quick"]
    alpha_test = prof.alpha / prof.claims / (prof.confirm * len(stats.looks(prof.mc_first, prof.confirm_budget)))
    rate = _refutation_rate(p - 0.05, p, alpha_test, prof.mc_first, prof.mc_budget, 4000,
                            np.random.default_rng(2))
    assert rate >= 0.95


def test_decide_matches_the_engine_replica():
    d = stats.decide(40, 100, 0.5, ">=", 0.01)
    assert d.state == "continue" and d.upper > 0.5
    assert stats.decide(30, 100, 0.5, ">=", 0.01).state == "refute"
    assert stats.decide(99, 100, 0.5, ">=", 0.01).state == "holds"
    assert stats.decide(100, 100, 1.0, ">=", 0.01).state == "continue"  # p = 1 is never confirmed early
    assert stats.decide(50, 100, 0.5, "==", 0.01).state == "continue"
    assert stats.decide(80, 100, 0.5, "==", 0.01).state == "refute"


def test_screen_score_ranks_by_the_liberal_bound_and_is_negative_when_significant():
    assert stats.screen_score(1700, 2000, 0.9, ">=") < 0 < stats.screen_score(1800, 2000, 0.9, ">=")
    # the bound, not the rate, ranks: the same shortfall is more suspect with more draws
    assert stats.screen_score(17_600, 20_000, 0.9, ">=") < stats.screen_score(1760, 2000, 0.9, ">=")
    assert stats.screen_score(1000, 2000, 0.5, "==") > 0 > stats.screen_score(1200, 2000, 0.5, "==")


def test_off_claim_is_the_failing_side():
    assert stats.off_claim(89, 100, 0.9, ">=") and not stats.off_claim(90, 100, 0.9, ">=")
    assert stats.off_claim(40, 100, 0.5, "==") and not stats.off_claim(48, 100, 0.5, "==")


def test_floor_fit_separates_a_plateau_from_a_power_law_and_flags_steps():
    n = np.array([10, 1e2, 1e3, 1e4, 1e6, 1e9])
    m = np.full(6, 100_000)
    plateau = stats.fit_binomial_floor(n, np.round(m * (0.08 + 0.25 * n**-0.3)), m, level=0.05)
    assert plateau.floor_lower > 0.05 and plateau.fits(0.001)
    power = stats.fit_binomial_floor(n, np.round(m * 0.33 * n**-0.08), m, level=0.05)
    assert power.floor_lower == 0.0 and power.floor < 0.05 and power.fits(0.001)
    assert 9.5 < power.reaches(0.05) < 11  # 0.33 n^-0.08 = 0.05 at n = 10^10.2
    steps = stats.fit_binomial_floor(n, np.round(m * np.array([0.5, 0.5, 0.125, 0.125, 0.0625, 0.125])), m,
                                     level=0.001)
    assert not steps.fits(0.001)
