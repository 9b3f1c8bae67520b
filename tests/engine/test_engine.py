"""The engine against planted claims of known truth."""
import pytest
from planted import PLANTED, bernoulli_claim, lemma_4_1_part_2, mean_sign_claim

from attncheck import F64
from attncheck.numeric.precision import DEFAULT_MARGIN
from attncheck.run.session import run_claim as run

FALSE = ["planted/lemma-4.2/part-2-at-0.99", "planted/lemma-3.1/doubled", "planted/softmax/scale", "planted/square/ge-identity",
         "planted/precision/hidden", "planted/precision/hidden-among-three"]
TRUE = ["planted/softmax/shift", "planted/precision/tie", "planted/precision/tie-among-three"]


@pytest.mark.parametrize("cid", FALSE)
def test_planted_false_claims_are_refuted(cid):
    rec = run(PLANTED.get(cid), "quick", seed=0)
    assert rec["verdict"] == "REFUTED", rec["evidence"]
    if rec["kind"] != "asymptotic":
        assert rec["evidence"]["counterexample"]["case"]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("cid", ["planted/lemma-4.2/part-2-at-0.99", "planted/lemma-3.1/doubled"])
def test_refutation_does_not_depend_on_a_lucky_seed(cid, seed):
    assert run(PLANTED.get(cid), "quick", seed=seed)["verdict"] == "REFUTED"


@pytest.mark.parametrize("cid", TRUE)
def test_planted_true_claims_hold(cid):
    assert run(PLANTED.get(cid), "quick", seed=0)["verdict"] == "HOLDS"


def test_lemma_4_2_part_2_counterexample_is_at_small_n():
    rec = run(PLANTED.get("planted/lemma-4.2/part-2-at-0.99"), "quick", seed=0)
    cx = rec["evidence"]["counterexample"]
    assert cx["point"] <= 10 and cx["pass_rate"] < 1.0
    assert "attncheck check planted/lemma-4.2/part-2-at-0.99" in rec["evidence"]["replay"]


def test_asymptotic_claims_are_judged_on_the_growth_of_the_implied_constant():
    false = run(lemma_4_1_part_2(0.5), "quick", seed=0)
    assert false["verdict"] == "REFUTED" and false["evidence"]["growth_exponent_ci"][0] > 0
    true = run(lemma_4_1_part_2(0.1), "quick", seed=0)
    assert true["verdict"] == "HOLDS" and true["evidence"]["growth_exponent_ci"][1] < 0.02


def test_shrinking_gives_a_minimal_counterexample():
    # x^2 >= x fails exactly on (0, 1); Hypothesis shrinks to the simplest float there
    cx = run(PLANTED.get("planted/square/ge-identity"), "quick", seed=0)["evidence"]["counterexample"]
    assert cx["case"] == "0.5"


@pytest.mark.parametrize("cid, case, float64_says, verdict", [
    ("planted/precision/tie", 1e16, False, "HOLDS"),      # float64: -1 < 0; truly an exact tie
    ("planted/precision/hidden", 1.0, True, "REFUTED"),   # float64: 0 >= 0; truly -2^-60
])
def test_escalation_overrules_a_wrong_float64_sign(cid, case, float64_says, verdict):
    c = PLANTED.get(cid)
    assert bool(c.evaluate(case, F64).holds()) is float64_says
    rec = run(c, "quick", seed=0)
    assert rec["verdict"] == verdict
    esc = rec["evidence"]["escalation"]
    assert esc["escalated"] >= 1 and esc["sign_flips"] >= 1 and esc["max_dps"] >= 60


def test_nan_is_an_error_never_a_pass():
    rec = run(PLANTED.get("planted/precision/nan"), "quick", seed=0)
    # float64 gives NaN, so the case is escalated; mpmath raises on 0/0: ERROR naming the cause
    assert rec["verdict"] == "ERROR" and "ZeroDivisionError" in rec["evidence"]["error"]


def test_default_margin_is_explicit():
    assert 0 < DEFAULT_MARGIN < 1e-6


def test_same_seed_same_record():
    c = PLANTED.get("planted/lemma-3.1/doubled")
    a, b = run(c, "quick", seed=5), run(c, "quick", seed=5)
    for rec in (a, b):
        rec["evidence"].pop("seconds")
    assert a == b


@pytest.mark.parametrize("p", [0.5, 0.9])
def test_engine_end_to_end_size_and_power(p):
    at_bound, optimistic = bernoulli_claim(p, p), bernoulli_claim(p - 0.05, p)
    seeds = range(100, 125)
    assert sum(run(at_bound, "quick", s)["verdict"] == "REFUTED" for s in seeds) == 0
    assert sum(run(optimistic, "quick", s)["verdict"] == "REFUTED" for s in seeds) >= 24


