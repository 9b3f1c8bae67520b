"""deng2023 Appendix E.1.3-E.1.4 (Lemma E.3, Theorem E.4; QK^T = I_d, the D1 datasets of Definition D.1): the
random signs sigma, y_l in {-1, 1}^d reduced to their sums over the five column roles of the row orbits
(:meth:`attncheck.papers.deng2023.strategies.attention.SelfAttentionCase.orbits`), the inner products
<c_exp(A, x)_{j0}, sigma> of Lemma E.3 (c_exp of Definition C.4), the threshold tau = (c + 0.1) sqrt(log n), and the
network of Theorem E.4 (F_exp > 0 iff some <c_exp(j0), y_l> > tau, Definition C.6): which columns fire and the
network sizes m* cut from one i.i.d. stream of columns.
"""
from __future__ import annotations

import numpy as np

from attncheck.numeric.precision import F64
from attncheck.papers.deng2023.models.class_attention.section_e import c_exp, n_value
from attncheck.papers.deng2023.models.random_signs import rademacher_group_sums
from attncheck.papers.deng2023.strategies.attention import OWN, REST

ORBIT = {"j3": 0, "same-residue": 1, "other-residue": 2}


def log_n(case, xp):
    return xp.log(n_value(case.n, xp))


def sqrt_log_n(case, xp):
    return xp.sqrt(log_n(case, xp))


def group_sizes(case) -> tuple[int, ...]:
    """How many coordinates of sigma each column role holds (FIRST, R3, OWN, REST, LAST: 1, 1, 1 if d >= 4,
    d - 4, 1), as Python integers."""
    return 1, 1, int(case.k >= 2), max(case.k - 2, 0), 1


def sign_groups(case, shape, rng):
    """Sums of sigma over the five column roles (:func:`group_sizes`), shape ``shape + (5,)``, exact in
    distribution; an empty role sums to 0."""
    return rademacher_group_sums(np.array(group_sizes(case)), rng, shape)


def signs(case, rng, size):
    """sigma uniform in {-1, 1}^d, one per draw, as group sums: shape (size, 5)."""
    return sign_groups(case, (size,), rng)


def inner(case, S, xp):
    """<c_exp(A, x)_{j0}, sigma> for the case's orbit of j0."""
    coefficients = c_exp(case.orbits(), np.eye(5), xp)[ORBIT[case.j0]]
    return xp.asarray(S) @ coefficients


def tau(case, xp):
    return (case.c + 0.1) * sqrt_log_n(case, xp)


STREAM = 12
"""Columns y_l drawn per network on average in Theorem E.4 (a column fires with probability >= 1/8)."""


def columns(case, rng, size):
    """One i.i.d. stream of STREAM * size columns y_l in {-1, 1}^d, as group sums: shape (STREAM * size, 5)."""
    return sign_groups(case, (STREAM * size,), rng)


def best_other_residue(case, v_rep, S, coefficients):
    """max over rows of residues r != r3 of <c_exp(j0), y_l>, from the representative residue's value.

    For a row of residue r the value is base + c_rest (S_all - y_r) + c_own y_r, S_all the sum over
    the d - 3 residues other than r3; the best r takes y_r = +1 if some such sign is +1 and
    c_own >= c_rest, y_r = -1 if some sign is -1 and c_own < c_rest."""
    gain = coefficients[OWN] - coefficients[REST]
    plus = (S[..., OWN] > 0) + (S[..., REST] + case.k - 2) // 2
    best = np.where(gain >= 0, np.where(plus >= 1, 1, -1), np.where(plus <= case.k - 2, -1, 1))
    return v_rep + gain * (best - S[..., OWN])


def fires(case, S):
    """Whether column y_l makes F_exp > 0: max over all rows j0 of <c_exp(j0), y_l> > tau."""
    coefficients = c_exp(case.orbits(), np.eye(5), F64)
    v = S @ coefficients.T
    rows = [v[..., 0]] + [v[..., 1]] * (case.t >= 2)
    rows += [best_other_residue(case, v[..., 2], S, coefficients[2])] * (case.k >= 2)
    return np.max(rows, axis=0) > tau(case, F64)


def network_sizes(case, S, size):
    """m* of ``size`` independent networks: the gaps between firing columns of the i.i.d. stream S
    (a network's m* is the number of its columns up to the first that fires)."""
    firing = np.flatnonzero(fires(case, S))
    if firing.size < size:
        raise ValueError(f"{firing.size} of {len(S)} columns fire, fewer than the {size} networks: "
                         f"the firing probability is below 1/{STREAM}; raise STREAM")
    return np.diff(firing[:size], prepend=-1)
