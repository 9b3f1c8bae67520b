"""The ``certify=`` declarations of goel2026's deterministic claims.

Each constant is an :class:`attncheck.core.declarations.Ineligible`: the claim keeps its sampled verdict and the
report states the reason. None of goel2026's deterministic evaluators runs on arb balls or SymPy symbols: the
closed forms of Lemmas 7, 11 and 20 are compared with quadratures, the rest act on a random problem's matrices.
"""
from attncheck.core.declarations import Ineligible

LEMMA7_QUADRATURE = Ineligible(
    "identity at a tolerance",
    "E exp(z^T Q z) as an angular quadrature (float64 trapezoid, mpmath tanh-sinh; d = 3: Gauss-Legendre on the "
    "sphere) at Q = a sym(C) + b C C^T, C = s C0 with C0 a seed's Gaussian matrix and s found by bisection, "
    "compared with det(I - 2Q)^(-1/2) within 1e-9 relative")
STEIN_1D = Ineligible(
    "identity at a tolerance",
    "both sides are one-dimensional integrals over x_j ~ N(0, var) (scipy adaptive quadrature; mpmath tanh-sinh on "
    "escalation), compared within 1e-10 of their scale: no form the evaluator runs on balls or symbols")
PROBLEM = Ineligible(
    "more than k parameters",
    "a random problem (Sigma, M, X, drawn by seed, d <= 4, k <= d + 2) and theta = (A, B): tens of real entries, "
    "evaluated with numpy linear algebra (sym_sqrt, SVD, eigvalsh)")
PROBLEM_QUADRATURE = Ineligible(
    "more than k parameters",
    "a random problem (d <= 2 or 3) and A, B or a tilt u: tens of real entries; the left side by nested "
    "Gauss-Hermite quadrature (100 nodes per dimension), compared within 1e-9")
AUTOGRAD = Ineligible(
    "more than k parameters",
    "n <= 6 keys in R^d (d <= 4), B, A and y drawn by seed: up to about 100 real entries; the derivatives by torch "
    "autograd (float64), compared with the closed forms within 1e-9")
HESSIAN = Ineligible(
    "more than k parameters",
    "a random problem and theta = (A, B): the smallest Hessian eigenvalue by torch autograd and a dense "
    "eigendecomposition")
MINIMISER = Ineligible(
    "more than k parameters",
    "a random problem and a random start Z in R^{(k + d) x d}: the minimiser by L-BFGS (an iterative solver), "
    "then a Procrustes rotation (SVD)")
MANIFOLD_PATH = Ineligible(
    "more than k parameters",
    "a random problem and two random rotations R1, R2 in O(d): the path R1 expm(t log(R1^T R2)) by scipy "
    "logm/expm, the excess at 11 points on it")
ALGORITHM1 = Ineligible(
    "more than k parameters",
    "a random problem, a tube point and a random E: Algorithm 1 run for T <= 300 steps (an iteration on "
    "(k + d) x d matrices), its distance to the manifold by SVD")
SPECTRAL_INIT = Ineligible(
    "more than k parameters",
    "a random problem and perturbed Sigma_hat, X_hat drawn by seed: the spectral initialisation and dist to the "
    "manifold by numpy SVD and matrix square roots")
