"""Tests of the helpers behind properties/test_deng2023_self_attention.py: the grouped
evaluators of attncheck.papers.deng2023.models.class_attention.definition_d1 against the dense (small n) and
structured (large n) reference models, the column-group sums of random signs, the
network maximum, and the Appendix D strategies."""
from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings

from attncheck.numeric.precision import MP
from attncheck.papers.deng2023.data.attention import SelfAttentionParams
from attncheck.papers.deng2023.models import attention as dense
from attncheck.papers.deng2023.models.class_attention import definition_d1 as sa
from attncheck.papers.deng2023.models.class_attention import rows as structured
from attncheck.papers.deng2023.models.random_signs import column_maxima, narrowest, rademacher_group_sums
from attncheck.papers.deng2023.strategies import m_smallest
from attncheck.papers.deng2023.strategies import self_attention as sas

RTOL = 1e-12
X_MATRIX = {"ones": lambda d: np.ones((d, d)), "identity": np.eye}
PER_ENTRY = ("u_lin", "f_lin", "log_u_exp", "log_f_exp", "f_exp")


def small_datasets():
    """Every j3 of every (d, t) with d in 3..7, t in 1..3 (n >= 2), both labels."""
    for d, t in itertools.product(range(3, 8), (1, 2, 3)):
        n = (d - 2) * t
        if n < 2:
            continue
        for j3, (label, a) in itertools.product(range(n), ((0, 0.05), (1, 1.3))):
            yield SelfAttentionParams(n, d, a, 0.25, 0.75, j3, label)


SMALL = list(small_datasets())


def expand_entries(g, values):
    n = g.n
    return np.array([[values[g.query_class(j0), g.key_cell(j0, j1)] for j1 in range(n)] for j0 in range(n)])


def expand_c(g, c):
    return np.array([[c[g.query_class(j0), g.column_group(j0, i0)] for i0 in range(g.params.d)]
                     for j0 in range(g.n)])


@pytest.mark.parametrize("X", sa.X_CHOICES)
def test_grouped_equals_dense_for_every_entry_and_j3(X):
    for p in SMALL:
        g = sa.Grouped(p)
        A1, A2, A3 = p.dense()
        Xm, V = X_MATRIX[X](p.d), np.eye(p.d)
        for name in PER_ENTRY:
            np.testing.assert_allclose(expand_entries(g, getattr(sa, name)(g, X)),
                                       getattr(dense, f"{name}_matrix")(A1, A2, Xm), rtol=RTOL, err_msg=f"{name} {p}")
        for name in ("c_lin", "c_exp"):
            np.testing.assert_allclose(expand_c(g, getattr(sa, name)(g, X)),
                                       getattr(dense, f"{name}_matrix")(A1, A2, A3, Xm, V), rtol=RTOL, atol=1e-14,
                                       err_msg=f"{name} {p}")
        np.testing.assert_allclose(sa.alpha_lin(g, X)[[g.query_class(j) for j in range(p.n)]],
                                   dense.alpha_lin_matrix(A1, A2, Xm), rtol=RTOL)
        np.testing.assert_allclose(sa.log_alpha_exp(g, X)[[g.query_class(j) for j in range(p.n)]],
                                   dense.log_alpha_exp_matrix(A1, A2, Xm), rtol=RTOL)


def test_grouped_multiplicities_cover_n_rows_and_d_columns():
    for p in SMALL:
        g = sa.Grouped(p)
        assert g.key_counts.sum() == p.n and g.query_counts.sum() == p.n and g.widths.sum() == p.d
        assert min(g.key_counts.min(), g.query_counts.min(), g.widths.min()) >= 1
        assert np.array_equal(np.bincount([g.query_class(j) for j in range(p.n)]), g.query_counts)


LARGE = [SelfAttentionParams(10**6, 12, 1.2, 0.3, 0.7, 123_457, 1),
         SelfAttentionParams(10**9, 22, 0.05, 0.6, 0.4, 10**9 - 1, 0),
         SelfAttentionParams(10**6, 3, 20.0, 0.9, 0.1 + 1e-16, 0, 1)]


@pytest.mark.parametrize("p", LARGE, ids=lambda p: f"n{p.n}-d{p.d}")
@pytest.mark.parametrize("X", sa.X_CHOICES)
def test_grouped_equals_structured_at_large_n(p, X):
    g, data = sa.Grouped(p), p.compressed()
    Xm = X_MATRIX[X](p.d)
    rows = [0, 1, p.j3, (p.j3 + p.k) % p.n, (p.j3 + 1) % p.n, p.n - 1]
    for name in PER_ENTRY:
        grouped, reference = getattr(sa, name)(g, X), getattr(structured, name)(data, Xm)
        for j0, j1 in itertools.product(rows, rows):
            assert grouped[g.query_class(j0), g.key_cell(j0, j1)] == pytest.approx(
                reference[data.queries.class_of(j0), data.keys.class_of(j1)], rel=1e-11, abs=1e-300)
    for name in ("c_lin", "c_exp"):
        grouped, reference = getattr(sa, name)(g, X), getattr(structured, name)(data, Xm, np.eye(p.d))
        for j0, i0 in itertools.product(rows, range(p.d)):
            assert grouped[g.query_class(j0), g.column_group(j0, i0)] == pytest.approx(
                reference[data.queries.class_of(j0), i0], rel=1e-10, abs=1e-14)


