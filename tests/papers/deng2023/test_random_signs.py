"""The shared sampler of Rademacher group sums."""
import math

import numpy as np
import pytest
from scipy import stats
from scipy.stats import chi2_contingency

from attncheck.papers.deng2023.models.random_signs import (
    _max_table,
    binomial_maxima,
    column_maxima,
    narrowest,
    rademacher_group_sums,
    search,
    segment_maxima,
)


def test_group_sums_have_the_rademacher_law():
    rng = np.random.default_rng(0)
    widths = np.array([1, 1, 3, 62, 63, 10**6, 10**12, 0])
    Y = rademacher_group_sums(widths, rng, (200_000,))
    assert Y.shape == (200_000, 8) and Y.dtype == np.int64
    for i, w in enumerate(widths[:-1]):
        assert np.all((Y[:, i] - w) % 2 == 0) and np.abs(Y[:, i]).max() <= w
        assert Y[:, i].mean() == pytest.approx(0, abs=5 * math.sqrt(w / 200_000))
        assert Y[:, i].var() == pytest.approx(w, rel=0.02)
    assert set(np.unique(Y[:, 2])) == {-3, -1, 1, 3}
    assert not Y[:, -1].any()  # an empty group sums to 0


def test_leading_shape_and_independence():
    Y = rademacher_group_sums([1, 5], np.random.default_rng(1), (4000, 3))
    assert Y.shape == (4000, 3, 2)
    assert abs(np.corrcoef(Y[:, 0, 1], Y[:, 1, 1])[0, 1]) < 0.05


def test_bad_group_sizes_are_rejected():
    with pytest.raises(ValueError, match="integers >= 0"):
        rademacher_group_sums([-1], np.random.default_rng(0), (2,))


def test_the_stream_is_pinned():
    """Reports replay bit for bit only if a seed keeps giving the same sums: a change of the
    sampler's layout or order must not change them (md5 recorded before the group-major layout)."""
    import hashlib

    pinned = {((1, 1, 1, 14, 1), (1600, 20)): "afa9e04147c6a754", ((0, 3, 0, 1), (10, 3, 2)): "2d5626e71dadeab5",
              ((1, 1, 1, 10**6, 1), (7,)): "0f582f45e7581d91", ((3, 1, 70, 1), ()): "5dc615d8f04ed1ab"}
    for (k, shape), digest in pinned.items():
        Y = np.ascontiguousarray(rademacher_group_sums(k, np.random.default_rng(5), shape))
        assert Y.shape == shape + (len(k),)
        assert hashlib.md5(Y.tobytes()).hexdigest()[:16] == digest, (k, shape)


@pytest.mark.parametrize("k, shape", [((1, 1, 1, 14, 1), (1600, 20)), ((0, 3, 0, 1), (10, 3, 2)),
                                      ((1, 1, 1, 10**6, 1), (7,)), ((3, 1, 70, 1), ()), ((1, 63, 1), (500,))])
def test_a_narrow_dtype_gives_the_same_sums(k, shape):
    wide = rademacher_group_sums(k, np.random.default_rng(5), shape)
    dtype = narrowest(k)
    narrow = rademacher_group_sums(k, np.random.default_rng(5), shape, dtype=dtype)
    assert narrow.dtype == dtype
    assert np.array_equal(narrow.astype(np.int64), wide)


def test_narrowest_holds_twice_the_widest_group():
    assert [narrowest(k).name for k in ([1, 63], [1, 64], [16383], [16384], [2**30 - 1], [2**30])] == \
        ["int8", "int16", "int16", "int32", "int32", "int64"]
    with pytest.raises(ValueError, match="cannot hold 2 max"):
        rademacher_group_sums([1, 64], np.random.default_rng(0), (3,), dtype=np.int8)


def test_segment_maxima_are_the_maxima_of_consecutive_segments():
    rng = np.random.default_rng(7)
    for _ in range(300):
        rows, m, segments = rng.integers(1, 5), rng.integers(1, 30), rng.integers(1, 9)
        values = rng.integers(0, 50, (rows, m))
        counts = rng.multinomial(m, np.full(segments, 1 / segments), size=rows)
        ends = np.cumsum(counts, axis=1)
        want = [[values[r, e - c:e].max() if c else 0 for c, e in zip(counts[r], ends[r], strict=True)]
                for r in range(rows)]
        assert np.array_equal(segment_maxima(values, counts), want)


@pytest.mark.parametrize("k", [(1, 1, 1, 7, 1), (1, 1, 200, 1), (1, 0, 1, 1), (0, 1, 1, 40)])
def test_column_maxima_are_columns_with_the_group_sum_law(k):
    Y = column_maxima(k, np.random.default_rng(3), (3000, 40), dtype=narrowest(k))
    singles = [i for i, w in enumerate(k) if w == 1]
    assert Y.shape == (3000, 2 ** len(singles), len(k)) and Y.dtype == narrowest(k)
    for i, w in enumerate(k):
        assert np.all((Y[..., i] - w) % 2 == 0) and np.abs(Y[..., i]).max() <= w
    assert np.all(np.abs(Y[..., singles]) == 1)


