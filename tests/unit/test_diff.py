"""attncheck.report.diff: each kind of change is found, each true twin (no change) is not, and the policy decides."""
import copy
import json

import pytest

from attncheck.report import diff


def _rec(cid, verdict, kind="inequality", strength=None, cert=None, slack=0.5, pass_rate=None):
    ev = {"worst": {"relative_slack": slack, "case": "x"}}
    if pass_rate is not None:
        kind, ev["worst"] = "probabilistic", {"pass_rate": pass_rate, "gap": pass_rate - 0.5, "case": "x"}
    if strength:
        ev["strength"] = strength
    if cert:
        ev["certification"] = {"status": cert}
    return {"id": cid, "kind": kind, "verdict": verdict, "evidence": ev}


def _doc(*recs, profile="quick"):
    return {"schema": "attncheck-results/2", "generated": "2026-12-07T00:00:00+00:00",
            "seeds": {"profile": profile}, "claims": list(recs)}


def _kinds(old, new):
    return [(c.id, c.kind) for c in diff.changes(_doc(*old), _doc(*new))]


BASE = [_rec("p/lemma-1/a", "CERTIFIED", cert="certified"), _rec("p/lemma-2/a", "HOLDS"),
        _rec("p/lemma-3/a", "HOLDS", strength="confirmed", pass_rate=0.9), _rec("p/lemma-4/a", "INCONCLUSIVE"),
        _rec("p/lemma-5/a", "ERRATUM"), _rec("p/lemma-6/a", "REFUTED")]


def test_identical_documents_have_no_change():
    assert _kinds(BASE, copy.deepcopy(BASE)) == []


@pytest.mark.parametrize("cid, verdict, kind", [
    ("p/lemma-2/a", "REFUTED", "refuted"), ("p/lemma-2/a", "ERROR", "refuted"), ("p/lemma-4/a", "ERROR", "refuted"),
    ("p/lemma-2/a", "ERRATUM", "erratum"),
    ("p/lemma-1/a", "HOLDS", "weaker"), ("p/lemma-2/a", "INCONCLUSIVE", "weaker"),
    ("p/lemma-1/a", "INCONCLUSIVE", "weaker"),
    ("p/lemma-2/a", "CERTIFIED", "stronger"), ("p/lemma-4/a", "HOLDS", "stronger"),
    ("p/lemma-5/a", "HOLDS", "stronger"), ("p/lemma-6/a", "HOLDS", "stronger"),
    ("p/lemma-5/a", "REFUTED", "refuted"), ("p/lemma-6/a", "ERRATUM", "erratum"),
])
def test_each_change_of_verdict_is_named(cid, verdict, kind):
    new = copy.deepcopy(BASE)
    next(r for r in new if r["id"] == cid)["verdict"] = verdict
    assert _kinds(BASE, new) == [(cid, kind)]


def test_strength_and_certification_changes_under_the_same_verdict():
    new = copy.deepcopy(BASE)
    new[2]["evidence"]["strength"] = "not refuted"
    assert _kinds(BASE, new) == [("p/lemma-3/a", "weaker")]
    assert _kinds(new, BASE) == [("p/lemma-3/a", "stronger")]
    new = copy.deepcopy(BASE)
    new[1]["evidence"]["certification"] = {"status": "incomplete"}
    assert _kinds(BASE, new) == [("p/lemma-2/a", "certification")]


def test_lost_added_and_a_new_claim_that_fails():
    new = copy.deepcopy(BASE[1:]) + [_rec("p/lemma-7/a", "HOLDS"), _rec("p/lemma-8/a", "ERRATUM"),
                                     _rec("p/lemma-9/a", "ERROR")]
    assert _kinds(BASE, new) == [("p/lemma-1/a", "lost"), ("p/lemma-7/a", "added"), ("p/lemma-8/a", "added"),
                                 ("p/lemma-8/a", "erratum"), ("p/lemma-9/a", "added"), ("p/lemma-9/a", "refuted")]


