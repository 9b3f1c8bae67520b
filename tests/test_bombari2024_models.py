"""bombari2024 models against independent computations: structured vs dense, autograd witnesses
re-evaluated densely, GLM formulas vs numpy's pseudo-inverse, mpmath vs float64."""
import math

import mpmath
import numpy as np
import pytest
import torch

from attncheck import F64, MP
from attncheck.data.token_matrices import FAMILIES, iid_samples, tokens
from attncheck.models import glm
from attncheck.models import random_features as rf
from attncheck.models import word_sensitivity as ws


def _X(n, d, seed=0, family="gaussian"):
    return torch.as_tensor(tokens(family, n, d, np.random.default_rng(seed)))


@pytest.mark.parametrize("family", FAMILIES)
def test_token_families_satisfy_assumption_1(family):
    X = tokens(family, 5, 6, np.random.default_rng(1), 0.4)
    assert np.allclose(np.linalg.norm(X, axis=1), math.sqrt(6))
    S = iid_samples("hypercube", 3, 4, 5, np.random.default_rng(0))
    assert np.allclose(np.linalg.norm(S, axis=-1), math.sqrt(5))


def test_he_beta_relu_is_two_and_solves_4_3():
    assert abs(rf.he_beta("relu") - 2.0) < 1e-12
    for act in ("gelu", "softplus"):
        beta = rf.he_beta(act)
        # independent check: Gauss-Hermite quadrature in float64
        t, w = np.polynomial.hermite_e.hermegauss(200)
        f = {"gelu": lambda x: x * 0.5 * (1 + np.vectorize(math.erf)(x / math.sqrt(2))),
             "softplus": lambda x: np.log1p(np.exp(x))}[act]
        assert abs(np.sum(w * f(math.sqrt(beta) * t) ** 2) / math.sqrt(2 * math.pi) - 1) < 1e-9
    with pytest.raises(rf.NoHeSolution):
        rf.he_beta("tanh")


def test_gelu_lipschitz_constant_is_the_max_slope():
    x = np.linspace(-6, 6, 200001)
    slope = np.gradient(x * 0.5 * (1 + np.vectorize(math.erf)(x / math.sqrt(2))), x)
    assert abs(np.abs(slope).max() - rf.GELU_LIPSCHITZ) < 1e-6


@pytest.mark.parametrize("act", list(rf.ACTIVATIONS))
def test_rf_and_drf_probes_match_the_dense_maps(act):
    g = torch.Generator().manual_seed(0)
    n, d, k = 6, 4, 30
    X = _X(n, d)
    V = rf.gaussian((k, n * d), 1 / (n * d), g)
    Vs = [rf.gaussian((k, k), 2 / k, g)]
    blocks = rf.rf_blocks_from_V(X, V, [0, 3, 5])
    delta = torch.randn(2, 3, 1, d, generator=g, dtype=torch.float64)
    for layers in ([], Vs):
        p1, b1 = ws.rf_probe(blocks, [[0], [2]], act, layers)
        p2, b2 = ws.dense_probe(lambda Y: rf.drf_features(Y, [V] + layers, act), X, [[0], [5]])
        assert torch.allclose(p1(delta), p2(delta), rtol=1e-12, atol=1e-12) and abs(b1 - b2) < 1e-12
    p1, _ = ws.rf_probe(blocks, [[0, 1, 2]], act)
    p2, _ = ws.dense_probe(lambda Y: rf.rf_features(Y, V, act), X, [[0, 3, 5]])
    delta = torch.randn(1, 2, 3, d, generator=g, dtype=torch.float64)
    assert torch.allclose(p1(delta), p2(delta), rtol=1e-12, atol=1e-12)


def test_rf_blocks_have_the_exact_law_of_V():
    g = torch.Generator().manual_seed(3)
    X = _X(5, 3, 2)
    b = rf.rf_blocks(X, [1, 2], 200_000, g, scale2=2.0)
    rest = b.z - torch.einsum("tkd,td->k", b.A, X[[1, 2]])
    assert abs(b.z.var().item() - 2.0) < 0.03 and abs(rest.var().item() - 2.0 * 3 / 5) < 0.02
    assert abs(b.A.var().item() - 2.0 / 15) < 0.002


