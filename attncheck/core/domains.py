"""Hypothesis strategies over intervals with their boundaries drawn often (any paper's domains).

A tie at a domain's end can hide a failure beside it, so the ends and the points just
inside them are drawn with high probability (docs/design.md, "Corners first").
"""
from __future__ import annotations

import math
from functools import lru_cache, wraps

import numpy as np
from hypothesis import strategies as st

STRATEGY_CACHE = 1024
"""How many strategies :func:`cached_strategy` keeps per factory (the most recently used)."""


def _exact(v):
    """A cache key that tells apart what == does not: 1, 1.0 and True; 0.0 and -0.0."""
    return (type(v), v, math.copysign(1.0, v)) if isinstance(v, float) else (type(v), v)


def cached_strategy(factory):
    """``factory`` with its strategies kept per exact arguments: a strategy is immutable, and a factory
    called once per draw (inside ``@st.composite``) otherwise builds a new object that Hypothesis validates
    again, most of a cheap claim's time. The same arguments give the same strategy, hence the same draws."""

    @lru_cache(maxsize=STRATEGY_CACHE)
    def build(key, args, kwargs):
        return factory(*args, **dict(kwargs))

    @wraps(factory)
    def cached(*args, **kwargs):
        items = tuple(sorted(kwargs.items()))
        return build((tuple(map(_exact, args)), tuple((k, _exact(v)) for k, v in items)), args, items)

    return cached


@cached_strategy
def in_interval(lo: float, hi: float, *, exclude_lo: bool = False, exclude_hi: bool = False):
    """Floats in [lo, hi] with the included endpoints drawn often."""
    ends = [v for v, excl in ((lo, exclude_lo), (hi, exclude_hi)) if not excl]
    inner = st.floats(lo, hi, exclude_min=exclude_lo, exclude_max=exclude_hi, allow_nan=False)
    return st.one_of(st.sampled_from(ends), inner) if ends else inner


@cached_strategy
def integers_with(special: tuple, lo: int, hi: int):
    """Integers in [lo, hi], the values of ``special`` (in its order) drawn often."""
    return st.one_of(st.sampled_from(list(special)), st.integers(lo, hi))


def just_inside(lo: float, hi: float) -> list[float]:
    """Points just inside both ends of [lo, hi] (one float step, relative 1e-9, 1e-6, 1e-3 of the range):
    an exact tie at an end can hide a failure beside it (docs/design.md, "Interpretation policy")."""
    out = [math.nextafter(lo, hi), math.nextafter(hi, lo)]
    for rel in (1e-9, 1e-6, 1e-3):
        out += [lo + rel * (hi - lo), hi - rel * (hi - lo)]
    return sorted({v for v in out if lo < v < hi})


@cached_strategy
def near_ends(lo: float, hi: float, *, exclude_lo: bool = False, exclude_hi: bool = False):
    """Floats in [lo, hi] (ends excluded on request), the ends and the points just inside them drawn often."""
    return st.one_of(st.sampled_from(just_inside(lo, hi)),
                     in_interval(lo, hi, exclude_lo=exclude_lo, exclude_hi=exclude_hi))


@cached_strategy
def partition(m: int, parts: int):
    """Positive integer multiplicities summing to m, in ``parts`` groups (parts <= m)."""
    if not 1 <= parts <= m:
        raise ValueError(f"cannot split {m} into {parts} positive parts")
    if parts == 1:
        return st.just(np.array([m], np.int64))
    cuts = st.lists(st.integers(1, m - 1), min_size=parts - 1, max_size=parts - 1, unique=True)
    return cuts.map(lambda c: np.diff(np.array([0, *sorted(c), m], np.int64)))
