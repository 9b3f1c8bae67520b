"""The exact law of Lemma E.3's inner product (models/section_e_law.py): against Monte Carlo of the sampler, against
brute-force enumeration of every sign vector, its ties, its tails, and planted wrong formulas that must fail."""
import math

import mpmath
import numpy as np
import pytest
from flint import arb, fmpq
from scipy import stats

from attncheck.numeric.interval import ARB
from attncheck.numeric.precision import F64, MP
from attncheck.papers.deng2023.models import section_e_law as law
from attncheck.papers.deng2023.models import section_e_signs as signs
from attncheck.papers.deng2023.models.class_attention.section_e import c_exp
from attncheck.papers.deng2023.strategies.attention import FIRST, LAST, OWN, R3, REST, SelfAttentionCase


def _case(k, t, b, j0, a=1.2, delta=0.01):
    return SelfAttentionCase(k * t, k + 2, a, b, math.sqrt(1 - b * b), k * t - 1, j0=j0, delta=delta)


# (k, t, b, orbit): one-coordinate roles only (k = 1, 2), a binomial REST (k = 5 ... 13) and a wide one (k = 300),
# each with a pass probability strictly inside (0, 1)
SMALL = [(1, 8, 0.3, "same-residue"), (2, 5, 0.5, "other-residue"), (5, 4, 0.7, "same-residue"),
         (8, 2, 0.7, "other-residue"), (10, 3, 0.6, "same-residue"), (13, 2, 0.7, "other-residue")]
MC = SMALL + [(300, 2, 0.7, "other-residue")]


def _p(case) -> float:
    """The exact pass probability as a float (its enclosure is far narrower than the tests' tolerances)."""
    p = law.pass_probability(case, 128)
    assert p.rad() < 1e-30
    return float(p)


@pytest.mark.parametrize("k, t, b, j0", MC)
def test_the_exact_law_agrees_with_monte_carlo_of_the_sampler(k, t, b, j0):
    """Within 5 standard errors of 200000 draws of the claim's former sampler (sign_groups, inner, tau in float64)."""
    case, draws = _case(k, t, b, j0), 200_000
    p = _p(case)
    assert 0.0 < p < 1.0
    S = signs.signs(case, np.random.default_rng(k), draws)
    rate = np.mean(signs.inner(case, S, F64) < signs.tau(case, F64))
    assert abs(rate - p) <= 5 * math.sqrt(p * (1 - p) / draws), (rate, p)


def _brute_force(case) -> fmpq:
    """Pr[<c_exp_{j0}, sigma> < tau] over all 2^d sign vectors, each inner product in mpmath at 50 digits."""
    roles = [FIRST, R3] + [OWN] * (case.k >= 2) + [REST] * (case.k - 2) + [LAST]
    assert len(roles) == case.d
    sigma = 1 - 2 * ((np.arange(2**case.d)[:, None] >> np.arange(case.d)) & 1)
    sums = np.stack([sigma[:, [i for i, r in enumerate(roles) if r == g]].sum(axis=1) for g in range(5)], axis=1)
    rows, counts = np.unique(sums, axis=0, return_counts=True)
    with mpmath.workdps(50):
        coef = c_exp(case.orbits(), np.eye(5), MP(50))[signs.ORBIT[case.j0]]
        tau = (mpmath.mpf(case.c) + mpmath.mpf(1) / 10) * mpmath.sqrt(mpmath.log(case.n))
        inner = [mpmath.fsum(int(s) * c for s, c in zip(row, coef, strict=True)) for row in rows]
        assert all(abs(v - tau) > mpmath.mpf(10) ** -30 for v in inner)  # no tie these digits cannot decide
        return fmpq(int(sum(m for v, m in zip(inner, counts, strict=True) if v < tau)), 2**case.d)


def _agrees(case) -> bool:
    """The exact law's enclosure holds the brute-force probability."""
    return law.pass_probability(case, 128).contains(_brute_force(case))


@pytest.mark.parametrize("k, t, b, j0", SMALL)
def test_the_exact_law_agrees_with_brute_force_enumeration(k, t, b, j0):
    case = _case(k, t, b, j0)
    assert 0 < _brute_force(case) < 1
    assert _agrees(case)


PLANTED = {
    "REST one coordinate short": ("group_sizes", lambda case: (1, 1, int(case.k >= 2), max(case.k - 3, 0), 1)),
    "'<' read as '<='": ("cutoffs", lambda coef, r, w, cutoffs=law.cutoffs: tuple(
        min(K + 1, w + 1) for K in cutoffs(coef, r, w))),
    "B ~ Binomial(w, 0.45)": ("_exact_tails", lambda w, ks: {
        k: arb(stats.binom.cdf(k - 1, w, 0.45)) for k in ks}),
}


@pytest.mark.parametrize("name", PLANTED)
def test_a_planted_wrong_formula_fails_the_brute_force_check(monkeypatch, name):
    attribute, wrong = PLANTED[name]
    monkeypatch.setattr(law, attribute, wrong)
    assert not all(_agrees(_case(*c)) for c in SMALL)


def test_ties_of_the_strict_threshold():
    """Pr[coef (2B - w) < r]: a count on the threshold fails; one the balls cannot place counts both ways."""
    tails = law.below(4, range(6))
    assert [tails[K] for K in range(6)] == [0, arb(1) / 16, arb(5) / 16, arb(11) / 16, arb(15) / 16, 1]
    assert law.cutoffs(arb(1), arb(2), 4) == (3, 3)  # 2B - 4 < 2: B = 3 sits on it and fails
    assert law.cutoffs(arb(-1), arb(-2), 4) == (1, 1)  # 4 - 2B < -2: only B = 4, one count of w - B
    assert law.cutoffs(arb(1), arb(2, 1e-30), 4) == (3, 4)  # B = 3 undecided: [11/16, 15/16]
    assert law.cutoffs(arb(0, 1e-30), arb(2), 4) == (0, 5)  # the coefficient's sign undecided: [0, 1]
    assert [law.cutoffs(arb(0), arb(r), 0) for r in (1, 0, -1)] == [(1, 1), (0, 0), (0, 0)]  # S = 0 < r


@pytest.mark.parametrize("w", [1, 7, 64, 301])
def test_exact_tails_are_the_binomial_law(w):
    with ARB(1024).context():  # the tails are dyadic with at most w + 1 bits: exact at 1024 bits
        for K, v in law.below(w, range(w + 2)).items():
            assert v == arb(sum(math.comb(w, m) for m in range(K))) / 2**w, K


def test_hoeffding_tails_enclose_the_exact_ones(monkeypatch):
    """Beyond EXACT_WIDTH: [0, exp(-2 s^2 / w)] on the smaller tail, 1 minus it on the other side."""
    w, Ks = 200, range(0, 201, 7)
    with ARB(128).context():
        exact = law.below(w, Ks)
        monkeypatch.setattr(law, "EXACT_WIDTH", 100)
        bound = law.below(w, Ks)
        for K in Ks:
            assert bound[K].contains(exact[K]), K
        assert bound[28].upper() < 1e-20 and 1 - bound[175].lower() < 1e-20


def test_the_law_reaches_beyond_int64():
    """n = 10^40 (d - 2 = 10^10): the orbit counts are Python integers and the enclosure is narrow."""
    case = _case(10**10, 10**30, 0.4, "other-residue")
    assert case.orbits().key_counts.dtype == object
    with ARB(256).context():
        p = law.pass_probability(case, 128)
        assert 1 - p.lower() < arb(10) ** -30 and p.rad() < arb(10) ** -30
