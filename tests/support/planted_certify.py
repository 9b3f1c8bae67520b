"""Planted claims for certification from the claim's own evaluator (arb backend).

False ones must be REFUTED by the interval route although the sampled search misses
them; true ones must never be refuted.
"""
from hypothesis import strategies as st

# the search is shown only the endpoints (or x = 0): the interval route must find the failures
from attncheck import claim, close, ge, le
from attncheck.core.claims import Registry
from attncheck.core.declarations import Ineligible, OwnSpace, Parameters
from attncheck.core.space import Int, Real, Space

PLANTED_CERTIFY = Registry()
X0 = 1.0 / 3.0
UNIT = Parameters({"x": (0.0, 1.0)}, case=lambda v: v["x"])


@claim("planted/certify-own/bound-false-on-1e-6", kind="inequality", source="planted",
       statement="(x - 1/3)^2 >= 2.5e-13 on [0, 1]: fails on |x - 1/3| < 5e-7, a 1e-6 share of the box",
       domain=st.sampled_from([0.0, 1.0]), certify=UNIT, registry=PLANTED_CERTIFY)
def bound_false(x, xp):
    x = xp.asarray(x)
    return ge((x - X0) ** 2, 2.5e-13, xp)


@claim("planted/certify-own/bound-true-twin", kind="inequality", source="planted",
       statement="(x - 1/3)^2 + 2.5e-13 >= 2.5e-13 / 2 on [0, 1]",
       domain=st.floats(0, 1), certify=UNIT, registry=PLANTED_CERTIFY)
def bound_true(x, xp):
    x = xp.asarray(x)
    return ge((x - X0) ** 2 + 2.5e-13, 1.25e-13, xp)


@claim("planted/certify-own/identity-off-by-1e-14", kind="identity", source="planted",
       statement="log(exp(x)) = x (1 + 1e-14) exactly on [0, 1] (false for x > 0; the search sees only x = 0)",
       domain=st.just(0.0), certify=UNIT, registry=PLANTED_CERTIFY)
def identity_false(x, xp):
    x = xp.asarray(x)
    return close(xp.log(xp.exp(x)), x * (1 + 1e-14), rtol=0.0, xp=xp)


@claim("planted/certify-own/identity-true-twin", kind="identity", source="planted",
       statement="log(exp(x)) = x exactly on [0, 1] (x = 0 only is sampled)",
       domain=st.just(0.0), certify=UNIT, registry=PLANTED_CERTIFY)
def identity_true(x, xp):
    x = xp.asarray(x)
    return close(xp.log(xp.exp(x)), x, rtol=0.0, xp=xp)


@claim("planted/certify-own/identity-at-a-tolerance", kind="identity", source="planted",
       statement="log(1 + x) = x - x^2/2 + x^3/3 to relative tolerance 0.05 on [0, 0.5] (true, not exact)",
       domain=st.just(0.0), certify=Parameters({"x": (0.0, 0.5)}, case=lambda v: v["x"], max_boxes=2), registry=PLANTED_CERTIFY)
def identity_at_a_tolerance(x, xp):
    x = xp.asarray(x)
    return close(xp.log1p(x), x - x * x / 2 + x * x * x / 3, rtol=0.05, xp=xp)


@claim("planted/certify-own/log-n-bound", kind="inequality", source="planted",
       statement="log n <= sqrt(n) for n in [4, 1e15] (n relaxed to a real, bisected geometrically)",
       domain=st.integers(4, 10**15), certify=Parameters({"n": (4.0, 1e15)}, case=lambda v: v["n"], log=("n",),
                                                            relaxed="n: both sides are analytic in n > 0", integers=("n",)),
       registry=PLANTED_CERTIFY)
def log_n_bound(n, xp):
    n = xp.asarray(n if not isinstance(n, int) else float(n))
    return ge(xp.sqrt(n), xp.log(n), xp)


@claim("planted/certify-own/ineligible", kind="inequality", source="planted",
       statement="n mod 3 <= 2 (integer structure)", domain=st.integers(1, 100),
       certify=Ineligible("integer structure", "n mod 3"), registry=PLANTED_CERTIFY)
