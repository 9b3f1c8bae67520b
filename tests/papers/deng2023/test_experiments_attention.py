"""Smoke tests of attncheck.papers.deng2023.experiments.attention (deng2023 Section 7.2, Figures 4 and 5)."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from attncheck.papers.deng2023.experiments import attention as exp

TINY = [exp.Point(), exp.Point(n=205, d=12, m=15, a0=0.8, a1=0.1, c=0.5), exp.Point(n=256, d=4, m=3, a1=3.0)]


def test_parameters_follow_section_7_2():
    assert exp.m_of(200) == 15 and exp.m_of(1000) == 15 and exp.m_of(10**6) == math.ceil(math.log(1e8))
    assert exp.tau_of(200, 0.8) == pytest.approx(0.9 * math.sqrt(math.log(200)))
    grids = exp.sweeps(deep=True)
    assert {k: len(v) for k, v in grids.items()} == {"n": 81, "d": 6, "m": 80, "c": 81, "a0": 80, "a1": 81}
    assert [x for x, _ in grids["d"]] == [4, 6, 10, 18, 34, 66]
    assert grids["c"][0][0] == 0.5 and grids["c"][-1][0] == 0.9 and grids["a0"][-1][0] == 0.8
    assert grids["a1"][0][0] == 0.1 and grids["a1"][-1][0] == pytest.approx(2.98)
    assert all(p.b == 0.2 and p.a0 == 0.01 for _, p in grids["c"])
    assert all(len(exp.sweeps(deep=False)[k]) < len(v) for k, v in grids.items() if k != "d")


@pytest.mark.parametrize("X", ["identity", "ones"])
@pytest.mark.parametrize("point", TINY, ids=repr)
def test_events_shape(point, X):
    out = exp.events(point, X, 7, np.random.default_rng(0))
    assert out.shape == (4, 7) and out.dtype == bool


def test_softmax_fires_on_d1_with_many_columns():
    out = exp.events(exp.Point(m=80), "identity", 50, np.random.default_rng(1))
    assert out[0].mean() >= 0.9


def test_run_figure_notes_on_a_tiny_grid(monkeypatch, tmp_path):
    monkeypatch.setattr(exp, "sweeps", lambda deep: {k: [(i, p) for i, p in enumerate(TINY)] for k in exp.PANELS})
    res = exp.run("quick", np.random.default_rng(0), progress=lambda _: None)
    json.dumps(res)
    for name in exp.FIGURES:
        for key in exp.PANELS:
            rows = res[name]["panels"][key]
            assert len(rows) == 3
            for r in rows:
                assert 0 <= r["ratio"] <= 1 and r["trials"] == res["trials"] == 20
                assert r["ci95"][0] <= r["ratio"] <= r["ci95"][1]
                assert all(r["successes"] <= v <= r["trials"] for v in r["events"].values())
    paths = exp.figure(res, tmp_path)
    assert paths == ["figures/deng2023_figure4.png", "figures/deng2023_figure5.png"]
    assert all((tmp_path / p).stat().st_size > 0 for p in paths)
    notes = exp.notes(res)
    assert notes and all(isinstance(n, str) for n in notes)
    assert any("a0 up to 0.8" in n for n in notes) and any("(d-2) does not divide n" in n for n in notes)


def test_zero_rate_estimate_matches_simulation_and_grows_with_d():
    """The finite-d estimate of Pr[F_lin(D0) = 0] (X = I_d) against 2000 simulated networks, d = 6, 12, 34."""
    rng = np.random.default_rng(3)
    for d in (6, 12, 34):
        p = exp.Point(n=256 if d != 12 else 240, d=d, m=15)
        measured = exp.events(p, "identity", 2000, rng)[3].mean()
        assert abs(measured - exp.zero_rate_estimate(p)) < 0.05
    assert exp.zero_rate_estimate(exp.Point(d=4)) < exp.zero_rate_estimate(exp.Point(d=22)) < 0.9
    assert exp.zero_rate_estimate(exp.Point(d=66)) > 0.99
    assert math.isclose(exp.zero_rate_estimate(exp.Point(d=12, m=1)), 1 - 56 / 2048)  # 1/2 Pr[Bin(10) >= 8]


def test_finding_names_the_failing_events():
    monkeyed = {name: {"panels": {"d": [exp._row(4, exp.Point(n=256, d=4), np.ones((4, 5), dtype=bool))]}}
                for name in exp.FIGURES}
    lines = exp.finding(monkeyed)
    assert len(lines) == 3 and "d = 4: 1.00 (estimate 0.13)" in lines[0] and lines[2].startswith("Finding:")