@pytest.mark.parametrize("name", ["log_f_exp", "f_lin", "c_exp", "c_lin"])
def test_mpmath_backend_agrees_with_float64(name):
    p = SelfAttentionParams(10**9, 1002, 0.03, 0.9 - 2**-53, 0.1 + 2**-53, 5, 0)
    g = sa.Grouped(p)
    with mpmath.workdps(40):
        high = getattr(sa, name)(g, "ones", MP(40))
    assert high.dtype == object
    np.testing.assert_allclose(high.astype(float), getattr(sa, name)(g, "ones"), rtol=1e-13)


def test_grouped_rejects_bad_rho_and_x():
    p = SelfAttentionParams(12, 6, 0.05, 0.5, 0.5, 5, 0)
    with pytest.raises(ValueError, match="rho"):
        sa.Grouped(p, rho=1)  # j3 = 5 has residue 1
    with pytest.raises(ValueError, match="X must be"):
        sa.scores(sa.Grouped(p), "I")


# ---- random signs and the network ----------------------------------------------------------


def group_sums_of(g, y, j0):
    """Sums of the full vectors y (d, m) over the column groups seen from query j0."""
    labels = np.array([g.column_group(j0, i0) for i0 in range(g.params.d)])
    return np.stack([y[labels == k].sum(axis=0) for k in range(len(g.groups))], axis=-1)


@pytest.mark.parametrize("attention", ["exp", "lin"])
def test_top_score_is_the_dense_network_maximum(attention):
    rng = np.random.default_rng(1)
    for p in SMALL[::3]:
        g = sa.Grouped(p)
        A1, A2, A3 = p.dense()
        c_dense = getattr(dense, f"c_{attention}_matrix")(A1, A2, A3, np.ones((p.d, p.d)), np.eye(p.d))
        c = getattr(sa, f"c_{attention}")(g, "ones")
        for _ in range(5):
            y = rng.choice([-1.0, 1.0], size=(p.d, 4))
            top = sa.top_score(c, group_sums_of(g, y, p.j3)[None])[0]
            assert top == pytest.approx(np.max(c_dense @ y), rel=1e-12, abs=1e-12)
            tau = float(np.max(c_dense @ y)) - 1e-9
            F = getattr(dense, f"F_{attention}")(A1, A2, A3, np.ones((p.d, p.d)), np.eye(p.d), y, tau)
            assert (F > 0) == (top > tau)


def test_top_score_in_mpmath_matches_the_full_maximum():
    p = SelfAttentionParams(100, 12, 1e-12, 0.1 + 2**-56, 0.9 - 2**-56, 0, 0)
    g = sa.Grouped(p)
    Y = rademacher_group_sums(g.widths, np.random.default_rng(2), (40, 30))
    with mpmath.workdps(30):
        c = sa.c_lin(g, "ones", MP(30))
        fast = sa.top_score(c, Y)
        full = [max(sa.inner(c[q], Y[i, l]) for q in range(len(c)) for l in range(30)) for i in range(40)]
    assert all(a == b for a, b in zip(fast, full, strict=False))


NEAR_TIES = [  # D_0 at small n (exact ties of the kept columns), D_1, a wide group, c from the 'ones' network
    (SelfAttentionParams(100, 12, 1e-12, 0.1 + 2**-56, 0.9 - 2**-56, 0, 0), "lin"),
    (SelfAttentionParams(100, 4, 1e-12, 0.1, 0.9, 3, 0), "exp"),
    (SelfAttentionParams(60, 5, 1.5, 0.5, 0.5, 7, 1), "exp"),
    (SelfAttentionParams(10**6, 1002, 0.05, 0.9, 0.1, 10, 0), "lin"),
]


def _mp_maxima(top, p, attention, seed, dps):
    """``top`` (sa._top_score_mp or a variant) on column_maxima draws of the network of p, in mpmath at dps."""
    g = sa.Grouped(p)
    Y = column_maxima(g.widths, np.random.default_rng(seed), (300, 50), dtype=narrowest(g.widths))
    with mpmath.workdps(dps):
        c = getattr(sa, f"c_{attention}")(g, "ones", MP(dps))
        approx = np.stack([sa.inner(c[q].astype(float), Y) for q in range(len(c))], axis=-1)
        return top(c, Y, approx), sa._top_score_mp_plain(c, Y, approx)


