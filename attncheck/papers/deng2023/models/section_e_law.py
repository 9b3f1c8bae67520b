"""deng2023 Appendix E.1.3, Lemma E.3: the exact law of <c_exp(A, x)_{j0}, sigma>, sigma uniform in {-1, 1}^d, on
the row orbits (:meth:`~attncheck.papers.deng2023.strategies.attention.SelfAttentionCase.orbits`).

By column role the inner product is sum_g coef_g S_g, S_g the sum of sigma over role g
(:func:`~attncheck.papers.deng2023.models.section_e_signs.group_sizes`). The roles of one coordinate are
enumerated (at most 2^4 sign patterns); the role REST of w = d - 4 coordinates has S = 2B - w, B ~ Binomial(w, 1/2),
so each pattern passes with a binomial tail probability. :func:`pass_probability` encloses
Pr[<c_exp_{j0}, sigma> < tau] in an arb ball: coef_g (c_exp of Definition C.4) and tau = (c + 1/10) sqrt(log n) from
the case's exact inputs (n and the counts as integers, 1/10 exact); an integer B on which the strict '<' is not
decided by the balls counts both ways (the hull); the tails are integer sums up to :data:`EXACT_WIDTH` and
Hoeffding's bound beyond.
"""
from __future__ import annotations

import dataclasses
import itertools

import numpy as np
from flint import arb

from attncheck.numeric.interval import ARB, Ball
from attncheck.papers.deng2023.models.class_attention.section_e import c_exp
from attncheck.papers.deng2023.models.section_e_signs import ORBIT, group_sizes
from attncheck.papers.deng2023.strategies.attention import REST

#: widths up to this: binomial tails as exact integer sums (at most EXACT_WIDTH / 2 + 1 terms)
EXACT_WIDTH = 4096


def pass_probability(case, prec: int) -> arb:
    """An arb ball enclosing Pr_sigma[<c_exp(A, x)_{j0}, sigma> < tau] for the case's orbit of j0, computed at
    ``prec`` bits plus twice the bits of n (a count B near n/2 stays resolved)."""
    with ARB(prec + 2 * case.n.bit_length()).context():
        coef, tau = coefficients(case)
        sizes = group_sizes(case)
        singles = [g for g, size in enumerate(sizes) if size == 1 and g != REST]
        w = sizes[REST]
        ranges = [cutoffs(coef[REST], tau - sum(coef[g] * s for g, s in zip(singles, signs, strict=True)), w)
                  for signs in itertools.product((1, -1), repeat=len(singles))]
        tails = below(w, {K for pair in ranges for K in pair})
        return sum((tails[lo].union(tails[hi]) for lo, hi in ranges), arb(0)) / 2 ** len(singles)


def coefficients(case) -> tuple[list, arb]:
    """(coef_g per column role of the case's orbit, tau) as arb balls at the working precision: c_exp on the orbit
    model with n, the key counts and the widths exact (an empty role's width divides as 1, as in
    ``class_attention.incidence``)."""
    model = case.orbits()
    ints = lambda a: np.array([int(v) for v in a], dtype=object)  # noqa: E731
    exact = dataclasses.replace(model, n=Ball(model.n), key_counts=ints(model.key_counts),
                                column_counts=ints(np.maximum(model.column_counts, 1)))
    row = c_exp(exact, np.eye(5), ARB())[ORBIT[case.j0]]
    return [v.x for v in row], (arb(case.c) + arb(1) / 10) * arb(model.n).log().sqrt()


def cutoffs(coef: arb, r: arb, w: int) -> tuple[int, int]:
    """(K_lo, K_hi) with Pr[coef (2B - w) < r] in [P[B < K_lo], P[B < K_hi]], B ~ Binomial(w, 1/2): the number of
    counts that pass, at both ends of the balls. Where coef < 0 the counts are those of w - B (the same law)."""
    if w == 0:  # an empty role sums to 0, whatever its coefficient
        coef = arb(1)
    if coef > 0:
        return _below_ball((w + r / coef) / 2, w)
    if coef < 0:
        return _below_ball((w - r / coef) / 2, w)
    return 0, w + 1  # the coefficient's sign is not decided: anything from no count to every count passes


def _below_ball(q: arb, w: int) -> tuple[int, int]:
    """How many integers m in [0, w] satisfy m < q, at the lower and at the upper end of the ball q."""
    return tuple(min(max(int(end.ceil().unique_fmpz()), 0), w + 1) for end in (q.lower(), q.upper()))


def below(w: int, Ks) -> dict:
    """{K: P[B < K]} for B ~ Binomial(w, 1/2) and K in [0, w + 1], each from the smaller tail
    (P[B < K] = 1 - P[B < w + 1 - K]): exact for w <= EXACT_WIDTH, else in [0, exp(-2 s^2 / w)]
    with s = w/2 - (K - 1) (Hoeffding)."""
    low = {K: min(K, w + 1 - K) for K in Ks}
    tails = _exact_tails(w, set(low.values())) if w <= EXACT_WIDTH else \
        {k: _hoeffding(w, k) for k in set(low.values())}
    return {K: tails[k] if k == K else 1 - tails[k] for K, k in low.items()}


def _exact_tails(w: int, ks) -> dict:
    """{k: sum_{m < k} C(w, m) / 2^w} in integers, one pass up to the largest k."""
    out, total, term, m = {}, 0, 1, 0
    for k in sorted(ks):
        while m < k:
            total, term, m = total + term, term * (w - m) // (m + 1), m + 1
        out[k] = arb(total) / arb(2) ** w
    return out


def _hoeffding(w: int, k: int) -> arb:
    """A ball holding P[B < k] for k <= (w + 1)/2: [0, exp(-2 s^2 / w)], s = w/2 - (k - 1) > 0."""
    if k == 0:
        return arb(0)
    s = arb(w) / 2 - (k - 1)
    return arb(0).union((-2 * s * s / w).exp())
