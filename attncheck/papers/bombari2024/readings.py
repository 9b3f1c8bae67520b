"""bombari2024: the readings of the open phrases (one :class:`Shared` per phrase, referenced by every claim
that uses it), the parts of the domain several claims do not cover (:class:`Unchecked`, named in each claim
whose hypothesis admits them) and the helpers the claim files share. No claims are defined here."""
import math

import torch

from attncheck.core.reading import Reason, Shared, Unchecked
from attncheck.numeric.devices import torch_device

# ---- constants ----------------------------------------------------------------------------------------

ACTS = ("relu", "tanh", "gelu", "softplus")
HE_ACTS = ("relu", "gelu", "softplus")  # (4.3) has no solution for tanh (see eq-4.3/tanh-no-solution)
RHO = (0.125, 0.25, 1.0, 2.0)
RESTARTS, STEPS = 4, 40
LINEAR_STEPS, LINEAR_LR = 10, 0.25  # the ascent from the linearised optimum (LOWER_LINEAR)
ASCENT_TOKENS = 4  # token 0, token n - 1 and random others (all tokens when n <= 4)
RAF_TOKENS = 2  # Theorem 3 and Remark 5.1: tokens 0 and n - 1 (the sup over i is at least their max)
EVERY_TOKENS = 3  # theorem-3/every-token: tokens 0, n - 1 and one drawn uniformly in [1, n - 2] per draw of W

# ---- shared readings of the open phrases ----------------------------------------------------------------

PROB = Shared("bombari2024/probability",
              "'with probability at least 1 - exp(-cD)' (or 1 - exp(-c log^2 d), 1 - exp(-c log^2 N)) with c > 0 "
              "unspecified: the implied constant is the median (probability 1/2) over the random weights; any fixed "
              "c gives 1 - exp(-cD) >= 1/2 from D >= log(2)/c on, so this is the most lenient reading that still "
              "constrains every point of the path")
#: Theorem 2's probability 1 - exp(-c log^2 d) (Lemma C.2's is 1 - 2L exp(-ck), k >= 16 on the path)
PROB_LOG2D = Shared("bombari2024/probability-log2-d",
                    "Theorem 2's 1 - exp(-c log^2 d) at d = 1 (drawn wherever n >= 64; the only d at n = 256): the "
                    "printed probability is 0 there, so the printed bound is vacuous, and the argument of "
                    "bombari2024/probability (for 1 - exp(-cD), D growing) does not carry over, as d <= 16 keeps "
                    "log^2 d bounded along the path; the median reading is the one used at d = 1 and at every other "
                    "d all the same")
DRAWS = Shared("bombari2024/draws",
               "3 independent draws of the random weights per case (each draw is a whole random model and a "
               "gradient ascent; the engine caps the Monte Carlo sample with draws=3)")
DRAWS_BY_K = Shared("bombari2024/draws-by-k",
                    "3 seeds per case (the engine caps the Monte Carlo sample with draws=3), each giving "
                    "max(1, 128 // k) independent draws of the random weights (models.draws.seeds_by_k): 3 draws at "
                    "k >= 128, 24 at k = 16. One draw's ratio spreads like 1 / sqrt(k) and is right-skewed at small k "
                    "(1 / ||phi(X)||), while a draw costs O(L k^2): with 3 draws at every k the median of a small-k "
                    "case is too noisy for the search to rank the cases, and the worst case differed from n to n")
DRAWS_CHAIN = Shared("bombari2024/draws-chain",
                     "3 seeds per case (the engine caps the Monte Carlo sample with draws=3), each giving "
                     "ceil(64 L / k) draws of the chain's matrices (V_1,i of every token, V_2..V_L) times "
                     "ceil(128 L / k) draws of ||phi_L(X)|| from its exact conditional law given them "
                     "(models.chain_draws: the law is invariant under independent Haar rotations of each first-layer "
                     "block from the left and of each later layer from the right, which fix every operator norm): "
                     "6144 pairs at k = 16, L = 8; 6 at k = 512. Every pair is the certified bound of one draw of the "
                     "weights. At k = 16 the bound's spread is almost all in 1 / ||phi_L(X)|| (sd of its log 0.82 at "
                     "L = 4, 1.36 at L = 8), which 3 x max(1, 128 // k) independent draws left too noisy to rank the "
                     "cases or to show the trend")
WS_SPACE = Shared("bombari2024/ws-space",
                  "a declared space (strategies.token_matrices.ws_space): d by its rank among the admissible d, so that "
                  "one value names a case at every n; every point's worst case is re-evaluated at every other point "
                  "(carry_worst), so that the trend follows one common set of cases, not the spread between independent "
                  "searches. The token family's knob is drawn in {0, 1/2, 1}: the law of one draw's ratio depends on X "
                  "only through its row norms (sqrt(d) each, Assumption 1), since the blocks V_i and V flat(X) are "
                  "jointly Gaussian with X entering through ||x_i|| and sum_j ||x_j||^2 (models.random_features.rf_blocks)")
