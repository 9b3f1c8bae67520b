"""Report writing for every kind of evidence: table, summary.md, summary.html, figures."""
import json

from planted import PLANTED, lemma_4_1_part_2, log_growth_claim, mean_sign_claim

from attncheck import Provenance, Reading, Unchecked
from attncheck.report import labels
from attncheck.report import writer as report
from attncheck.run.session import run_claim as run


def test_every_kind_of_record_renders(tmp_path):
    claims = [log_growth_claim(), mean_sign_claim(1.0), lemma_4_1_part_2(0.1), PLANTED.get("planted/softmax/scale"),
              PLANTED.get("planted/certify/strict-true")]
    records = [run(c, "quick", seed=0) for c in claims]
    assert [r["verdict"] for r in records] == ["HOLDS", "HOLDS", "HOLDS", "REFUTED", "CERTIFIED"]
    out = report.write(tmp_path, records, {"profile": "quick", "seed": 0})
    for r in records[:3]:  # claims with a scaling path get a figure
        assert (out / "figures" / (r["id"].replace("/", "_") + ".png")).stat().st_size > 1000
    html = "".join((out / f"{r['paper']}.html").read_text() for r in records)
    for r in records:
        assert f"id='{r['id']}'" in html
    assert "Counterexample:" in html and "holds from n = 1000" in html
    assert (out / "index.html").exists() and "planted" in (out / "summary.md").read_text()
    doc = json.loads((out / "results.json").read_text())
    assert [c["id"] for c in doc["claims"]] == sorted((r["id"] for r in records), key=labels.natural_key)
    lines = labels.table(records)
    assert lines[-1].startswith("verdicts: HOLDS 3, CERTIFIED 1, REFUTED 1")


def _rec(cid, verdict="HOLDS", kind="inequality", **extra):
    paper, label, part = cid.split("/")
    rec = {"id": cid, "paper": paper, "label": label, "part": part, "kind": kind, "relation": None,
           "statement": r"\frac{a}{b} \le 1", "source": f"{paper} Appendix X",
           "reading": {"provenance": None, "unchecked": [], "shared": {}, "notes": {}},
           "verdict": verdict, "evidence": {"cases": 3, "replay": f"attncheck check {cid}"}, "erratum": None}
    rec.update(extra)
    return rec


def test_natural_order_sections_errata_families_and_counts():
    from attncheck.report import groups as g

    recs = [_rec("p/lemma-d.10/part-1"), _rec("p/lemma-d.2/part-10"), _rec("p/lemma-d.2/part-2"),
            _rec("p/lemma-4.1/main"), _rec("p/theorem-1.1/main"), _rec("p/fact-a.1/main"),
            _rec("p/lemma-d.2/part-3", "ERRATUM", erratum={"corrected_id": "p/lemma-d.2/part-3-corrected",
                                                           "corrected_statement": "x", "note": "same reason"}),
            _rec("p/lemma-d.2/part-4", "ERRATUM", erratum={"corrected_id": "p/lemma-d.2/part-4-corrected",
                                                           "corrected_statement": "x", "note": "same reason"}),
            _rec("p/lemma-d.2/part-5", "HOLDS", kind="probabilistic", evidence={"strength": "confirmed"}),
            _rec("q/theorem-2/main", "REFUTED", source="q Section 3, Theorem 2",
                 reading=Reading(Provenance("RECONSTRUCTED", "formula lost in extraction")).to_json())]
    secs = g.sections(g.by_paper(recs)["p"])
    assert list(secs) == ["Section 1", "Section 4", "Appendix A", "Appendix D"]
    assert list(secs["Appendix D"]) == ["lemma-d.2", "lemma-d.10"]
    assert [r["part"] for r in secs["Appendix D"]["lemma-d.2"]] == ["part-2", "part-3", "part-4", "part-5", "part-10"]
    fams = g.errata_families(recs)
    assert list(fams) == ["lemma-d.2"] and len(fams["lemma-d.2"]["parts"]) == 2
    assert fams["lemma-d.2"]["notes"] == [("same reason", ["p/lemma-d.2/part-3", "p/lemma-d.2/part-4"])]
    c = g.counts(recs)
    assert (c["HOLDS"], c["HOLDS confirmed"], c["ERRATUM"], c["REFUTED"]) == (6, 1, 2, 1)
    assert [r["id"] for r in recs if g.is_main_theorem(r)] == ["p/theorem-1.1/main", "q/theorem-2/main"]
    assert g.section(recs[-1]) == "Section 3"
    assert g.provenance(recs[-1]) == {"tag": "RECONSTRUCTED", "note": "formula lost in extraction"}
    assert g.provenance(recs[0]) is None


