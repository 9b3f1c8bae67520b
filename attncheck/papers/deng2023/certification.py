"""The ``certify=`` declarations of deng2023's deterministic claims.

Each constant is an :class:`attncheck.core.declarations.Ineligible`: the claim keeps its sampled verdict
and the report states the reason. :func:`grouped` certifies a Definition D.1 claim (identity or
inequality) over its full parameter ranges, one box per class structure
(:class:`attncheck.core.declarations.Cases`); :func:`cross` does the same for Definition F.1 and
:func:`section_e` for the Section E datasets.
"""
import math
from dataclasses import dataclass

import mpmath
import numpy as np
import sympy

from attncheck.core.declarations import Cases, Ineligible, Parameters
from attncheck.papers.deng2023.data.attention import SelfAttentionParams
from attncheck.papers.deng2023.models.class_attention import definition_d1 as sa
from attncheck.papers.deng2023.models.class_attention.section_e import ClassModel
from attncheck.papers.deng2023.strategies import cross_attention as cas
from attncheck.papers.deng2023.strategies import self_attention as sas
from attncheck.papers.deng2023.strategies.attention import CLASSES_K_MAX, FIRST, LAST, OWN, R3, REST, SelfAttentionCase
from attncheck.papers.deng2023.strategies.cross_attention import CrossCase

LARGEST_COLUMN = Ineligible(
    "evaluator branches on data",
    "picks the column i0 with the largest c_exp by Python comparisons (max, _rest_of_columns): it does not run "
    "on symbols, and on balls the choice is undecided wherever two columns' c are close (600 boxes per structure "
    "settle about 65% of the t = 1 boxes)")
DENSE = Ineligible(
    "integer structure",
    "a statement about the dense n x d matrices of the builder (which entries are nonzero, how many per column)")
INDEX_COUNTS = Ineligible(
    "integer structure", "counts indices j1 whose entry meets a bound: the claim is about an integer count")
MANY_ENTRIES = Ineligible(
    "more than k parameters",
    "general inputs A1, A2, A3, QK^T, V: tens of real entries, beyond branch and bound over a box (k = 4)")
THRESHOLD = Ineligible(
    "evaluator branches on data",
    "compares the sign of F with the sign of max <c, y> - tau on general inputs, numpy float64 only")
EXACT_LAW = Ineligible(
    "integer structure",
    "a probability summed over the integer counts of a binomial law (a step function of n, d and the reals), "
    "enclosed per case in arb balls (models/section_e_law.py), not over a box")
TOY_GENERAL = Ineligible(
    "more than k parameters", "general A (n x d, n <= 8, d <= 4) and x: up to 36 real entries")
TOY_SPIKE = Ineligible(
    "evaluator branches on data",
    "min over 2^n sign vectors via the spike weight against the rest (float(w) < float(rest), int(k[0])) on drawn "
    "D1 scores")


# ---- Definition D.1 relaxed: k = d - 2 and t = n/(d-2) as reals, one box per class structure --------------

N_MAX = 10**15
"""Largest n of the deep path: every n = k t <= N_MAX of a structure lies in its box."""
A_RANGE = {1: (0.7, 100.0), 0: (sas.A0_LOW, 0.1)}
"""a1 in [0.7, 100] (D_1, the claims' A1_EXACT cap), a0 in [1e-12, 0.1] (D_0; closing 0.1 only encloses more)."""
B_RANGE = (0.1, 0.9)
INT64_N = 10**18
"""Largest n the sampled grouped evaluator counts in int64; beyond it a re-check runs the relaxed forms in mpmath."""
STRUCTURES = (  # (label, k_class, same, k range, t range): every admissible (k, t) with k t <= N_MAX, n >= 2
    ("k >= 3, t >= 2", 3, True, (3.0, N_MAX / 2), (2.0, N_MAX / 3)),
    ("k >= 3, t = 1", 3, False, (3.0, float(N_MAX)), (1.0, 1.0)),
    ("k = 2, t >= 2", 2, True, (2.0, 2.0), (2.0, N_MAX / 2)),
    ("k = 2, t = 1", 2, False, (2.0, 2.0), (1.0, 1.0)),
    ("k = 1, t >= 2", 1, True, (1.0, 1.0), (2.0, float(N_MAX))),
)
RELAXED = ("k = d - 2 and t = n/(d-2) relaxed to reals, n = k t: the grouped evaluator is analytic in the "
           "counts 1, t - 1, t, (k-2) t, n - t and the width k - 2 within one class structure; the structures "
           "(t = 1 or t >= 2; k = 1, 2 or >= 3: which cells, classes and groups are present) are separate boxes; "
           "a counterexample is re-checked at an integer (k, t) on the sampled evaluator; c = 1 - b")


