"""The W-free Lemma D.3 sampler (attncheck.papers.bombari2024.models.raf_reduced) against the W-based one
(raf_witness.candidate_pairs): the coordinates reproduce the d-dimensional products on one W, and the implied
constants of every candidate pair have the same law (two-sample Kolmogorov-Smirnov)."""
import math

import numpy as np
from scipy import linalg, stats

from attncheck.papers.bombari2024.data.token_matrices import FAMILIES, tokens
from attncheck.papers.bombari2024.models import raf_reduced as rr
from attncheck.papers.bombari2024.models import raf_witness as rw
from attncheck.papers.bombari2024.readings import fraction
from attncheck.papers.bombari2024.strategies.token_matrices import TokenCase


def test_lq_factor_has_the_law_of_the_gaussian_lq_factor():
    rng = np.random.default_rng(0)
    for rows, k in ((3, 5), (5, 3)):  # square Bartlett and trapezoidal (k < rows)
        got = np.array([(lambda L: L @ L.T)(rr.lq_factor(rng, rows, k)) for _ in range(3000)])
        ref = np.array([(lambda G: G @ G.T)(rng.standard_normal((rows, k))) for _ in range(3000)])
        assert rr.lq_factor(rng, rows, k).shape == (rows, min(rows, k))
        for a, b in ((0, 0), (rows - 1, rows - 1), (rows - 1, 0), (1, 2)):  # Wishart entries
            assert stats.ks_2samp(got[:, a, b], ref[:, a, b]).pvalue > 1e-3, (rows, k, a, b)


def test_row_coords_are_the_rows_in_an_orthonormal_basis_of_their_span():
    """row_coords (QR, then the SVD of R) against X U_r with U_r of raf_witness.row_space (the SVD of X^T): the same
    rank, the same Gram matrix X X^T, and orthogonal coordinate axes; the rank-deficient families included."""
    for family in FAMILIES:
        for n, d in ((5, 23), (33, 512), (60, 2048)):
            X = tokens(family, n, d, np.random.default_rng(n), 0.5)
            A, B = rr.row_coords(X), X @ rw.row_space(X)
            assert A.shape == B.shape, (family, n, d)
            assert np.allclose(A @ A.T, X @ X.T, atol=1e-12 * n * d) and np.allclose(A @ A.T, B @ B.T, atol=1e-12 * n * d)
            G = A.T @ A
            assert np.allclose(G, np.diag(np.diag(G)), atol=1e-12 * n * d), (family, n, d)


def test_case_coords_are_row_coords_of_the_case_and_shared_across_an_ignored_knob():
    """case_coords (kept per token matrix) is row_coords of the case's X bit for bit; cases differing only in the knob
    of a family that ignores it name one matrix (one entry), the knobbed families one per knob."""
    for family in FAMILIES:
        a, b = TokenCase(family, 6, 16, 3, 0.25), TokenCase(family, 6, 16, 3, 0.75)
        assert np.array_equal(rr.case_coords(a), rr.row_coords(a.X)), family
        assert np.array_equal(rr.case_coords(b), rr.row_coords(b.X)), family
        assert (rr.case_coords(a) is rr.case_coords(b)) == np.array_equal(a.X, b.X), family
        assert not rr.case_coords(a).flags.writeable


def test_case_pairs_are_candidate_pairs_bit_for_bit_at_every_i():
    """case_pairs keeps the i-free part of a draw per (token matrix, seed); the pairs at i, then at other i (from the
    kept part) and again at i, are candidate_pairs' drawn afresh, bit for bit."""
    tc = TokenCase("gaussian", 9, 64, 5, 0.5)
    for i in (0, 4, 8, 0):
        X, W, pairs = rr.case_pairs(tc, i, 7)
        X2, W2, pairs2 = rr.candidate_pairs(rr.row_coords(tc.X), tc.d, i, 7)
        assert np.array_equal(X, X2) and np.array_equal(W, W2)
        assert all(np.array_equal(a, b) for p, q in zip(pairs, pairs2, strict=True) for a, b in zip(p, q, strict=True))


def test_coordinates_reproduce_the_d_dimensional_products_on_one_W():
    """The construction of the module docstring, on a given W: B = Q^T W Q, C = Q^T W Q_perp = L O^T; then X W X^T,
    X W (X W)^T and sigma(W^T delta) (D.27), (D.31) for delta in S equal the d-dimensional ones."""
    n, d, b = 5, 23, 3
    rng = np.random.default_rng(1)
    X, W = tokens("gaussian", n, d, rng), rng.standard_normal((d, d)) / math.sqrt(d)
    V = rw.orth_v(X, rng, b)
    Q = linalg.orth(np.concatenate([X, V]).T)  # d x m, the span S
    m = Q.shape[1]
    Qp = linalg.null_space(Q.T)
    Ot, R = np.linalg.qr((Q.T @ W @ Qp).T)  # C^T = O R, C = R^T O^T
    Wc = np.zeros((2 * m + 1, 2 * m + 1))
    Wc[:m, :m], Wc[:m, m:2 * m] = Q.T @ W @ Q, R.T
    Xc = np.zeros((n, 2 * m + 1))
    Xc[:, :m] = X @ Q
    assert np.allclose(Xc @ Wc @ Xc.T, X @ W @ X.T) and np.allclose((Xc @ Wc) @ (Xc @ Wc).T, (X @ W) @ (X @ W).T)
    delta = X[0] + V[1]
    Delta, Dc = W.T @ delta, Wc.T @ np.append(Q.T @ delta, np.zeros(m + 1))
    assert np.isclose(np.linalg.norm(Dc), np.linalg.norm(Delta))
    assert np.allclose(rw.sigma(Xc, Wc, Dc, d), rw.sigma(X, W, Delta))


def _constants(X, W, pairs, d):
    """Per pair: sqrt(d) / ||Delta*_1 - Delta*_2|| and log^2 d / q (the two terms of lemma-d.3/main)."""
    out = []
    for Deltas in pairs:
        sig = np.minimum(rw.sigma(X, W, Deltas[0], d), rw.sigma(X, W, Deltas[1], d))
        out += [rw.separation(Deltas, d), math.log(d) ** 2 / float(np.sort(sig)[::-1][fraction(X.shape[0]) - 1])]
    return out


class _Case:
    def __init__(self, X):
        self.X = X


def _laws_agree(family, n, d, draws=600):
    X, i = tokens(family, n, d, np.random.default_rng(3), 0.5), 1
    full = np.array([_constants(*(lambda r: (r[0], r[1], r[3]))(rw.candidate_pairs((_Case(X), i), s)), d)
                     for s in range(draws)])
    Xr = rr.row_coords(X)
    red = np.array([_constants(*rr.candidate_pairs(Xr, d, i, 10**6 + s), d) for s in range(draws)])
    return min(stats.ks_2samp(full[:, j], red[:, j]).pvalue for j in range(full.shape[1]) if np.ptp(full[:, j]) > 1e-9)


def test_reduced_pairs_have_the_law_of_the_W_based_pairs():
    """Gaussian rows with d > 2 m (every block present) and low-rank rows with d - m < m (trapezoidal C)."""
    for family, n, d in (("gaussian", 6, 30), ("low-rank", 10, 24)):
        assert _laws_agree(family, n, d) > 1e-3 / 8, family  # 8 statistics, Bonferroni
