r"""bombari2024 feature maps: He's condition (4.3), the norm of the features (B.10), (B.7),
Lemma C.1 (deep features keep norm sqrt k) and the RAF norm bound (D.59)-(D.60), as printed."""
import math

import numpy as np
import torch
from hypothesis import strategies as st

from attncheck import Real, Space, claim, close, le, lt
from attncheck.models import random_features as rf
from attncheck.strategies.token_matrices import token_case_sizes, ws_case
from bombari2024_readings import ACTS, HE_ACTS, K_RATIO, PROB, RHO, TOKENS, X_of, generator, seeds

GH_T, GH_W = np.polynomial.hermite_e.hermegauss(240)
NP_ACTS = {"relu": lambda x: np.maximum(x, 0.0), "tanh": np.tanh, "softplus": lambda x: np.logaddexp(0.0, x),
           "gelu": lambda x: x * 0.5 * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))}


def _moment(act, beta, xp):
    """E_{rho ~ N(0, beta)}[phi(rho)^2]: Gauss-Hermite (240 nodes) in float64, mpmath quadrature otherwise."""
    if xp.name == "float64":
        return float(np.sum(GH_W * NP_ACTS[act](math.sqrt(beta) * GH_T) ** 2) / math.sqrt(2 * math.pi))
    return rf.second_moment(act, beta, dps=xp.dps)


@claim("bombari2024/eq-4.3/he-condition", kind="identity", cost="normal",
       source="bombari2024 Section 4, (4.3) (and (C.2))",
       statement=r"\mathbb{E}_{\rho \sim \mathcal{N}(0, \beta)}[\phi^2(\rho)] = 1 \text{ at the } \beta "
                 r"\text{ used for the deep random features}",
       domain=st.sampled_from(HE_ACTS),
       interpretation={"beta": "computed by mpmath quadrature and bracketed root finding (he_beta)",
                       "check": "the moment at that beta by an independent quadrature (Gauss-Hermite, 240 nodes, "
                                "float64; mpmath quad on escalation), equal to 1 within 1e-9",
                       "activations": "relu, gelu, softplus (the smooth Lipschitz one); tanh has no solution "
                                      "(eq-4.3/tanh-no-solution)"})
def he_condition(act, xp):
    return close(_moment(act, rf.he_beta(act), xp), 1.0, rtol=1e-9, xp=xp)


@claim("bombari2024/eq-4.3/relu-beta-2", kind="identity", cost="normal", source="bombari2024 Section 4, (4.3)",
       statement=r"\phi = \mathrm{ReLU}: \beta = 2 \text{ solves } \mathbb{E}_{\rho \sim \mathcal{N}(0,\beta)}[\phi^2(\rho)] = 1",
       domain=st.just("relu"),
       interpretation={"check": "the root found numerically equals 2 within 1e-12 (E[relu(rho)^2] = beta / 2)"})
def relu_beta(act, xp):
    return close(xp.asarray(rf.he_beta(act)), 2.0, rtol=1e-12, xp=xp)


@claim("bombari2024/eq-4.3/tanh-no-solution", kind="inequality", cost="expensive",
       source="bombari2024 Section 4, (4.3) and Appendix C ('we require phi to guarantee at least one beta')",
       statement=r"\phi = \tanh: \mathbb{E}_{\rho \sim \mathcal{N}(0, \beta)}[\tanh^2(\rho)] < 1 \text{ for every } \beta > 0",
       space=Space(beta=Real(1e-6, 1e6, log=True)),
       interpretation={"why": "tanh is Lipschitz, so Theorems 1-2 cover it, but (4.3) has no solution for it: "
                              "Theorem 2 / Lemma C.1 exclude tanh through their hypothesis that (4.3) is solvable",
                       "domain": "beta in [1e-6, 1e6] (log scale), the moment by mpmath quadrature at 30 digits"})
def tanh_no_solution(v, xp):
    return lt(float(rf.second_moment("tanh", v["beta"])), 1.0, xp)


# ---- (B.10) and (B.7) -------------------------------------------------------------------------

NORM_PATH = {"quick": [64, 256, 1024], "deep": [64, 256, 1024, 4096, 16384, 65536]}


def _features_norm(case, rng, size):
    """||phi(X)|| / sqrt(k) for `size` draws of V: V flat(X) ~ N(0, ||flat X||^2 / D I_k) = N(0, I_k) exactly."""
    out = np.empty(size)
    f = rf.ACTIVATIONS[case.act].torch_fn
    g = generator(rng.integers(0, 2**62))
    for j in range(size):
        z = torch.randn(case.k, generator=g, dtype=torch.float64)
        out[j] = float(f(z).norm()) / math.sqrt(case.k)
    return out


B10 = {"probability": PROB, "k": K_RATIO, "X": TOKENS + " (the law of ||phi(X)|| does not depend on X under "
       "Assumption 1: V flat(X) ~ N(0, I_k), drawn exactly without V)", "d": "d = 4; D = 4n >= 256 (at D = 16, k = 4 a ReLU feature "
       "vector vanishes with probability 1/16 and sqrt(k) / ||phi|| is infinite: the statement is asymptotic in D)",
       "draws": "64 draws of V per case", "activation": "relu, tanh, gelu, softplus (Lipschitz, not 0)"}


