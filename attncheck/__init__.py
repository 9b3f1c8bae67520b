"""attncheck: property-based verification of the theory of attention.

Public API for writing claims (see README, "Writing your own claims")::

    from attncheck import claim, Erratum, le, ge, lt, gt, close, all_of
"""
from .claims import REGISTRY, Claim, Erratum, Kind, Verdict, claim
from .precision import F64, MP, Slack, all_of, both, close, ge, gt, le, lt

__version__ = "0.1.0"

__all__ = ["REGISTRY", "Claim", "Erratum", "Kind", "Verdict", "claim", "F64", "MP", "Slack",
           "all_of", "both", "close", "ge", "gt", "le", "lt", "__version__"]
