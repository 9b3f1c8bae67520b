"""The ``certify=`` declarations of bombari2024's deterministic claims.

Each :class:`attncheck.core.declarations.Ineligible` constant states why a claim keeps its sampled verdict (the
report records the reason). :data:`TANH_MOMENT` is the one hand-written interval certificate: (4.3) has no
solution for tanh.
"""
from flint import arb

from attncheck.core.declarations import Certificate, Ineligible

GLM_IDENTITY = Ineligible(
    "more than k parameters",
    "generic feature matrices Phi (N x p, N <= 6, p <= 12), phi, phi', labels and theta_0: over 100 real "
    "entries; the evaluator applies Phi^+ and K_r^-1 by linear solves (numpy / mpmath) and compares within 1e-9")
GLM_CAUCHY_SCHWARZ = Ineligible(
    "more than k parameters",
    "Cauchy-Schwarz on generic feature vectors phi, phi' in R^p (p <= 12): up to 24 real entries")
GLM_LAMBDA_MIN = Ineligible(
    "more than k parameters",
    "generic feature matrices (N x p, p <= 12) and lambda_min(K_r) by a symmetric eigendecomposition (numpy / "
    "mpmath): up to 84 real entries")
RAF_NORM = Ineligible(
    "more than k parameters",
    "a token matrix X (n, d <= 12) and W drawn by seed: up to 288 real entries; softmax features in torch float64")
CHAIN = Ineligible(
    "more than k parameters",
    "a token matrix X (n <= 6, d <= 5), V (k x nd, k <= 40) and Delta drawn by seed: up to 1235 real entries; "
    "features and ||V||_op (torch.linalg.matrix_norm) in torch float64")
WITNESS_COUNT = Ineligible(
    "integer structure",
    "an existence claim over a token matrix X (n, d up to 256): the proof's witness delta* is searched among "
    "random draws and the claim counts the indices i whose x_i^T delta* meets the bound (an integer count)")


def _tanh_gap(v):
    """A lower bound on the slack 1 - E tanh^2(rho), rho ~ N(0, beta): 1 - tanh^2 = sech^2 >= sech^2(1) on
    [-1, 1], so the slack is >= sech^2(1) P(|rho| <= 1) = sech^2(1) erf(1/sqrt(2 beta)) > 0."""
    return (1 / (2 * v["beta"])).sqrt().erf() * arb(1).sech() ** 2


#: eq-4.3/tanh-no-solution over its whole domain beta in [1e-6, 1e6] (strict: the claim is E tanh^2 < 1)
TANH_MOMENT = Certificate({"beta": (1e-6, 1e6)}, _tanh_gap, strict=True)
