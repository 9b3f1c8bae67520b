"""goel2026's readings of the open phrases its claims share (docs/design.md, "Interpretation policy"):
each is written once here and referenced by every claim that uses it (``Reading.shared``).
The paper-wide table of docs/papers/goel2026.md summarises them."""
from attncheck.core.reading import Reason, Shared, Unchecked

RESTATED = Shared(
    "goel2026/restated",
    "The extracted paper lost its formulas: every statement is the restatement of the claims file "
    "(docs/papers/goel2026.md, 'Restated statements'), tagged RECOVERED, "
    "DERIVED, RECONSTRUCTED or UNKNOWN. Where the constants are RECONSTRUCTED the claim asserts that ours "
    "work; a refutation with them refutes the reconstruction, not the paper's lost constants.")

PROBLEMS = Shared(
    "goel2026/problems",
    "A problem (Sigma, M, sigma) satisfying A1-A2 (strategies.softmax_regression.make_problem): Sigma with "
    "eigenvalues log-spaced, in a random basis; X = M Sigma^{1/2} with random singular bases and singular values "
    "log-spaced from sigma_d(X) to sigma_1(X). The defaults (strategies.softmax_regression.problem_params): "
    "cond(Sigma) in [1, 10], sigma_1(X) in [0.01, 10], sigma_d(X)/sigma_1(X) in [0.05, 1] (1: all singular values "
    "equal), k = d + {0, 1, 2}, d <= 4, noise level sigma in [0, 1]; a claim's own box (its notes' 'inputs' and "
    "its unchecked parts) states where it differs (e.g. cond(Sigma) up to 1e4, d up to 6, sigma_1(X) from 1e-3 "
    "to 1e3). Directions set by the seed are not moved by the optimizer, which moves only the real parameters.")

CONSTANTS = Shared(
    "goel2026/constants",
    "alpha = sigma_d(X)/2, beta = 4 sigma_1(X), rho = sigma_d(X)/(3 sqrt(2 sigma_1(X))): the claims file's "
    "sufficient constants (DERIVED; the paper's are lost). A refutation with them is a refutation of our "
    "reconstruction, not of the paper's unknown constants.")

TUBE = Shared(
    "goel2026/tube",
    "'theta near M' (||theta - theta*||_Sigma <= rho, and rho' of Lemma 7 read as rho): theta = theta* + H with "
    "theta* = theta_R uniform on the manifold (R Haar on O(d)) and H normal to it (Z*^T H symmetric, so theta* = "
    "P_M(theta)), ||H||_Sigma = r times the claim's radius; the direction of H is a random normal one mixed with "
    "the radial one +-Z* by 'radial' in [-1, 1] (strategies.softmax_regression.tube_point).")

SELF_TERM = Shared(
    "goel2026/self-term",
    "The in-sample softmax of eq. (1) (RECONSTRUCTED) includes the query itself among the keys (self-term "
    "j = i); for one query, E_{-i} averages over the other n - 1 keys, i.i.d. N(0, Sigma), with x_i fixed.")

RATE = Shared(
    "goel2026/o-of-n",
    "'O(1/n)' (or O(1/n^2), 'for n large enough'): an asymptotic claim along a path of n. The implied constant "
    "n^a times a Monte Carlo estimate of the quantity (one estimate from all the case's draws with its batch-means "
    "standard error: the rate form, attncheck.Estimate) must stay bounded along the path, judged by the engine's "
    "asymptotic rule (docs/verdicts.md): REFUTED on growth faster than n^0.02 that curves beyond every approach to a "
    "limit, HOLDS when such growth is excluded, the limit fitted.")

O_P = Shared(
    "goel2026/o-p",
    "'O_p(n^-a)' (bounded in probability, a statement for every delta): the implied constant is the "
    "(1 - delta)-quantile of n^a times the quantity over i.i.d. datasets, delta drawn in [0.01, 0.1] as a case "
    "parameter (a larger delta is implied: its quantile is smaller), which must not grow significantly along n.")

SQUARES = Shared(
    "goel2026/squared-rates",
    "The paper states O(1/n) for squared norms (Theorems 3-5; Lemma 15's c_5/n + c_6/n^2): such statements are "
    "checked as stated (n ||.||^2 bounded). Where the reconstruction derives the stronger norm rate O(1/n), a "
    "separate claim ('norm-rate', or a Lemma's own) checks n^2 ||.||^2. Exception: lemma-12/rate reads its "
    "integrated square at O(1/n^2), the square of Lemma 11's O(1/n) norm, as the claims file states Lemma 12.")

A3 = Shared(
    "goel2026/a3",
    "A3 (threshold UNKNOWN; its stated purpose is Lemma 7's integrability near the manifold) is read, most "
    "leniently, as the integrability that each finite-n proof needs. Theorems 3-4 and Theorem 1's finite-n gap: "
    "sigma_1(X) <= 0.125, where E_x e^{2q} is finite in the whole tube (4||C||^2 <= 0.77, ||C||_op <= 0.437, "
    "C = Sigma^{1/2} B Sigma^{1/2}), so the estimators' variance is finite. This bounds the e^q integrals of the "
    "p_ij terms only: the p_ii terms are finite (lambda_max(2 sym(C) - C C^T) <= 0.874 < 1) but the second moment "
    "of the Stein form's p_ii term needs lambda_max(4 sym(C) - 2 C C^T) < 1, which fails at points of this box "
    "(e.g. d = 1, r = 0, C = sigma_1(X)^{1/2}: lambda_max = 4 sigma_1(X)^{1/2} - 2 sigma_1(X) > 1 for sigma_1(X) > "
    "0.0858). So the query rows are drawn from N(0, 4 Sigma) with importance weights (since 2026-11-27, "
    "models.softmax_moments.wide_queries), under which that term's second and fourth moments need "
    "lambda_max(2 sym(C) - C C^T) < 7/8 and lambda_max(4 sym(C) - 2 C C^T) < 13/8, true in the whole box (at most "
    "0.683 and 1.366). lemma-12/rate reads the same integrals as that condition "
    "with ||C||_op < 1/2 (drawn: ||C||_op <= 0.2): the two readings differ.")


def not_drawn(*parts: str, why: str) -> tuple[Unchecked, ...]:
    """One ``Unchecked(part, NOT_DRAWN, why)`` per part, all with the same why (required: a part left out says
    why)."""
    return tuple(Unchecked(p, Reason.NOT_DRAWN, why) for p in parts)
