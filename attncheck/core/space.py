"""A claim's declared parameter space: named parameters with ranges the engine can read.

A Hypothesis strategy only draws cases; it cannot list a domain's corners or tell an
optimizer which coordinates it may move. A :class:`Space` can: it names each
parameter with its range (:class:`Real`, :class:`Int`, :class:`Choice`) and a
``build`` function mapping the parameter values to the case the evaluator receives.

The engine uses it to enumerate corners (boundary values and points just inside each
boundary), to draw cases (:meth:`Space.strategy`, boundaries included), to cover it
with a space-filling design (:meth:`Space.design`), and to refine the tightest cases
with a bounded optimizer over the real coordinates.
"""
from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st

from attncheck.core import lazy

qmc = lazy.module("scipy.stats.qmc")  # SciPy's stats only where a design is drawn

#: relative offset of the "just inside" points from a boundary
INSIDE = (1e-9, 1e-6, 1e-3)


@dataclass(frozen=True)
class Real:
    """A real parameter in [lo, hi]; ``open_lo``/``open_hi`` exclude an endpoint.

    ``log=True`` (lo > 0) makes the search and the optimizer work in log scale, for
    parameters spanning decades (n in [4, 1e15]).
    """

    lo: float
    hi: float
    open_lo: bool = False
    open_hi: bool = False
    log: bool = False

    def __post_init__(self):
        if not (math.isfinite(self.lo) and math.isfinite(self.hi) and self.lo <= self.hi):
            raise ValueError(f"Real needs finite lo <= hi, got [{self.lo}, {self.hi}]")
        if self.log and self.lo <= 0:
            raise ValueError(f"Real(log=True) needs lo > 0, got lo = {self.lo}")
        if self.lo == self.hi and (self.open_lo or self.open_hi):
            raise ValueError(f"Real({self.lo}, {self.hi}) with an open end is empty")

    def contains(self, v: float) -> bool:
        return ((self.lo < v) if self.open_lo else (self.lo <= v)) and ((v < self.hi) if self.open_hi else (v <= self.hi))

    def _toward(self, a: float, b: float, rel: float) -> float:
        if self.log:
            return float(math.exp(math.log(a) + rel * (math.log(b) - math.log(a))))
        return float(a + rel * (b - a))

    def corners(self) -> list[float]:
        """The included endpoints, then points just inside each end (nearest first)."""
        out = [v for v, excl in ((self.lo, self.open_lo), (self.hi, self.open_hi)) if not excl]
        if self.lo < self.hi:
            for rel in INSIDE:
                out += [self._toward(self.lo, self.hi, rel), self._toward(self.hi, self.lo, rel)]
            lo_next, hi_next = np.nextafter(self.lo, self.hi), np.nextafter(self.hi, self.lo)
            out += [float(lo_next), float(hi_next)]
        return _unique([v for v in out if self.contains(v)])

    def strategy(self):
        ends = [v for v in self.corners()[:2] if self.contains(v)]
        if self.log:
            inner = st.floats(math.log(self.lo), math.log(self.hi)).map(math.exp).filter(self.contains)
        else:
            inner = st.floats(self.lo, self.hi, exclude_min=self.open_lo, exclude_max=self.open_hi,
                              allow_nan=False)
        return st.one_of(st.sampled_from(ends), inner) if ends else inner

    # optimizer coordinates: the unit interval mapped onto [lo, hi] (log scale if asked)
    def to_unit(self, v: float) -> float:
        if self.lo == self.hi:
            return 0.0
        if self.log:
            return (math.log(v) - math.log(self.lo)) / (math.log(self.hi) - math.log(self.lo))
        return (v - self.lo) / (self.hi - self.lo)

    def from_unit(self, u: float) -> float:
        u = min(max(float(u), 0.0), 1.0)
        v = self._toward(self.lo, self.hi, u) if self.lo < self.hi else self.lo
        v = min(max(v, self.lo), self.hi)
        if not self.contains(v):  # an open end: step inside
            v = float(np.nextafter(v, self.hi if v <= self.lo else self.lo))
        return v


@dataclass(frozen=True)
class Int:
    """An integer parameter in [lo, hi] (both included); ``log=True`` spreads draws over decades."""

    lo: int
    hi: int
    log: bool = False

    def __post_init__(self):
        if int(self.lo) != self.lo or int(self.hi) != self.hi or self.lo > self.hi:
            raise ValueError(f"Int needs integers lo <= hi, got [{self.lo}, {self.hi}]")
        if self.log and self.lo <= 0:
            raise ValueError(f"Int(log=True) needs lo > 0, got lo = {self.lo}")

    def contains(self, v) -> bool:
        return int(v) == v and self.lo <= v <= self.hi

    def corners(self) -> list[int]:
        return _unique([v for v in (self.lo, self.hi, self.lo + 1, self.hi - 1) if self.lo <= v <= self.hi])

    def strategy(self):
        inner = st.integers(self.lo, self.hi)
        if self.log and self.hi > 10 * self.lo:
            decades = st.floats(math.log(self.lo), math.log(self.hi)).map(
                lambda x: min(self.hi, max(self.lo, int(round(math.exp(x))))))
            inner = st.one_of(inner, decades)
        return st.one_of(st.sampled_from(self.corners()[:2]), inner)


