"""deng2023 Appendix F (cross-attention, Definition F.1): Lemmas F.2-F.16, Theorems F.5,
F.9, F.13, F.17 and Theorem 1.2, each claim part as printed.

Shared reading (in each claim's reading; the shared ones in attncheck/papers/deng2023/readings.py): Definition F.1 as read by
attncheck/data/attention.py (columns 2..d of A1 are log n, of A2 = A3 the stacked I_{d-1});
natural logarithm; QK^T = I_d and V = I_d; every position of j2 and j3; "with probability
1 - delta/poly(n)" read as Pr >= 1 - delta with delta in [10^-3, 0.1) (deng2023's one reading,
see test_deng2023_self_attention.py); the sign lemmas and theorems run on a path over (beta, n). Evaluation is
exact and O(1) in n and d (attncheck/models/class_attention/definition_f1.py), so every claim
runs from n = 2 to n = 10^9 (quick) and 10^15 (deep).

Printed hypotheses that contradict their section are kept and, where refuted, paired
with a ``-corrected`` claim: the section's dataset (F.6, F.9, F.14: D0; F.11: D1) and the
special index j2 of the row (Lemmas F.4, F.7, F.11, F.14 condition on j0 = j3 where the
u/f lemmas, the proofs and Lemmas F.3, F.10, F.15 use j0 = j2).
"""
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from hypothesis import strategies as st

from attncheck import Erratum, Slack, all_of, claim, close, ge, gt, le, lt
from attncheck.core.paths import grid
from attncheck.papers.deng2023 import readings as r
from attncheck.papers.deng2023.certification import DENSE, LARGEST_COLUMN, cross
from attncheck.papers.deng2023.models.class_attention import definition_f1 as cm
from attncheck.papers.deng2023.readings import structured
from attncheck.papers.deng2023.strategies import m_large, m_smallest
from attncheck.papers.deng2023.strategies.cross_attention import A1_MAX, cross_case, pair_case

SIZES = {"quick": [2, 12, 360, 10**4, 10**6, 10**9],
         "deep": [2, 3, 4, 6, 12, 60, 360, 5040, 10**4, 10**5, 10**6, 10**8, 10**9, 10**12, 10**15]}
BETAS = {"quick": (0.1, 0.25, 1.0), "deep": (0.1, 0.125, 0.15, 0.2, 0.25, 0.35, 0.5, 0.75, 1.0)}
BETA_N = {"quick": [10**2, 10**4, 10**6, 10**9, 10**12, 10**15, 10**18],
          "deep": [10**2, 10**3, 10**4, 10**5, 10**6, 10**8, 10**9, 10**10, 10**12, 10**14, 10**15, 10**16, 10**18]}
BETA_PATH = {p: grid("beta", BETAS[p], BETA_N[p]) for p in BETAS}

ROW = {
    "j0 = j2": lambda j0, j2, j3: j0 == j2,
    "j0 != j2": lambda j0, j2, j3: j0 != j2,
    "j0 = j3": lambda j0, j2, j3: j0 == j3,
    "j0 != j3": lambda j0, j2, j3: j0 != j3,
}
KEY = {"j1 = j3": (cm.KEY_J3,), "j1 != j3": (cm.KEY_R3, cm.KEY_REST), "any j1": (cm.KEY_J3, cm.KEY_R3, cm.KEY_REST)}
COLUMN = {"i0 = 1": (cm.FIRST,), "i0 in {2..d}": (cm.R3, cm.REST)}
DATASET = {0: r"\mathcal{D}_0", 1: r"\mathcal{D}_1"}

COMMON = {
    "dataset": (r.DEFINITION_F1, r.LOG),
    "attention": r.EVALUATION_F,
    "indices": r.INDICES_F,
    "a0": (r.A0_F, r.A0_F_ENDS),
    "a1": (r.A1_F, r.A1_F_LARGE, r.A1_F_NEAR_1),
}
EXACT = dict(COMMON, sizes=r.SIZES_F)
GROWTH = dict(COMMON, sizes=(r.GROWTH_F, r.BETA_F_SMALL), n=r.EVENTUALLY)
SIGNS = dict(GROWTH, sigma=r.SIGMA_F, probability=(r.POLY, r.DELTA, r.DELTA_SMALL), row=r.ROWS_F)
NETWORK = dict(GROWTH, network=r.NETWORK_F, y=r.Y_F, tau="tau = 0.9 as stated",
               x="x = vec(I_d), V = I_d: the setting of the lemmas the proofs use (the theorems leave x open)",
               delta=(r.DELTA, r.DELTA_SMALL, r.POLY))
M_ZERO = r.M_ZERO
M_POSITIVE = r.M_POSITIVE

A0_FREE = ("a0 is a parameter of Definition F.1 ('assume the following parameters: a0 in (0, 0.1), a1 > 1') "
           "while the printed dataset D1 is built with a1; no admissible reading identifies them (a1 > 1 > a0)")
A1_FREE = ("a1 is a parameter of Definition F.1 ('a0 in (0, 0.1), a1 > 1') while the printed dataset D0 is "
           "built with a0")


