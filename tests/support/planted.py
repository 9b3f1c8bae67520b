"""Planted claims with known truth, in a private registry (never collected as items).

False ones must be REFUTED (or ERROR), true ones must not be.
"""
import math

import numpy as np
from hypothesis import strategies as st

from attncheck import Slack, all_of, claim, close, ge, le, lt
from attncheck.core.claims import Registry
from attncheck.core.declarations import Certificate
from attncheck.papers.deng2023.models import toy
from attncheck.papers.deng2023.models.random_signs import rademacher_group_sums
from attncheck.papers.deng2023.strategies.toy import hoeffding_case, toy_case

PLANTED = Registry()
PATH = {"quick": [10, 10**2, 10**3, 10**4, 10**6, 10**9], "deep": [10, 10**3, 10**6, 10**9, 10**12]}
SMALL = {"quick": [2, 3, 10, 100], "deep": [2, 3, 10, 100]}


def _signs(case, rng, size):
    return rademacher_group_sums(case.scores.k, rng, (size,))


@claim("planted/lemma-4.2/part-2-at-0.99", kind="probabilistic", statement="Lemma 4.2 Part 2 with 1/4 -> 0.99",
       source="planted", domain=lambda n: toy_case(n, 1), sample=_signs, probability=1.0, path=SMALL,
       registry=PLANTED)
def lemma_4_2_part_2_false(case, S, xp):
    return ge(xp.abs(toy.grouped_inner(toy.f_exp_grouped(case.scores, xp), S, xp)), 0.99, xp)


@claim("planted/lemma-3.1/doubled", kind="probabilistic", statement="Hoeffding with the exponent doubled",
       source="planted", domain=hoeffding_case(), registry=PLANTED,
       sample=lambda c, rng, size: np.stack([rng.binomial(k, q, size) for k, q in zip(c.k, c.q, strict=False)], axis=-1),
       probability=lambda c: max(0.0, 1.0 - 2.0 * math.exp(-4.0 * c.t ** 2 / c.width2)))
def hoeffding_doubled(case, B, xp):
    a, b, k, q = (xp.asarray(v) for v in (case.a, case.b, case.k, case.q))
    dev = xp.sum((b - a) * (xp.asarray(B) - k * q), axis=-1)
    return lt(xp.abs(dev), xp.asarray(case.s) * xp.sqrt(xp.sum(k * (b - a) ** 2)), xp)


def lemma_4_1_part_2(power: float):
    """Lemma 4.1 Part 2 with n^0.1 replaced by n^power: true for 0.1 (as printed), false for 0.5."""
    reg = Registry()

    @claim(f"planted/lemma-4.1/part-2-at-n{power}", kind="asymptotic", statement=f"Lemma 4.1 Part 2 with n^{power}",
           source="planted", domain=lambda n: toy_case(n, 0), sample=_signs, path=PATH,
           probability=lambda c: 1.0 - c.delta, registry=reg)
    def implied(case, S, xp):
        f = toy.f_exp_grouped(case.scores, xp)
        return xp.abs(toy.grouped_inner(f, S, xp)) / (math.sqrt(case.L) / case.n ** power)

    return implied


VECTORS = st.lists(st.floats(-30, 30), min_size=1, max_size=8).map(np.array)


@claim("planted/softmax/shift", kind="identity", statement="f_exp(z + c) = f_exp(z)", source="planted",
       domain=st.tuples(VECTORS, st.floats(-50, 50)), registry=PLANTED)
def softmax_shift(case, xp):
    z, c = case
    A = xp.asarray(z)[:, None]
    return close(toy.f_exp(A + xp.asarray(c), [1.0], xp), toy.f_exp(A, [1.0], xp), 1e-9, 1e-300, xp)


@claim("planted/softmax/scale", kind="identity", statement="f_exp(2z) = f_exp(z) (false)", source="planted",
       domain=VECTORS, registry=PLANTED)
def softmax_scale(z, xp):
    A = xp.asarray(z)[:, None]
    return close(toy.f_exp(2.0 * A, [1.0], xp), toy.f_exp(A, [1.0], xp), 1e-9, 1e-300, xp)


@claim("planted/square/ge-identity", kind="inequality", statement="x^2 >= x on [0, 2] (false)", source="planted",
       domain=st.floats(0, 2), registry=PLANTED)
def square_ge(x, xp):
    x = xp.asarray(x)
    return ge(x * x, x, xp)


@claim("planted/precision/tie", kind="inequality", statement="(x + 1) - x - 1 >= 0 (an exact tie)",
       source="planted", domain=st.just(1e16), registry=PLANTED)
def tie(x, xp):
    x = xp.asarray(x)
    return Slack((x + 1.0) - x - 1.0, xp.abs(x))


@claim("planted/precision/hidden", kind="inequality", statement="(1 + 2^-60) - 1 <= 0 (false by 2^-60)",
       source="planted", domain=st.just(1.0), registry=PLANTED)
def hidden(one, xp):
    one = xp.asarray(one)
    return Slack(one - (one + xp.asarray(2.0) ** -60), one)


@claim("planted/precision/tie-among-three", kind="inequality",
       statement="all of 1 <= 2, (x + 1) - x - 1 >= 0 (an exact tie), 0 < 1 (mixed strictness, three elements)",
       source="planted", domain=st.just(1e16), registry=PLANTED)
