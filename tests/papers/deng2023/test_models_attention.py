"""Tests of attncheck.papers.deng2023.models.attention, attncheck.papers.deng2023.models.class_attention.rows and
attncheck.papers.deng2023.data.attention (Deng et al. 2023, Appendices A, C, D.1, F.1)."""

from __future__ import annotations

import itertools
import math
import tracemalloc

import mpmath
import numpy as np
import pytest

from attncheck.papers.deng2023.data.attention import (
    CrossAttentionParams,
    SelfAttentionParams,
    cross_attention_dataset,
    self_attention_dataset,
)
from attncheck.papers.deng2023.models import attention as dense
from attncheck.papers.deng2023.models.class_attention import rows as structured

RTOL = 1e-10


def rademacher(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    return rng.choice([-1.0, 1.0], size=shape)


def random_problem(seed: int, n: int, d: int, scale: float = 1.0):
    rng = np.random.default_rng(seed)
    A1, A2, A3 = (rng.standard_normal((n, d)) * scale for _ in range(3))
    X, V = rng.standard_normal((d, d)), rng.standard_normal((d, d))
    return A1, A2, A3, X, V


# --------------------------------------------------------------------- Fact A.1, Claims C.3, C.5


@pytest.mark.parametrize("seed, n, d", [(0, 1, 1), (1, 3, 2), (2, 4, 3), (3, 5, 4), (4, 2, 5)])
def test_fact_a1_tensor_trick_row_major(seed, n, d):
    A1, A2, _, X, _ = random_problem(seed, n, d)
    lhs = dense.vec(np.exp(A1 @ X @ A2.T))
    rhs = np.exp(dense.tensor_A(A1, A2) @ dense.vec(X))
    np.testing.assert_allclose(lhs, rhs, rtol=RTOL)


def test_fact_a1_fails_for_column_major_vec():
    A1, A2, _, X, _ = random_problem(5, 4, 3)
    kron_times_vec = dense.tensor_A(A1, A2) @ X.ravel(order="F")
    assert not np.allclose(kron_times_vec, (A1 @ X @ A2.T).ravel(order="F"))
    np.testing.assert_allclose(kron_times_vec, (A2 @ X @ A1.T).ravel(order="F"), rtol=RTOL)


def test_tensor_block_j0_is_row_j0_of_scores():
    A1, A2, _, X, _ = random_problem(6, 4, 3)
    A, n = dense.tensor_A(A1, A2), 4
    for j0 in range(n):
        block = A[j0 * n:(j0 + 1) * n]
        np.testing.assert_allclose(block @ dense.vec(X), A1[j0] @ X @ A2.T, rtol=RTOL)


TENSOR_VS_MATRIX = [
    ("u_lin", False), ("alpha_lin", False), ("f_lin", False), ("c_lin", True),
    ("log_u_exp", False), ("u_exp", False), ("log_alpha_exp", False), ("alpha_exp", False),
    ("log_f_exp", False), ("f_exp", False), ("c_exp", True),
]


@pytest.mark.parametrize("name, needs_values", TENSOR_VS_MATRIX)
@pytest.mark.parametrize("seed, n, d", [(10, 2, 2), (11, 4, 3), (12, 5, 4), (13, 3, 6)])
def test_claims_c3_c5_tensor_equals_matrix_form(name, needs_values, seed, n, d):
    A1, A2, A3, X, V = random_problem(seed, n, d)
    A, x = dense.tensor_A(A1, A2), dense.vec(X)
    tensor_args, matrix_args = (A, x), (A1, A2)
    if needs_values:
        tensor = getattr(dense, name)(*tensor_args, A3, V)
        matrix = getattr(dense, f"{name}_matrix")(*matrix_args, A3, X, V)
    else:
        tensor = getattr(dense, name)(*tensor_args)
        matrix = getattr(dense, f"{name}_matrix")(*matrix_args, X)
    np.testing.assert_allclose(tensor, matrix, rtol=RTOL, atol=1e-13)


def test_quantities_follow_definitions_c1_c4_entrywise():
    A1, A2, A3, X, V = random_problem(20, 4, 3)
    S = A1 @ X @ A2.T
    values = A3 @ V
    f_lin = S / S.sum(axis=1, keepdims=True)
    f_exp = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)
    for f, c in ((f_lin, dense.c_lin_matrix(A1, A2, A3, X, V)), (f_exp, dense.c_exp_matrix(A1, A2, A3, X, V))):
        expected = [[f[j0] @ values[:, i0] for i0 in range(3)] for j0 in range(4)]
        np.testing.assert_allclose(c, expected, rtol=RTOL)
    np.testing.assert_allclose(dense.alpha_lin_matrix(A1, A2, X), S.sum(axis=1), rtol=RTOL)
    np.testing.assert_allclose(dense.f_lin_matrix(A1, A2, X), f_lin, rtol=RTOL)
    np.testing.assert_allclose(dense.alpha_exp_matrix(A1, A2, X), np.exp(S).sum(axis=1), rtol=RTOL)
    np.testing.assert_allclose(dense.f_exp_matrix(A1, A2, X), f_exp, rtol=RTOL)


