"""attncheck.stats.mean_test: the t test of Monte Carlo means that decides expectation claims, against planted
false means and their true twins, ties with no spread, coordinates and its error rate."""
import numpy as np
import pytest

from attncheck.stats import mean_test


def _draws(offset_in_se, size=4000, seed=0):
    """Draws whose sample mean lies exactly ``offset_in_se`` sample standard errors above 0."""
    z = np.random.default_rng(seed).standard_normal(size)
    z = (z - z.mean()) / (z.std(ddof=1) / np.sqrt(size))  # mean 0, standard error 1
    return (z + offset_in_se) * 0.01


@pytest.mark.parametrize("size", [100, 4000, 64000])
def test_a_mean_three_se_above_the_bound_is_refuted_and_its_twin_is_not(size):
    """At alpha = 0.01 (one-sided t quantile 2.33-2.36): 3 se above refutes, at the bound and below never."""
    assert mean_test(_draws(3.0, size), "<=", 0.01).state == "refute"
    assert mean_test(_draws(0.0, size), "<=", 0.01).state == "continue"
    assert mean_test(-_draws(3.0, size), "<=", 0.01).state == "holds"  # the bound lies beyond the interval
    assert mean_test(-_draws(3.0, size), ">=", 0.01).state == "refute"  # mirrored
    assert mean_test(_draws(0.0, size), ">=", 0.01).state == "continue"


def test_the_bounds_are_one_sided_t_bounds_at_the_level():
    v = _draws(1.0, 400)
    d = mean_test(v, "<=", 0.01)
    se = v.std(ddof=1) / 20
    assert d.mean[0] == pytest.approx(0.01) and d.se[0] == pytest.approx(se)
    assert d.lower[0] == pytest.approx(0.01 - 2.3357 * se, rel=1e-4)
    assert d.upper[0] == pytest.approx(0.01 + 2.3357 * se, rel=1e-4)


def test_equality_is_two_sided_and_never_confirmed():
    """==: 2.5 se off is inside the two-sided 1% interval (2.58), 3 se off (either side) is not."""
    for off in (2.5, -2.5):
        assert mean_test(_draws(off), "==", 0.01).state == "continue"
    for off in (3.0, -3.0):
        assert mean_test(_draws(off), "==", 0.01).state == "refute"
    d = mean_test(np.zeros(10), "==", 0.01)
    assert d.state == "continue" and not d.confirmed


def test_coordinates_are_bonferroni_split_and_the_worst_is_named():
    """Two coordinates: each at alpha / 2 (2.58 se), and the refuting one is reported."""
    v = np.stack([_draws(1.0, seed=1), _draws(2.45, seed=2)], axis=1)
    assert mean_test(v[:, 1], "<=", 0.01).state == "refute"  # alone: 2.45 > 2.33
    assert mean_test(v, "<=", 0.01).state == "continue"  # split: 2.45 < 2.58
    v = np.stack([_draws(1.0, seed=1), _draws(3.0, seed=2)], axis=1)
    d = mean_test(v, "<=", 0.01)
    assert d.state == "refute" and d.coordinate == 1


def test_a_constant_is_decided_deterministically_within_the_tie_band():
    """Zero spread: the mean is the common value, se = 0, and only the tie band (float64 rounding of an exact
    tie) separates a tie from a violation."""
    tie = np.full(50, 0.1 * 3 - 0.3)  # 5.6e-17: float64 rounding of an exact tie
    d = mean_test(tie, "<=", 0.01, tie=1e-11 * 0.3)
    assert d.se[0] == 0.0 and d.mean[0] == tie[0] and d.state == "continue"
    assert mean_test(tie, "<=", 0.01).state == "refute"  # no band: a constant past 0 is a violation
    assert mean_test(np.full(50, 1e-9), "<=", 0.01, tie=1e-11).state == "refute"
    assert mean_test(np.full(50, -1e-9), "<=", 0.01, tie=1e-11).state == "holds"
    assert mean_test(np.zeros(50), ">=", 0.01).confirmed  # an exact 0 lies on the claimed side
    assert mean_test(tie, "<=", 0.01, tie=1e-11 * 0.3).confirmed  # so does a tie within the band
    assert not mean_test(tie, "<=", 0.01).confirmed


def test_rounding_noise_around_a_tie_is_not_a_violation():
    """A per-draw identity computed with rounding: tiny spread, a mean many se from 0 but inside the band."""
    v = 1e-17 + 1e-19 * np.random.default_rng(3).standard_normal(1000)
    assert mean_test(v, "==", 0.01).state == "refute"
    assert mean_test(v, "==", 0.01, tie=1e-11).state == "continue"


def test_confirmed_needs_the_95_percent_bound_on_the_claimed_side():
    assert mean_test(_draws(-2.0), "<=", 0.01).confirmed  # 95% upper bound: -2 + 1.645 < 0
    assert not mean_test(_draws(-1.0), "<=", 0.01).confirmed
    assert mean_test(_draws(2.0), ">=", 0.01).confirmed


@pytest.mark.parametrize("kind", ["normal", "student-t3"])
def test_false_refutation_rate_of_a_true_mean_is_at_most_alpha(kind):
    """Mean exactly 0, 2000 replicates of 500 draws at alpha = 0.05: the refutation share is about alpha
    (t3: finite variance, heavy tails; the studentised mean self-normalises). Upper limit: alpha plus 4
    binomial standard errors."""
    rng = np.random.default_rng(11)
    reps = 2000
    draws = rng.standard_normal((reps, 500)) if kind == "normal" else rng.standard_t(3, (reps, 500))
    refuted = sum(mean_test(v, "<=", 0.05).state == "refute" for v in draws)
    assert refuted / reps <= 0.05 + 4 * np.sqrt(0.05 * 0.95 / reps)
    power = sum(mean_test(v + 0.3, "<=", 0.05).state == "refute" for v in draws)  # a shift of 0.3 sd (t3: 0.17)
    assert power / reps >= 0.9


def test_bad_arguments_are_rejected():
    with pytest.raises(ValueError, match="relation"):
        mean_test(np.zeros(5), "<", 0.01)
    with pytest.raises(ValueError, match="at least 2 draws"):
        mean_test(np.zeros(1), "<=", 0.01)
    with pytest.raises(ValueError, match="alpha"):
        mean_test(np.zeros(5), "<=", 0.0)
