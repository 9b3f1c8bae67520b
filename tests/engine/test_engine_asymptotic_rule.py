"""The asymptotic rule (engine/verdict.py: asymptotic_rule): bounded vs growing, from constants with errors."""
import math

import numpy as np
import pytest

from attncheck import Estimate, batch_estimate, claim
from attncheck.core.claims import Registry
from attncheck.engine.extend import _tails, next_points, tail_factor
from attncheck.engine.verdict import RESOLUTION, asymptotic_rule

LONG = [1e2, 1e4, 1e6, 1e8, 1e10, 1e12]
SHORT = [64, 256, 1024]


def _rule(n, c, rel=0.01):
    return asymptotic_rule(n, c, [rel * abs(v) + 1e-3 for v in c])


@pytest.mark.parametrize("f", [lambda n: n ** 0.03, math.log, lambda n: n ** 0.05])
def test_slow_unbounded_growth_is_refuted(f):
    verdict, ev = _rule(LONG, [f(n) for n in LONG])
    assert verdict.value == "REFUTED", ev
    assert ev["growth_exponent_ci"][0] > RESOLUTION and ev["curvature"]["z"] > 0


@pytest.mark.parametrize("f", [lambda n: 2 - 20 / n, lambda n: 2 - 1 / math.sqrt(n), lambda n: 1.0])
def test_a_constant_rising_to_its_limit_holds_with_the_limit_stated(f):
    verdict, ev = _rule(LONG, [f(n) for n in LONG])
    assert verdict.value == "HOLDS", ev
    assert ev["resolution"] == RESOLUTION and ev["growth_exponent_ci"][1] < RESOLUTION
    assert abs(ev["limit"] - f(1e30)) < 3 * ev["limit_se"] + 1e-3


def test_a_zero_at_one_point_is_data_not_a_verdict():
    """Once, min(c) <= 0 returned HOLDS: 0, 10, 40, 160 was HOLDS while 10, 40, 160 was REFUTED."""
    n = [10, 40, 160, 640]
    with_zero, ev = _rule(n, [0.0, 10.0, 40.0, 160.0])
    without, _ = _rule(n[1:], [10.0, 40.0, 160.0])
    assert with_zero.value == without.value == "REFUTED", ev
    assert asymptotic_rule(n, [-1.0, 1.0, 1.0, 1.0], [0.001] * 4)[0].value == "HOLDS"  # a value <= 0 is data too


def test_the_sign_of_an_insignificant_slope_decides_nothing():
    """A flat constant whose last points move by less than their errors: up or down, the same verdict."""
    for se in (0.002, 0.05):
        up = asymptotic_rule(SHORT, [1.0, 1.0, 1.0 + se / 2], [se] * 3)[0]
        down = asymptotic_rule(SHORT, [1.0, 1.0, 1.0 - se / 2], [se] * 3)[0]
        assert up is down, se
    assert asymptotic_rule(SHORT, [1.0, 1.0, 1.001], [0.002] * 3)[0].value == "HOLDS"


def test_a_dip_then_a_rise_is_not_growth():
    """goel2026 theorem-5/norm-rate's shape (quick, committed report): the last step rises after a fall."""
    n = [16, 128, 1024, 8192, 65536]
    verdict, ev = asymptotic_rule(n, [3880.0, 2034.0, 2004.0, 1850.0, 1999.0], [5.0] * 5)
    assert verdict.value != "REFUTED", ev


def test_a_rise_by_the_search_s_luck_is_below_the_resolution():
    """Exact values (se 0) a little higher at each later point, as a search that finds the worst case
    better at the last points gives: accelerating, but slower than n^RESOLUTION, so not a refutation."""
    assert asymptotic_rule(SHORT, [1.97, 1.98, 2.00], [0.0] * 3)[0].value == "HOLDS"


def test_undecided_says_what_would_decide_it_and_never_the_deep_profile():
    verdict, ev = asymptotic_rule(SHORT, [1.0, 1.0, 1.01], [0.01] * 3)
    assert verdict.value == "INCONCLUSIVE" and ev["decide_with"]["draws_factor"] > 1
    verdict, ev = asymptotic_rule(SHORT, [1.5, 1.75, 1.875], [0.001] * 3)  # 2 - 4/sqrt(n)
    assert verdict.value == "INCONCLUSIVE" and ev["decide_with"]["n"] > SHORT[-1]
    assert "deep" not in ev["reason"]


