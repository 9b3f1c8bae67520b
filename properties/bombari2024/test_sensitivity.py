r"""bombari2024 Sections 4-5 and Appendices B-D: word sensitivity of random features (Theorem 1,
Lemma B.1, Remark 4.1), deep random features (Theorem 2, Lemma C.2) and random attention
features (Theorem 3, Remark 5.1, Lemmas D.1-D.5), each as printed.

Which side of the sup of (3.4) each estimate is on is written in every interpretation: the
gradient-ascent estimate is a LOWER bound (refutes O(.), confirms Omega(.)), the Lemma B.1
chain an UPPER bound (confirms O(.), refutes nothing here).
"""
import math

import numpy as np
import torch
from hypothesis import strategies as st

from attncheck import Reading, claim, ge, le
from attncheck.numeric.devices import torch_device
from attncheck.papers.bombari2024.models import raf_witness as rw
from attncheck.papers.bombari2024.models import random_features as rf
from attncheck.papers.bombari2024.models import word_sensitivity as ws
from attncheck.papers.bombari2024.readings import (
    ACTS,
    ACTS_HE,
    ACTS_LIPSCHITZ,
    DRAWS,
    HE_ACTS,
    K_OMEGA,
    K_RATIO,
    LOWER,
    PROB,
    RESTARTS,
    RHO,
    STEPS,
    TOKENS,
    UPPER,
    WITNESS,
    X_of,
    generator,
    log4_path_ok,
    seeds,
)
from attncheck.papers.bombari2024.strategies.token_matrices import token_case, token_case_sizes, ws_case

RF_PATH = {"quick": [16, 32, 64, 128], "deep": [4, 8, 16, 32, 64, 128, 256, 512]}


def rf_ds(n, D_max=1024, ds=(1, 2, 4, 8, 16)):
    """d at path point n: every d in ds with D = n d in [64, D_max] (see the 'd' reading)."""
    return [d for d in ds if 64 <= n * d <= D_max]

ASCENT_TOKENS = 4  # token 0, token n - 1 and random others (all tokens when n <= 4)
#: Theorem 3's regime d / log^4 d >= n / 100 (checked below), n growing
RAF_PATH = {"quick": [(4, 32), (8, 128), (12, 256)],
            "deep": [(4, 32), (8, 128), (16, 512), (32, 1024), (60, 2048)]}  # (60, 2048): on the boundary
assert all(log4_path_ok(n, d) for pts in RAF_PATH.values() for n, d in pts)
RAF_REGIME = ("d / log^4 d = Omega(n) read as d / log^4 d >= n / 100 along the path (n, d) = "
              + ", ".join(map(str, RAF_PATH["deep"])) + "; n grows, d grows faster")
RAF_UNCHECKED = ("n between the path's n and the boundary of the regime, n_max(d) = floor(100 d / log^4 d) = 22, 23, "
                 "27, 33, 44, 60 at d = 32, 128, 256, 512, 1024, 2048: every path point has n < n_max(d) (quick: n = "
                 "4, 8, 12 against 22, 23, 27; deep: n = 4, 8, 16, 32 against 22, 23, 33, 44) except the deep point "
                 "(60, 2048), which is on the boundary; the boundary n = n_max(d), where the raf_proof claims run "
                 "(the hardest reading), and the n between, are not drawn at the other d (quick: at no d); and "
                 "d < 24, where the regime admits n >= d and full-rank X, is not drawn (smallest path d = 32)")


def _rf(case, seed, depth=1, m=1, lower=True, upper=False):
    """Bracket of the RF/DRF word sensitivity of one draw of the weights."""
    g = generator(seed)
    X = X_of(case)
    beta = 1.0 if depth == 1 else rf.he_beta(case.act)
    if m == 1:
        groups = ws.groups_of(ws.random_tokens(case.n, ASCENT_TOKENS, g))
    else:
        groups = [ws.random_tokens(case.n, m, g)]
    return ws.rf_bracket(X, case.k, case.act, groups, g, depth=depth, beta=beta, restarts=RESTARTS, steps=STEPS,
                         lower=lower, upper=upper)


