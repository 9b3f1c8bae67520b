"""bombari2024 models against independent computations: structured vs dense, autograd witnesses
re-evaluated densely, GLM formulas vs numpy's pseudo-inverse, mpmath vs float64."""
import math

import mpmath
import numpy as np
import pytest
import torch

from attncheck import F64, MP
from attncheck.papers.bombari2024.data.token_matrices import FAMILIES, iid_samples, tokens
from attncheck.papers.bombari2024.models import glm
from attncheck.papers.bombari2024.models import random_features as rf
from attncheck.papers.bombari2024.models import word_sensitivity as ws


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
        p2, b2 = ws.dense_probe(lambda Y: rf.drf_features(Y, [V] + layers, act), X, [[0], [5]])  # noqa: B023 (called at once, inside this iteration)
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


def test_attention_perturbation_gives_the_dense_features():
    g = torch.Generator().manual_seed(6)
    n, d = 6, 4
    X = _X(n, d, 3)
    for kind in ("softmax", "relu"):
        att = rf.raf(rf.gaussian((d, d), 1 / d, g), kind)
        feats, base = ws.attention_perturbation(att, X, [2])
        delta = 2 * torch.randn(1, 3, 1, d, generator=g, dtype=torch.float64)
        for r in range(3):
            Xp = X.clone()
            Xp[2] += delta[0, r, 0]
            assert torch.allclose(feats(delta)[0, r], att(Xp), rtol=1e-12, atol=1e-12)
        assert torch.allclose(base, att(X))


def test_rf_samples_have_the_exact_law_of_V():
    """Z[s] = V_0 x_{s,0} + h_s with the k rows of h i.i.d. N(0, R R^T / D), independent of V_0 ~ N(0, 1/D)."""
    g = torch.Generator().manual_seed(8)
    S, n, d, k = 3, 4, 2, 200_000
    Xs = torch.as_tensor(iid_samples("gaussian", S, n, d, np.random.default_rng(2)))
    smp = rf.rf_samples(Xs, 1, k, g, scale2=2.0)
    h = smp.Z - Xs[:, 1] @ smp.A.T  # (S, k)
    R = torch.cat([Xs[:, :1], Xs[:, 2:]], dim=1).reshape(S, -1)
    assert torch.allclose(h @ h.T / k, 2.0 * R @ R.T / (n * d), atol=0.02)
    assert abs(smp.A.var().item() - 2.0 / (n * d)) < 0.002
    assert abs(float((h @ smp.A).abs().max()) / k) < 0.01  # h independent of V_0
    # the perturbation of token 1 moves only V_1 Delta, as with a dense V
    V = rf.gaussian((5, n * d), 1 / (n * d), g)
    ref = rf.rf_samples_from_V(Xs, V, 1)
    Xp = Xs[-1].clone()
    delta = torch.randn(d, generator=g, dtype=torch.float64)
    Xp[1] += delta
    assert torch.allclose(ref.Z[-1] + ref.A @ delta, rf.flat(Xp) @ V.T, atol=1e-12)


def test_rf_samples_handle_a_singular_gram():
    g = torch.Generator().manual_seed(9)
    X = torch.as_tensor(tokens("gaussian", 3, 2, np.random.default_rng(0)))
    smp = rf.rf_samples(torch.stack([X, X]), 0, 50, g)  # two identical samples: R R^T of rank 1
    assert torch.allclose(smp.Z[0], smp.Z[1], atol=1e-10)


def test_kernel_fit_matches_the_least_squares_glm():
    rng = np.random.default_rng(3)
    N, p = 6, 15
    Phi, phi, Y = rng.standard_normal((N, p)), rng.standard_normal(p), rng.choice([-1.0, 1.0], N)
    Pr = np.vstack([Phi, phi])
    T = torch.as_tensor
    fit = glm.kernel_fit(T(Phi), T(phi), T(Y), -1.0, T(Pr @ Pr.T))
    ts = glm.theta_star(Phi, Y, np.zeros(p), F64)
    assert np.allclose(fit.theta_star.numpy(), ts, atol=1e-12)
    assert np.allclose(fit.theta_f.numpy(), glm.theta_f(ts, phi, -1.0, F64), atol=1e-12)
    assert np.allclose(fit.theta_r.numpy(), glm.theta_r(Phi, phi, Y, -1.0, np.zeros(p), F64), atol=1e-12)
    assert np.allclose(fit.p.numpy(), glm.project_out(Phi, phi, F64), atol=1e-12)


