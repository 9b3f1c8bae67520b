"""A Monte Carlo estimate with its standard error: the rate form of an asymptotic claim.

An asymptotic evaluator either returns one ratio per draw (the implied constant is then a
quantile of them) or, when the bounded quantity is itself an estimate from the draws (a
variance, a mean, a squared norm of a mean), one :class:`Estimate` of it: its value and its
standard error. The engine then treats the value as one noisy measurement, never as if it
were every draw.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Estimate:
    """``value`` estimated from Monte Carlo draws, with standard error ``se`` (>= 0)."""

    value: float
    se: float

    def __post_init__(self):
        if not (math.isfinite(self.value) and math.isfinite(self.se) and self.se >= 0):
            raise ValueError(f"Estimate needs a finite value and a finite se >= 0, got {self.value!r}, {self.se!r}")

    def scaled(self, k: float) -> Estimate:
        """The estimate of ``k * value`` (e.g. n^power times a rate)."""
        return Estimate(k * self.value, abs(k) * self.se)


def _rows(draws, idx):
    if isinstance(draws, tuple):
        return tuple(d[idx] for d in draws)
    if isinstance(draws, dict):
        return {k: v[idx] for k, v in draws.items()}
    return draws[idx]


def _size(draws) -> int:
    if isinstance(draws, tuple):
        return len(draws[0])
    if isinstance(draws, dict):
        return len(next(iter(draws.values())))
    return len(draws)


def batch_estimate(stat: Callable, draws, batches: int = 8) -> Estimate:
    """``stat(draws)`` with a batch-means standard error.

    The draws (an array, a tuple or a dict of arrays, one row per draw) are split into
    ``batches`` contiguous batches of equal size; the statistic of each batch estimates the
    same quantity from 1/batches of the draws, so the standard error of the full-sample
    statistic is ``sd(batch statistics) / sqrt(batches)`` (batch means; exact for a mean, first
    order for a smooth function of means such as a variance or a squared norm of a mean).
    """
    if batches < 2:
        raise ValueError(f"batch_estimate needs >= 2 batches, got {batches}")
    size = _size(draws)
    if size < 2 * batches:
        raise ValueError(f"batch_estimate needs >= 2 draws per batch, got {size} draws for {batches} batches")
    edges = np.linspace(0, size, batches + 1).astype(int)
    parts = [float(stat(_rows(draws, slice(a, b)))) for a, b in zip(edges[:-1], edges[1:], strict=True)]
    return Estimate(float(stat(draws)), float(np.std(parts, ddof=1) / math.sqrt(batches)))
