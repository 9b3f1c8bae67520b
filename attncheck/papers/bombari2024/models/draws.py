"""bombari2024: one draw of the random weights, for the claims along n (the Monte Carlo sample of each is one
seed per draw, :func:`attncheck.papers.bombari2024.readings.seeds`).

- :func:`rf_draws`: the brackets of the word sensitivity (3.4) of random features (3.1) or deep random features
  (4.2) (Theorems 1-2, Lemmas B.1 and C.2, Remark 4.1 with m modified words (B.11)-(B.13));
- :func:`drf_upper_draws`: the certified upper side alone of deep random features, many draws of the weights per
  seed at once (:mod:`.chain_draws`; Theorem 2 along n and L);
- :func:`attention_draws`: the lower side of the word sensitivity of random attention features (3.3) or of the
  QKV map of Remark 5.1 (Theorem 3);
- :func:`rf_task_draw`: the Section 6 task, a training set, labels and RF weights, on which theta* and theta*_f
  (6.5) or theta*_r (6.6) are fitted (Theorems 4-5, Lemmas B.2-B.3), with :func:`n_train` samples.

Moved verbatim from properties/bombari2024/test_sensitivity.py (``_rf``, ``_attention``, ``X_of_tokens``) and
properties/bombari2024/test_generalization.py (``n_train``, ``_task``).
"""
import math

import numpy as np
import torch

from attncheck.numeric.devices import torch_device
from attncheck.papers.bombari2024.data.token_matrices import IID_FAMILIES, iid_samples
from attncheck.papers.bombari2024.models import chain_draws as cd
from attncheck.papers.bombari2024.models import context_modification as cm
from attncheck.papers.bombari2024.models import glm
from attncheck.papers.bombari2024.models import random_features as rf
from attncheck.papers.bombari2024.models import word_sensitivity as ws
from attncheck.papers.bombari2024.readings import (
    ASCENT_TOKENS,
    LINEAR_LR,
    LINEAR_STEPS,
    RAF_TOKENS,
    RESTARTS,
    STEPS,
    X_of,
    generator,
)

#: a seed gives max(1, K_REF // k) draws of the random weights in :func:`seeds_by_k`
K_REF = 128