RF_D_UNCHECKED = ("d > 16 and d growing with n (d >> n), admitted since the claim is for every d: d <= 16 at every "
                  "n, and d > n only at n <= 8")
RF_COMMON = {"probability": PROB, "draws": DRAWS, "k": K_RATIO, "X": TOKENS,
             "d": "d drawn in {1, 2, 4, 8, 16} with 64 <= D = n d <= 1024 at every n (the claim is for every d; "
                  "the implied constant must not grow with n). D >= 64 because the statement is asymptotic in D "
                  "too: at D = 4 with k = 1 a ReLU feature vector vanishes with probability 1/2 and (3.4) is 0/0",
             "activation": "phi in {relu, tanh, gelu, softplus}: Lipschitz and not identically 0",
             "tokens": f"ascent over {ASCENT_TOKENS} tokens (0, n - 1 and random others); a sup over a subset "
                       "is a lower bound on the sup over all i",
             "unchecked": ACTS_LIPSCHITZ + "; " + K_OMEGA + "; " + RF_D_UNCHECKED}


# ---- Theorem 1 and Lemma B.1 ---------------------------------------------------------------

@claim("bombari2024/theorem-1/main", kind="asymptotic", source="bombari2024 Section 4, Theorem 1, (4.1)",
       statement=r"\mathcal{S}_{RF}(X) = \mathcal{O}(1/\sqrt{n}) \text{ w.p. } \ge 1 - e^{-cD} \text{ over } V "
                 r"(\phi \text{ Lipschitz}, \not\equiv 0, k = \Omega(D), \text{Assumption 1})",
       domain=lambda n: ws_case(n, rf_ds(n), ACTS, RHO), sample=seeds, probability=0.5, path=RF_PATH,
       cost="expensive", draws=3,
       reading=Reading(notes=dict(RF_COMMON, side=LOWER, ratio="implied constant sqrt(n) * S_lower(X)")))
def theorem_1(case, S, xp):
    return np.array([_rf(case, s).lower * math.sqrt(case.n) for s in S])


@claim("bombari2024/theorem-1/certified-bracket", kind="asymptotic", refutable=False,
       source="bombari2024 Section 4, Theorem 1, (4.1) via the Lemma B.1 chain (B.8)",
       statement=r"\mathcal{S}_{RF}(X) = \mathcal{O}(1/\sqrt{n}) \text{ w.p. } \ge 1 - e^{-cD} \text{ over } V",
       domain=lambda n: ws_case(n, rf_ds(n), ACTS, RHO), sample=seeds, probability=0.5, path=RF_PATH,
       cost="expensive", draws=3,
       reading=Reading(notes=dict(RF_COMMON, side=UPPER, ratio="implied constant sqrt(n) * S_upper(X), the certified "
                           "bound over every token i; with theorem-1/main this brackets S_RF sqrt(n)")))
def theorem_1_upper(case, S, xp):
    return np.array([_rf(case, s, lower=False, upper=True).upper * math.sqrt(case.n) for s in S])


@claim("bombari2024/lemma-b.1/main", kind="asymptotic", source="bombari2024 Appendix B, Lemma B.1, (B.6)",
       statement=r"\|\varphi(X^i(\Delta)) - \varphi(X)\|_2 = \mathcal{O}(\sqrt{k/n}) \text{ for every } i, "
                 r"\|\Delta\|_2 \le \sqrt{d}, \text{ w.p. } \ge 1 - e^{-cD}",
       domain=lambda n: ws_case(n, rf_ds(n), ACTS, RHO), sample=seeds, probability=0.5, path=RF_PATH,
       cost="expensive", draws=3,
       reading=Reading(notes=dict(RF_COMMON, side=LOWER.replace("S is estimated", "the numerator sup is estimated"),
                           ratio="implied constant sup_Delta ||phi(X^i(Delta)) - phi(X)|| / sqrt(k / n)")))
