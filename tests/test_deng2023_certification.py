"""deng2023's certification declarations: every deterministic claim declares a route or a reason; the
D.1 and F.1 boxes cover their structures; claims certified exactly / by sign factors, stated errata
refuted by the same routes (re-checked in mpmath)."""
import sys
from collections import Counter
from pathlib import Path

import pytest

from attncheck import certify_params as cp
from attncheck.cli import load
from attncheck.claims import REGISTRY

PROPERTIES = Path(__file__).resolve().parent.parent / "properties"
load([str(p) for p in sorted(PROPERTIES.glob("test_deng2023_*.py"))])
declare = sys.modules["deng2023_certification"]

DETERMINISTIC = [c for c in REGISTRY if c.id.startswith("deng2023/") and c.kind.value in ("identity", "inequality")]


def test_every_deterministic_claim_declares_a_route_or_a_reason():
    assert len(DETERMINISTIC) == 173
    kinds = Counter(type(c.certify).__name__ for c in DETERMINISTIC)
    assert set(kinds) == {"Cases", "Ineligible"} and kinds["Cases"] == 131
    for c in DETERMINISTIC:
        if isinstance(c.certify, cp.Ineligible):
            assert c.certify.reason in cp.REASONS and c.certify.detail


def test_cross_attention_structures():
    cases = declare.cross(1, pair="distinct", min_d=3)
    assert [label for label, _ in cases.parts] == ["d >= 3, t >= 2, j2 != j3", "d >= 3, t = 1, j2 != j3"]
    assert len(declare.cross(0).parts) == 6
    part = cases.parts[0][1]
    assert part.box["k"] == (2.0, declare.N_MAX / 2) and part.box["a1"] == declare.F_A_RANGE["a1"]
    integer = part.case({"k": 5.0, "t": 2.0, "a0": 0.05, "a1": 2.0})  # a point: the sampled evaluator's case
    assert (integer.n, integer.d, integer.j2, integer.j3) == (10, 6, 1, 0)


def _certify(cid):
    c = REGISTRY.get(cid)
    return cp.run_cases(c.evaluate, c.certify)


@pytest.mark.parametrize("cid, route", [
    ("deng2023/lemma-d.10/part-4b", "symbolic-interval"),
    ("deng2023/lemma-d.2/part-1a", "symbolic ("),
    ("deng2023/lemma-d.6/part-4a-corrected", "symbolic-interval"),
    ("deng2023/lemma-f.2/part-4b", "symbolic ("),
    ("deng2023/lemma-f.7/part-2", "symbolic-interval"),
])
def test_claims_certified_over_every_structure(cid, route):
    out = _certify(cid)
    assert out.status == "certified" and out.certified_fraction == 1.0 and out.route.startswith(route)


@pytest.mark.parametrize("cid", ["deng2023/lemma-d.6/part-1a", "deng2023/lemma-d.14/part-4b",
                                 "deng2023/lemma-f.2/part-4a", "deng2023/lemma-f.6/part-3a"])
def test_stated_errata_are_refuted_by_the_symbolic_route(cid):
    assert REGISTRY.get(cid).erratum is not None
    out = _certify(cid)
    assert out.status == "refuted" and "re-checked in mpmath" in out.counterexample["found_by"]
    assert float(out.counterexample["slack"]) < 0
