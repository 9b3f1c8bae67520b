"""The symbolic route to CERTIFIED: the SymPy backend, inf-sup intervals, sign factors and their forms,
planted false claims refuted and true twins certified."""
import random

import mpmath
import numpy as np
import pytest
import sympy
from flint import arb

from attncheck import close, ge
from attncheck.certify import sign_forms as sf
from attncheck.certify import symbolic as cs
from attncheck.numeric.endpoints import Iv, compile_iv, expm1, exprel, of_box
from attncheck.numeric.interval import ARB, Undecided
from attncheck.numeric.symbolic import SYM, Exact, const, sign

X0 = 1.0 / 3.0
k, t, a, x = (sympy.Symbol(s, positive=True) for s in ("k", "t", "a", "x"))


# ---- inf-sup intervals --------------------------------------------------------------------------

def test_a_product_encloses_every_product_of_its_factors_and_is_attained_at_its_ends():
    rnd = random.Random(0)
    for _ in range(400):  # every sign pattern of the two factors, zero ends included
        f, g = (sorted(rnd.choice([0.0, rnd.uniform(-3, 3)]) for _ in range(2)) for _ in range(2))
        out = Iv(arb(f[0]), arb(f[1])) * Iv(arb(g[0]), arb(g[1]))
        ends = [u * v for u in f for v in g]  # exact in binary64 up to rounding; the range is their hull
        for u in np.linspace(*f, 5):
            for v in np.linspace(*g, 5):
                assert out.lo <= arb(u) * arb(v) <= out.hi
        assert out.lo <= min(ends) and out.hi >= max(ends)
        assert float(out.hi - out.lo) <= max(ends) - min(ends) + 1e-12 * (1 + max(map(abs, ends)))


def test_a_positive_range_over_fifteen_decades_stays_positive():
    n = Iv(arb(4.0), arb(1e15))
    assert n.log().sign(strict=True) == 1 and n.sqrt().known and (1 / n).sign(strict=True) == 1
    ball = arb(4.0).union(arb(1e15))  # the arb ball of the same range reaches below 0: log is nan
    assert not ball.log().is_finite()


EXPRESSIONS = [
    sympy.log(k * t) * a - sympy.exp(-a * sympy.log(k)) / (t + 1),
    expm1(a * sympy.log(k)) * k ** (a - 1) - sympy.sqrt(sympy.log(t)) + (k - 2) ** 3 / (k + t),
    sympy.Abs(a - sympy.Rational(1, 2)) * sympy.log(1 + 1 / k) - t ** 2 * a ** -2,
    exprel(a * sympy.log(k) - 2) * t - exprel(-a * sympy.log(t)),
]


@pytest.mark.parametrize("expr", EXPRESSIONS, ids=str)
def test_compiled_intervals_enclose_the_values_at_random_points(expr):
    rng = random.Random(0)
    f = compile_iv(expr)
    for _ in range(40):
        box = {"k": sorted(10 ** rng.uniform(0.4, 15) for _ in range(2)),
               "t": sorted(10 ** rng.uniform(0.4, 6) for _ in range(2)),
               "a": sorted(rng.uniform(0.01, 3) for _ in range(2))}
        with ARB(128).context():
            enclosure = f(of_box(box))
        point = {s: sympy.Float(rng.uniform(*box[s.name]), 30) for s in expr.free_symbols}
        for s in expr.free_symbols:  # the point lies inside its box (closed ends included)
            point[s] = min(max(point[s], box[s.name][0]), box[s.name][1])
        plain = expr.subs(point).replace(expm1, lambda z: sympy.exp(z) - 1).replace(
            exprel, lambda z: (sympy.exp(z) - 1) / z)
        v = mpmath.mpf(str(sympy.N(plain, 40)))
        lo, hi = (mpmath.mpf(e.str(40, radius=False)) for e in (enclosure.lo, enclosure.hi))
        assert enclosure.known and lo - abs(lo) * 1e-30 <= v <= hi + abs(hi) * 1e-30


