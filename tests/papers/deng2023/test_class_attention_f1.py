"""Tests of the helpers behind properties/test_deng2023_cross_attention.py (deng2023 Appendix F):
the reduced evaluator attncheck.papers.deng2023.models.class_attention.definition_f1 against the dense and the
structured models, its exactness in both backends, the index-condition selection, and the
strategies of attncheck.papers.deng2023.strategies.cross_attention."""
from __future__ import annotations

import itertools
import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attncheck.numeric.precision import F64, MP
from attncheck.papers.deng2023.data.attention import CrossAttentionParams
from attncheck.papers.deng2023.models import attention as dense
from attncheck.papers.deng2023.models.class_attention import definition_f1 as cm
from attncheck.papers.deng2023.models.class_attention import rows as structured
from attncheck.papers.deng2023.strategies import m_large, m_smallest
from attncheck.papers.deng2023.strategies.cross_attention import cross_case, divisors, pair_case, width_near

RTOL = 1e-12
SMALL = [(n, d) for n in (2, 3, 4, 6, 12) for d in range(2, n + 2) if n % (d - 1) == 0]
CONDITIONS = {
    "j0 = j2": lambda j0, j2, j3: j0 == j2, "j0 != j2": lambda j0, j2, j3: j0 != j2,
    "j0 = j3": lambda j0, j2, j3: j0 == j3, "j0 != j3": lambda j0, j2, j3: j0 != j3,
}


def reduced(params: CrossAttentionParams, softmax: bool, xp=F64):
    return cm.f(params.n, params.d, params.a, xp, softmax), cm.c_parts(params.n, params.d, params.a, xp, softmax)


def classes(params: CrossAttentionParams):
    """Query class of every row, key class of every row, group of every column (dense indexing)."""
    n, d, j2, j3 = params.n, params.d, params.j2, params.j3
    return ([cm.query_class(j, j2) for j in range(n)], [cm.key_class(j, j3, d) for j in range(n)],
            [cm.column_group(i, j3, d) for i in range(d)])


def all_small_params():
    for (n, d), label in itertools.product(SMALL, (0, 1)):
        a = 0.05 if label == 0 else 2.5
        for j2, j3 in itertools.product(range(n), repeat=2):
            yield CrossAttentionParams(n, d, a, j2, j3, label)


# --------------------------------------------------------------------- reduced == dense


@pytest.mark.parametrize("softmax", [True, False])
def test_reduced_equals_dense_for_every_small_dataset(softmax):
    I = lambda d: np.eye(d)  # noqa: E731
    for params in all_small_params():
        A1, A2, A3 = params.dense()
        q, k, g = classes(params)
        S = dense.u_lin_matrix(A1, A2, I(params.d))
        f_dense = (dense.f_exp_matrix if softmax else dense.f_lin_matrix)(A1, A2, I(params.d))
        c_dense = (dense.c_exp_matrix if softmax else dense.c_lin_matrix)(A1, A2, A3, I(params.d), I(params.d))
        f, parts = reduced(params, softmax)
        np.testing.assert_allclose(cm.scores(params.n, params.a, F64)[np.ix_(q, k)], S, rtol=RTOL)
        np.testing.assert_allclose(f[np.ix_(q, k)], f_dense, rtol=RTOL, err_msg=repr(params))
        np.testing.assert_allclose(parts.c[np.ix_(q, g)], c_dense, rtol=RTOL, atol=1e-15, err_msg=repr(params))


@pytest.mark.parametrize("params", [
    CrossAttentionParams(10**6, 11, 3.0, 5, 999_999, 1),
    CrossAttentionParams(10**6, 101, 0.01, 17, 17, 0),
    CrossAttentionParams(10**9, 41, 20.0, 0, 10**9 - 1, 1),
    CrossAttentionParams(10**9, 2, 0.099, 3, 8, 0),
], ids=lambda p: f"n{p.n}-d{p.d}-D{p.label}")
@pytest.mark.parametrize("softmax", [True, False])
def test_reduced_equals_structured_at_large_n(params, softmax):
    data, d = params.compressed(), params.d
    rows = sorted({params.j2, params.j3, 0, params.n - 1, (params.j3 + 1) % params.n})
    q, g = [cm.query_class(j, params.j2) for j in rows], [cm.column_group(i, params.j3, d) for i in range(d)]
    k = [cm.key_class(j, params.j3, d) for j in rows]
    fs = (structured.f_exp if softmax else structured.f_lin)(data, np.eye(d))
    cs = (structured.c_exp if softmax else structured.c_lin)(data, np.eye(d), np.eye(d))
    f, parts = reduced(params, softmax)
    np.testing.assert_allclose(f[np.ix_(q, k)], fs[np.ix_(data.queries.class_of(rows), data.keys.class_of(rows))],
                               rtol=1e-10)
    np.testing.assert_allclose(parts.c[np.ix_(q, g)], cs[data.queries.class_of(rows)], rtol=1e-10, atol=1e-300)


