"""goel2026 Appendix A runner: smoke test of the quick profile (figures written, numbers finite)."""
import math

import numpy as np

from attncheck.papers.goel2026.experiments import training as goel2026_training
from attncheck.run.experiments import all_runners, descriptions


def test_goel2026_runner_is_registered():
    assert "goel2026-a" in descriptions() and goel2026_training.entries in all_runners()


def test_quick_run_writes_figures_and_rates(tmp_path, monkeypatch):
    monkeypatch.setitem(goel2026_training.SETTINGS, "quick",
                        dict(goel2026_training.SETTINGS["quick"], steps=200, sweep_n=[250, 1000, 4000]))
    res = goel2026_training.run("quick", np.random.default_rng(0), lambda *a: None)
    (tmp_path / "figures").mkdir()
    paths = goel2026_training.figure(res, tmp_path)
    assert all((tmp_path / p).exists() for p in paths)
    assert res["fig2_ours"]["excess"][-1] < 0.01 * res["fig2_ours"]["excess"][0]
    assert res["geometric_rate"] is None or 0 < res["geometric_rate"] < 1
    assert goel2026_training.agreement(res)["agreement"] in ("agrees", "partly", "disagrees")
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


def _result(**over):
    """An agreeing Appendix A result: spectral start near the floor, SGD far above, Algorithm 1 from the
    random start geometric then at the floor, floor ~ 1/n."""
    t = list(range(0, 2001, 10))
    ours2 = [max(100 * 0.97 ** s, 1e-3) for s in t]
    res = {"fig1_ours": {"t": t, "excess": [1e-3] * len(t)}, "fig1_sgd": {"t": t, "excess": [100 / (1 + s) for s in t]},
           "fig2_ours": {"t": t, "excess": ours2}, "fig2_sgd": {"t": t, "excess": [100 / (1 + s) for s in t]},
           "exponent_init_excess": {"slope": -1.0, "ci95": [-1.2, -0.8]},
           "exponent_final_excess": {"slope": -0.5, "ci95": [-0.9, -0.1]},
           "geometric_fit": goel2026_training.geometric_fit(t, ours2, 1e-3)}
    res.update(over)
    return res


def test_agreement_reads_the_appendix_a_figures():
    v = goel2026_training.agreement(_result())
    assert v["agreement"] == "agrees", v["details"]
    assert len(v["details"]) == len(goel2026_training.READINGS) + 1


def test_agreement_sees_planted_disagreements():
    flat_floor = {"slope": -0.1, "ci95": [-0.3, 0.1]}
    v = goel2026_training.agreement(_result(exponent_init_excess=flat_floor))
    assert v["agreement"] == "partly" and any("floor ~ 1/n: read as" in d and "does not agree" in d for d in v["details"])
    t = list(range(0, 2001, 10))
    sgd_wins = {"t": t, "excess": [1e-4] * len(t)}
    v = goel2026_training.agreement(_result(fig1_sgd=sgd_wins))
    assert v["agreement"] == "partly"
    worse = {"t": t, "excess": [100.0] * len(t)}
    v = goel2026_training.agreement(_result(fig1_ours=worse, fig2_ours=worse, fig2_sgd=sgd_wins,
                                            exponent_init_excess=flat_floor, geometric_fit=None))
    assert v["agreement"] == "disagrees"
