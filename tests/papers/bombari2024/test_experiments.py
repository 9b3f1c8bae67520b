"""Smoke tests of the bombari2024 reproductions (tiny sizes)."""
import numpy as np
import torch

from attncheck.papers.bombari2024.experiments import generalization as g4
from attncheck.papers.bombari2024.experiments import ws as e


def test_rf_point_is_a_bracket_and_attention_points_are_positive():
    gen, rng = torch.Generator().manual_seed(0), np.random.default_rng(0)
    lo, up = e.rf_point(8, 4, 1, gen, rng, torch.device("cpu"))
    assert 0 < lo <= up
    lo, up = e.rf_point(8, 4, 2, gen, rng, torch.device("cpu"))
    assert 0 < lo <= up
    assert e.attention_point(6, 8, "softmax", gen, rng, torch.device("cpu")) > 0
    assert e.attention_point(6, 8, "relu", gen, rng, torch.device("cpu")) >= 0


def test_figure_4_trial_rows():
    gen, rng = torch.Generator().manual_seed(1), np.random.default_rng(1)
    for model in ("rf", "raf", "relu_raf"):
        rows = g4.trial(model, 6, 4, [5, 10], gen, rng, torch.device("cpu"))
        assert {r["mode"] for r in rows} == {"fine-tuned", "re-trained"} and len(rows) == 8
        assert {r["N"] for r in rows} == {5, 10} and all(r["gamma"] >= 0 and r["err"] >= 0 for r in rows)


def test_figure_4_features_match_the_dense_maps():
    """The batched features of every sample and the one-token perturbation of the test sample are the dense maps."""
    from attncheck.papers.bombari2024.data.token_matrices import iid_samples
    from attncheck.papers.bombari2024.models import random_features as rf

    n, d = 4, 3
    Xs = torch.as_tensor(iid_samples("gaussian", 5, n, d, np.random.default_rng(0)))
    delta = torch.randn(2, 3, 1, d, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
    for model, kind in (("raf", "softmax"), ("relu_raf", "relu")):
        F, pert = g4.features(model, Xs, torch.Generator().manual_seed(1))
        att = rf.raf(rf.gaussian((d, d), 1.0 / d, torch.Generator().manual_seed(1)), kind)
        assert torch.allclose(F, att(Xs).flatten(-2), atol=1e-12)
        Xp = Xs[-1].expand(2, 3, n, d).clone()
        Xp[:, :, 0] += delta[:, :, 0]
        assert torch.allclose(pert(delta), att(Xp).flatten(-2), atol=1e-12)
    F, pert = g4.features("rf", Xs, torch.Generator().manual_seed(1))
    smp = rf.rf_samples(Xs, 0, n * d, torch.Generator().manual_seed(1))  # the same draws
    assert torch.allclose(F, torch.relu(smp.Z), atol=1e-12)
    assert torch.allclose(pert(delta), torch.relu(smp.Z[-1] + delta[:, :, 0] @ smp.A.T), atol=1e-12)


def _ws_res(rf_exp=-0.5, raf_level=2.0, relu_scale=0.5):
    """Figures 2-3 results shaped like bombari2024_ws.run: S_RF ~ n^rf_exp, S_RAF ~ raf_level, ReLU-RAF falling."""
    st = lambda v: {"mean": v, "std": 0.0, "values": [v]}  # noqa: E731
    ns = [10, 25, 50, 100]
    return {"rf": [{"d": d, "n": n, "lower": st(n ** rf_exp), "upper": st(2 * n ** rf_exp)} for d in (8, 16) for n in ns],
            "drf": [{"L": L, "d": 4, "n": n, "lower": st(L * n ** rf_exp), "upper": st(9.0)} for L in (2, 4) for n in ns],
            "raf": [{"d": d, "n": n, "lower": st(raf_level)} for d in (8, 16) for n in ns],
            "relu_raf": [{"d": d, "n": n, "lower": st(relu_scale * n ** -0.3)} for d in (8, 16) for n in ns],
            "beyond": {"rf": [{"n": 500, "d": 8, "lower": 500 ** rf_exp, "upper": 1.0}],
                       "raf": [{"n": 500, "d": 16, "lower": raf_level}]}}


def test_figures_2_3_agreement_against_planted_results():
    assert e.agreement(_ws_res())["agreement"] == "agrees"
    res = _ws_res()
    res["raf"][-1]["lower"]["mean"] = 0.9  # RAF below 1 at one point of d = 16
    out = e.agreement(res)
    assert out["agreement"] == "partly" and any("RAF d=16: does not agree" in x for x in out["details"])
    res = _ws_res(rf_exp=0.3, raf_level=0.5, relu_scale=5.0)  # RF rising, RAF small, ReLU-RAF above RAF
    res["relu_raf"] = [dict(r, lower={"mean": r["n"] ** 0.2, "std": 0, "values": []}) for r in res["relu_raf"]]
    assert e.agreement(res)["agreement"] == "disagrees"


def _fig4_rows(rf_gap=0.0, raf_err=0.1):
    """Figure 4 rows: RF at its bound (minus rf_gap), RAF circles at small gamma with error raf_err, ReLU-RAF
    circles below the bound with large error, crosses with gamma near 2."""
    rows = []
    for model, n in (("rf", 40), ("raf", 40), ("relu_raf", 120)):
        for mode in g4.MODES:
            for gamma in (0.1, 0.4, 0.8):
                b = (2 - gamma) ** 2
                err = {"rf": max(0.0, b - rf_gap), "raf": raf_err, "relu_raf": b / 4}[model]
                rows.append({"model": model, "n": n, "N": 100, "mode": mode, "search": g4.SEARCHES[0],
                             "gamma": gamma, "err": err, "bound": b})
                rows.append({"model": model, "n": n, "N": 100, "mode": mode, "search": g4.SEARCHES[1],
                             "gamma": 1.9, "err": 0.01, "bound": 0.01})
    return {"panels": ["rf n=40", "raf n=40", "relu_raf n=120"], "rows": rows}


def test_figure_4_agreement_against_planted_results():
    assert g4.agreement(_fig4_rows())["agreement"] == "agrees"
    out = g4.agreement(_fig4_rows(rf_gap=2.0))  # RF clearly below (2 - gamma)^2
    assert out["agreement"] == "partly" and any(x.startswith("rf n=40, fine-tuned: does not agree") for x in out["details"])
    res = _fig4_rows(rf_gap=2.0, raf_err=4.0)  # and RAF never reaches a small error below the bound
    for r in res["rows"]:
        if r["model"] == "relu_raf":
            r["err"] = 0.0  # ReLU-RAF reaches 0 at small gamma
    assert g4.agreement(res)["agreement"] == "disagrees"