def naive_F(c: np.ndarray, y: np.ndarray, tau: float) -> float:
    total = sum(max(float(c[j0] @ y[:, l]) - tau, 0.0) for j0 in range(c.shape[0]) for l in range(y.shape[1]))
    return max(total, 0.0)


def test_F_lin_F_exp_definitions_c2_c6_batch_and_single():
    A1, A2, A3, X, V = random_problem(21, 5, 3)
    y = rademacher(np.random.default_rng(0), (7, 3, 4))
    tau = 0.3
    for F, c_matrix in ((dense.F_lin, dense.c_lin_matrix), (dense.F_exp, dense.c_exp_matrix)):
        c = c_matrix(A1, A2, A3, X, V)
        batch = F(A1, A2, A3, X, V, y, tau)
        assert batch.shape == (7,)
        np.testing.assert_allclose(batch, [naive_F(c, yb, tau) for yb in y], rtol=RTOL)
        assert F(A1, A2, A3, X, V, y[2], tau) == pytest.approx(batch[2], rel=RTOL)
        assert isinstance(F(A1, A2, A3, X, V, y[2], tau), float)


def test_network_head_counts_equal_repeated_rows():
    rng = np.random.default_rng(1)
    c, y = rng.standard_normal((3, 4)), rademacher(rng, (5, 4, 6))
    counts = np.array([1, 4, 2])
    repeated = np.repeat(c, counts, axis=0)
    np.testing.assert_allclose(dense.network_head(c, y, 0.2, counts), dense.network_head(repeated, y, 0.2), rtol=RTOL)


# --------------------------------------------------------------------- log domain


def test_log_domain_matches_naive_where_finite():
    A1, A2, A3, X, V = random_problem(30, 6, 4, scale=2.0)
    S = A1 @ X @ A2.T
    assert np.isfinite(np.exp(S)).all()
    np.testing.assert_allclose(dense.u_exp_matrix(A1, A2, X), np.exp(S), rtol=RTOL)
    np.testing.assert_allclose(dense.log_alpha_exp_matrix(A1, A2, X), np.log(np.exp(S).sum(axis=1)), rtol=RTOL)
    naive_f = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(dense.f_exp_matrix(A1, A2, X), naive_f, rtol=RTOL)


def test_log_domain_stays_finite_where_naive_overflows():
    A1, A2, A3, X, V = random_problem(31, 6, 4, scale=40.0)
    S = A1 @ X @ A2.T
    with np.errstate(over="ignore", invalid="ignore"):
        naive = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)
    assert not np.isfinite(naive).all()
    f = dense.f_exp_matrix(A1, A2, X)
    log_f = dense.log_f_exp_matrix(A1, A2, X)
    assert (f == 0).any() and np.isfinite(log_f).all()
    np.testing.assert_allclose(np.exp(log_f), f, rtol=RTOL)
    assert np.isfinite(f).all() and np.isfinite(dense.c_exp_matrix(A1, A2, A3, X, V)).all()
    np.testing.assert_allclose(f.sum(axis=1), 1.0, rtol=1e-12)
    exact = [float(mpmath.log(mpmath.fsum(mpmath.exp(mpmath.mpf(s)) for s in row))) for row in S]
    np.testing.assert_allclose(dense.log_alpha_exp_matrix(A1, A2, X), exact, rtol=RTOL)
    with pytest.raises(OverflowError, match="use log_u_exp"):
        dense.u_exp_matrix(A1, A2, X)
    with pytest.raises(OverflowError, match="use log_alpha_exp"):
        dense.alpha_exp_matrix(A1, A2, X)


