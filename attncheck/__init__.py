"""attncheck: property-based verification of the theory of attention.

The public API for writing claims (docs/writing-claims.md); nothing else is public::

    from attncheck import claim, Reading, Erratum, Space, Real, Int, Choice, le, ge, lt, gt, close, all_of
"""
from attncheck.core.claims import REGISTRY, Claim, Cost, Erratum, Kind, Outside, Verdict, claim
from attncheck.core.declarations import Cases, Certificate, Ineligible, OwnSpace, Parameters
from attncheck.core.estimate import Estimate, batch_estimate
from attncheck.core.paths import grid
from attncheck.core.reading import Provenance, Reading, Reason, Shared, Unchecked
from attncheck.core.space import Choice, Int, Real, Space
from attncheck.numeric.precision import F64, MP, Slack, all_of, both, close, ge, gt, le, lt

__version__ = "0.1.0"

__all__ = [
    "REGISTRY", "Claim", "Cost", "Erratum", "Kind", "Outside", "Verdict", "claim", "Estimate", "batch_estimate",
    "Cases", "Certificate", "Ineligible", "OwnSpace", "Parameters",
    "grid", "Choice", "Int", "Real", "Space",
    "Provenance", "Reading", "Reason", "Shared", "Unchecked",
    "F64", "MP", "Slack", "all_of", "both", "close", "ge", "gt", "le", "lt",
    "__version__",
]
