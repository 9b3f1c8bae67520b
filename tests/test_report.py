"""Report writing for every kind of evidence: table, summary.md, summary.html, figures."""
import json

from attncheck import report
from attncheck.engine import run
from planted import PLANTED, lemma_4_1_part_2, log_growth_claim, mean_sign_claim


def test_every_kind_of_record_renders(tmp_path):
    claims = [log_growth_claim(), mean_sign_claim(1.0), lemma_4_1_part_2(0.1), PLANTED.get("planted/softmax/scale"),
              PLANTED.get("planted/certify/strict-true")]
    records = [run(c, "quick", seed=0) for c in claims]
    assert [r["verdict"] for r in records] == ["HOLDS", "HOLDS", "HOLDS", "REFUTED", "CERTIFIED"]
    out = report.write(tmp_path, records, {"profile": "quick", "seed": 0})
    for r in records[:3]:  # claims with a scaling path get a figure
        assert (out / "figures" / (r["id"].replace("/", "_") + ".png")).stat().st_size > 1000
    md = (out / "summary.md").read_text()
    html = (out / "summary.html").read_text()
    for r in records:
        assert r["id"] in md and r["id"] in html
    assert "Counterexample:" in md and "holds from n = 1000" in md
    doc = json.loads((out / "results.json").read_text())
    assert [c["id"] for c in doc["claims"]] == sorted(r["id"] for r in records)
    lines = report.table(records)
    assert lines[-1].startswith("verdicts: HOLDS 3, CERTIFIED 1, REFUTED 1")