def test_op_norm_is_a_tight_upper_bound():
    g = torch.Generator().manual_seed(5)
    for shape in ((2, 300, 7), (7, 300), (40, 40)):
        A = torch.randn(shape, generator=g, dtype=torch.float64)
        s = torch.linalg.matrix_norm(A, 2)
        b = ws.op_norm(A)
        assert torch.all(b >= s) and torch.all(b <= s * (1 + 1e-9))


def test_bidiagonal_sigma_max_is_the_svd():
    rng = np.random.default_rng(0)
    for p in (1, 2, 7, 40):
        a, b = rng.standard_normal(p), rng.standard_normal(p - 1)
        B = np.diag(a) + np.diag(b, 1)
        assert abs(rf.bidiagonal_sigma_max(a, b) - np.linalg.svd(B, compute_uv=False)[0]) < 1e-12 * (1 + abs(a).max())


@pytest.mark.parametrize("k, D", [(30, 12), (12, 30), (20, 20)])
def test_gaussian_op_norms_have_the_law_of_the_dense_svd(k, D):
    """Two-sample Kolmogorov-Smirnov test against SVDs of dense Gaussian matrices (fixed seeds); a planted
    wrong law (the op norm of a (k + 4) x D matrix) is told apart."""
    from scipy.stats import ks_2samp

    rng = np.random.default_rng(1)
    dense = np.array([np.linalg.norm(rng.standard_normal((k, D)) / math.sqrt(D), 2) for _ in range(3000)])
    exact = rf.gaussian_op_norms(k, D, 1.0 / D, np.random.default_rng(2), 3000)
    assert ks_2samp(dense, exact).pvalue > 1e-3
    wrong = rf.gaussian_op_norms(k + 4, D, 1.0 / D, np.random.default_rng(3), 3000)
    assert ks_2samp(dense, wrong).pvalue < 1e-6


def test_drf_norm_draws_have_the_law_of_the_dense_forward_pass():
    """Two-sample KS test against dense DRF forward passes (fixed seeds); a planted wrong law (the norms scaled by
    1 / sqrt 2) is told apart."""
    from scipy.stats import ks_2samp

    n, d, k, L, beta = 3, 4, 24, 3, rf.he_beta("relu")
    X = _X(n, d)
    g = torch.Generator().manual_seed(0)
    dense = []
    for _ in range(2000):
        Vs = [rf.gaussian((k, n * d), beta / (n * d), g)] + [rf.gaussian((k, k), beta / k, g) for _ in range(L - 1)]
        dense.append(float(rf.drf_features(X, Vs, "relu").norm()))
    exact = rf.drf_norm_draws("relu", k, L, beta, torch.Generator().manual_seed(1), 2000).numpy()
    assert ks_2samp(dense, exact).pvalue > 1e-3
    wrong = rf.drf_norm_draws("relu", k, L, beta, torch.Generator().manual_seed(2), 2000).numpy() / math.sqrt(2)
    assert ks_2samp(dense, wrong).pvalue < 1e-6


def test_feature_cases_have_full_row_rank():
    """The Section 6 strategy is valid by construction: Phi_r of full row rank in every family (the ReLU-like
    family once repeated all-floor rows, a singular K_r, seed 3)."""
    from attncheck.papers.bombari2024.strategies.glm import FeatureCase

    for seed in range(200):
        for family in ("gaussian", "relu", "ill"):
            Phi, phi, *_ = FeatureCase(N=3, p=4, family=family, eps=0.1, seed=seed, theta0="zero", near=0.0).arrays()
            s = np.linalg.svd(np.vstack([Phi, phi]), compute_uv=False)
            assert s[-1] > 1e-9 * s[0]


@pytest.mark.parametrize("kind, scale", [("softmax", 1.0), ("softmax", 8.0), ("relu", 1.0), ("relu", -6.0)])
def test_attention_probe_inner_products_equal_the_features_distance(kind, scale):
    """The probe's expanded squared norms against ||features - base||^2, also with nearly one-hot softmax rows and
    ReLU rows whose scores are all negative (zero rows, den = 0)."""
    g = torch.Generator().manual_seed(7)
    n, d = 40, 12
    X = _X(n, d, 8)
    att = rf.raf(scale * rf.gaussian((d, d), 1 / d, g), kind)
    feats, base = ws.attention_perturbation(att, X, [0, 17, 39])
    probe, _ = ws.attention_probe(att, X, [0, 17, 39])
    delta = math.sqrt(d) * torch.randn(3, 5, 1, d, generator=g, dtype=torch.float64)
    direct = ((feats(delta) - base) ** 2).sum((-1, -2))
    assert torch.allclose(probe(delta), direct, rtol=1e-9, atol=1e-9 * float((base ** 2).sum()))


