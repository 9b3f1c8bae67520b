"""A Space read off a claim's Hypothesis strategy, where that reading is exact.

A claim written with ``domain=`` only (no ``space=``) gives the engine nothing to take
corners of, to cover or to optimise over. Many such strategies are simple products of
bounded ranges: ``st.floats(lo, hi)``, ``st.integers(lo, hi)``, ``st.sampled_from(...)``,
``st.just(v)``, combined by ``st.tuples``, ``st.fixed_dictionaries``, ``st.lists`` (up to
``MAX_PARAMS`` elements; a varying length is a parameter of its own), ``st.builds`` and
``.map(f)``. For these :func:`derive` builds the equivalent :class:`~attncheck.core.space.Space`: every case it
builds is one the strategy can draw (the
same parameters through the same maps), so the corners, the design and the optimizer
search the claim's own domain, no more. Anything else (filters, ``one_of``, flat-maps,
unbounded floats, floats without subnormals across zero, unique lists, more than
``MAX_PARAMS`` parameters) gives ``None``: the claim keeps Hypothesis alone.

Strategies are read through Hypothesis' strategy objects (pinned in constraints.txt);
any attribute that is not where expected also gives ``None``, never a guess.
"""
from __future__ import annotations

import math

from attncheck.core.space import Choice, Int, Real, Space

#: more parameters than this: no derived Space (the corners' product and Powell need few)
MAX_PARAMS = 12
#: a sampled_from with more values than this: no derived Space (each value is a corner)
MAX_CHOICES = 1024
_SUBNORMAL = 5e-324


class _NotExact(Exception):
    pass


def derive(strategy) -> Space | None:
    """The Space equivalent to ``strategy``, or None where no exact one is known."""
    try:
        params, build = _node(strategy, "x")
    except Exception:  # _NotExact, or a strategy object not shaped as expected: no guess
        return None
    if not params or len(params) > MAX_PARAMS:
        return None
    return Space(build=lambda **values: build(values), **params)


def _node(s, name: str):
    """(parameters, build: values -> the value ``s`` draws from them) of the sub-strategy ``s``."""
    kind = type(s).__name__
    if kind == "LazyStrategy":
        return _node(s.wrapped_strategy, name)
    if kind == "FloatStrategy":
        return {name: _real(s)}, lambda v: v[name]
    if kind == "IntegersStrategy":
        if s.start is None or s.end is None:
            raise _NotExact("unbounded integers")
        return {name: Int(int(s.start), int(s.end))}, lambda v: v[name]
    if kind in ("SampledFromStrategy", "JustStrategy"):
        if s._transformations or len(s.elements) > MAX_CHOICES:
            raise _NotExact("sampled_from with maps/filters, or too many values to list as corners")
        values = tuple(s.elements)
        hash(values)  # TypeError (no Space) for unhashable values
        return {name: Choice(values)}, lambda v: v[name]
    if kind == "TupleStrategy":
        return _product([(f"{name}_{i}", e) for i, e in enumerate(s.element_strategies)], tuple)
    if kind == "ListStrategy":
        return _list(s, name)
    if kind == "FixedDictStrategy":
        if s.optional or not all(isinstance(k, str) and k.isidentifier() for k in s.mapping):
            raise _NotExact("optional keys, or keys that are not names")
        keys = list(s.mapping)
        params, build = _product([(f"{name}_{k}", s.mapping[k]) for k in keys], list)
        return params, lambda v: dict(zip(keys, build(v), strict=False))
    if kind == "BuildsStrategy":
        keys = list(s.kwargs)
        params, build = _product([(f"{name}_{i}", a) for i, a in enumerate(s.args)]
                                 + [(f"{name}_{k}", s.kwargs[k]) for k in keys], list)
        n = len(s.args)
        return params, lambda v: (lambda xs: s.target(*xs[:n], **dict(zip(keys, xs[n:], strict=False))))(build(v))
    if kind == "MappedStrategy":
        params, build = _node(s.mapped_strategy, name)
        return params, lambda v: s.pack(build(v))
    raise _NotExact(kind)


def _list(s, name: str):
    """A list of ``min_size..max_size`` elements: its length is a parameter of its own
    (``<name>_len``), and the first ``length`` of ``max_size`` element parameters are used."""
    lo, hi = int(s.min_size), s.max_size
    if hi is None or hi > MAX_PARAMS:
        raise _NotExact("list without a small maximal size")
    params, build = _product([(f"{name}_{i}", s.element_strategy) for i in range(hi)], list)
    if lo == hi:
        return params, build
    size = f"{name}_len"
    if size in params or len(params) >= MAX_PARAMS:
        raise _NotExact("too many parameters, or two with one name")
    params[size] = Int(lo, hi)
    return params, lambda v: build(v)[: v[size]]


def _product(parts, collect):
    params, builds = {}, []
    for name, sub in parts:
        p, b = _node(sub, name)
        if len(params) + len(p) > MAX_PARAMS or set(p) & set(params):
            raise _NotExact("too many parameters, or two with one name")
        params.update(p)
        builds.append(b)
    return params, lambda v: collect(b(v) for b in builds)


def _real(s) -> Real:
    """``st.floats(lo, hi)`` as ``Real(lo, hi)``: finite bounds, and every float between
    them drawable (a strategy without subnormals cannot give the points beside 0)."""
    lo, hi = float(s.min_value), float(s.max_value)
    if not (math.isfinite(lo) and math.isfinite(hi)) or s.allow_nan:
        raise _NotExact("unbounded floats")
    tiny = float(s.smallest_nonzero_magnitude)
    if tiny > _SUBNORMAL and lo < tiny and hi > -tiny and not (lo == hi == 0.0):
        raise _NotExact("floats without subnormals across zero")
    return Real(lo, hi)
