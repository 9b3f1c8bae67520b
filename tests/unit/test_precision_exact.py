"""Ties decided in exact arithmetic, and violations that are only the rounding of an evaluator's float constants
(attncheck.numeric.exact; docs/writing-claims.md, "Ties and float constants")."""
from fractions import Fraction

import numpy as np
import pytest
from planted import PLANTED

from attncheck.numeric import exact
from attncheck.numeric.exact import EXACT, floats_of, read
from attncheck.numeric.precision import Slack, ge, gt, holds
from attncheck.run.session import run_claim as run


def max_softmax_lse(x, bound):
    """max_i softmax(x)_i >= bound(x, xp), written with logsumexp (the issue's first form)."""
    return lambda xp, idx: ge(xp.exp(np.max(x) - xp.logsumexp(x)), bound(x, xp), xp)


def max_softmax_sum(x, bound, strict=False):
    """max_i softmax(x)_i >= bound(x, xp) (> if strict), written as 1 / sum exp(x - max x) (the second form)."""
    return lambda xp, idx: (gt if strict else ge)(1 / xp.sum(xp.exp(x - np.max(x))), bound(x, xp), xp)


def float_bound(x, xp):
    return 1.0 / len(x)


def xp_bound(x, xp):
    return 1 / xp.asarray(float(len(x)))


def test_read_gives_the_short_rational_a_float_rounds_and_nothing_else():
    assert read(0.2) == Fraction(1, 5) and read(1 / 3) == Fraction(1, 3) and read(0.1) == Fraction(1, 10)
    assert read(0.5) is None and read(3.0) is None  # dyadic: their binary value is the rational
    assert read(np.pi) is None and read(1 + 1e-13) is None and read(1e-300) is None


def test_floats_of_walks_a_case():
    class Data:
        def __init__(self):
            self.w, self.name = np.array([[0.7]]), "w"

    case = {"x": np.array([0.2, 0.2, 1.5]), "t": (0.1, 3, True), "n": 4, "data": Data()}
    assert floats_of(case) == {0.2, 1.5, 0.1, 0.7}


@pytest.mark.parametrize("form", [max_softmax_lse, max_softmax_sum])
@pytest.mark.parametrize("n", [2, 3, 4, 5, 7])
def test_an_attained_bound_through_xp_is_decided_exactly(form, n):
    # constant x: max softmax is exactly 1/n; mpmath only bounds the slack, the exact evaluation settles it
    d = holds(form(np.full(n, 1.5), xp_bound), inputs=np.full(n, 1.5))
    assert d.ok.all() and not d.undecided.any()


def test_a_strict_tie_fails_exactly():
    d = holds(max_softmax_sum(np.zeros(3), xp_bound, strict=True), inputs=np.zeros(3))
    assert not d.ok.any() and not d.undecided.any() and d.rel[0] == 0.0


def test_exact_evaluation_settles_what_240_digits_cannot():
    one = np.array([1.0])
    d = holds(lambda xp, idx: Slack(xp.asarray(one) * xp.asarray(2.0) ** -1000, xp.asarray(one)))
    assert d.ok.all() and not d.undecided.any()


@pytest.mark.parametrize("form", [max_softmax_lse, max_softmax_sum])
def test_a_float_constant_violation_is_diagnosed_not_refuted(form):
    x = np.zeros(5)
    as_written = holds(form(x, float_bound))  # without inputs, no reading: 1.0/5 is 1.1e-17 above 1/5
    assert not as_written.ok.any() and not as_written.undecided.any()
    d = holds(form(x, float_bound), inputs=x)
    assert d.ok.all() and not d.undecided.any()
    (note,) = d.notes
    assert note["constants"] == [{"value": 0.2, "read_as": "1/5"}] and "holds" in note
    assert "xp.asarray" in note["advice"] and -1e-15 < note["relative_slack"] < 0


@pytest.mark.parametrize("bound", [lambda x, xp: (1 + 1e-13) / len(x), lambda x, xp: (1 + 1e-13) / xp.asarray(5.0)])
def test_a_violation_above_the_constants_rounding_stands(bound):
    x = np.zeros(5)
    d = holds(max_softmax_sum(x, bound), inputs=x)
    assert not d.ok.any() and not d.undecided.any() and not d.notes


