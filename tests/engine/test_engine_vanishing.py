"""The vanishing rule (engine/vanishing.py): a quantity that tends to 0 (vanishes=True), from values with errors.
The planted false/twin families under the whole engine are in tests/support/planted_power.py (vanish-*)."""
import math

import numpy as np
import pytest
from hypothesis import strategies as st

from attncheck import claim
from attncheck.core.claims import Registry
from attncheck.engine.vanishing import vanishing_rule
from attncheck.engine.verdict import RESOLUTION
from attncheck.report.labels import key_evidence

LONG = [1e2, 1e4, 1e6, 1e8, 1e10, 1e12]
DECADES = [10, 1e2, 1e3, 1e4, 1e5]
SHORT = [64, 256, 1024]


def _rule(n, f, rel=0.02):
    c = [f(v) for v in n]
    return vanishing_rule(n, c, [rel * abs(v) for v in c])


FALLING = [lambda n: n ** -0.05, lambda n: 3 * n ** -0.25, lambda n: 50 / n, lambda n: 1 / math.log(n)]


@pytest.mark.parametrize("path", [DECADES, LONG])
@pytest.mark.parametrize("f", FALLING)
def test_a_quantity_falling_to_0_holds(f, path):
    verdict, ev = _rule(path, f)
    assert verdict.value == "HOLDS", ev
    assert ev["growth_exponent_ci"][1] < -RESOLUTION and ev["last_step_exponent_ci"][1] < -RESOLUTION


@pytest.mark.parametrize("f", FALLING)
def test_a_quantity_falling_to_0_is_never_refuted_on_a_short_path(f):
    """n^-0.05 over a factor 16 with 2% errors cannot be told from a plateau: undecided, not refuted."""
    assert _rule(SHORT, f)[0].value in ("HOLDS", "INCONCLUSIVE")


LEVELLING = [lambda n: 1.0, lambda n: 0.5 + 2 / n, lambda n: 0.2 + 0.1 * n ** -0.5, lambda n: n ** 0.03,
             lambda n: math.log(n)]


@pytest.mark.parametrize("path", [DECADES, LONG])
@pytest.mark.parametrize("f", LEVELLING)
def test_a_quantity_that_levels_off_or_grows_is_refuted(f, path):
    verdict, ev = _rule(path, f)
    assert verdict.value == "REFUTED", ev
    assert ev["growth_exponent_ci"][0] > -RESOLUTION and "does not tend to 0" in ev["reason"]


@pytest.mark.parametrize("path", [SHORT, DECADES, LONG])
def test_a_slow_approach_to_a_plateau_never_holds(path):
    """0.3 + 1/log n falls at every n (its local exponent is -1/(log n (1 + 0.3 log n))) but tends to 0.3."""
    assert _rule(path, lambda n: 0.3 + 1 / math.log(n))[0].value != "HOLDS"


def test_a_plateau_reached_within_the_tail_does_not_hold():
    """The tail still falls on the whole (its first step), its last step does not: never HOLDS."""
    n = [10, 100, 1e3, 1e4, 1e5, 1e6]
    c = [4.0, 2.0, 1.0, 0.5, 0.25, 0.25]
    verdict, ev = vanishing_rule(n, c, [0.005] * 6)
    assert verdict.value != "HOLDS" and ev["growth_exponent"] < -RESOLUTION, ev
    assert ev["last_step_exponent_ci"][1] > -RESOLUTION


def test_exactly_zero_holds_and_a_zero_at_the_end_alone_is_data():
    assert vanishing_rule(SHORT, [0.0] * 3, [0.0] * 3)[0].value == "HOLDS"
    assert vanishing_rule(DECADES, [1.0, 0.0, 1.0, 1.0, 1.0], [0.01] * 5)[0].value == "REFUTED"


def test_a_change_within_the_errors_is_undecided_and_names_the_draws():
    verdict, ev = vanishing_rule(SHORT, [1.0, 0.98, 0.96], [0.05] * 3)
    assert verdict.value == "INCONCLUSIVE" and ev["decide_with"]["draws_factor"] > 1, ev
    verdict, ev = vanishing_rule(SHORT, [1.0, 1.0, 1.0], [0.05] * 3)
    assert verdict.value == "INCONCLUSIVE" and ev["decide_with"]["draws_factor"] > 1, ev
    assert "absence of a fall" in ev["reason"]


def test_two_points_never_refute():
    verdict, ev = vanishing_rule([10, 100], [1.0, 1.0], [0.001, 0.001])
    assert verdict.value == "INCONCLUSIVE" and "3 points" in ev["reason"], ev


def test_undecided_reasons_name_what_blocks_each_verdict():
    falls_then_flat = vanishing_rule([10, 100, 1e3, 1e4, 1e5], [4.0, 1.0, 0.25, 0.0625, 0.0625], [0.0] * 5)
    assert falls_then_flat[0].value == "INCONCLUSIVE" and "last step" in falls_then_flat[1]["reason"]
    near_zero = vanishing_rule(SHORT, [0.01, 0.01, 0.01], [0.0, 0.0, 0.02])
    assert near_zero[0].value == "INCONCLUSIVE" and "not significantly above 0" in near_zero[1]["reason"]


def test_vanishes_needs_an_asymptotic_claim_without_across():
    reg = Registry()
    with pytest.raises(ValueError, match="vanishes=True applies to asymptotic claims"):
        claim("x/vanish/ineq", kind="inequality", statement="x", source="t", domain=st.just(1.0), vanishes=True,
              registry=reg)(lambda c, xp: c)


def test_the_evidence_line_says_tends_to_0():
    _, ev = _rule(DECADES, lambda n: n ** -0.5)
    rec = {"kind": "asymptotic", "evidence": dict(ev, path=[{"point": 1e5}])}
    assert "(tends to 0)" in key_evidence(rec) and np.isfinite(ev["last_step_exponent"])
