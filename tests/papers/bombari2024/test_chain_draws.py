"""bombari2024 Theorem 2 along n and L, certified side (depth-trend-certified): models.chain_draws against the
bound of explicit weights (word_sensitivity.rf_upper of the rotated draw), the walk against the sum it stands for,
the cosine law against uniform directions, and the whole sampler's law against rf_draws' independent draws. Each
has a planted error the test tells apart."""
import math

import numpy as np
import pytest
import torch
from scipy.stats import chi2, ks_2samp, kstest

from attncheck import stats
from attncheck.papers.bombari2024.data.token_matrices import tokens
from attncheck.papers.bombari2024.models import chain_draws as cd
from attncheck.papers.bombari2024.models import random_features as rf
from attncheck.papers.bombari2024.models import word_sensitivity as ws
from attncheck.papers.bombari2024.models.draws import drf_upper_draws, rf_draws
from attncheck.papers.bombari2024.strategies.token_matrices import TokenCase, WSCase

F64 = torch.float64


def _reflection(a, u):
    """The Householder reflection H with H a = u (a, u unit vectors): orthogonal, so a Haar-invariant law is
    unchanged by it."""
    v = (a - u)[:, None]
    return torch.eye(len(a), dtype=F64) - 2 * (v @ v.T) / float(v.T @ v)


def _walk_by_sum(lengths, U):
    """(cosines of u_t with the partial sum before it, ||sum_t l_t u_t||) from explicit unit rows U."""
    P, cos = lengths[0] * U[0], []
    for t in range(1, len(lengths)):
        cos.append(float(U[t] @ P / P.norm()))
        P = P + lengths[t] * U[t]
    return torch.tensor(cos, dtype=F64), P.norm()


def test_walk_norm_is_the_norm_of_the_sum():
    """The walk over the cosines gives ||sum_t l_t u_t|| of the directions they come from; a planted error (the
    cross term's factor 2 dropped) is told apart."""
    rng = np.random.default_rng(0)
    lengths = torch.as_tensor(rng.uniform(0.2, 2.0, 9))
    U = cd.uniform(rng, (9, 5))
    cos, ref = _walk_by_sum(lengths, U)
    assert torch.allclose(cd.walk_norm(lengths, cos), ref, rtol=1e-12)
    r2 = lengths[0] ** 2
    for t in range(1, 9):  # planted
        r2 = r2 + lengths[t] ** 2 + torch.sqrt(r2) * lengths[t] * cos[t - 1]
    assert not torch.allclose(torch.sqrt(r2), ref, rtol=1e-3)


@pytest.mark.parametrize("k", [4, 16])
def test_cosine_law_is_that_of_a_uniform_direction(k):
    """The walk's cosine, read off first_layer_norm of two unit lengths (r^2 = 2 + 2c), against the first
    coordinate of uniform directions on S^(k-1) (KS, 20000 each); a planted error (2 Beta(k/2, k/2) - 1) is told
    apart at k = 4."""
    rng = np.random.default_rng(k)
    ref = cd.uniform(rng, (20000, k))[:, 0].numpy()
    c = (cd.first_layer_norm(torch.ones((1, 2), dtype=F64), k, rng, 20000)[0] ** 2 / 2 - 1).numpy()
    assert ks_2samp(c, ref).pvalue > 1e-3
    if k == 4:
        assert ks_2samp(2 * rng.beta(k / 2, k / 2, 20000) - 1, ref).pvalue < 1e-6


def test_first_layer_norm_has_the_law_of_v_flat_x(monkeypatch):
    """||V_1 flat(X)||^2 / beta ~ chi^2_k (V_1 Gaussian, ||flat X||^2 = D): first_layer_norm from the lengths of
    4000 draws of the blocks, 5 walks each, pooled (KS against the chi^2_k law, one walk per draw, and all
    pooled); a planted error (the u_i taken orthogonal: cosines 0) is told apart."""
    n, d, k, beta = 8, 2, 16, 2.0
    rng = np.random.default_rng(2)
    X = torch.as_tensor(tokens("gaussian", n, d, rng))
    A = torch.as_tensor(rng.standard_normal((4000, n, k, d))) * math.sqrt(beta / (n * d))
    lengths = torch.einsum("cnkd,nd->cnk", A, X).norm(dim=-1)
    r = cd.first_layer_norm(lengths, k, rng, 5)
    assert kstest((r[:, 0] ** 2 / beta).numpy(), chi2(k).cdf).pvalue > 1e-3
    assert kstest((r[:, 3] ** 2 / beta).numpy(), chi2(k).cdf).pvalue > 1e-3
    monkeypatch.setattr(cd, "walk_norm", lambda lengths, cos: lengths.norm(dim=-1))
    r = cd.first_layer_norm(lengths, k, rng, 1)
    assert kstest((r[:, 0] ** 2 / beta).numpy(), chi2(k).cdf).pvalue < 1e-6


