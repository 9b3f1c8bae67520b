"""deng2023 Sections 3-5: Hoeffding (Lemma 3.1), dataset properties (Lemmas 4.1, 4.2)
and the toy classifier (Lemmas 5.1-5.4), each claim part as printed.

The readings of the open phrases (natural logarithm, delta, "1 - delta/poly(n)", the Definition 3.8
scores, tau, m) are deng2023's shared ones (attncheck/papers/deng2023/readings.py), referenced by each claim.
"""
import math

import numpy as np
from hypothesis import strategies as st

from attncheck import Reading, claim, close, ge, gt, lt
from attncheck.papers.deng2023.certification import TOY_GENERAL, TOY_SPIKE
from attncheck.papers.deng2023.models import toy
from attncheck.papers.deng2023.models.random_signs import rademacher_group_sums
from attncheck.papers.deng2023.readings import (
    C_LARGE,
    DELTA,
    DELTA_SMALL,
    EVENTUALLY,
    LOG,
    M_POSITIVE,
    M_ZERO,
    POLY,
    TOY_NETWORK,
    TOY_SCORES,
    TOY_TAU,
)
from attncheck.papers.deng2023.strategies import m_large, m_smallest
from attncheck.papers.deng2023.strategies.toy import hoeffding_case, toy_case

SMALL_TO_HUGE = {"quick": [2, 10, 100, 10**3, 10**4, 10**6, 10**9],
                 "deep": [2, 3, 5, 10, 30, 100, 300, 10**3, 10**4, 10**5, 10**6, 10**8, 10**10, 10**12]}
GROWTH = {"quick": [10, 10**2, 10**3, 10**4, 10**6, 10**9, 10**12],
          "deep": [10, 10**2, 10**3, 10**4, 10**5, 10**6, 10**8, 10**10, 10**12, 10**15]}


def signs(case, rng, size):
    """sigma ~ {-1, +1}^n, summarised by group sums (exact in distribution)."""
    return rademacher_group_sums(case.scores.k, rng, (size,))


def sign_matrices(case, rng, size):
    """y in {-1, +1}^{n x m} with i.i.d. Rademacher entries (Definition 3.7), by group sums."""
    return rademacher_group_sums(case.scores.k, rng, (size, case.m))


# ---- Lemma 3.1 --------------------------------------------------------------------------

def _hoeffding_draws(case, rng, size):
    return np.stack([rng.binomial(k, q, size) for k, q in zip(case.k, case.q, strict=False)], axis=-1)


@claim(
    "deng2023/lemma-3.1/main", kind="probabilistic", source="deng2023 Section 3.1, Lemma 3.1 (Hoeffding)",
    statement=r"X_i \text{ independent in } [a_i, b_i],\ X = \sum_i X_i: "
              r"\Pr[|X - E[X]| \ge t] \le 2\exp(-2t^2 / \sum_i (b_i - a_i)^2)",
    domain=hoeffding_case(),
    sample=_hoeffding_draws,
    probability=lambda c: max(0.0, 1.0 - 2.0 * math.exp(-2.0 * c.t ** 2 / c.width2)),
    reading=Reading(notes={
        "role": "instrument sanity claim: a true theorem the engine must never refute",
        "variables": "groups of i.i.d. two-point variables on {a, b} (the extremal distributions), "
                     "up to 10^6 per group; t = s * sqrt(sum (b_i - a_i)^2) with s in [0.05, 2.5]",
        "checked as": "Pr[|X - E X| < t] >= 1 - bound; a bound >= 1 claims nothing (probability 0)",
    }),
)
def hoeffding(case, B, xp):
    a, b, k, q = (xp.asarray(v) for v in (case.a, case.b, case.k, case.q))
    dev = xp.sum((b - a) * (xp.asarray(B) - k * q), axis=-1)
    t = xp.asarray(case.s) * xp.sqrt(xp.sum(k * (b - a) ** 2))
    return lt(xp.abs(dev), t, xp)


# ---- Definitions 3.2-3.3: well-formedness ---------------------------------------------------

def _matrices(lo, hi):
    """(A, x) with A in [lo, hi]^{n x d}, x in [lo, hi]^d, n <= 8, d <= 4."""
    return st.tuples(st.integers(1, 8), st.integers(1, 4)).flatmap(lambda nd: st.tuples(
        st.lists(st.floats(lo, hi), min_size=nd[0] * nd[1], max_size=nd[0] * nd[1]).map(
            lambda v: np.reshape(v, nd)),
        st.lists(st.floats(lo, hi), min_size=nd[1], max_size=nd[1]).map(np.array)))


@claim(
    "deng2023/definition-3.3/normalized", kind="identity", source="deng2023 Section 3.2, Definition 3.3",
    statement=r"\sum_i f_{\mathrm{exp}}(A, x)_i = 1",
    domain=_matrices(-100.0, 100.0),
    reading=Reading(notes={"inputs": "general A (n x d, n <= 8, d <= 4) and x with entries in [-100, 100], so Ax "
                              "reaches +-40000 where exp overflows: f_exp is evaluated in log domain",
                    "check": "sum to 1 within 1e-9 relative (well above the float64 margin 1e-11)"}),
    certify=TOY_GENERAL,
)
def definition_3_3(case, xp):
    A, x = case
    return close(xp.sum(toy.f_exp(A, x, xp), axis=-1), 1.0, 1e-9, xp=xp)


