"""bombari2024: the readings of the open phrases (one per phrase, applied to every claim) and
the helpers the three claim files share. No claims are defined here."""
import math

import torch

from attncheck.numeric.devices import torch_device

PROB = ("'with probability at least 1 - exp(-cD)' (or 1 - exp(-c log^2 d), 1 - exp(-c log^2 N)) with c > 0 "
        "unspecified: the implied constant is the median (probability 1/2) over the random weights; any fixed "
        "c gives 1 - exp(-cD) >= 1/2 from D >= log(2)/c on, so this is the most lenient reading that still "
        "constrains every point of the path")
DRAWS = ("3 independent draws of the random weights per case (each draw is a whole random model and a "
         "gradient ascent; the engine caps the Monte Carlo sample with draws=3)")
K_RATIO = "k = Omega(D) / Theta(D): k = ceil(rho D) with rho drawn in {1/4, 1, 2} (k = D is the authors' choice)"
#: the parts of the domain no claim draws, named in each claim's "unchecked" where its hypothesis admits them
K_OMEGA = ("k = omega(D) (k / D growing), admitted by k = Omega(D): rho takes only the fixed values 1/4, 1, 2, "
           "so k / D <= 2 at every path point")
ACTS_LIPSCHITZ = ("activations other than relu, tanh, gelu, softplus: 'Lipschitz and not identically 0' also "
                  "admits phi(x) = x, |x| and leaky ReLU (among others), not drawn")
ACTS_NONLINEAR = ("activations other than relu, tanh, gelu, softplus: 'Lipschitz and non-linear' also admits |x| "
                  "and leaky ReLU (among others), not drawn")
ACTS_HE = ("activations other than relu, gelu, softplus: 'Lipschitz with (4.3) solvable' also admits phi(x) = x "
           "and |x| (beta = 1) and leaky ReLU of slope a (beta = 2 / (1 + a^2)) (among others), not drawn")
TOKENS = ("X: every Assumption-1 family (normalized Gaussian rows, binary hypercube rows, repeated tokens, "
          "near-collinear rows, orthogonal rows when n <= d, low rank, antipodal pairs)")
LOWER = ("LOWER side of the sup: S is estimated by projected gradient ascent (4 restarts, 40 normalised steps, "
         "every iterate inside the sqrt(d) ball), a lower bound on the sup of (3.4); it can refute this O(.) "
         "upper bound, never an Omega(.) lower bound")
UPPER = ("UPPER side of the sup: the certified bound M ||V_i||_op sqrt(d) / ||phi(X)|| of the Lemma B.1 chain "
         "(block of token i, max over every token i), an upper bound on S; its growth could not refute "
         "the claim (refutable=False), its boundedness confirms the claim at the sizes reached")
WITNESS = ("LOWER side of the sup used for an Omega(.) claim: the gradient-ascent witness Delta (||Delta|| <= "
           "sqrt d) gives S >= estimate, so a bounded 1/estimate confirms the claim at the sizes reached; growth "
           "cannot refute it (refutable=False)")
ACTS = ("relu", "tanh", "gelu", "softplus")
HE_ACTS = ("relu", "gelu", "softplus")  # (4.3) has no solution for tanh (see eq-4.3/tanh-no-solution)
RHO = (0.25, 1.0, 2.0)
RESTARTS, STEPS = 4, 40


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