def test_unchecked_parts_are_shown_on_the_claim_and_counted_per_paper(tmp_path):
    from attncheck.report import groups as g
    from attncheck.report import html as report_html
    from attncheck.report import md as report_md

    def reading(*parts):
        return Reading(unchecked=[Unchecked(p, r) for p, r in parts]).to_json()

    keyed = _rec("p/lemma-1.1/main", reading=reading(("p > 6", "not drawn"), ("p < 1.1", "not drawn")))
    inline = _rec("p/lemma-1.2/main", reading=reading(("a0 < 1e-12", "out of float range"), ("n > 10^18", "beyond the path")))
    plain = _rec("p/lemma-1.3/main")
    refuted = _rec("p/lemma-1.4/main", "REFUTED", reading=reading(("n > 10^9", "beyond the path")))
    recs = [keyed, inline, plain, refuted]
    assert [[p["part"] for p in g.unchecked(r)] for r in recs] == [["p > 6", "p < 1.1"], ["a0 < 1e-12", "n > 10^18"], [],
                                                                   ["n > 10^9"]]
    assert g.scope_text(recs).startswith("2 of the 3 HOLDS and CERTIFIED claims")  # a REFUTED is not counted
    # claims by reason, in Reason's order: a claim with two parts of one reason counts once, with two reasons twice
    assert "(claims by reason: out of float range 1, beyond the path 1, not drawn 1)" in g.scope_text(recs)
    assert {k: [r["id"] for r in v] for k, v in g.scope_by_reason(recs).items()} == {
        "out of float range": [inline["id"]], "beyond the path": [inline["id"]], "not drawn": [keyed["id"]]}
    doc = {"schema": "attncheck-results/2", "generated": "now", "versions": {}, "seeds": {"profile": "quick",
                                                                                          "master": 0},
           "claims": recs}
    page = report_html.paper_page("p", recs, doc, None, tmp_path)
    cards = {r["id"]: page[page.index(f"id='{r['id']}'"):] for r in recs}
    assert "Unchecked (2 parts: not drawn)" in cards[keyed["id"]].split("</article>")[0]
    assert "Unchecked (2 parts: beyond the path, out of float range)" in cards[inline["id"]].split("</article>")[0]
    assert "Unchecked" not in cards[plain["id"]].split("</article>")[0]
    assert "<b>Scope.</b> 2 of the 3 HOLDS" in page
    scope = page[page.index("<b>Scope.</b>"):page.index("id='toc'")]
    assert "<summary>1 claim</summary><a href='#p/lemma-1.1/main'>" in scope  # the "not drawn" ones are named
    assert "- p: 2 of the 3 HOLDS" in report_md.summary(doc, None)


