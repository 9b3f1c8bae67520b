"""Why deng2023's deterministic claims are not certified by the interval route (yet).

Each constant is a ``certify=`` declaration (:class:`attncheck.certify_params.Ineligible`):
the claim keeps its sampled verdict and the report states the reason.
"""
from attncheck.certify_params import Ineligible

GROUPED = Ineligible(
    "integer structure",
    "the grouped evaluator takes n, d - 2 and t = n/(d-2) as integers (float(n), n // (d-2); classes of "
    "multiplicity t - 1, n - t, (d-4) t, dropped when 0): the closed forms are analytic in (n, a, b, c), but the "
    "evaluator is not written for real n; eligible once it takes n, d, t as backend values")
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
