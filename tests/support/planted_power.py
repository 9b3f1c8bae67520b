"""The planted power suite: false claims whose violations are hard to find, each with a twin.

Every family is a pair (false claim, twin). The false claim must be REFUTED; the twin
must not be (it is true or, for ``eventually-slow``, not refutable on the path). The
claims use the public API only, as a new user would write them.
``attncheck bench --power`` runs each family over 20 seeds in quick and deep and
prints the refutation shares; ``tests/engine/test_power.py`` runs one seed in CI.
"""
from __future__ import annotations

import math

import numpy as np

from attncheck import Int, Real, Slack, Space, batch_estimate, claim, ge, le, lt
from attncheck.core.claims import Registry

POWER = Registry()
#: family -> what makes it hard; its claims are power/<family>/false and power/<family>/twin
FAMILIES: dict[str, str] = {}


def planted(family: str, which: str, why: str | None = None, **kw):
    """Register ``power/<family>/<which>`` (which: "false" or "twin") in the private registry."""
    if why:
        FAMILIES[family] = why
    return claim(f"power/{family}/{which}", source="planted", registry=POWER, **kw)


# 1. A violation in a ball of radius ~0.03 inside [0, 1]^3, away from every endpoint,
#    under a rippled landscape: 2000 uniform draws hit it about one time in five.
_C = np.array([0.37, 0.61, 0.52])
CUBE = Space(x=Real(0, 1), y=Real(0, 1), z=Real(0, 1))


def _well(c, xp, depth):
    v = np.array([c["x"], c["y"], c["z"]])
    ripple = 0.01 * math.sin(17 * v[0]) * math.sin(13 * v[1]) * math.sin(11 * v[2])
    return ge(xp.asarray(0.02 + ripple), xp.asarray(depth * math.exp(-float(np.sum((v - _C) ** 2)) / 0.0018)), xp)


@planted("tiny-region", "false", "violation in a ball of volume ~1e-4 inside [0,1]^3, away from the endpoints",
         kind="inequality", space=CUBE, cost="cheap", statement=r"0.02 + r(v) \ge 0.05 e^{-|v-c|^2/2s^2}")
def tiny_false(c, xp):
    return _well(c, xp, 0.05)


@planted("tiny-region", "twin", kind="inequality", space=CUBE, cost="cheap",
         statement=r"0.02 + r(v) \ge 0.0099 e^{-|v-c|^2/2s^2}")
def tiny_twin(c, xp):
    return _well(c, xp, 0.0099)


# 2. A probabilistic claim false on 5% of the range of its non-random parameter.
def _q(t):
    return 0.8 if 0.61 <= t <= 0.66 else 0.9


def _uniform(c, rng, size):
    return rng.random(size)


@planted("five-percent", "false", "Pr[U < q(t)] >= 0.9, false for t in [0.61, 0.66] only (5% of the range)",
         kind="probabilistic", space=Space(t=Real(0, 1)), cost="cheap", statement=r"\Pr[U < q(t)] \ge 0.9",
         sample=_uniform, probability=0.9)
def five_false(c, U, xp):
    return lt(xp.asarray(U), _q(c["t"]), xp)


@planted("five-percent", "twin", kind="probabilistic", space=Space(t=Real(0, 1)), cost="cheap",
         statement=r"\Pr[U < q(t)] \ge q(t) (exactly at its bound)", sample=_uniform,
         probability=lambda c: _q(c["t"]))
def five_twin(c, U, xp):
    return lt(xp.asarray(U), _q(c["t"]), xp)


# 3. float64 overflow: e^x for x in [800, 1000] is inf; mpmath decides.
OVER = Space(x=Real(800, 1000))


@planted("overflow", "false", "e^x overflows float64 on the whole domain; false for x > 921",
         kind="inequality", space=OVER, cost="cheap", statement=r"e^x \le e^{921} on [800, 1000]")
def overflow_false(c, xp):
    x = xp.asarray(c["x"])
    return le(xp.exp(x), xp.exp(xp.asarray(921.0)), xp)


@planted("overflow", "twin", kind="inequality", space=OVER, cost="cheap",
         statement=r"e^x \le e^{1000.5} on [800, 1000]")
def overflow_twin(c, xp):
    x = xp.asarray(c["x"])
    return le(xp.exp(x), xp.exp(xp.asarray(1000.5)), xp)


# 4. Slacks below float64 resolution: e^x - 1 - x - x^2/2 = x^3/6 + ... with x ~ 1e-18, so the
#    claimed x^3/5 fails by x^3/30 ~ 1e-56, decided only at 120 digits.
TINY = Space(x=Real(1e-20, 1e-16, log=True))


def _taylor(c, xp, k):
    x = xp.asarray(c["x"])
    # the scale is e^x ~ 1, the size of the terms that cancel: float64 cannot decide
    return Slack(xp.exp(x) - 1 - x - x * x / 2 - x * x * x / k, xp.exp(x))


@planted("below-resolution", "false", "fails by ~1e-56 relative: decided only by mpmath at 120 digits",
         kind="inequality", space=TINY, cost="cheap", statement=r"e^x - 1 - x \ge x^2/2 + x^3/5")
def below_false(c, xp):
    return _taylor(c, xp, 5)


@planted("below-resolution", "twin", kind="inequality", space=TINY, cost="cheap",
         statement=r"e^x - 1 - x \ge x^2/2 + x^3/7")
def below_twin(c, xp):
    return _taylor(c, xp, 7)


