"""Every deterministic claim (kind identity or inequality) of every paper declares ``certify=``: a certificate, its
parameters, or :class:`attncheck.core.declarations.Ineligible` with a reason and a detail. ``certify=None`` records
nothing in the report (attncheck.certify.Certification.stage), so a claim without a declaration would leave no trace of why it
is not CERTIFIED (issue 28, item 2)."""
from pathlib import Path

import pytest

from attncheck import papers
from attncheck.core.declarations import Ineligible
from attncheck.run import loader

PROPERTIES = Path(__file__).resolve().parents[2] / "properties"
CLAIMS = loader.load([PROPERTIES])
DETERMINISTIC = ("identity", "inequality")


@pytest.mark.parametrize("paper", sorted(papers.registry()))
def test_every_deterministic_claim_declares_certify(paper):
    mine = [c for c in CLAIMS if c.paper == paper and c.kind in DETERMINISTIC]
    missing = [c.id for c in mine if c.certify is None]
    assert not missing, f"deterministic claims without certify= (declare a certificate or Ineligible): {missing}"
    bare = [c.id for c in mine if isinstance(c.certify, Ineligible) and not c.certify.detail.strip()]
    assert not bare, f"Ineligible without a detail saying what stands in the way: {bare}"
