"""attncheck: property-based verification of the theory of attention.

The public API for writing claims (docs/writing-claims.md); nothing else is public::

    from attncheck import claim, Reading, Erratum, Space, Real, Int, Choice, le, ge, lt, gt, close, all_of

Each name is imported where it is defined on first use, so that a process that needs none of them (``attncheck
--help``, a usage error, ``attncheck report`` before its pytest starts) does not load SciPy, SymPy and Hypothesis.
"""
import importlib

__version__ = "0.1.0"

_HOMES = {
    "attncheck.core.claims": ("REGISTRY", "Claim", "Cost", "Erratum", "Kind", "Outside", "Verdict", "claim"),
    "attncheck.core.declarations": ("Cases", "Certificate", "Ineligible", "OwnSpace", "Parameters"),
    "attncheck.core.estimate": ("Estimate", "batch_estimate"),
    "attncheck.core.paths": ("grid",),
    "attncheck.core.reading": ("Provenance", "Reading", "Reason", "Shared", "Unchecked"),
    "attncheck.core.space": ("Choice", "Int", "Real", "Space"),
    "attncheck.numeric.precision": ("F64", "MP", "Slack", "all_of", "both", "close", "ge", "gt", "le", "lt"),
}
_HOME = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [*_HOME, "__version__"]


def __getattr__(name: str):
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOME[name]), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted({*globals(), *_HOME})