ERRATA = {  # what is wrong in the stated claim, and the evidence (quick profile, seed 0)
    "deng2023/lemma-f.2/part-4a": (
        "Part 4 repeats 'j0 = j2' where its proof (f = n/(n n)) is the case j0 != j2. At j0 = j2 no entry is "
        "1/n: f_{j2,j3} = n^{1+a1}/(n^{1+a1}+(n-1)n) >= 1/2 (Part 3a) and f_{j2,j1} = 1/(n^{a1}+n-1) < 1/n "
        "for j1 != j3; n = 2, a1 -> 1: 2/3 and 1/3 against 1/2; n = 10^6, a1 = 2: 0.999999 and 1.0e-12 "
        "against 1e-6. Every row j0 != j2 has f = 1/n exactly (the corrected claim, j1 = j3 as 4a; 4b covers"
        " every j1)"),
    "deng2023/lemma-f.6/part-1a": (
        "Lemma F.6 (Section F.3, Dataset 0, statements in a0) prints D1. On D1 the entry is n^{1+a1} (a1 > "
        "1), never n^{1+a0} (a0 < 0.1): log u_exp / log n = 1 + a1 against 1 + a0 (n = 2, a1 -> 1: 2 against "
        "1.0). On D0 it is n^{1+a0} for every n (corrected claim)"),
    "deng2023/lemma-f.6/part-3a": (
        "Lemma F.6 prints D1 where Section F.3 is D0. On D1, f_{j2,j3} >= 1/2 (Lemma F.2 Part 3a) > n^{a0-1} "
        "for n >= 3 (n = 2, a1 -> 1: 2/3 against 2^{a0-1} <= 0.536; n = 10^6, a1 = 2, a0 = 0.05: 0.999999 "
        "against 1.995e-6). On D0, f_{j2,j3} = n^{a0}/(n^{a0}+n-1) <= n^{a0-1} for every n (equality only at "
        "a0 = 0; slack decided in mpmath)"),
    "deng2023/lemma-f.6/part-4a": (
        "As Lemma F.2 Part 4a: at j0 = j2 no entry equals 1/n (f_{j2,j3} >= n^{1+a}/(n^{1+a}+n^2) and "
        "f_{j2,j1} < 1/n otherwise; n = 2, a1 -> 1: 2/3 and 1/3 against 1/2); Part 4 is the case j0 != j2 "
        "(proof: n/(n n)), where f = 1/n exactly on D0 (and D1)"),
    "deng2023/lemma-f.7/part-4": (
        "The row j0 = j3 / j0 != j3 is the key index; the u/f lemma (F.6) and the proof ('Part 4 of Lemma "
        "F.6') distinguish j0 = j2. For j0 = j2 != j3, c_{j2,1} = f_{j2,j3} = n^{a0}/(n^{a0}+n-1) > 1/n: n = "
        "10^6, a0 = 0.0999: 3.98e-6 > 1e-6; every n >= 2, a0 > 0 (n = 2, a0 = 1e-12: excess 1.7e-13 relative,"
        " decided in mpmath). Rows j0 != j2 have c = 1/n exactly"),
    "deng2023/lemma-f.7/part-5": (
        "As Part 4: for j0 = j2 != j3 and d >= 3 the column 2 + (j3 mod (d-1)) has c = "
        "(n^{a0}+t-1)/(n^{a0}+n-1) > t/n: n = 10^6, a0 = 0.0999: d = 1001, 1.00297e-3 > 1e-3; d = 10^6+1 (t ="
        " 1): 3.98e-6 > 1e-6. Rows j0 != j2 have c = t/n exactly"),
    "deng2023/lemma-f.11/part-3": (
        "Lemma F.11 (Section F.4, Dataset 1, bounds in a1) prints D0 and rows j0 = j3 / j0 != j3 where Lemma "
        "F.10 and the proof use j2. As printed, j0 = j2 != j3 gives c_lin = f_lin_{j2,j3} = (1+a0)/(n+a0) > "
        "1/n (n = 12, a0 = 0.0999: 0.0909 > 0.0833; on D1 (1+a1)/(n+a1) > 1/n likewise). With j0 != j2 "
        "(corrected, D1) c = 1/n exactly"),
    "deng2023/lemma-f.11/part-4": (
        "As Part 3: for j0 = j2 != j3 and d >= 3 the column 2 + (j3 mod (d-1)) has c_lin = (t+a0)/(n+a0) > "
        "t/n (n = 12, d = 3, a0 = 0.0999: 0.50413 > 0.5). With j0 != j2 (corrected, D1) c = t/n exactly"),
    "deng2023/lemma-f.14/part-1": (
        "Lemma F.14 (Section F.5, Dataset 0, statements in a0) prints D1 and j0 = j3 where Lemma F.10 has j0 "
        "= j2. As printed u_lin_{j3,j3} = (1 + a1 [j2 = j3]) log n, never (1 + a0) log n (n = 10^6, a1 = 2: 3"
        " log n or log n against 1.05 log n). On D0 with j0 = j2 it is (1+a0) log n (corrected)"),
    "deng2023/lemma-f.14/part-3-j2-eq-j3": (
        "This erratum depends on a reading of Definition F.1: it exists only if the 'two special indices' j2, "
        "j3 may coincide. As printed (D1, j0 = j1 = j3) with j2 = j3: f_lin = (1+a1)/(n+a1) > (1+a0)/n (n = 2, "
        "a1 -> 1: 2/3 against 1/2; n = 10^6, a1 = 2, a0 = 0.05: 3.0e-6 against 1.05e-6). If j2 != j3 is "
        "required, row j3 is a plain row, f_lin(j3, j3) = 1/n and the printed statement holds (claim "
        "part-3-j2-ne-j3). The dataset D0 alone repairs the j2 = j3 case; the corrected claim (D0, j0 = j2, as "
        "Lemma F.10) holds: (1+a0)/(n+a0) <= (1+a0)/n"),
    "deng2023/lemma-f.14/part-5": (
        "As printed (D1, j0 != j3): the row j0 = j2 != j3 has f_lin_{j2,j3} = (1+a1)/(n+a1) != 1/n (n = 2, a1"
        " -> 1: 2/3 against 1/2; n = 10^6, a1 = 2: 3.0e-6 against 1e-6). Rows j0 != j2 have f_lin = 1/n "
        "exactly on either dataset (corrected: D0, j0 != j2)"),
    "deng2023/lemma-f.4/part-1": (
        "j0 = j3 indexes a row of A1 by the special index of A2; Lemma F.3 (which the proof uses: 'two large "
        "coordinates') has them at j0 = j2. For j0 = j3 != j2 the row is plain, c = (1/n, t/n, ..., t/n) and "
        "<c, sigma> >= 0.9 needs almost all signs +1: pass rate 0 of 2000 at n = 10^9 (d = 2000001), 0.0005 "
        "at n = 100 (d = 11), against 1/10 (read as '>= 1/10'; the printed '= 1/10' fails at every row). With"
        " j0 = j2 the rate is 0.16-0.24 along the path (about 1/4), >= 1/10 (corrected)"),
    "deng2023/lemma-f.4/part-2": (
        "For j0 = j2 != j3 (admitted by the printed j0 != j3) c_{j2} has the two large coordinates of Lemma "
        "F.3, so |<c, sigma>| < 0.5 only when their signs differ: pass rate 0.514 at n = 10^9 (95% CI about "
        "[0.49, 0.54]), 0.50 at n = 10^4, against 0.9. Rows j0 != j2 (corrected) have c = (1/n, t/n, ..., "
        "t/n) and hold from n = 10^6 on (pass rate 1.0 at n = 10^9)"),
    "deng2023/theorem-f.9/main": (
        "Theorem F.9 (Section F.3, Dataset 0; its hypotheses name a0) prints 'from D1'. On D1 the row j2 "
        "fires a column y_l with probability about 1/4 (Lemma F.4 Part 1), so Pr[F_exp = 0] ~ (3/4)^m: 0.177 "
        "at n = 2 (m = 6), 0.006 at n = 10^6 (m = 19), 0 of 2000 at n = 10^9 (m = 26), against 1 - delta >= "
        "0.9; even m = 1 gives 0.75 (Monte Carlo, n = 10^9, d = 161). On D0 (corrected) it holds from n = "
        "10^4-10^5 on (pass rate 1.0 at the path's end)"),
}


# ---- evaluation on the reduced form ---------------------------------------------------------

def _log_u(case, xp):
    return cm.scores(case.n, case.a, xp)


def _f_exp(case, xp):
    return cm.f(case.n, case.d, case.a, xp, softmax=True)


def _f_lin(case, xp):
    return cm.f(case.n, case.d, case.a, xp, softmax=False)


def _c_exp(case, xp):
    return cm.c_parts(case.n, case.d, case.a, xp, softmax=True)


def _c_lin(case, xp):
    return cm.c_parts(case.n, case.d, case.a, xp, softmax=False)


def _entries(values, case, where):
    """values[q, K] over the (row, keys) cases of ``where``: the query classes of each row
    condition times the present key classes of its key condition."""
    shape = case.shape
    parts = [values[np.ix_(cm.query_classes(shape.n, shape.j2, shape.j3, ROW[row]),
                           cm.present_keys(shape.n, shape.d, KEY[keys]))].ravel() for row, keys in where]
    return np.concatenate(parts)


def _one(case, xp):
    return xp.asarray(1.0)


def _half(case, xp):
    return xp.asarray(0.5)


def _a0(case, xp):
    return xp.asarray(case.a0)


def _a1(case, xp):
    return xp.asarray(case.a1)


def _one_plus(a):
    """1 + a(case, xp) in the backend: a float64 1 + a0 would round away the slacks of order
    a0 / n that the mpmath re-evaluation has to decide."""
    return lambda case, xp: 1.0 + a(case, xp)


def _n_to_a0(case, xp):
    """n^{a0}."""
    return xp.exp(_a0(case, xp) * cm.log_n(case.n, xp))


def _over_n(numerator):
    """numerator(case, xp) / n: the bounds 1/n, (1+a)/n, 1/n^{1-a0} = n^{a0}/n."""
    return lambda case, xp: numerator(case, xp) / cm.n_value(case.n, xp)


# ---- factories --------------------------------------------------------------------------------

def _source(label, part):
    return f"deng2023 Appendix F, {label} {part}"


def _entry_claim(cid, source, statement, label, quantity, where, check, notes, erratum=None, pair=None):
    """A claim about u/f entries: check(entries, case, xp) -> Slack over the stated (j0, j1) cases
    ``where`` = [(row condition, key condition), ...]; ``pair`` restricts j2 vs j3 (cross_case)."""

    @claim(cid, kind=check.kind, source=source, statement=statement,
           domain=lambda n: cross_case(n, label, pair=pair), path=SIZES, reading=structured(dict(EXACT, **notes)),
           erratum=erratum, certify=cross(label, pair))
    def entries(case, xp):
        return check.slack(_entries(quantity(case, xp), case, where), check.rhs(case, xp), xp)

    return entries


class Check(NamedTuple):
    """How entries compare with the stated right-hand side rhs(case, xp)."""

    kind: str
    slack: Callable
    rhs: Callable


def equals(rhs):
    """entries = rhs to rtol 1e-10 (u_exp = n^{1+a} is compared as log u_exp: it overflows float64)."""
    return Check("identity", lambda v, r, xp: close(v, r, rtol=1e-10, xp=xp), rhs)


def at_most(rhs):
    return Check("inequality", le, rhs)


def at_least(rhs):
    return Check("inequality", ge, rhs)


def _column_claim(cid, source, statement, label, c_of, row, columns, numerator, notes, erratum=None):
    """c_{j0,i0} <= (ones in column i0) * numerator / n as printed: numerator / n for i0 = 1
    and t * numerator / n for i0 in {2..d} (1/n and t/n, (1+a)/n and (1+a) t/n, ...)."""

    @claim(cid, kind="inequality", source=source, statement=statement,
           domain=lambda n: cross_case(n, label), path=SIZES, reading=structured(dict(EXACT, **notes)), erratum=erratum,
           certify=cross(label))
    def column(case, xp):
        shape = case.shape
        groups = cm.present_groups(shape.d, COLUMN[columns])
        c = c_of(case, xp).c[np.ix_(cm.query_classes(shape.n, shape.j2, shape.j3, ROW[row]), groups)]
        return le(c, _bound(case, [1 if G == cm.FIRST else case.t for G in groups], numerator, xp), xp)

    return column