def test_intervals_are_three_valued():
    assert Iv(arb(-1), arb(2)).sign() == 0 and Iv(arb(-1), arb(2)).definite() == 0
    assert Iv(arb(0)).sign(strict=False) == 1 and Iv(arb(0)).sign(strict=True) == -1 and Iv(arb(0)).definite() == 0
    assert Iv(arb(-2), arb(-1)).log().known is False  # outside log's domain: nothing is known


# ---- the SymPy backend ----------------------------------------------------------------------------

def test_float_constants_enter_as_their_exact_binary_value():
    assert const(0.1) == sympy.Rational(3602879701896397, 36028797018963968) and const(3) == 3


def test_maximum_is_decided_by_assumptions_or_the_box_else_undecided():
    xp = SYM({"a": (0.7, 100.0), "k": (3.0, 1e15)})
    L = sympy.log(k)
    assert xp.maximum((1 + a) ** 2 * L, (1 + a) * L) == (1 + a) ** 2 * L  # a (a + 1) log k > 0 on the box
    assert xp.minimum(a, a + 1) == a
    with pytest.raises(Undecided):
        SYM({"a": (0.1, 2.0)}).maximum(a, sympy.Integer(1))
    assert sign(a - 1, {"a": (1.5, 2.0)}) == 1 and sign(a - 1, {"a": (0.1, 2.0)}) is None


def test_close_on_symbols_is_the_identity_itself():
    s = close(x * 2, x + x, rtol=1e-9, xp=SYM())
    assert isinstance(s, Exact) and sympy.simplify(s.value) == 0


# ---- identities -------------------------------------------------------------------------------------

def _identity(shift):
    def evaluate(case, xp):
        y = xp.asarray(case["x"])
        return close(xp.log(xp.exp(y)) * xp.exp(y) / xp.exp(y), y * (1 + shift), rtol=1e-9, xp=xp)
    return evaluate


def test_an_exact_identity_is_rewritten_to_zero_and_one_wrong_by_1e_14_is_not():
    box = {"x": (0.5, 4.0)}
    out = cs.run(_identity(0.0), dict, box)
    assert out.status == "certified" and out.route == cs.IDENTITY_ROUTE
    out = cs.run(_identity(1e-14), dict, box)
    assert out.status == "refuted" and box["x"][0] <= out.point["x"] <= box["x"][1]


def test_an_evaluator_that_branches_on_symbols_is_not_applicable():
    def evaluate(case, xp):
        y = xp.asarray(case["x"])
        return ge(y if y > 1 else -y, 0.0, xp)
    assert cs.run(evaluate, dict, {"x": (0.5, 4.0)}).status == "not applicable"


# ---- inequalities -------------------------------------------------------------------------------

def _tight(margin):
    """log(n^a + n - 1) >= log(n + margin): true for margin = 0 (slack ~ a log n / n, 1e-27 relative at
    n = 10^15, a = 10^-12), false for margin = 1e-9 where n^a - 1 < 1e-9 (a log n < 1e-9)."""
    def evaluate(case, xp):
        n, e = xp.asarray(case["n"]), xp.asarray(case["a"])
        return ge(xp.log(xp.exp(e * xp.log(n)) + n - 1), xp.log(n + margin), xp)
    return evaluate


BOX = {"n": (4.0, 1e15), "a": (1e-12, 0.1)}


def test_a_tight_bound_over_fifteen_decades_is_certified_and_its_false_twin_refuted():
    out = cs.run(_tight(0.0), dict, BOX, log=("n", "a"))
    assert out.status == "certified" and out.route == cs.INEQUALITY_ROUTE
    out = cs.run(_tight(1e-9), dict, BOX, log=("n", "a"))
    assert out.status == "refuted"
    n, e = out.point["n"], out.point["a"]
    with mpmath.workdps(50):
        assert mpmath.log(mpmath.mpf(n) ** e + n - 1) < mpmath.log(mpmath.mpf(n) + mpmath.mpf(1e-9))


