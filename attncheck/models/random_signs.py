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


def rademacher_group_sums(k, rng: np.random.Generator, shape: tuple) -> np.ndarray:
    """Sums of k[g] i.i.d. Rademacher signs, independently for every leading index.

    Returns integers of shape ``shape + (len(k),)``.
    """
    k = np.asarray(k, np.int64)
    if k.ndim != 1 or np.any(k < 0):
        raise ValueError(f"group sizes must be a 1-d array of integers >= 0, got {k!r}")
    shape = tuple(shape)
    out = np.zeros(shape + k.shape, np.int64)  # an empty group sums to 0
    single = np.flatnonzero(k == 1)
    count = int(np.prod(shape, dtype=np.int64)) * single.size
    if count:
        bits = np.unpackbits(np.frombuffer(rng.bytes(-(-count // 8)), np.uint8), count=count)
        out[..., single] = 2 * bits.reshape(shape + single.shape).astype(np.int64) - 1
    for g in np.flatnonzero(k > 1):
        w = int(k[g])
        ones = (np.bitwise_count(rng.integers(0, 1 << w, shape, dtype=np.uint64)) if w <= 62
                else rng.binomial(w, 0.5, shape))
        out[..., g] = 2 * ones.astype(np.int64) - w
    return out