# --------------------------------------------------------------------- input validation (models)


ONES = np.ones((3, 2))


@pytest.mark.parametrize("call, message", [
    (lambda: dense.tensor_A(np.ones((3, 2)), np.ones((4, 2))), "A2 must have shape"),
    (lambda: dense.u_lin(np.ones((5, 4)), np.ones(4)), "perfect square"),
    (lambda: dense.u_lin(np.ones((4, 4)), np.ones(3)), "x must have shape"),
    (lambda: dense.u_lin_matrix(ONES, ONES, np.ones((3, 3))), "X must have shape"),
    (lambda: dense.c_lin_matrix(ONES, ONES, np.ones((4, 2)), np.eye(2), np.eye(2)), "A3 must have shape"),
    (lambda: dense.c_exp_matrix(ONES, ONES, ONES, np.eye(2), np.eye(3)), "V must have shape"),
    (lambda: dense.u_lin_matrix(np.full((3, 2), np.nan), np.ones((3, 2)), np.eye(2)), "A1 must be finite"),
    (lambda: dense.u_lin_matrix(np.ones((3, 2)) + 1j, np.ones((3, 2)), np.eye(2)), "real numeric"),
    (lambda: dense.f_lin_matrix(np.array([[1.0], [-1.0]]), np.array([[1.0], [-1.0]]), np.eye(1)), "alpha_lin vanishes"),
    (lambda: dense.network_head(np.ones((2, 3)), np.ones((4, 5)), 0.1), "y must have shape"),
    (lambda: dense.network_head(np.ones((2, 3)), np.ones(3), 0.1), r"y must have shape \(d, m\)"),
    (lambda: dense.network_head(np.ones((2, 3)), np.ones((3, 5)), np.nan), "tau must be finite"),
    (lambda: dense.network_head(np.ones((2, 3)), np.ones((3, 5)), 0.1, counts=[1, 0]), "positive integers"),
])
def test_models_reject_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# --------------------------------------------------------------------- datasets


def test_self_attention_dataset_columns_follow_definition_d1():
    n, d, a, b, c, j3 = 8, 6, 0.05, 0.3, 0.7, 5
    A1, A2, A3 = self_attention_dataset(n, d, a, b, c, j3, label=0)
    s = math.sqrt(math.log(n))
    np.testing.assert_array_equal(A1[:, 0], np.eye(n)[j3] * a * s)
    np.testing.assert_array_equal(A1[:, 1:d - 1], np.vstack([np.eye(d - 2)] * 2) * b * s)
    np.testing.assert_array_equal(A1[:, d - 1], np.full(n, c * s))
    assert A1 is not A2 and np.array_equal(A1, A2) and np.array_equal(A1, A3)


def test_cross_attention_dataset_columns_follow_definition_f1():
    n, d, a, j2, j3 = 6, 4, 2.0, 1, 4
    A1, A2, A3 = cross_attention_dataset(n, d, a, j2, j3, label=1)
    L = math.log(n)
    np.testing.assert_array_equal(A1[:, 0], np.eye(n)[j2] * a * L)
    np.testing.assert_array_equal(A1[:, 1:], np.full((n, d - 1), L))
    np.testing.assert_array_equal(A2[:, 0], np.eye(n)[j3])
    np.testing.assert_array_equal(A2[:, 1:], np.vstack([np.eye(d - 1)] * 2))
    assert np.array_equal(A2, A3)


def test_f1_column_reading_reproduces_lemma_f2_scores():
    n, a1 = 12, 1.5
    A1, A2, _ = cross_attention_dataset(n, 4, a1, 2, 7, label=1)
    exponent = dense.log_u_exp_matrix(A1, A2, np.eye(4)) / math.log(n)
    expected = np.ones((n, n))
    expected[2, 7] = 1 + a1
    np.testing.assert_allclose(exponent, expected, rtol=RTOL)


SELF_OK = dict(n=8, d=6, a=0.05, b=0.3, c=0.7, j3=0, label=0)
CROSS_OK = dict(n=6, d=4, a=0.05, j2=0, j3=1, label=0)


