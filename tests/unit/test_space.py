"""Declared parameter spaces: corners, validation, optimizer coordinates, budgets by cost."""

import numpy as np
import pytest
from hypothesis import given, settings

from attncheck import Choice, Int, Real, Space
from attncheck.core.profiles import PROFILES, get_profile
from attncheck.run.session import run_claim as run


def test_real_corners_include_ends_and_points_just_inside():
    c = Real(0.1, 1.0).corners()
    assert c[:2] == [0.1, 1.0]
    assert any(0.1 < v < 0.1 + 1e-8 for v in c) and any(1.0 - 1e-8 < v < 1.0 for v in c)
    assert np.nextafter(0.1, 1.0) in c


def test_open_ends_are_never_drawn_nor_cornered():
    r = Real(0.0, 1.0, open_lo=True)
    assert 0.0 not in r.corners() and all(r.contains(v) for v in r.corners())

    @settings(max_examples=300, database=None)
    @given(r.strategy())
    def inside(v):
        assert 0.0 < v <= 1.0

    inside()


def test_log_real_and_int():
    r = Real(1e-20, 1e-16, log=True)
    assert r.from_unit(0.5) == pytest.approx(1e-18, rel=1e-9)
    assert r.to_unit(1e-18) == pytest.approx(0.5)
    assert Int(4, 10**15, log=True).corners() == [4, 10**15, 5, 10**15 - 1]


@pytest.mark.parametrize("bad", [lambda: Real(1, 0), lambda: Real(0, 1, log=True), lambda: Real(1, 1, open_lo=True),
                                 lambda: Int(0.5, 2), lambda: Choice(()), lambda: Space(),
                                 lambda: Space(x=(0, 1))])
def test_invalid_spaces_name_the_constraint(bad):
    with pytest.raises((ValueError, TypeError)):
        bad()


def test_space_rejects_values_outside():
    with pytest.raises(ValueError, match="x=2"):
        Space(x=Real(0, 1)).case({"x": 2})


def test_corners_are_vertices_first_and_respect_the_budget():
    s = Space(a=Real(0, 1), b=Real(0, 1), k=Choice(("u", "v")))
    first8 = s.corners(8)
    assert len(first8) == 8
    assert {(c["a"], c["b"]) for c in first8} == {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert len(s.corners(10**6)) > 8


def test_budgets_follow_kind_and_cost():
    q = PROFILES["quick"]
    assert q.budget(False, "cheap").examples >= 1000  # cheap deterministic: thousands even in quick
    assert q.budget(False, "cheap").examples > q.budget(False, "normal").examples > q.budget(False, "expensive").examples
    assert get_profile("quick", 50).budget(False, "normal").examples == 50 * q.budget(False, "normal").examples
    with pytest.raises(ValueError, match="> 0"):
        get_profile("quick", 0)


def test_negative_seed_is_rejected():
    from planted_power import POWER

    with pytest.raises(ValueError, match="seed"):
        run(POWER.get("power/corner/twin"), "quick", seed=-1)
