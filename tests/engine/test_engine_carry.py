"""carry_worst: every path point's worst case re-evaluated at every other point (asymptotic claims).

Planted claims whose implied constant depends on (a, b) in [0, 1]^2 through a rippled landscape
(local maxima near 4) and a narrow bump (height 10, radius ~0.03 around (0.37, 0.61)) that the
search finds at some path points only: flat in n (true) or growing like n^0.5 on the bump (false).
"""
import math

import pytest

from attncheck import Int, Real, Space, claim
from attncheck.core.claims import Registry
from attncheck.run.session import run_claim as run

REG = Registry()
PATH = {"quick": [10, 100, 10**3, 10**4, 10**5], "deep": [10, 100, 10**3, 10**4, 10**5]}


def _landscape(a, b, n, growth):
    ripple = 3 * (math.sin(23 * a) * math.sin(19 * b)) ** 2
    return 1 + ripple + 9 * math.exp(-((a - 0.37) ** 2 + (b - 0.61) ** 2) / 0.001) * n ** growth


def _space(n):
    return Space(build=lambda a, b: (n, a, b), a=Real(0, 1), b=Real(0, 1))


def _draws(case, rng, size):
    return 1 + 0.01 * rng.standard_normal(size)


def _planted(name, carry, growth):
    @claim(f"carry/{name}/{'carried' if carry else 'plain'}", kind="asymptotic", source="planted",
           statement="X_n = O(1)", space=_space, path=PATH, sample=_draws, probability=0.5, cost="expensive",
           carry_worst=carry, registry=REG)
    def evaluate(case, noise, xp):
        n, a, b = case
        return _landscape(a, b, n, growth) * noise
    return evaluate


FLAT = {c: _planted("flat", c, 0.0) for c in (True, False)}
GROWS = {c: _planted("grows", c, 0.5) for c in (True, False)}


def _constants(rec):
    return [p["worst"]["implied_constant"] for p in rec["evidence"]["path"]]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_every_point_sees_the_worst_case_found_anywhere(seed):
    rec = run(FLAT[True], "quick", seed=seed)
    c = _constants(rec)
    assert min(c) > 0.97 * max(c)  # the worst case found anywhere is evaluated everywhere
    assert rec["verdict"] in ("HOLDS", "INCONCLUSIVE")
    assert all(p["stages"]["carried"] >= 1 for p in rec["evidence"]["path"])


@pytest.mark.parametrize("seed", [1, 3])
def test_without_carrying_the_points_disagree(seed):
    """The failure mode carry_worst removes: the plain search finds the bump at one point only."""
    c = _constants(run(FLAT[False], "quick", seed=seed))
    assert max(c) > 2.5 * min(c)


@pytest.mark.parametrize("seed", [2, 3])
def test_growth_found_at_one_point_is_refuted(seed):
    """Seeds where some point finds the bump: carried, its growth is seen along the whole path (the plain
    search, which sees it at one point or none, does not refute: INCONCLUSIVE, or a false HOLDS)."""
    rec = run(GROWS[True], "quick", seed=seed)
    assert rec["verdict"] == "REFUTED", rec["evidence"]
    assert rec["evidence"]["growth_exponent_ci"][0] > 0.2
    assert run(GROWS[False], "quick", seed=seed)["verdict"] != "REFUTED"


def test_values_outside_another_points_space_are_skipped():
    reg = Registry()

    @claim("carry/shrinking/space", kind="asymptotic", source="planted", statement="X_n = O(1)",
           space=lambda n: Space(build=lambda k: (n, k), k=Int(1, n)), path={"quick": [4, 16, 64]},
           sample=_draws, probability=0.5, cost="expensive", carry_worst=True, registry=reg)
    def evaluate(case, noise, xp):
        n, k = case
        assert 1 <= k <= n
        return k / n * noise

    rec = run(evaluate, "quick", seed=0)
    assert rec["verdict"] in ("HOLDS", "INCONCLUSIVE")


def test_carry_worst_needs_an_asymptotic_claim_with_a_space():
    with pytest.raises(ValueError, match="carry_worst"):
        claim("carry/bad/kind", kind="inequality", source="planted", statement="x", space=Space(a=Real(0, 1)),
              carry_worst=True, registry=Registry())(lambda c, xp: None)