@pytest.mark.parametrize("dps", [30, 60])
@pytest.mark.parametrize("case", NEAR_TIES, ids=lambda c: f"n{c[0].n}-d{c[0].d}-{c[1]}")
def test_top_score_mp_by_distinct_pairs_equals_pair_by_pair(case, dps):
    """The ranked distinct pairs give the same mpmath numbers as evaluating every near pair of every draw."""
    fast, plain = _mp_maxima(sa._top_score_mp, *case, seed=dps, dps=dps)
    assert len(fast) == len(plain) == 300
    assert all(type(a) is type(b) and a == b for a, b in zip(fast, plain, strict=True))


def _lowest_ranked(c, Y, approx):
    """A planted error: the draw's lowest-ranked near pair instead of its highest."""
    real = np.maximum.reduceat
    try:
        np.maximum.reduceat = np.minimum.reduceat  # noqa: B010 (the one reduction the planted variant swaps)
        return sa._top_score_mp(c, Y, approx)
    finally:
        np.maximum.reduceat = real


def test_top_score_mp_comparison_catches_a_planted_error():
    fast, plain = _mp_maxima(_lowest_ranked, *NEAR_TIES[0], seed=1, dps=30)
    assert any(a != b for a, b in zip(fast, plain, strict=True))


@pytest.mark.parametrize("attentions", [("exp", "lin"), ("lin", "lin"), ("exp", "exp", "lin")])
def test_top_scores_equal_top_score_of_each(attentions):
    """One conversion of Y shared and a repeated network evaluated once: the numbers of top_score, bit for bit."""
    for p, _ in NEAR_TIES:
        g = sa.Grouped(p)
        Y = column_maxima(g.widths, np.random.default_rng(4), (500, 40), dtype=narrowest(g.widths))
        cs = [getattr(sa, f"c_{att}")(g, "ones") for att in attentions]
        for got, c in zip(sa.top_scores(cs, Y), cs, strict=True):
            np.testing.assert_array_equal(got, sa.top_score(c, Y))
        with mpmath.workdps(30):
            cs = [getattr(sa, f"c_{att}")(g, "ones", MP(30)) for att in attentions]
            for got, c in zip(sa.top_scores(cs, Y[:60]), cs, strict=True):
                assert list(got) == list(sa._top_score_mp_plain(c, Y[:60], np.stack(
                    [sa.inner(c[q].astype(float), Y[:60]) for q in range(len(c))], axis=-1)))


def test_aligned_pair_shares_one_y_between_datasets():
    rng = np.random.default_rng(3)
    for n, d in ((12, 6), (8, 4), (6, 5)):
        for j0, j1 in itertools.product(range(n), repeat=2):
            p0 = SelfAttentionParams(n, d, 0.05, 0.3, 0.7, j0, 0)
            p1 = SelfAttentionParams(n, d, 1.5, 0.3, 0.7, j1, 1)
            g0, g1, perm = sa.aligned_pair(p0, p1)
            y = rng.choice([-1.0, 1.0], size=(d, 3))
            Y = group_sums_of(g0, y, j0)[None]
            Y1 = Y if perm is None else Y[..., perm]
            np.testing.assert_array_equal(Y1[0], group_sums_of(g1, y, j1))
            for p, g, Yg in ((p0, g0, Y), (p1, g1, Y1)):
                A1, A2, A3 = p.dense()
                c_dense = dense.c_exp_matrix(A1, A2, A3, np.ones((d, d)), np.eye(d))
                assert sa.top_score(sa.c_exp(g, "ones"), Yg)[0] == pytest.approx(np.max(c_dense @ y), rel=1e-12)


# ---- strategies ------------------------------------------------------------------------------


@pytest.mark.parametrize("x", [0.1, 0.9, 0.5, 0.3, 0.7, 0.123456789, 0.8999999999, 0.1000000001])
def test_exact_split_is_a_point_of_definition_d1(x):
    b, c = sas.exact_split(x)
    assert Fraction(b) + Fraction(c) == 1 and min(b, c) >= 0.1 and abs(b - x) < 1e-15


def test_divisors_and_hypothesis_widths():
    assert sas.divisors(10**3) == tuple(sorted(2**i * 5**j for i in range(4) for j in range(4)))
    assert sas.divisors(12) == (1, 2, 3, 4, 6, 12)
    with pytest.raises(ValueError, match="prime factor"):
        sas.divisors(10_007 * 2)
    with pytest.raises(ValueError, match="no divisor"):
        sas.block_widths(10, lo=6, hi=9)


