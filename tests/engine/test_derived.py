"""The Space derived from a claim's strategy (engine/derived.py) and the design stage."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attncheck import Choice, Int, Real, Space, claim, le, lt
from attncheck.core.claims import Registry
from attncheck.engine.derived import MAX_PARAMS, derive
from attncheck.run.session import run_claim as run

DERIVABLE = {
    "floats": st.floats(0, 1),
    "open": st.floats(-1, 1, exclude_min=True, exclude_max=True),
    "float32": st.floats(0, 1, width=32),
    "ints": st.integers(1, 1000),
    "sampled": st.sampled_from(["relu", "tanh"]),
    "tuple": st.tuples(st.floats(0, 1), st.integers(0, 3), st.just("k")),
    "dict": st.fixed_dictionaries({"a": st.floats(0, 1), "b": st.integers(2, 5)}),
    "vector": st.lists(st.floats(-1, 1), min_size=3, max_size=3).map(np.array),
    "ragged": st.lists(st.floats(-30, 30), min_size=1, max_size=8).map(np.array),
    "builds": st.builds(complex, st.floats(0, 1), imag=st.integers(0, 3)),
    "nested": st.tuples(st.tuples(st.floats(0, 1), st.floats(2, 3)).map(sum), st.sampled_from([1, 2])),
}

NOT_DERIVABLE = {
    "filter": st.floats(0, 1).filter(lambda x: x != 0.5),
    "one_of": st.one_of(st.floats(0, 1), st.just(2.0)),
    "flatmap": st.integers(1, 3).flatmap(lambda n: st.just(n)),
    "unbounded float": st.floats(0, None),
    "unbounded int": st.integers(min_value=0),
    "no subnormals across 0": st.floats(0, 1, allow_subnormal=False),
    "unique list": st.lists(st.floats(0, 1), unique=True, max_size=3),
    "long list": st.lists(st.floats(0, 1), min_size=MAX_PARAMS + 1, max_size=MAX_PARAMS + 1),
    "list without max": st.lists(st.floats(0, 1)),
    "optional keys": st.fixed_dictionaries({"a": st.floats(0, 1)}, optional={"b": st.floats(0, 1)}),
    "composite": st.composite(lambda draw: draw(st.floats(0, 1)))(),
    "unhashable values": st.sampled_from([[1], [2]]),
    "many values": st.sampled_from(range(2000)),
}


def _in_support(name, case):
    """The case is one the strategy DERIVABLE[name] can draw (checked by hand per strategy)."""
    checks = {
        "floats": lambda c: isinstance(c, float) and 0 <= c <= 1,
        "open": lambda c: -1 < c < 1,
        "float32": lambda c: 0 <= c <= 1 and float(np.float32(c)) == c,
        "ints": lambda c: isinstance(c, int) and 1 <= c <= 1000,
        "sampled": lambda c: c in ("relu", "tanh"),
        "tuple": lambda c: isinstance(c, tuple) and 0 <= c[0] <= 1 and c[1] in range(4) and c[2] == "k",
        "dict": lambda c: set(c) == {"a", "b"} and 0 <= c["a"] <= 1 and c["b"] in range(2, 6),
        "vector": lambda c: isinstance(c, np.ndarray) and c.shape == (3,) and np.all(np.abs(c) <= 1),
        "ragged": lambda c: isinstance(c, np.ndarray) and 1 <= c.size <= 8 and np.all(np.abs(c) <= 30),
        "builds": lambda c: isinstance(c, complex) and 0 <= c.real <= 1 and c.imag in (0, 1, 2, 3),
        "nested": lambda c: 2 <= c[0] <= 4 and c[1] in (1, 2),
    }
    return checks[name](case)


@pytest.mark.parametrize("name", sorted(DERIVABLE))
def test_every_derived_case_is_in_the_strategys_domain(name):
    space = derive(DERIVABLE[name])
    assert space is not None
    cases = [space.case(v) for v in space.corners(64) + space.design(64, 0)]
    bad = [c for c in cases if not _in_support(name, c)]
    assert not bad, bad[:3]


@pytest.mark.parametrize("name", sorted(DERIVABLE))
def test_the_checker_of_the_support_accepts_the_strategys_own_draws(name):
    @settings(max_examples=30, database=None, deadline=None)
    @given(DERIVABLE[name])
    def drawn(case):
        assert _in_support(name, case)

    drawn()


@pytest.mark.parametrize("name", sorted(NOT_DERIVABLE))
def test_no_space_where_none_is_exact(name):
    assert derive(NOT_DERIVABLE[name]) is None


def test_derived_parameters_keep_the_strategys_ranges():
    space = derive(DERIVABLE["tuple"])
    assert space.params == {"x_0": Real(0.0, 1.0), "x_1": Int(0, 3), "x_2": Choice(("k",))}
    assert derive(DERIVABLE["ragged"]).params["x_len"] == Int(1, 8)
    assert 0.0 not in [v["x"] for v in derive(DERIVABLE["open"]).corners(64)]  # open end: not a corner


def test_design_stratifies_every_coordinate():
    space = Space(a=Real(0, 1), n=Int(1, 64), c=Choice(("u", "v")))
    design = space.design(32, seed=5)
    cells = sorted(int(v["a"] * 32) for v in design)
    assert cells == list(range(32))  # one point in each [k/32, (k+1)/32)
    assert sorted((v["n"] - 1) // 2 for v in design) == list(range(32))
    assert sum(v["c"] == "u" for v in design) == 16
    assert design == space.design(32, seed=5) and design != space.design(32, seed=6)


def _claims() -> Registry:
    """Planted claims, built inside a function so that pytest does not collect them."""
    reg = Registry()

    def plateau(which, inside):
        @claim(f"derived/plateau/{which}", kind="inequality", statement=f"g(x) <= 1, g = {inside} on [0.5, 0.53]",
               domain=st.floats(0, 1), registry=reg, source="test", cost="normal")
        def evaluate(x, xp):
            return le(xp.asarray(inside if 0.5 <= x <= 0.53 else 0.9), 1.0, xp)

    plateau("false", 1.02)
    plateau("twin", 0.99)

    @claim("derived/asymptotic/flat", kind="asymptotic", statement="X_n = O(1)", registry=reg, source="test",
           path={"quick": [10, 100, 1000], "deep": [10, 100, 1000]},
           domain=lambda n: st.tuples(st.just(n), st.floats(1, 2)),
           sample=lambda c, rng, size: rng.random(size), probability=0.9)
    def flat(c, U, xp):
        return c[1] * (1 + U)

    @claim("derived/none/filtered", kind="inequality", statement="x <= 1", registry=reg, source="test",
           domain=st.floats(0, 1).filter(lambda x: x != 0.5), cost="normal")
    def filtered(x, xp):
        return le(xp.asarray(x), 1.0, xp)

    @claim("derived/none/coin", kind="probabilistic", statement="Pr[U < 1] >= 0.5", registry=reg, source="test",
           domain=st.floats(0, 1).filter(lambda x: x != 0.5), sample=lambda c, rng, size: rng.random(size),
           probability=0.5)
    def coin(x, U, xp):
        return lt(xp.asarray(U), 1.0, xp)

    return reg


REG = _claims()


def test_a_domain_only_claim_gets_corners_design_and_optimizer():
    rec = run(REG.get("derived/plateau/false"), "quick", seed=0)
    assert rec["verdict"] == "REFUTED" and 0.5 <= float(rec["evidence"]["counterexample"]["case"]) <= 0.53
    twin = run(REG.get("derived/plateau/twin"), "quick", seed=0)
    assert twin["verdict"] == "HOLDS"
    stages = twin["evidence"]["stages"]
    assert stages["hypothesis"] == 48 and stages["design"] == 64 and stages["corners"] > 0
    assert stages["optimizer"] > 0


def test_no_design_for_asymptotic_claims_nor_random_ones_without_a_space():
    rec = run(REG.get("derived/asymptotic/flat"), "quick", seed=0)
    assert all(p["stages"]["design"] == 0 and p["stages"]["corners"] > 0 for p in rec["evidence"]["path"])
    rec = run(REG.get("derived/none/coin"), "quick", seed=0)
    assert rec["verdict"] == "HOLDS"
    assert rec["evidence"]["stages"] == {"corners": 0, "hypothesis": 24, "design": 0, "optimizer": 0}


def test_a_deterministic_claim_without_a_space_gets_corners_and_the_design_over_its_choices():
    rec = run(REG.get("derived/none/filtered"), "quick", seed=0)
    assert rec["verdict"] == "HOLDS"
    # one float choice: its ends 0 and 1, then 1e-9, 1e-6 and 1e-3 of the range inside each
    assert rec["evidence"]["stages"] == {"corners": 8, "hypothesis": 48, "design": 64, "optimizer": 0}


def test_corners_of_many_choices_stop_at_the_budget():
    """Four sampled_from of 1000 values: 10^12 vertices; the corners stop at the budget."""
    space = derive(st.tuples(*[st.sampled_from(range(1000))] * 4))
    corners = space.corners(64)
    assert len(corners) == 64 and len({tuple(c.values()) for c in corners}) == 64
