"""attncheck: property-based verification of the theory of attention.

Public API for writing claims (see README, "Writing your own claims")::

    from attncheck import claim, Erratum, Space, Real, Int, Choice, le, ge, lt, gt, close, all_of
"""
from attncheck.core.claims import REGISTRY, Claim, Cost, Erratum, Kind, Verdict, claim
from attncheck.core.space import Choice, Int, Real, Space
from attncheck.numeric.precision import F64, MP, Slack, all_of, both, close, ge, gt, le, lt

__version__ = "0.1.0"

__all__ = ["REGISTRY", "Claim", "Cost", "Erratum", "Kind", "Verdict", "claim", "Choice", "Int", "Real", "Space",
           "F64", "MP", "Slack",
           "all_of", "both", "close", "ge", "gt", "le", "lt", "__version__"]
