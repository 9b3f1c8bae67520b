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

from attncheck import Real, Slack, Space, batch_estimate, claim, ge, le, lt
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
def heavy_false(c, Y, xp):
    n, a = c
    return batch_estimate(np.mean, Y).scaled(a * n ** 0.05)


@_asym("heavy-tailed-estimate", "twin", None, DECADES, r"E[X_n] = O(1) with X_n = a Y, Y Pareto(2.5)",
       sample=_pareto)
def heavy_twin(c, Y, xp):
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
