"""Slacks known as arb balls (attncheck.numeric.enclosure) through the escalation of precision.holds: decided exactly
where the ball excludes 0, undecided where it contains 0, a tie only for the exact 0."""
import pytest
from flint import arb

from attncheck.numeric import enclosure
from attncheck.numeric.precision import F64, MP, Escalation, holds


def _decide(ball, strict=False, rhs=0):
    """precision.holds on the slack of ``ball(prec) >= rhs`` (a function of the working precision)."""
    esc = Escalation()
    d = holds(lambda xp, idx: enclosure.ge(lambda prec: (ball(prec), rhs), xp, strict), stats=esc)
    return bool(d.ok[0]), bool(d.undecided[0]), d.notes, esc


def test_a_ball_away_from_0_is_decided_in_float64():
    assert _decide(lambda prec: arb(0.3, 1e-20))[:2] == (True, False)
    assert _decide(lambda prec: arb(-0.3, 1e-20))[:2] == (False, False)


def test_a_slack_tiny_against_its_scale_is_decided_by_a_higher_precision():
    """1 + 10^-25 >= 1 with a radius 2^-prec: neither float64's margin nor dps 30 (10^-18 relative) decides it,
    dps 60 (304 bits) does."""
    ok, undecided, _, esc = _decide(lambda prec: 1 + arb(10) ** -25 + arb(0, 2.0**-prec), rhs=1)
    assert (ok, undecided, esc.escalated, esc.max_dps) == (True, False, 1, 60)


@pytest.mark.parametrize("mid", [0.0, 1e-14, -1e-14])
def test_a_ball_that_contains_0_stays_undecided(mid):
    """At every precision (the radius does not shrink: a tie the balls cannot resolve), then no exact value."""
    ok, undecided, notes, esc = _decide(lambda prec: arb(mid, 1e-13))
    assert (ok, undecided, esc.exact) == (False, True, 0)
    assert "arb ball" in notes[0]["undecided"]


@pytest.mark.parametrize("strict", [False, True])
def test_the_exact_0_is_a_tie(strict):
    assert _decide(lambda prec: arb(0), strict)[:2] == (not strict, False)


def test_the_working_precision_follows_the_backend():
    assert enclosure.bits(F64) == 128 and enclosure.bits(MP(60)) == 304
    with pytest.raises(TypeError, match="no enclosure"):
        enclosure.bits(type("Symbols", (), {"name": "sympy", "native": False, "precise": False, "exact": False}))