def test_batch_estimate_has_the_standard_error_of_a_mean():
    rng = np.random.default_rng(0)
    ses = [batch_estimate(np.mean, rng.standard_normal(4000)).se for _ in range(200)]
    assert abs(np.mean(ses) * math.sqrt(4000) - 1) < 0.1
    est = batch_estimate(lambda d: float(np.mean(d[0] * d[1])), (np.ones(64), np.arange(64.0)))
    assert est.value == 31.5 and est.scaled(-2.0) == Estimate(-63.0, 2 * est.se)
    with pytest.raises(ValueError):
        Estimate(1.0, -1.0)


def _claim(path, n_max=None):
    return claim("x/y/z", kind="asymptotic", statement="s", source="s", domain=lambda p: None, path=path,
                 sample=lambda c, r, s: None, probability=0.5, n_max=n_max, registry=Registry())(lambda c, S, xp: S)


def test_the_path_continues_its_geometric_progression():
    assert next_points(_claim({"quick": [64, 256, 1024]}), [64, 256, 1024]) == [4096]
    assert next_points(_claim({"quick": [64, 256, 1024]}, n_max=2048), [64, 256, 1024]) == []
    grid = [{"n": n, "L": L} for L in (2, 4) for n in (8, 16, 32)]
    assert next_points(_claim({"quick": grid}), grid) == [{"n": 64, "L": 2}, {"n": 64, "L": 4}]
    assert next_points(_claim({"quick": [[2, 8], [3, 16], [4, 32]]}), [[2, 8], [3, 16], [4, 32]]) == []


DECADES5 = [1e3, 1e4, 1e5, 1e6, 1e7]


def test_significant_growth_whose_curvature_leans_up_asks_for_the_draws_that_would_show_it():
    """Growth past the resolution is significant and both last steps rise, but the upward curvature is not yet
    significant: the rule names the draws factor, and errors smaller by that factor (times 3/2) refute."""
    c = [10, 11.2, 12.6, 14.1, 16.2]
    verdict, ev = asymptotic_rule(DECADES5, c, [0.3] * 5)
    factor = ev["decide_with"]["draws_factor"]
    assert verdict.value == "INCONCLUSIVE" and 1 < factor < 2, ev
    assert asymptotic_rule(DECADES5, c, [0.3 / math.sqrt(1.5 * factor)] * 5)[0].value == "REFUTED"


def test_a_last_step_that_falls_asks_for_no_draws():
    """A dip at the last step is not growth however many draws: the rule names no draws factor (a larger n may)."""
    verdict, ev = asymptotic_rule(DECADES5, [10, 11.2, 12.6, 14.6, 14.4], [0.05] * 5)
    assert verdict.value == "INCONCLUSIVE" and "draws_factor" not in ev.get("decide_with", {}), ev


def test_the_tail_re_estimates_cover_what_the_rule_fits_in_each_series():
    from types import SimpleNamespace

    pts = [SimpleNamespace(point={"n": n, "L": L}) for L in (2, 4) for n in (8, 16, 32, 64, 128, 256)]
    pts += [SimpleNamespace(point={"n": n, "L": 8}) for n in (8, 16, 32)]
    checks, tail = _tails(list(range(len(pts))), pts)
    assert [(p.point["L"], p.point["n"]) for p in tail] == [
        (2, 64), (2, 128), (2, 256), (4, 64), (4, 128), (4, 256), (8, 8), (8, 16), (8, 32)]
    assert checks == [pts.index(p) for p in tail]


def test_the_tail_factor_is_the_rule_s_with_headroom_within_the_cap():
    def ev(f):
        return {"decide_with": {"draws_factor": f}}

    assert tail_factor(4, ev(2.29), 16) == 14  # 4 x 2.29 x 1.5 = 13.7
    assert tail_factor(4, ev(4.8), 16) is None  # 29 > 16
    assert tail_factor(4, ev(math.inf), 16) is None  # the growth sits exactly at the resolution
    assert tail_factor(4, {"decide_with": {"n": 1e6}}, 16) is None  # a larger n, not draws
    assert tail_factor(1, {"per_L": [ev(1.5), {"decide_with": {}}, ev(3.0)]}, 16) == 5  # the largest series' ask


