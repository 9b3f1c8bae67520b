"""Paths over (beta, n): each growth law of d judged along n on its own (attncheck.engine.series)."""
import pytest
from planted_power import POWER

from attncheck.core.paths import grid
from attncheck.engine.series import series_key, split
from attncheck.report.labels import verdict_label
from attncheck.run.session import run_claim as run


def test_grid_orders_by_series_then_n():
    pts = grid("beta", [0.5, 1.0], lambda b: [10, 100] if b < 1 else [10])
    assert pts == [{"beta": 0.5, "n": 10}, {"beta": 0.5, "n": 100}, {"beta": 1.0, "n": 10}]
    assert [k for k, _ in split(pts)] == [(("beta", 0.5),), (("beta", 1.0),)]
    assert series_key(10) == () and series_key((10, 2)) == ()
    with pytest.raises(ValueError):
        grid("beta", [1.0], [100, 10])


def test_beta_series_false_is_refuted_at_its_flat_series():
    rec = run(POWER.get("power/beta-series/false"), "quick", seed=0)
    assert rec["verdict"] == "REFUTED"
    rows = {r["series"]["beta"]: r for r in rec["evidence"]["series"]}
    assert rows[0.05]["verdict"] == "REFUTED" and rows[1.0]["verdict"] == "HOLDS"
    assert rec["evidence"]["counterexample"]["point"]["beta"] == 0.05


def test_beta_series_twin_holds_with_where_each_series_holds():
    rec = run(POWER.get("power/beta-series/twin"), "quick", seed=0)
    assert rec["verdict"] == "HOLDS"
    rows = {r["series"]["beta"]: r for r in rec["evidence"]["series"]}
    assert all(r["verdict"] == "HOLDS" for r in rows.values())
    assert rows[0.05]["holds_from"] == {"beta": 0.05, "n": 10**40}  # n^0.05 reaches 100 at 10^40
    assert rows[0.5]["holds_from"] == {"beta": 0.5, "n": 10**4}
    assert rows[1.0]["holds_from"]["n"] == 100
    label = verdict_label(rec)
    assert label.startswith("HOLDS") and "beta = 0.05: n >= 1e+40" in label


def test_key_evidence_of_a_series_path_is_where_each_series_holds():
    from attncheck.report.labels import key_evidence
    rec = run(POWER.get("power/beta-series/twin"), "quick", seed=0)
    assert "worst pass rate 1 " in key_evidence(rec)  # the failing points below each holds_from are left out