def test_reduced_mpmath_agrees_with_float64():
    params = CrossAttentionParams(360, 13, 1.7, 4, 99, 1)
    for softmax in (True, False):
        f64, p64 = reduced(params, softmax)
        with mpmath.workdps(40):
            f_mp, p_mp = reduced(params, softmax, MP(40))
            np.testing.assert_allclose(MP.to_float(f_mp), f64, rtol=1e-14)
            np.testing.assert_allclose(MP.to_float(p_mp.c), p64.c, rtol=1e-14)


# --------------------------------------------------------------------- exact tight cases


@pytest.mark.parametrize("xp", [F64, MP(30)], ids=["float64", "mpmath"])
@pytest.mark.parametrize("n, d, label, a", [(12, 4, 1, 1.5), (10**9, 2, 0, 0.05), (10**15, 10**5 + 1, 1, 999.0)])
def test_tight_cases_are_exact(xp, n, d, label, a):
    with mpmath.workdps(30):
        t = n // (d - 1)
        one, nn = xp.asarray(1.0), xp.asarray(float(n))
        for softmax in (True, False):
            f = cm.f(n, d, a, xp, softmax)
            parts = cm.c_parts(n, d, a, xp, softmax)
            assert all(f[cm.QUERY_PLAIN, K] == one / nn for K in range(3))
            assert parts.c[cm.QUERY_PLAIN, cm.FIRST] == one / nn
            assert parts.c[cm.QUERY_PLAIN, cm.R3] == xp.asarray(float(t)) / nn
            if d == 2:
                assert parts.c[cm.QUERY_J2, cm.R3] == one and parts.c[cm.QUERY_PLAIN, cm.R3] == one


def test_inner_products_of_plain_rows_are_exact_rationals():
    n, d = 10, 6  # c = (1/10, 2/10, ..., 2/10): <c, sigma> = 1/10 + 2/10 * 4 = 9/10 exactly
    sums = np.array([[1, 1, 1, 2]])
    for xp in (F64, MP(30)):
        with mpmath.workdps(30):
            z = cm.inner(cm.c_parts(n, d, 0.05, xp, True), 1, sums, xp)[0, cm.QUERY_PLAIN]
            assert z == xp.asarray(9.0) / 10


def test_large_a_underflows_to_zero_without_overflow():
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        f = cm.f(10**15, 3, 1000.0, F64, True)
    assert f[cm.QUERY_J2, cm.KEY_J3] == 1.0 and f[cm.QUERY_J2, cm.KEY_REST] == 0.0


# --------------------------------------------------------------------- signs and networks


def slot_sums_of(y: np.ndarray, params: CrossAttentionParams) -> np.ndarray:
    """Group sums of the rows of y (d, ...) over the slots (first, R3, one REST column, other REST)."""
    d, r3 = params.d, params.j3 % (params.d - 1)
    rest = [1 + r for r in range(d - 1) if r != r3]
    parts = [y[[0]], y[[1 + r3]], y[rest[:1]], y[rest[1:]]]
    return np.stack([p.sum(axis=0) for p in parts], axis=-1)


@pytest.mark.parametrize("softmax", [True, False])
def test_inner_and_network_equal_dense(softmax):
    rng = np.random.default_rng(3)
    for params in itertools.islice(all_small_params(), 0, None, 7):
        A1, A2, A3 = params.dense()
        I = np.eye(params.d)
        c_dense = (dense.c_exp_matrix if softmax else dense.c_lin_matrix)(A1, A2, A3, I, I)
        y = rng.choice([-1.0, 1.0], size=(params.d, 5))
        z = cm.inner(cm.c_parts(params.n, params.d, params.a, F64, softmax), 1, slot_sums_of(y, params)[None], F64)
        q = [cm.query_class(j, params.j2) for j in range(params.n)]
        np.testing.assert_allclose(z[0][:, q], (c_dense @ y).T, rtol=1e-12, atol=1e-12)
        network = (dense.F_exp if softmax else dense.F_lin)(A1, A2, A3, I, I, y, 0.9)
        assert (network > 0) == (z.max() > 0.9)


