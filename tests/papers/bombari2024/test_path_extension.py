"""bombari2024's asymptotic claims: every point an undecided path can be extended to (engine.extend.next_points,
the deep profile's asym_extra_points rounds, never past the claim's n_max) has cases to search. The d drawn at n
keeps D = n d within the claim's budget, so without n_max the extension once reached an n with no d."""
from pathlib import Path

import pytest
from hypothesis import HealthCheck, find, settings

from attncheck.core.profiles import get_profile
from attncheck.engine.extend import next_points
from attncheck.run import loader

CLAIMS = [c for c in loader.load([Path(__file__).parents[3] / "properties" / "bombari2024"])
          if c.kind.value == "asymptotic" and c.path is not None]


def _reachable(c) -> list:
    points, new = list(c.points("deep")), []
    for _ in range(get_profile("deep").asym_extra_points):
        new = next_points(c, points)
        if not new:
            break
        points += new
    return points


@pytest.mark.parametrize("c", CLAIMS, ids=lambda c: c.id)
def test_every_reachable_point_has_a_case(c):
    for point in _reachable(c)[len(c.points("deep")) - 1:]:  # the path's last point and every extension
        find(c.strategy(point), lambda _: True, settings=settings(database=None, max_examples=1,
                                                                  suppress_health_check=list(HealthCheck)))