def lemma_b1(case, S, xp):
    out = []
    for s in S:
        b = _rf(case, s)
        out.append(b.lower * b.base_norm / math.sqrt(case.k / case.n))
    return np.array(out)


def _dense_chain_case():
    return st.tuples(token_case_sizes((1, 6), (1, 5)), st.sampled_from(ACTS), st.integers(1, 40),
                     st.integers(0, 2**31 - 1), st.floats(0.0, 1.0))


@claim("bombari2024/lemma-b.1/chain", kind="inequality", cost="normal",
       source="bombari2024 Appendix B, proof of Lemma B.1, (B.8) first three steps",
       statement=r"\|\phi(V\,\mathrm{flat}(X^i(\Delta))) - \phi(V\,\mathrm{flat}(X))\|_2 \le M \|V\|_{op} \|\Delta\|_2",
       domain=_dense_chain_case(),
       reading=Reading(notes={"scope": "deterministic in V: every V (Gaussian N(0, 1/D) drawn by seed), every k in [1, 40], "
                                "every token i, Delta anywhere in the sqrt(d) ball (radius fraction drawn, 1 "
                                "included); dense V, n <= 6, d <= 5",
                       "M": "the Lipschitz constant of phi (1 for relu, tanh, softplus; 1.1289 for gelu)",
                       "unchecked": ACTS_LIPSCHITZ}))
def lemma_b1_chain(case, xp):
    tc, act, k, seed, frac = case
    g = generator(seed)
    X = torch.as_tensor(tc.X, device=g.device)
    n, d = X.shape
    V = rf.gaussian((k, n * d), 1.0 / (n * d), g, g.device)
    i = int(torch.randint(0, n, (1,), generator=g, device=g.device))
    delta = torch.randn(d, generator=g, dtype=torch.float64, device=g.device)
    delta = delta / delta.norm() * math.sqrt(d) * frac
    Xp = X.clone()
    Xp[i] += delta
    lhs = float((rf.rf_features(Xp, V, act) - rf.rf_features(X, V, act)).norm())
    rhs = rf.ACTIVATIONS[act].lipschitz * float(torch.linalg.matrix_norm(V, 2)) * float(delta.norm())
    return le(lhs, rhs * (1 + 1e-12), xp)


# ---- Remark 4.1: m modified words ----------------------------------------------------------

def _ms(n):
    return sorted({1, math.ceil(math.sqrt(n)), math.ceil(n / 4), n})


@claim("bombari2024/remark-4.1/main", kind="asymptotic", source="bombari2024 Section 4, Remark 4.1 and its proof (B.11)-(B.13)",
       statement=r"m \text{ modified words: } \mathcal{S}^{(m)}_{RF}(X) = \mathcal{O}(\sqrt{m/n}) "
                 r"\text{ w.p. } \ge 1 - e^{-cD}",
       domain=lambda n: ws_case(n, rf_ds(n), ACTS, RHO, ms=_ms(n)), sample=seeds, probability=0.5, path=RF_PATH,
       cost="expensive", draws=3,
       reading=Reading(notes=dict(RF_COMMON, side=LOWER, ratio="implied constant sqrt(n / m) * S^(m)_lower(X)",
                           m="m in {1, ceil(sqrt n), ceil(n / 4), n} (the proof's bound holds for every m; m = o(n) "
                             "makes it o(1); m = Theta(n) is the 'constant fraction' of the remark)",
                           tokens="one random set of m distinct tokens per draw, each row of Delta in its own "
                                  "sqrt(d) ball (B.11)-(B.13)")))
def remark_4_1(case, S, xp):
    return np.array([_rf(case, s, m=case.m).lower * math.sqrt(case.n / case.m) for s in S])


# ---- Theorem 2 and Lemma C.2 (deep random features) ------------------------------------------

