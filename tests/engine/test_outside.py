"""Cases outside a claim's hypotheses (the evaluator raises Outside): counted apart, never a pass."""
from hypothesis import strategies as st

from attncheck import Outside, le
from attncheck.core.claims import Registry, claim
from attncheck.engine.run import run


def claims() -> Registry:
    """The claims, in a registry of their own (not at module level: pytest would collect them)."""
    reg = Registry()

    @claim("mine/half/inside", kind="inequality", source="test", domain=st.floats(0, 1), statement="x <= 1 (x < 1/2)",
           registry=reg)
    def half(x, xp):
        if x >= 0.5:
            raise Outside("x >= 1/2")
        return le(xp.asarray(x), 1.0, xp)

    @claim("mine/half/false", kind="inequality", source="test", domain=st.floats(0, 1),
           statement="x <= 0.3 (x < 1/2)", registry=reg)
    def half_false(x, xp):
        if x >= 0.5:
            raise Outside("x >= 1/2")
        return le(xp.asarray(x), 0.3, xp)

    @claim("mine/none/inside", kind="inequality", source="test", domain=st.floats(0, 1), statement="x <= 1 (never)",
           registry=reg)
    def never(x, xp):
        raise Outside("no case satisfies the hypotheses")

    return reg


REG = claims()


def test_outside_cases_are_counted_apart_from_the_cases_checked():
    rec = run(REG.get("mine/half/inside"), "quick", seed=0)
    ev = rec["evidence"]
    assert rec["verdict"] == "HOLDS" and ev["outside"] > 0 and ev["cases"] > 0
    assert ev["outside_case"]["why"] == "x >= 1/2" and float(ev["outside_case"]["case"]) >= 0.5
    assert float(ev["worst"]["case"]) < 0.5


def test_a_violation_inside_is_still_refuted():
    assert run(REG.get("mine/half/false"), "quick", seed=0)["verdict"] == "REFUTED"


def test_no_case_inside_the_hypotheses_is_inconclusive_not_a_pass():
    rec = run(REG.get("mine/none/inside"), "quick", seed=0)
    assert rec["verdict"] == "INCONCLUSIVE" and "outside" in rec["evidence"]["reason"]
    assert rec["evidence"]["cases"] == 0 and rec["evidence"]["outside"] > 0