@pytest.mark.parametrize("changes, message", [
    (dict(n=7), "n must be divisible by d-2"),
    (dict(n=10, d=5), "n must be divisible by d-2"),
    (dict(d=2, n=4), "d must be >= 3"),
    (dict(n=1, d=3), "n must be >= 2"),
    (dict(n=8.0), "n must be an integer"),
    (dict(j3=8), "j3 must be >= 0 and < 8"),
    (dict(j3=-1), "j3 must be >= 0"),
    (dict(a=0.1), r"a0 must lie in \(0, 0.1\)"),
    (dict(a=0.0), r"a0 must lie in \(0, 0.1\)"),
    (dict(a=0.8), r"a0 must lie in \(0, 0.1\)"),
    (dict(a=0.69, label=1), "a1 must be >= 0.7"),
    (dict(a=float("nan")), "a must be a finite real"),
    (dict(b=0.3, c=0.6), "b \\+ c must equal 1"),
    (dict(b=0.3, c=0.7 + 1e-11), "b \\+ c must equal 1"),
    (dict(b=0.05, c=0.95), "b and c must be >= 0.1"),
    (dict(label=2), "label must be 0"),
    (dict(label=True), "label must be 0"),
    (dict(b=0.6, c=0.7, bc_constraint="sum_of_squares"), "b\\^2 \\+ c\\^2 must equal 1"),
    (dict(bc_constraint="l2"), "bc_constraint must be"),
])
def test_self_attention_dataset_rejects_bad_input(changes, message):
    with pytest.raises(ValueError, match=message):
        self_attention_dataset(**(SELF_OK | changes))


@pytest.mark.parametrize("changes", [
    dict(a=0.0999), dict(a=0.7, label=1), dict(a=5.0, label=1), dict(b=0.1, c=0.9),
    dict(b=0.3, c=0.7 + 1e-13), dict(n=4, d=3, j3=3), dict(b=0.6, c=0.8, bc_constraint="sum_of_squares"),
    dict(b=0.05, c=math.sqrt(1 - 0.05**2), bc_constraint="sum_of_squares"),
])
def test_self_attention_dataset_accepts_domain_and_boundaries(changes):
    A1, _, _ = self_attention_dataset(**(SELF_OK | changes))
    assert np.isfinite(A1).all()


@pytest.mark.parametrize("changes, message", [
    (dict(n=7), "n must be divisible by d-1"),
    (dict(d=1), "d must be >= 2"),
    (dict(j2=6), "j2 must be >= 0 and < 6"),
    (dict(j3=6), "j3 must be >= 0 and < 6"),
    (dict(a=0.1), r"a0 must lie in \(0, 0.1\)"),
    (dict(a=1.0, label=1), "a1 must be > 1"),
    (dict(label=-1), "label must be 0"),
])
def test_cross_attention_dataset_rejects_bad_input(changes, message):
    with pytest.raises(ValueError, match=message):
        cross_attention_dataset(**(CROSS_OK | changes))


def test_validate_false_admits_paper_experiment_parameters_but_not_structural_errors():
    # Section 7.2: a0 up to 0.8, a1 down to 0.1, b = 0.2 with c in [0.5, 0.9];
    # Appendix F, Figure 7 (d, e): n = 200 with d = 12, so d-1 does not divide n.
    self_attention_dataset(200, 22, 0.8, 0.2, 0.5, 3, 0, validate=False)
    self_attention_dataset(200, 22, 0.1, 0.2, 0.9, 3, 1, validate=False)
    A1, A2, _ = cross_attention_dataset(200, 12, 0.9, 0, 199, 0, validate=False)
    np.testing.assert_array_equal(A2[:, 1:].sum(axis=1), 1.0)
    with pytest.raises(ValueError, match="j3 must be"):
        self_attention_dataset(8, 6, 0.8, 0.2, 0.5, 8, 0, validate=False)
    with pytest.raises(ValueError, match="n must be >= 2"):
        cross_attention_dataset(1, 2, 0.5, 0, 0, 0, validate=False)


# --------------------------------------------------------------------- structured vs dense


def sizes(d_values: tuple[int, ...], k_offset: int) -> list[tuple[int, int]]:
    """(d, t) for t in {1, 2, 5}, dropping n = (d - k_offset) t = 1 (log n = 0 is excluded)."""
    return [(d, t) for d in d_values for t in (1, 2, 5) if (d - k_offset) * t >= 2]