def _bound(case, ones, numerator, xp):
    """ones * numerator(case, xp) / n, with ones and n exact (t/n then equals a c of t equal entries)."""
    return cm.bound_counts(ones, xp) * numerator(case, xp) / cm.n_value(case.n, xp)


def _signs(case, rng, size):
    return cm.slot_sums(case.d, rng, (size,))


WHP = lambda case: 1.0 - case.delta  # noqa: E731  "1 - delta/poly(n)", poly(n) = 1


def _sign_claim(cid, source, statement, label, c_of, row, event, probability, notes, erratum=None, a0_max=None):
    """Pr_sigma[event(<c_{j0}, sigma>)] >= probability (a number, or WHP) for a row j0 of the stated case, along
    a path over (beta, n); a0_max(beta): the cap on a0 a hypothesis in a0 puts."""

    @claim(cid, kind="probabilistic", source=source, statement=statement,
           domain=lambda pt: cross_case(pt["n"], label, beta=st.just(pt["beta"]), row=ROW[row],
                                        with_delta=probability is WHP,
                                        a0_max=a0_max(pt["beta"]) if a0_max else 0.1),
           path=BETA_PATH, eventually=True, sample=_signs, probability=probability,
           reading=structured(dict(SIGNS, **notes)), erratum=erratum)
    def signs(case, S, xp):
        return event(cm.inner(c_of(case, xp), 1, S, xp)[..., cm.query_class(case.j0, case.j2)], xp)

    return signs


def at_least_nine_tenths(z, xp):
    """<c, sigma> >= 1 - 0.1."""
    return ge(z, 1.0 - xp.asarray(1.0) / 10, xp)


def below_half(z, xp):
    """|<c, sigma>| < 0.5."""
    return lt(xp.abs(z), 0.5, xp)


def _tau(xp):
    return xp.asarray(9.0) / 10


def _top(case, c_of, Y, slot, xp):
    """max over rows j0 and columns l of <c_{j0}, y_l>; Y: slot sums (size, m, 4)."""
    z = cm.inner(c_of(case, xp), slot, Y, xp)
    return np.max(z.reshape(z.shape[0], -1), axis=-1)


def _weights_y(case, rng, size):
    return cm.network_slot_sums(case.d, rng, (size, case.m))


def _network_claim(cid, source, statement, label, c_of, want_zero, m_rule, notes, a1_max=A1_MAX, erratum=None,
                   a0_max=None):
    """Pr_y[F = 0] (want_zero) or Pr_y[F > 0] >= 1 - delta along the scaling path."""

    @claim(cid, kind="probabilistic", source=source, statement=statement,
           domain=lambda pt: cross_case(pt["n"], label, beta=st.just(pt["beta"]), a1_max=a1_max, m_rule=m_rule,
                                        a0_max=a0_max(pt["beta"]) if a0_max else 0.1),
           path=BETA_PATH, eventually=True, sample=_weights_y, probability=lambda c: 1.0 - c.delta,
           reading=structured(dict(NETWORK, m=M_ZERO if want_zero else M_POSITIVE, **notes)), erratum=erratum)
    def network(case, Y, xp):
        top = _top(case, c_of, Y, 1, xp)
        return ge(_tau(xp), top, xp) if want_zero else gt(top, _tau(xp), xp)

    return network


# ---- Definition F.1 (the shared dataset builder, attncheck/data/attention.py) ----------------------

BUILDER = dict(EXACT, sizes="n = (d-1)t with d-1 any divisor of n and d <= 1025 (the builder keeps d-length "
                            "rows); d = 2 included",
               checked="attncheck.papers.deng2023.data.attention.CrossAttentionParams(...).compressed(), exact integer counts")


def _integer_identity(pairs):
    """Slack of a == b for every pair of exact integer arrays: holds iff every |a - b| < 1/2."""
    gap = max(float(np.max(np.abs(np.asarray(a, float) - np.asarray(b, float)))) for a, b in pairs)
    return Slack(0.5 - gap, 1.0)


@claim("deng2023/definition-f.1/a1-ne-a2", kind="inequality", source=_source("Definition F.1", "(first bullet)"),
       statement=r"\{A_1,A_2,A_3\} \in \mathcal{D}_0 \cup \mathcal{D}_1: A_1 \neq A_2",
       domain=lambda n: st.sampled_from([0, 1]).flatmap(lambda label: cross_case(n, label, max_d=1025)),
       path=SIZES, reading=structured(BUILDER), certify=DENSE)
def definition_f1_a1_ne_a2(case, xp):
    data = case.params().compressed()
    rows = cm.rows_where(case.n, case.j2, case.j3, lambda j, j2, j3: True)
    gap = sum(np.max(np.abs(data.queries.rows[data.queries.class_of(j)] - data.keys.rows[data.keys.class_of(j)]))
              for j in rows)
    return gt(xp.asarray(gap), 0.0, xp)


@claim("deng2023/definition-f.1/a2-columns", kind="identity", source=_source("Definition F.1", "(columns of A2 = A3)"),
       statement=r"A_2 = A_3, (A_2)_{*,1} = e_{j_3}, (A_2)_{*,2..d} = [I_{d-1}; \dots; I_{d-1}] \text{ with } "
                 r"n = (d-1)t: \text{each column } 2..d \text{ has } t \text{ ones, each row one}",
       domain=lambda n: cross_case(n, 1, max_d=1025), path=SIZES,
       reading=structured(dict(BUILDER, use="the proofs of Lemmas F.7, F.11, F.15 use '(A3 V)_{i0} is t-sparse with "
                                        "entries in [0, 1]'; the reduced evaluator's incidence (1, t, t) is this")),
       certify=DENSE)
def definition_f1_a2_columns(case, xp):
    data = case.params().compressed()
    keys, j3 = data.keys, data.keys.class_of(case.j3)
    e_j3 = np.arange(len(keys.counts)) == j3
    return _integer_identity([
        (data.values, keys.rows),                              # A3 = A2
        (keys.rows * (1 - keys.rows), 0),                      # entries in {0, 1}
        (keys.rows[:, 0], e_j3), (keys.counts[j3], 1),          # column 1 is e_{j3}
        (keys.counts @ keys.rows[:, 1:], case.t),              # t ones in each column 2..d
        (keys.rows[:, 1:].sum(axis=1), 1),                     # one 1 per row in columns 2..d
        (keys.counts.sum(), case.n),
    ])


# ---- Lemma F.2 (D1, u_exp and f_exp) ---------------------------------------------------------------

F2 = r"\{A_1,A_2,A_3\} \in \mathcal{D}_1, QK^\top = I_d: "
LOG_SPACE = {"u_exp": "u_exp = n^{1+a} compared as log u_exp = (1+a) log n, rtol 1e-10 on the logarithm"}


def _log_u_is(coefficient):
    """log u_exp = (1 + coefficient) log n, coefficient(case, xp) in the backend."""
    return lambda case, xp: (1.0 + coefficient(case, xp)) * cm.log_n(case.n, xp)


LOG_N = _log_u_is(lambda c, xp: 0.0)

lemma_f2_part_1a = _entry_claim(
    "deng2023/lemma-f.2/part-1a", _source("Lemma F.2", "Part 1a"),
    F2 + r"j_0 = j_2, j_1 = j_3 \Rightarrow u_{\exp}(\mathsf{A},x)_{j_0,j_1} = n^{1+a_1}",
    1, _log_u, [("j0 = j2", "j1 = j3")], equals(_log_u_is(_a1)), LOG_SPACE)
lemma_f2_part_1b = _entry_claim(
    "deng2023/lemma-f.2/part-1b", _source("Lemma F.2", "Part 1b"),
    F2 + r"j_0 = j_2, j_1 \neq j_3 \Rightarrow u_{\exp}(\mathsf{A},x)_{j_0,j_1} = n",
    1, _log_u, [("j0 = j2", "j1 != j3")], equals(LOG_N), LOG_SPACE)
lemma_f2_part_2a = _entry_claim(
    "deng2023/lemma-f.2/part-2a", _source("Lemma F.2", "Part 2a"),
    F2 + r"j_0 \neq j_2, j_1 = j_3 \Rightarrow u_{\exp}(A,x)_{j_0,j_1} = n",
    1, _log_u, [("j0 != j2", "j1 = j3")], equals(LOG_N), LOG_SPACE)
lemma_f2_part_2b = _entry_claim(
    "deng2023/lemma-f.2/part-2b", _source("Lemma F.2", "Part 2b"),
    F2 + r"j_0 \neq j_2, j_1 \neq j_3 \Rightarrow u_{\exp}(A,x)_{j_0,j_1} = n",
    1, _log_u, [("j0 != j2", "j1 != j3")], equals(LOG_N), LOG_SPACE)