# 5. An implied constant growing like n^0.05 along the path (x3.2 over ten decades).
LONG = {"quick": [10**2, 10**4, 10**6, 10**8, 10**10, 10**12],
        "deep": [10**2, 10**4, 10**6, 10**8, 10**10, 10**12, 10**14]}


def _noisy(c, rng, size):
    return 1.0 + 0.05 * rng.standard_normal(size)


@planted("slow-growth", "false", "implied constant grows like n^0.05 (x3.2 over the path)", kind="asymptotic",
         path=LONG, space=lambda n: Space(build=lambda a: (n, a), a=Real(1, 2)), sample=_noisy, probability=0.9,
         cost="cheap", statement=r"X_n = O(1) with X_n = a n^{0.05} (1 + 0.05 N)")
def growth_false(c, noise, xp):
    n, a = c
    return a * n ** 0.05 * noise


@planted("slow-growth", "twin", kind="asymptotic", path=LONG, space=lambda n: Space(build=lambda a: (n, a),
         a=Real(1, 2)), sample=_noisy, probability=0.9, cost="cheap",
         statement=r"X_n = O(1) with X_n = a (1 + 0.05 N)")
def growth_twin(c, noise, xp):
    n, a = c
    return a * noise


# 6.-7. "Eventually" claims: Pr[U >= f(n)] >= 0.95 with failure rate f along the path.
EVENTUALLY = {"quick": [10, 10**2, 10**3, 10**4, 10**6, 10**9],
              "deep": [10, 10**2, 10**3, 10**4, 10**6, 10**9, 10**12]}


def _eventually(name, which, rate, statement, why=None):
    @planted(name, which, why, kind="probabilistic", path=EVENTUALLY, eventually=True, probability=0.95,
             space=lambda n: Space(build=lambda s: (n, s), s=Real(0, 1)), sample=_uniform, cost="cheap",
             statement=statement)
    def evaluate(c, U, xp):
        n, _ = c
        return ge(xp.asarray(U), rate(n), xp)
    return evaluate


_LAST = EVENTUALLY["deep"][-1]
eventually_false = _eventually("eventually-from-n0", "false",
                               lambda n: 0.3 if n < 10**4 or n >= 10**9 else 0.0,
                               r"fails for n < 10^4 and again from 10^9 on (flat failure rate 0.3)",
                               "holds from n = 10^4 on, but fails again at the end of the path")
eventually_twin = _eventually("eventually-from-n0", "twin", lambda n: 0.3 if n < 10**4 else 0.0,
                              r"fails for n < 10^4 only")
slow_false = _eventually("eventually-slow", "false", lambda n: 0.2,
                         r"failure rate 0.2 at every n (flat)",
                         "fails at the end of the path: flat failure rate (false) vs slowly falling (twin)")
slow_twin = _eventually("eventually-slow", "twin", lambda n: 0.5 * n ** -0.05,
                        r"failure rate 0.5 n^{-0.05}: falls, still 0.13 > 0.05 at n = 10^12")


# 8. A failure only just inside a boundary, next to an exact tie at b = 0.1.
EDGE = Space(b=Real(0.1, 1.0), c=Real(0.0, 1.0))


@planted("tie-boundary", "false", "exact tie at b = 0.1, violated on (0.1, 0.1 + 1e-4) only",
         kind="inequality", space=EDGE, cost="cheap", statement=r"(b - 0.1)(b - 0.1 - 10^{-4})(1 + c) \ge 0")
def tie_false(c, xp):
    b = xp.asarray(c["b"])
    return ge((b - 0.1) * (b - 0.1 - 1e-4) * (1 + c["c"]), xp.asarray(0.0), xp)


@planted("tie-boundary", "twin", kind="inequality", space=EDGE, cost="cheap",
         statement=r"(b - 0.1)(b - 0.1 + 10^{-4})(1 + c) \ge 0")
def tie_twin(c, xp):
    b = xp.asarray(c["b"])
    return ge((b - 0.1) * (b - 0.1 + 1e-4) * (1 + c["c"]), xp.asarray(0.0), xp)


# 9. The corner of a 3-parameter domain: one score at the top of its interval, every other
#    score near the bottom (n = 1000): the softmax weight of the top score.
SCORES = Space(top=Real(0, 10), rest=Real(0, 10), spread=Real(0, 0.1))


def _top_weight(c, xp):
    top, rest = xp.asarray(c["top"]), xp.asarray(c["rest"])
    # 999 other scores: half at rest, half at rest + spread
    lse = xp.logsumexp(xp.asarray([top, rest + math.log(499.5), rest + c["spread"] + math.log(499.5)]))
    return xp.exp(top - lse)


@planted("corner", "false", "softmax weight of the top score exceeds 0.9 only near top = 10, rest = 0",
         kind="inequality", space=SCORES, cost="cheap", statement=r"w_{top} \le 0.9")
def corner_false(c, xp):
    return le(_top_weight(c, xp), 0.9, xp)


@planted("corner", "twin", kind="inequality", space=SCORES, cost="cheap", statement=r"w_{top} \le 0.96")
def corner_twin(c, xp):
    return le(_top_weight(c, xp), 0.96, xp)


# 10. A path over (beta, n) (attncheck.engine.series): Pr[U >= f] >= 0.95 with d = n^beta.
#     The twin fails while n^beta < 100 only: every series holds from some n on (beta = 0.05 from
#     n = 10^40). The false claim fails at beta = 0.05 whatever n (flat failure rate 0.3).
#     Drawing beta inside one n-path point would refute the twin at its last n.
from attncheck.core.paths import grid  # noqa: E402

