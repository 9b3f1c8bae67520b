"""The papers, one package each, found by :func:`registry`.

A package under ``attncheck/papers/`` that exports ``PAPER`` (:class:`attncheck.core.paper.Paper`) is a paper.
Folders named in the environment variable ``ATTNCHECK_PAPERS`` (``os.pathsep``-separated) are searched too, so
a paper kept outside the installed package is found the same way.
"""
from __future__ import annotations

import importlib
import os
import pkgutil

from attncheck.core.paper import Paper

ENV = "ATTNCHECK_PAPERS"
__path__ += [p for p in os.environ.get(ENV, "").split(os.pathsep) if p]  # noqa: F821 (the package's own path)


def registry() -> dict[str, Paper]:
    """Every paper, by key, in key order."""
    found = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):  # noqa: F821
        if not info.ispkg:
            continue
        paper = getattr(importlib.import_module(f"{__name__}.{info.name}"), "PAPER", None)
        if isinstance(paper, Paper):
            if paper.key != info.name:
                raise ValueError(f"paper package {info.name!r} declares key {paper.key!r}: they must be equal")
            found[paper.key] = paper
    return found


def experiments_module(paper: Paper):
    """The module that reproduces a paper's experiments (None when it declares none)."""
    return importlib.import_module(f"{__name__}.{paper.key}.{paper.experiments}") if paper.experiments else None
