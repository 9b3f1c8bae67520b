"""deng2023 Appendix D (self-attention), Theorem 6.2 and Theorem 1.1, each claim part as printed.

Evaluation: the grouped form of :mod:`attncheck.papers.deng2023.models.class_attention.definition_d1`, exact for
Definition D.1 with QK^T in {1_{dxd}, I_d} and V = I_d (n and d enter only as counts and
widths, so n = 10^12 and d = 10^6 cost as little as n = 10), written against the backend
``xp`` so that undecided slacks are re-evaluated in mpmath. Random vectors sigma, y_l in
{-1, +1}^d enter only through their sums over the column groups of c_{j0}, drawn exactly.

Shared reading of the open parameters (in each claim's reading; the shared ones in attncheck/papers/deng2023/readings.py):
natural logarithm; u_exp, f_exp compared in log space. deng2023's one reading of "with
probability 1 - delta/poly(n)" (every claim of the paper, Appendices D, E, F): Pr >= 1 - delta,
poly(n) = 1 (the most lenient), delta drawn in [10^-3, 0.1) (delta < 10^-3 unchecked). The
asymptotic hypotheses on d (d = omega(n^0.02), omega(n^{4 a0 + 0.02})) admit every growth law
d = n^beta: the theorems and sign lemmas run on a path over (beta, n) (attncheck.engine.series),
each beta judged by the "sufficiently large n" rule on its own (Lemma D.4 too, like D.8, D.12 and
D.16 that share its hypothesis); the exact lemmas keep d - 2 any divisor of n.
Ids: sub-bullets get suffixes (``part-2-one`` / ``part-2-rest``: the bullets "one index"
and "the other indices"); a stated part refuted with an evident correction points, by
an erratum, at ``<part>-corrected``; ``theorem-6.2/part-2-evident`` is the evident
reading of a duplicated display that holds as printed.
"""
import math

import numpy as np
from hypothesis import strategies as st

from attncheck import Erratum, Slack, claim, close, ge, gt, le, lt
from attncheck.core.paths import grid
from attncheck.numeric.precision import both
from attncheck.papers.deng2023 import readings as r
from attncheck.papers.deng2023.certification import DENSE, grouped
from attncheck.papers.deng2023.models.class_attention import definition_d1 as sa
from attncheck.papers.deng2023.models.random_signs import column_maxima, narrowest, rademacher_group_sums
from attncheck.papers.deng2023.readings import structured
from attncheck.papers.deng2023.strategies import m_smallest
from attncheck.papers.deng2023.strategies import self_attention as sas

# ---- readings ------------------------------------------------------------------------------

LOG = (r.LOG, r.LOG_SPACE)
X_ONES = "x = vec(QK^T) with QK^T = 1_{d x d}, as the lemma states"
V_EYE = "V = I_d, as the lemma states: (A3 V)_{i0} is column i0 of A3 = A1"
D1_EXACT, D1_GROWING = r.D1_EXACT, r.D1_GROWING
D0 = (r.D0, r.A0_TINY)
SIZES = r.SIZES_D
ENTRIES, C_ENTRIES, PART_4B, IDENTITY = r.ENTRIES_D, r.C_ENTRIES_D, r.PART_4B, r.IDENTITY_D
GROWTH_D = (r.GROWTH_D, r.BETA_D_SMALL)
A0_BETA, A1_GROWING, EVENTUALLY = r.A0_BETA, r.A1_GROWING, r.EVENTUALLY
POLY, DELTA = r.POLY, (r.DELTA, r.DELTA_SMALL)
SIGMA = "sigma uniform on {-1, +1}^d, <c_{j0}, sigma> drawn exactly through its column-group sums"
TAU = "tau = (c + 0.1) sqrt(log n)"
NETWORK, Y_RADEMACHER, X_THEOREM = r.NETWORK_D, r.Y_RADEMACHER_D, r.X_THEOREM_D
M_ZERO = r.M_ZERO
M_FIRE = ("m = ceil(10 log(n/delta)): m = O(log(n/delta)) leaves C open and F > 0 gets likelier as m "
          "grows; C = 10 >= 1/log(10/9) turns Lemma D.4 Part 1's 1/10 per column into 1 - delta/n")
M_NETWORK = r.M_NETWORK_D

EXACT = {"quick": [2, 3, 12, 100, 10**4, 10**6, 10**9],
         "deep": [2, 3, 4, 5, 6, 8, 12, 30, 100, 10**3, 10**4, 10**5, 10**6, 10**8, 10**9, 10**12, 10**15]}
BETAS = {"quick": (0.2, 0.5, 1.0), "deep": (0.2, 0.25, 0.3, 0.4, 0.5, 0.75, 1.0)}
BETA_N = {"quick": [10**2, 10**4, 10**6, 10**9, 10**12, 10**15, 10**18],
          "deep": [10**2, 10**3, 10**4, 10**6, 10**8, 10**9, 10**10, 10**12, 10**14, 10**15, 10**16, 10**18]}
BETA_PATH = {p: grid("beta", BETAS[p], BETA_N[p]) for p in BETAS}
BETA_PATH_LARGE = {p: grid("beta", BETAS[p], [n for n in BETA_N[p] if n >= 10**6]) for p in BETAS}
DEFINITION = {"quick": [2, 3, 6, 12, 60, 1000], "deep": [2, 3, 4, 5, 6, 8, 12, 24, 60, 120, 1000, 5000]}
DENSE_ENTRIES = 2 * 10**6
A1_EXACT = 100.0


def _tau(params, xp):
    """tau = (c + 0.1) sqrt(log n)."""
    return (xp.asarray(params.c) + xp.asarray(1.0) / 10) * xp.sqrt(xp.log(xp.asarray(float(params.n))))


class Sym:
    """A case's symbols n, log n, sqrt(log n), t, a, b, c as backend values; n^e via npow."""

    def __init__(self, case, xp):
        p, g = case.params, case.grouped
        self.xp = xp
        self.n = g.n_value(xp)
        self.L = xp.log(self.n)
        self.s = xp.sqrt(self.L)
        self.t = g.t_value(xp)
        self.a = xp.asarray(case.symbol_a)
        self.b, self.c = xp.asarray(p.b), xp.asarray(p.c)

    def npow(self, e):
        return self.xp.exp(e * self.L)


def _pick(g, table, rows, cols, names):
    """Entries of a per-(query class, key cell or column group) table for the named ones."""
    present = g.keys if names is sa.KEYS else g.groups
    qi = [i for i, q in enumerate(g.queries) if sa.QUERIES[q] in rows]
    ki = [i for i, k in enumerate(present) if names[k] in cols]
    return table[np.ix_(qi, ki)]


def _joint(slacks):
    """Conjunction of non-strict slacks over different entries: all entries side by side."""
    if len(slacks) == 1:
        return slacks[0]
    flat = [(np.ravel(s.value), np.ravel(np.broadcast_to(s.scale, np.shape(s.value)))) for s in slacks]
    return Slack(np.concatenate([v for v, _ in flat]), np.concatenate([sc for _, sc in flat]))