BETAS = (0.05, 0.5, 1.0)
BETA_PATH = {p: grid("beta", BETAS, lambda b: sorted({10 ** math.ceil(j / b - 1e-9) for j in (0.5, 1, 1.5, 2, 2.5, 3)}))
             for p in ("quick", "deep")}


def _beta_series(which, rate, statement, why=None):
    @planted("beta-series", which, why, kind="probabilistic", path=BETA_PATH, eventually=True,
             probability=0.95, space=lambda pt: Space(build=lambda s: (pt["beta"], pt["n"], s), s=Real(0, 1)),
             sample=_uniform, cost="cheap", statement=statement)
    def evaluate(c, U, xp):
        beta, n, _ = c
        return ge(xp.asarray(U), rate(beta, n), xp)
    return evaluate


beta_false = _beta_series("false", lambda beta, n: 0.3 if beta < 0.1 or n ** beta < 100 else 0.0,
                          r"d = n^\beta: fails at \beta = 0.05 for every n (flat failure rate 0.3)",
                          "a path over (beta, n): one growth law of d fails at every n (false) vs every law "
                          "holds from its own n on (twin)")
beta_twin = _beta_series("twin", lambda beta, n: 0.3 if n ** beta < 100 else 0.0,
                         r"d = n^\beta: fails while n^\beta < 100 only")


# 11.-19. Claims as a new user writes them (docs/writing-claims.md): a `domain=`
#     strategy only (no Space), the default cost "normal" or "expensive", a violation on 1-5%
#     of the domain, inside it or next to (not at) a boundary. A violation region is flat (a
#     step: only coverage finds it) unless said otherwise. Each twin is tight on the same
#     region but true.
from hypothesis import strategies as st  # noqa: E402


def _step(x, lo, hi, inside, outside=0.9):
    """A flat landscape with a plateau on [lo, hi]: no slope leads an optimizer to it."""
    return inside if lo <= x <= hi else outside


def _user_step(family, why, domain, lo, hi, cost="normal", pick=lambda c: c):
    """The false claim (1.02 on the plateau) and its tight, true twin (0.99 there)."""
    def register(which, inside):
        @planted(family, which, why if which == "false" else None, kind="inequality", domain=domain, cost=cost,
                 statement=rf"g(x) \le 1, g = {inside} on [{lo}, {hi}], 0.9 elsewhere")
        def evaluate(c, xp):
            return le(xp.asarray(_step(float(pick(c)), lo, hi, inside)), 1.0, xp)
    register("false", 1.02)
    register("twin", 0.99)


_user_step("user-float", "domain=st.floats(0, 1), cost normal: false on [0.52, 0.55] (3%)",
           st.floats(0, 1), 0.52, 0.55)
_user_step("user-float-expensive", "domain=st.floats(0, 1), cost expensive: false on [0.70, 0.75] (5%)",
           st.floats(0, 1), 0.70, 0.75, cost="expensive")
_user_step("user-near-boundary", "st.floats(-5, 5): false on [4.75, 4.95] (2%), beside the end 5",
           st.floats(-5, 5), 4.75, 4.95)
_user_step("user-int-band", "st.integers(1, 1000): false for n in [611, 630] only (2%)",
           st.integers(1, 1000), 611, 630)
_user_step("user-vector", "st.lists(st.floats(-1, 1), min_size=3, max_size=3).map(np.array): false for "
           "v[1] in [0.40, 0.46] (3%)", st.lists(st.floats(-1, 1), min_size=3, max_size=3).map(np.array),
           0.40, 0.46, pick=lambda v: v[1])

_user_step("user-list", "the README's st.lists(st.floats(-30, 30), min_size=1, max_size=8).map(np.array): "
           "false for z_0 in [10, 12] (3%) when len(z) >= 3", st.lists(st.floats(-30, 30), min_size=1, max_size=8)
           .map(np.array), 10.0, 12.0, pick=lambda z: z[0] if len(z) >= 3 else 0.0)


def _dip(c, xp, depth):
    """0.05 - depth e^{-((x_2 - 0.32)/0.02)^2}: a smooth dip in one of four coordinates."""
    return ge(xp.asarray(0.05), xp.asarray(depth * math.exp(-((c[2] - 0.32) / 0.02) ** 2)), xp)


FOUR = st.tuples(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1), st.floats(-1, 1))


@planted("user-one-of-four", "false", "st.tuples of 4 floats: a smooth dip in x_2 only, false on 3.3% of it",
         kind="inequality", domain=FOUR, statement=r"0.05 \ge 0.1 e^{-((x_2 - 0.32)/0.02)^2}")
def four_false(c, xp):
    return _dip(c, xp, 0.1)


@planted("user-one-of-four", "twin", kind="inequality", domain=FOUR,
         statement=r"0.05 \ge 0.049 e^{-((x_2 - 0.32)/0.02)^2}")
def four_twin(c, xp):
    return _dip(c, xp, 0.049)


def _user_coin(family, why, lo, hi, cost):
    def q(t):
        return 0.8 if lo <= t <= hi else 0.9

    @planted(family, "false", why, kind="probabilistic", domain=st.floats(0, 1), cost=cost,
             statement=r"\Pr[U < q(t)] \ge 0.9", sample=_uniform, probability=0.9)
    def false(t, U, xp):
        return lt(xp.asarray(U), q(t), xp)

    @planted(family, "twin", kind="probabilistic", domain=st.floats(0, 1), cost=cost,
             statement=r"\Pr[U < q(t)] \ge q(t) (exactly at its bound)", sample=_uniform,
             probability=q)
    def twin(t, U, xp):
        return lt(xp.asarray(U), q(t), xp)