def test_gap_search_feasibility_from_the_objective_is_the_recomputed_one():
    """gap_search takes gamma(Delta) < 2 of each iterate from the objective's evaluation; the ascent with gamma
    recomputed for the feasibility test reaches the same gaps and witnesses, bit for bit."""
    from attncheck.papers.bombari2024.models import context_modification as cm

    rng = np.random.default_rng(3)
    n, d, k, N = 6, 4, 48, 3
    X = torch.as_tensor(tokens("gaussian", n, d, rng), dtype=torch.float64)
    Xtr, Y = iid_samples("gaussian", N, n, d, rng), rng.choice([-1.0, 1.0], N)
    V = torch.as_tensor(rng.standard_normal((k, n * d)) / math.sqrt(n * d))
    for mode, act in (("f", "relu"), ("r", "tanh")):
        task = cm.rf_task(X, Xtr, Y, 1.0, V, act)
        got = cm.gap_search(task, [0, n - 1], mode, torch.Generator().manual_seed(5), 4, 30)
        theta = torch.as_tensor({"f": task.theta_f, "r": task.theta_r}[mode])
        feats, ts = cm._perturbed_features(task, [0, n - 1]), torch.as_tensor(task.theta_star)

        def parts(delta, feats=feats, ts=ts, theta=theta, task=task):
            ph = feats(delta)
            return (ph @ ts - task.f_star).abs(), (ph @ theta + task.y) ** 2

        def objective(delta, parts=parts):
            gamma, err = parts(delta)
            return torch.where(gamma < 2, (2 - gamma) ** 2 - err, -gamma)

        best, wit = ws.maximize(objective, 2, 1, d, torch.Generator().manual_seed(5), 4, 30,
                                feasible=lambda dl, parts=parts: parts(dl)[0] < 2)
        assert np.array_equal(got.gap, best.numpy()) and torch.equal(got.delta, wit), mode


def test_n_train_follows_the_case_exponent():
    """N = max(2, ceil(k^a)) (Theorems 4-5): the draw's training set has n_train(k, case.n_exp) samples, and
    ws_case draws a in the given interval with both ends."""
    from hypothesis import find

    from attncheck.papers.bombari2024.models.draws import n_train, rf_task_draw
    from attncheck.papers.bombari2024.strategies.token_matrices import TokenCase, WSCase, ws_case

    assert [n_train(4096, a) for a in (1 / 3, 1 / 2, 3 / 4)] == [16, 64, 512]
    assert n_train(2, 1 / 3) == 2 and n_train(27, 1 / 3) == 3
    case = WSCase(TokenCase("gaussian", 4, 2, 0, 0.0), "relu", 2.0, 1, 1, 0.5)  # k = 16
    assert rf_task_draw(case, 3, iid_x=True)[0].Phi.shape == (4, 16)
    for end in (1 / 3, 1 / 2):
        assert find(ws_case(4, (2,), ("relu",), n_exps=(1 / 3, 1 / 2)), lambda c, e=end: c.n_exp == e).n_exp == end
    assert find(ws_case(4, (2,), ("relu",), n_exps=(1 / 3, 1 / 2)), lambda c: 1 / 3 < c.n_exp < 1 / 2)
    assert find(ws_case(4, (2,), ("relu",)), lambda c: True).n_exp == 1 / 3


def test_a_case_repr_names_n_exp_only_where_drawn():
    """A case's repr seeds its Monte Carlo draws (engine.checks.case_rng): at a = 1/3 (every claim that does not
    draw a) it is the repr the case had before n_exp existed, and a drawn a is named, so two a give two streams."""
    from attncheck.engine.checks import case_rng
    from attncheck.papers.bombari2024.strategies.token_matrices import TokenCase, WSCase

    tc = TokenCase("gaussian", 4, 16, 0, 0.0)
    assert repr(WSCase(tc, "relu", 0.25, 2, 1)) == (
        "WSCase(tokens=TokenCase('gaussian', n=4, d=16, seed=0, param=0.0), act='relu', rho=0.25, depth=2, m=1)")
    half = WSCase(tc, "relu", 0.25, 2, 1, 0.5)
    assert repr(half).endswith(", m=1, n_exp=0.5)")
    assert case_rng(0, "x/y/z", half).integers(2**62) != case_rng(0, "x/y/z", WSCase(tc, "relu", 0.25, 2, 1)).integers(2**62)
