"""The Appendix D witnesses (attncheck.papers.bombari2024.models.raf_witness) against direct computations."""
import itertools
import math

import numpy as np
import torch

from attncheck.papers.bombari2024.data.token_matrices import tokens
from attncheck.papers.bombari2024.models import raf_witness as rw
from attncheck.papers.bombari2024.models import random_features as rf


def _X(n, d, seed=0, family="gaussian"):
    return tokens(family, n, d, np.random.default_rng(seed))


def test_spaces_and_d2_pair_obey_d19_and_d26():
    X = _X(5, 12)
    U, V = rw.row_space(X), rw.orth_v(X, np.random.default_rng(11), 7)
    assert U.shape == (12, 5) and np.allclose(U.T @ U, np.eye(5)) and np.allclose(X @ V.T, 0, atol=1e-10)
    assert np.allclose(np.linalg.norm(V, axis=1), math.sqrt(12)) and np.linalg.matrix_rank(V) == 7
    rng = np.random.default_rng(3)
    delta = rw.d1_delta(X, rng)
    assert np.linalg.norm(delta) <= math.sqrt(12) * (1 + 1e-12)
    d1, d2 = rw.d2_pair(X, delta, rng)
    assert abs(np.linalg.norm(d1 - d2) - math.sqrt(12)) < 1e-9
    assert np.allclose(X @ d1, X @ delta / 2) and np.allclose(X @ d2, X @ delta / 2)  # (D.26)


def test_d2_pair_needs_rank_below_d():
    X = _X(6, 6, family="orthogonal")
    try:
        rw.d2_pair(X, np.zeros(6), np.random.default_rng(0))
    except ValueError:
        return
    raise AssertionError("full-rank X must have no v orthogonal to its rows")


def test_d3_best_is_the_best_candidate_by_brute_force():
    X = _X(6, 10, seed=1)
    W = np.random.default_rng(2).standard_normal((10, 10)) / math.sqrt(10)
    frac = 2
    pair = rw.d3_best(X, W, np.random.default_rng(5), frac, draws=4, vs=3)
    assert all(abs(np.linalg.norm(D) - math.sqrt(10)) < 1e-9 for D in pair)
    # the same candidates, rebuilt and scored directly with sigma (D.27)
    rng = np.random.default_rng(5)
    A, V = rw.d1_candidates(X, rng, 4), rw.orth_v(X, rng, 3)

    def q(a, v):
        Ds = [W.T @ (a / 2 + s * v / 2) for s in (1, -1)]
        Ds = [D * math.sqrt(10) / np.linalg.norm(D) for D in Ds]
        return np.sort(np.minimum(*(rw.sigma(X, W, D) for D in Ds)))[::-1][frac - 1]

    best = max(q(a, v) for a, v in itertools.product(A, V))
    got = np.sort(np.minimum(rw.sigma(X, W, pair[0]), rw.sigma(X, W, pair[1])))[::-1][frac - 1]
    assert abs(got - best) < 1e-9


def test_rows_to_e_i_and_feature_change_match_the_dense_map():
    X = _X(4, 6, seed=4)
    W = np.random.default_rng(0).standard_normal((6, 6)) / math.sqrt(6)
    Delta = np.random.default_rng(1).standard_normal(6)
    Xp = X.copy()
    Xp[2] += Delta
    s = torch.softmax(torch.as_tensor(Xp @ W @ Xp.T / math.sqrt(6)), dim=-1).numpy()
    assert np.allclose(rw.RAFDraw(X, W).rows_to_e_i(2, Delta), np.linalg.norm(s - np.eye(4)[2], axis=1))
    dense = np.linalg.norm(s @ Xp - rf.raf_features(torch.as_tensor(X), torch.as_tensor(W)).numpy())
    assert abs(rw.RAFDraw(X, W).feature_change(2, Delta) - dense) < 1e-10


def test_aligned_pair_equalises_sigma_on_frac_rows():
    for family in ("gaussian", "antipodal", "collinear", "repeated"):
        X = _X(8, 24, seed=2, family=family)
        W = np.random.default_rng(3).standard_normal((24, 24)) / math.sqrt(24)
        pair = rw.aligned_pair(X @ W, np.random.default_rng(4), rw.rows_along(X @ W, 3))
        assert all(abs(np.linalg.norm(D) - math.sqrt(24)) < 1e-9 for D in pair)
        assert abs(np.linalg.norm(pair[0] - pair[1]) - math.sqrt(48)) < 1e-9
        s1, s2 = rw.sigma(X, W, pair[0]), rw.sigma(X, W, pair[1])
        assert np.allclose(s1, s2, atol=1e-9)  # h is orthogonal to every a_j
        top = np.sort(s1)[::-1][:3]
        assert top.min() > 0 and np.allclose(top, top[0], rtol=1e-9)  # equal on J


def test_aligned_pair_beats_the_proof_pair_at_large_d():
    """sigma ~ sqrt(d / (2 frac)) on frac rows, above the best of the proof's candidates; the softmax rows concentrate (D.40)."""
    X = _X(20, 512, seed=5)
    W = np.random.default_rng(6).standard_normal((512, 512)) / math.sqrt(512)
    frac = 5
    q = lambda Ds: np.sort(np.minimum(*(rw.sigma(X, W, D) for D in Ds)))[::-1][frac - 1]  # noqa: E731
    rng = np.random.default_rng(7)
    proof = rw.d3_best(X, W, rng, frac)
    along, toward = (rw.aligned_pair(X @ W, rng, J) for J in (rw.rows_along(X @ W, frac), rw.rows_toward(X, X @ W, 0, frac)))
    assert q(along) > 1.3 * q(proof) and q(toward) > 1.3 * q(proof)
    r = lambda Ds: np.sort(np.maximum(*(rw.RAFDraw(X, W).rows_to_e_i(0, D) for D in Ds)))[frac - 1]  # noqa: E731
    assert r(toward) < r(along) < r(proof)
    assert 0 not in rw.rows_toward(X, X @ W, 0, frac)


def test_top_direction_pair_concentrates_low_rank_attention():
    """Low-rank X: the equal-sigma pairs degrade (a_J nearly dependent), the top singular direction does not."""
    X = tokens("low-rank", 60, 2048, np.random.default_rng(1507), 0.28)
    W = np.random.default_rng(6).standard_normal((2048, 2048)) / math.sqrt(2048)
    XW, rng, frac = X @ W, np.random.default_rng(0), 15
    top = rw.pair_along(XW, rng, rw.top_direction(XW, frac))
    assert abs(np.linalg.norm(top[0] - top[1]) - math.sqrt(2 * 2048)) < 1e-9
    draw = rw.RAFDraw(X, W, XW=XW)
    r = lambda Ds: np.sort(np.maximum(*(draw.rows_to_e_i(29, D) for D in Ds)))[frac - 1]  # noqa: E731
    assert r(top) < 0.5 * r(rw.aligned_pair(XW, rng, rw.rows_along(XW, frac)))