_user_coin("user-coin", "probabilistic, domain=st.floats(0, 1), cost normal: false for t in [0.30, 0.34] (4%)",
           0.30, 0.34, "normal")
_user_coin("user-coin-expensive", "probabilistic, cost expensive: false for t in [0.55, 0.60] (5%)",
           0.55, 0.60, "expensive")

MIDDLE = {"quick": [10, 100, 1000, 10**4], "deep": [10, 100, 1000, 10**4, 10**5]}


def _middle(which, bad_n, why=None):
    @planted("user-path-middle", which, why, kind="inequality", path=MIDDLE,
             domain=lambda n: st.tuples(st.just(n), st.floats(0, 1)),
             statement=rf"g_n(x) \le 1, g_n = 1.02 on [0.20, 0.24] at n = {bad_n}, 0.99 there otherwise")
    def evaluate(c, xp):
        n, x = c
        return le(xp.asarray(_step(x, 0.20, 0.24, 1.02 if n == bad_n else 0.99)), 1.0, xp)
    return evaluate


middle_false = _middle("false", 100, "path [10, 100, 1000, 10^4], st.floats(0, 1) per point: false on "
                       "[0.20, 0.24] (4%) at n = 100 only")
middle_twin = _middle("twin", None)


# 4. Strategies the engine cannot read a Space off (``@st.composite``, ``flatmap``, ``filter``,
#    ``one_of``), written as a new user writes them: only the design over their choices covers them.
@st.composite
def _width_and_x(draw):
    """A width k in 1..5 and x in [0, 1]: a composite strategy of two choices."""
    return draw(st.integers(1, 5)), draw(st.floats(0, 1))


_user_step("composite-expensive", "@st.composite (k in 1..5, x in [0, 1]), cost expensive: false for x in "
           "[0.70, 0.75] (5%)", _width_and_x(), 0.70, 0.75, cost="expensive", pick=lambda c: c[1])
_user_step("composite-flatmap", "st.integers(2, 9).flatmap(k -> (k, st.floats(0, k))): false for x/k in "
           "[0.40, 0.44] (4%)", st.integers(2, 9).flatmap(lambda k: st.tuples(st.just(k), st.floats(0, k))),
           0.40, 0.44, pick=lambda c: c[1] / c[0])
_user_step("composite-filter", "the triangle x, y >= 0, x + y <= 1 by .filter: false for x in [0.30, 0.33] "
           "(4% of the triangle)", st.tuples(st.floats(0, 1), st.floats(0, 1)).filter(lambda t: t[0] + t[1] <= 1),
           0.30, 0.33, pick=lambda c: c[0])
_user_step("composite-one-of", "st.one_of(st.floats(0, 1), st.floats(10, 11)): false on [10.50, 10.56] (3% of "
           "the draws)", st.one_of(st.floats(0, 1), st.floats(10, 11)), 10.50, 10.56)


# 5. Expectation claims (issue 27, item 5): E[X] <= b decided by the sequential mean test on fresh draws.
#    A margin of a tenth of the noise's sd on a tenth of the range, and heavy (Student t, 3 dof) tails.
def _tent(t, top=0.62, half=0.05):
    """1 at t = top, falling linearly to 0 at top +- half (10% of [0, 1])."""
    return max(0.0, 1.0 - abs(t - top) / half)


def _gauss(c, rng, size):
    return rng.standard_normal(size)


def _t3(c, rng, size):
    return rng.standard_t(3, size)


B = 0.3  # the bound, a float constant (the twin attains it exactly)


@planted("expectation-margin", "false", "E[X] <= b with X ~ N(b + 0.1 tent(t), 1): 0.1 sd above b on 10% of t",
         kind="expectation", relation="<=", space=Space(t=Real(0, 1)), cost="cheap", sample=_gauss,
         statement=r"E[b + 0.1\,\mathrm{tent}(t) + Z] \le b")
def margin_false(c, Z, xp):
    return B + 0.1 * _tent(c["t"]) + Z, B


@planted("expectation-margin", "twin", kind="expectation", relation="<=", space=Space(t=Real(0, 1)), cost="cheap",
         sample=_gauss, statement=r"E[b - 0.1\,(1 - \mathrm{tent}(t)) + Z] \le b (exactly b at t = 0.62)")
def margin_twin(c, Z, xp):
    return B - 0.1 * (1.0 - _tent(c["t"])) + Z, B


def _scale(t):
    return 0.5 + 1.5 * t


@planted("expectation-heavy", "false", "E[X] <= b with X = b + 0.3 t + (0.5 + 1.5 t) T_3 (Student t, 3 dof: "
         "infinite fourth moment): 0.09 sd above b at t = 1", kind="expectation", relation="<=",
         space=Space(t=Real(0, 1)), cost="cheap", sample=_t3, statement=r"E[b + 0.3t + s(t) T_3] \le b")
def heavy_false(c, T, xp):
    return B + 0.3 * c["t"] + _scale(c["t"]) * T, B


@planted("expectation-heavy", "twin", kind="expectation", relation="<=", space=Space(t=Real(0, 1)), cost="cheap",
         sample=_t3, statement=r"E[b + s(t) T_3] \le b (exactly b for every t)")
def heavy_twin(c, T, xp):
    return B + _scale(c["t"]) * T, B


