"""The planted power suite at one seed (CI): each false claim refuted, no twin refuted.

The 20-seed measurement in quick and deep is ``attncheck bench --power`` (README table).
"""
import pytest
from planted_power import FAMILIES, POWER

from attncheck.run.session import run_claim as run


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_false_claim_is_refuted(family):
    rec = run(POWER.get(f"power/{family}/false"), "quick", seed=0)
    assert rec["verdict"] == "REFUTED", (family, rec["evidence"])


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_twin_is_not_refuted(family):
    rec = run(POWER.get(f"power/{family}/twin"), "quick", seed=0)
    assert rec["verdict"] not in ("REFUTED", "ERROR"), (family, rec["evidence"])
    points = rec["evidence"].get("path") or [rec["evidence"]]
    if family.startswith("user-"):  # domain= only: the engine derived a Space and covered it
        assert all(p["stages"]["corners"] > 0 and p["stages"]["design"] > 0 for p in points), family
    if family.startswith("composite-"):  # no Space to read: corners and the design answered the strategy's choices
        assert all(p["stages"]["corners"] > 0 and p["stages"]["design"] > 0 for p in points), family


def test_tiny_region_needs_the_optimizer():
    """Without corners (none: the ball is interior) the violation comes from the optimizer
    or Hypothesis, and the evidence says which stage found it."""
    rec = run(POWER.get("power/tiny-region/false"), "quick", seed=0)
    assert rec["evidence"]["counterexample"]["found_by"] in ("optimizer", "hypothesis")
    assert rec["evidence"]["stages"]["corners"] > 0


def test_overflow_is_decided_by_mpmath_not_an_error():
    false = run(POWER.get("power/overflow/false"), "quick", seed=0)
    twin = run(POWER.get("power/overflow/twin"), "quick", seed=0)
    assert false["verdict"] == "REFUTED" and twin["verdict"] == "HOLDS"
    assert twin["evidence"]["escalation"]["escalated"] == twin["evidence"]["escalation"]["evaluated"]


def test_eventually_slow_fall_is_inconclusive_with_extrapolation():
    rec = run(POWER.get("power/eventually-slow/twin"), "quick", seed=0)
    assert rec["verdict"] == "INCONCLUSIVE"
    trend = rec["evidence"]["failure_trend"]
    assert trend["falls"] and trend["exponent_ci99"][1] < 0
    assert trend["holds_from_extrapolated"] > 1e12  # beyond the path: 0.5 n^-0.05 = 0.05 at n = 1e20
    flat = run(POWER.get("power/eventually-slow/false"), "quick", seed=0)
    assert flat["verdict"] == "REFUTED" and not flat["evidence"].get("failure_trend", {}).get("falls", False)


def test_eventually_from_n0_reports_where_it_holds():
    rec = run(POWER.get("power/eventually-from-n0/twin"), "quick", seed=0)
    assert rec["verdict"] == "HOLDS" and rec["evidence"]["holds_from"] == 10**4


@pytest.mark.parametrize("claim_id", ["power/tiny-region/twin", "power/five-percent/twin",
                                      "power/user-one-of-four/twin", "power/user-coin/twin"])
def test_same_seed_same_record(claim_id):
    """Corners, Hypothesis, the design, the optimizer and the Monte Carlo replay exactly from the seed."""
    a, b = (run(POWER.get(claim_id), "quick", seed=3) for _ in range(2))
    for rec in (a, b):
        rec["evidence"].pop("seconds")
    assert a == b
    assert a["evidence"]["stages"]["optimizer"] > 0


def test_a_failure_rate_falling_too_slowly_to_extrapolate_in_float_range_is_not_an_error():
    """5-seed replication, deng2023 lemma-f.4/part-2 at seed 4: a fall significant at 1% but with an exponent near 0
    put the extrapolated n past 1e308 and the verdict raised OverflowError (ERROR). The n is kept in logs."""
    from attncheck.engine.checks import Point
    from attncheck.engine.verdict import failure_trend

    pts = [Point(point=n, worst={"draws": 10**6, "successes": 10**6 - k, "claimed": 0.99, "pass_rate": 1 - k / 1e6})
           for n, k in ((1e2, 500_000), (1e4, 499_000), (1e6, 498_000), (1e9, 497_000))]
    trend = failure_trend(pts)
    assert trend["falls"] and trend["holds_from_extrapolated_log10"] > 308
    assert "holds_from_extrapolated" not in trend