lemma_f2_part_3a = _entry_claim(
    "deng2023/lemma-f.2/part-3a", _source("Lemma F.2", "Part 3a"),
    F2 + r"j_0 = j_2, j_1 = j_3 \Rightarrow f_{\exp}(\mathsf{A},x)_{j_0,j_1} \ge 1/2 \text{ (if } a_1 > 1)",
    1, _f_exp, [("j0 = j2", "j1 = j3")], at_least(_half), {})
lemma_f2_part_3b = _entry_claim(
    "deng2023/lemma-f.2/part-3b", _source("Lemma F.2", "Part 3b"),
    F2 + r"j_0 = j_2, j_1 \neq j_3 \Rightarrow f_{\exp}(\mathsf{A},x)_{j_0,j_1} \le 1/n",
    1, _f_exp, [("j0 = j2", "j1 != j3")], at_most(_over_n(_one)), {})
PART_4 = {"part 4": "Part 4's header reads 'For j0 = j2' and its sub-bullets 'For j0 = j2' (4a) and 'For j0 != j2' "
                    "(4b): j1 is not restricted, so every j1 is checked"}
lemma_f2_part_4a = _entry_claim(
    "deng2023/lemma-f.2/part-4a", _source("Lemma F.2", "Part 4a"),
    F2 + r"\text{(Part 4: } j_0 = j_2) \; j_0 = j_2 \Rightarrow f_{\exp}(\mathsf{A},x)_{j_0,j_1} = 1/n",
    1, _f_exp, [("j0 = j2", "any j1")], equals(_over_n(_one)), PART_4,
    erratum=Erratum("deng2023/lemma-f.2/part-4a-corrected", ERRATA['deng2023/lemma-f.2/part-4a']))
lemma_f2_part_4a_corrected = _entry_claim(
    "deng2023/lemma-f.2/part-4a-corrected", _source("Lemma F.2", "Part 4a (corrected)"),
    F2 + r"j_0 \neq j_2, j_1 = j_3 \Rightarrow f_{\exp}(\mathsf{A},x)_{j_0,j_1} = 1/n",
    1, _f_exp, [("j0 != j2", "j1 = j3")], equals(_over_n(_one)),
    {"correction": "Part 4 is the case j0 != j2 (its proof computes n/(n n)), with 4a/4b the cases j1 = j3 / "
                   "j1 != j3 as in Parts 1-3"})
lemma_f2_part_4b = _entry_claim(
    "deng2023/lemma-f.2/part-4b", _source("Lemma F.2", "Part 4b"),
    F2 + r"\text{(Part 4: } j_0 = j_2) \; j_0 \neq j_2 \Rightarrow f_{\exp}(\mathsf{A},x)_{j_0,j_1} = 1/n",
    1, _f_exp, [("j0 != j2", "any j1")], equals(_over_n(_one)),
    dict(PART_4, header="the header j0 = j2 and the bullet j0 != j2 leave no row; the bullet's own condition "
                        "j0 != j2 is checked (the reading that says something)"))


# ---- Lemma F.3 (D1, c_exp) ------------------------------------------------------------------------

F3 = r"\{A_1,A_2,A_3\} \in \mathcal{D}_1, QK^\top = I_d, V = I_d, n = t(d-1): "


def _rest_of_columns(c_row, d):
    """Groups of the columns i0 in {2..d} other than the one with the largest c (R3: 1 column, REST: d-2)."""
    if c_row[cm.R3] >= c_row[cm.REST]:
        return [cm.REST] if d >= 3 else []
    return [cm.R3] + ([cm.REST] if d >= 4 else [])


@claim("deng2023/lemma-f.3/part-1", kind="inequality", source=_source("Lemma F.3", "Part 1"),
       statement=F3 + r"j_0 = j_2, i_0 = 1 \Rightarrow c_{\exp}(\mathsf{A},x)_{j_0,i_0} \ge 1/2",
       domain=lambda n: cross_case(n, 1), path=SIZES, reading=structured(EXACT), certify=cross(1))
def lemma_f3_part_1(case, xp):
    return ge(_c_exp(case, xp).c[cm.QUERY_J2, cm.FIRST], 0.5, xp)


@claim("deng2023/lemma-f.3/part-2-one", kind="inequality", source=_source("Lemma F.3", "Part 2, first bullet"),
       statement=F3 + r"j_0 = j_2: \text{there is only one } i_0 \in \{2,\dots,d\} \text{ with } "
                      r"c_{\exp}(\mathsf{A},x)_{j_0,i_0} \ge 1/2",
       domain=lambda n: cross_case(n, 1), path=SIZES,
       reading=structured(dict(EXACT, parts="the first bullet is split: -one is existence (the largest c over "
                                        "i0 in {2..d} is >= 1/2), -only is uniqueness (every other i0 has c < 1/2)")),
       certify=LARGEST_COLUMN)
def lemma_f3_part_2_one(case, xp):
    c = _c_exp(case, xp).c[cm.QUERY_J2]
    return ge(max(c[G] for G in cm.present_groups(case.shape.d, COLUMN["i0 in {2..d}"])), 0.5, xp)


TWO_REST = dict(EXACT, rest="'the rest of i0': the columns i0 in {2..d} other than the one with the largest c; "
                            "d >= 3 (for d = 2 there is no other column and the bullet is vacuous)")


@claim("deng2023/lemma-f.3/part-2-only", kind="inequality", source=_source("Lemma F.3", "Part 2, first bullet"),
       statement=F3 + r"j_0 = j_2: \text{there is only one } i_0 \in \{2,\dots,d\} \text{ with } "
                      r"c_{\exp}(\mathsf{A},x)_{j_0,i_0} \ge 1/2 \text{ (uniqueness)}",
       domain=lambda n: cross_case(n, 1, min_d=3), path=SIZES, reading=structured(TWO_REST), certify=LARGEST_COLUMN)
def lemma_f3_part_2_only(case, xp):
    c = _c_exp(case, xp).c[cm.QUERY_J2]
    return lt(c[_rest_of_columns(c, case.shape.d)], 0.5, xp)


@claim("deng2023/lemma-f.3/part-2-rest", kind="inequality", source=_source("Lemma F.3", "Part 2, second bullet"),
       statement=F3 + r"j_0 = j_2: \text{for the rest of } i_0, c_{\exp}(\mathsf{A},x)_{j_0,i_0} \le t/n",
       domain=lambda n: cross_case(n, 1, min_d=3), path=SIZES, reading=structured(TWO_REST), certify=LARGEST_COLUMN)
def lemma_f3_part_2_rest(case, xp):
    c = _c_exp(case, xp).c[cm.QUERY_J2]
    rest = _rest_of_columns(c, case.shape.d)
    return le(c[rest], _bound(case, [case.t] * len(rest), _one, xp), xp)


lemma_f3_part_3 = _column_claim(
    "deng2023/lemma-f.3/part-3", _source("Lemma F.3", "Part 3"),
    F3 + r"j_0 \neq j_2, i_0 = 1 \Rightarrow c_{\exp}(\mathsf{A},x)_{j_0,i_0} \le 1/n",
    1, _c_exp, "j0 != j2", "i0 = 1", _one, {})
lemma_f3_part_4 = _column_claim(
    "deng2023/lemma-f.3/part-4", _source("Lemma F.3", "Part 4"),
    F3 + r"j_0 \neq j_2, i_0 \in \{2,\dots,d\} \Rightarrow c_{\exp}(\mathsf{A},x)_{j_0,i_0} \le t/n",
    1, _c_exp, "j0 != j2", "i0 in {2..d}", _one, {})


# ---- Lemma F.4 (D1, c_exp with random signs) ------------------------------------------------------

F4 = (r"\{A_1,A_2,A_3\} \in \mathcal{D}_1, t\sqrt{d} = o(n^{0.99}), \sigma \sim \{-1,+1\}^d: ")
ROW_J2 = {"correction": "j0 = j2 and j0 != j2: the rows Lemma F.3 (which the proof invokes) distinguishes; "
                        "j3 indexes the rows of A2, not of A1"}
ONE_TENTH = {"probability": "'Pr[...] = 1/10' read as '>= 1/10', the proof's conclusion (1/4 - delta/poly(n) >= "
                            "1/10); the equality itself fails at every row (the probability is near 1/4 at j0 = j2 "
                            "and near 0 elsewhere)"}

lemma_f4_part_1 = _sign_claim(
    "deng2023/lemma-f.4/part-1", _source("Lemma F.4", "Part 1"),
    F4 + r"j_0 = j_3 \Rightarrow \Pr[\langle c_{\exp}(\mathsf{A},x)_{j_0}, \sigma\rangle \ge 1 - 0.1] = 1/10",
    1, _c_exp, "j0 = j3", at_least_nine_tenths, 0.1, ONE_TENTH,
    erratum=Erratum("deng2023/lemma-f.4/part-1-corrected", ERRATA['deng2023/lemma-f.4/part-1']))
