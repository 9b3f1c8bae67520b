"""deng2023 Definition 3.8: the toy datasets D0 and D1 (given through the scores Ax).

D0: (Ax)_i in [log n, 1.4 log n] for all i. D1: one index j with (Ax)_j = 4 log n and
(Ax)_i in [log n, 1.4 log n] for i != j. Builders validate and never clip.
"""
from __future__ import annotations

import numpy as np

from attncheck.papers.deng2023.models.toy import GroupedScores

LOW, HIGH, SPIKE = 1.0, 1.4, 4.0  # (Ax)_i in [LOW, HIGH] * log n; the D1 spike is SPIKE * log n


def score_interval(n: int) -> tuple[float, float]:
    """[log n, 1.4 log n], the allowed range of a non-special score."""
    _check_n(n)
    L = float(np.log(n))
    return LOW * L, HIGH * L


def _check_n(n: int) -> None:
    if int(n) != n or n < 2:
        raise ValueError(f"n must be an integer >= 2 (log n > 0), got {n!r}")


def _check_scores(n: int, z: np.ndarray, k: np.ndarray) -> None:
    lo, hi = score_interval(n)
    bad = (z < lo) | (z > hi)
    if np.any(bad):
        raise ValueError(f"D0 scores must lie in [log n, 1.4 log n] = [{lo}, {hi}]; got {z[bad][:3].tolist()}")


def d0(n: int, z, k) -> GroupedScores:
    """A dataset of D0 with score z[g] repeated k[g] times (sum k = n)."""
    _check_n(n)
    s = GroupedScores(np.asarray(z, float), np.asarray(k))
    if s.n != n:
        raise ValueError(f"multiplicities must sum to n={n}, got {s.n}")
    _check_scores(n, s.z, s.k)
    return s


def d1(n: int, z, k) -> GroupedScores:
    """A dataset of D1: the spike 4 log n once, plus scores z[g] repeated k[g] times (sum k = n - 1).

    The spike is group 0 of the result.
    """
    _check_n(n)
    z, k = np.asarray(z, float), np.asarray(k)
    if int(k.sum()) != n - 1:
        raise ValueError(f"non-spike multiplicities must sum to n - 1 = {n - 1}, got {int(k.sum())}")
    _check_scores(n, z, k)
    return GroupedScores(np.concatenate([[SPIKE * np.log(n)], z]), np.concatenate([[1], k]))


def dense_pair(s: GroupedScores, d: int = 3, rng: np.random.Generator | None = None):
    """An explicit (A, x) with A x = the scores exactly: first column the scores, x = e_1.

    The remaining d - 1 columns of A are arbitrary (Gaussian); x has zeros there.
    """
    if d < 1:
        raise ValueError(f"d must be >= 1, got {d}")
    rng = rng or np.random.default_rng(0)
    z = s.dense()
    A = np.column_stack([z, rng.standard_normal((z.size, d - 1))])
    x = np.zeros(d)
    x[0] = 1.0
    return A, x


def uniform(n: int, rng: np.random.Generator, label: int) -> GroupedScores:
    """A dataset with i.i.d. uniform scores in [log n, 1.4 log n] (Section 7.1 draws)."""
    lo, hi = score_interval(n)
    if label not in (0, 1):
        raise ValueError(f"label must be 0 (D0) or 1 (D1), got {label!r}")
    m = n - label
    z = rng.uniform(lo, hi, size=m)
    ones = np.ones(m, np.int64)
    return d0(n, z, ones) if label == 0 else d1(n, z, ones)
