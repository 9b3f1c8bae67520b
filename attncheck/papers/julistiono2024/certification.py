"""The ``certify=`` declarations of julistiono2024's deterministic claims.

Each constant is an :class:`attncheck.core.declarations.Ineligible`: the claim keeps its sampled verdict and the
report states the reason. The scalar lemmas (13 scalar, 14, 15) certify over their own spaces
(``OwnSpace`` in properties/julistiono2024/test_geometry.py); the claims here are about matrices, attention
datasets or runs of the algorithm.
"""
from attncheck.core.declarations import Ineligible

MATRICES = Ineligible(
    "more than k parameters",
    "matrices of any shape up to 6 x 6 (Lemma 12), pairs up to 4 x 4 (Lemma 13), pairs and triples up to 6 x 6 "
    "(Definition 1, Lemma 26) "
    "and p: up to 108 real entries; the matrix forms reduce to the scalar lemmas only through the proof")
ATTENTION_DATA = Ineligible(
    "more than k parameters",
    "an attention dataset (n <= 6 samples of T <= 8 tokens in R^d, d <= 10, labels, v) and W in R^{d x d}: "
    "hundreds of real entries, drawn by seed")
GEOMETRY_STEP = Ineligible(
    "more than k parameters",
    "a Section 4.1 dataset (n = 6, T = 8, d = 10), W in R^{10 x 10} drawn by seed and the ell_p-AttSVM direction "
    "W_mm from an iterative solver (KKT residual <= 1e-13): hundreds of real entries")
CONE = Ineligible(
    "more than k parameters",
    "a point of the cone in R^{10 x 10} around the ell_p-AttSVM direction of a Section 4.1 dataset (n = 6, T = 8, "
    "d = 10): the direction drawn by seed, its distance set by bisection, W_mm from an iterative solver")
RUNS = Ineligible(
    "more than k parameters",
    "a run of ell_p-AttGD (tens to thousands of steps) on a Section 4.1 dataset from a cone point in R^{10 x 10} (drawn "
    "by seed, set by bisection): every iterate depends on hundreds of reals")
THEOREM_RUNS = Ineligible(
    "more than k parameters",
    "long ell_p-AttGD runs from W(0) ~ N(0, 1) on Section 4.1-type datasets (d x d weights, d up to 64 along the "
    "scaling path), the selected tokens by argmax and the ell_p-AttSVM by an iterative solver; no real parameter "
    "in the space (seeds and p from a finite set)")