lemma_f4_part_1_corrected = _sign_claim(
    "deng2023/lemma-f.4/part-1-corrected", _source("Lemma F.4", "Part 1 (corrected)"),
    F4 + r"j_0 = j_2 \Rightarrow \Pr[\langle c_{\exp}(\mathsf{A},x)_{j_0}, \sigma\rangle \ge 1 - 0.1] \ge 1/10",
    1, _c_exp, "j0 = j2", at_least_nine_tenths, 0.1, dict(ONE_TENTH, **ROW_J2))
lemma_f4_part_2 = _sign_claim(
    "deng2023/lemma-f.4/part-2", _source("Lemma F.4", "Part 2"),
    F4 + r"j_0 \neq j_3 \Rightarrow \Pr[|\langle c_{\exp}(\mathsf{A},x)_{j_0}, \sigma\rangle| < 0.5] "
         r"= 1 - \delta/\mathrm{poly}(n)",
    1, _c_exp, "j0 != j3", below_half, WHP, {},
    erratum=Erratum("deng2023/lemma-f.4/part-2-corrected", ERRATA['deng2023/lemma-f.4/part-2']))
lemma_f4_part_2_corrected = _sign_claim(
    "deng2023/lemma-f.4/part-2-corrected", _source("Lemma F.4", "Part 2 (corrected)"),
    F4 + r"j_0 \neq j_2 \Rightarrow \Pr[|\langle c_{\exp}(\mathsf{A},x)_{j_0}, \sigma\rangle| < 0.5] "
         r"\ge 1 - \delta/\mathrm{poly}(n)",
    1, _c_exp, "j0 != j2", below_half, WHP, ROW_J2)


# ---- Theorem F.5 (D1, F_exp > 0) ------------------------------------------------------------------

def _theorem(label, network, relation):
    return (rf"d \in [\omega(n^{{0.02}}), n], \tau = 0.9, m = O(\log(n/\delta)), \{{A_1,A_2,A_3\}} \in "
            rf"{DATASET[label]}, F_{{\mathrm{{{network}}}}} = \phi(\sum_{{j_0}} \sum_{{j_1}} \phi_\tau(\langle "
            rf"c_{{\mathrm{{{network}}}}}(\mathsf{{A}},x), y_{{j_1}}\rangle)): \Pr[F_{{\mathrm{{{network}}}}}(A_1,A_2,A_3) {relation}] "
            rf"\ge 1 - \delta/\mathrm{{poly}}(n)")


theorem_f5 = _network_claim(
    "deng2023/theorem-f.5/main", _source("Theorem F.5", "(main)"), _theorem(1, r"\exp", "> 0"),
    1, _c_exp, False, m_large, {})


# ---- Lemma F.6 (printed D1; Section F.3 is D0) -------------------------------------------------------

F6 = r"\{A_1,A_2,A_3\} \in \mathcal{D}_1 \text{ (as printed)}, QK^\top = I_d: "
F6_CORRECTED = r"\{A_1,A_2,A_3\} \in \mathcal{D}_0, QK^\top = I_d: "
PRINTED_D1 = {"dataset label": "D1 as printed (Section F.3 and the statements concern D0); " + A0_FREE}
SECTION_D0 = {"correction": "D0, the dataset of Section F.3 whose parameter a0 the statement uses"}

lemma_f6_part_1a = _entry_claim(
    "deng2023/lemma-f.6/part-1a", _source("Lemma F.6", "Part 1a"),
    F6 + r"j_0 = j_2, j_1 = j_3 \Rightarrow u_{\exp}(\mathsf{A},x)_{j_0,j_1} = n^{1+a_0}",
    1, _log_u, [("j0 = j2", "j1 = j3")], equals(_log_u_is(_a0)), dict(LOG_SPACE, **PRINTED_D1),
    erratum=Erratum("deng2023/lemma-f.6/part-1a-corrected", ERRATA['deng2023/lemma-f.6/part-1a']))
lemma_f6_part_1a_corrected = _entry_claim(
    "deng2023/lemma-f.6/part-1a-corrected", _source("Lemma F.6", "Part 1a (corrected)"),
    F6_CORRECTED + r"j_0 = j_2, j_1 = j_3 \Rightarrow u_{\exp}(\mathsf{A},x)_{j_0,j_1} = n^{1+a_0}",
    0, _log_u, [("j0 = j2", "j1 = j3")], equals(_log_u_is(_a0)), dict(LOG_SPACE, **SECTION_D0))
lemma_f6_part_1b = _entry_claim(
    "deng2023/lemma-f.6/part-1b", _source("Lemma F.6", "Part 1b"),
    F6 + r"j_0 = j_2, j_1 \neq j_3 \Rightarrow u_{\exp}(\mathsf{A},x)_{j_0,j_1} = n",
    1, _log_u, [("j0 = j2", "j1 != j3")], equals(LOG_N), dict(LOG_SPACE, **PRINTED_D1))
lemma_f6_part_2a = _entry_claim(
    "deng2023/lemma-f.6/part-2a", _source("Lemma F.6", "Part 2a"),
    F6 + r"j_0 \neq j_2, j_1 = j_3 \Rightarrow u_{\exp}(A,x)_{j_0,j_1} = n",
    1, _log_u, [("j0 != j2", "j1 = j3")], equals(LOG_N), dict(LOG_SPACE, **PRINTED_D1))
lemma_f6_part_2b = _entry_claim(
    "deng2023/lemma-f.6/part-2b", _source("Lemma F.6", "Part 2b"),
    F6 + r"j_0 \neq j_2, j_1 \neq j_3 \Rightarrow u_{\exp}(A,x)_{j_0,j_1} = n",
    1, _log_u, [("j0 != j2", "j1 != j3")], equals(LOG_N), dict(LOG_SPACE, **PRINTED_D1))
lemma_f6_part_3a = _entry_claim(
    "deng2023/lemma-f.6/part-3a", _source("Lemma F.6", "Part 3a"),
    F6 + r"j_0 = j_2, j_1 = j_3 \Rightarrow f_{\exp}(\mathsf{A},x)_{j_0,j_1} \le 1/n^{1-a_0} \text{ (if } a_0 < 1)",
    1, _f_exp, [("j0 = j2", "j1 = j3")], at_most(_over_n(_n_to_a0)), PRINTED_D1,
    erratum=Erratum("deng2023/lemma-f.6/part-3a-corrected", ERRATA['deng2023/lemma-f.6/part-3a']))
lemma_f6_part_3a_corrected = _entry_claim(
    "deng2023/lemma-f.6/part-3a-corrected", _source("Lemma F.6", "Part 3a (corrected)"),
    F6_CORRECTED + r"j_0 = j_2, j_1 = j_3 \Rightarrow f_{\exp}(\mathsf{A},x)_{j_0,j_1} \le 1/n^{1-a_0}",
    0, _f_exp, [("j0 = j2", "j1 = j3")], at_most(_over_n(_n_to_a0)), SECTION_D0)
lemma_f6_part_3b = _entry_claim(
    "deng2023/lemma-f.6/part-3b", _source("Lemma F.6", "Part 3b"),
    F6 + r"j_0 = j_2, j_1 \neq j_3 \Rightarrow f_{\exp}(\mathsf{A},x)_{j_0,j_1} \le 1/n",
    1, _f_exp, [("j0 = j2", "j1 != j3")], at_most(_over_n(_one)), PRINTED_D1)
F6_PART_4 = dict(PRINTED_D1, **{"part 4": "Part 4 has no header; 4a reads 'For j0 = j2', 4b 'For j0 != j2'; j1 is "
                                          "not restricted, so every j1 is checked"})
lemma_f6_part_4a = _entry_claim(
    "deng2023/lemma-f.6/part-4a", _source("Lemma F.6", "Part 4a"),
    F6 + r"j_0 = j_2 \Rightarrow f_{\exp}(\mathsf{A},x)_{j_0,j_1} = 1/n",
    1, _f_exp, [("j0 = j2", "any j1")], equals(_over_n(_one)), F6_PART_4,
    erratum=Erratum("deng2023/lemma-f.6/part-4a-corrected", ERRATA['deng2023/lemma-f.6/part-4a']))
lemma_f6_part_4a_corrected = _entry_claim(
    "deng2023/lemma-f.6/part-4a-corrected", _source("Lemma F.6", "Part 4a (corrected)"),
    F6_CORRECTED + r"j_0 \neq j_2, j_1 = j_3 \Rightarrow f_{\exp}(\mathsf{A},x)_{j_0,j_1} = 1/n",
    0, _f_exp, [("j0 != j2", "j1 = j3")], equals(_over_n(_one)),
    dict(SECTION_D0, index="Part 4 is the case j0 != j2 (its proof computes n/(n n)), 4a/4b the cases j1 = j3 / "
                           "j1 != j3 as in Parts 1-3"))
