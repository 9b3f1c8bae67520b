"""Screen, then confirm (attncheck.engine.screen, issue 27): the screen spends no alpha, the confirmation on fresh
draws is calibrated at its level, and the alpha split does not depend on how many cases the search tries."""
import numpy as np
from hypothesis import strategies as st

from attncheck import Real, Space, claim, lt, stats
from attncheck.core.claims import Registry
from attncheck.core.profiles import PROFILES
from attncheck.engine import alpha_per_test, cost, run
from attncheck.engine.checks import Point, ProbabilisticCheck
from attncheck.numeric.precision import Escalation


def _claims() -> Registry:
    """The claims, in a private registry built by a function (module-level claims would be collected as tests)."""
    reg = Registry()

    def _uniform(case, rng, size):
        return rng.random(size)

    @claim("screen/at-level/cheap", kind="probabilistic", statement=r"\Pr[U < 0.9] \ge 0.9", source="test",
           registry=reg, space=Space(t=Real(0, 1)), sample=_uniform, probability=0.9, cost="cheap")
    def at_level(case, U, xp):
        return lt(xp.asarray(U), 0.9, xp)

    @claim("screen/at-level/expensive", kind="probabilistic", statement=r"\Pr[U < 0.9] \ge 0.9", source="test",
           registry=reg, domain=st.floats(0, 1), sample=_uniform, probability=0.9, cost="expensive")
    def at_level_expensive(case, U, xp):
        return lt(xp.asarray(U), 0.9, xp)

    @claim("screen/short/main", kind="probabilistic", statement=r"\Pr[U < 0.895] \ge 0.9", source="test",
           registry=reg, space=Space(t=Real(0, 1)), sample=_uniform, probability=0.9)
    def half_percent_short(case, U, xp):
        return lt(xp.asarray(U), 0.895, xp)

    return reg


REG = _claims()


def _check(claim_id: str, alpha_test: float | None = None) -> ProbabilisticCheck:
    prof, c = PROFILES["quick"], REG.get(claim_id)
    return ProbabilisticCheck(c, prof, prof.budget(True, cost.choose(c, "quick")[0].value), 0, None, Escalation(),
                              alpha_test=alpha_test if alpha_test is not None else alpha_per_test(c, prof, 1)[1])


def test_alpha_is_split_over_confirmations_not_over_the_cases_tried():
    prof = PROFILES["quick"]
    cheap, expensive = (alpha_per_test(REG.get(f"screen/at-level/{c}"), prof, 1) for c in ("cheap", "expensive"))
    assert cheap == expensive  # 100 Hypothesis cases and 12 spend the same: nothing
    looks = len(stats.looks(prof.mc_first, prof.confirm_budget))
    assert cheap[1] == prof.alpha / prof.claims / (prof.confirm * looks)


def test_the_confirmation_of_a_claim_exactly_at_its_level_is_calibrated():
    """The engine's own confirmation, on 400 distinct cases (400 independent fresh streams), at a per-test level
    raised to 0.1 over the looks so that a miscalibration is visible: at most 10% refuted (binomial slack)."""
    prof = PROFILES["quick"]
    looks = len(stats.looks(prof.mc_first, prof.confirm_budget))
    check = _check("screen/at-level/cheap", 0.1 / looks)
    states = [check.confirm({"t": t}, Point(None)).state for t in np.linspace(0, 1, 400)]
    assert states.count("refute") <= 40 + 3 * np.sqrt(400 * 0.1 * 0.9)


def test_a_case_short_of_its_claim_draws_past_the_plain_budget():
    """Pr[U < 0.895] >= 0.9: 0.5% short; the confirmation goes on past mc_budget while the estimate is below."""
    out = _check("screen/short/main").confirm({"t": 0.5}, Point(None))
    assert out.info["draws"] > PROFILES["quick"].mc_budget and out.gap < 0


def test_a_twin_at_its_level_is_screened_and_confirmed_but_not_refuted():
    rec = run(REG.get("screen/at-level/cheap"), "quick", seed=1)
    ev = rec["evidence"]
    assert rec["verdict"] == "HOLDS" and ev["strength"] == "not refuted"
    assert len(ev["confirmed"]) == PROFILES["quick"].confirm
    assert ev["worst"]["screen"]["draws"] == PROFILES["quick"].screen
    assert ev["confirmation"]["cases_per_point"] == PROFILES["quick"].confirm