def test_interval_certification():
    rec = run(PLANTED.get("planted/certify/strict-true"), "quick", seed=0)
    assert rec["verdict"] == "CERTIFIED" and rec["evidence"]["certification"]["status"] == "certified"
    rec = run(PLANTED.get("planted/certify/false-hidden"), "quick", seed=0)
    assert rec["verdict"] == "REFUTED"
    cx = rec["evidence"]["counterexample"]
    assert cx["found_by"] == "interval branch and bound" and abs(cx["point"]["x"] - 0.45) < 0.01
    rec = run(PLANTED.get("planted/certify/tight"), "quick", seed=0)  # true, but not provable by bisection
    assert rec["verdict"] == "HOLDS" and rec["evidence"]["certification"]["status"] == "incomplete"
    assert 0.9 < rec["evidence"]["certification"]["certified_fraction"] < 1.0


def test_eventually_claims_are_judged_at_the_end_of_the_path():
    rec = run(mean_sign_claim(1.0), "quick", seed=0)
    ev = rec["evidence"]
    assert rec["verdict"] == "HOLDS" and ev["holds_from"] == 1000
    assert ev["counterexample"]["point"] == 10  # the largest failing n is shown
    rec = run(mean_sign_claim(0.5), "quick", seed=0)  # fails at every n
    assert rec["verdict"] == "REFUTED" and "holds_from" not in rec["evidence"]


def _deep_hidden(sign, dps, seen):
    """sign * ((1 + 2^-150) - 1) >= 0: float64 and 30 digits see an exact 0; 60 digits decide it (2^-150 ~ 7e-46)."""
    from hypothesis import strategies as st

    from attncheck import Slack, claim
    from attncheck.core.claims import Registry

    @claim(f"planted/precision/deep-{'true' if sign > 0 else 'false'}", kind="inequality", statement="",
           source="planted", domain=st.just(1.0), dps=dps, registry=Registry())
    def c(one, xp):
        seen.append(getattr(xp, "dps", 0))  # 0: float64
        one = xp.asarray(one)
        return Slack(sign * ((one + xp.asarray(2.0) ** -150) - one), one)
    return c


@pytest.mark.parametrize("sign, verdict", [(1, "HOLDS"), (-1, "REFUTED")])
def test_a_claim_schedule_of_precisions_replaces_the_default(sign, verdict):
    seen = []
    rec = run(_deep_hidden(sign, None, seen), "quick", seed=0)
    assert rec["verdict"] == verdict and 30 in seen and rec["evidence"]["escalation"]["max_dps"] == 60
    seen = []
    rec = run(_deep_hidden(sign, (60, 120), seen), "quick", seed=0)
    assert rec["verdict"] == verdict and 30 not in seen and 60 in seen  # the 30-digit pass is skipped
    seen = []
    rec = run(_deep_hidden(sign, (30,), seen), "quick", seed=0)  # 30 digits alone cannot decide: exact arithmetic does
    assert rec["verdict"] == verdict and rec["evidence"]["escalation"]["exact"] >= 1
    assert max(seen) == 30


@pytest.mark.parametrize("dps", [(), (60, 30), (30, 30), (10,), (30.5,)])
def test_a_bad_schedule_of_precisions_is_rejected(dps):
    with pytest.raises(ValueError, match="dps must be a non-empty, strictly increasing sequence of integers >= 20"):
        _deep_hidden(1, dps, [])


@pytest.mark.parametrize("cid", ["planted/square/ge-identity", "planted/softmax/scale"])
def test_a_refutation_does_not_depend_on_the_wall_clock(cid, monkeypatch):
    # Hypothesis stops looking for further failures 10 s (time.monotonic) after the first: the engine must not let
    # that clock decide what a refuted claim's record holds, so a frozen clock and one racing by 100 s a call agree
    import time
    import types

    from hypothesis.internal.conjecture import engine

    def record(step):
        now = [0.0]

        def monotonic():
            now[0] += step
            return now[0]

        clock = types.SimpleNamespace(**{k: getattr(time, k) for k in dir(time) if not k.startswith("_")})
        clock.monotonic = monotonic
        monkeypatch.setattr(engine, "time", clock)
        rec = run(PLANTED.get(cid), "quick", seed=0)
        rec["evidence"].pop("seconds")
        return rec

    frozen, racing = record(0.0), record(100.0)
    assert frozen["verdict"] == "REFUTED"
    assert frozen == racing
