"""Sums of i.i.d. Rademacher signs over groups of coordinates, drawn in bulk.

A random sign vector enters the papers' claims only through inner products with
vectors that are constant on groups of coordinates, i.e. through the group sums.
The sum of k signs is 2 Binomial(k, 1/2) - k, exact in distribution; drawn here as
single random bits (k = 1), a popcount of k random bits (k <= 62), or numpy's binomial
sampler (larger k), one group at a time (a scalar k is several times faster than a
broadcast array of k).

:func:`column_maxima` draws, for a network of m such columns, only the columns that can be
the largest under a score nondecreasing in the one wide group's sum (the network theorems'
max_l <c, y_l> with c >= 0): per sign pattern of the one-column groups, the largest wide sum,
drawn in one step by inversion of the law of a maximum of binomials (:func:`binomial_maxima`).
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy import stats

from attncheck.core.draws import replayed

TABLE_SD = 38.0
"""Half-width, in standard deviations, of the support of Binomial(w, 1/2) that :func:`binomial_maxima` tabulates:
beyond it the probability is below 1e-300 (float64's smallest normal number is 2.2e-308)."""
TABLE_MAX = 1 << 21
"""Most entries of that table (w up to about 3e9, 16 MiB); for a wider group the maxima are taken over drawn sums."""


@replayed
def rademacher_group_sums(k, rng: np.random.Generator, shape: tuple, dtype=np.int64) -> np.ndarray:
    """Sums of k[g] i.i.d. Rademacher signs, independently for every leading index.

    Returns integers of shape ``shape + (len(k),)`` (a read-only view of group-major storage), of type ``dtype``
    (:func:`narrowest` for the least memory; the values do not depend on it). A repeated draw (the same arguments and
    generator state: the screen's common random numbers) is replayed (:func:`.draws.replayed`).
    """
    k = np.asarray(k, np.int64)
    if k.ndim != 1 or np.any(k < 0):
        raise ValueError(f"group sizes must be a 1-d array of integers >= 0, got {k!r}")
    if k.size and 2 * int(k.max()) > np.iinfo(dtype).max:
        raise ValueError(f"dtype {np.dtype(dtype).name} cannot hold 2 max(k) = {2 * int(k.max())} (sums are "
                         f"formed as 2 ones - k)")
    shape = tuple(shape)
    out = np.empty(k.shape + shape, dtype)  # group-major: every group's fill is contiguous
    out[k == 0] = 0  # an empty group sums to 0
    single = np.flatnonzero(k == 1)
    count = int(np.prod(shape, dtype=np.int64)) * single.size
    if count:
        bits = np.unpackbits(np.frombuffer(rng.bytes(-(-count // 8)), np.uint8), count=count)
        bits = bits.reshape(shape + single.shape)
        for s, g in enumerate(single):
            _signed(bits[..., s], 1, out[g, ...])
    for g in np.flatnonzero(k > 1):
        w = int(k[g])
        _signed(_ones(w, rng, shape), w, out[g, ...])
    return np.moveaxis(out, 0, -1)


def _ones(w: int, rng: np.random.Generator, shape: tuple) -> np.ndarray:
    """How many of w i.i.d. Rademacher signs are +1: Binomial(w, 1/2), as a popcount of w random bits
    (w <= 62) or by numpy's binomial sampler."""
    return (np.bitwise_count(rng.integers(0, 1 << w, shape, dtype=np.uint64)) if w <= 62
            else rng.binomial(w, 0.5, shape))


@replayed
def column_maxima(k, rng: np.random.Generator, shape: tuple, dtype=np.int64) -> np.ndarray:
    """Group sums of the columns of m i.i.d. Rademacher columns (``shape = lead + (m,)``) that suffice for
    max_l s(y_l), for every score s nondecreasing in the sum over the one group wider than 1 column.

    Such a column is fixed by its pattern of signs on the one-column groups (2^s patterns) and its wide sum;
    among columns of one pattern the largest wide sum has the largest score. So, per pattern, the column with
    the largest wide sum is returned, drawn in law as the m columns: the numbers of columns of each pattern are
    Multinomial(m, uniform), their wide sums i.i.d. 2 Binomial(w, 1/2) - w, of which the maximum is kept (drawn
    at once by :func:`binomial_maxima`, or as the maximum of drawn sums for w beyond its table). A pattern no
    column has repeats a column that the draw has (a repeated column leaves a maximum unchanged).
    Returns ``lead + (2^s, len(k))`` integers of type ``dtype``, read-only; where 2^s >= m, or more than one group
    is wide, the m columns themselves (:func:`rademacher_group_sums`), which serve as well. A repeated draw (the same
    arguments and generator state: the screen's common random numbers) is replayed (:func:`.draws.replayed`).
    """
    k = np.asarray(k, np.int64)
    shape = tuple(shape)
    single, wide = np.flatnonzero(k == 1), np.flatnonzero(k > 1)
    patterns = 1 << single.size
    if not shape or wide.size > 1 or patterns >= shape[-1]:
        return rademacher_group_sums(k, rng, shape, dtype=dtype)
    if k.size and 2 * int(k.max()) > np.iinfo(dtype).max:
        raise ValueError(f"dtype {np.dtype(dtype).name} cannot hold 2 max(k) = {2 * int(k.max())}")
    lead, m = shape[:-1], shape[-1]
    rows = int(np.prod(lead, dtype=np.int64))
    counts = rng.multinomial(m, np.full(patterns, 1.0 / patterns), size=rows)  # (rows, patterns)
    present = counts > 0
    first = np.argmax(present, axis=1)  # a pattern every draw has
    pick = np.where(present, np.arange(patterns), first[:, None])  # (rows, patterns)
    signs = np.zeros((patterns, k.size), dtype)  # pattern p's sign on one-column group i: bit i of p
    signs[:, single] = 2 * ((np.arange(patterns)[:, None] >> np.arange(single.size)) & 1) - 1
    out = signs[pick]
    if wide.size:
        w = int(k[wide[0]])
        top = (binomial_maxima(w, counts, rng) if _max_table(w) is not None
               else segment_maxima(_ones(w, rng, (rows, m)), counts))
        _signed(np.take_along_axis(top, pick, axis=1), w, out[..., wide[0]])
    return out.reshape(lead + (patterns, k.size))


@lru_cache(maxsize=4)
def _max_table(w: int):
    """(lo, log F) with F(lo + i) = P(B <= lo + i), B ~ Binomial(w, 1/2), over the support within TABLE_SD standard
    deviations of w/2 (float64 pmf, each tail accumulated from its end); None beyond TABLE_MAX entries."""
    half = int(TABLE_SD * math.sqrt(w) / 2) + 1
    lo, hi = max(0, w // 2 - half), min(w, w // 2 + half + 1)
    if hi - lo + 1 > TABLE_MAX:
        return None
    pmf = stats.binom.pmf(np.arange(lo, hi + 1), w, 0.5)
    cdf = np.cumsum(pmf)
    above = np.concatenate([np.cumsum(pmf[::-1])[::-1][1:], [0.0]])  # P(B > x)
    with np.errstate(divide="ignore", invalid="ignore"):  # each branch is used where it is finite and accurate
        log_cdf = np.where(cdf <= 0.5, np.log(cdf), np.log1p(-above))
    return lo, np.maximum.accumulate(log_cdf)


def binomial_maxima(w: int, counts, rng: np.random.Generator) -> np.ndarray:
    """The maximum of ``counts`` (integers >= 0, any shape) i.i.d. Binomial(w, 1/2) draws, each in one draw by
    inversion: P(max <= x) = F(x)^N, so max = min{x : N log F(x) >= log U}, U uniform on (0, 1], F tabulated in
    float64 (relative error ~1e-14) on the support within TABLE_SD standard deviations of w/2 (the rest has
    probability < 1e-300); 0 where the count is 0."""
    table = _max_table(w)
    if table is None:
        raise ValueError(f"w = {w} needs more than TABLE_MAX = {TABLE_MAX} table entries")
    lo, log_cdf = table
    counts = np.asarray(counts)
    with np.errstate(divide="ignore"):
        target = np.log1p(-rng.random(counts.shape)) / np.maximum(counts, 1)
    top = lo + search(log_cdf, target)
    return np.where(counts > 0, top, 0)


SORTED_SEARCH = 1 << 20
"""Table size from which :func:`search` sorts its queries first: a binary search per query misses the cache on a
table this large (8 MiB and more), sorted queries walk it in order (about twice as fast at 1-2 million entries)."""


def search(table, queries) -> np.ndarray:
    """``np.searchsorted(table, queries, side="left")``, the same indices; on a table of SORTED_SEARCH entries or
    more, through the sorted queries."""
    if table.size < SORTED_SEARCH or queries.size < 1024:
        return np.searchsorted(table, queries, side="left")
    flat = queries.ravel()
    order = np.argsort(flat)
    out = np.empty(flat.size, np.intp)
    out[order] = np.searchsorted(table, flat[order], side="left")
    return out.reshape(queries.shape)


def segment_maxima(values, counts) -> np.ndarray:
    """Per row, the maximum of each of the consecutive segments of ``values`` (rows, m) >= 0 whose lengths are
    ``counts`` (rows, segments), summing to m; 0 for an empty segment."""
    values, counts = np.asarray(values), np.asarray(counts)
    rows, m = values.shape
    flat = np.concatenate([values.ravel(), np.zeros(1, values.dtype)])  # the last segment ends at a 0 (values >= 0)
    starts = (np.cumsum(counts, axis=1) - counts) + m * np.arange(rows)[:, None]
    top = np.maximum.reduceat(flat, starts.ravel()).reshape(counts.shape)
    return np.where(counts > 0, top, 0)


def _signed(ones, w, out):
    """out = 2 ones - w: the sum of w signs of which ``ones`` are +1."""
    np.copyto(out, ones, casting="unsafe")
    out *= 2
    out -= w


def narrowest(k) -> np.dtype:
    """The narrowest signed integer type that holds 2 max(k), hence every group sum of k signs and the sampler's
    intermediate 2 ones: a quarter to an eighth of int64's memory for the network theorems' draws."""
    top = 2 * int(np.max(k, initial=0))
    return next(np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64) if top <= np.iinfo(t).max)