def _all(slacks, xp):
    """Conjunction of events on the same draws; an exact tie of a strict event (probability 0)
    counts as a pass, the lenient side."""
    if len(slacks) == 1:
        return slacks[0]
    return both(*(Slack(s.value, s.scale) for s in slacks), xp=xp)


def _publish(*claims):
    """Bind claims made in loops to module-level names, where pytest collects them."""
    for c in claims:
        globals()["claim_" + c.id.split("/", 1)[1].replace("/", "_").replace(".", "_").replace("-", "_")] = c


COMPARE = {"==": lambda lhs, rhs, xp: close(lhs, rhs, rtol=1e-9, xp=xp), "<=": le, ">=": ge,
           "log<=": lambda lhs, log_rhs, xp: le(xp.log(lhs), log_rhs, xp)}  # bounds n^{a1-1} overflow
J3, NOT_J3 = ("j3",), ("same", "own")
KEY_J3, KEY_NOT_J3 = ("j3",), ("same", "own", "rest")
FIRST, R3, OTHER_IDS, IDS, LAST = ("first",), ("r3",), ("own", "rest"), ("r3", "own", "rest"), ("last",)
ATTENTION = {"exp": sa.c_exp, "lin": sa.c_lin}
WHERE = {(J3, KEY_J3): "j_0 = j_3, j_1 = j_3", (J3, KEY_NOT_J3): r"j_0 = j_3, j_1 \ne j_3",
         (NOT_J3, KEY_J3): r"j_0 \ne j_3, j_1 = j_3", (NOT_J3, KEY_NOT_J3): r"j_0 \ne j_3, j_1 \ne j_3",
         (J3, FIRST): "j_0 = j_3, i_0 = 1", (J3, R3): r"j_0 = j_3, \text{one } i_0 \in \{2..d-1\}",
         (J3, OTHER_IDS): r"j_0 = j_3, \text{the other } i_0 \in \{2..d-1\}",
         (J3, IDS): r"j_0 = j_3, i_0 \in \{2..d-1\}", (J3, LAST): "j_0 = j_3, i_0 = d",
         (NOT_J3, FIRST): r"j_0 \ne j_3, i_0 = 1", (NOT_J3, R3): r"j_0 \ne j_3, \text{one } i_0 \in \{2..d-1\}",
         (NOT_J3, OTHER_IDS): r"j_0 \ne j_3, \text{the other } i_0 \in \{2..d-1\}",
         (NOT_J3, IDS): r"j_0 \ne j_3, i_0 \in \{2..d-1\}", (NOT_J3, LAST): r"j_0 \ne j_3, i_0 = d"}


# ---- Definition D.1 --------------------------------------------------------------------------

