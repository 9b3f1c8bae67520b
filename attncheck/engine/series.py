"""Paths over (beta, n): a scaling path with a dimension of its own besides n.

An "eventually" claim whose hypothesis admits a family of growth laws (d = n^beta for every
beta in an interval) is checked along n separately for each member: the path is a grid of
points ``{"beta": b, "n": n}`` (:func:`attncheck.core.paths.grid`), and :mod:`.verdict` judges each *series* (the
points sharing every coordinate but n, :func:`series_key`) by the eventually-rule on its own
(a failure at its largest n refutes only if its failure rate does not fall), then combines:
REFUTED if some series is, else INCONCLUSIVE if some series is, else HOLDS, with where each
series holds along n.
"""
from __future__ import annotations


def series_key(point) -> tuple:
    """The coordinates of a path point other than n (``()`` for a plain n)."""
    if isinstance(point, dict):
        return tuple((k, v) for k, v in point.items() if k != "n")
    return ()


def split(points: list) -> list[tuple[tuple, list]]:
    """Path points (or records with ``.point``) grouped by series, in order of first appearance."""
    groups: dict[tuple, list] = {}
    for p in points:
        groups.setdefault(series_key(getattr(p, "point", p)), []).append(p)
    return list(groups.items())