def _lognormal(c, rng, size):
    """L - E L for L lognormal(0, 1): mean 0, skewness 6.2 (the sample mean is usually below E L, rarely far above)."""
    return rng.lognormal(0.0, 1.0, size) - math.exp(0.5)


@planted("expectation-skewed", "false", "E[X] >= b with X = b - 0.3 t + (0.5 + 1.5 t)(L - E L), L lognormal(0, 1) "
         "(skewness 6.2, the side where the t statistic's tail is heavy): 0.07 sd below b at t = 1",
         kind="expectation", relation=">=", space=Space(t=Real(0, 1)), cost="cheap", sample=_lognormal,
         statement=r"E[b - 0.3t + s(t)(L - E L)] \ge b")
def skewed_false(c, L, xp):
    return B - 0.3 * c["t"] + _scale(c["t"]) * L, B


@planted("expectation-skewed", "twin", kind="expectation", relation=">=", space=Space(t=Real(0, 1)), cost="cheap",
         sample=_lognormal, statement=r"E[b + s(t)(L - E L)] \ge b (exactly b for every t)")
def skewed_twin(c, L, xp):
    return B + _scale(c["t"]) * L, B

# Ties decided exactly, never refuted by a float constant (issue 27, item 8; docs/writing-claims.md, "Ties and
#     float constants"). Each twin is a bound attained with equality: max_i softmax(x)_i >= 1/n (equal at constant
#     x, e.g. zeros(5), where 1.0 / 5 is 1.1e-17 above 1/5) and log sum_i e^{x_i} >= a + log k at x = (a, ..., a)
#     (mpmath only bounds that slack: exact evaluation decides it). Each false claim is the same bound 1e-13
#     (relative) above the attained value, false at the ties only.

TIE_LISTS = st.lists(st.floats(-30, 30), min_size=2, max_size=8).map(np.array)
ABOVE = 1e-13


def _max_softmax(x, xp, form):
    """max_i softmax(x)_i, as exp(max x - logsumexp x) ("lse") or as 1 / sum_i exp(x_i - max x) ("sum")."""
    return xp.exp(np.max(x) - xp.logsumexp(x)) if form == "lse" else 1 / xp.sum(xp.exp(x - np.max(x)))


def _softmax_tie(family, form, through_xp, why):
    """The twin (bound 1/n, attained) and the false claim ((1 + 1e-13)/n), the bound a float constant
    (``(1 + e) / len(x)``) or written through xp (``(1 + e) / xp.asarray(float(len(x)))``)."""
    def register(which, above):
        @planted(family, which, why if which == "false" else None, kind="inequality", domain=TIE_LISTS,
                 statement=rf"\max_i \mathrm{{softmax}}(x)_i \ge (1 + {above:g})/n ({form} form)")
        def evaluate(x, xp):
            bound = (1 + above) / xp.asarray(float(len(x))) if through_xp else (1 + above) / len(x)
            return ge(_max_softmax(x, xp, form), bound, xp)
    register("false", ABOVE)
    register("twin", 0.0)


_softmax_tie("tie-softmax-lse-float", "lse", False, "max softmax >= (1 + 1e-13)/n, logsumexp form, bound a float "
             "constant (1 + 1e-13) / len(x): false at constant x only; the twin's 1.0 / len(x) is no counterexample")
_softmax_tie("tie-softmax-sum-float", "sum", False, "max softmax >= (1 + 1e-13)/n as 1 / sum exp(x - max x), bound a "
             "float constant: false at constant x only")
_softmax_tie("tie-softmax-lse-xp", "lse", True, "max softmax >= (1 + 1e-13)/n, logsumexp form, bound through xp: "
             "false at constant x only; the twin's ties are decided exactly")
_softmax_tie("tie-softmax-sum-xp", "sum", True, "max softmax >= (1 + 1e-13)/n as 1 / sum exp(x - max x), bound "
             "through xp: false at constant x only")

EQUAL_SCORES = Space(a=Real(-20, 20), k=Int(2, 8))


def _lse_tie(which, above, why=None):
    @planted("tie-exact", which, why, kind="inequality", space=EQUAL_SCORES,
             statement=rf"\log \sum_{{i \le k}} e^{{a}} \ge (a + \log k) + {above:g} |a + \log k|")
    def evaluate(c, xp):
        x = xp.asarray(np.full(int(c["k"]), c["a"]))
        attained = c["a"] + xp.log(xp.asarray(float(c["k"])))
        return ge(xp.log(xp.sum(xp.exp(x))), attained + above * xp.abs(attained), xp)
    return evaluate


lse_tie_false = _lse_tie("false", ABOVE, "log sum of k equal e^a >= a + log k + 1e-13 |a + log k|: false everywhere "
                         "by 1e-13 relative; the twin is a tie at every case, which mpmath only bounds")
lse_tie_twin = _lse_tie("twin", 0.0)

# ---- Screen, then confirm; "eventually" with a floor (issue 27, items 2, 4 and 9) ------------------------------
# 20. A Hoeffding-style claim with a constant too strong for it, as a user writes it: Pr[S_n < c sqrt n] >=
#     1 - e^{-c^2} for a Rademacher sum S_n (Hoeffding gives e^{-c^2/2}). Over n in [100, 400] it is short of its
#     level by at most 1.0% (n = 100, c = 2.0: 0.9716 against 0.9817), on the left of the binomial's jumps in c.
#     The twin claims the exact probability (scipy's binomial CDF): a true claim exactly at its level everywhere.
from scipy import stats as _sst  # noqa: E402

