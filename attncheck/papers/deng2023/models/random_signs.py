"""Sums of i.i.d. Rademacher signs over groups of coordinates, drawn in bulk.

A random sign vector enters the papers' claims only through inner products with
vectors that are constant on groups of coordinates, i.e. through the group sums.
The sum of k signs is 2 Binomial(k, 1/2) - k, exact in distribution; drawn here as
single random bits (k = 1), a popcount of k random bits (k <= 62), or numpy's binomial
sampler (larger k), one group at a time (a scalar k is several times faster than a
broadcast array of k).
"""
from __future__ import annotations

import numpy as np


def rademacher_group_sums(k, rng: np.random.Generator, shape: tuple, dtype=np.int64) -> np.ndarray:
    """Sums of k[g] i.i.d. Rademacher signs, independently for every leading index.

    Returns integers of shape ``shape + (len(k),)`` (a view of group-major storage), of type ``dtype``
    (:func:`narrowest` for the least memory; the values do not depend on it).
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
        ones = (np.bitwise_count(rng.integers(0, 1 << w, shape, dtype=np.uint64)) if w <= 62
                else rng.binomial(w, 0.5, shape))
        _signed(ones, w, out[g, ...])
    return np.moveaxis(out, 0, -1)


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