def test_shared_signs_of_two_datasets_equal_dense():
    """Theorem 1.2: D1's column of j3 in slot A, D0's in slot B when the residues differ."""
    rng = np.random.default_rng(5)
    n, d = 12, 5
    for j3_0, j3_1 in [(0, 1), (3, 7), (4, 8), (11, 2)]:
        p0, p1 = CrossAttentionParams(n, d, 0.05, 2, j3_0, 0), CrossAttentionParams(n, d, 3.0, 9, j3_1, 1)
        r0, r1 = j3_0 % (d - 1), j3_1 % (d - 1)
        rest = [1 + r for r in range(d - 1) if r not in (r0, r1)]
        other = [1 + r0] if r0 != r1 else rest[:1]
        y = rng.choice([-1.0, 1.0], size=(d, 3))
        sums = np.stack([y[[0]].sum(0), y[[1 + r1]].sum(0), y[other].sum(0),
                         y[[c for c in rest if c not in other]].sum(0)], axis=-1)
        for params, slot in ((p1, 1), (p0, 1 if r0 == r1 else 2)):
            A1, A2, A3 = params.dense()
            c_dense = dense.c_exp_matrix(A1, A2, A3, np.eye(d), np.eye(d))
            z = cm.inner(cm.c_parts(n, d, params.a, F64, True), slot, sums, F64)
            q = [cm.query_class(j, params.j2) for j in range(n)]
            np.testing.assert_allclose(z[:, q], (c_dense @ y).T, rtol=1e-12, atol=1e-12)


def test_slot_sums_are_rademacher_group_sums():
    for d in (2, 3, 4, 50):
        sizes = cm.slot_sizes(d)
        assert sizes.sum() == d and (sizes >= 0).all()
        draws = cm.slot_sums(d, np.random.default_rng(0), (4000,))
        assert draws.shape == (4000, 4)
        assert (np.abs(draws) <= sizes).all() and ((draws - sizes) % 2 == 0).all()
        np.testing.assert_allclose(draws.mean(axis=0), 0, atol=4 * np.sqrt(sizes.max() / 4000) + 1e-12)


# --------------------------------------------------------------------- index conditions


def test_condition_selection_matches_brute_force():
    for params in all_small_params():
        n, d, j2, j3 = params.n, params.d, params.j2, params.j3
        q, k, g = classes(params)
        for name, cond in CONDITIONS.items():
            brute = sorted({q[j] for j in range(n) if cond(j, j2, j3)})
            assert cm.query_classes(n, j2, j3, cond) == brute, (params, name)
        assert cm.present_keys(n, d, (cm.KEY_R3, cm.KEY_REST)) == sorted({k[j] for j in range(n) if j != j3})
        assert cm.present_groups(d, (cm.R3, cm.REST)) == sorted(set(g[1:]))


# --------------------------------------------------------------------- strategies


def test_divisors_and_width_near():
    assert divisors(360) == tuple(k for k in range(1, 361) if 360 % k == 0)
    assert len(divisors(10**15)) == 16 * 16
    assert width_near(10**9, 0.25) in (160, 200) and width_near(2, 1.0) == 1
    for n in (10, 10**6, 10**12):
        k = width_near(n, 1.0)
        assert k + 1 <= n and n % k == 0


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_cross_case_is_valid_by_construction(data):
    n = data.draw(st.sampled_from([2, 12, 360, 10**6, 10**15]))
    label = data.draw(st.sampled_from([0, 1]))
    cond = data.draw(st.sampled_from(sorted(CONDITIONS)))
    case = data.draw(cross_case(n, label, row=CONDITIONS[cond], m_rule=m_smallest))
    params = case.params()
    assert params.n == n and n % (case.d - 1) == 0 and case.t * (case.d - 1) == n
    assert 0 < case.a0 < 0.1 and case.a1 > 1 and 0 <= case.j2 < n and 0 <= case.j3 < n
    assert CONDITIONS[cond](case.j0, case.j2, case.j3)
    assert 1e-3 <= case.delta < 0.1 and case.m == math.floor(math.log(n / case.delta)) + 1
    path_case = data.draw(cross_case(n, label, beta=st.floats(0.25, 1.0), min_d=2))
    assert path_case.d <= n


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_pair_case_shares_n_d_and_network(data):
    n = data.draw(st.sampled_from([2, 10, 10**9]))
    pair = data.draw(pair_case(n, beta=st.floats(0.25, 1.0), a1_max=20.0, m_rule=m_large))
    assert (pair.d0.label, pair.d1.label) == (0, 1) and pair.d0.d == pair.d1.d <= n
    assert pair.d1.a1 <= 20.0 and 2 * math.log(n / pair.delta) <= pair.m <= math.ceil(3 * math.log(n / pair.delta))