@claim(
    "deng2023/definition-3.2/normalized", kind="identity", source="deng2023 Section 3.2, Definition 3.2",
    statement=r"\sum_i f_{\mathrm{lin}}(A, x)_i = 1 \text{ whenever } \alpha_{\mathrm{lin}}(A, x) \ne 0",
    domain=_matrices(0.0, 100.0).filter(lambda c: np.sum(c[0] @ c[1]) > 0),
    reading=Reading(notes={"inputs": "A, x with entries in [0, 100] and alpha_lin > 0 (f_lin is undefined at "
                              "alpha_lin = 0; signed entries make the sum ill-conditioned, which would test "
                              "float64 rather than the definition)"}),
    certify=TOY_GENERAL,
)
def definition_3_2(case, xp):
    A, x = case
    return close(xp.sum(toy.f_lin(A, x, xp), axis=-1), 1.0, 1e-9, xp=xp)


# ---- Lemma 4.1 (D0) and Lemma 4.2 part 1 (D1): implied constants ---------------------------

def _growth_claim(cid, label, f, bound, statement, proof_rate):
    """An implied-constant claim |<f(A), sigma>| <= C * bound(case) w.p. 1 - delta."""

    @claim(
        cid, kind="asymptotic", source=f"deng2023 Section 4, {statement[0]}",
        statement=statement[1],
        domain=lambda n: toy_case(n, label), sample=signs, path=GROWTH,
        probability=lambda c: 1.0 - c.delta,
        reading=Reading(shared=(C_LARGE, POLY, DELTA, LOG, TOY_SCORES), unchecked=(DELTA_SMALL,), notes={
            "C": "the ratio is |sum_i f_i sigma_i| / bound",
            "proof": proof_rate,
        }),
    )
    def implied(case, S, xp):
        return xp.abs(toy.grouped_inner(f(case.scores, xp), S, xp)) / bound(case)

    return implied


lemma_4_1_part_1 = _growth_claim(
    "deng2023/lemma-4.1/part-1", 0, toy.f_lin_grouped, lambda c: math.sqrt(c.L / c.n),
    ("Lemma 4.1 Part 1", r"A \in D_0: \Pr_\sigma[|\sum_i f_{\mathrm{lin}}(A,x)_i \sigma_i| \le C \sqrt{\log(n/\delta)}/\sqrt{n}] "
                         r"\ge 1 - \delta/\mathrm{poly}(n)"),
    "the proof bounds |f_lin(A,x)_i| <= 2/n and applies Hoeffding")
lemma_4_1_part_2 = _growth_claim(
    "deng2023/lemma-4.1/part-2", 0, toy.f_exp_grouped, lambda c: math.sqrt(c.L) / c.n ** 0.1,
    ("Lemma 4.1 Part 2", r"A \in D_0: \Pr_\sigma[|\sum_i f_{\mathrm{exp}}(A,x)_i \sigma_i| \le C \sqrt{\log(n/\delta)}/n^{0.1}] "
                         r"\ge 1 - \delta/\mathrm{poly}(n)"),
    "the proof bounds |f_exp(A,x)_i| <= n^{-0.6} and applies Hoeffding")
lemma_4_2_part_1 = _growth_claim(
    "deng2023/lemma-4.2/part-1", 1, toy.f_lin_grouped, lambda c: math.sqrt(c.L / c.n),
    ("Lemma 4.2 Part 1", r"A \in D_1: \Pr_\sigma[|\sum_i f_{\mathrm{lin}}(A,x)_i \sigma_i| \le C \sqrt{\log(n/\delta)/n}] "
                         r"\ge 1 - \delta/\mathrm{poly}(n)"),
    "the proof bounds |f_lin(A,x)_i| <= 4/(n+3) and applies Hoeffding")


# ---- Lemma 4.2 parts 2 and 3 (D1): exact probabilities ---------------------------------------

D1_SHARED = (TOY_SCORES, LOG)
D1_COMMON = {"spike": "the D_1 spike 4 log n at one index",
             "n": "every n >= 2 of the path (the proof assumes n >= 4; the statement does not)"}


@claim(
    "deng2023/lemma-4.2/part-2", kind="inequality", source="deng2023 Section 4, Lemma 4.2 Part 2",
    statement=r"A \in D_1: \Pr_\sigma[|\sum_i f_{\mathrm{exp}}(A,x)_i \sigma_i| \ge 1/4] \ge 1",
    domain=lambda n: toy_case(n, 1), path=SMALL_TO_HUGE,
    reading=Reading(shared=D1_SHARED, notes=dict(D1_COMMON, probability=(
        "'Pr >= 1' is a for-all over the 2^n sign vectors (docs/design.md: 'with probability 1' is a for all), decided "
        "by the adversarial sigma (+1 at the spike, -1 elsewhere), which attains min_sigma |<f, sigma>| = w - R "
        "whenever the spike weight w outweighs the rest R = 1 - w; a case where it does not is an ERROR, never "
        "a pass (none occurs on D1: w >= 16/18.7 at n = 2)"))),
    certify=TOY_SPIKE,
)
def lemma_4_2_part_2(case, xp):
    return ge(toy.min_abs_signed_sum(toy.f_exp_grouped(case.scores, xp), case.scores.k, xp), 0.25, xp)