HOEFFDING = Space(n=Int(100, 400), c=Real(0.5, 2.5))


def _rademacher_sum(case, rng, size):
    return 2.0 * rng.binomial(case["n"], 0.5, size) - case["n"]


def _below_exact(case):
    """Pr[S_n < c sqrt n] = Pr[B < (n + c sqrt n) / 2], B ~ Binomial(n, 1/2)."""
    n = case["n"]
    return float(_sst.binom.cdf(math.ceil((n + case["c"] * math.sqrt(n)) / 2) - 1, n, 0.5))


@planted("hoeffding-one-percent", "false", "Pr[S_n < c sqrt n] >= 1 - e^{-c^2} (Hoeffding gives e^{-c^2/2}): short "
         "of its level by at most 1.0% (n in [100, 400], c in [0.5, 2.5])", kind="probabilistic", space=HOEFFDING,
         statement=r"\Pr[S_n < c\sqrt n] \ge 1 - e^{-c^2}", sample=_rademacher_sum,
         probability=lambda case: 1.0 - math.exp(-case["c"] ** 2))
def hoeffding_false(case, S, xp):
    return lt(xp.asarray(S), case["c"] * math.sqrt(case["n"]), xp)


@planted("hoeffding-one-percent", "twin", kind="probabilistic", space=HOEFFDING,
         statement=r"\Pr[S_n < c\sqrt n] \ge \Pr[\mathrm{Bin}(n, 1/2) < (n + c\sqrt n)/2] (exactly at its level)",
         sample=_rademacher_sum, probability=_below_exact)
def hoeffding_twin(case, S, xp):
    return lt(xp.asarray(S), case["c"] * math.sqrt(case["n"]), xp)


# 21. "Eventually" with a floor: Pr[U >= f(n)] >= 0.95 (allowed failure rate 0.05). The false claim's failure rate
#     falls like a power toward a plateau 0.08 above the allowed level, f = 0.08 + 0.25 n^{-0.3} (0.0805 at the end
#     of the quick path: false at every n); the twin's falls to 0 like 0.33 n^{-0.08}, reaching 0.05 at n ~ 10^10.2
#     (beyond the quick path, whose last point fails; inside the deep one).
plateau_false = _eventually("eventually-plateau", "false", lambda n: 0.08 + 0.25 * n ** -0.3,
                            r"failure rate 0.08 + 0.25 n^{-0.3}: falls to a plateau 0.08 > 0.05",
                            "failure rate falling to a plateau 0.08 above the allowed 0.05 (false) vs falling to 0 "
                            "like 0.33 n^-0.08 (twin, still above 0.05 at the quick path's end)")
plateau_twin = _eventually("eventually-plateau", "twin", lambda n: 0.33 * n ** -0.08,
                           r"failure rate 0.33 n^{-0.08}: falls to 0 (below 0.05 from n ~ 10^{10.2})")


# 22. Short of its level by exactly 1% everywhere, at moderate levels: Pr[S_n < c sqrt n] >= (the exact
#     probability) + 0.01 over c in [0.5, 1.5] (levels 0.62 to 0.94), n in [100, 400]. At these levels a 1%
#     shortfall needs about 10^5 draws at the engine's per-test level: never significant when alpha was split
#     over every case the search tries (16000 draws per case); the twin is hoeffding-one-percent's, at its level.
MODERATE = Space(n=Int(100, 400), c=Real(0.5, 1.5))


@planted("one-percent-short", "false", "Pr[S_n < c sqrt n] >= exact + 0.01: short by 1% at every case, at levels "
         "0.62-0.94 (c in [0.5, 1.5], n in [100, 400])", kind="probabilistic", space=MODERATE,
         statement=r"\Pr[S_n < c\sqrt n] \ge \Pr[\mathrm{Bin}(n, 1/2) < (n + c\sqrt n)/2] + 0.01",
         sample=_rademacher_sum, probability=lambda case: _below_exact(case) + 0.01)
def one_percent_false(case, S, xp):
    return lt(xp.asarray(S), case["c"] * math.sqrt(case["n"]), xp)


@planted("one-percent-short", "twin", kind="probabilistic", space=MODERATE,
         statement=r"\Pr[S_n < c\sqrt n] \ge \Pr[\mathrm{Bin}(n, 1/2) < (n + c\sqrt n)/2] (exactly at its level)",
         sample=_rademacher_sum, probability=_below_exact)
def one_percent_twin(case, S, xp):
    return lt(xp.asarray(S), case["c"] * math.sqrt(case["n"]), xp)

# 5. Corners of composite strategies (issue 27, item 6): a cheap deterministic claim over an ``@st.composite``
#    domain, no cost declared, false only at a vertex of its choice space (several draws at their ends at
#    once), a region of about 1e-7 of the domain; each twin is true and tight (slack 0) at that vertex.
@st.composite
def _three_and_x(draw):
    """Three integers in 0..50 and x in [0, 1], drawn one after another."""
    return draw(st.integers(0, 50)), draw(st.integers(0, 50)), draw(st.integers(0, 50)), draw(st.floats(0, 1))