lemma_f6_part_4b = _entry_claim(
    "deng2023/lemma-f.6/part-4b", _source("Lemma F.6", "Part 4b"),
    F6 + r"j_0 \neq j_2 \Rightarrow f_{\exp}(\mathsf{A},x)_{j_0,j_1} = 1/n",
    1, _f_exp, [("j0 != j2", "any j1")], equals(_over_n(_one)), F6_PART_4)


# ---- Lemma F.7 (D0, c_exp) ------------------------------------------------------------------------

F7 = r"\{A_1,A_2,A_3\} \in \mathcal{D}_0, QK^\top = I_d, V = I_d, n = t(d-1): "
F7_PARTS = {"numbering": "the lemma prints Parts 1, 2, 4, 5 (no Part 3); the ids follow the print"}

lemma_f7_part_1 = _column_claim(
    "deng2023/lemma-f.7/part-1", _source("Lemma F.7", "Part 1"),
    F7 + r"j_0 = j_3, i_0 = 1 \Rightarrow c_{\exp}(\mathsf{A},x)_{j_0,i_0} \le 1/n^{1-a_0}",
    0, _c_exp, "j0 = j3", "i0 = 1", _n_to_a0, F7_PARTS)
lemma_f7_part_2 = _column_claim(
    "deng2023/lemma-f.7/part-2", _source("Lemma F.7", "Part 2"),
    F7 + r"j_0 = j_3, i_0 \in \{2,\dots,d\} \Rightarrow c_{\exp}(\mathsf{A},x)_{j_0,i_0} \le t/n^{1-a_0}",
    0, _c_exp, "j0 = j3", "i0 in {2..d}", _n_to_a0, F7_PARTS)
lemma_f7_part_4 = _column_claim(
    "deng2023/lemma-f.7/part-4", _source("Lemma F.7", "Part 4"),
    F7 + r"j_0 \neq j_3, i_0 = 1 \Rightarrow c_{\exp}(\mathsf{A},x)_{j_0,i_0} \le 1/n",
    0, _c_exp, "j0 != j3", "i0 = 1", _one, F7_PARTS,
    erratum=Erratum("deng2023/lemma-f.7/part-4-corrected", ERRATA['deng2023/lemma-f.7/part-4']))
lemma_f7_part_4_corrected = _column_claim(
    "deng2023/lemma-f.7/part-4-corrected", _source("Lemma F.7", "Part 4 (corrected)"),
    F7 + r"j_0 \neq j_2, i_0 = 1 \Rightarrow c_{\exp}(\mathsf{A},x)_{j_0,i_0} \le 1/n",
    0, _c_exp, "j0 != j2", "i0 = 1", _one, dict(F7_PARTS, **ROW_J2))
lemma_f7_part_5 = _column_claim(
    "deng2023/lemma-f.7/part-5", _source("Lemma F.7", "Part 5"),
    F7 + r"j_0 \neq j_3, i_0 \in \{2,\dots,d\} \Rightarrow c_{\exp}(\mathsf{A},x)_{j_0,i_0} \le t/n",
    0, _c_exp, "j0 != j3", "i0 in {2..d}", _one, F7_PARTS,
    erratum=Erratum("deng2023/lemma-f.7/part-5-corrected", ERRATA['deng2023/lemma-f.7/part-5']))
lemma_f7_part_5_corrected = _column_claim(
    "deng2023/lemma-f.7/part-5-corrected", _source("Lemma F.7", "Part 5 (corrected)"),
    F7 + r"j_0 \neq j_2, i_0 \in \{2,\dots,d\} \Rightarrow c_{\exp}(\mathsf{A},x)_{j_0,i_0} \le t/n",
    0, _c_exp, "j0 != j2", "i0 in {2..d}", _one, dict(F7_PARTS, **ROW_J2))


# ---- Lemma F.8 (D0, c_exp with random signs) and Theorem F.9 (printed D1, F_exp = 0) --------------

F8 = r"\{A_1,A_2,A_3\} \in \mathcal{D}_0, t\sqrt{d} = o(n^{1-a_0-0.01}), \sigma \sim \{-1,+1\}^d: "
F8_D = {"d range": "t sqrt(d) = o(n^{1-a0-0.01}) <=> d = omega(n^{2 a0 + 0.02}): a0 drawn in (0, min(0.1, "
                   "(beta - 0.02)/2)) for each growth law d = n^beta"}
F8_A0 = lambda beta: min(0.1, (beta - 0.02) / 2)  # noqa: E731

lemma_f8_part_1 = _sign_claim(
    "deng2023/lemma-f.8/part-1", _source("Lemma F.8", "Part 1"),
    F8 + r"j_0 = j_3 \Rightarrow \Pr[|\langle c_{\exp}(\mathsf{A},x)_{j_0}, \sigma\rangle| < 0.5] "
         r"= 1 - \delta/\mathrm{poly}(n)",
    0, _c_exp, "j0 = j3", below_half, WHP, F8_D, a0_max=F8_A0)
lemma_f8_part_2 = _sign_claim(
    "deng2023/lemma-f.8/part-2", _source("Lemma F.8", "Part 2"),
    F8 + r"j_0 \neq j_3 \Rightarrow \Pr[|\langle c_{\exp}(\mathsf{A},x)_{j_0}, \sigma\rangle| < 0.5] "
         r"= 1 - \delta/\mathrm{poly}(n)",
    0, _c_exp, "j0 != j3", below_half, WHP, F8_D, a0_max=F8_A0)

F9_D = {"d range": "d in [omega(n^{2 a0 + 0.02}), n], a0 in (0, 0.1): a0 does not enter D1, so every beta of "
                   "the path admits some a0"}
theorem_f9 = _network_claim(
    "deng2023/theorem-f.9/main", _source("Theorem F.9", "(main)"),
    r"a_0 \in (0, 0.1), " + _theorem(1, r"\exp", "= 0").replace(r"\omega(n^{0.02})", r"\omega(n^{2a_0+0.02})"),
    1, _c_exp, True, m_smallest, dict(F9_D, **{"dataset label": "D1 as printed (Section F.3 concerns D0); a0 enters "
                                                                 "only through the range of d"}),
    erratum=Erratum("deng2023/theorem-f.9/main-corrected", ERRATA['deng2023/theorem-f.9/main']))
theorem_f9_corrected = _network_claim(
    "deng2023/theorem-f.9/main-corrected", _source("Theorem F.9", "(main, corrected)"),
    r"a_0 \in (0, 0.1), " + _theorem(0, r"\exp", "= 0").replace(r"\omega(n^{0.02})", r"\omega(n^{2a_0+0.02})"),
    0, _c_exp, True, m_smallest, dict(F8_D, **SECTION_D0), a0_max=F8_A0)


# ---- Lemmas F.10-F.12 and Theorem F.13 (D1 with F_lin) ------------------------------------------------

F10 = r"\{A_1,A_2,A_3\} \in \mathcal{D}_1, QK^\top = I_d: "

lemma_f10_part_1 = _entry_claim(
    "deng2023/lemma-f.10/part-1", _source("Lemma F.10", "Part 1"),
    F10 + r"j_0 = j_2, j_1 = j_3 \Rightarrow u_{\mathrm{lin}}(\mathsf{A},x)_{j_0,j_1} = (1+a_1)\log n",
    1, _log_u, [("j0 = j2", "j1 = j3")], equals(_log_u_is(_a1)), {})
lemma_f10_part_2 = _entry_claim(
    "deng2023/lemma-f.10/part-2", _source("Lemma F.10", "Part 2"),
    F10 + r"j_0 \neq j_2 \text{ or } j_1 \neq j_3 \Rightarrow u_{\mathrm{lin}}(A,x)_{j_0,j_1} = \log n",
    1, _log_u, [("j0 = j2", "j1 != j3"), ("j0 != j2", "any j1")], equals(LOG_N), {})

lemma_f10_part_3 = _entry_claim(
    "deng2023/lemma-f.10/part-3", _source("Lemma F.10", "Part 3"),
    F10 + r"j_0 = j_2, j_1 = j_3 \Rightarrow f_{\mathrm{lin}}(\mathsf{A},x)_{j_0,j_1} \le (1+a_1)/n",
    1, _f_lin, [("j0 = j2", "j1 = j3")], at_most(_over_n(_one_plus(_a1))), {})
lemma_f10_part_4 = _entry_claim(
    "deng2023/lemma-f.10/part-4", _source("Lemma F.10", "Part 4"),
    F10 + r"j_0 = j_2, j_1 \neq j_3 \Rightarrow f_{\mathrm{lin}}(\mathsf{A},x)_{j_0,j_1} \le 1/n",
    1, _f_lin, [("j0 = j2", "j1 != j3")], at_most(_over_n(_one)), {})
lemma_f10_part_5 = _entry_claim(
    "deng2023/lemma-f.10/part-5", _source("Lemma F.10", "Part 5"),
    F10 + r"j_0 \neq j_2 \Rightarrow f_{\mathrm{lin}}(\mathsf{A},x)_{j_0,j_1} = 1/n",
    1, _f_lin, [("j0 != j2", "any j1")], equals(_over_n(_one)), {})