COVERS_D1 = ("every admissible (k, t) = (d - 2, n/(d - 2)) with n <= N_MAX, the largest n of either path, lies in "
             "the box of its structure, and the claims draw a and b within A_RANGE and B_RANGE")


def _widths(n: int, k: int) -> tuple[int, int]:
    """(k, t = n / k) of a dataset whose n is k blocks of t rows."""
    t, rest = divmod(n, k)
    if rest:
        raise ValueError(f"n = {n} is not a multiple of the block count {k}")
    return k, t


def _structure(k: int, t: int) -> str:
    """The label of the STRUCTURES box of an integer (k, t)."""
    return next(name for name, k_class, same, _, _ in STRUCTURES
                if (k >= 3 if k_class == 3 else k == k_class) and (t >= 2) == same)


def _locate_d1(p, a, a0=None) -> tuple[str, dict]:
    """(structure, box coordinates) of a Definition D.1 or Section E dataset ``p`` (n, d, b) with a = ``a``."""
    k, t = _widths(p.n, p.d - 2)
    return _structure(k, t), dict(k=k, t=t, a=a, b=p.b, **({} if a0 is None else {"a0": a0}))


@dataclass(frozen=True)
class RelaxedCase:
    """A Definition D.1 case on the relaxed grouped evaluator (the fields the claims read)."""

    params: sa.Symbols
    grouped: sa.Relaxed
    symbol_a: object


def _case(label, k_class, same, a0_symbol):
    def build(v):
        k, t, a, b = v["k"], v["t"], v["a"], v["b"]
        a_sym = v["a0"] if a0_symbol else a
        if all(isinstance(x, (int, float)) for x in v.values()):  # an integer point (the re-check of a refutation)
            if int(k) * int(t) <= INT64_N:  # the sampled evaluator itself
                params = SelfAttentionParams(int(k) * int(t), int(k) + 2, a, b, 1.0 - b, 0, label)
                return sas.Case(params, a0=v["a0"] if a0_symbol else None)
            k, t = mpmath.mpf(int(k)), mpmath.mpf(int(t))  # beyond its int64 counts: the same forms, exact in mpmath
        sym = sa.Symbols(a, b, 1 - b, label)
        return RelaxedCase(sym, sa.Relaxed(sym, k_value=k, t_real=t, same=same, k_class=k_class), a_sym)
    return build


def grouped(label: int, min_k: int = 1, a0_symbol: bool = False, profiles=None, max_boxes=600,
            symbolic_boxes=1000) -> Cases:
    """Every class structure of Definition D.1 with k >= min_k, over the dataset's a and b (and the
    statement's a0 in [1e-12, 0.1] for a lemma stated on D_1 with a0 in its bounds); ``symbolic_boxes``:
    the symbolic route's boxes per sign factor, ``max_boxes``: the ball route's after it."""
    parts = []
    for name, k_class, same, k_range, t_range in STRUCTURES:
        if k_range[1] < min_k:
            continue
        box = {"k": k_range, "t": t_range, "a": A_RANGE[label], "b": B_RANGE}
        if a0_symbol:
            box["a0"] = A_RANGE[0]
        log = tuple(x for x in ("k", "t", "a", "a0") if x in box and box[x][0] < box[x][1])
        parts.append((name, Parameters(box, _case(label, k_class, same, a0_symbol), log=log, relaxed=RELAXED,
                                       integers=("k", "t"), max_boxes=max_boxes, profiles=profiles,
                                       symbolic_boxes=symbolic_boxes)))
    return Cases(tuple(parts), profiles=profiles, relaxed=RELAXED, covers=COVERS_D1,
                 locate=lambda case: _locate_d1(case.params, case.params.a, a0=case.a0 if a0_symbol else None))


# ---- Definition F.1 relaxed: k = d - 1 and t = n/(d-1) as reals, one box per structure ----------------

F_A_RANGE = {"a0": (cas.A0_MIN, 0.1), "a1": (cas.A1_MIN, cas.A1_MAX)}
"""a0 in [1e-200, 0.1] and a1 in [1 + 2^-52, 10^300]: the ranges the Appendix F claims draw (closing 0.1 only
encloses more)."""
F_STRUCTURES = (  # (label, k range, t range, an integer case's (n, d) of that structure)
    ("d >= 3, t >= 2", (2.0, N_MAX / 2), (2.0, N_MAX / 2), (4, 3)),
    ("d >= 3, t = 1", (2.0, float(N_MAX)), (1.0, 1.0), (2, 3)),
    ("d = 2, t >= 2", (1.0, 1.0), (2.0, float(N_MAX)), (2, 2)),
)
F_PAIRS = {"equal": (0, 0), "distinct": (1, 0)}
"""(j2, j3) of the structure's integer case: the evaluators tell rows and keys apart only by j0 = j2 and j1 = j3."""
F_RELAXED = ("k = d - 1 and t = n/(d-1) relaxed to reals, n = k t: the reduced cross-attention evaluator is "
             "analytic in the counts 1, t - 1, n - t, the width d - 2 and log n within one structure; the "
             "structures (d = 2 or d >= 3; t = 1 or t >= 2; j2 = j3 or j2 != j3: which classes and groups are "
             "present) are separate boxes; a counterexample is re-checked at an integer (k, t) on the sampled "
             "evaluator")