@pytest.mark.parametrize("act", ["relu", "gelu", "softplus"])
def test_each_pair_is_rf_upper_of_a_rotated_draw(act):
    """chain * sqrt(d) / phi_norm, with V_1 flat(X) = sum_i l_i u_i and the layers' inputs rotated onto w_l, equals
    rf_upper over every token of explicit weights: each block reflected so that V_1,i x_i = l_i u_i, each layer
    reflected so that V_l h = ||h|| V_l w_l. A planted error (the layers' ||h|| left out) is told apart."""
    n, d, k, L = 5, 3, 7, 3
    rng = np.random.default_rng(1)
    X = torch.as_tensor(tokens("gaussian", n, d, rng))
    beta = rf.he_beta(act)
    A = torch.as_tensor(rng.standard_normal((1, n, k, d))) * math.sqrt(beta / (n * d))
    Vs = [torch.as_tensor(rng.standard_normal((1, k, k))) * math.sqrt(beta / k) for _ in range(L - 1)]
    U, W = cd.uniform(rng, (n, k)), cd.uniform(rng, (L - 1, k))
    Ax = torch.einsum("nkd,nd->nk", A[0], X)
    lengths = Ax.norm(dim=-1)
    z = (lengths[:, None] * U).sum(0)
    new = cd.chain(A, Vs, act) * math.sqrt(d) / cd.phi_norm(z[None, None], [w[None, None] for w in W], Vs, act)

    A2 = torch.stack([_reflection(Ax[i] / lengths[i], U[i]) @ A[0, i] for i in range(n)])
    f, V2 = rf.ACTIVATIONS[act].torch_fn, []
    h = f(torch.einsum("nkd,nd->k", A2, X))
    for V, w in zip(Vs, W, strict=True):
        V2.append(V[0] @ _reflection(h / h.norm(), w))
        h = f(V2[-1] @ h)
    blocks = rf.RFBlocks(torch.einsum("nkd,nd->k", A2, X), A2, tuple(range(n)))
    base = float(ws.rf_perturbation(blocks, [[0]], act, V2)[1].norm())
    ref = ws.rf_upper(blocks, [[i] for i in range(n)], act, base, V2).max()
    assert torch.allclose(new.flatten(), ref.reshape(1), rtol=1e-11)

    g = rf.ACTIVATIONS[act].torch_fn(z)  # planted: the layer input w_l without ||h_(l-1)||
    for V, w in zip(Vs, W, strict=True):
        g = rf.ACTIVATIONS[act].torch_fn(V[0] @ w)
    assert not torch.allclose(cd.chain(A, Vs, act) * math.sqrt(d) / g.norm(), ref.reshape(1), rtol=1e-3)


def _unscaled_phi_norm(z, ws_, Vs, act):
    """Planted error: cd.phi_norm with each layer's input w_l left without ||h_(l-1)||."""
    f = rf.ACTIVATIONS[act].torch_fn
    h = f(z)
    for V, w in zip(Vs, ws_, strict=True):
        h = f(torch.matmul(w, V.transpose(-1, -2)))
    return h.norm(dim=-1)


def _old(case, count):
    return np.array([b.upper for b in rf_draws(case, range(10**6, 10**6 + count), depth=case.depth, lower=False,
                                               upper=True)])


@pytest.mark.parametrize("act", ["relu", "gelu"])
def test_pairs_have_rf_draws_law(act, monkeypatch):
    """The bound of one pair per chain (the first, and the sixth of eight: independent across chains) against
    rf_draws' independent draws of the dense weights (KS, 1500 each, n = 8, d = 2, k = 16, L = 3); a planted error
    (the layers' inputs w_l without ||h_(l-1)||) is told apart."""
    case = WSCase(TokenCase("gaussian", 8, 2, 0, 0.0), act, 1.0, 3)
    X = torch.as_tensor(case.tokens.X)
    beta = rf.he_beta(act)
    old = _old(case, 1500)

    def new(bases, column):
        return cd.drf_upper_pairs(X, case.k, act, 3, beta, np.random.default_rng(7), 1500, bases).reshape(
            1500, bases)[:, column].numpy()

    assert ks_2samp(new(1, 0), old).pvalue > 1e-3
    assert ks_2samp(new(8, 5), old).pvalue > 1e-3
    monkeypatch.setattr(cd, "phi_norm", _unscaled_phi_norm)
    assert ks_2samp(new(1, 0), old).pvalue < 1e-6


def test_vanished_features_are_infinite_draws_below_the_median():
    """relu with k = 4, L = 3: phi_L(X) = 0 in about 18% of the draws; their bound is +inf, and the median (the
    engine's stats.quantile) is that of the finite draws ranked below them."""
    case = WSCase(TokenCase("gaussian", 8, 8, 0, 0.0), "relu", 1 / 16, 3)
    assert case.k == 4
    U = drf_upper_draws(case, [3, 4, 5])
    assert not np.isnan(U).any() and 0.05 < np.mean(np.isposinf(U)) < 0.4
    finite = np.sort(U[np.isfinite(U)])
    h = (U.size - 1) / 2
    lo, hi = finite[math.floor(h)], finite[math.ceil(h)]
    assert stats.quantile(U, 0.5) == pytest.approx(lo + (h - math.floor(h)) * (hi - lo), rel=1e-14)