def test_an_input_is_never_read_as_a_rational():
    # 1/5 >= x fails at the input x = 0.2 (its binary value is above 1/5): the case's own float is not a constant
    x = np.array([0.2])
    d = holds(lambda xp, idx: ge(1 / xp.asarray(5.0), x[0], xp), inputs=x)
    assert not d.ok.any() and not d.notes


def irrational_tie(xp):
    """exp(sqrt(2 + sqrt 3)) - exp(sqrt 6/2) exp(sqrt 2/2): zero, no rewriting of exact.sign shows it, and mpmath's
    roundings leave a residue near 10^-dps."""
    r3 = xp.sqrt(xp.asarray(3.0))
    return xp.exp(xp.sqrt(2 + r3)) - xp.exp(xp.sqrt(2 * r3 * r3) / 2) * xp.exp(xp.sqrt(xp.asarray(2.0)) / 2)


def test_an_irrational_tie_stays_undecided_with_its_reason():
    d = holds(lambda xp, idx: Slack(irrational_tie(xp), 1.0))
    assert d.undecided.all() and not d.ok.any()
    assert "no exact rewriting decides the sign of" in d.notes[0]["undecided"]


def test_a_reading_that_leaves_a_tie_is_undecided_with_the_constant_named():
    # fails by 0.1 - 1/10 as written; with 0.1 read as 1/10 it is the irrational tie: undecided, never refuted
    d = holds(lambda xp, idx: Slack(irrational_tie(xp) + (1 / xp.asarray(10.0) - 0.1), 1.0), inputs=())
    assert d.undecided.all() and not d.ok.any()
    (note,) = d.notes
    assert note["constants"] == [{"value": 0.1, "read_as": "1/10"}] and "no exact rewriting" in note["undecided"]


def test_an_evaluator_that_needs_a_float_stays_undecided_with_why():
    def branching(xp, idx):
        v = irrational_tie(xp)
        return Slack(v if float(xp.to_float(v)) < 1 else -v, 1.0)

    d = holds(branching)
    assert d.undecided.all() and "not evaluated exactly: TypeError" in d.notes[0]["undecided"]


def test_the_exact_evaluation_is_bounded_without_a_clock():
    many = exact.MAX_OPS + 10
    out = exact.decide(lambda xp, idx: Slack(xp.sum(xp.exp(xp.asarray(np.linspace(0, 1, many)))), 1.0), [0])
    assert out.signs == [None] and "TooLarge" in out.why
    out = exact.decide(lambda xp, idx: Slack(xp.asarray(1.1) ** xp.asarray(1e9), 1.0), [0])
    assert out.signs == [None] and "exponent" in out.why
    # n^-a as exp(-a log n) with a drawn float: SymPy's exact 360^(-0.0999) does not finish; it is refused at once
    out = exact.decide(lambda xp, idx: Slack(xp.exp(xp.asarray(-0.0999) * xp.log(xp.asarray(360.0))), 1.0), [0])
    assert out.signs == [None] and "not small" in out.why
    assert exact.decide(lambda xp, idx: Slack(xp.exp(xp.log(xp.asarray(360.0)) / 2) - 6, 1.0), [0]).signs == [1]


def test_the_exact_backend_compares_and_picks_exactly():
    xp = EXACT()
    a = xp.asarray(np.array([0.5, 2.0]))
    assert xp.maximum(a, 1.0)[0].e == 1 and xp.minimum(a, 1.0)[1].e == 1
    assert bool(xp.exp(xp.log(xp.asarray(3.0))) == 3)


def test_an_undecided_claim_shows_its_case_and_a_deep_tie_holds():
    rec = run(PLANTED.get("planted/precision/undecidable"), "quick", seed=0)
    assert rec["verdict"] == "INCONCLUSIVE" and rec["evidence"]["escalation"]["undecided"] >= 1
    assert "e.g. at 3.0 (element 0): no exact rewriting decides the sign of" in rec["evidence"]["reason"]
    assert rec["evidence"]["undecided_cases"][0]["case"] == "3.0"
    rec = run(PLANTED.get("planted/precision/below-240"), "quick", seed=0)
    assert rec["verdict"] == "HOLDS" and rec["evidence"]["escalation"]["exact"] >= 1