DRF_PATH = {"quick": [8, 16, 32, 64], "deep": [4, 8, 16, 32, 64, 128, 256]}
DRF_D_MAX = 256
DRF_COMMON = dict(RF_COMMON, d=f"d drawn in {{1, 2, 4, 8, 16}} with 64 <= D = n d <= {DRF_D_MAX} at every n",
                  activation="phi in {relu, gelu, softplus} with beta from (4.3) (mpmath quadrature and root "
                             "finding; relu: beta = 2); tanh is excluded because (4.3) has no solution for it "
                             "(claim eq-4.3/tanh-no-solution)",
                  k="k = ceil(rho D), rho in {1/4, 1, 2} (k = Theta(D)); every layer k x k after the first",
                  L="L in {1, 2, 3} at every n; e^{CL} is a constant for fixed L, so the implied constant must "
                    "stay bounded along n (L = o(log k) holds along the path)",
                  unchecked=ACTS_HE + "; " + RF_D_UNCHECKED + "; L growing with n (admitted by L = o(log k)), not "
                            "drawn: e^{CL} with C unknown cannot be divided out")
#: Theorem 2's probability 1 - exp(-c log^2 d) (Lemma C.2's is 1 - 2L exp(-ck), k >= 16 on the path)
DRF_PROB = (PROB + ". At d = 1 (drawn wherever n >= 64; the only d at n = 256) the printed probability 1 - "
            "exp(-c log^2 d) is 0: the printed bound is vacuous there, and the argument above (for 1 - exp(-cD), D "
            "growing) does not carry over, as d <= 16 keeps log^2 d bounded along the path; the median reading is "
            "the one used at d = 1 and at every other d all the same")


@claim("bombari2024/theorem-2/main", kind="asymptotic", source="bombari2024 Section 4, Theorem 2, (4.4)",
       statement=r"\mathcal{S}_{DRF} = \mathcal{O}(e^{CL}/\sqrt{n}) \text{ w.p. } \ge 1 - e^{-c\log^2 d}",
       domain=lambda n: ws_case(n, rf_ds(n, DRF_D_MAX), HE_ACTS, RHO, depths=(1, 2, 3)), sample=seeds, probability=0.5,
       path=DRF_PATH, cost="expensive", draws=3,
       reading=Reading(notes=dict(DRF_COMMON, probability=DRF_PROB, side=LOWER,
                           ratio="implied constant sqrt(n) * S_DRF,lower(X)")))
def theorem_2(case, S, xp):
    return np.array([_rf(case, s, depth=case.depth).lower * math.sqrt(case.n) for s in S])


@claim("bombari2024/theorem-2/certified-bracket", kind="asymptotic", refutable=False,
       source="bombari2024 Section 4, Theorem 2, (4.4) via the Lemma C.2 chain (C.18)",
       statement=r"\mathcal{S}_{DRF} = \mathcal{O}(e^{CL}/\sqrt{n}) \text{ w.p. } \ge 1 - e^{-c\log^2 d}",
       domain=lambda n: ws_case(n, rf_ds(n, DRF_D_MAX), HE_ACTS, RHO, depths=(1, 2, 3)), sample=seeds, probability=0.5,
       path=DRF_PATH, cost="expensive", draws=3,
       reading=Reading(notes=dict(DRF_COMMON, probability=DRF_PROB,
                           side=UPPER.replace("M ||V_i||_op", "M^L ||V_1,i||_op prod_l ||V_l||_op"),
                           ratio="implied constant sqrt(n) * S_DRF,upper(X), certified over every token i")))
def theorem_2_upper(case, S, xp):
    return np.array([_rf(case, s, depth=case.depth, lower=False, upper=True).upper * math.sqrt(case.n) for s in S])