def _vertex(family, why, signs, bound):
    """g = sum_j s_j c_j (x weighted by 50) <= bound (false) or <= max g, attained at the vertex (twin)."""
    top = sum(50.0 if s > 0 else 0.0 for s in signs)

    def register(which, b):
        @planted(family, which, why if which == "false" else None, kind="inequality", domain=_three_and_x(),
                 statement=rf"{' + '.join(f'{s:+d} c_{j}' for j, s in enumerate(signs))} \le {b}")
        def evaluate(c, xp):
            a, b_, k, x = c
            return le(xp.asarray(signs[0] * a + signs[1] * b_ + signs[2] * k + signs[3] * 50.0 * x), b, xp)
    register("false", bound)
    register("twin", top)


_vertex("composite-vertex", "@st.composite of 3 integers in 0..50 and x in [0, 1], no cost: a + b + k + 50 x "
        "<= 199.5 is false only where all four draws are at their upper ends at once", (1, 1, 1, 1), 199.5)
_vertex("composite-mixed-vertex", "the same @st.composite: a + b - k + 50 x <= 149.5 is false only at the mixed "
        "vertex (high, high, low, high) of its choices", (1, 1, -1, 1), 149.5)

# ---- Decisive asymptotics (issue 27): bounded vs growing, with the worst case re-estimated ---------------
# Each false claim's implied constant grows without bound (slowly); each twin's stays bounded, often rising
# toward its limit from below, which a rule on the sign of the slope cannot tell from growth.
SHORT = {"quick": [64, 256, 1024], "deep": [64, 256, 1024, 4096]}
DECADES = {"quick": [10, 10**2, 10**3, 10**4, 10**5], "deep": [10, 10**2, 10**3, 10**4, 10**5, 10**6]}
ZERO_PATH = {"quick": [16, 64, 256, 1024], "deep": [16, 64, 256, 1024, 4096]}


def _a_space(n):
    return Space(build=lambda a: (n, a), a=Real(1, 2))


def _asym(family, which, why, path, statement, sample=_noisy, **kw):
    return planted(family, which, why, kind="asymptotic", path=path, space=_a_space, sample=sample,
                   probability=0.9, cost="cheap", statement=statement, **kw)


@_asym("limit-short", "false", "n^0.03 on a 3-point path (x1.09 over it): decided by extending the path", SHORT,
       r"X_n = O(1) with X_n = a n^{0.03} (1 + 0.05 N)")
def limit_short_false(c, noise, xp):
    n, a = c
    return a * n ** 0.03 * noise


@_asym("limit-short", "twin", None, SHORT, r"X_n = O(1) with X_n = a (2 - 4/\sqrt n) (1 + 0.05 N)")
def limit_short_twin(c, noise, xp):
    n, a = c
    return a * (2 - 4 / math.sqrt(n)) * noise


@_asym("limit-log", "false", "log n over ten decades against a twin c - a/n rising from below", LONG,
       r"X_n = O(1) with X_n = a \log n (1 + 0.05 N)")
def limit_log_false(c, noise, xp):
    n, a = c
    return a * math.log(n) * noise


@_asym("limit-log", "twin", None, LONG, r"X_n = O(1) with X_n = a (2 - 20/n) (1 + 0.05 N)")
def limit_log_twin(c, noise, xp):
    n, a = c
    return a * (2 - 20 / n) * noise


def _bounded(c, rng, size):
    return rng.uniform(0.5, 1.5, size)


@_asym("bounded-noise", "false", "n^0.05 under bounded uniform noise, against a flat twin", SHORT,
       r"X_n = O(1) with X_n = a n^{0.05} U, U ~ U(0.5, 1.5)", sample=_bounded)
def bounded_noise_false(c, noise, xp):
    n, a = c
    return a * n ** 0.05 * noise


@_asym("bounded-noise", "twin", None, SHORT, r"X_n = O(1) with X_n = a U, U ~ U(0.5, 1.5)", sample=_bounded)
def bounded_noise_twin(c, noise, xp):
    _, a = c
    return a * noise


def _pareto(c, rng, size):
    """Pareto draws of tail index 2.5: finite variance, infinite fourth moment (the error of the error is wild)."""
    return (1.0 - rng.random(size)) ** (-1 / 2.5)


@_asym("heavy-tailed-estimate", "false", "rate form: n^0.05 times a mean of Pareto(2.5) draws (infinite "
       "fourth moment), with its batch-means error", DECADES, r"E[X_n] = O(1) with X_n = a n^{0.05} Y, Y Pareto(2.5)",
       sample=_pareto)
def heavy_estimate_false(c, Y, xp):
    n, a = c
    return batch_estimate(np.mean, Y).scaled(a * n ** 0.05)


@_asym("heavy-tailed-estimate", "twin", None, DECADES, r"E[X_n] = O(1) with X_n = a Y, Y Pareto(2.5)",
       sample=_pareto)
def heavy_estimate_twin(c, Y, xp):
    _, a = c
    return batch_estimate(np.mean, Y).scaled(a)


def _lognormal_wide(c, rng, size):
    """Log-normal draws of sigma 1.6: a standard deviation about 3.4 times the mean per draw."""
    return rng.lognormal(0.0, 1.6, size)


@_asym("noisy-rate", "false", "rate form: n^0.05 times a mean of log-normal(0, 1.6) draws, whose last steps and "
       "curvature need draws at the tail points beyond the first 4 times (worst cases carried, as goel2026's rates)",
       DECADES, r"E[X_n] = O(1) with X_n = a n^{0.05} Y, \log Y \sim N(0, 1.6^2)", sample=_lognormal_wide,
       carry_worst=True)
def noisy_rate_false(c, Y, xp):
    n, a = c
    return batch_estimate(np.mean, Y).scaled(a * n ** 0.05)