@settings(max_examples=60, database=None)
@given(st.sampled_from([2, 12, 360]), st.sampled_from(["equal", "distinct"]), st.data())
def test_pair_restricts_the_special_indices(n, pair, data):
    case = data.draw(cross_case(n, 1, pair=pair))
    assert (case.j2 == case.j3) == (pair == "equal")


def test_pair_rejects_unknown_readings():
    with pytest.raises(ValueError, match="pair must be"):
        st.lists(cross_case(12, 1, pair="same")).example()


def test_lemma_f14_part_3_depends_on_the_reading_of_j2_j3():
    """Lemma F.14 Part 3 as printed (D1, j0 = j1 = j3): f_lin(j3, j3) = (1+a1)/(n+a1) > (1+a0)/n when
    j2 = j3, and 1/n <= (1+a0)/n when j2 != j3 (issue 10: both readings of Definition F.1)."""
    n, d, a0, a1 = 12, 4, 0.05, 2.0
    for j2, j3, expect in ((5, 5, (1 + a1) / (n + a1)), (4, 5, 1 / n)):
        A1, A2, _ = CrossAttentionParams(n, d, a1, j2, j3, 1).dense()
        f = dense.f_lin_matrix(A1, A2, np.eye(d))
        assert math.isclose(f[j3, j3], expect, rel_tol=1e-12)
        assert (f[j3, j3] <= (1 + a0) / n) == (j2 != j3)


# --------------------------------------------------------------------- counts relaxed to values


@pytest.mark.parametrize("n, d", [(2, 2), (2, 3), (4, 3), (12, 4), (10**6, 1001), (10**15, 10**5 + 1)])
@pytest.mark.parametrize("softmax", [True, False])
def test_relaxed_counts_enclose_the_integer_values(n, d, softmax):
    """Definition F.1 with n and d as arb balls (certification) and as exact SymPy integers (the symbolic
    route): at the integer point both give the integer evaluator's mpmath values, f and c alike."""
    import sympy
    from flint import arb

    from attncheck.numeric.interval import ARB, Ball
    from attncheck.numeric.symbolic import SYM

    a = 1.7
    keys, groups = cm.present_keys(n, d, (0, 1, 2)), cm.present_groups(d, (0, 1, 2))  # what the claims read

    def present(f, parts):
        return np.concatenate([np.ravel(f[:, keys]), np.ravel(parts.c[:, groups])])

    with mpmath.workdps(40):
        exact = present(*reduced(CrossAttentionParams(n, d, a, 0, 0, 1), softmax, MP(40)))
    xp = ARB(128)
    with xp.context():
        nb, db = Ball(arb(n)), Ball(arb(d))
        for ball, v in zip(present(cm.f(nb, db, a, xp, softmax), cm.c_parts(nb, db, a, xp, softmax)), exact, strict=False):
            assert ball.x.overlaps(arb(mpmath.nstr(v, 35), 1e-30 * (1 + abs(v)))), (ball, v)
    k, ns = sympy.Symbol("k", positive=True), sympy.Integer(n)  # n as k t with t = n / k at k = d - 1
    for n_sym, d_sym in ((ns, sympy.Integer(d)), (k * ns / (d - 1), k + 1)):
        xs = SYM({"k": (1.0, 1e15)})  # orders the scores on k >= 1
        values = present(cm.f(n_sym, d_sym, a, xs, softmax), cm.c_parts(n_sym, d_sym, a, xs, softmax))
        for expr, v in zip(values, exact, strict=False):
            expr = expr.subs(k, d - 1)
            assert abs(sympy.N(expr, 40) - sympy.Float(mpmath.nstr(v, 38), 40)) <= 1e-30 * (1 + abs(v))



@pytest.mark.parametrize("softmax", [True, False])
def test_c_is_nonnegative_so_network_maxima_need_only_column_maxima(softmax):
    """network_slot_sums keeps, per sign pattern, the column with the largest REST sum: valid since <c_{j0}, y> is
    nondecreasing in it (numerators >= 0, alpha > 0), at every class, small and large n."""
    for n, d, a in ((2, 3, 0.05), (12, 4, 2.5), (360, 6, 1.5), (10**9, 41, 20.0), (10**15, 10**5 + 1, 1e-12)):
        parts = cm.c_parts(n, d, a, F64, softmax)
        assert np.all(np.asarray(parts.numerator) >= 0) and np.all(np.asarray(parts.alpha) > 0)
