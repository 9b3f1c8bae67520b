"""Certification from a claim's own parameters: planted false claims refuted, true twins certified."""
import mpmath
import pytest
from flint import ctx
from planted_certify import PLANTED_CERTIFY

from attncheck.certify import params as certify_params
from attncheck.core import declarations
from attncheck.core.profiles import get_profile
from attncheck.run.session import run_claim as run


def _cert(cid, seed=0):
    rec = run(PLANTED_CERTIFY.get(cid), "quick", seed=seed)
    return rec, rec["evidence"].get("certification")


def test_false_bound_on_a_1e_6_share_is_refuted_by_the_interval_route():
    rec, cert = _cert("planted/certify-own/bound-false-on-1e-6")
    assert rec["verdict"] == "REFUTED" and cert["status"] == "refuted"
    cx = rec["evidence"]["counterexample"]
    assert "interval" in cx["found_by"] and "mpmath" in cx["found_by"]
    assert abs(cx["point"]["x"] - 1 / 3) < 5e-7
    assert mpmath.mpf(cx["slack"]) < 0


def test_true_twin_of_the_bound_is_certified():
    rec, cert = _cert("planted/certify-own/bound-true-twin")
    assert rec["verdict"] == "CERTIFIED" and cert["status"] == "certified" and cert["certified_fraction"] == 1.0
    assert cert["boxes"] >= 1 and cert["depth"] >= 0 and "arb" in cert["route"]


def test_identity_wrong_by_1e_14_is_refuted_the_true_one_is_not():
    rec, cert = _cert("planted/certify-own/identity-off-by-1e-14")
    assert rec["verdict"] == "REFUTED" and cert["status"] == "refuted"
    assert rec["evidence"]["counterexample"]["point"]["x"] > 0
    rec, cert = _cert("planted/certify-own/identity-true-twin")
    # an exact identity (rtol = 0) on a box of positive width is never provable by balls; the symbolic route
    # rewrites lhs - rhs to 0
    assert rec["verdict"] == "CERTIFIED" and cert["status"] == "certified" and "SymPy" in cert["route"]


def test_an_identity_true_only_at_its_tolerance_is_not_certified_exactly():
    rec, cert = _cert("planted/certify-own/identity-at-a-tolerance")
    assert rec["verdict"] == "HOLDS" and cert["status"] == "incomplete"
    assert "lhs - rhs" in cert["detail"] and "held in mpmath" in cert["detail"]


def test_n_relaxed_to_a_real_over_fifteen_decades():
    rec, cert = _cert("planted/certify-own/log-n-bound")
    assert rec["verdict"] == "CERTIFIED" and cert["box"] == {"n": [4.0, 1e15]} and cert["relaxed"]


def test_ineligible_claims_state_why():
    rec, cert = _cert("planted/certify-own/ineligible")
    assert rec["verdict"] == "HOLDS" and cert == {"status": "not eligible", "reason": "integer structure",
                                                  "detail": "n mod 3"}
    with pytest.raises(ValueError):
        declarations.Ineligible("too hard")


def test_precision_does_not_leak():
    before, dps = ctx.prec, mpmath.mp.dps
    _cert("planted/certify-own/bound-false-on-1e-6")
    _cert("planted/certify-own/bound-true-twin")
    assert ctx.prec == before and mpmath.mp.dps == dps


def test_box_validation():
    with pytest.raises(ValueError):
        declarations.Parameters({"x": (1.0, 0.0)}, case=lambda v: v)
    with pytest.raises(ValueError):
        declarations.Parameters({"n": (0.0, 1.0)}, case=lambda v: v, log=("n",))


SMALL_DEEP = get_profile("deep", scale=0.05)
"""The deep profile with a twentieth of its search budget: which profiles certify depends on the name alone."""


def test_certification_runs_in_its_declared_profiles_only():
    rec, cert = _cert("planted/certify-own/deep-only")
    assert rec["verdict"] == "HOLDS" and cert["status"] == "not run"
    rec = run(PLANTED_CERTIFY.get("planted/certify-own/deep-only"), SMALL_DEEP, seed=0)
    assert rec["verdict"] == "CERTIFIED" and rec["evidence"]["profile"] == "deep"


@pytest.mark.parametrize("profile", [get_profile("quick"), SMALL_DEEP], ids=["quick", "deep"])
def test_certification_runs_in_every_profile_unless_restricted(profile):
    c = PLANTED_CERTIFY.get("planted/certify-own/bound-true-twin")
    assert c.certify.profiles is None  # declared without profiles=
    assert run(c, profile, seed=0)["verdict"] == "CERTIFIED"


