"""The ``certify=`` declarations of deng2023's deterministic claims.

Each constant is an :class:`attncheck.certify_params.Ineligible`: the claim keeps its sampled verdict
and the report states the reason. :func:`grouped` certifies a Definition D.1 inequality over its full
parameter ranges, one box per class structure (:class:`attncheck.certify_params.Cases`).
"""
from dataclasses import dataclass

import mpmath

from attncheck.certify_params import Cases, Ineligible, Parameters
from attncheck.data.attention import SelfAttentionParams
from attncheck.models.class_attention import definition_d1 as sa
from attncheck.strategies import self_attention as sas

SECTION_E_CLASSES = Ineligible(
    "integer structure",
    "the Section E row-class evaluator (attncheck.models.class_attention.section_e.ClassModel) takes n as an integer "
    "(float(model.n)) and its multiplicities t - 1, n - t, (d-4) t as int64 arrays, dropped when 0; Definition D.1's "
    "grouped evaluator (definition_d1.Relaxed) takes them as backend values, Section E's does not yet")
TOLERANCE = Ineligible(
    "identity at a tolerance",
    "an identity checked to relative tolerance 1e-9 over a box where n spans fifteen decades: ball arithmetic "
    "loses the cancellation of lhs - rhs (both depend on the same n, a, b), so a proof needs boxes of relative "
    "width ~1e-9 in every parameter; a symbolic route would prove it exactly (not built)")
CROSS = Ineligible(
    "integer structure",
    "the cross-attention evaluator takes n, d - 1 and t = n/(d-1) as integers (float(n), groups present only for "
    "d >= 3, 4): eligible once it takes n, d, t as backend values")
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


def grouped(label: int, min_k: int = 1, a0_symbol: bool = False, profiles=("deep",), max_boxes=600) -> Cases:
    """Every class structure of Definition D.1 with k >= min_k, over the dataset's a and b (and the
    statement's a0 in [1e-12, 0.1] for a lemma stated on D_1 with a0 in its bounds)."""
    parts = []
    for name, k_class, same, k_range, t_range in STRUCTURES:
        if k_range[1] < min_k:
            continue
        box = {"k": k_range, "t": t_range, "a": A_RANGE[label], "b": B_RANGE}
        if a0_symbol:
            box["a0"] = A_RANGE[0]
        log = tuple(x for x in ("k", "t", "a", "a0") if x in box and box[x][0] < box[x][1])
        parts.append((name, Parameters(box, _case(label, k_class, same, a0_symbol), log=log, relaxed=RELAXED,
                                       integers=("k", "t"), max_boxes=max_boxes, profiles=profiles)))
    return Cases(tuple(parts), profiles=profiles, relaxed=RELAXED)