@dataclass(frozen=True)
class Choice:
    """One of finitely many values (a label, a variant); every value is a corner."""

    values: tuple

    def __post_init__(self):
        if not self.values:
            raise ValueError("Choice needs at least one value")

    def contains(self, v) -> bool:
        return v in self.values

    def corners(self) -> list:
        return list(self.values)

    def strategy(self):
        return st.sampled_from(self.values)


Param = Real | Int | Choice


class Space:
    """Named parameters and ``build(**values) -> case`` (default: the dict of values).

    ``Space(a1=Real(0.7, 20), b=Real(0, 1, open_lo=True), n=Int(4, 10**15, log=True))``
    """

    def __init__(self, build: Callable[..., Any] | None = None, **params: Param):
        if not params:
            raise ValueError("a Space needs at least one parameter")
        for name, p in params.items():
            if not isinstance(p, (Real, Int, Choice)):
                raise TypeError(f"parameter {name!r}: expected Real, Int or Choice, got {type(p).__name__}")
        self.params = dict(params)
        self.build = build

    def case(self, values: dict):
        bad = [k for k, p in self.params.items() if not p.contains(values[k])]
        if bad:
            raise ValueError("values outside the space: " + ", ".join(f"{k}={values[k]!r}" for k in bad))
        return self.build(**values) if self.build is not None else dict(values)

    @property
    def reals(self) -> list[str]:
        """Names of the real coordinates (the optimizer moves only these)."""
        return [k for k, p in self.params.items() if isinstance(p, Real) and p.lo < p.hi]

    def values(self):
        """Strategy of parameter values (dicts), boundaries included."""
        return st.fixed_dictionaries({k: p.strategy() for k, p in self.params.items()})

    def strategy(self):
        """Strategy of cases: :meth:`values` mapped through ``build``."""
        return self.values().map(self.case)

    def to_unit(self, values: dict) -> list[float]:
        """The real coordinates of ``values`` in the unit cube (optimizer coordinates)."""
        return [self.params[k].to_unit(values[k]) for k in self.reals]

    def from_unit(self, u, base: dict) -> dict:
        """``base`` with its real coordinates set from the unit-cube point ``u``."""
        out = dict(base)
        for k, ui in zip(self.reals, u, strict=False):
            out[k] = self.params[k].from_unit(ui)
        return out

    def from_cube(self, u) -> dict:
        """Values of every parameter from a point of the unit cube (one coordinate each):
        reals through :meth:`Real.from_unit`, integers and choices by equal-width cells."""
        out = {}
        for (k, p), ui in zip(self.params.items(), u, strict=False):
            ui = min(max(float(ui), 0.0), 1.0)
            if isinstance(p, Real):
                out[k] = p.from_unit(ui)
            elif isinstance(p, Int) and p.log and p.lo < p.hi:
                out[k] = min(p.hi, max(p.lo, int(round(math.exp(math.log(p.lo) + ui * math.log(p.hi / p.lo))))))
            elif isinstance(p, Int):
                out[k] = min(p.hi, p.lo + int(ui * (p.hi - p.lo + 1)))
            else:
                out[k] = p.values[min(len(p.values) - 1, int(ui * len(p.values)))]
        return out

    def design(self, n: int, seed: int) -> list[dict]:
        """``n`` space-filling parameter values: a scrambled Sobol sequence in the unit cube
        (one coordinate per parameter), seeded. For ``n`` a power of two each coordinate is
        stratified exactly: every interval [k/n, (k+1)/n) of it holds one point."""
        if n <= 0:
            return []
        with warnings.catch_warnings():  # balance warning when n is not a power of two (scaled budgets)
            warnings.simplefilter("ignore", UserWarning)
            u = qmc.Sobol(len(self.params), scramble=True, seed=np.random.default_rng(seed)).random(n)
        return [self.from_cube(row) for row in u]

    def random_values(self, rng) -> dict:
        """A uniform point (log-uniform where declared) for optimizer starts; seeded by ``rng``."""
        out = {}
        for k, p in self.params.items():
            if isinstance(p, Real):
                out[k] = p.from_unit(rng.random())
            elif isinstance(p, Int):
                out[k] = int(rng.integers(p.lo, p.hi, endpoint=True))
            else:
                out[k] = p.values[int(rng.integers(len(p.values)))]
        return out

    def corners(self, budget: int) -> list[dict]:
        """Parameter values at the corners of the space, at most ``budget`` of them.

        First every combination of the endpoints (the "vertices"), then each
        parameter's just-inside points with the others at their endpoints, in a fixed
        order, so a budget cut is reproducible.
        """
        names = list(self.params)
        cs = {k: self.params[k].corners() for k in names}
        ends = {k: c[:2] if not isinstance(self.params[k], Choice) else c for k, c in cs.items()}
        out, seen = [], set()

        def add(vals):
            key = tuple(vals)
            if key not in seen and len(out) < budget:
                seen.add(key)
                out.append(dict(zip(names, vals, strict=False)))

        for vals in itertools.product(*(ends[k] for k in names)):
            add(vals)
            if len(out) >= budget:  # the product of many choices can be huge
                return out
        for i, k in enumerate(names):
            for v in cs[k][len(ends[k]):]:
                for rest in itertools.product(*(ends[j] for j in names if j != k)):
                    vals = list(rest)
                    vals.insert(i, v)
                    add(vals)
                    if len(out) >= budget:
                        return out
        return out


def _unique(vals: list) -> list:
    seen, out = set(), []
    for v in vals:
        if v not in seen:
            seen.add(v)
            out.append(v)
    return out