def ineligible(n, xp):
    return ge(2.0, xp.asarray(float(n % 3)), xp)


@claim("planted/certify-own/deep-only", kind="inequality", source="planted", statement="x + 1 >= x on [0, 1]",
       domain=st.floats(0, 1), certify=Parameters({"x": (0.0, 1.0)}, case=lambda v: v["x"], profiles=("deep",)),
       registry=PLANTED_CERTIFY)
def deep_only(x, xp):
    x = xp.asarray(x)
    return ge(x + 1.0, x, xp)


@claim("planted/certify-own/branches-on-data", kind="inequality", source="planted",
       statement="|x| >= 0 on [-1, 1], evaluated with a float branch", domain=st.floats(-1, 1),
       certify=Parameters({"x": (-1.0, 1.0)}, case=lambda v: v["x"]), registry=PLANTED_CERTIFY)
def branches_on_data(x, xp):
    x = xp.asarray(x)
    return ge(x if float(x) >= 0 else -x, 0.0, xp)


@claim("planted/certify-own/own-space", kind="inequality", source="planted",
       statement="exp(x) + 1/n >= 0.9 + x on [-2, 2] x n in [4, 1e15] (the claim's own Space; n relaxed to a real)",
       space=Space(x=Real(-2.0, 2.0, open_hi=True), n=Int(4, 10**15, log=True)),
       certify=OwnSpace(relax=("n",), max_boxes=20000), registry=PLANTED_CERTIFY)
def own_space(v, xp):
    x, n = xp.asarray(v["x"]), xp.asarray(v["n"])
    return ge(xp.exp(x) + 1.0 / n, 0.9 + x, xp)


@claim("planted/certify-own/not-on-balls", kind="inequality", source="planted",
       statement="x^2 + 1 >= 1 on [-1, 1], through .real (which balls lack)", domain=st.floats(-1, 1),
       certify=Parameters({"x": (-1.0, 1.0)}, case=lambda v: v["x"]), registry=PLANTED_CERTIFY)
def not_on_balls(x, xp):
    x = xp.asarray(x).real
    return ge(x * x + 1.0, 1.0, xp)


@claim("planted/certify-own/false-between-integers", kind="inequality", source="planted",
       statement="(n - 4.5)^2 >= 0.2 for integers n in [1, 8] (true: false only between 4 and 5)",
       domain=st.integers(1, 8), certify=Parameters({"n": (1.0, 8.0)}, case=lambda v: v["n"], integers=("n",),
                                                  max_boxes=200), registry=PLANTED_CERTIFY)
def false_between_integers(n, xp):
    n = xp.asarray(n if not isinstance(n, int) else float(n))
    return ge((n - 4.5) ** 2, 0.2, xp)


COVERING = Parameters({"x": (0.0, 1.0)}, case=lambda v: v["x"], covers="the domain draws x in [0, 1]",
                      locate=lambda x: {"x": x})


claim("planted/certify-own/covering-false", kind="inequality", source="planted",
      statement="(x - 1/3)^2 >= 2.5e-13 on [0, 1], declared covering: not certified, so the search runs",
      domain=st.floats(0, 1), certify=COVERING, registry=PLANTED_CERTIFY)(bound_false.evaluate)


claim("planted/certify-own/covering-true-twin", kind="inequality", source="planted",
      statement="(x - 1/3)^2 + 2.5e-13 >= 2.5e-13 / 2 on [0, 1], declared covering: certified, no case drawn",
      domain=st.floats(0, 1), certify=COVERING, registry=PLANTED_CERTIFY)(bound_true.evaluate)


@claim("planted/certify-own/covering-too-narrow", kind="inequality", source="planted",
       statement="x <= 1 on [0, 2] (false above 1), with a box [0, 1] wrongly declared to cover it",
       domain=st.floats(0, 2), certify=COVERING, registry=PLANTED_CERTIFY)
def covering_too_narrow(x, xp):
    return le(xp.asarray(x), 1.0, xp)