@claim("bombari2024/lemma-c.2/main", kind="asymptotic", source="bombari2024 Appendix C, Lemma C.2, (C.16) at l = L",
       statement=r"\|\varphi_l(X^i(\Delta)) - \varphi_l(X)\|_2 \le \sqrt{d}\, e^{Cl} \text{ for every } i, "
                 r"\|\Delta\|_2 \le \sqrt{d}, \text{ w.p. } \ge 1 - 2L e^{-ck}",
       domain=lambda n: ws_case(n, rf_ds(n, DRF_D_MAX), HE_ACTS, RHO, depths=(1, 2, 3)), sample=seeds, probability=0.5,
       path=DRF_PATH, cost="expensive", draws=3,
       reading=Reading(notes=dict(DRF_COMMON, side=LOWER.replace("S is estimated", "the sup over Delta is estimated"),
                           ratio="implied constant sup_Delta ||phi_L(X^i(Delta)) - phi_L(X)|| / sqrt(d) (e^{CL} "
                                 "fixed for fixed L: it must stay bounded along n)")))
def lemma_c2(case, S, xp):
    out = []
    for s in S:
        b = _rf(case, s, depth=case.depth)
        out.append(b.lower * b.base_norm / math.sqrt(case.d))
    return np.array(out)


#: Figure 2's depths L in {2, 4, 8}, each with its own n-path (the engine judges the n-trend per L)
DEPTHS = (2, 4, 8)
DRF_L_PATH = {"quick": [{"n": n, "L": L} for L in DEPTHS for n in (8, 16, 32)],
              "deep": [{"n": n, "L": L} for L in DEPTHS for n in (8, 16, 32, 64, 128)]}
DRF_L = dict(DRF_COMMON, probability=DRF_PROB,
             L="L in {2, 4, 8} (Figure 2), each a path point coordinate: for fixed L the implied "
               "constant must stay bounded along n (judged at each L); across L the claim admits any "
               "growth e^{CL} with C finite, so the rate C is fitted (rate_across_L) and reported, not "
               "judged. L = o(log k) is an asymptotic condition: for fixed L it holds as n grows")


def _drf_point(p):
    return ws_case(p["n"], rf_ds(p["n"], DRF_D_MAX), HE_ACTS, RHO, depths=(p["L"],))


@claim("bombari2024/theorem-2/depth-trend", kind="asymptotic", across="L",
       source="bombari2024 Section 4, Theorem 2, (4.4), against L (Figure 2, L in {2, 4, 8})",
       statement=r"\mathcal{S}_{DRF} = \mathcal{O}(e^{CL}/\sqrt{n}) \text{ w.p. } \ge 1 - e^{-c\log^2 d}",
       domain=_drf_point, sample=seeds, probability=0.5, path=DRF_L_PATH, cost="expensive", draws=3,
       reading=Reading(notes=dict(DRF_L, side=LOWER, ratio="implied constant sqrt(n) * S_DRF,lower(X) at (n, L)")))
def theorem_2_depth(case, S, xp):
    return np.array([_rf(case, s, depth=case.depth).lower * math.sqrt(case.n) for s in S])


@claim("bombari2024/theorem-2/depth-trend-certified", kind="asymptotic", across="L", refutable=False,
       source="bombari2024 Section 4, Theorem 2, (4.4), against L, via the Lemma C.2 chain (C.18)",
       statement=r"\mathcal{S}_{DRF} = \mathcal{O}(e^{CL}/\sqrt{n}) \text{ w.p. } \ge 1 - e^{-c\log^2 d}",
       domain=_drf_point, sample=seeds, probability=0.5, path=DRF_L_PATH, cost="expensive", draws=3,
       reading=Reading(notes=dict(DRF_L, side=UPPER.replace("M ||V_i||_op", "M^L ||V_1,i||_op prod_l ||V_l||_op"),
                           ratio="implied constant sqrt(n) * S_DRF,upper(X) at (n, L), certified over every token i")))
def theorem_2_depth_upper(case, S, xp):
    return np.array([_rf(case, s, depth=case.depth, lower=False, upper=True).upper * math.sqrt(case.n) for s in S])


# ---- Theorem 3 and Remark 5.1 (random attention features) -------------------------------------

RAF_TOKENS = 2


def _raf_case(point):
    n, d = point
    return token_case(n, d)


