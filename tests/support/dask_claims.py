"""A small claims file for the Dask backend tests (not collected: no test_ prefix).

True and false twins of each kind the backend must carry: inequality, probabilistic, erratum.
"""
from hypothesis import strategies as st

from attncheck import Erratum, claim, ge, le, lt


@claim("dask/fact-1/true", kind="inequality", statement="x^2 >= 0", source="planted", domain=st.floats(-1e3, 1e3))
def square_nonnegative(x, xp):
    x = xp.asarray(x)
    return ge(x * x, 0.0 * x, xp)


@claim("dask/fact-1/false", kind="inequality", statement="x <= 1/2 on [0, 1]", source="planted",
       domain=st.floats(0, 1))
def half(x, xp):
    return le(xp.asarray(x), 0.5, xp)


@claim("dask/coin/true", kind="probabilistic", statement="Pr[U < 1/2] >= 0.4 for U ~ U(0, 1)", source="planted",
       domain=st.just(0.5), sample=lambda c, rng, size: rng.random(size), probability=0.4)
def coin_true(p, u, xp):
    return lt(xp.asarray(u), p, xp)


@claim("dask/coin/false", kind="probabilistic", statement="Pr[U < 1/2] >= 0.6 for U ~ U(0, 1)", source="planted",
       domain=st.just(0.5), sample=lambda c, rng, size: rng.random(size), probability=0.6)
def coin_false(p, u, xp):
    return lt(xp.asarray(u), p, xp)


@claim("dask/fact-3/stated", kind="inequality", statement="x <= 0.9 on [0, 1]", source="planted",
       domain=st.floats(0, 1), erratum=Erratum("dask/fact-3/corrected", "holds on [0, 0.9] only"))
def stated(x, xp):
    return le(xp.asarray(x), 0.9, xp)


@claim("dask/fact-3/corrected", kind="inequality", statement="x <= 0.9 on [0, 0.9]", source="planted",
       domain=st.floats(0, 0.9))
def corrected(x, xp):
    return le(xp.asarray(x), 0.9, xp)
