"""Asymptotic claims across a second path coordinate: n-trend judged at each L, e^{CL} rate fitted."""
import pytest
from planted_across import REG

from attncheck import claim
from attncheck.core.claims import Registry
from attncheck.run.session import run_claim as run


def test_a_constant_growing_like_e_to_the_CL_holds_with_its_rate_fitted():
    rec = run(REG.get("planted/across/true"), "quick", seed=0)
    assert rec["verdict"] == "HOLDS", rec["evidence"]
    ev = rec["evidence"]
    assert abs(ev["rate_across_L"] - 0.7) < 0.05
    assert [e["L"] for e in ev["per_L"]] == [2, 4, 8]


def test_growth_in_n_at_a_single_L_is_refuted_even_when_the_pooled_maximum_is_flat():
    rec = run(REG.get("planted/across/false-at-one-depth"), "quick", seed=0)
    assert rec["verdict"] == "REFUTED", rec["evidence"]
    assert rec["evidence"]["reason"].startswith("at L = 8")


def test_across_needs_dict_points_with_three_n_per_value():
    with pytest.raises(ValueError, match="dicts"):
        claim("x/y/z", kind="asymptotic", statement="s", source="s", domain=lambda p: None, across="L",
              path={"quick": [1, 2, 3]}, sample=lambda c, r, s: None, probability=0.5,
              registry=Registry())(lambda c, S, xp: S)
    with pytest.raises(ValueError, match="3 points at each"):
        claim("x/y/z", kind="asymptotic", statement="s", source="s", domain=lambda p: None, across="L",
              path={"quick": [{"n": 1, "L": 1}, {"n": 2, "L": 1}, {"n": 3, "L": 2}]},
              sample=lambda c, r, s: None, probability=0.5, registry=Registry())(lambda c, S, xp: S)