EXACT = [16, 128, 1024, 8192, 65536]


@pytest.mark.parametrize("f", [lambda n: 90 / n, lambda n: 3 - 2 / math.sqrt(n), lambda n: 2 + 1 / n, lambda n: 1.0])
def test_exact_constants_that_fall_or_level_off_hold(f):
    """Exact constants (se 0, a deterministic evaluator): a line in log n misfits c = 90/n, and a fit widened by
    that misfit once left such a claim INCONCLUSIVE; the tail's step exponents bound its growth instead."""
    verdict, ev = asymptotic_rule(EXACT, [f(n) for n in EXACT], [0.0] * len(EXACT))
    assert verdict.value == "HOLDS", ev
    assert "exact" in ev and ev["growth_exponent_ci"][1] < RESOLUTION


@pytest.mark.parametrize("f", [lambda n: n ** 0.03, math.log, lambda n: n ** 0.05])
def test_exact_constants_that_grow_slowly_are_refuted(f):
    verdict, ev = asymptotic_rule(LONG, [f(n) for n in LONG], [0.0] * len(LONG))
    assert verdict.value == "REFUTED", ev
    assert ev["growth_exponent_ci"][0] > RESOLUTION


def test_an_exact_rise_at_the_last_step_is_not_held():
    """Flat, then a rise at the last step: the largest step exponent is far above the resolution."""
    verdict, ev = asymptotic_rule(EXACT, [1.0, 1.0, 1.0, 1.0, 1.5], [0.0] * len(EXACT))
    assert verdict.value != "HOLDS", ev


QUARTERS = [64, 256, 1024, 4096, 16384]


def test_a_draws_factor_is_named_only_where_the_draws_would_decide():
    """A tail on a line in log n, below the resolution, within its errors: the rule names a factor, and errors
    smaller by it (times 3/2) decide. A tail that curves in log n (a limit approached like n^-1/2, growth n^0.023
    over its first step): its misfit beyond the errors keeps the upper bound above the resolution at any errors,
    so no factor is named (a former rule asked for about 6 times the draws), and the n from which the fitted
    limit's growth is below half the resolution is. (A misfit within the errors, chi2 <= dof, is their own
    scatter: tests/engine/test_engine_witness_draws.py.)"""
    flat = [5.0, 5.1, 4.9, 5.0, 5.1]
    verdict, ev = asymptotic_rule(QUARTERS, flat, [0.2] * 5)
    factor = ev["decide_with"]["draws_factor"]
    assert verdict.value == "INCONCLUSIVE" and factor > 1
    assert asymptotic_rule(QUARTERS, flat, [0.2 / math.sqrt(1.5 * factor)] * 5)[0].value == "HOLDS"
    curved = [9.899 - 19.2 / math.sqrt(n) for n in QUARTERS]
    for se in (0.03, 0.01, 0.001):
        verdict, ev = asymptotic_rule(QUARTERS, curved, [se] * 5)
        assert verdict.value == "INCONCLUSIVE" and "draws_factor" not in ev["decide_with"], ev
        assert QUARTERS[-2] < ev["decide_with"]["tail_from"] < QUARTERS[-1] * 4
        assert "no number of draws" in ev["reason"]


def test_a_tail_that_misfits_still_gets_the_engine_s_first_re_draw():
    """Where the rule names no factor because the estimates as they stand misfit a line, fresh draws still move
    them: the engine's first step (re-estimates times 4) is taken, as when a factor is named; a decided series is
    not counted."""
    from attncheck.engine.extend import _draws_factor, _straddles

    curved = [9.899 - 19.2 / math.sqrt(n) for n in QUARTERS]
    ev = asymptotic_rule(QUARTERS, curved, [0.01] * 5)[1]
    assert _draws_factor(ev) == 0 and _straddles(ev)
    held = dict(asymptotic_rule(QUARTERS, [5.0] * 5, [0.01] * 5)[1], verdict="HOLDS")
    assert not _straddles({"per_L": [held]}) and _straddles({"per_L": [held, dict(ev, verdict="INCONCLUSIVE")]})