K_RATIO = Shared("bombari2024/k-ratio",
                 "k = Omega(D) / Theta(D): k = ceil(rho D) with rho drawn in {1/8, 1/4, 1, 2} (k = D is the authors' "
                 "choice)")
TOKENS = Shared("bombari2024/tokens",
                "X: every Assumption-1 family (normalized Gaussian rows, binary hypercube rows, repeated tokens, "
                "near-collinear rows, orthogonal rows when n <= d, low rank, antipodal pairs)")
LOWER = Shared("bombari2024/sup-lower",
               "LOWER side of the sup: S is estimated by projected gradient ascent (4 restarts, 40 normalised steps, "
               "every iterate inside the sqrt(d) ball), a lower bound on the sup of (3.4); it can refute this O(.) "
               "upper bound, never an Omega(.) lower bound")
LOWER_LINEAR = Shared("bombari2024/sup-lower-linear",
                      "LOWER side of the sup: for each token i, the perturbation's linearised optimum +- sqrt(d) v (v "
                      "the top right singular vector of the Jacobian of phi(X^i(Delta)) in Delta at 0), then "
                      f"{LINEAR_STEPS} normalised projected ascent steps from each (step {LINEAR_LR} sqrt(d), decaying); "
                      "every iterate inside the sqrt(d) ball, so a lower bound on the sup of (3.4); it can refute this "
                      "O(.) upper bound, never an Omega(.) lower bound")
_UPPER = ("UPPER side of the sup: the certified bound M ||V_i||_op sqrt(d) / ||phi(X)|| of the Lemma B.1 chain "
          "(block of token i, max over every token i), an upper bound on S; its growth could not refute "
          "the claim (refutable=False), its boundedness confirms the claim at the sizes reached")
UPPER = Shared("bombari2024/sup-upper", _UPPER)
UPPER_DEEP = Shared("bombari2024/sup-upper-deep", _UPPER.replace("M ||V_i||_op", "M^L ||V_1,i||_op prod_l ||V_l||_op"))
WITNESS = Shared("bombari2024/sup-witness",
                 "LOWER side of the sup used for an Omega(.) claim: the gradient-ascent witness Delta (||Delta|| <= "
                 "sqrt d) gives S >= estimate, so a bounded 1/estimate confirms the claim at the sizes reached; growth "
                 "cannot refute it (refutable=False)")
EXISTENCE = Shared("bombari2024/existence-witness",
                   "WITNESS (lower side of an existence claim): a bounded implied constant confirms the claim at "
                   "the sizes reached; growth cannot refute it (refutable=False)")
REGIME = Shared("bombari2024/theorem-3-regime",
                "d / log^4 d = Omega(n) (Theorem 3, Lemmas D.2-D.5) read as d / log^4 d >= n / 100 (the constant "
                "1/100); n_max(d) = floor(100 d / log^4 d) is the largest n it admits at d")
FRACTION = Shared("bombari2024/omega-n-indices",
                  "Omega(n) indices read as at least ceil(n / 4) indices (the proof's n/2, halved by the sign of "
                  "(D.23)); lemma-d.1/main reads the same phrase as at least floor(n / 2) + 1 indices (its proof's "
                  "count), never fewer than ceil(n / 4)")
CANDIDATES = Shared("bombari2024/raf-candidate-pairs",
                    "the best of four candidate pairs for the claim's own statement (any pair in the ball "
                    "witnesses an existence claim): (1) the proof's construction (D.8), (D.24)-(D.25), (D.31): "
                    "Delta*_k = C_k W^T delta*_k with ||Delta*_k|| = sqrt(d) (the largest admissible C_k; the "
                    "proof's C ||W||_op <= 1 is smaller); (delta*, v) is the one of 64 draws of (D.8), both signs, "
                    "and 8 draws of v whose pair has the largest ceil(n/4)-th largest min_k sigma(Delta*_k)_i (the "
                    "proof picks delta* independently of W); (2)-(4) pairs Delta*_{1,2} = sqrt(d) (g +- h) / "
                    "||g +- h|| with h orthogonal to every row of X W (separation sqrt(2d), the same sigma for both): "
                    "g the minimum-norm Delta giving sigma(Delta)_j = 1 on ceil(n/4) rows J (sigma ~ sqrt(d / (2 |J|)) "
                    "on J), J along the top singular direction of X W (2) or the rows j != i whose attention leans "
                    "most toward token i (3); g the top singular direction itself (4: low-rank X)")
N_TRAIN = Shared("bombari2024/n-train",
                 "N log^3 N = o(k) and N log^4 N = o(D^2) (Theorems 4-5, Lemmas B.2-B.3): N = max(2, ceil(k^a)) "
                 "training samples with the exponent a drawn in [1/3, 1/2] (both ends included), so both hold along "
                 "the path: N log^3 N / k trends down, not monotonically (a = 1/3: 0.33 at k = 32, 0.08 at k = 4096; "
                 "a = 1/2: 1.44 at k = 128, 1.12 at k = 4096)")