def test_the_index_and_summary_name_failing_and_undecided_claims_and_say_columns_are_disjoint():
    from attncheck.report import groups as g
    from attncheck.report import html as report_html
    from attncheck.report import md as report_md

    recs = [_rec("mine/fact-1/main"), _rec("mine/fact-2/main", "REFUTED"), _rec("mine/fact-10/main", "INCONCLUSIVE"),
            _rec("mine/fact-3/main", "CERTIFIED")]
    doc = {"schema": "attncheck-results/2", "generated": "now", "versions": {}, "seeds": {"profile": "quick",
                                                                                          "master": 0},
           "constraints": {"file": "constraints.txt", "differs": {}}, "claims": recs}
    md, index = report_md.summary(doc, None), report_html.index_page(doc, None)
    for text in (md, index):
        assert g.DISJOINT in text.replace("&#x27;", "'")
        assert "Claims REFUTED, ERROR or INCONCLUSIVE" in text
        assert text.index("mine/fact-2/main") < text.index("mine/fact-10/main")  # natural order
        assert "mine/fact-1/main" not in text.split("Claims REFUTED, ERROR or INCONCLUSIVE")[1]
    assert "Against attncheck's own pins" in md and "Pinned in" not in md
    assert "Claims REFUTED" not in report_md.summary({**doc, "claims": [recs[0], recs[3]]}, None)  # the twin


def test_committed_report_renders_short_summary_and_pages(tmp_path):
    from pathlib import Path

    from attncheck.report import groups as g
    from attncheck.report import html as report_html
    from attncheck.report import md as report_md

    reports = Path(__file__).resolve().parents[2] / "reports"
    doc = json.loads((reports / "results.json").read_text())
    exps = json.loads((reports / "experiments.json").read_text())
    md = report_md.summary(doc, exps)
    assert len(md) < 20_000 and "[deng2023](deng2023.html)" in md and "Errata by lemma" in md
    assert md.index("## Verdicts per paper") < md.index("## Errata by lemma")
    page = report_html.paper_page("deng2023", doc["claims"], doc, exps, reports)
    assert page.count("<article class='claim'") == len(doc["claims"])
    assert page.count("<math") >= len(doc["claims"])
    assert "<script src" not in page and "src='http" not in page and "href='http" not in page  # no network
    assert page.index("id='headline'") < page.index("id='toc'") < page.index("id='claims'") < page.index("id='errata'")
    assert "id='deng2023/lemma-d.4/part-2'" in page and "id='errata/deng2023/lemma-d.4'" in page
    for paper, recs in g.by_paper(doc["claims"]).items():  # no word of a statement set in math-italic letters
        words = report_html.italic_words(report_html.paper_page(paper, recs, doc, exps, reports))
        assert words == [], f"{paper}.html: {words[:5]}"


def test_deterministic_figures_have_few_symlog_labels_and_refuted_markers(tmp_path):
    from attncheck.report import figures

    path = [{"point": n, "refuted": n in (30, 100), "worst": {"relative_slack": s}}
            for n, s in [(2, 3e-25), (3, 1e-3), (30, -0.8), (100, -0.1), (1000, 0.5)]]
    rec = {"id": "p/lemma-1.1/part-1", "kind": "inequality", "verdict": "REFUTED", "evidence": {"path": path}}
    ticks = figures.symlog_ticks([p["worst"]["relative_slack"] for p in path], 1e-12)
    assert len(ticks) <= 9 and 0.0 in ticks
    from attncheck.core.plotting import pyplot

    plt = pyplot()
    fig, ax = plt.subplots()
    figures._deterministic(ax, rec, path)
    handles, labels = ax.get_legend_handles_labels()
    assert "a case fails at this n" in labels
    assert len(ax.get_yticks()) == len(ticks) <= 9
    plt.close(fig)
    assert figures.claim_figure(rec, tmp_path).stat().st_size > 1000


