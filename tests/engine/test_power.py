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


def test_eventually_slow_fall_holds_with_an_n_labelled_as_an_extrapolation():
    """A failure rate still above the allowed level at the path's end but falling like a power, with no floor
    (docs/verdicts.md, "For sufficiently large n"): HOLDS (not refuted), the n it holds from labelled as an
    extrapolation; a flat rate is REFUTED."""
    rec = run(POWER.get("power/eventually-slow/twin"), "quick", seed=0)
    assert rec["verdict"] == "HOLDS" and rec["evidence"]["strength"] == "not refuted"
    trend = rec["evidence"]["failure_trend"]
    assert trend["falls"] and trend["exponent_ci99"][1] < 0 and trend["floor_lower99"] == 0.0
    assert trend["extrapolated"] and trend["holds_from_extrapolated"] > 1e12  # 0.5 n^-0.05 = 0.05 at n = 1e20
    assert "an extrapolation beyond the path" in rec["evidence"]["reason"]
    flat = run(POWER.get("power/eventually-slow/false"), "quick", seed=0)
    assert flat["verdict"] == "REFUTED" and flat["evidence"]["failure_trend"]["levels_off"]
    assert not flat["evidence"]["failure_trend"]["falls"]


def test_a_failure_rate_falling_to_a_plateau_is_refuted_by_its_floor():
    """f = 0.08 + 0.25 n^-0.3 falls along the path; the floor fit puts its limit significantly above 0.05."""
    rec = run(POWER.get("power/eventually-plateau/false"), "quick", seed=0)
    trend = rec["evidence"]["failure_trend"]
    assert rec["verdict"] == "REFUTED" and trend["levels_off"] and trend["floor_lower99"] > trend["allowed"]
    assert "holds_from_extrapolated_log10" not in trend


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

    pts = [Point(point=n, worst={"draws": 10**6, "successes": 10**6 - round(2e5 * n**-0.001), "claimed": 0.9,
                                 "pass_rate": 1 - 0.2 * n**-0.001}) for n in (1e2, 1e4, 1e6, 1e9)]
    trend = failure_trend(pts)  # 0.2 n^-0.001 reaches 0.1 at n = 10^301
    assert trend["falls"] and not trend["levels_off"] and trend["holds_from_extrapolated_log10"] > 300
    assert "holds_from_extrapolated" not in trend


@pytest.mark.parametrize("family", sorted(f for f in FAMILIES if f.startswith(("tie-softmax", "tie-exact"))))
def test_an_attained_bound_holds_rather_than_inconclusive(family):
    """Ties decided exactly, float constants read as the rationals they round (docs/writing-claims.md, "Ties and
    float constants"): the twin is decided, never INCONCLUSIVE."""
    rec = run(POWER.get(f"power/{family}/twin"), "quick", seed=0)
    assert rec["verdict"] == "HOLDS", (family, rec["evidence"])