F11 = r"\{A_1,A_2,A_3\} \in \mathcal{D}_0 \text{ (as printed)}, QK^\top = I_d, V = I_d, n = t(d-1): "
F11_CORRECTED = r"\{A_1,A_2,A_3\} \in \mathcal{D}_1, QK^\top = I_d, V = I_d, n = t(d-1): "
PRINTED_D0 = {"dataset label": "D0 as printed (Section F.4 and a1 concern D1); " + A1_FREE}
SECTION_D1 = dict(ROW_J2, dataset="D1, the dataset of Section F.4 whose parameter a1 the statement uses")

lemma_f11_part_1 = _column_claim(
    "deng2023/lemma-f.11/part-1", _source("Lemma F.11", "Part 1"),
    F11 + r"j_0 = j_3, i_0 = 1 \Rightarrow c_{\mathrm{lin}}(\mathsf{A},x)_{j_0,i_0} \le (1+a_1)/n",
    0, _c_lin, "j0 = j3", "i0 = 1", _one_plus(_a1), PRINTED_D0)
lemma_f11_part_2 = _column_claim(
    "deng2023/lemma-f.11/part-2", _source("Lemma F.11", "Part 2"),
    F11 + r"j_0 = j_3, i_0 \in \{2,\dots,d\} \Rightarrow c_{\mathrm{lin}}(\mathsf{A},x)_{j_0,i_0} \le (1+a_1)t/n",
    0, _c_lin, "j0 = j3", "i0 in {2..d}", _one_plus(_a1), PRINTED_D0)
lemma_f11_part_3 = _column_claim(
    "deng2023/lemma-f.11/part-3", _source("Lemma F.11", "Part 3"),
    F11 + r"j_0 \neq j_3, i_0 = 1 \Rightarrow c_{\mathrm{lin}}(\mathsf{A},x)_{j_0,i_0} \le 1/n",
    0, _c_lin, "j0 != j3", "i0 = 1", _one, PRINTED_D0,
    erratum=Erratum("deng2023/lemma-f.11/part-3-corrected", ERRATA['deng2023/lemma-f.11/part-3']))
lemma_f11_part_3_corrected = _column_claim(
    "deng2023/lemma-f.11/part-3-corrected", _source("Lemma F.11", "Part 3 (corrected)"),
    F11_CORRECTED + r"j_0 \neq j_2, i_0 = 1 \Rightarrow c_{\mathrm{lin}}(\mathsf{A},x)_{j_0,i_0} \le 1/n",
    1, _c_lin, "j0 != j2", "i0 = 1", _one, SECTION_D1)
lemma_f11_part_4 = _column_claim(
    "deng2023/lemma-f.11/part-4", _source("Lemma F.11", "Part 4"),
    F11 + r"j_0 \neq j_3, i_0 \in \{2,\dots,d\} \Rightarrow c_{\mathrm{lin}}(\mathsf{A},x)_{j_0,i_0} \le t/n",
    0, _c_lin, "j0 != j3", "i0 in {2..d}", _one, PRINTED_D0,
    erratum=Erratum("deng2023/lemma-f.11/part-4-corrected", ERRATA['deng2023/lemma-f.11/part-4']))
lemma_f11_part_4_corrected = _column_claim(
    "deng2023/lemma-f.11/part-4-corrected", _source("Lemma F.11", "Part 4 (corrected)"),
    F11_CORRECTED + r"j_0 \neq j_2, i_0 \in \{2,\dots,d\} \Rightarrow c_{\mathrm{lin}}(\mathsf{A},x)_{j_0,i_0} \le t/n",
    1, _c_lin, "j0 != j2", "i0 in {2..d}", _one, SECTION_D1)

F12 = r"\{A_1,A_2,A_3\} \in \mathcal{D}_0 \text{ (as printed)}, t\sqrt{d} = o(n^{0.99}), \sigma \sim \{-1,+1\}^d: "
F12_D0 = {"dataset label": "D0 as printed (Section F.4 concerns D1; the event covers every row either way)"}
lemma_f12_part_1 = _sign_claim(
    "deng2023/lemma-f.12/part-1", _source("Lemma F.12", "Part 1"),
    F12 + r"j_0 = j_3 \Rightarrow \Pr[|\langle c_{\mathrm{lin}}(\mathsf{A},x)_{j_0}, \sigma\rangle| < 0.5] "
          r"= 1 - \delta/\mathrm{poly}(n)",
    0, _c_lin, "j0 = j3", below_half, WHP, F12_D0)
lemma_f12_part_2 = _sign_claim(
    "deng2023/lemma-f.12/part-2", _source("Lemma F.12", "Part 2"),
    F12 + r"j_0 \neq j_3 \Rightarrow \Pr[|\langle c_{\mathrm{lin}}(\mathsf{A},x)_{j_0}, \sigma\rangle| < 0.5] "
          r"= 1 - \delta/\mathrm{poly}(n)",
    0, _c_lin, "j0 != j3", below_half, WHP, F12_D0)

theorem_f13 = _network_claim(
    "deng2023/theorem-f.13/main", _source("Theorem F.13", "(main)"),
    r"a_1 = O(1), " + _theorem(1, r"\mathrm{lin}", "= 0"),
    1, _c_lin, True, m_smallest, {"a1": "a1 = O(1): a1 drawn in [1 + 2^-52, 20]"}, a1_max=20.0)


# ---- Lemmas F.14-F.16 and Theorem F.17 (D0 with F_lin) ------------------------------------------------

F14 = r"\{A_1,A_2,A_3\} \in \mathcal{D}_1 \text{ (as printed)}, QK^\top = I_d: "
F14_CORRECTED = r"\{A_1,A_2,A_3\} \in \mathcal{D}_0, QK^\top = I_d: "
F14_FIX = dict(SECTION_D0, **ROW_J2)
lemma_f14_part_1 = _entry_claim(
    "deng2023/lemma-f.14/part-1", _source("Lemma F.14", "Part 1"),
    F14 + r"j_0 = j_3, j_1 = j_3 \Rightarrow u_{\mathrm{lin}}(\mathsf{A},x)_{j_0,j_1} = (1+a_0)\log n",
    1, _log_u, [("j0 = j3", "j1 = j3")], equals(_log_u_is(_a0)), PRINTED_D1,
    erratum=Erratum("deng2023/lemma-f.14/part-1-corrected", ERRATA['deng2023/lemma-f.14/part-1']))
lemma_f14_part_1_corrected = _entry_claim(
    "deng2023/lemma-f.14/part-1-corrected", _source("Lemma F.14", "Part 1 (corrected)"),
    F14_CORRECTED + r"j_0 = j_2, j_1 = j_3 \Rightarrow u_{\mathrm{lin}}(\mathsf{A},x)_{j_0,j_1} = (1+a_0)\log n",
    0, _log_u, [("j0 = j2", "j1 = j3")], equals(_log_u_is(_a0)), F14_FIX)
lemma_f14_part_2 = _entry_claim(
    "deng2023/lemma-f.14/part-2", _source("Lemma F.14", "Part 2"),
    F14 + r"j_0 \neq j_3, j_1 \neq j_3 \Rightarrow u_{\mathrm{lin}}(A,x)_{j_0,j_1} = \log n",
    1, _log_u, [("j0 != j3", "j1 != j3")], equals(LOG_N), PRINTED_D1)
F14_PAIR = ("Definition F.1 names 'two special indices' j2, j3 without saying whether they may coincide. Both "
            "readings are checked: part-3-j2-eq-j3 (only under 'may coincide') and part-3-j2-ne-j3 (under both)")
F14_PART_3 = F14 + r"j_0 = j_3, j_1 = j_3 \Rightarrow f_{\mathrm{lin}}(\mathsf{A},x)_{j_0,j_1} \le (1+a_0)/n"
lemma_f14_part_3_equal = _entry_claim(
    "deng2023/lemma-f.14/part-3-j2-eq-j3", _source("Lemma F.14", "Part 3, j2 = j3"), F14_PART_3,
    1, _f_lin, [("j0 = j3", "j1 = j3")], at_most(_over_n(_one_plus(_a0))),
    dict(PRINTED_D1, **{"j2 vs j3": F14_PAIR + "; this claim: j2 = j3"}), pair="equal",
    erratum=Erratum("deng2023/lemma-f.14/part-3-corrected", ERRATA['deng2023/lemma-f.14/part-3-j2-eq-j3']))
lemma_f14_part_3_distinct = _entry_claim(
    "deng2023/lemma-f.14/part-3-j2-ne-j3", _source("Lemma F.14", "Part 3, j2 != j3"), F14_PART_3,
    1, _f_lin, [("j0 = j3", "j1 = j3")], at_most(_over_n(_one_plus(_a0))),
    dict(PRINTED_D1, **{"j2 vs j3": F14_PAIR + "; this claim: j2 != j3"}), pair="distinct")
