"""Planted claims for the engine additions (draw cap, one-sided witnesses), in a private registry."""
import numpy as np
from hypothesis import strategies as st

from attncheck import claim, ge
from attncheck.core.claims import Registry

REG = Registry()
SEEN_SIZES = []


def _count(case, rng, size):
    SEEN_SIZES.append(size)
    return rng.random(size)


@claim("planted/draws/capped", kind="asymptotic", statement="U <= 1", source="planted", registry=REG,
       domain=lambda n: st.just(n), path={"quick": [10, 100, 1000]}, sample=_count, probability=0.5, draws=5)
def capped(n, U, xp):
    return np.asarray(U)


@claim("planted/witness/false", kind="inequality", statement="x >= 1 on [0, 2] (false)", source="planted",
       registry=REG, domain=st.floats(0, 2), refutable=False)
def witness_false(x, xp):
    return ge(xp.asarray(x), 1.0, xp)


@claim("planted/witness/growing", kind="asymptotic", statement="n bounded (false)", source="planted",
       registry=REG, domain=lambda n: st.just(n), path={"quick": [10, 100, 1000, 10**4]},
       sample=lambda n, rng, size: rng.random(size), probability=0.5, draws=3, refutable=False)
def witness_growing(n, U, xp):
    return n * (1.0 + np.asarray(U))