def _attention(case, seed, model):
    g = generator(seed)
    X = X_of_tokens(case)
    n, d = X.shape
    if model == "raf":
        att = rf.raf(rf.gaussian((d, d), 1.0 / d, g, g.device))
    else:
        att = rf.qkv(*(rf.gaussian((d, d), 1.0 / d, g, g.device) for _ in range(3)))
    return ws.attention_bracket(att, X, ws.random_tokens(n, RAF_TOKENS, g), g, RESTARTS, STEPS)


def X_of_tokens(tc):
    return torch.as_tensor(tc.X, device=torch_device())


RAF_COMMON = {"probability": PROB, "draws": DRAWS, "regime": RAF_REGIME, "X": TOKENS, "side": WITNESS,
              "tokens": f"{RAF_TOKENS} tokens (0 and n - 1); the sup over i is at least the max",
              "unchecked": RAF_UNCHECKED}


@claim("bombari2024/theorem-3/main", kind="asymptotic", refutable=False, source="bombari2024 Section 5, Theorem 3, (5.1)",
       statement=r"\mathcal{S}_{RAF}(X) = \Omega(1) \text{ w.p. } \ge 1 - e^{-c\log^2 d} \text{ over } W "
                 r"(d/\log^4 d = \Omega(n), \text{Assumption 1})",
       domain=_raf_case, sample=seeds, probability=0.5, path=RAF_PATH, cost="expensive", draws=3,
       reading=Reading(notes=dict(RAF_COMMON, ratio="implied constant 1 / S_RAF,lower(X) (bounded iff S_RAF stays bounded "
                                             "below)")))
def theorem_3(case, S, xp):
    return np.array([1.0 / _attention(case, s, "raf").lower for s in S])


@claim("bombari2024/theorem-3/every-token", kind="asymptotic", refutable=False,
       source="bombari2024 Section 5, text after Theorem 3 ('for any index i there exists Delta*')",
       statement=r"\forall i \in [n]\ \exists \Delta^*, \|\Delta^*\| \le \sqrt d: \|\varphi_{RAF}(X^i(\Delta^*)) - "
                 r"\varphi_{RAF}(X)\| / \|\varphi_{RAF}(X)\| = \Omega(1)",
       domain=_raf_case, sample=seeds, probability=0.5, path=RAF_PATH, cost="expensive", draws=3,
       reading=Reading(notes=dict(RAF_COMMON, ratio="implied constant 1 / min_i S_RAF,lower,i(X) over the tokens tried",
                           tokens=f"i in {{0, n - 1}} only: random_tokens(n, {RAF_TOKENS}) returns exactly these two "
                                  "for n >= 3 (every path n is >= 4); the min is over these two, not over [n]",
                           unchecked=RAF_UNCHECKED + "; the indices i in [1, n - 2] of 'for any index i in [n]': "
                                     "not drawn (the claim is checked for i in {0, n - 1})")))
def theorem_3_every(case, S, xp):
    return np.array([1.0 / float(_attention(case, s, "raf").per_group.min()) for s in S])


@claim("bombari2024/remark-5.1/main", kind="asymptotic", refutable=False, source="bombari2024 Section 5, Remark 5.1",
       statement=r"\text{Theorem 3 holds for } \varphi_{QKV}(X) = \mathrm{softmax}(X W_Q^\top W_K X^\top/\sqrt{d'}) "
                 r"X W_V^\top \text{ with independent Gaussian } W_Q, W_K, W_V",
       domain=_raf_case, sample=seeds, probability=0.5, path=RAF_PATH, cost="expensive", draws=3,
       reading=Reading(notes=dict(RAF_COMMON, ratio="implied constant 1 / S_QKV,lower(X)",
                           weights="d' = d; W_Q, W_K, W_V entries i.i.d. N(0, 1/d), so the scores have unit variance "
                                   "as in (3.3)",
                           unchecked=RAF_UNCHECKED + "; d' != d: (3.2) admits W_Q, W_K, W_V in R^{d' x d} for any "
                                     "d', only d' = d is drawn; and entry variances other than 1/d: not drawn")))