def test_figures_draw_a_series_per_path_parameter_and_what_the_verdict_used():
    """A path over (beta, n) draws one line per beta; positive slacks get a log axis (none sits on the frame); a
    probabilistic figure's bars are the multiplicity-adjusted interval the verdict used, not the plain 95% one."""
    from attncheck.core.plotting import pyplot
    from attncheck.report import figures

    plt = pyplot()
    path = [{"point": {"beta": b, "n": n}, "refuted": False, "worst": {"relative_slack": 0.48 + 0.01 * k}}
            for k, (b, n) in enumerate([(0.5, 10), (0.5, 100), (1.0, 10), (1.0, 100)])]
    fig, ax = plt.subplots()
    figures._deterministic(ax, {"kind": "inequality"}, path)
    assert [line.get_label() for line in ax.get_lines()] == ["smallest relative slack, beta = 0.5",
                                                            "smallest relative slack, beta = 1"]
    assert ax.get_yscale() == "log"
    lo, hi = ax.get_ylim()
    assert lo < 0.48 and hi > 0.51
    plt.close(fig)
    worst = {"pass_rate": 0.49, "claimed": 0.5, "ci95": [0.48, 0.499], "decision_bounds": [0.47, 0.51], "gap": -0.01}
    fig, ax = plt.subplots()
    figures._probabilistic(ax, [{"point": n, "refuted": False, "worst": worst} for n in (10, 100)])
    segments = ax.collections[0].get_segments()  # the error bars
    assert [round(seg[0][1], 6) for seg in segments] == [0.47, 0.47] and [round(seg[1][1], 6) for seg in segments] \
        == [0.51, 0.51]
    plt.close(fig)


def test_gitignore_lists_no_tracked_file():
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    res = subprocess.run(["git", "ls-files", "--cached", "--ignored", "--exclude-standard"], cwd=root,
                         capture_output=True, text=True)
    if res.returncode != 0:
        import pytest

        pytest.skip("not a git checkout")
    assert res.stdout.strip() == ""


def test_expectation_records_render_with_their_mean_and_figure(tmp_path):
    """An expectation claim along a path: the table line names the worst mean and its bounds, the headline
    counts its strength, and it gets a figure."""
    import numpy as np

    from attncheck import Real, Space, claim
    from attncheck.core.claims import Registry

    @claim("planted/expect/path", kind="expectation", relation="<=", path={"quick": [10, 100]}, draws=500,
           space=lambda n: Space(t=Real(0, 1)), sample=lambda c, rng, size: rng.standard_normal(size),
           statement=r"E[Z - 1 - t] \le 0", source="planted", cost="cheap", registry=Registry())
    def expect(case, Z, xp):
        return Z - 1.0 - case["t"], np.zeros(len(Z))

    rec = run(expect, "quick", seed=0)
    assert rec["verdict"] == "HOLDS" and rec["evidence"]["strength"] == "confirmed"
    out = report.write(tmp_path, [rec], {"profile": "quick", "seed": 0})
    assert (out / "figures" / "planted_expect_path.png").stat().st_size > 1000
    line = labels.key_evidence(rec)
    assert line.startswith("worst mean -") and "vs E <= 0 (multiplicity-adjusted [" in line
    assert labels.table([rec])[-1].endswith("; expectation HOLDS: 1 confirmed, 0 not refuted")


def test_certification_says_which_profile_certifies():
    """A quick report's deep-only certifications are counted as not run there, with the profile that runs them,
    so that "0 of 2 CERTIFIED" does not read as a failure; a deep report's certified claims count as such."""
    from attncheck.report import groups as g

    def rec(cid, verdict, cert):
        return _rec(cid, verdict, evidence={"cases": 3, "replay": "x", "certification": cert})

    quick = [rec("p/lemma-1/a", "HOLDS", {"status": "not run", "reason": "runs in profile(s) deep"}),
             rec("p/lemma-1/b", "HOLDS", {"status": "not run", "reason": "runs in profile(s) deep"})]
    assert g.certification_text(quick).startswith(
        "0 of 2 eligible deterministic claims CERTIFIED; 2 not run here: certification runs in the profile(s) deep")
    deep = [rec("p/lemma-1/a", "CERTIFIED", {"status": "certified", "route": "interval"}), quick[1]]
    assert g.certification_text(deep).startswith("1 of 2 eligible deterministic claims CERTIFIED (1 interval); "
                                                 "1 not run here")
