"""attncheck.stats.mean_within: the k-standard-error normal test of Monte Carlo means (goel2026's
identities and inequalities), against planted false cases and their true twins."""
import numpy as np
import pytest

from attncheck.stats import mean_se, mean_within


def _draws(offset_in_se, size=4000, seed=0):
    """Draws whose sample mean lies exactly ``offset_in_se`` sample standard errors above 0."""
    z = np.random.default_rng(seed).standard_normal(size)
    z = (z - z.mean()) / (z.std(ddof=1) / np.sqrt(size))  # mean 0, standard error 1
    return (z + offset_in_se) * 0.01


def test_mean_se_is_the_sample_mean_and_its_standard_error():
    v = np.arange(10.0)
    m, se = mean_se(v)
    assert m == 4.5 and se == pytest.approx(np.std(v, ddof=1) / np.sqrt(10))


@pytest.mark.parametrize("sign", [1, -1])
def test_identity_rejects_a_mean_ten_standard_errors_off_and_accepts_one(sign):
    assert not mean_within(*mean_se(_draws(sign * 10.0))).accepted
    assert mean_within(*mean_se(_draws(sign * 1.0))).accepted


def test_identity_is_per_coordinate():
    v = np.stack([_draws(1.0, seed=1), _draws(10.0, seed=2)], axis=1)
    t = mean_within(*mean_se(v))
    assert not t.accepted and list(np.asarray(t.lhs) <= np.asarray(t.rhs)) == [True, False]


def test_identity_accepts_an_exact_zero_with_no_spread():
    assert mean_within(*mean_se(np.zeros(5))).accepted


def test_upper_bound_rejects_a_mean_ten_standard_errors_above_and_accepts_one():
    bound = 0.3
    assert not mean_within(*mean_se(bound + _draws(10.0)), bound).accepted
    assert mean_within(*mean_se(bound + _draws(1.0)), bound).accepted
    assert mean_within(*mean_se(bound + _draws(-10.0)), bound).accepted  # one-sided: below is fine


def test_upper_bound_rounding_allowance_follows_scale():
    assert mean_within(1e-10, 0.0, 0.0, scale=1.0).accepted  # within 1e-9 of the scale
    assert not mean_within(1e-10, 0.0, 0.0).accepted  # scale = bound = 0: no allowance


def test_the_sides_are_the_goel2026_formulas():
    """Exactly the expressions the goel2026 claim files compared before the rule moved here."""
    est, se, bound, scale = 0.123, 0.004, 0.1, 0.7
    t = mean_within(est, se, bound, scale=scale)
    assert t.lhs == est - (5 * se + 1e-9 * abs(scale)) and t.rhs == bound
    t = mean_within(np.array([est, -est]), np.array([se, se]))
    assert np.array_equal(t.lhs, np.abs(np.array([est, -est]))) and np.array_equal(t.rhs, 5 * np.array([se, se]) + 1e-300)