def remark_5_1(case, S, xp):
    return np.array([1.0 / _attention(case, s, "qkv").lower for s in S])


# ---- Lemma D.1 (Step 1 of the proof sketch) ---------------------------------------------------

@claim("bombari2024/lemma-d.1/main", kind="inequality", refutable=False, cost="normal",
       source="bombari2024 Appendix D, Lemma D.1 (D.6)-(D.7), constants of its proof",
       statement=r"\exists \delta^*: \|\delta^*\|_2 \le \sqrt{d},\ (x_i^\top\delta^*)^2 = \Omega(d^2/n) "
                 r"\text{ for at least } \Omega(n) \text{ indices}",
       domain=st.tuples(token_case_sizes((1, 24), (1, 24)), st.integers(0, 2**31 - 1)),
       reading=Reading(notes={"constants": "the proof's: (x_i^T delta*)^2 >= 0.01 d^2 / n for more than n/2 indices",
                       "fraction": "Omega(n) indices read here as at least floor(n/2) + 1 (more than n/2: the count "
                                   "whose negation (D.12) the proof refutes). The raf_proof claims (Lemmas D.2-D.5) "
                                   "read the same phrase as at least ceil(n/4) (this count halved by the sign choice "
                                   "of (D.23)): two counts for one phrase; the one here is never smaller",
                       "witness": "delta* searched among 64 draws of the proof's random construction (D.8); a witness "
                                  "found proves the claim for this X; none found would be INCONCLUSIVE "
                                  "(refutable=False: an existence claim is not refuted by a failed search)",
                       "X": TOKENS + "; n, d in [1, 24] (n > d and rank-deficient X included)"}))
def lemma_d1(case, xp):
    tc, seed = case
    X = tc.X
    n, d = X.shape
    delta = rw.delta_eps(X, rw.sphere(np.random.default_rng(seed), 64, rw.row_space(X).shape[1]))
    good = np.sum((delta @ X.T) ** 2 >= 0.01 * d ** 2 / n, axis=1)
    norms_ok = np.all(np.linalg.norm(delta, axis=1) <= math.sqrt(d) * (1 + 1e-12))
    return ge(float(good.max()) if norms_ok else -1.0, math.floor(n / 2) + 1, xp)


@claim("bombari2024/lemma-d.1/step-d.14", kind="probabilistic", cost="cheap",
       source="bombari2024 Appendix D, proof of Lemma D.1, (D.14)-(D.18)",
       statement=r"\forall i:\ \Pr_\varepsilon[(x_i^\top\delta_\varepsilon)^2 > 0.01\,d^2/n] > 1/2, \quad "
                 r"\delta_\varepsilon = \sqrt{d/n}\,U_r\varepsilon,\ \varepsilon \sim \mathrm{Unif}(\sqrt{r}\,S^{r-1})",
       domain=st.tuples(token_case_sizes((1, 24), (1, 24)), st.integers(0, 23)),
       sample=lambda c, rng, size: rw.sphere(rng, size, rw.row_space(c[0].X).shape[1]),
       probability=0.5,
       reading=Reading(notes={"what": "the step the contradiction of the proof establishes: (D.17)-(D.18) show "
                               "Pr[(Z_i^eps)^2 <= 0.01 d^2/n] < 0.14 / 0.75 < 1/2 for every i",
                       "checked as": "Pr >= 1/2 by the exact sequential test (the claimed '> 1/2' is at least as "
                                     "strong; the proof's bound is about 0.81)",
                       "i": "the token index i = j mod n for j drawn in [0, 23]", "X": TOKENS}))
def lemma_d1_step(case, E, xp):
    tc, j = case
    X = tc.X
    n, d = X.shape
    delta = rw.delta_eps(X, np.asarray(E))
    return ge((delta @ X[j % n]) ** 2, 0.01 * d ** 2 / n * (1 + 1e-9), xp)
