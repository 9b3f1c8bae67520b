"""ERROR verdicts record the failing case and the traceback down to the user's frame."""
import ast

import numpy as np
from hypothesis import strategies as st

from attncheck import Real, Space, le
from attncheck.core.claims import Registry, claim
from attncheck.run.session import run_claim as run


def too_large(x):
    if x > 0.5:
        raise ValueError(f"x too large: {x}")
    return x


def claims() -> Registry:
    """The erroring claims, in a registry of their own (not at module level: pytest would collect them)."""
    reg = Registry()

    @claim("err/raise/main", kind="inequality", statement="x <= 1", source="test", domain=st.floats(0, 1),
           registry=reg)
    def raises(x, xp):
        return le(xp.asarray(too_large(x)), 1.0, xp)

    @claim("err/nan/main", kind="inequality", statement="x <= 1", source="test", space=Space(x=Real(0.0, 1.0)),
           registry=reg)
    def nan_above_quarter(v, xp):
        return le(xp.asarray(np.nan if v["x"] > 0.25 else v["x"]), 1.0, xp)

    @claim("err/mc/main", kind="probabilistic", statement="Pr[U < 2] >= 0.5", source="test", domain=st.floats(0, 1),
           sample=lambda c, rng, size: rng.random(size), probability=0.5, registry=reg)
    def raises_on_draws(c, u, xp):
        if c > 0.5:
            raise ZeroDivisionError("boom")
        return le(xp.asarray(u), 2.0, xp)

    return reg


REG = claims()


def test_an_exception_records_the_shrunk_case_and_the_users_frames():
    ev = run(REG.get("err/raise/main"), "quick")["evidence"]
    assert ev["error"].startswith("ValueError: x too large")
    case = float(ev["failing_case"]["case"])
    assert case > 0.5 and ev["failing_case"]["found_by"] in ("corners", "hypothesis", "optimizer")
    assert f"x too large: {case}" in ev["error"]  # the error belongs to the recorded case
    tb = ev["traceback"]
    assert "in raises" in tb and "in too_large" in tb and 'raise ValueError(f"x too large: {x}")' in tb
    assert tb.rstrip().endswith(f"ValueError: x too large: {case}")


def test_a_nan_records_its_case():
    rec = run(REG.get("err/nan/main"), "quick")
    ev = rec["evidence"]
    assert rec["verdict"] == "ERROR" and ev["error"].startswith("non-finite value")
    assert ast.literal_eval(ev["failing_case"]["case"])["x"] > 0.25


def test_random_claims_record_the_failing_case_too():
    ev = run(REG.get("err/mc/main"), "quick")["evidence"]
    assert ev["error"] == "ZeroDivisionError: boom" and float(ev["failing_case"]["case"]) > 0.5
    assert "in raises_on_draws" in ev["traceback"]
