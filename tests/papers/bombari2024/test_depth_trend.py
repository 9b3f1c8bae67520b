"""bombari2024 Theorem 2 along n (depth-trend, depth-trend-certified, certified-bracket): the Jacobian behind the
linearised ascent start against autograd, the linear-start witness against the dense map, the draws per seed, and
the declared space of the cases. Each has a planted error the test tells apart."""
import math

import numpy as np
import pytest
import torch
from scipy.stats import ks_2samp

from attncheck.papers.bombari2024.data.token_matrices import tokens
from attncheck.papers.bombari2024.models import random_features as rf
from attncheck.papers.bombari2024.models import word_sensitivity as ws
from attncheck.papers.bombari2024.models.draws import K_REF, rf_draws, seeds_by_k
from attncheck.papers.bombari2024.readings import generator
from attncheck.papers.bombari2024.strategies.token_matrices import D_RANKS, KNOBS, TokenCase, WSCase, ws_space


def _X(n, d, seed=0, family="gaussian"):
    return torch.as_tensor(tokens(family, n, d, np.random.default_rng(seed)))


def _draws(n, d, k, depth, act, seeds, tokens_=(0, 2)):
    X = _X(n, d)
    beta = rf.he_beta(act)
    gens = [torch.Generator().manual_seed(s) for s in seeds]
    draws = [ws._rf_draw(X, k, ws.groups_of(tokens_), g, depth, beta, True) for g in gens]
    return X, draws


def _autograd_jacobian(draw, group, act):
    """d phi_L(z + A_i Delta) / d Delta at 0, by torch.autograd.functional.jacobian of the dense layers."""
    f = rf.ACTIVATIONS[act].torch_fn
    A = draw.blocks.A[draw.gidx[group][0]]

    def features(delta):
        h = f(draw.blocks.z + A @ delta)
        for V in draw.Vs:
            h = f(V @ h)
        return h

    return torch.autograd.functional.jacobian(features, torch.zeros(A.shape[1], dtype=torch.float64))


@pytest.mark.parametrize("act", ["relu", "gelu", "softplus"])
def test_rf_jacobians_match_autograd(act):
    """The forward-mode Jacobian of every group of every draw equals autograd's on the dense layers; a planted
    error (the derivative of the first layer dropped) is told apart."""
    X, draws = _draws(6, 3, 20, 3, act, [1, 2])
    J = ws.rf_jacobians(draws, act)
    assert J.shape == (4, 20, 3)
    for s, dr in enumerate(draws):
        for t in range(2):
            ref = _autograd_jacobian(dr, t, act)
            assert torch.allclose(J[2 * s + t], ref, rtol=1e-10, atol=1e-12)
    # planted: phi'(z) of the first layer left out
    dr = draws[0]
    f = rf.ACTIVATIONS[act].torch_fn
    P = dr.blocks.A[dr.gidx[0][0]]
    h = f(dr.blocks.z)
    for V in dr.Vs:
        pre = V @ h
        P = ws._derivative(act, pre)[:, None] * (V @ P)
        h = f(pre)
    assert not torch.allclose(P, _autograd_jacobian(dr, 0, act), rtol=1e-3, atol=1e-6)