@pytest.mark.parametrize("kind", ["softmax", "relu", "qkv"])
def test_attention_probe_matches_the_dense_map(kind):
    g = torch.Generator().manual_seed(1)
    n, d = 7, 4
    X = _X(n, d, 5)
    if kind == "qkv":
        WQ, WK, WV = (rf.gaussian((5, d), 1 / d, g) for _ in range(3))
        att = rf.qkv(WQ, WK, WV)
        assert torch.allclose(att(X), rf.qkv_features(X, WQ, WK, WV))
    else:
        W = rf.gaussian((d, d), 1 / d, g)
        att = rf.raf(W, kind)
        dense = rf.raf_features if kind == "softmax" else rf.relu_raf_features
        assert torch.allclose(att(X), dense(X, W))
    p1, b1 = ws.attention_probe(att, X, [0, 3, 6])
    p2, b2 = ws.dense_probe(att, X, [[0], [3], [6]])
    delta = 3 * torch.randn(3, 2, 1, d, generator=g, dtype=torch.float64)
    assert torch.allclose(p1(delta), p2(delta), rtol=1e-10, atol=1e-10) and abs(b1 - b2) < 1e-12


def test_ascent_witness_is_feasible_and_reproduced_densely():
    g = torch.Generator().manual_seed(2)
    n, d = 6, 5
    X = _X(n, d)
    W = rf.gaussian((d, d), 1 / d, g)
    att = rf.raf(W)
    p1, b1 = ws.attention_probe(att, X, [0, 4])
    est = ws.ascend(p1, b1, 2, 1, d, g, restarts=3, steps=60)
    assert torch.all(est.delta.norm(dim=-1) <= math.sqrt(d) * (1 + 1e-12))
    p2, b2 = ws.dense_probe(att, X, [[0], [4]])
    assert torch.allclose(ws.ratio_at(p2, b2, est.delta[:, None])[:, 0], est.ratio, rtol=1e-10)


def test_rf_certified_upper_bound_brackets_the_ascent():
    g = torch.Generator().manual_seed(4)
    n, d, k = 8, 4, 32
    X = _X(n, d)
    V = rf.gaussian((k, n * d), 1 / (n * d), g)
    blocks = rf.rf_blocks_from_V(X, V, range(n))
    probe, base = ws.rf_probe(blocks, ws.groups_of(range(n)), "relu")
    est = ws.ascend(probe, base, n, 1, d, g, restarts=4, steps=80)
    up = ws.rf_upper(blocks, ws.groups_of(range(n)), "relu", base)
    assert torch.all(est.ratio <= up)
    # Lemma B.1 with the full ||V||_op is weaker than the block bound
    assert up.max() <= torch.linalg.matrix_norm(V, 2) * math.sqrt(d) / base * (1 + 1e-9)


def test_glm_formulas_match_numpy_pinv_and_mpmath():
    rng = np.random.default_rng(0)
    N, p = 5, 9
    Phi, phi, phi2 = rng.standard_normal((N, p)), rng.standard_normal(p), rng.standard_normal(p)
    Y, theta0 = rng.choice([-1.0, 1.0], N), rng.standard_normal(p)
    ts = glm.theta_star(Phi, Y, theta0, F64)
    assert np.allclose(ts, theta0 + np.linalg.pinv(Phi) @ (Y - Phi @ theta0))
    Pr = np.vstack([Phi, phi])
    tr = glm.theta_r(Phi, phi, Y, 1.0, theta0, F64)
    assert np.allclose(tr, theta0 + np.linalg.pinv(Pr) @ (np.append(Y, 1.0) - Pr @ theta0))
    P = np.eye(p) - np.linalg.pinv(Phi) @ Phi
    assert np.isclose(glm.alignment(Phi, phi, phi2, F64), phi2 @ P @ phi / (phi @ P @ phi))
    with mpmath.workdps(40):
        xp = MP(40)
        tm = glm.theta_star(xp.asarray(Phi), xp.asarray(Y), xp.asarray(theta0), xp)
        assert np.allclose(xp.to_float(tm), ts, rtol=1e-12)
