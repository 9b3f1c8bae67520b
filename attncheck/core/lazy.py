"""Modules imported where they are first used.

``sympy = lazy.module("sympy")`` binds a stand-in whose first attribute access imports SymPy; every later access
reads the attribute the stand-in kept. A process that loads claims, or runs claims that never reach exact
arithmetic, certification or a Monte Carlo test, then does not pay SciPy's stats (about 1.4 s of CPU), SymPy
(0.7 s), python-flint or mpmath at its start (docs/measurements.md, "Process start and integration tests").
What is imported, and so every result, is the same; only the moment of the import moves.
"""
from __future__ import annotations

import importlib


class _Module:
    """Stands for the module ``name`` until an attribute is read, then imports it and keeps what was read."""

    def __init__(self, name: str):
        object.__setattr__(self, "_lazy_name", name)

    def __getattr__(self, attr: str):
        if attr.startswith("__"):  # copy, pickle and introspection ask for dunders: not a use of the module
            raise AttributeError(attr)
        value = getattr(importlib.import_module(self._lazy_name), attr)
        object.__setattr__(self, attr, value)
        return value

    def __setattr__(self, attr: str, value) -> None:
        raise AttributeError(f"set {attr} on the module {self._lazy_name} itself, not on its lazy stand-in")

    def __repr__(self) -> str:
        return f"<lazy module {self._lazy_name!r}>"


def module(name: str) -> _Module:
    """A stand-in for the module ``name``, imported on its first attribute access."""
    return _Module(name)