def test_the_worst_case_moves_beside_the_verdict():
    new = copy.deepcopy(BASE)
    new[1]["evidence"]["worst"]["relative_slack"] = 0.25
    new[2]["evidence"]["worst"]["pass_rate"] = 0.85
    found = diff.changes(_doc(*BASE), _doc(*new))
    assert [(c.id, c.kind, c.old, c.new) for c in found] == [
        ("p/lemma-2/a", "worst", "min rel. slack 0.5", "min rel. slack 0.25"),
        ("p/lemma-3/a", "worst", "worst pass rate 0.9", "worst pass rate 0.85")]
    new[1]["evidence"]["worst"]["relative_slack"] = 0.5 * (1 + 1e-9)  # below four digits: not a move
    assert [c.id for c in diff.changes(_doc(*BASE), _doc(*new))] == ["p/lemma-3/a"]


def test_claims_are_in_natural_order():
    old = [_rec(f"p/eq-6.{k}/main", "HOLDS") for k in (10, 9, 2)]
    assert [c.id for c in diff.changes(_doc(*old), _doc())] == ["p/eq-6.2/main", "p/eq-6.9/main", "p/eq-6.10/main"]


def test_the_policy_decides_which_changes_are_regressions():
    new = copy.deepcopy(BASE)
    new[0]["verdict"] = "HOLDS"          # weaker
    new[3]["verdict"] = "HOLDS"          # stronger
    found = diff.changes(_doc(*BASE), _doc(*new))
    assert [c.id for c in diff.regressions(found, diff.policy("refuted,erratum,weaker,lost"))] == ["p/lemma-1/a"]
    assert diff.regressions(found, diff.policy("refuted")) == []
    assert diff.regressions(found, diff.policy("none")) == []
    assert len(diff.regressions(found, diff.policy("all"))) == 2
    assert diff.policy(",".join(diff.REGRESSIONS)) == diff.REGRESSIONS


@pytest.mark.parametrize("text", ["", "weak", "refuted,nonsense"])
def test_an_unknown_kind_is_refused_naming_the_kinds(text):
    with pytest.raises(diff.DiffError, match="--fail-on takes .*refuted, erratum, weaker, lost"):
        diff.policy(text)


def test_the_printed_diff_says_what_it_compares_and_notes_other_profiles():
    new = copy.deepcopy(BASE)
    new[1]["verdict"] = "INCONCLUSIVE"
    new[2]["evidence"]["worst"]["pass_rate"] = 0.8
    old_doc, new_doc = _doc(*BASE, profile="deep"), _doc(*new)
    found = diff.changes(old_doc, new_doc)
    out = diff.lines(old_doc, new_doc, found, diff.REGRESSIONS, ("a.json", "b.json"))
    assert out[0].startswith("a.json: 6 claims, profile deep") and out[1].startswith("b.json: 6 claims, profile quick")
    assert out[2].startswith("note: the profiles differ (deep -> quick)")
    assert "  weaker        p/lemma-2/a: HOLDS -> INCONCLUSIVE" in out
    assert not any("worst " in line and "p/lemma-3/a" in line for line in out)  # counted, not listed
    assert out[-2] == "changes: weaker 1, worst 1"
    assert out[-1] == "regressions (--fail-on refuted,erratum,weaker,lost): 1: p/lemma-2/a"
    assert json.loads(json.dumps(diff.to_json(found, diff.REGRESSIONS)))["regressions"][0]["id"] == "p/lemma-2/a"


def test_documents_that_are_not_results_are_refused(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(diff.DiffError, match="is not JSON"):
        diff.load(bad)
    bad.write_text(json.dumps({"claims": [{"id": "x"}]}))
    with pytest.raises(diff.DiffError, match="not a results.json"):
        diff.load(bad)
    with pytest.raises(diff.DiffError, match="cannot read"):
        diff.load(tmp_path / "missing.json")