GAP = Shared("bombari2024/gap-gamma",
             "the smallest gamma of Assumption 2 for each Delta, gamma(Delta) = |f(X^i(Delta), theta*) - f(X, theta*)| "
             "(< 2; the bound (2 - gamma)^2 is largest there); the implied constant sqrt(n) * max(0, sup_Delta [(2 - "
             "gamma)^2 - Err]) must stay bounded: refuted only if the error falls below (2 - gamma)^2 - C / sqrt(n) "
             "for every C along n. |f(X, theta*)| = O(1) is not imposed and not monitored (its value is not "
             "recorded): it is whatever the trained model gives")
SEARCH_TOKENS = 3  # Theorems 4-5, Lemma B.3: tokens 0, n - 1 and one drawn uniformly in [1, n - 2] per draw
SEARCH = Shared("bombari2024/gap-search",
                f"LOWER side of the sup over Delta: projected gradient ascent of the gap over {SEARCH_TOKENS} tokens "
                f"(0, n - 1 and one drawn uniformly in [1, n - 2] by each draw, so every i in [n] is drawn; the worst "
                f"token counts), {RESTARTS} restarts, {STEPS} steps; only iterates with gamma < 2 count; a found "
                "Delta with a large gap refutes")
DATA_T5 = Shared("bombari2024/theorem-5-data",
                 "X and the training samples i.i.d. from one mean-zero Lipschitz-concentrated law satisfying "
                 "Assumption 1 (Theorem 5, Lemmas B.2-B.3): rows uniform on the sphere sqrt(d) S^{d-1} (normalized "
                 "Gaussian rows: the two coincide in law) or rows uniform on the binary hypercube {-1, +1}^d")
FREE_INPUTS = Shared("bombari2024/free-inputs",
                     "the universally quantified inputs of Theorems 4-5 that are not searched (labels, theta_0; for "
                     "Theorem 4 also the training set and N): each Monte Carlo draw takes them from its seed and the "
                     "implied constant is the median over 3 draws, so they are treated as random, and a minority of "
                     "them on which the bound fails would not show. |f(X, theta*)| = O(1), a hypothesis, is not "
                     "monitored")

# ---- parts of the domain several claims do not cover --------------------------------------------------

ACTS_WHY = "not in models.random_features.ACTIVATIONS{he} (docs/papers/bombari2024.md)"
ACTS_LIPSCHITZ = Unchecked("Lipschitz activations, not identically 0, other than relu, tanh, gelu, softplus "
                           "(phi(x) = x, |x|, leaky ReLU, ...)", Reason.NOT_DRAWN,
                           ACTS_WHY.format(he=""))
ACTS_NONLINEAR = Unchecked("Lipschitz non-linear activations other than relu, tanh, gelu, softplus (|x|, leaky ReLU, "
                           "...)", Reason.NOT_DRAWN, ACTS_WHY.format(he=""))
ACTS_HE = Unchecked("activations other than relu, gelu, softplus that 'Lipschitz with (4.3) solvable' admits "
                    "(phi(x) = x and |x|: beta = 1; leaky ReLU of slope a: beta = 2 / (1 + a^2); among others)",
                    Reason.NOT_DRAWN, ACTS_WHY.format(he=", beta of (4.3) not solved"))
K_OMEGA = Unchecked("k = omega(D) (k / D growing), admitted by k = Omega(D)", Reason.NOT_DRAWN,
                    "rho in {1/8, 1/4, 1, 2}: k / D <= 2 at every path point")
K_SMALL = Unchecked("k / D < 1/8 (k = Omega(D) admits every fixed rho > 0)", Reason.NOT_DRAWN,
                    "every fixed rho is its own sequence, whose constant may depend on rho: no finite set covers it "
                    "(docs/papers/bombari2024.md)")

# ---- helpers ----------------------------------------------------------------------------------



def generator(seed) -> torch.Generator:
    return torch.Generator(device=torch_device()).manual_seed(int(seed))


def seeds(case, rng, size):
    """One seed per draw of the random weights."""
    return rng.integers(0, 2**62, size)


def X_of(case) -> torch.Tensor:
    return torch.as_tensor(case.tokens.X, device=torch_device())


def log4_path_ok(n: int, d: int, c: float = 0.01) -> bool:
    """d / log^4 d >= c n (Theorem 3's d / log^4 d = Omega(n) with the constant c = 1/100)."""
    return d / math.log(d) ** 4 >= c * n


def n_max(d: int) -> int:
    """The largest n with d / log^4 d >= n / 100 (Theorem 3's regime, constant 1/100 as in theorem-3/main)."""
    return math.floor(100 * d / math.log(d) ** 4)


def fraction(n: int) -> int:
    """'Omega(n) indices' read as ceil(n / 4) indices."""
    return math.ceil(n / 4)