@pytest.mark.parametrize("n", [10**6, 10**9])
@pytest.mark.parametrize("b", [0.1, 0.5, 0.9])
def test_a1_within_budget_meets_the_corrected_hypothesis(n, b):
    a = sas.a1_within_budget(n, b)
    assert 0.7 <= a < 1 and (a + b) * n ** (a - 1) <= 0.05 < (a + 1e-9 + b) * n ** (a + 1e-9 - 1)
    with pytest.raises(ValueError):
        sas.a1_within_budget(100, b)


@settings(max_examples=60, database=None, deadline=None)
@given(sas.case(10**6, 1, sas.hypothesis_width, m_rule=m_smallest), sas.sign_case(10**4, 0, j0=True))
def test_cases_are_valid_by_construction(network, signs):
    p = network.params
    assert p.n % p.k == 0 and math.isqrt(p.n - 1) < p.k <= p.n // 2 and p.a >= 0.7
    assert Fraction(p.b) + Fraction(p.c) == 1 and min(p.b, p.c) >= 0.1
    assert network.m == math.floor(math.log(p.n / network.delta)) + 1 and 0.001 <= network.delta < 0.1
    q = signs.params
    assert 0 < q.a < 0.1 and signs.j0 != q.j3 and 0 <= signs.j0 < q.n and 0.001 <= signs.delta < 0.1


@settings(max_examples=40, database=None, deadline=None)
@given(sas.case(12, 1, sas.any_width(), a0_symbol=True))
def test_a0_symbol_is_drawn_apart_from_the_d1_dataset(case):
    assert case.params.label == 1 and case.params.a >= 0.7 and 0 < case.a0 < 0.1
    assert case.symbol_a == case.a0


@settings(max_examples=30, database=None, deadline=None)
@given(sas.pair_case(10**4))
def test_pair_cases_share_the_network(case):
    p0, p1 = case.d0, case.d1
    assert (p0.n, p0.d, p0.b, p0.c) == (p1.n, p1.d, p1.b, p1.c) and (p0.label, p1.label) == (0, 1)
    assert 0 < p0.a < 0.1 <= 0.7 <= p1.a and case.m == math.ceil(10 * math.log(p0.n / case.delta))


@pytest.mark.parametrize("n, d", [(2, 3), (6, 3), (2, 4), (10, 4), (5, 7), (24, 6), (1000, 12)])
def test_relaxed_counts_as_thin_balls_enclose_the_grouped_values(n, d):
    """Definition D.1 with k = d - 2 and t = n/(d-2) as arb balls (one class structure each): at the
    integer point the relaxed evaluator encloses the integer one's mpmath values, every quantity."""
    from flint import arb

    from attncheck.numeric.interval import ARB, Ball

    p = SelfAttentionParams(n, d, 0.9, 0.25, 0.75, 0, 1)
    g, k, t = sa.Grouped(p), d - 2, n // (d - 2)
    xp = ARB(128)
    with xp.context():
        sym = sa.Symbols(Ball(0.9), Ball(0.25), Ball(0.75), 1)
        r = sa.Relaxed(sym, k_value=Ball(arb(k)), t_real=Ball(arb(t)), same=t >= 2, k_class=min(k, 3))
        assert list(r.keys) == list(g.keys) and list(r.queries) == list(g.queries) and list(r.groups) == list(g.groups)
        for name in ("log_u_exp", "log_f_exp", "f_exp", "c_exp", "f_lin", "c_lin", "alpha_lin"):
            for X in ("ones", "identity"):
                balls = np.ravel(getattr(sa, name)(r, X, xp))
                with mpmath.workdps(40):
                    exact = np.ravel(getattr(sa, name)(g, X, MP(40)))
                    for b, v in zip(balls, exact, strict=False):
                        assert b.x.rad() < 1e-20 * (1 + abs(float(v)))
                        assert b.x.overlaps(arb(mpmath.nstr(v, 35), 1e-30 * (1 + abs(v)))), (name, X, b, v)


@pytest.mark.parametrize("attention", ["exp", "lin"])
def test_c_is_nonnegative_so_network_maxima_need_only_column_maxima(attention):
    """The network claims sample random_signs.column_maxima (per sign pattern, the column with the largest
    wide-group sum): valid since <c_{j0}, y> is nondecreasing in that sum (c >= 0) for every class."""
    large = [SelfAttentionParams(10**15, 10**5 + 2, a, b, 1 - b, j3, label)
             for (label, a), b, j3 in itertools.product(((0, 1e-12), (1, 100.0)), (0.125, 0.875), (0, 7, 10**15 - 1))]
    for p in SMALL + large:
        assert np.all(getattr(sa, f"c_{attention}")(sa.Grouped(p), "ones") >= 0), p