@claim("bombari2024/eq-b.10/upper", kind="asymptotic", source="bombari2024 Appendix B, (B.10) (and (B.26))",
       statement=r"\|\varphi(X)\|_2 = \Theta(\sqrt{k}) \text{ w.p. } \ge 1 - e^{-c_1 D}: \text{ the } \mathcal{O} \text{ side}",
       domain=lambda n: ws_case(n, (4,), ACTS, RHO), sample=_features_norm, probability=0.5, path=NORM_PATH,
       cost="normal", draws=64, interpretation=dict(B10, ratio="||phi(X)|| / sqrt(k)"))
def b10_upper(case, R, xp):
    return np.asarray(R)


@claim("bombari2024/eq-b.10/lower", kind="asymptotic", source="bombari2024 Appendix B, (B.10) (and (B.26))",
       statement=r"\|\varphi(X)\|_2 = \Theta(\sqrt{k}) \text{ w.p. } \ge 1 - e^{-c_1 D}: \text{ the } \Omega \text{ side}",
       domain=lambda n: ws_case(n, (4,), ACTS, RHO), sample=_features_norm, probability=0.5, path=NORM_PATH,
       cost="normal", draws=64, interpretation=dict(B10, ratio="sqrt(k) / ||phi(X)|| (exact: no estimate of a sup)"))
def b10_lower(case, R, xp):
    return 1.0 / np.asarray(R)


@claim("bombari2024/eq-b.7/main", kind="asymptotic", source="bombari2024 Appendix B, (B.7) (Theorem 4.4.5 of [63])",
       statement=r"\|V\|_{op} = \mathcal{O}(\sqrt{(D + k)/D}) \text{ w.p. } \ge 1 - e^{-c_1 D}",
       domain=lambda n: ws_case(n, (4,), ("relu",), RHO), sample=seeds, probability=0.5,
       path={"quick": [4, 16, 64, 128], "deep": [4, 16, 64, 256, 512]}, cost="expensive", draws=3,
       interpretation={"probability": PROB, "k": K_RATIO, "d": "d = 4; D = 4n; V dense k x D",
                       "ratio": "||V||_op / sqrt((D + k) / D) (exact singular value)"})
def b7(case, S, xp):
    D = case.n * case.d
    return np.array([float(torch.linalg.matrix_norm(rf.gaussian((case.k, D), 1.0 / D, generator(s)), 2))
                     / math.sqrt((D + case.k) / D) for s in S])


# ---- Lemma C.1 ---------------------------------------------------------------------------------

@claim("bombari2024/lemma-c.1/main", kind="asymptotic", source="bombari2024 Appendix C, Lemma C.1, (C.4) at l = L",
       statement=r"|\|\varphi_l(X)\|_2 - \sqrt{k}| \le e^{Cl}\log D \text{ w.p. } \ge 1 - 2L e^{-c\log^2 D}",
       domain=lambda n: ws_case(n, (4,), HE_ACTS, RHO, depths=(1, 2, 3)), sample=seeds, probability=0.5,
       path={"quick": [4, 16, 64, 128], "deep": [4, 16, 64, 256, 1024]}, cost="expensive", draws=3,
       interpretation={"probability": PROB, "k": K_RATIO + "; layers 2..L are k x k", "d": "d = 4; D = 4n",
                       "L": "l = L in {1, 2, 3}; e^{Cl} is fixed for fixed l, so the ratio must stay bounded along n",
                       "activation": "relu, gelu, softplus with beta from (4.3) (tanh: no beta exists)",
                       "ratio": "|(||phi_L(X)|| - sqrt k)| / log D (exact: a forward pass, no sup)", "X": TOKENS})
def lemma_c1(case, S, xp):
    X = X_of(case)
    D = case.n * case.d
    beta = rf.he_beta(case.act)
    out = []
    for s in S:
        g = generator(s)
        Vs = [rf.gaussian((case.k, D), beta / D, g)] + [rf.gaussian((case.k, case.k), beta / case.k, g)
                                                       for _ in range(case.depth - 1)]
        out.append(abs(float(rf.drf_features(X, Vs, case.act).norm()) - math.sqrt(case.k)) / math.log(D))
    return np.array(out)


# ---- (D.59)-(D.60): the norm of the RAF features -------------------------------------------------

@claim("bombari2024/eq-d.60/main", kind="inequality", cost="normal",
       source="bombari2024 Appendix D, proof of Theorem 3, (D.59)-(D.60)",
       statement=r"\|[\varphi_{RAF}(X)]_{j:}\|_2 \le \sqrt{d} \ \forall j \quad\text{and}\quad "
                 r"\|\varphi_{RAF}(X)\|_F \le \sqrt{nd}",
       domain=st.tuples(token_case_sizes((1, 12), (1, 12)), st.integers(0, 2**31 - 1), st.floats(0.0, 30.0)),
       interpretation={"scope": "deterministic in W: every W (Gaussian N(0, 1/d) times a scale in [0, 30], so "
                                "nearly one-hot softmax rows are included), n, d in [1, 12]",
                       "check": "the largest row norm <= sqrt(d) (1 + 1e-12), which implies the Frobenius bound"})
def d60(case, xp):
    tc, seed, scale = case
    X = torch.as_tensor(tc.X)
    d = X.shape[1]
    W = scale * rf.gaussian((d, d), 1.0 / d, generator(seed))
    rows = rf.raf_features(X, W).norm(dim=1)
    return le(float(rows.max()), math.sqrt(d) * (1 + 1e-12), xp)
