"""The expectation kind: E[V] {<=, >=, ==} 0 decided by the sequential mean test inside the alpha accounting
(attncheck.engine.checks.ExpectationCheck). The power over seeds is the planted families'
(tests/support/planted_power.py, "expectation")."""
import numpy as np
import pytest

from attncheck import Real, Space, claim
from attncheck.core.claims import Kind, Registry
from attncheck.engine.run import run
from attncheck.run.session import n_random

LINE = Space(t=Real(0.0, 1.0))


def _normal(case, rng, size):
    return rng.standard_normal(size)


def _claim(evaluate, relation="<=", **kw):
    reg = Registry()
    kw.setdefault("space", LINE)
    return claim("t/expect/x", kind="expectation", relation=relation, sample=kw.pop("sample", _normal),
                 statement="E V rel 0", source="test", cost="cheap", registry=reg, **kw)(evaluate)


def test_expectation_is_a_random_tested_kind_counted_in_the_alpha_split():
    c = _claim(lambda case, X, xp: X)
    assert Kind.EXPECTATION.random and Kind.EXPECTATION.tested and not Kind.ASYMPTOTIC.tested
    assert n_random([c, c]) == 2


@pytest.mark.parametrize("kw, match", [({"sample": None}, "need sample"), ({"probability": 0.9}, "no probability"),
                                       ({"relation": "<"}, "relation"), ({"draws": 1}, "draws >= 2")])
def test_declaration_errors(kw, match):
    with pytest.raises(ValueError, match=match):
        _claim(lambda case, X, xp: X, **kw)


def test_false_mean_is_refuted_with_its_evidence_and_the_twin_holds():
    false = run(_claim(lambda case, X, xp: X + 0.2 * case["t"], draws=2000), "quick", seed=0)
    assert false["verdict"] == "REFUTED" and false["relation"] == "<="
    cx = false["evidence"]["counterexample"]
    assert cx["mean"] > 0 and cx["decision_bounds"][0] > 0 and cx["draws"] <= 2000
    assert 0 < false["evidence"]["alpha_per_test"] < false["evidence"]["alpha_per_claim"]
    twin = run(_claim(lambda case, X, xp: X - 0.2 * case["t"], draws=2000), "quick", seed=0)
    assert twin["verdict"] == "HOLDS" and twin["evidence"]["strength"] == "not refuted"  # t = 0: mean 0 exactly
    assert twin["evidence"]["worst"]["score"] < 3


def test_clearly_true_inequality_is_confirmed_and_stops_early():
    rec = run(_claim(lambda case, X, xp: X - 1.0 - case["t"], draws=4000), "quick", seed=0)
    assert rec["verdict"] == "HOLDS" and rec["evidence"]["strength"] == "confirmed"
    assert rec["evidence"]["worst"]["draws"] < 4000  # the first look already holds


def test_ties_written_with_float_constants_hold_and_a_constant_past_the_band_is_refuted():
    """Every draw equal: decided deterministically, float64 rounding of the compared values (lhs, rhs) allowed."""
    const = lambda v: lambda case, X, xp: (np.full(len(X), v), np.full(len(X), 0.3))  # noqa: E731
    for relation in ("<=", "==", ">="):
        rec = run(_claim(const(0.1 * 3), relation, draws=100), "quick", seed=0)  # 0.1 * 3 = 0.3 + 5.6e-17
        assert rec["verdict"] == "HOLDS", relation
    rec = run(_claim(const(0.3 * (1 + 1e-9)), "<=", draws=100), "quick", seed=0)
    assert rec["verdict"] == "REFUTED" and rec["evidence"]["counterexample"]["se"] == 0.0


def test_coordinates_are_tested_together_and_the_failing_one_is_named():
    two = lambda case, X, xp: np.stack([X, X + 0.3 * (case["t"] > 0.5)], axis=1)  # noqa: E731
    rec = run(_claim(two, "==", draws=2000), "quick", seed=0)
    assert rec["verdict"] == "REFUTED"
    cx = rec["evidence"]["counterexample"]
    assert cx["coordinate"] == 1 and cx["coordinates"] == 2


def test_an_evaluator_of_the_wrong_shape_is_an_error():
    rec = run(_claim(lambda case, X, xp: X[:3], draws=100), "quick", seed=0)
    assert rec["verdict"] == "ERROR" and "one value (or row) per draw" in rec["evidence"]["error"]
    rec = run(_claim(lambda case, X, xp: np.full(len(X), np.inf), draws=100), "quick", seed=0)
    assert rec["verdict"] == "ERROR" and "not finite" in rec["evidence"]["error"]