def test_a_bound_false_on_a_1e_6_share_is_refuted_near_its_failure():
    def evaluate(case, xp):
        y = xp.asarray(case["x"])
        return ge((y - X0) ** 2, 2.5e-13, xp)
    out = cs.run(evaluate, dict, {"x": (0.0, 1.0)})
    assert out.status == "refuted" and abs(out.point["x"] - X0) < 5e-7


FACTORS = [
    sympy.exp(a * sympy.log(k * t)) - 1,  # pairs with expm1
    k * (t - 1) + sympy.exp(a * sympy.log(k * t)) - k * t,  # divided forms
    a ** 2 + a * k * t - a * k + a,  # shifted polynomial
]


@pytest.mark.parametrize("expr", FACTORS, ids=str)
def test_every_form_has_the_sign_of_its_factor(expr):
    whole = {"k": (3.0, 1e12), "t": (2.0, 1e9), "a": (1e-9, 0.1)}
    rng = random.Random(1)
    forms = sf.forms(expr, whole, log=("k", "t", "a"))
    assert len(forms) >= 2
    for _ in range(25):
        point = {n: 10 ** rng.uniform(np.log10(lo), np.log10(hi)) for n, (lo, hi) in whole.items()}
        thin = {n: (v, v) for n, v in point.items()}
        with ARB(200).context():
            signs = {f.value(thin).definite() for f in forms}
        assert len(signs - {0}) == 1, (point, signs)


def test_a_sum_of_logs_reduces_to_one_factor():
    box = {"k": (3.0, 1e12), "a": (0.7, 100.0)}
    factors = sf.sign_factors((a - 1) * sympy.log(k) - sympy.log(sympy.Rational(1, 2)), box)
    assert len(factors) == 1 and not factors[0].expr.has(sympy.log(sympy.Rational(1, 2)))


def test_a_factor_of_a_denominator_must_be_proved_nonzero():
    (factor,) = sf.sign_factors(1 / (a - 1), {"a": (0.5, 2.0)})
    assert factor.under and not factor.absolute
    def evaluate(case, xp):
        y = xp.asarray(case["a"])
        return ge(1 / (y - 1) ** 2, 0.0, xp)  # holds where defined; a = 1 is a pole inside the box
    assert cs.run(evaluate, dict, {"a": (0.5, 2.0)}).status != "certified"


def test_a_sum_that_cancels_to_first_order_factors_through_expm1():
    """(t - 1)(1 - n^-a) + (t/n)(n^a - 1), n = k t, expanded: every term pairs with an opposite one at
    exponent distance +-a log n, so it is expm1(a log n) times a bracket positive on the box."""
    n = k * t
    expr = sympy.expand(t - t / n + t * n ** (a - 1) - t * n ** (-a) + n ** (-a) - 1)
    whole = {"k": (3.0, 1e14), "t": (2.0, 1e14), "a": (1e-12, 0.1)}
    sign, bracket = sf.common_expm1(expr, whole, log=("k", "t", "a"))
    assert sign == 1
    for f, _, _ in sf.sign_factors(bracket, whole, log=("k", "t", "a")):
        assert cs.prove_factor(f, whole, 1, True, ("k", "t", "a"), 200).status == "certified"
    rng = random.Random(2)
    for _ in range(10):
        point = {s: sympy.Float(10 ** rng.uniform(np.log10(lo), np.log10(hi)), 40)
                 for s, (lo, hi) in zip((k, t, a), whole.values(), strict=False)}
        lhs, rhs = expr.subs(point), (sympy.exp(a * sympy.log(n)) - 1).subs(point) * bracket.subs(point)
        assert abs(sympy.N(lhs - rhs, 40)) <= 1e-30 * abs(sympy.N(lhs, 40))