COVERS_F1 = ("every admissible (k, t) = (d - 1, n/(d - 1)) with n <= N_MAX, the largest n of either path, lies in "
             "the box of its structure, and the claims draw a0 and a1 within F_A_RANGE")


def _locate_f1(case) -> tuple[str, dict]:
    """(structure, box coordinates) of a Definition F.1 case."""
    k, t = _widths(case.n, case.d - 1)
    name = next(name for name, k_range, t_range, _ in F_STRUCTURES
                if (k >= 2 if k_range[0] == 2.0 else k == 1) and (t >= 2) == (t_range[0] == 2.0))
    pair = "j2 = j3" if case.j2 == case.j3 else "j2 != j3"
    return f"{name}, {pair}", {"k": k, "t": t, "a0": case.a0, "a1": case.a1}


@dataclass(frozen=True)
class RelaxedCross:
    """A Definition F.1 case with n, d, t as values; ``shape``: an integer case of the same structure, whose
    positions and present classes the evaluators read."""

    n: object
    d: object
    t: object
    label: int
    a0: object
    a1: object
    shape: CrossCase

    @property
    def a(self):
        return self.a1 if self.label else self.a0


def _cross_case(label, shape):
    def build(v):
        k, t = v["k"], v["t"]
        if all(isinstance(x, (int, float)) for x in v.values()):  # an integer point (the re-check)
            if int(k) * int(t) <= INT64_N:  # the sampled evaluator itself
                return CrossCase(int(k) * int(t), int(k) + 1, label, v["a0"], v["a1"], shape.j2, shape.j3)
            k, t = mpmath.mpf(int(k)), mpmath.mpf(int(t))  # beyond its int64 counts: the same forms in mpmath
        return RelaxedCross(k * t, k + 1, t, label, v["a0"], v["a1"], shape)
    return build


def cross(label: int, pair: str | None = None, profiles=None, max_boxes=600, symbolic_boxes=1000) -> Cases:
    """Every structure of Definition F.1 with the claim's j2, j3 (``pair``: equal, distinct or either), over
    a0 and a1 (both are parameters of every Appendix F case)."""
    parts = []
    for name, k_range, t_range, (n, d) in F_STRUCTURES:
        for how in ([pair] if pair else ("equal", "distinct")):
            j2, j3 = F_PAIRS[how]
            shape = CrossCase(n, d, label, 0.05, 2.0, j2, j3)
            box = {"k": k_range, "t": t_range, **F_A_RANGE}
            log = tuple(x for x in box if box[x][0] < box[x][1])
            parts.append((f"{name}, j2 {'=' if how == 'equal' else '!='} j3",
                          Parameters(box, _cross_case(label, shape), log=log, relaxed=F_RELAXED,
                                     integers=("k", "t"), max_boxes=max_boxes, profiles=profiles,
                                     symbolic_boxes=symbolic_boxes)))
    return Cases(tuple(parts), profiles=profiles, relaxed=F_RELAXED, covers=COVERS_F1, locate=_locate_f1)


# ---- Section E relaxed: the row orbits with k = d - 2 and t as reals, one box per class structure ------

E_B_RANGE = (0.1, math.sqrt(0.99))
"""b in [0.1, sqrt(0.99)] (c = sqrt(1 - b^2) >= 0.1), the range the Section E claims draw."""
E_K_SAMPLED = CLASSES_K_MAX
"""A refutation's re-check runs the sampled row classes (one column per dataset column) up to d - 2 = 40 and the
orbit forms in mpmath beyond (the sampled claims draw d - 2 > 40 on the row orbits, SelfAttentionCase.model)."""
E_RELAXED = ("k = d - 2 and t = n/(d-2) relaxed to reals, n = k t, c = sqrt(1 - b^2): the row-orbit evaluator "
             "(SelfAttentionCase.orbits: queries j3 / j3's residue / another residue, keys j3 / j3's residue / the "
             "row's own residue / the d - 4 others, five column roles) is analytic in the counts 1, t - 1, t, "
             "(k-1) t, (k-2) t and the width k - 2 within one structure; the structures (t = 1 or t >= 2; k = 1, 2 "
             "or >= 3) are separate boxes. The box reaches d - 2 up to 5 10^14, as the sampled claims do on the row "
             "orbits beyond d - 2 = 40; a "
             "counterexample is re-checked on the sampled evaluator where d - 2 <= 40, on the orbit forms in mpmath "
             "beyond")