def _sign_claim(suffix, sign, word):
    @claim(
        f"deng2023/lemma-4.2/part-3-{suffix}", kind="probabilistic", relation="==", probability=0.5,
        source="deng2023 Section 4, Lemma 4.2 Part 3",
        statement=rf"A \in D_1: \Pr[\sum_i f_{{\mathrm{{exp}}}}(A,x)_i \sigma_i {word} 0] = 1/2",
        domain=lambda n: toy_case(n, 1), sample=signs, path=SMALL_TO_HUGE,
        reading=Reading(shared=D1_SHARED, notes=dict(D1_COMMON, parts="Part 3 states two equalities; -pos is '> 0', -neg is '< 0'",
                            probability="equality: refuted when 1/2 leaves the exact two-sided interval")),
    )
    def part_3(case, S, xp):
        return gt(sign * toy.grouped_inner(toy.f_exp_grouped(case.scores, xp), S, xp), 0.0, xp)

    return part_3


lemma_4_2_part_3_pos = _sign_claim("pos", 1.0, ">")
lemma_4_2_part_3_neg = _sign_claim("neg", -1.0, "<")


# ---- Lemmas 5.1-5.4: the classifier F_exp / F_lin -----------------------------------------------

TAU_QUARTER = lambda n, d: st.just(0.25)  # noqa: E731
TAU_BELOW_QUARTER = lambda n, d: st.one_of(st.just(0.25), st.floats(1e-6, 0.25))  # noqa: E731

NETWORK = (TOY_NETWORK, LOG, POLY, DELTA, TOY_SCORES, EVENTUALLY)
NETWORK_NOTES = {"n": "'C sufficiently large' in m = C log(n/delta) makes the claim asymptotic"}


def _network_claim(cid, label, f, want_zero, statement, tau, m_rule, readings, notes, source):
    @claim(
        cid, kind="probabilistic", source=source, statement=statement,
        domain=lambda n: toy_case(n, label, m_rule=m_rule, tau=tau),
        sample=sign_matrices, probability=lambda c: 1.0 - c.delta, path=SMALL_TO_HUGE, eventually=True,
        reading=Reading(shared=NETWORK + readings, unchecked=(DELTA_SMALL,), notes=dict(NETWORK_NOTES, **notes)),
    )
    def network(case, Y, xp):
        top = np.max(toy.grouped_inner(f(case.scores, xp), Y, xp), axis=-1)
        return ge(case.tau, top, xp) if want_zero else gt(top, case.tau, xp)

    return network


lemma_5_1 = _network_claim(
    "deng2023/lemma-5.1/main", 0, toy.f_exp_grouped, True,
    r"A \in D_0: F_{\mathrm{exp}}(A) = 0 \text{ with probability at least } 1 - \delta/\mathrm{poly}(n)",
    TAU_QUARTER, m_smallest, (TOY_TAU, M_ZERO), {}, "deng2023 Section 5.1, Lemma 5.1")
lemma_5_2 = _network_claim(
    "deng2023/lemma-5.2/main", 1, toy.f_exp_grouped, False,
    r"A \in D_1: F_{\mathrm{exp}}(A) > 0 \text{ with probability at least } 1 - \delta/\mathrm{poly}(n)",
    TAU_BELOW_QUARTER, m_large, (M_POSITIVE,),
    {"tau": "every tau in (0, 1/4]: the proof's step needs tau below the 1/4 of Lemma 4.2 Part 2",
     "m": "the failure probability 2^-m falls with C; with C close to 1 the claim fails at n = 2 for delta < 1/64 "
          "(2^-6 > delta)"},
    "deng2023 Section 5.1, Lemma 5.2")
lemma_5_3 = _network_claim(
    "deng2023/lemma-5.3/main", 0, toy.f_lin_grouped, True,
    r"A \in D_0: F_{\mathrm{lin}}(A) = 0 \text{ with probability at least } 1 - \delta/\mathrm{poly}(n)",
    TAU_QUARTER, m_smallest, (TOY_TAU, M_ZERO), {}, "deng2023 Section 5.2, Lemma 5.3")
lemma_5_4 = _network_claim(
    "deng2023/lemma-5.4/main", 1, toy.f_lin_grouped, True,
    r"A \in D_1: F_{\mathrm{lin}}(A) = 0 \text{ with probability at least } 1 - \delta/\mathrm{poly}(n)",
    TAU_QUARTER, m_smallest, (TOY_TAU, M_ZERO), {}, "deng2023 Section 5.2, Lemma 5.4")