def test_linear_starts_maximise_the_linearised_change():
    """+- sqrt(d) v is on the sphere and attains ||J||_op sqrt(d) (the max of ||J Delta|| over the ball), which a
    random direction does not; the probe at a small multiple of it matches the linearisation."""
    X, draws = _draws(8, 4, 40, 2, "gelu", [3])
    J = ws.rf_jacobians(draws, "gelu")
    st = ws.linear_starts(draws, "gelu")
    d = 4
    assert st.shape == (2, 2, 1, d)
    assert torch.allclose(st.norm(dim=-1), torch.full((2, 2, 1), math.sqrt(d), dtype=torch.float64))
    gain = torch.einsum("gkd,grd->grk", J, st[:, :, 0]).norm(dim=-1)
    top = torch.linalg.matrix_norm(J, 2) * math.sqrt(d)
    assert torch.allclose(gain, top[:, None].expand_as(gain), rtol=1e-10)
    rand = torch.randn(2, 1, d, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
    rand = rand / rand.norm(dim=-1, keepdim=True) * math.sqrt(d)
    assert torch.all(torch.einsum("gkd,grd->grk", J, rand).norm(dim=-1)[:, 0] < top * (1 - 1e-6))
    probe, _ = ws.stacked_rf_probe(draws, "gelu")
    eps = 1e-6
    with torch.no_grad():
        lin = probe(eps * st) / eps ** 2
    assert torch.allclose(lin, gain ** 2, rtol=1e-4)


def test_linear_start_witness_is_reproduced_densely_and_close_to_the_ascent():
    """rf_brackets(linear=True): every per-group value is the dense map's ratio at a feasible Delta (re-found by
    the maximiser with the same starts), never above the certified bound, and within a few percent of the
    4-restart, 40-step random ascent on the same draws at n = 32."""
    n, d, k, L, act = 32, 4, 64, 4, "gelu"
    X = _X(n, d)
    beta = rf.he_beta(act)
    groups = [ws.groups_of([0, 5, 17, 31])] * 3
    lin = ws.rf_brackets(X, k, act, groups, [torch.Generator().manual_seed(s) for s in (1, 2, 3)], depth=L,
                         beta=beta, steps=10, lr=0.25, upper=True, linear=True)
    old = ws.rf_brackets(X, k, act, groups, [torch.Generator().manual_seed(s) for s in (1, 2, 3)], depth=L,
                         beta=beta, restarts=4, steps=40, upper=True)
    for a, b in zip(lin, old, strict=True):
        assert a.lower <= a.upper and a.base_norm == b.base_norm
        assert 0.95 * b.lower <= a.lower <= 1.05 * b.lower
    # the witness: rebuild the draw and re-evaluate the maximiser's Delta on the dense layers
    g = torch.Generator().manual_seed(1)
    dr = ws._rf_draw(X, k, groups[0], g, L, beta, True)
    probe, bases = ws.stacked_rf_probe([dr], act)
    top, delta = ws.maximize(probe, 4, 1, d, None, steps=10, lr=0.25, starts=ws.linear_starts([dr], act))
    assert torch.all(delta.norm(dim=-1) <= math.sqrt(d) * (1 + 1e-12))
    V1 = torch.zeros(k, n * d, dtype=torch.float64)
    for i in range(n):
        V1[:, i * d:(i + 1) * d] = dr.blocks.A[i]
    f = rf.ACTIVATIONS[act].torch_fn

    def dense(Y):
        h = f(V1 @ Y.reshape(-1))
        for V in dr.Vs:
            h = f(V @ h)
        return h

    # z of the blocks is sum_i A_i x_i exactly (every token's block drawn)
    assert torch.allclose(dense(X), ws.rf_perturbation(dr.blocks, dr.gidx, act, dr.Vs)[1], rtol=1e-12)
    for t, i in enumerate([0, 5, 17, 31]):
        Y = X.clone()
        Y[i] += delta[t, 0]
        ratio = float((dense(Y) - dense(X)).norm()) / bases[0]
        assert abs(ratio - math.sqrt(float(top[t])) / bases[0]) < 1e-10
    assert abs(float((torch.sqrt(top) / bases[0]).max()) - lin[0].lower) < 1e-12


def test_seeds_by_k():
    """max(1, K_REF // k) distinct draws per seed, the seeds themselves at k >= K_REF, reproducible; a planted
    error (one sub-seed repeated) is caught by the distinctness check."""
    assert seeds_by_k(K_REF, [5, 7]) == [5, 7] and seeds_by_k(4 * K_REF, [5]) == [5]
    s = seeds_by_k(16, [5, 7, 9])
    assert len(s) == 3 * (K_REF // 16) and len(set(s)) == len(s) and all(0 <= x < 2**62 for x in s)
    assert s == seeds_by_k(16, [5, 7, 9]) and seeds_by_k(16, [5]) == s[:K_REF // 16]
    planted = s[:-1] + s[:1]
    assert len(set(planted)) < len(planted)


def test_draws_per_seed_keep_the_law_of_one_draw():
    """The ratios of the sub-seeds of seeds_by_k have the law of draws from independent seeds (two-sample KS),
    and a planted wrong law (the bound scaled by 1.5) is told apart."""
    case = WSCase(TokenCase("gaussian", 16, 4, 0, 0.0), "relu", 0.25, 2)  # k = 16: K_REF // 16 draws per seed
    seeds = range(384 // (K_REF // case.k))
    sub = [b.upper for b in rf_draws(case, seeds_by_k(case.k, seeds), depth=2, lower=False, upper=True)]
    plain = [b.upper for b in rf_draws(case, range(10**6, 10**6 + 384), depth=2, lower=False, upper=True)]
    assert len(sub) == 384
    assert ks_2samp(sub, plain).pvalue > 1e-3
    assert ks_2samp(np.array(sub) * 1.5, plain).pvalue < 1e-6


def test_the_law_of_a_draw_does_not_depend_on_the_family():
    """The reading behind KNOB_UNCHECKED: the ratio's law depends on X only through its row norms, so every
    Assumption-1 family gives the same law (two-sample KS between families); a planted X with rows of norm
    2 sqrt(d) (outside Assumption 1) gives another."""
    n, d, k, L, act = 8, 8, 16, 2, "gelu"
    beta = rf.he_beta(act)

    def uppers(X, first):
        out = []
        for s in range(first, first + 400):
            (b,) = ws.rf_brackets(torch.as_tensor(X), k, act, [ws.groups_of([0])], [generator(s)], depth=L,
                                  beta=beta, lower=False, upper=True)
            out.append(b.upper)
        return np.array(out)

    ref = uppers(tokens("gaussian", n, d, np.random.default_rng(0)), 0)
    for fam, knob in (("collinear", 1.0), ("repeated", 0.0), ("low-rank", 0.5)):
        assert ks_2samp(ref, uppers(tokens(fam, n, d, np.random.default_rng(1), knob), 10**5)).pvalue > 1e-3
    X = 2.0 * tokens("gaussian", n, d, np.random.default_rng(2))
    assert ks_2samp(ref, uppers(X, 2 * 10**5)).pvalue < 1e-6


def test_ws_space_names_the_cases_of_ws_case():
    """Every value of the space builds a case of ws_case's domain at each path n (d among the admissible ds,
    orthogonal rows only with n <= d); one value names a case at every n; the corners cover every activation and
    rho at the first depth listed."""
    for n in (8, 16, 32, 64, 128, 256):
        ds = [d for d in (1, 2, 4, 8, 16) if 64 <= n * d <= 256]  # the claims' rf_ds(n, 256)
        sp = ws_space(n, ds, ("relu", "gelu", "softplus"), (0.25, 1.0, 2.0), depths=(3, 2, 1))
        for fam in sp.params["family"].values:
            for r in D_RANKS:
                for knob in KNOBS:
                    c = sp.case({"family": fam, "seed": 7, "knob": knob, "d_rank": r, "depth": 3, "act": "gelu",
                                 "rho": 0.25})
                    assert c.d in ds and (fam != "orthogonal" or n <= c.d) and c.tokens.X.shape == (n, c.d)
        assert ("orthogonal" in sp.params["family"].values) == (n <= max(ds))
        assert sp.case({"family": "gaussian", "seed": 0, "knob": 0.0, "d_rank": 0, "depth": 3, "act": "gelu",
                        "rho": 0.25}).d == min(ds)
        corners = sp.corners(8)
        assert {c["depth"] for c in corners} == {3}
        assert {(c["act"], c["rho"]) for c in corners} >= {(a, r) for a in ("relu", "gelu") for r in (0.25, 1.0, 2.0)}
