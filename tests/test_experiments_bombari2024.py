"""Smoke tests of the bombari2024 reproductions (tiny sizes)."""
import numpy as np
import torch

from attncheck.experiments import bombari2024_generalization as g4
from attncheck.experiments import bombari2024_ws as e


def test_rf_point_is_a_bracket_and_attention_points_are_positive():
    gen, rng = torch.Generator().manual_seed(0), np.random.default_rng(0)
    lo, up = e.rf_point(8, 4, 1, gen, rng, torch.device("cpu"))
    assert 0 < lo <= up
    lo, up = e.rf_point(8, 4, 2, gen, rng, torch.device("cpu"))
    assert 0 < lo <= up
    assert e.attention_point(6, 8, "softmax", gen, rng, torch.device("cpu")) > 0
    assert e.attention_point(6, 8, "relu", gen, rng, torch.device("cpu")) >= 0


def test_figure_4_simulation_rows_follow_theorem_4_for_rf():
    gen, rng = torch.Generator().manual_seed(1), np.random.default_rng(1)
    rows = g4.simulation("rf", 6, 4, 10, gen, rng, torch.device("cpu"))
    assert {r["mode"] for r in rows} == {"fine-tuned", "re-trained"} and len(rows) == 4
    assert all(r["gamma"] >= 0 and r["err"] >= 0 for r in rows)
    rows = g4.simulation("raf", 6, 4, 10, gen, rng, torch.device("cpu"))
    assert len(rows) == 4
