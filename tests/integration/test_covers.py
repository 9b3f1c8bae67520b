"""A certification declaration that ``covers`` its claim's domain (core.declarations.COVERS) lets the engine skip
the search of a certified claim; here every such claim's domain is drawn, at every point of both profiles' paths,
at its corners and on a design, and every case must lie in the box of its part (so a skip never narrows the domain)."""
import math

import pytest

from attncheck import cli
from attncheck.core.declarations import Cases, Parameters
from attncheck.engine import choices

CORNERS, DESIGN = 8, 8
COVERING = [c for c in cli.load(None) if isinstance(c.certify, (Cases, Parameters)) and c.certify.covers]


def _inside(box: dict, coords: dict, integers: tuple) -> list[str]:
    """The coordinates outside their ranges (an integer one must also be an integer)."""
    out = [name for name, (lo, hi) in box.items() if not lo <= coords[name] <= hi]
    out += [name for name in integers if coords[name] != math.floor(coords[name])]
    return out + sorted(set(coords) - set(box))


def test_claims_that_skip_their_search_are_declared_with_a_way_to_check_it():
    assert COVERING, "no claim declares a covering certification"
    assert all(c.certify.locate is not None for c in COVERING)


def _check(claim):
    decl = claim.certify
    parts = dict(decl.parts) if isinstance(decl, Cases) else None
    for profile in ("quick", "deep"):
        for point in claim.points(profile):
            strategy = claim.strategy(point)
            drawn = [*choices.corners(strategy, CORNERS, seed=0), *choices.cases(strategy, DESIGN, seed=0)]
            assert drawn, f"{claim.id}: no case drawn at {point}"
            for case in drawn:
                if parts is None:
                    box, coords = decl, decl.locate(case)
                else:
                    label, coords = decl.locate(case)
                    assert label in parts, f"{claim.id} at {point}: {case!r} is of structure {label!r}, not certified"
                    box = parts[label]
                bad = _inside(box.box, coords, box.integers)
                assert not bad, f"{claim.id} at {point} ({profile}): {case!r} has {bad} outside {box.box}: {coords}"


@pytest.mark.parametrize("claim", COVERING, ids=lambda c: c.id)
def test_every_drawn_case_lies_in_the_certified_box(claim):
    _check(claim)


def test_a_box_narrower_than_the_domain_is_caught():
    """x <= 1 drawn on [0, 2] with a box [0, 1] declared covering: certified on the box, false beyond it; the
    engine would skip its search, so this check must fail it."""
    from planted_certify import PLANTED_CERTIFY  # tests/support, on the path (tests/conftest.py)

    with pytest.raises(AssertionError, match="outside"):
        _check(PLANTED_CERTIFY.get("planted/certify-own/covering-too-narrow"))
