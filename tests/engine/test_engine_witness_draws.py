"""Engine additions: a per-claim cap on Monte Carlo draws, and one-sided witnesses that never refute."""
from planted_additions import REG, SEEN_SIZES

from attncheck.run.session import run_claim as run


def test_draws_caps_the_monte_carlo_sample_per_case():
    SEEN_SIZES.clear()
    rec = run(REG.get("planted/draws/capped"), "quick", seed=0)
    # a flat constant, each estimate the median of 5 draws: too noisy to exclude growth faster than the rule's
    # resolution over the path (INCONCLUSIVE, saying how many more draws would), never refuted
    assert rec["verdict"] in ("HOLDS", "INCONCLUSIVE"), rec["evidence"]
    assert rec["verdict"] == "HOLDS" or "draws_factor" in rec["evidence"]["decide_with"]
    assert SEEN_SIZES and max(SEEN_SIZES) == 5
    assert all(p["worst"]["draws"] == 5 and p["estimate"]["draws_each"] == 5 for p in rec["evidence"]["path"])


def test_a_failing_witness_is_inconclusive_never_refuted():
    for cid in ("planted/witness/false", "planted/witness/growing"):
        rec = run(REG.get(cid), "quick", seed=0)
        assert rec["verdict"] == "INCONCLUSIVE", rec["evidence"]
        assert "one-sided witness" in rec["evidence"]["reason"]
        assert rec["evidence"]["would_refute"]