def test_column_maxima_fall_back_to_the_columns():
    """More sign patterns than columns, or two wide groups: the m columns themselves."""
    assert column_maxima((1, 1, 1, 1, 1, 9), np.random.default_rng(0), (50, 20)).shape == (50, 20, 6)
    assert column_maxima((1, 5, 9), np.random.default_rng(0), (50, 20)).shape == (50, 20, 3)


@pytest.mark.parametrize("w, count", [(7, 5), (3, 1), (30, 20), (200, 40)])
def test_binomial_maxima_have_the_law_of_the_maximum(w, count):
    """P(max <= x) = F(x)^N: chi-square goodness of fit over the support."""
    top = binomial_maxima(w, np.full(100_000, count), np.random.default_rng(w))
    law = np.diff(stats.binom.cdf(np.arange(-1, w + 1), w, 0.5) ** count)
    seen = np.bincount(top, minlength=w + 1)
    keep = law * top.size > 5  # the cells of smaller expectation are pooled into one
    if not keep.all():
        seen, law = np.append(seen[keep], seen[~keep].sum()), np.append(law[keep], law[~keep].sum())
    assert stats.chisquare(seen, law / law.sum() * seen.sum()).pvalue > 1e-3


@pytest.mark.parametrize("w", [998, 10**6, 5 * 10**8])
def test_binomial_maxima_of_wide_groups_match_maxima_of_drawn_sums(w):
    rng = np.random.default_rng(4)
    one = binomial_maxima(w, np.array([0, 25] * 10_000), rng)
    drawn = rng.binomial(w, 0.5, (10_000, 25)).max(axis=1)
    assert not one[::2].any()
    assert stats.ks_2samp(one[1::2], drawn).pvalue > 1e-3


@pytest.mark.parametrize("w", [10**6, 3 * 10**9])
def test_search_through_sorted_queries_gives_the_indices_of_searchsorted(w):
    """The sorted-query search of large tables returns np.searchsorted's indices exactly, ties with table
    entries (side 'left'), repeated queries and the ends included; a planted side='right' search differs."""
    _, table = _max_table(w)
    rng = np.random.default_rng(7)
    queries = np.concatenate([np.log1p(-rng.random(40_000)) / rng.integers(1, 30, 40_000),
                              table[rng.integers(0, table.size, 5_000)],  # exact ties with entries
                              [0.0, -np.inf, table[0], table[-1], -1e300, -40.0] * 50]).reshape(-1, 10)
    plain = np.searchsorted(table, queries, side="left")
    got = search(table, queries)
    assert got.shape == queries.shape and got.dtype == plain.dtype
    np.testing.assert_array_equal(got, plain)
    assert (table.size >= 1 << 20) == (w == 3 * 10**9)  # the large table takes the sorted path
    assert np.any(np.searchsorted(table, queries, side="right") != got)


def test_binomial_maxima_refuse_groups_beyond_the_table():
    with pytest.raises(ValueError, match="TABLE_MAX"):
        binomial_maxima(10**12, np.array([3]), np.random.default_rng(0))


@pytest.mark.parametrize("k, m", [((1, 1, 1, 7, 1), 40), ((1, 1, 1, 120, 1), 25), ((1, 1, 1, 1), 30),
                                  ((1, 1, 1, 10**12, 1), 30)])
def test_column_maxima_give_the_law_of_a_monotone_network_maximum(k, m):
    """max_l max_j <c_j, y_l> with c >= 0 (the network theorems): the same law from the kept columns as
    from all m columns (chi-square test of homogeneity, two seeds)."""
    c = np.random.default_rng(11).random((3, len(k))) * np.array([1, 1, 1, 0.1, 1][:len(k)])
    tops = [np.max(np.asarray(sample(k, np.random.default_rng(seed), (40_000, m)), float) @ c.T, axis=(-2, -1))
            for sample, seed in ((rademacher_group_sums, 1), (column_maxima, 2))]
    if max(k) > 1000:  # nearly continuous: Kolmogorov-Smirnov
        assert stats.ks_2samp(*tops).pvalue > 1e-3
    else:
        values = np.unique(np.round(np.concatenate(tops), 9))
        table = np.array([[np.sum(np.round(t, 9) == v) for v in values] for t in tops])
        assert chi2_contingency(table[:, table.sum(axis=0) >= 20])[1] > 1e-3
    assert abs(tops[0].mean() - tops[1].mean()) < 4 * tops[0].std() / math.sqrt(20_000)
