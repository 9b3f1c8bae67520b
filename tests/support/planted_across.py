"""Planted claims for asymptotic paths across a second parameter (``across="L"``), in a private registry."""
import math

import numpy as np
from hypothesis import strategies as st

from attncheck import claim
from attncheck.core.claims import Registry

REG = Registry()
PATH = {"quick": [{"n": n, "L": L} for L in (2, 4, 8) for n in (10, 100, 1000)]}


def _u(case, rng, size):
    return rng.random(size)


@claim("planted/across/true", kind="asymptotic", statement="c(n, L) = O(e^{CL}) (true: e^{0.7 L})",
       source="planted", registry=REG, domain=lambda p: st.just(p), path=PATH, sample=_u, probability=0.5,
       draws=3, across="L")
def across_true(p, U, xp):
    return math.exp(0.7 * p["L"]) * (1.0 + 0.1 * np.asarray(U))


@claim("planted/across/false-at-one-depth", kind="asymptotic", source="planted", registry=REG,
       statement="c(n, L) = O(e^{CL}) (false: grows like sqrt(n) at L = 8 only, below the other depths' level)",
       domain=lambda p: st.just(p), path=PATH, sample=_u, probability=0.5, draws=3, across="L")
def across_false(p, U, xp):
    base = 50.0 if p["L"] < 8 else math.sqrt(p["n"]) / 10
    return base * (1.0 + 0.01 * np.asarray(U))