lemma_f14_part_3_corrected = _entry_claim(
    "deng2023/lemma-f.14/part-3-corrected", _source("Lemma F.14", "Part 3 (corrected)"),
    F14_CORRECTED + r"j_0 = j_2, j_1 = j_3 \Rightarrow f_{\mathrm{lin}}(\mathsf{A},x)_{j_0,j_1} \le (1+a_0)/n",
    0, _f_lin, [("j0 = j2", "j1 = j3")], at_most(_over_n(_one_plus(_a0))), F14_FIX)
lemma_f14_part_4 = _entry_claim(
    "deng2023/lemma-f.14/part-4", _source("Lemma F.14", "Part 4"),
    F14 + r"j_0 = j_3, j_1 \neq j_3 \Rightarrow f_{\mathrm{lin}}(\mathsf{A},x)_{j_0,j_1} \le 1/n",
    1, _f_lin, [("j0 = j3", "j1 != j3")], at_most(_over_n(_one)), PRINTED_D1)
lemma_f14_part_5 = _entry_claim(
    "deng2023/lemma-f.14/part-5", _source("Lemma F.14", "Part 5"),
    F14 + r"j_0 \neq j_3, \forall j_1 \in [n] \Rightarrow f_{\mathrm{lin}}(\mathsf{A},x)_{j_0,j_1} = 1/n",
    1, _f_lin, [("j0 != j3", "any j1")], equals(_over_n(_one)), PRINTED_D1,
    erratum=Erratum("deng2023/lemma-f.14/part-5-corrected", ERRATA['deng2023/lemma-f.14/part-5']))
lemma_f14_part_5_corrected = _entry_claim(
    "deng2023/lemma-f.14/part-5-corrected", _source("Lemma F.14", "Part 5 (corrected)"),
    F14_CORRECTED + r"j_0 \neq j_2, \forall j_1 \in [n] \Rightarrow f_{\mathrm{lin}}(\mathsf{A},x)_{j_0,j_1} = 1/n",
    0, _f_lin, [("j0 != j2", "any j1")], equals(_over_n(_one)), F14_FIX)

F15 = r"\{A_1,A_2,A_3\} \in \mathcal{D}_0, QK^\top = I_d, V = I_d, n = t(d-2): "
F15_T = {"t": "'n = t(d-2)' is printed, Definition F.1 has n = (d-1)t: t = n/(d-1) is used; its bounds "
              "(t/n = 1/(d-1)) are tighter than with t = n/(d-2), so holding here implies holding under the "
              "printed hypothesis wherever both can be met ((d-1)(d-2) | n)"}
lemma_f15_part_1 = _column_claim(
    "deng2023/lemma-f.15/part-1", _source("Lemma F.15", "Part 1"),
    F15 + r"j_0 = j_2, i_0 = 1 \Rightarrow c_{\mathrm{lin}}(\mathsf{A},x)_{j_0,i_0} \le (1+a_0)/n",
    0, _c_lin, "j0 = j2", "i0 = 1", _one_plus(_a0), F15_T)
lemma_f15_part_2 = _column_claim(
    "deng2023/lemma-f.15/part-2", _source("Lemma F.15", "Part 2"),
    F15 + r"j_0 = j_2, i_0 \in \{2,\dots,d\} \Rightarrow c_{\mathrm{lin}}(\mathsf{A},x)_{j_0,i_0} \le (1+a_0)t/n",
    0, _c_lin, "j0 = j2", "i0 in {2..d}", _one_plus(_a0), F15_T)
lemma_f15_part_3 = _column_claim(
    "deng2023/lemma-f.15/part-3", _source("Lemma F.15", "Part 3"),
    F15 + r"j_0 \neq j_2, i_0 = 1 \Rightarrow c_{\mathrm{lin}}(\mathsf{A},x)_{j_0,i_0} \le 1/n",
    0, _c_lin, "j0 != j2", "i0 = 1", _one, F15_T)
lemma_f15_part_4 = _column_claim(
    "deng2023/lemma-f.15/part-4", _source("Lemma F.15", "Part 4"),
    F15 + r"j_0 \neq j_2, i_0 \in \{2,\dots,d\} \Rightarrow c_{\mathrm{lin}}(\mathsf{A},x)_{j_0,i_0} \le t/n",
    0, _c_lin, "j0 != j2", "i0 in {2..d}", _one, F15_T)

F16 = r"\{A_1,A_2,A_3\} \in \mathcal{D}_0, t\sqrt{d} = o(n^{0.99}), \sigma \sim \{-1,+1\}^d: "
lemma_f16_part_1 = _sign_claim(
    "deng2023/lemma-f.16/part-1", _source("Lemma F.16", "Part 1"),
    F16 + r"j_0 = j_3 \Rightarrow \Pr[|\langle c_{\mathrm{lin}}(\mathsf{A},x)_{j_0}, \sigma\rangle| < 0.5] "
          r"= 1 - \delta/\mathrm{poly}(n)",
    0, _c_lin, "j0 = j3", below_half, WHP, {})
lemma_f16_part_2 = _sign_claim(
    "deng2023/lemma-f.16/part-2", _source("Lemma F.16", "Part 2"),
    F16 + r"j_0 \neq j_3 \Rightarrow \Pr[|\langle c_{\mathrm{lin}}(\mathsf{A},x)_{j_0}, \sigma\rangle| < 0.5] "
          r"= 1 - \delta/\mathrm{poly}(n)",
    0, _c_lin, "j0 != j3", below_half, WHP, {})

theorem_f17 = _network_claim(
    "deng2023/theorem-f.17/main", _source("Theorem F.17", "(main)"),
    r"a_0 \in (0, 0.1), " + _theorem(0, r"\mathrm{lin}", "= 0"),
    0, _c_lin, True, m_smallest, {})


# ---- Theorem 1.2 (informal): the conjunction of Theorems F.5, F.9 (D0), F.13, F.17 ---------------------

def _pair_weights(pair, rng, size):
    return cm.network_slot_sums(pair.d0.d, rng, (size, pair.m))


@claim(
    "deng2023/theorem-1.2/main", kind="probabilistic",
    source="deng2023 Section 1.1, Theorem 1.2 (informal of Section F)",
    statement=r"\exists \mathcal{D}_0, \mathcal{D}_1 \subset \mathbb{R}^{2n \times d}, F_{\exp}, F_{\mathrm{lin}} "
              r"\text{ four-layer}: \text{w.h.p. over the weights } F_{\exp} \text{ distinguishes } \mathcal{D}_0, "
              r"\mathcal{D}_1 \text{ and } F_{\mathrm{lin}} \text{ does not}",
    domain=lambda pt: pair_case(pt["n"], beta=st.just(pt["beta"]), a1_max=20.0, m_rule=m_large), path=BETA_PATH,
    eventually=True,
    sample=_pair_weights, probability=lambda p: 1.0 - 4.0 * p.delta,
    reading=structured(dict(
        NETWORK,
        formal="the conjunction of the formal Section F theorems on one network pair: F_exp(A^1) > 0 (F.5), "
               "F_exp(A^0) = 0 (F.9 for D0, its corrected form: the informal theorem separates D0 from D1), "
               "F_lin(A^1) = 0 (F.13), F_lin(A^0) = 0 (F.17), A^0 in D0, A^1 in D1 (any j2, j3, same n, d): Section "
               "F.6's E_success, for all datasets (stronger than 'there exist')",
        probability="union bound of the four theorems: Pr[E_success] >= 1 - 4 delta (poly(n) = 1)",
        weights="one draw of y serves F_exp and F_lin (as in the experiments of Section F.6); the two datasets "
                "share sigma through the column groups of both j3",
        m=M_POSITIVE,
        **{"F = 0 parts": "they fail with probability m e^{-Omega(d)}, negligible at the path's end"},
        a1="a1 = O(1) (Theorem F.13): a1 drawn in [1 + 2^-52, 20]",
        conjunction="the four events combine with attncheck.numeric.precision.all_of: each keeps its own "
                    "strictness, so the conjunction holds exactly when all four events do")),
)
def theorem_1_2(pair, Y, xp):
    d0, d1 = pair.d0, pair.d1
    slot0 = 1 if d0.j3 % (d0.d - 1) == d1.j3 % (d1.d - 1) else 2
    tau = _tau(xp)
    return all_of(*[gt(_top(d1, _c_exp, Y, 1, xp), tau, xp), ge(tau, _top(d0, _c_exp, Y, slot0, xp), xp),
                    ge(tau, _top(d1, _c_lin, Y, 1, xp), xp), ge(tau, _top(d0, _c_lin, Y, slot0, xp), xp)], xp=xp)
