"""goel2026 Appendix A runner: smoke test of the quick profile (figures written, numbers finite)."""
import math

import numpy as np

from attncheck.experiments import DESCRIPTIONS, RUNNERS, goel2026_training


def test_goel2026_runner_is_registered():
    assert "goel2026-a" in DESCRIPTIONS and goel2026_training.entries in RUNNERS


def test_quick_run_writes_figures_and_rates(tmp_path, monkeypatch):
    monkeypatch.setitem(goel2026_training.SETTINGS, "quick",
                        dict(goel2026_training.SETTINGS["quick"], steps=200, sweep_n=[250, 1000, 4000]))
    res = goel2026_training.run("quick", np.random.default_rng(0), lambda *a: None)
    (tmp_path / "figures").mkdir()
    paths = goel2026_training.figure(res, tmp_path)
    assert all((tmp_path / p).exists() for p in paths)
    assert res["fig2_ours"]["excess"][-1] < 0.01 * res["fig2_ours"]["excess"][0]
    assert res["geometric_rate"] is None or 0 < res["geometric_rate"] < 1
    assert math.isfinite(res["exponent_init_excess"]["slope"])
    assert goel2026_training.notes(res)


def test_big_problem_rescales_M_to_the_trace():
    b = {"d": 8, "k": 9, "trace_X": 1.0}
    p = goel2026_training.big_problem(np.random.default_rng(1), b)
    assert abs(np.linalg.svd(p.X, compute_uv=False).sum() - 1.0) < 1e-12


def test_big_run_is_finite_and_reported():
    b = {"d": 8, "k": 8, "n": 2000, "batch": 64, "steps": 100, "trace_X": 1.0, "eta": 1.0}
    res = goel2026_training._big(b, np.random.default_rng(2), lambda *a: None)
    assert all(math.isfinite(v) for v in res["excess"]) and res["t"][-1] == 100