def test_an_evaluator_that_asks_a_ball_for_a_float_is_not_eligible():
    rec, cert = _cert("planted/certify-own/branches-on-data")
    assert rec["verdict"] == "HOLDS" and cert["status"] == "not eligible"
    assert cert["reason"] == "evaluator branches on data"


def test_report_separates_certified_and_says_why_not():
    from attncheck.report import groups as report_groups
    from attncheck.report import labels
    recs = [run(PLANTED_CERTIFY.get(c), "quick", seed=0) for c in
            ("planted/certify-own/bound-true-twin", "planted/certify-own/identity-at-a-tolerance",
             "planted/certify-own/ineligible")]
    assert [r["verdict"] for r in recs] == ["CERTIFIED", "HOLDS", "HOLDS"]
    assert report_groups.counts(recs)["CERTIFIED"] == 1 and report_groups.counts(recs)["HOLDS"] == 2
    assert report_groups.certification(recs) == {"deterministic": 3, "certified": 1, "eligible": 2,
                                                 "certified by symbolic-interval": 1,
                                                 "not eligible: integer structure": 1, "undeclared": 0}
    assert "(1 symbolic-interval)" in report_groups.certification_text(recs)
    assert "certified by symbolic-interval" in labels.key_evidence(recs[0])
    assert "% of the box" in labels.key_evidence(recs[1])
    assert "certification not eligible: integer structure" in labels.key_evidence(recs[2])


def test_own_space_certifies_over_the_declared_parameters():
    c = PLANTED_CERTIFY.get("planted/certify-own/own-space")
    assert c.certify.box == {"x": (-2.0, 2.0), "n": (4.0, 1e15)} and c.certify.log == ("n",)
    rec, cert = _cert("planted/certify-own/own-space")
    assert rec["verdict"] == "CERTIFIED" and cert["status"] == "certified"
    with pytest.raises(ValueError):
        declarations.from_space(c.space)  # n is an integer: relaxing it must be explicit


def test_an_evaluator_that_fails_on_balls_keeps_its_sampled_verdict():
    rec, cert = _cert("planted/certify-own/not-on-balls")
    assert rec["verdict"] == "HOLDS" and cert["status"] == "error" and "AttributeError" in cert["detail"]


def test_a_relaxed_integer_is_refuted_only_at_an_integer():
    rec, cert = _cert("planted/certify-own/false-between-integers")
    # the real relaxation fails on (4.05, 4.95), which holds no integer: never REFUTED, and certified
    assert rec["verdict"] == "CERTIFIED" and cert["status"] == "certified"
    c = PLANTED_CERTIFY.get("planted/certify-own/own-space")
    assert c.certify.integers == ("n",)


def test_cases_are_certified_only_when_every_structure_is():
    from attncheck import ge

    def evaluate(case, xp):
        x = xp.asarray(case["x"])
        return ge(x * x + case["shift"], 0.0, xp)

    def part(shift, lo=-1.0, hi=1.0):
        return declarations.Parameters({"x": (lo, hi)}, case=lambda v, s=shift: dict(v, shift=s), max_boxes=400)

    ok = declarations.Cases((("shift 0.5", part(0.5)), ("shift 1", part(1.0))))
    out = certify_params.run_cases(evaluate, ok)
    assert out.status == "certified" and out.certified_fraction == 1.0 and "shift 1: certified" in out.detail
    bad = declarations.Cases((("shift 1", part(1.0)), ("shift -0.01", part(-0.01))))
    out = certify_params.run_cases(evaluate, bad)
    assert out.status == "refuted" and abs(out.counterexample["point"]["x"]) < 0.1
    assert "shift 1: certified" in out.detail and "shift -0.01: refuted" in out.detail


@pytest.mark.parametrize("cid", ["planted/certify-own/bound-false-on-1e-6", "planted/certify-own/identity-off-by-1e-14"])
def test_the_ball_route_alone_refutes_the_planted_false_claims(cid):
    """The symbolic route runs first; without it the arb-ball branch and bound refutes the same claims."""
    c = PLANTED_CERTIFY.get(cid)
    out = certify_params.run_balls(c.evaluate, c.certify)
    assert out.status == "refuted" and "interval" in out.counterexample["found_by"]
    assert mpmath.mpf(out.counterexample["slack"]) < 0


def test_a_covering_certification_skips_the_search_only_where_it_certifies():
    rec, cert = _cert("planted/certify-own/covering-true-twin")
    assert rec["verdict"] == "CERTIFIED" and cert["status"] == "certified" and cert["covers"]
    assert rec["evidence"]["cases"] == 0 and all(p["covered"] and p["cases"] == 0 for p in rec["evidence"]["path"])
    rec, cert = _cert("planted/certify-own/covering-false")
    assert rec["verdict"] == "REFUTED" and rec["evidence"]["cases"] > 0 and cert is None  # found by the search