X_CHOICES = {"ones": lambda d: np.ones((d, d)), "identity": np.eye}


def expand(data, per_class: np.ndarray) -> np.ndarray:
    """Dense n x n array from per-(query class, key class) values."""
    index = np.arange(data.n)
    return per_class[np.ix_(data.queries.class_of(index), data.keys.class_of(index))]


def assert_structured_equals_dense(params, X: np.ndarray, V: np.ndarray, y: np.ndarray, tau: float) -> None:
    A1, A2, A3 = params.dense()
    data = params.compressed()
    index = np.arange(params.n)
    query_class, key_class = data.queries.class_of(index), data.keys.class_of(index)
    np.testing.assert_array_equal(data.queries.rows[query_class], A1)
    np.testing.assert_array_equal(data.keys.rows[key_class], A2)
    np.testing.assert_array_equal(data.values[key_class], A3)
    np.testing.assert_array_equal(np.bincount(query_class), data.queries.counts)
    np.testing.assert_array_equal(np.bincount(key_class), data.keys.counts)
    # log f_exp near 0 is a difference of scores: absolute error ~1e-16 of their size
    atol = {"log_f_exp": 1e-13 * np.max(np.abs(dense.u_lin_matrix(A1, A2, X)))}
    for name in ("u_lin", "f_lin", "log_u_exp", "log_f_exp", "f_exp"):
        np.testing.assert_allclose(expand(data, getattr(structured, name)(data, X)),
                                   getattr(dense, f"{name}_matrix")(A1, A2, X), rtol=RTOL,
                                   atol=atol.get(name, 0.0), err_msg=name)
    for name in ("alpha_lin", "log_alpha_exp"):
        np.testing.assert_allclose(getattr(structured, name)(data, X)[query_class],
                                   getattr(dense, f"{name}_matrix")(A1, A2, X), rtol=RTOL, err_msg=name)
    for name in ("c_lin", "c_exp"):
        np.testing.assert_allclose(getattr(structured, name)(data, X, V)[query_class],
                                   getattr(dense, f"{name}_matrix")(A1, A2, A3, X, V),
                                   rtol=RTOL, atol=1e-14, err_msg=name)
    for name in ("F_lin", "F_exp"):
        np.testing.assert_allclose(getattr(structured, name)(data, X, V, y, tau),
                                   getattr(dense, name)(A1, A2, A3, X, V, y, tau),
                                   rtol=RTOL, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("x_name", X_CHOICES)
@pytest.mark.parametrize("label, a", [(0, 0.05), (1, 1.2)])
@pytest.mark.parametrize("d, t", sizes(d_values=(3, 4, 6), k_offset=2))
def test_structured_self_attention_equals_dense(d, t, label, a, x_name):
    n, b, c = (d - 2) * t, 0.2, 0.8
    X, V = X_CHOICES[x_name](d), np.eye(d)
    y = rademacher(np.random.default_rng(d * 100 + t), (4, d, 3))
    tau = (c + 0.1) * math.sqrt(math.log(n))
    for j3 in range(n):
        assert_structured_equals_dense(SelfAttentionParams(n, d, a, b, c, j3, label), X, V, y, tau)


@pytest.mark.parametrize("x_name", X_CHOICES)
@pytest.mark.parametrize("label, a", [(0, 0.05), (1, 2.0)])
@pytest.mark.parametrize("d, t", sizes(d_values=(2, 3, 4, 6), k_offset=1))
def test_structured_cross_attention_equals_dense(d, t, label, a, x_name):
    n = (d - 1) * t
    X, V = X_CHOICES[x_name](d), np.eye(d)
    y = rademacher(np.random.default_rng(d * 100 + t), (4, d, 3))
    for j2, j3 in itertools.product(range(n), repeat=2):
        assert_structured_equals_dense(CrossAttentionParams(n, d, a, j2, j3, label), X, V, y, 0.9)


@pytest.mark.parametrize("params", [
    SelfAttentionParams(7, 5, 0.5, 0.2, 0.6, 6, 0, validate=False),
    SelfAttentionParams(5, 9, 0.3, 0.4, 0.9, 2, 1, validate=False),
    SelfAttentionParams(6, 4, 1.1, 0.6, 0.8, 1, 1, bc_constraint="sum_of_squares"),
    CrossAttentionParams(200, 12, 3.0, 17, 150, 1, validate=False),
    CrossAttentionParams(5, 8, 0.01, 4, 4, 0, validate=False),
])
@pytest.mark.parametrize("seed", [0, 1])
def test_structured_equals_dense_general_X_V_and_truncated_stacks(params, seed):
    rng = np.random.default_rng(seed)
    d = params.d
    X, V = rng.standard_normal((d, d)), rng.standard_normal((d, d))
    assert_structured_equals_dense(params, X, V, rademacher(rng, (3, d, 5)), 0.5)


def test_structured_rejects_bad_input():
    data = SelfAttentionParams(**SELF_OK).compressed()
    with pytest.raises(ValueError, match="X must have shape"):
        structured.f_exp(data, np.eye(5))
    with pytest.raises(ValueError, match="V must have shape"):
        structured.c_exp(data, np.eye(6), np.eye(5))
    with pytest.raises(ValueError, match="data must be a CompressedDataset"):
        structured.f_exp(np.ones((8, 6)), np.eye(6))
    with pytest.raises(ValueError, match="row index must lie in"):
        data.queries.class_of(8)


# --------------------------------------------------------------------- large n


LARGE = [
    SelfAttentionParams(10**6, 6, 1.2, 0.2, 0.8, 123_457, 1),
    SelfAttentionParams(10**9, 12, 0.05, 0.2, 0.8, 999_999_999, 0),
    SelfAttentionParams(10**9, 22, 1.2, 0.6, 0.8, 17, 1, bc_constraint="sum_of_squares"),
    CrossAttentionParams(10**6, 11, 3.0, 5, 999_999, 1),
    CrossAttentionParams(10**9, 11, 0.01, 10**9 - 1, 0, 0),
]


@pytest.mark.parametrize("params", LARGE, ids=lambda p: f"{type(p).__name__}-n{p.n}")
@pytest.mark.parametrize("x_name", X_CHOICES)
def test_structured_large_n_without_length_n_arrays(params, x_name):
    d = params.d
    X, V = X_CHOICES[x_name](d), np.eye(d)
    y = rademacher(np.random.default_rng(0), (64, d, 20))
    tau = 0.9 if isinstance(params, CrossAttentionParams) else (params.c + 0.1) * params.scale
    tracemalloc.start()
    try:
        data = params.compressed()
        per_class = ("u_lin", "f_lin", "log_u_exp", "log_f_exp", "f_exp", "alpha_lin", "log_alpha_exp")
        results = {name: getattr(structured, name)(data, X) for name in per_class}
        results |= {name: getattr(structured, name)(data, X, V) for name in ("c_lin", "c_exp")}
        results |= {name: getattr(structured, name)(data, X, V, y, tau) for name in ("F_lin", "F_exp")}
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000, f"peak traced memory {peak} bytes"
    assert data.n == params.n and max(a.size for a in results.values()) <= 64 * d * d
    assert all(np.isfinite(a).all() for a in results.values())
    weights = data.keys.counts
    np.testing.assert_allclose(results["f_exp"] @ weights, 1.0, rtol=1e-12)
    np.testing.assert_allclose(results["f_lin"] @ weights, 1.0, rtol=1e-12)


def test_structured_large_n_reproduces_lemma_exponents():
    n, a1 = 10**9, 1.2
    self_data = SelfAttentionParams(n, 12, a1, 0.2, 0.8, 42, 1).compressed()
    special = self_data.queries.class_of(42)
    assert structured.log_u_exp(self_data, np.ones((12, 12)))[special, special] == pytest.approx(
        (1 + a1) ** 2 * math.log(n), rel=1e-12)
    cross_data = CrossAttentionParams(n, 11, 3.0, 7, 9, 1).compressed()
    log_u = structured.log_u_exp(cross_data, np.eye(11))
    j3_class = cross_data.keys.class_of(9)
    assert log_u[cross_data.queries.class_of(7), j3_class] == pytest.approx(4 * math.log(n), rel=1e-12)
    assert log_u[cross_data.queries.class_of(8), j3_class] == pytest.approx(math.log(n), rel=1e-12)