COVERS_E = ("every admissible (k, t) = (d - 2, n/(d - 2)) with n <= N_MAX lies in the box of its structure, and the "
            "claims draw a within the declared a range and b within E_B_RANGE")


@dataclass(frozen=True)
class RelaxedE:
    """A Section E dataset (D_1, b^2 + c^2 = 1) with k = d - 2 and t as values, for one class structure."""

    k: object
    t: object
    a: object
    b: object
    c: object
    X: str
    k_class: int
    same: bool

    @property
    def n(self):
        return self.k * self.t

    def x_matrix(self, size: int) -> np.ndarray:
        return np.eye(size) if self.X == "identity" else np.ones((size, size))

    def model(self) -> ClassModel:
        """What the claims evaluate (SelfAttentionCase.model): the row orbits, the only view with k as a value."""
        return self.classes()

    def classes(self) -> ClassModel:
        """The row orbits present in this structure, counts as values (SelfAttentionCase.orbits' layout)."""
        k, t = self.k, self.t
        cols = [FIRST, R3] + [OWN] * (self.k_class >= 2) + [REST] * (self.k_class >= 3) + [LAST]
        coef = {FIRST: self.a, R3: self.b, OWN: self.b, REST: self.b, LAST: self.c}

        def row(col, special=False):
            return [coef[c] if c in (col, LAST) or (special and c == FIRST) else 0 for c in cols]

        keys = [(row(R3, True), 1), (row(R3), t - 1), (row(OWN), t), (row(REST), (k - 2) * t)]
        queries = [(row(R3, True), 1), (row(R3), t - 1), (row(OWN), (k - 1) * t)]
        present = [True, self.same, self.k_class >= 2, self.k_class >= 3]
        keys = [kc for kc, p in zip(keys, present, strict=False) if p]
        queries = [q for q, p in zip(queries, present[:3], strict=False) if p]
        widths = {FIRST: 1, R3: 1, OWN: 1, REST: k - 2, LAST: 1}

        def arr(v):
            return np.array(v, dtype=object)
        return ClassModel(arr([r for r, _ in queries]), arr([m for _, m in queries]), arr([r for r, _ in keys]),
                          arr([m for _, m in keys]), arr([widths[c] for c in cols]), cols.index(R3),
                          np.array([i for i, c in enumerate(cols) if c in (R3, OWN, REST)]), self.n)


def _e_case(X, k_class, same):
    def build(v):
        k, t, a, b = v["k"], v["t"], v["a"], v["b"]
        if all(isinstance(x, (int, float)) for x in v.values()):  # an integer point (the re-check)
            c = math.sqrt(1.0 - b * b)
            if int(k) <= E_K_SAMPLED:  # the sampled evaluator itself
                return SelfAttentionCase(int(k) * int(t), int(k) + 2, a, b, c, 0, "sum_of_squares", X)
            k, t, a, b, c = (mpmath.mpf(x) for x in (int(k), int(t), a, b, c))  # the orbit forms in mpmath
        else:
            c = sympy.sqrt(1 - b ** 2) if isinstance(b, sympy.Basic) else (1 - b * b) ** 0.5
        return RelaxedE(k, t, a, b, c, X, k_class, same)
    return build


def section_e(X: str, a_range=(1.0, 100.0), min_k: int = 1, profiles=None, max_boxes=600,
              symbolic_boxes=1000) -> Cases:
    """Every class structure of a Section E dataset with d - 2 >= min_k, over a in ``a_range`` and b."""
    parts = []
    for name, k_class, same, k_range, t_range in STRUCTURES:
        if k_range[1] < min_k:
            continue
        box = {"k": k_range, "t": t_range, "a": a_range, "b": E_B_RANGE}
        log = tuple(x for x in ("k", "t", "a") if box[x][0] < box[x][1])
        parts.append((name, Parameters(box, _e_case(X, k_class, same), log=log, relaxed=E_RELAXED,
                                       integers=("k", "t"), max_boxes=max_boxes, profiles=profiles,
                                       symbolic_boxes=symbolic_boxes)))
    return Cases(tuple(parts), profiles=profiles, relaxed=E_RELAXED, covers=COVERS_E,
                 locate=lambda case: _locate_d1(case, case.a))