def _dense_case(n):
    """Either dataset, d - 2 | n with n d <= 2 10^6 (the dense matrices are built)."""
    widths = lambda m: sas.block_widths(m, hi=max(1, DENSE_ENTRIES // m - 2))  # noqa: E731
    a = {0: None, 1: sas.a1_values(A1_EXACT)}
    return st.sampled_from([0, 1]).flatmap(lambda label: sas.case(n, label, widths, a[label]))


DEFINITION_READING = {"datasets": (D1_EXACT,) + D0, "sizes": SIZES, "dense sizes": "n d <= 2 10^6",
                      "builder": "attncheck.papers.deng2023.data.attention.SelfAttentionParams.dense() (both labels)",
                      "indices": "0-based: row j holds its identity entry in column 1 + (j mod (d-2))"}


@claim("deng2023/definition-d.1/columns", kind="identity", source="deng2023 Appendix D.1, Definition D.1",
       statement=r"A_1 = A_2 = A_3;\ A_{*,1} = e_{j_3} a \sqrt{\log n};\ A_{*,2..d-1} = [I_{d-2}; \dots; I_{d-2}]"
                 r" b\sqrt{\log n};\ A_{*,d} = 1_n c\sqrt{\log n};\ n = (d-2)t",
       domain=_dense_case, path=DEFINITION, reading=structured(DEFINITION_READING), certify=DENSE)
def definition_columns(case, xp):
    p = case.params
    s = math.sqrt(math.log(p.n))
    rows = np.arange(p.n)
    spec = np.zeros((p.n, p.d))
    spec[p.j3, 0] = p.a * s
    spec[rows, 1 + rows % p.k] = p.b * s
    spec[:, -1] = p.c * s
    error = max(float(np.max(np.abs(A - spec))) for A in p.dense())
    return le(xp.asarray(error), 1e-12 * s, xp)


@claim("deng2023/definition-d.1/row-sums", kind="identity", source="deng2023 Appendix D.1, Definition D.1",
       statement=r"b + c = 1:\ \sum_i (A_1)_{j,i} = (1 + a [j = j_3]) \sqrt{\log n} "
                 r"\text{ (the row sums behind every } QK^\top = 1_{d\times d} \text{ score)}",
       domain=_dense_case, path=DEFINITION, reading=structured(dict(DEFINITION_READING, tolerance=IDENTITY)), certify=DENSE)
def definition_row_sums(case, xp):
    p = case.params
    expected = (1.0 + p.a * (np.arange(p.n) == p.j3)) * math.sqrt(math.log(p.n))
    return close(xp.asarray(p.dense()[0].sum(axis=1)), xp.asarray(expected), rtol=1e-9, xp=xp)


@claim("deng2023/definition-d.1/type-ii-sparsity", kind="identity", source="deng2023 Appendix D.1, Definition D.1",
       statement=r"n = (d-2)t:\ \text{each of the columns } 2..d-1 \text{ of } A_1 \text{ is } t\text{-sparse and each "
                 r"row has one nonzero there (the sparsity Lemmas D.3, D.7 use)}",
       domain=_dense_case, path=DEFINITION, reading=structured(DEFINITION_READING), certify=DENSE)
def definition_type_ii(case, xp):
    p = case.params
    nonzero = p.dense()[0][:, 1:-1] != 0
    miss = max(np.max(np.abs(nonzero.sum(axis=0) - p.n // p.k)), np.max(np.abs(nonzero.sum(axis=1) - 1)))
    return le(xp.asarray(float(miss)), 0.5, xp)


# ---- deterministic parts: Lemmas D.2, D.3, D.6, D.7, D.10, D.11, D.14, D.15 --------------------
#
# A part is (part, quantity, conditions, formula[, min d - 2]); a condition is
# (query classes, key cells or column groups, '==' | '<=' | '>=', bound(Sym)). Several
# conditions of one part are checked jointly.

def _source(cid):
    _, label, part = cid.split("/")
    return f"deng2023 Appendix D, {label.split('-')[0].title()} {label.split('-')[1].upper()}, {part}"


def _exact_claim(cid, quantity, conditions, statement, *, label, X, reading, a0_symbol=False, min_k=1,
                 erratum=None):
    """An identity or inequality on the entries of u, f or c (all classes of a condition at once)."""
    names = sa.GROUPS if quantity in (sa.c_exp, sa.c_lin) else sa.KEYS
    a = sas.a1_values(A1_EXACT) if label else None

    @claim(cid, kind="identity" if conditions[0][2] == "==" else "inequality", source=_source(cid),
           statement=statement, domain=lambda n: sas.case(n, label, sas.any_width(min_k), a, a0_symbol=a0_symbol),
           path=EXACT, erratum=erratum, reading=structured(reading),
           certify=grouped(label, min_k, a0_symbol))
    def entries(case, xp):
        g, v = case.grouped, Sym(case, xp)
        table = quantity(g, X, xp)
        return _joint([COMPARE[op](_pick(g, table, rows, cols, names), bound(v), xp)
                       for rows, cols, op, bound in conditions])

    return entries


def _statement(prefix, conditions, formula, symbol):
    where = "; ".join(WHERE[c[:2]] for c in conditions)
    return f"{prefix}:\\ {where}:\\ " + formula.replace("{a}", symbol)


def _lemma(lemma, parts, *, prefix, label, X, symbol, reading, a0_symbol=False, errata=None, corrected=None,
           replacements=None):
    """Every part of one lemma as printed. ``errata`` maps a refuted part to its note; its
    '-corrected' statement is ``replacements[part]`` (a part tuple) if given, else the same
    conditions under ``corrected`` (prefix and changed settings: label, X, a0_symbol)."""
    made = []
    for part, quantity, conditions, formula, *min_k in parts:
        cid = f"deng2023/{lemma}/{part}"
        kw = dict(label=label, X=X, reading=reading, a0_symbol=a0_symbol, min_k=min_k[0] if min_k else 1)
        note = (errata or {}).get(part)
        if note:
            fix = dict(corrected or {"prefix": prefix + r" \text{ (corrected)}"})
            _, q, conds, form, *k = (replacements or {}).get(part, (part, quantity, conditions, formula))
            fixed = dict(kw, min_k=k[0] if k else 1, **{key: v for key, v in fix.items() if key != "prefix"})
            made.append(_exact_claim(f"{cid}-corrected", q, conds, _statement(fix["prefix"], conds, form, symbol),
                                     **fixed))
            kw["erratum"] = Erratum(f"{cid}-corrected", note)
        made.append(_exact_claim(cid, quantity, conditions, _statement(prefix, conditions, formula, symbol), **kw))
    _publish(*made)


def _reading(label, X, extra):
    out = {"dataset": D1_EXACT if label else D0, "sizes": SIZES, "log": LOG,
           "x": X_ONES if X == "ones" else "QK^T = I_d, as the lemma states"}
    out.update(extra)
    return out


LOG_F = r"\log f_{\mathrm{exp}}(\mathsf{A},x)_{j_0,j_1}"
F_LIN = r"f_{\mathrm{lin}}(\mathsf{A},x)_{j_0,j_1}"
U_EXP = lambda e: r"u_{\mathrm{exp}}(\mathsf{A},x)_{j_0,j_1} = " + (f"n^{{{e}}}" if e != "1" else "n")  # noqa: E731
U_LIN = lambda e: r"u_{\mathrm{lin}}(\mathsf{A},x)_{j_0,j_1} = " + (e + " " if e != "1" else "") + r"\log n"  # noqa: E731


def _u_parts(quantity, form):
    """Parts 1a-2b: u_exp = n^e (checked as log u_exp = e log n) or u_lin = e log n."""
    return [
        ("part-1a", quantity, [(J3, KEY_J3, "==", lambda v: (1 + v.a) ** 2 * v.L)], form("(1+{a})^2")),
        ("part-1b", quantity, [(J3, KEY_NOT_J3, "==", lambda v: (1 + v.a) * v.L)], form("(1+{a})")),
        ("part-2a", quantity, [(NOT_J3, KEY_J3, "==", lambda v: (1 + v.a) * v.L)], form("(1+{a})")),
        ("part-2b", quantity, [(NOT_J3, KEY_NOT_J3, "==", lambda v: v.L)], form("1")),
    ]


EXP_TAIL = [
    ("part-3b", sa.log_f_exp, [(J3, KEY_NOT_J3, "<=", lambda v: -v.L)], LOG_F + r" \le \log(1/n)"),
    ("part-4a", sa.log_f_exp, [(NOT_J3, KEY_J3, "<=", lambda v: (v.a - 1) * v.L)],
     LOG_F + r" \le \log(1/n^{1-{a}})"),
    ("part-4b", sa.log_f_exp, [(NOT_J3, KEY_NOT_J3, "<=", lambda v: -v.L)], LOG_F + r" \le \log(1/n)"),
]
LIN_F = [
    ("part-3a", sa.f_lin, [(J3, KEY_J3, "<=", lambda v: (1 + v.a) / v.n)], F_LIN + r" \le (1+{a})/n"),
    ("part-3b", sa.f_lin, [(J3, KEY_NOT_J3, "<=", lambda v: 1 / v.n)], F_LIN + r" \le 1/n"),
    ("part-4a", sa.f_lin, [(NOT_J3, KEY_J3, "<=", lambda v: (1 + v.a) / v.n)], F_LIN + r" \le (1+{a})/n"),
    ("part-4b", sa.f_lin, [(NOT_J3, KEY_NOT_J3, "<=", lambda v: 1 / v.n)], F_LIN + r" \le 1/n"),
]
EXP_READING = {"entries": ENTRIES, "part 4b": PART_4B, "identities": IDENTITY,
               "u_exp, f_exp": "log u_exp and log f_exp (log-sum-exp): n^{(1+a1)^2} overflows float64"}
LIN_READING = {"entries": ENTRIES, "part 4b": PART_4B, "identities": IDENTITY}
D1_ONES = r"\{A_1,A_2,A_3\} \in D_1,\ b+c=1,\ QK^\top = 1_{d\times d}"
D0_ONES = r"\{A_1,A_2,A_3\} \in D_0,\ QK^\top = 1_{d\times d}"

_lemma("lemma-d.2", _u_parts(sa.log_u_exp, U_EXP) + [
    ("part-3a", sa.log_f_exp, [(J3, KEY_J3, ">=", lambda v: -v.xp.log(v.xp.asarray(2.0)))],
     LOG_F + r" \ge \log(1/2) \text{ (if } (1+{a})^2 > 2+{a})"),
] + EXP_TAIL, prefix=D1_ONES, label=1, X="ones", symbol="a_1", reading=_reading(1, "ones", EXP_READING))

D6_NOTE = ("Lemma D.6 is stated 'from dataset D_1' but its bounds carry a0 and its proof computes with the first "
           "column a0 sqrt(log n) (Section D.3, 'Dataset 0 with F_exp'); on D_1 the first column is a1 sqrt(log n) "
           "with a1 >= 0.7 > a0. ")
_lemma("lemma-d.6", _u_parts(sa.log_u_exp, U_EXP) + [
    ("part-3a", sa.log_f_exp, [(J3, KEY_J3, "<=", lambda v: (2 * v.a - 1) * v.L)],
     LOG_F + r" \le \log(1/n^{1-2{a}}) \text{ (if } {a} \in (0, 0.1))"),
] + EXP_TAIL, prefix=r"\{A_1,A_2,A_3\} \in D_1 \text{ (as printed)},\ QK^\top = 1_{d\times d}", label=1,
    X="ones", symbol="a_0", a0_symbol=True,
    reading=_reading(1, "ones", dict(EXP_READING, a0="a0 in [1e-12, 0.1) drawn apart from the dataset's a1: the "
                                     "statement's symbol; D_1 as printed (the erratum's corrected statement "
                                     "takes D_0)")),
    errata={"part-1a": D6_NOTE + "On D_1, log u_exp_{j3,j3} = (1+a1)^2 log n, never (1+a0)^2 log n.",
            "part-1b": D6_NOTE + "On D_1, log u_exp_{j3,j1} = (1+a1) log n, never (1+a0) log n.",
            "part-2a": D6_NOTE + "On D_1, log u_exp_{j0,j3} = (1+a1) log n, never (1+a0) log n.",
            "part-3a": D6_NOTE + "On D_1, f_exp_{j3,j3} >= 1/2 (Lemma D.2 Part 3a) > n^{-(1-2 a0)} for every "
                                 "n >= 2 (at n = 2: 0.695 > 2^{-0.8} = 0.574).",
            "part-4a": D6_NOTE + "On D_1, f_exp_{j0,j3} = n^{a1}/(n^{a1} + n - 1) > n^{a0-1} (at n = 2, "
                                 "a1 = 0.7: 0.619 > 2^{-0.9} = 0.536)."},
    corrected={"prefix": D0_ONES + r" \text{ (corrected)}", "label": 0, "a0_symbol": False})

_lemma("lemma-d.10", _u_parts(sa.u_lin, U_LIN) + LIN_F, prefix=D1_ONES, label=1, X="ones",
       symbol="a_1", reading=_reading(1, "ones", LIN_READING))

D14_NOTE = ("Lemma D.14 states QK^T = I_d, but its proof computes with QK^T = 1_{d x d} ((a0 + b + c)^2 log n, "
            "'circ product of two 3-sparse vectors'), like all of Appendix D (the QK^T = 1_{d x d} section; I_d "
            "is Appendix E). With I_d the scores are <A_{j0}, A_{j1}> = (a0^2 [j0 = j1 = j3] + b^2 [same "
            "residue] + c^2) log n, and b^2 + c^2 < (b + c)^2 = 1. ")
_lemma("lemma-d.14", _u_parts(sa.u_lin, U_LIN) + LIN_F[:3] + [LIN_F[3] + (2,)],
       prefix=r"\{A_1,A_2,A_3\} \in D_0,\ QK^\top = I_d \text{ (as printed)}", label=0, X="identity",
       symbol="a_0", reading=_reading(0, "identity", dict(LIN_READING, **{"part 4b domain": (
           "d >= 4 for the stated Part 4b: at d = 3 (one residue) QK^T = I_d gives f_lin_{j0,j1} = 1/n exactly "
           "for j0, j1 of j3's residue (a tie floats cannot certify); the corrected statement takes every d")})),
       errata={"part-1a": D14_NOTE + "u_lin_{j3,j3} = (a0^2 + b^2 + c^2) log n < (1+a0)^2 log n.",
               "part-1b": D14_NOTE + "u_lin_{j3,j1} = (b^2 [same residue] + c^2) log n < (1+a0) log n.",
               "part-2a": D14_NOTE + "u_lin_{j0,j3} = (b^2 [same residue] + c^2) log n < (1+a0) log n.",
               "part-2b": D14_NOTE + "u_lin_{j0,j1} = (b^2 [same residue] + c^2) log n < log n.",
               "part-3a": D14_NOTE + "f_lin_{j3,j3} = (a0^2+b^2+c^2)/(a0^2 + t b^2 + n c^2), and n f_lin_{j3,j3} "
                                     "- (1+a0) has the sign of (n-1) a0^2 + (n-t) b^2 - a0 (a0^2 + t b^2 + n c^2): "
                                     "positive for d >= 4 and small a0 (n = 2, d = 4, b = 0.1: ~0.01 > 0).",
               "part-3b": D14_NOTE + "f_lin_{j3,j1} for j1 != j3 of j3's residue is (b^2 + c^2)/(a0^2 + t b^2 + "
                                     "n c^2) > 1/n iff (n - t) b^2 > a0^2: every d >= 4 with t >= 2 and small a0.",
               "part-4a": D14_NOTE + "f_lin_{j0,j3} for j0 != j3 of j3's residue is (b^2 + c^2)/(t b^2 + n c^2) "
                                     "> (1+a0)/n iff (n - t) b^2 > a0 (t b^2 + n c^2): d >= 4, t >= 2, small a0.",
               "part-4b": D14_NOTE + "f_lin_{j0,j1} for j0, j1 != j3 of one residue is (b^2 + c^2)/(t b^2 + n c^2)"
                                     " > 1/n iff (n - t) b^2 > 0: every d >= 4."},
       corrected={"prefix": D0_ONES + r" \text{ (corrected)}", "X": "ones"})

C_EXP = r"c_{\mathrm{exp}}(\mathsf{A},x)_{j_0,i_0}"
C_LIN = r"c_{\mathrm{lin}}(\mathsf{A},x)_{j_0,i_0}"
C_READING = {"entries": C_ENTRIES, "V": V_EYE, "identities": IDENTITY}
def C_SPARSE_REST(v):
    return (v.t / v.n * v.b * v.s)  # (t/n) b sqrt(log n)

_lemma("lemma-d.3", [
    ("part-1", sa.c_exp, [(J3, FIRST, ">=", lambda v: v.a * v.s / 2)], C_EXP + r" \ge \frac12 a_1 \sqrt{\log n}"),
    ("part-2-one", sa.c_exp, [(J3, R3, ">=", lambda v: v.b * v.s / 2)], C_EXP + r" \ge \frac12 b \sqrt{\log n}"),
    ("part-2-rest", sa.c_exp, [(J3, OTHER_IDS, "<=", C_SPARSE_REST)], C_EXP + r" \le \frac{t}{n} b \sqrt{\log n}", 2),
    ("part-3", sa.c_exp, [(J3, LAST, "==", lambda v: v.c * v.s)], C_EXP + r" = c \sqrt{\log n}"),
    ("part-4", sa.c_exp, [(NOT_J3, FIRST, "log<=", lambda v: v.xp.log(v.a * v.s) + (v.a - 1) * v.L)],
     C_EXP + r" \le \frac{1}{n^{1-a_1}} a_1 \sqrt{\log n}"),
    ("part-5", sa.c_exp, [(NOT_J3, IDS, "<=", C_SPARSE_REST)], C_EXP + r" \le \frac{t}{n} b \sqrt{\log n}", 2),
    ("part-6", sa.c_exp, [(NOT_J3, LAST, "==", lambda v: v.c * v.s)], C_EXP + r" = c \sqrt{\log n}"),
], prefix=D1_ONES.replace(r"b+c=1,\ ", "") + r",\ V = I_d,\ n = t(d-2)", label=1, X="ones", symbol="a_1",
    reading=_reading(1, "ones", dict(C_READING, **{"part 5 domain": (
        "d >= 4 for the stated Part 5: at d = 3 its single identity column equals (t/n) b sqrt(log n) "
        "exactly (a tie floats cannot certify); the corrected statement is checked for every d")})),
    errata={"part-5": (
        "For j0 != j3 the column of j3's residue carries (f_exp_{j0,j3} + (t-1) f_exp_{j0,j1}) b sqrt(log n) with "
        "f_exp_{j0,j3} = n^{a1}/(n^{a1} + n - 1) (Lemma D.2 Part 4a bounds it by 1/n^{1-a1}, not 1/n); the proof "
        "uses 'entries of f_exp bounded by 1/n', false at j1 = j3. The entry exceeds (t/n) b sqrt(log n) for every "
        "d >= 4, by (n - t)(n^{a1} - 1)/(n (n^{a1} + n - 1)) b sqrt(log n): at n = 2, d = 4, a1 = 0.7 it is "
        "0.619 b sqrt(log 2) > 0.5 b sqrt(log 2), and at large n the entry is ~n^{a1-1} b sqrt(log n) against "
        "b sqrt(log n)/(d-2) (relative slack -0.98 at n = 100, below -0.999999 at n = 10^9). Corrected as Lemma "
        "D.7 Part 5 is stated: one index <= (1/n^{1-a1} + (t-1)/n) b sqrt(log n), the others <= (t/n) b "
        "sqrt(log n).")},
    replacements={"part-5": ("part-5", sa.c_exp, [
        (NOT_J3, R3, "log<=",  # log((n^{a1-1} + (t-1)/n) b sqrt(log n))
         lambda v: v.xp.log(v.b * v.s) + (v.a - 1) * v.L + v.xp.log1p((v.t - 1) * v.npow(-v.a))),
        (NOT_J3, OTHER_IDS, "<=", C_SPARSE_REST)],
        C_EXP + r" \le (\frac{1}{n^{1-a_1}} + \frac{t-1}{n}) b \sqrt{\log n} \text{ (one } i_0 \text{)}, "
                r"\le \frac{t}{n} b \sqrt{\log n} \text{ (the others)}")})

D7_ONE = lambda e: lambda v: (v.npow(e(v.a)) + (v.t - 1) / v.n) * v.b * v.s  # noqa: E731
_lemma("lemma-d.7", [
    ("part-1", sa.c_exp, [(J3, FIRST, "<=", lambda v: v.a * v.s * v.npow(2 * v.a - 1))],
     C_EXP + r" \le \frac{1}{n^{1-2a_0}} a_0 \sqrt{\log n}"),
    ("part-2", sa.c_exp, [(J3, IDS, "<=", lambda v: v.t * v.npow(2 * v.a - 1) * v.b * v.s)],
     C_EXP + r" \le \frac{t}{n^{1-2a_0}} b \sqrt{\log n}"),
    ("part-2-one", sa.c_exp, [(J3, R3, "<=", D7_ONE(lambda a: 2 * a - 1))],
     C_EXP + r" \le (\frac{1}{n^{1-2a_0}} + \frac{t-1}{n}) b \sqrt{\log n}"),
    ("part-2-rest", sa.c_exp, [(J3, OTHER_IDS, "<=", C_SPARSE_REST)], C_EXP + r" \le \frac{t}{n} b \sqrt{\log n}", 2),
    ("part-3", sa.c_exp, [(J3, LAST, "==", lambda v: v.c * v.s)], C_EXP + r" = c \sqrt{\log n}"),
    ("part-4", sa.c_exp, [(NOT_J3, FIRST, "<=", lambda v: v.a * v.s * v.npow(v.a - 1))],
     C_EXP + r" \le \frac{1}{n^{1-a_0}} a_0 \sqrt{\log n}"),
    ("part-5", sa.c_exp, [(NOT_J3, IDS, "<=", lambda v: v.t * v.npow(v.a - 1) * v.b * v.s)],
     C_EXP + r" \le \frac{t}{n^{1-a_0}} b \sqrt{\log n}"),
    ("part-5-one", sa.c_exp, [(NOT_J3, R3, "<=", D7_ONE(lambda a: a - 1))],
     C_EXP + r" \le (\frac{1}{n^{1-a_0}} + \frac{t-1}{n}) b \sqrt{\log n}"),
    ("part-5-rest", sa.c_exp, [(NOT_J3, OTHER_IDS, "<=", C_SPARSE_REST)],
     C_EXP + r" \le \frac{t}{n} b \sqrt{\log n}", 2),
    ("part-6", sa.c_exp, [(NOT_J3, LAST, "==", lambda v: v.c * v.s)], C_EXP + r" = c \sqrt{\log n}"),
], prefix=D0_ONES + r",\ V = I_d,\ n = t(d-2)", label=0, X="ones", symbol="a_0",
    reading=_reading(0, "ones", dict(C_READING, bullets=(
        "Parts 2 and 5 state a bound for every identity column and two bullets: 'one index' (-one: the column of "
        "j3's residue) and 'the other indices' (-rest, d >= 4: for d = 3 there is no other index)"))))


def _lin_c_parts(symbol):
    """Lemmas D.11 and D.15, Parts 1-3 (j0 = j3) and 4-6 (j0 != j3): c_lin against (1+a)/n times
    the column's scale, and c sqrt(log n) in the last column."""
    frac = r" \le \frac{1+" + symbol + "}{n}"
    columns = [(FIRST, "<=", lambda v: (1 + v.a) / v.n * v.a * v.s, frac + r" {a} \sqrt{\log n}"),
               (IDS, "<=", lambda v: (1 + v.a) / v.n * v.t * v.b * v.s, frac + r" t b \sqrt{\log n}"),
               (LAST, "==", lambda v: v.c * v.s, r" = c \sqrt{\log n}")]
    return [(f"part-{3 * r + i + 1}", sa.c_lin, [(rows, cols, op, bound)], C_LIN + tex)
            for r, rows in enumerate((J3, NOT_J3)) for i, (cols, op, bound, tex) in enumerate(columns)]


_lemma("lemma-d.11", _lin_c_parts("a_1"), prefix=D1_ONES.replace(r"b+c=1,\ ", "") + r",\ V = I_d,\ n = t(d-2)",
       label=1, X="ones", symbol="a_1", reading=_reading(1, "ones", C_READING))
_lemma("lemma-d.15", _lin_c_parts("a_0"), prefix=D0_ONES + r",\ V = I_d,\ n = t(d-2)", label=0, X="ones",
       symbol="a_0", reading=_reading(0, "ones", C_READING))


# ---- random signs: Lemmas D.4, D.8, D.12, D.16 ----------------------------------------------

def _sigma(case, rng, size):
    """sigma in {-1, +1}^d, as its sums over the column groups of c_{j0}."""
    return rademacher_group_sums(case.grouped.widths, rng, (size,))


EVENTS = {">=": ge, "<": lt, "|<|": lambda value, tau, xp: lt(xp.abs(value), tau, xp)}
EVENT_TEX = {">=": r"\ge", "<": "<"}


def _sign_statement(prefix, attention, j0, event, probability):
    inner = rf"\langle c_{{\mathrm{{{attention}}}}}(\mathsf{{A}},x)_{{j_0}}, \sigma\rangle"
    inner = rf"|{inner}| <" if event == "|<|" else f"{inner} {EVENT_TEX[event]}"
    where = "j_0 = j_3" if j0 is False else r"j_0 \ne j_3"
    return rf"{prefix}:\ {where}:\ \Pr_{{\sigma \in \{{\pm 1\}}^d}}[{inner} (c+0.1)\sqrt{{\log n}}] \ge {probability}"


WHP = (r"1 - \delta/\mathrm{poly}(n)", lambda case: 1.0 - case.delta)


def _coefficient(label, exp):
    """The dataset coefficient on a path over (beta, n): a1 with a growing cap on D_1; on D_0 with F_exp / c_exp
    (Lemma D.8, Theorem D.9) a0 < (beta - 0.02)/4; otherwise a0 anywhere in (0, 0.1)."""
    if label:
        return lambda pt: sas.a1_growing(pt["n"])
    return (lambda pt: sas.a0_below_beta(pt["beta"])) if exp else None


def _growth_reading(label, exp):
    extra = {"a1": A1_GROWING, "dataset": D1_GROWING} if label else \
        {"a0": A0_BETA} if exp else {}
    return {"d": GROWTH_D, **extra}


def _sign_claim(cid, *, label, attention, j0, event, prefix, reading, probability=WHP, a=None, path=BETA_PATH,
                erratum=None):
    """Pr_sigma[<c_{j0}, sigma> event tau] >= probability (its TeX and value) for j0 = j3 (j0=False) or
    a row j0 != j3."""

    @claim(cid, kind="probabilistic", source=_source(cid),
           statement=_sign_statement(prefix, attention, j0, event, probability[0]),
           domain=lambda pt: sas.sign_case(pt["n"], label, j0, a(pt) if a else None, sas.beta_width(pt["beta"])),
           sample=_sigma,
           probability=probability[1], path=path, eventually=True, reading=structured(reading), erratum=erratum)
    def signs(case, S, xp):
        g = case.grouped
        row = g.query_class(case.params.j3 if case.j0 is None else case.j0)
        value = sa.inner(ATTENTION[attention](g, "ones", xp)[row], S)
        return EVENTS[event](value, _tau(case.params, xp), xp)

    return signs


def _sign_reading(label, exp, extra=()):
    out = {"dataset": D0, "x": X_ONES + " (Appendix D's setting; the lemma inherits it from Lemmas "
           "D.3/D.7/D.11/D.15)", "V": V_EYE, "sigma": SIGMA, "threshold": TAU, "probability": POLY, "delta": DELTA,
           "n": EVENTUALLY, "log": LOG, "j0": "j0 != j3 drawn by position (next row, same residue as j3, previous "
           "row, anywhere)", **_growth_reading(label, exp)}
    out.update(extra)
    return out


D1_SIGNS = r"\{A_1,A_2,A_3\} \in D_1,\ t\sqrt d = o(n^{0.99})"
D0_SIGNS_EXP = r"\{A_1,A_2,A_3\} \in D_0,\ t\sqrt d = o(n^{1-2a_0-0.01})"
D0_SIGNS = r"\{A_1,A_2,A_3\} \in D_0,\ t\sqrt d = o(n^{0.99})"
D4_NOTE = (
    "For j0 != j3, c_exp_{j0,1} = a1 f_exp_{j0,j3} sqrt(log n) with f_exp_{j0,j3} = n^{a1}/(n^{a1} + n - 1), which "
    "tends to 1 for a1 > 1 (1/2 at a1 = 1, and decays only like n^{a1-1} below), and the column of j3's residue "
    "carries b f_exp_{j0,j3} sqrt(log n) too: with sigma = +1 on the first, that and the last column "
    "(probability 1/8) <c_{j0}, sigma> reaches (a1 + b + c) sqrt(log n) > tau. Measured (quick profile, "
    "n = 10^9, d - 2 = 31250, any b): Pr[<c_{j0}, sigma> >= tau] = 0.125 at a1 = 0.9, 0.25 for a1 in [0.95, "
    "1.5], 0.5 for a1 >= 5 (0 for a1 <= 0.8), above 0.1 > delta for every delta. The "
    "proof's split S = {1, d} needs c_exp_{j0,1} <= 0.05 sqrt(log n), i.e. a1 < 1 and n large, and bounds "
    "the j3-residue column by Lemma D.3 Part 5, itself refuted. Corrected: a1 < 1 and n so large that "
    "(a1 + b) n^{a1-1} <= 0.05 (both coordinates within the proof's 0.05 sqrt(log n))")

_publish(
    _sign_claim("deng2023/lemma-d.4/part-1", label=1, attention="exp", j0=False, event=">=", probability=("1/10", 0.1),
                prefix=D1_SIGNS, a=_coefficient(1, True),
                reading=_sign_reading(1, True, {"probability": "1/10 as printed (delta plays no role)"})),
    _sign_claim("deng2023/lemma-d.4/part-2", label=1, attention="exp", j0=True, event="<",
                prefix=D1_SIGNS, a=_coefficient(1, True), reading=_sign_reading(1, True),
                erratum=Erratum("deng2023/lemma-d.4/part-2-corrected", D4_NOTE)),
    _sign_claim("deng2023/lemma-d.4/part-2-corrected", label=1, attention="exp", j0=True, event="<",
                prefix=D1_SIGNS + r",\ a_1 < 1,\ (a_1 + b) n^{a_1-1} \le 0.05 \text{ (corrected)}",
                a=lambda pt: lambda b: sas.a1_values(sas.a1_within_budget(pt["n"], b)), path=BETA_PATH_LARGE,
                reading=_sign_reading(1, True, {"a1": (
                    "a1 in [0.7, a*(n, b)], a*(n, b) the largest a1 < 1 with (a1 + b) n^{a1-1} <= 0.05 (0.745 "
                    "at n = 10^6, b = 0.9): 'n large enough for a1' made explicit; the path starts at n = 10^6, "
                    "the first power of 10 where a1 = 0.7 qualifies for every b")})),
)


def _two_sided(lemma, label, attention, prefix):
    """Parts 1 (j0 = j3) and 2 (j0 != j3): Pr[|<c_{j0}, sigma>| < tau] >= 1 - delta/poly(n)."""
    exp = attention == "exp"
    return [_sign_claim(f"deng2023/{lemma}/part-{i}", label=label, attention=attention, j0=j0, event="|<|",
                        prefix=prefix, reading=_sign_reading(label, exp),
                        a=_coefficient(label, exp), path=BETA_PATH)
            for i, j0 in ((1, False), (2, True))]


_publish(*_two_sided("lemma-d.8", 0, "exp", D0_SIGNS_EXP), *_two_sided("lemma-d.12", 1, "lin", D1_SIGNS),
         *_two_sided("lemma-d.16", 0, "lin", D0_SIGNS))


# ---- Theorems D.5, D.9, D.13, D.17 and Theorem 6.2: the networks --------------------------------

def _columns(case, rng, size):
    """y in {-1, +1}^{d x m} as sums over the column groups of c_{j0}, through the columns that can attain
    max_l <c_{j0}, y_l> (column_maxima: c >= 0) (narrowest integers: sa.top_score computes in float64 or mpmath)."""
    widths = case.grouped.widths
    return column_maxima(widths, rng, (size, case.m), dtype=narrowest(widths))


OUTCOMES = {"> 0": gt, "= 0": le}


def _tops(g, attentions, Y, xp):
    """max_{j0, l} <c_{j0}, y_l> of F_exp (attention 'exp') or F_lin ('lin') for each of ``attentions``, X = 1_{dxd},
    V = I_d (sa.top_scores: one network read twice is evaluated once)."""
    return sa.top_scores([ATTENTION[attention](g, "ones", xp) for attention in attentions], Y)


def _network_claim(cid, *, label, events, m_rule, statement, reading, erratum=None):
    """Pr_y[every event] >= 1 - delta for one network; an event is (attention, '> 0' | '= 0'); a path over (beta, n)."""
    a = _coefficient(label, any(att == "exp" for att, _ in events))
    reading = dict(reading, **_growth_reading(label, any(att == "exp" for att, _ in events)))

    @claim(cid, kind="probabilistic", source=_source(cid), statement=statement,
           domain=lambda pt: sas.case(pt["n"], label, sas.beta_width(pt["beta"]), a(pt) if a else None,
                                      m_rule=m_rule),
           sample=_columns, probability=lambda c: 1.0 - c.delta, path=BETA_PATH, eventually=True,
           reading=structured(reading), erratum=erratum)
    def network(case, Y, xp):
        g, tau = case.grouped, _tau(case.params, xp)
        tops = _tops(g, [att for att, _ in events], Y, xp)
        return _all([OUTCOMES[want](top, tau, xp) for top, (_, want) in zip(tops, events, strict=True)], xp)

    return network


def _network_reading(m_reading, extra=()):
    out = {"dataset": D0, "tau": TAU, "x, V": X_THEOREM, "network": NETWORK, "y": Y_RADEMACHER, "m": m_reading,
           "probability": POLY, "delta": DELTA, "n": EVENTUALLY, "log": LOG}
    out.update(extra)
    return out


THEOREM = (r"d \in [\omega(n^{<d>}), n],\ \tau = (c+0.1)\sqrt{\log n},\ m = O(\log(n/\delta)),\ "
           r"\{A_1,A_2,A_3\} \in D_<label>:\ \text{w.p. } 1 - \delta/\mathrm{poly}(n),\ ")


def _theorem(d, label, event):
    return THEOREM.replace("<d>", d).replace("<label>", str(label)) + event


F_DEF = {"exp": r"F_{\mathrm{exp}} = \phi(\sum_{j_0}\sum_{l} \phi_\tau(\langle c_{\mathrm{exp}}(\mathsf{A},x)_{j_0}, y_l\rangle))",
         "lin": r"F_{\mathrm{lin}} = \phi(\sum_{j_0}\sum_{l} \phi_\tau(\langle c_{\mathrm{lin}}(\mathsf{A},x)_{j_0}, y_l\rangle))"}
D9_NOTE = (
    "Theorem D.9 is stated 'for any {A1, A2, A3} from D_1', contradicting Theorem D.5 (F_exp > 0 on D_1 w.h.p.); "
    "Section D.3 is 'Dataset 0 with F_exp', its hypothesis d = omega(n^{4 a0 + 0.02}) carries a0 and the proof "
    "cites Lemma D.8 (D_0). On D_1 a single column y_l already fires with probability >= 1/8 (measured >= 0.22, "
    "Lemma D.4 Part 1), so Pr[F_exp = 0] <= 7/8 < 0.9 < 1 - delta for every m >= 1 (measured pass rate ~0 at "
    "m = floor(log(n/delta)) + 1). Corrected: A from D_0.")

_publish(
    _network_claim("deng2023/theorem-d.5/main", label=1, events=[("exp", "> 0")], m_rule=sas.m_fire,
                   statement=_theorem("0.02", 1, r"F_{\mathrm{exp}}(A_1,A_2,A_3) > 0,\ x = 1_{d^2},\ "
                                            + F_DEF["exp"]),
                   reading=_network_reading(M_FIRE, {
                       "x, V": "x = 1_{d^2} as the theorem states; V = I_d as in the lemmas its proof cites",
                       "index": "the display's c_exp(A, x) (no j0) read as c_exp(A, x)_{j0}"})),
    _network_claim("deng2023/theorem-d.9/main", label=1, events=[("exp", "= 0")], m_rule=m_smallest,
                   statement=_theorem("4a_0+0.02", "1 \\text{ (as printed)}", r"F_{\mathrm{exp}}(A_1,A_2,A_3) = 0"),
                   reading=_network_reading(M_ZERO, {
                       "a0": "the hypothesis' a0 is D_0's (D_1 has none): d = n^beta = omega(n^{4 a0 + 0.02}) "
                             "for every a0 < (beta - 0.02)/4, so every beta of the path qualifies"}),
                   erratum=Erratum("deng2023/theorem-d.9/main-corrected", D9_NOTE)),
    _network_claim("deng2023/theorem-d.9/main-corrected", label=0, events=[("exp", "= 0")], m_rule=m_smallest,
                   statement=_theorem("4a_0+0.02", "0 \\text{ (corrected)}", r"F_{\mathrm{exp}}(A_1,A_2,A_3) = 0"),
                   reading=_network_reading(M_ZERO)),
    _network_claim("deng2023/theorem-d.13/main", label=1, events=[("lin", "= 0")], m_rule=m_smallest,
                   statement=_theorem("0.02", 1, r"F_{\mathrm{lin}}(A_1,A_2,A_3) = 0"),
                   reading=_network_reading(M_ZERO)),
    _network_claim("deng2023/theorem-d.17/main", label=0, events=[("lin", "= 0")], m_rule=m_smallest,
                   statement=_theorem("0.02", 0, r"F_{\mathrm{lin}}(A_1,A_2,A_3) = 0 \text{ (with } "
                                            + F_DEF["exp"] + r" \text{ displayed)}"),
                   reading=_network_reading(M_ZERO, {"conclusion": (
                       "the theorem displays the definition of F_exp but concludes F_lin(A1, A2, A3) = 0 (Section "
                       "D.5, 'Dataset 0 with F_lin'; the proof cites Lemma D.16): the conclusion is checked as "
                       "printed, F_lin of Definition C.2")})),
)

T62 = (r"\text{Theorem 6.2: } \tau = (c+0.1)\sqrt{\log n},\ d \in [\omega(n^{0.02}), n],\ m = O(\log(n/\delta)),\ "
       r"x = 1_{d^2},\ A_1 \in D_{label}:\ \text{w.p. } 1 - \delta/\mathrm{poly}(n),\ ")
T62_READING = {"F_exp": ("F_exp(A1) = phi(sum_{j0} sum_l phi_tau(<Att_{j0,*}, y_l>)), Att the softmax self-attention "
                         "D^{-1} exp(A1 X A1^T) A1 V of Eq. (1): Att_{j0,*} = c_exp(A, x)_{j0}; F_lin from "
                         "Definition C.2 (Theorem 6.2 does not define it)"),
               "display": "the comma between the two events read as 'and', as in Section 7.2's E_success"}
T62_1_NOTE = (
    "The D_1 display 'F_exp(A1) > 0, F_exp(A1) = 0' is contradictory: as a conjunction its probability is 0 "
    "(measured pass rate 0), and as two separate w.h.p. statements Pr[F > 0] + Pr[F = 0] = 1 < 2 (1 - delta). "
    "Theorem 6.2 summarizes Theorems D.5 and D.13 on D_1 (and Section 7.2's E_success pairs F_exp(A_1) > 0 "
    "with F_lin(A_1) = 0): corrected to F_exp(A1) > 0 and F_lin(A1) = 0.")

_publish(
    _network_claim("deng2023/theorem-6.2/part-1", label=1, events=[("exp", "> 0"), ("exp", "= 0")], m_rule=sas.m_fire,
                   statement=T62.replace("{label}", "1") + r"F_{\mathrm{exp}}(A_1) > 0,\ F_{\mathrm{exp}}(A_1) = 0",
                   reading=_network_reading(M_NETWORK, T62_READING),
                   erratum=Erratum("deng2023/theorem-6.2/part-1-corrected", T62_1_NOTE)),
    _network_claim("deng2023/theorem-6.2/part-1-corrected", label=1, events=[("exp", "> 0"), ("lin", "= 0")],
                   m_rule=sas.m_fire, statement=T62.replace("{label}", "1") + r"F_{\mathrm{exp}}(A_1) > 0,\ F_{\mathrm{lin}}(A_1) = 0"
                   r" \text{ (corrected)}", reading=_network_reading(M_NETWORK, T62_READING)),
    _network_claim("deng2023/theorem-6.2/part-2", label=0, events=[("lin", "= 0"), ("lin", "= 0")], m_rule=sas.m_fire,
                   statement=T62.replace("{label}", "0") + r"F_{\mathrm{lin}}(A_1) = 0,\ F_{\mathrm{lin}}(A_1) = 0",
                   reading=_network_reading(M_NETWORK, dict(T62_READING, duplicate=(
                       "the D_0 display repeats F_lin(A1) = 0; as printed it is Theorem D.17's statement and is "
                       "checked so; its evident reading (F_exp(A1) = 0 and F_lin(A1) = 0, Theorems D.9 and D.17) "
                       "is deng2023/theorem-6.2/part-2-evident")))),
    _network_claim("deng2023/theorem-6.2/part-2-evident", label=0, events=[("exp", "= 0"), ("lin", "= 0")],
                   m_rule=sas.m_fire, statement=T62.replace("{label}", "0") + r"F_{\mathrm{exp}}(A_1) = 0,\ F_{\mathrm{lin}}(A_1) = 0"
                   r" \text{ (evident reading of the duplicated display)}",
                   reading=_network_reading(M_NETWORK, T62_READING)),
)


# ---- Theorem 1.1: the conjunction of the formal theorems --------------------------------------

def _pair_columns(case, rng, size):
    widths = sa.Grouped(case.d0).widths
    return column_maxima(widths, rng, (size, case.m), dtype=narrowest(widths))


@claim("deng2023/theorem-1.1/main", kind="probabilistic",
       source="deng2023 Section 1.1, Theorem 1.1 (informal of Section D)",
       statement=r"\exists D_0, D_1 \subset \mathbb{R}^{n\times d}, F_{\mathrm{exp}}, F_{\mathrm{lin}}: \text{w.h.p. over the weights, } "
                 r"F_{\mathrm{exp}} \text{ distinguishes } D_0, D_1 \text{ and } F_{\mathrm{lin}} \text{ does not; checked as } "
                 r"F_{\mathrm{exp}}(A^{(1)}) > 0 \wedge F_{\mathrm{exp}}(A^{(0)}) = 0 \wedge F_{\mathrm{lin}}(A^{(1)}) = 0 "
                 r"\wedge F_{\mathrm{lin}}(A^{(0)}) = 0",
       domain=lambda pt: sas.pair_case(pt["n"], widths=sas.beta_width(pt["beta"]),
                                       a0=sas.a0_below_beta(pt["beta"]), a1=sas.a1_growing(pt["n"])),
       sample=_pair_columns, probability=lambda c: max(0.0, 1.0 - 4.0 * c.delta), path=BETA_PATH, eventually=True,
       reading=structured({
           "reading": ("the conjunction of the formal theorems it summarizes, on one network and one draw of its "
                       "weights y: D.5 (F_exp > 0 on D_1), D.9 with the D_0 its section and proof intend (F_exp = 0 "
                       "on D_0; see the erratum of theorem-d.9/main), D.13 and D.17 (F_lin = 0 on D_1 and D_0); "
                       "'cannot distinguish' = F_lin is 0 on both"),
           "probability": ("1 - 4 delta: the union bound of the four 1 - delta/poly(n) guarantees with poly(n) = 1; "
                           "'with high probability' is not quantified in Theorem 1.1"),
           "datasets": ("A^(0) in D_0 and A^(1) in D_1 share n, d, b, c (one network: tau = (c + 0.1) sqrt(log n) "
                        "is a weight) and have their own a0, a1 (see a0, a1), j3"), "D_0": D0,
           "d": GROWTH_D, "a0": A0_BETA, "a1": A1_GROWING, "tau": TAU, "x, V": X_THEOREM, "network": NETWORK,
           "y": Y_RADEMACHER,
           "m": M_NETWORK, "delta": DELTA, "n": EVENTUALLY, "log": LOG,
           "shared y": ("the column groups of the two datasets are aligned (each one's j3-residue column is the "
                        "other's 'own' group) so one draw of y serves both exactly"),
       }))
def theorem_1_1(case, Y, xp):
    g0, g1, perm = sa.aligned_pair(case.d0, case.d1)
    Y1 = Y if perm is None else Y[..., perm]
    tau = _tau(case.d0, xp)
    exp1, lin1 = _tops(g1, ["exp", "lin"], Y1, xp)
    exp0, lin0 = _tops(g0, ["exp", "lin"], Y, xp)
    return _all([gt(exp1, tau, xp), le(exp0, tau, xp), le(lin1, tau, xp), le(lin0, tau, xp)], xp)
