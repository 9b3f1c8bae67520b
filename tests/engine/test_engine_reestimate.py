"""Asymptotic claims end to end: each point's worst case re-estimated on fresh draws, the path extended."""
from planted_power import POWER

from attncheck.run.session import run_claim as run


def test_the_worst_case_is_re_estimated_on_fresh_draws():
    rec = run(POWER.get("power/limit-short/false"), "quick", seed=0)  # n^0.03 on [64, 256, 1024]
    ev = rec["evidence"]
    assert rec["verdict"] == "REFUTED", ev
    for p, (n, value, se) in zip(ev["path"], ev["estimates"], strict=True):
        est = p["estimate"]
        assert est["replicates"] == 8 and est["value"] == value and est["se"] == se > 0 and p["point"] == n
        assert abs(est["value"] - p["worst"]["implied_constant"]) < 0.05 * est["value"]  # same case, fresh draws


def test_an_undecided_path_is_extended_and_the_evidence_says_what_was_added():
    """2 - 4/sqrt(n) on [64, 256, 1024] still rises like n^0.05 at its end: the engine adds 4096 and 16384."""
    rec = run(POWER.get("power/limit-short/twin"), "quick", seed=0)
    ev = rec["evidence"]
    assert rec["verdict"] != "REFUTED" and ev["extended"]["points"] == [4096, 16384], ev
    assert [p["point"] for p in ev["path"]] == [64, 256, 1024, 4096, 16384]
    if rec["verdict"] == "INCONCLUSIVE":
        assert ev["decide_with"] and "deep" not in ev["reason"]


def test_the_rate_form_carries_the_evaluator_s_standard_error():
    rec = run(POWER.get("power/heavy-tailed-estimate/twin"), "quick", seed=0)
    assert rec["verdict"] == "HOLDS", rec["evidence"]
    for p in rec["evidence"]["path"]:
        assert "se" in p["worst"] and "quantile" not in p["worst"]
        assert p["estimate"]["replicates"] >= 2 and p["estimate"]["se"] > 0


def test_a_deterministic_evaluator_is_re_estimated_twice_with_error_zero():
    import numpy as np

    from attncheck import Real, Space, claim
    from attncheck.core.claims import Registry

    reg = Registry()

    @claim("x/deterministic/rate", kind="asymptotic", statement="a (1 - 1/n) = O(1)", source="planted",
           space=lambda n: Space(build=lambda a: (n, a), a=Real(1, 2)), path={"quick": [16, 64, 256]},
           sample=lambda c, rng, size: rng.random(size), probability=0.5, cost="cheap", draws=1, registry=reg)
    def rising(c, R, xp):
        n, a = c
        return np.full(len(R), a * (1 - 1 / n))

    rec = run(reg.get("x/deterministic/rate"), "quick", seed=0)
    assert rec["verdict"] == "HOLDS", rec["evidence"]
    assert all(p["estimate"]["replicates"] == 2 and p["estimate"]["se"] == 0.0 for p in rec["evidence"]["path"])
