"""Draws whose ratio is +inf (a denominator that vanishes in that draw): the implied constant is the claimed
quantile over the extended reals (stats.quantile), so rare infinite draws change no verdict of the planted
asymptotic families, and an infinite constant is an ERROR that says so."""
import dataclasses

import numpy as np
import pytest
from planted_power import POWER

from attncheck import stats
from attncheck.core.estimate import Estimate
from attncheck.numeric.precision import F64
from attncheck.run.session import run_claim as run


def _ratio_per_draw(c) -> bool:
    """The quantile form with one ratio per draw (not an Estimate, not one exact value for every draw)."""
    case = (c.points("quick")[0], 1.5)
    out = c.evaluate(case, c.sample(case, np.random.default_rng(0), 256), F64)
    return not isinstance(out, Estimate) and np.size(out) == 256


PER_DRAW = [c.id for c in POWER if c.kind.value == "asymptotic" and _ratio_per_draw(c)]


def _with_infinite_draws(c, eps: float, fill=np.inf):
    """The claim with a fraction ``eps`` of its draws replaced by ``fill`` (the same draws otherwise)."""
    def sample(case, rng, size):
        R = c.sample(case, rng, size)
        return R, rng.random(size) < eps

    def evaluate(case, R, xp):
        out = np.array(c.evaluate(case, R[0], xp), float)
        out[R[1]] = fill
        return out

    return dataclasses.replace(c, id=c.id + "-inf", sample=sample, evaluate=evaluate)


@pytest.mark.parametrize("cid", PER_DRAW)
def test_rare_infinite_draws_keep_the_verdict(cid):
    """3% of the draws +inf, below the 10% above the claimed 0.9-quantile: each family's verdict is unchanged."""
    c = POWER.get(cid)
    want = run(c, "quick", seed=0)["verdict"]
    rec = run(_with_infinite_draws(c, 0.03), "quick", seed=0)
    assert rec["verdict"] == want, (want, rec["evidence"])


def test_an_infinite_constant_is_an_error_naming_it():
    rec = run(_with_infinite_draws(POWER.get("power/slow-growth/twin"), 0.5), "quick", seed=0)
    assert rec["verdict"] == "ERROR" and "+inf" in rec["evidence"]["error"], rec["evidence"]


@pytest.mark.parametrize("fill", [np.nan, -np.inf])
def test_nan_or_minus_inf_draws_are_errors(fill):
    rec = run(_with_infinite_draws(POWER.get("power/slow-growth/twin"), 0.03, fill), "quick", seed=0)
    assert rec["verdict"] == "ERROR" and "not finite" in rec["evidence"]["error"], rec["evidence"]


def test_quantile_over_the_extended_reals():
    rng = np.random.default_rng(1)
    x = rng.standard_normal(101)
    for q in (0.0, 0.1, 0.5, 0.9, 1.0):
        assert stats.quantile(x, q) == np.quantile(x, q)
    y = np.concatenate([x, [np.inf] * 5])  # 106 draws, the last 5 infinite: ranks 101..105
    assert stats.quantile(y, 0.5) == pytest.approx((np.sort(y)[52] + np.sort(y)[53]) / 2, rel=1e-15)
    assert stats.quantile(y, 100 / 105) == np.sort(x)[-1]  # rank 100 exactly: the largest finite draw
    assert stats.quantile(y, 100.5 / 105) == np.inf  # weight 1/2 on rank 101, the first +inf
    with pytest.raises(ValueError, match="1 of 2 draws NaN or -inf"):
        stats.quantile([1.0, np.nan], 0.5)
    with pytest.raises(ValueError, match="1 of 2 draws NaN or -inf"):
        stats.quantile([1.0, -np.inf], 0.5)
    with pytest.raises(ValueError, match="at least one draw, got none"):
        stats.quantile([], 0.5)