def seeds_by_k(k: int, seeds) -> list[int]:
    """The seeds of the draws behind ``seeds`` at width k: each seed gives max(1, K_REF // k) draws (its own seed
    alone at k >= K_REF, else sub-seeds from numpy's SeedSequence of it), so that a case's median is about as
    precise at every k: one draw's ratio spreads like 1 / sqrt(k) (1 / ||phi(X)|| is right-skewed at small k),
    and a draw costs O(L k^2)."""
    r = max(1, K_REF // int(k))
    if r == 1:
        return [int(s) for s in seeds]
    return [int(x) % 2**62 for s in seeds for x in np.random.SeedSequence(int(s)).generate_state(r, dtype=np.uint64)]


def rf_draws(case, seeds, depth=1, m=1, lower=True, upper=False, linear=False):
    """Brackets of the RF/DRF word sensitivity of one draw of the weights per seed (one ascent for all). With
    ``linear`` (m = 1) the ascent starts at the linearised optimum (bombari2024/sup-lower-linear): LINEAR_STEPS
    steps of size LINEAR_LR instead of RESTARTS random starts and STEPS steps."""
    gens = [generator(s) for s in seeds]
    X = X_of(case)
    beta = 1.0 if depth == 1 else rf.he_beta(case.act)
    if m == 1:
        groups = [ws.groups_of(ws.random_tokens(case.n, ASCENT_TOKENS, g)) for g in gens]
    else:
        groups = [[ws.random_tokens(case.n, m, g)] for g in gens]
    if linear:
        return ws.rf_brackets(X, case.k, case.act, groups, gens, depth=depth, beta=beta, steps=LINEAR_STEPS,
                              lr=LINEAR_LR, lower=lower, upper=upper, linear=True)
    return ws.rf_brackets(X, case.k, case.act, groups, gens, depth=depth, beta=beta, restarts=RESTARTS,
                          steps=STEPS, lower=lower, upper=upper)


def attention_draws(case, seeds, model, count=RAF_TOKENS):
    """Brackets of the word sensitivity of one draw of W (model "raf") or of W_Q, W_K, W_V (model "qkv") per
    seed (one ascent for all), over ``count`` tokens per draw (:func:`.word_sensitivity.random_tokens`: 0, n - 1,
    then tokens drawn uniformly among the others by the draw's generator)."""
    X = X_of_tokens(case)
    n, d = X.shape
    atts, tokens, gens = [], [], [generator(s) for s in seeds]
    for g in gens:
        if model == "raf":
            atts.append(rf.raf(rf.gaussian((d, d), 1.0 / d, g, g.device)))
        else:
            atts.append(rf.qkv(*(rf.gaussian((d, d), 1.0 / d, g, g.device) for _ in range(3))))
        tokens.append(ws.random_tokens(n, count, g))
    return ws.attention_brackets(atts, X, tokens, gens, RESTARTS, STEPS)


def X_of_tokens(tc):
    return torch.as_tensor(tc.X, device=torch_device())


def n_train(k: int, a: float = 1 / 3) -> int:
    """N = max(2, ceil(k^a)) for the case's exponent a < 1, so N log^3 N = o(k) (Theorems 4-5). At a = 1/3,
    N log^3 N / k trends down along the path, not monotonically (0.33 at k = 32, 0.17 at k = 64, 0.08 at k = 4096)."""
    return max(2, math.ceil(k ** a - 1e-9))


def rf_task_draw(case, seed, iid_x: bool):
    """(task, generator) of one draw: training family, samples and labels from the seed; X the case's tokens or,
    with ``iid_x``, one more sample of the training law (Theorem 5)."""
    g = generator(seed)
    rng = np.random.default_rng(int(seed) % 2**63)
    n, d = case.n, case.d
    fam = IID_FAMILIES[int(rng.integers(0, len(IID_FAMILIES)))]
    N = n_train(case.k, case.n_exp)
    Xtr = iid_samples(fam, N, n, d, rng)
    X = torch.as_tensor(iid_samples(fam, 1, n, d, rng)[0], device=g.device) if iid_x else X_of(case)
    Y = rng.choice([-1.0, 1.0], N)
    y = float(rng.choice([-1.0, 1.0]))
    V = rf.gaussian((case.k, n * d), 1.0 / (n * d), g, g.device)
    return cm.rf_task(X, Xtr, Y, y, V, case.act), g


def kr_ratio(case, seed) -> float:
    """k / lambda_min(K_r) of one draw (Lemma B.2, (B.23); Theorem 5's training law): +inf where K_r is singular
    (lambda_min <= 0 in float64), as where a feature vector vanishes (relu, every unit off: 2^-k per sample)."""
    lam = glm.lambda_min(rf_task_draw(case, seed, iid_x=True)[0].Kr)
    return case.k / lam if lam > 0 else math.inf


#: drf_upper_draws: per seed, ceil(CHAINS_REF L / k) draws of the chain, each with ceil(BASES_REF L / k) of phi_L(X)
CHAINS_REF, BASES_REF = 64, 128


def drf_upper_draws(case, seeds) -> np.ndarray:
    """The certified upper bound U of :func:`rf_draws` (``upper=True``: every token; one value per draw) by
    :func:`.chain_draws.drf_upper_pairs`, per seed ceil(CHAINS_REF L / k) draws of the chain times ceil(BASES_REF
    L / k) of ||phi_L(X)||. The variance of log U grows like L / k (gelu: 0.27, 0.67, 1.85 at L = 2, 4, 8, k = 16;
    0.06 at L = 4, k = 128), so the draws go where it is wide; each draw of the chain (O(L k^3)) is shared by
    ceil(BASES_REF L / k) base norms (O(L k^2) each; reading bombari2024/draws-chain).

    Where phi_L(X) = 0 (relu: every unit of a layer off, probability 2^-k per layer; 1e-4 per draw at k = 16,
    L = 8), (3.4) is 0/0 and its bound +inf: such draws stay +inf (the engine's quantile ranks them last)."""
    L, k = case.depth, case.k
    chains, bases = math.ceil(CHAINS_REF * L / k), math.ceil(BASES_REF * L / k)
    X = X_of(case)
    beta = 1.0 if L == 1 else rf.he_beta(case.act)
    return np.concatenate([cd.drf_upper_pairs(X, k, case.act, L, beta, np.random.default_rng(int(s)), chains,
                                                bases).cpu().numpy() for s in seeds])