@_asym("noisy-rate", "twin", None, DECADES, r"E[X_n] = O(1) with X_n = a Y, \log Y \sim N(0, 1.6^2)",
       sample=_lognormal_wide, carry_worst=True)
def noisy_rate_twin(c, Y, xp):
    _, a = c
    return batch_estimate(np.mean, Y).scaled(a)


@_asym("zero-at-one-point", "false", "implied constant 0 at the first point, then growing like sqrt n (a "
       "single 0 once decided HOLDS)", ZERO_PATH, r"X_n = O(1) with X_n = a \sqrt{n/16 - 1} (1 + 0.05 N)")
def zero_false(c, noise, xp):
    n, a = c
    return a * math.sqrt(n / 16 - 1) * noise


@_asym("zero-at-one-point", "twin", None, ZERO_PATH, r"X_n = O(1) with X_n = a (1 - 16/n) (1 + 0.05 N)")
def zero_twin(c, noise, xp):
    n, a = c
    return a * (1 - 16 / n) * noise


EXACT = {"quick": [16, 128, 1024, 8192, 65536], "deep": [16, 64, 256, 1024, 4096, 16384, 65536]}


def _no_draws(c, rng, size):
    """An exact evaluator draws nothing."""


@_asym("exact-decay", "false", "an exact constant (se 0) growing like log n, against an exact twin falling like 1/n "
       "(a line in log n misfits it, and the misfit once widened its growth bound)", EXACT,
       r"X_n = O(1) with X_n = a \log n, exactly", sample=_no_draws)
def exact_decay_false(c, R, xp):
    n, a = c
    return np.array([a * math.log(n)])


@_asym("exact-decay", "twin", None, EXACT, r"X_n = O(1) with X_n = 90 a / n, exactly", sample=_no_draws)
def exact_decay_twin(c, R, xp):
    n, a = c
    return np.array([90 * a / n])


@_asym("exact-limit", "false", "an exact constant growing like n^0.03, against an exact twin rising to its limit",
       EXACT, r"X_n = O(1) with X_n = a n^{0.03}, exactly", sample=_no_draws)
def exact_limit_false(c, R, xp):
    n, a = c
    return np.array([a * n ** 0.03])


@_asym("exact-limit", "twin", None, EXACT, r"X_n = O(1) with X_n = a (3 - 2/\sqrt n), exactly", sample=_no_draws)
def exact_limit_twin(c, R, xp):
    n, a = c
    return np.array([a * (3 - 2 / math.sqrt(n))])


# ---- Tends to 0 (vanishes=True, engine/vanishing.py): the quantity itself, not an implied constant ------------
# Each false quantity levels off at a positive limit (reached on the path) or grows; each twin falls to 0, at a
# rate from n^-0.25 to 1/log n, under the same noise and form.


def _vanish(family, which, why, path, statement, sample=_noisy, **kw):
    return _asym(family, which, why, path, statement, sample=sample, vanishes=True, **kw)


@_vanish("vanish-plateau", "false", "a (1/2 + 2/n): falls over the first decades, then levels off at a/2",
         DECADES, r"X_n = o(1) with X_n = a (1/2 + 2/n) (1 + 0.05 N)")
def vanish_plateau_false(c, noise, xp):
    n, a = c
    return a * (0.5 + 2 / n) * noise


@_vanish("vanish-plateau", "twin", None, DECADES, r"X_n = o(1) with X_n = 2 a n^{-1/4} (1 + 0.05 N)")
def vanish_plateau_twin(c, noise, xp):
    n, a = c
    return 2 * a * n ** -0.25 * noise


@_vanish("vanish-flat", "false", "a flat quantity on a 3-point path, against a twin falling like 1/log n: decided "
         "by more draws and a longer path", SHORT, r"X_n = o(1) with X_n = a (1 + 0.05 N)")
def vanish_flat_false(c, noise, xp):
    _, a = c
    return a * noise


@_vanish("vanish-flat", "twin", None, SHORT, r"X_n = o(1) with X_n = a / \log n (1 + 0.05 N)")
def vanish_flat_twin(c, noise, xp):
    n, a = c
    return a / math.log(n) * noise


@_vanish("vanish-rate", "false", "rate form: a mean of log-normal(0, 1.6) draws times a (0.3 + n^-1/2), which levels "
         "off at 0.3 a", DECADES, r"E[X_n] = o(1) with X_n = a (0.3 + n^{-1/2}) Y, \log Y \sim N(0, 1.6^2)",
         sample=_lognormal_wide)
def vanish_rate_false(c, Y, xp):
    n, a = c
    return batch_estimate(np.mean, Y).scaled(a * (0.3 + n ** -0.5))


@_vanish("vanish-rate", "twin", None, DECADES, r"E[X_n] = o(1) with X_n = a n^{-1/4} Y, \log Y \sim N(0, 1.6^2)",
         sample=_lognormal_wide)
def vanish_rate_twin(c, Y, xp):
    n, a = c
    return batch_estimate(np.mean, Y).scaled(a * n ** -0.25)


# the exact-decay family's evaluators, read as quantities that must tend to 0
_vanish("vanish-growth", "false", "an exact quantity growing like log n, against an exact twin falling like 1/n",
        EXACT, r"X_n = o(1) with X_n = a \log n, exactly", sample=_no_draws)(exact_decay_false.evaluate)
_vanish("vanish-growth", "twin", None, EXACT, r"X_n = o(1) with X_n = 90 a / n, exactly",
        sample=_no_draws)(exact_decay_twin.evaluate)
