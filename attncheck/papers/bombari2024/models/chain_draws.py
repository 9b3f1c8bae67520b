"""bombari2024 Theorem 2 (4.4) via the Lemma C.2 chain (C.18), upper side only: the certified bound of
:func:`.word_sensitivity.rf_upper` over every token i,

    U = M^L max_i ||V_1,i||_op prod_{l=2..L} ||V_l||_op sqrt(d) / ||phi_L(X)||,

for many draws of the DRF weights (4.2) at once, exact in law. Its spread is almost all in ||phi_L(X)|| (gelu,
k = 16, L = 4: sd of log ||phi_L(X)|| 0.82 against 0.13 for the chain's norms), while each operator norm costs
O(k^3); so each draw of the chain's matrices is paired with ``bases`` draws of ||phi_L(X)|| from its conditional law.

Why each pair has the exact joint law. The law of the weights is invariant under V_1,i -> Q_i V_1,i (each k x d
block of V_1, Q_i Haar on O(k), independent) and V_l -> V_l R_l (R_l Haar), and the chain is unchanged by them. So
a draw rotated by fresh (Q_i, R_l) is a draw of the weights with the same chain:

- V_1 flat(X) = sum_i Q_i V_1,i x_i = sum_i l_i u_i, l_i = ||V_1,i x_i||, u_i i.i.d. uniform on S^(k-1). Its
  direction is uniform and independent of its norm r, which the walk r_t^2 = r_(t-1)^2 + l_t^2 + 2 r_(t-1) l_t c_t
  draws: c_t, the cosine of a uniform direction with any fixed one, has (1 + c_t) / 2 ~ Beta((k-1)/2, (k-1)/2);
  n Beta draws in place of n k normals;
- layer l >= 2: V_l R_l h = ||h|| V_l w with w uniform on S^(k-1).

Each value is rf_upper's bound for that rotated draw (the operator norms bounded above with the rounding accounted
for, :func:`.word_sensitivity.op_norm`), so each is certified as rf_upper's.
"""
from __future__ import annotations

import math

import numpy as np
import torch

from attncheck.papers.bombari2024.models.random_features import ACTIVATIONS, DTYPE
from attncheck.papers.bombari2024.models.word_sensitivity import op_norm


def _normal(rng: np.random.Generator, shape, device) -> torch.Tensor:
    return torch.as_tensor(rng.standard_normal(shape), dtype=DTYPE, device=device)


def uniform(rng: np.random.Generator, shape, device=None) -> torch.Tensor:
    """Uniform directions on S^(k-1), k = shape[-1]."""
    g = _normal(rng, shape, device)
    return g / g.norm(dim=-1, keepdim=True)


def chain(A: torch.Tensor, Vs, act: str) -> torch.Tensor:
    """M^L max_i ||A_i||_op prod_l ||V_l||_op per draw (C,): A (C, n, k, d) the first layer's blocks, Vs the layers
    2..L, each (C, k, k); the product in :func:`.word_sensitivity.rf_upper`'s order."""
    M = ACTIVATIONS[act].lipschitz
    out = op_norm(A).amax(-1) * M
    for V in Vs:
        out = out * M * op_norm(V)
    return out


def walk_norm(lengths: torch.Tensor, cosines: torch.Tensor) -> torch.Tensor:
    """||sum_t l_t u_t|| from the lengths l (..., n) and the cosines (..., n - 1) of u_t (t >= 2) with the partial
    sum before it (with any direction where that sum is 0)."""
    r2 = lengths[..., 0] ** 2
    for t in range(1, lengths.shape[-1]):
        l_t = lengths[..., t]
        r2 = torch.clamp(r2 + l_t ** 2 + 2 * torch.sqrt(r2) * l_t * cosines[..., t - 1], min=0.0)
    return torch.sqrt(r2)


def phi_norm(z: torch.Tensor, ws, Vs, act: str) -> torch.Tensor:
    """||phi_L(X)|| with V_1 flat(X) = z (C, B, k) and layer l's input rotated onto ws[l] (each (C, B, k), unit):
    h_l = phi(V_l ||h_(l-1)|| w_l)."""
    f = ACTIVATIONS[act].torch_fn
    h = f(z)
    for V, w in zip(Vs, ws, strict=True):
        h = f(torch.matmul(h.norm(dim=-1, keepdim=True) * w, V.transpose(-1, -2)))
    return h.norm(dim=-1)


def first_layer_norm(lengths: torch.Tensor, k: int, rng: np.random.Generator, bases: int) -> torch.Tensor:
    """``bases`` draws of ||sum_i l_i u_i|| (u_i i.i.d. uniform on S^(k-1)) per row of lengths (C, n): the walk
    over cosines c with (1 + c) / 2 ~ Beta((k-1)/2, (k-1)/2). (C, bases)."""
    C, n = lengths.shape
    a = (k - 1) / 2
    cos = torch.as_tensor(2 * rng.beta(a, a, (C, bases, n - 1)) - 1, dtype=DTYPE, device=lengths.device)
    return walk_norm(lengths[:, None, :].expand(C, bases, n), cos)


def base_norms(lengths: torch.Tensor, k: int, Vs, act: str, rng: np.random.Generator, bases: int) -> torch.Tensor:
    """``bases`` draws of ||phi_L(X)|| per draw of the chain (C, bases), by the rotations of the module docstring:
    lengths (C, n) the l_i = ||V_1,i x_i||, Vs the layers 2..L (C, k, k)."""
    C, dev = lengths.shape[0], lengths.device
    z = first_layer_norm(lengths, k, rng, bases)[..., None] * uniform(rng, (C, bases, k), dev)
    return phi_norm(z, [uniform(rng, (C, bases, k), dev) for _ in Vs], Vs, act)


def drf_upper_pairs(X: torch.Tensor, k: int, act: str, depth: int, beta: float, rng: np.random.Generator,
                    chains: int, bases: int) -> torch.Tensor:
    """U of ``chains`` draws of the chain's matrices times ``bases`` draws of ||phi_L(X)|| each (chains * bases,):
    the first layer's k x d blocks V_1,i of every token (entries N(0, beta / D)) and the k x k layers V_l
    (N(0, beta / k)), l = 2..L; +inf where phi_L(X) = 0."""
    n, d = X.shape
    dev = X.device
    A = _normal(rng, (chains, n, k, d), dev).mul_(math.sqrt(beta / (n * d)))
    Vs = list(_normal(rng, (depth - 1, chains, k, k), dev).mul_(math.sqrt(beta / k)))
    lengths = torch.einsum("cnkd,nd->cnk", A, X).norm(dim=-1)
    return (chain(A, Vs, act)[:, None] * math.sqrt(d) / base_norms(lengths, k, Vs, act, rng, bases)).flatten()