def tie_among_three(x, xp):
    x = xp.asarray(x)
    return all_of(Slack(xp.asarray([1.0, (x + 1.0) - x - 1.0]), xp.asarray([3.0, xp.abs(x)])),
                  lt(xp.asarray(0.0), xp.asarray(1.0), xp))


@claim("planted/precision/hidden-among-three", kind="inequality",
       statement="all of 1 <= 2, (1 + 2^-60) - 1 <= 0 (false by 2^-60), 0 < 1 (mixed strictness, three elements)",
       source="planted", domain=st.just(1.0), registry=PLANTED)
def hidden_among_three(one, xp):
    one = xp.asarray(one)
    return all_of(Slack(xp.asarray([1.0, one - (one + xp.asarray(2.0) ** -60)]), xp.asarray([3.0, one])),
                  lt(xp.asarray(0.0), one, xp))


@claim("planted/precision/nan", kind="inequality", statement="0/0 >= 0 (undefined)", source="planted",
       domain=st.just(0.0), registry=PLANTED)
def nan(x, xp):
    with np.errstate(invalid="ignore", divide="ignore"):
        return ge(xp.asarray(x) / xp.asarray(x), 0.0, xp)


def bernoulli_claim(p_true: float, p_claimed: float):
    """Pr[U < p_true] >= p_claimed for U uniform: true iff p_true >= p_claimed."""
    reg = Registry()

    @claim(f"planted/bernoulli/{p_true}-vs-{p_claimed}", kind="probabilistic", statement="coin",
           source="planted", domain=st.just(p_true), sample=lambda c, rng, size: rng.random(size),
           probability=p_claimed, registry=reg)
    def coin(p, U, xp):
        return lt(xp.asarray(U), p, xp)

    return coin


X01 = st.floats(0, 1)


@claim("planted/certify/strict-true", kind="inequality", statement="x^2 + 1 > x on [0, 1]", source="planted",
       domain=X01, registry=PLANTED,
       certify=Certificate({"x": (0.0, 1.0)}, lambda v: v["x"] * v["x"] + 1 - v["x"], strict=True))
def certify_strict_true(x, xp):
    x = xp.asarray(x)
    return Slack(x * x + 1.0 - x, x * x + 1.0 + x, strict=True)


@claim("planted/certify/false-hidden", kind="inequality", statement="x^2 >= x - 0.2 on [0, 1] except near 0.45",
       source="planted", domain=st.sampled_from([0.0, 1.0]), registry=PLANTED,
       certify=Certificate({"x": (0.0, 1.0)}, lambda v: (v["x"] - 0.45) ** 2 - 1e-4))
def certify_false_hidden(x, xp):
    # Hypothesis is only shown the endpoints; the interval search covers the whole box
    x = xp.asarray(x)
    return Slack((x - 0.45) ** 2 - 1e-4, 1.0 + 0.0 * x)


@claim("planted/certify/tight", kind="inequality", statement="x^2 - x + 1/4 >= 0 (touches 0 at 1/2)",
       source="planted", domain=X01, registry=PLANTED,
       certify=Certificate({"x": (0.0, 1.0)}, lambda v: v["x"] * v["x"] - v["x"] + 0.25, max_boxes=500))
def certify_tight(x, xp):
    x = xp.asarray(x)
    return Slack(x * x - x + 0.25, x * x + x + 0.25)


def mean_sign_claim(power: float):
    """Pr[|sum of n signs| / n^power <= 1/4] >= 0.99, "for n large". power = 1: fails at small n
    only (concentration); power = 1/2: fails at every n (CLT: the probability tends to 0.197)."""
    reg = Registry()

    @claim(f"planted/mean-sign/{power}", kind="probabilistic", statement="concentration of a mean",
           source="planted", domain=lambda n: st.just(n), path={"quick": [2, 10, 1000, 10**6], "deep": [2, 10**6]},
           sample=lambda n, rng, size: rademacher_group_sums([n], rng, (size,))[:, 0],
           probability=0.99, eventually=True, registry=reg)
    def mean_sign(n, S, xp):
        return le(xp.abs(xp.asarray(S)) / n ** power, 0.25, xp)

    return mean_sign


@claim("planted/precision/below-240", kind="inequality", statement="2^-1000 >= 0 (true; below 240 digits: exact)",
       source="planted", domain=st.just(1.0), registry=PLANTED)
def below_240(one, xp):
    one = xp.asarray(one)
    return Slack(one * xp.asarray(2.0) ** -1000, one)


@claim("planted/precision/undecidable", kind="inequality", source="planted", domain=st.just(3.0), registry=PLANTED,
       statement=r"e^{\sqrt{2 + \sqrt 3}} \ge e^{\sqrt 6/2} e^{\sqrt 2/2} (true: an irrational tie no rewriting settles)")
def undecidable(three, xp):
    r3 = xp.sqrt(xp.asarray(three))
    return ge(xp.exp(xp.sqrt(2 + r3)), xp.exp(xp.sqrt(2 * r3 * r3) / 2) * xp.exp(xp.sqrt(xp.asarray(2.0)) / 2), xp)


def log_growth_claim():
    """log n <= n on a scaling path (true): a deterministic claim with a path."""
    reg = Registry()

    @claim("planted/path/log-le-n", kind="inequality", statement="log n <= n", source="planted",
           domain=lambda n: st.just(n), path={"quick": [1, 10, 10**6], "deep": [1, 10**9]}, registry=reg)
    def log_le_n(n, xp):
        n = xp.asarray(float(n))
        return le(xp.log(n), n, xp)

    return log_le_n
