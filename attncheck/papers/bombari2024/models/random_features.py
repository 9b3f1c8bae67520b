"""bombari2024: random features (3.1), deep random features (4.2) and random attention features (3.3).

Conventions (paper, Section 3): X is n x d with rows of norm sqrt(d) (Assumption 1);
flat(X) is the row-major vectorisation, D = n d. Everything is float64 torch on the
device of :func:`attncheck.numeric.devices.torch_device`.

One-token structure. The word sensitivity (3.4) perturbs one row x_i -> x_i + Delta, so
V flat(X^i(Delta)) = V flat(X) + V_i Delta with V_i the k x d block of columns of token i.
:func:`rf_blocks` draws (V flat(X), V_i for i in a token subset) with their exact joint
law without the other n - |I| blocks: V flat(X) = sum_{i in I} V_i x_i + h with h
~ N(0, s^2 (n - |I|) d / D I_k) independent of the blocks (Assumption 1).
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import mpmath
import numpy as np
import scipy.linalg
import scipy.optimize
import torch

from attncheck.numeric.devices import torch_device

DTYPE = torch.float64


# ---- activations and He's initialization (4.3) -------------------------------------------

@dataclass(frozen=True)
class Activation:
    """A component-wise non-linearity phi with its Lipschitz constant M and an mpmath twin."""

    name: str
    torch_fn: object
    mp_fn: object
    lipschitz: float


def _gelu_mp(x):
    return x * mpmath.ncdf(x)


#: max |gelu'(x)| = Phi(sqrt 2) + sqrt 2 phi(sqrt 2), attained at x = sqrt 2
GELU_LIPSCHITZ = float(mpmath.ncdf(mpmath.sqrt(2)) + mpmath.sqrt(2) * mpmath.npdf(mpmath.sqrt(2)))

ACTIVATIONS = {
    "relu": Activation("relu", torch.relu, lambda x: max(x, 0), 1.0),
    "tanh": Activation("tanh", torch.tanh, mpmath.tanh, 1.0),
    "gelu": Activation("gelu", lambda x: torch.nn.functional.gelu(x), _gelu_mp, GELU_LIPSCHITZ),
    "softplus": Activation("softplus", torch.nn.functional.softplus, lambda x: mpmath.log1p(mpmath.exp(x)), 1.0),
}


class NoHeSolution(ValueError):
    """(4.3) has no solution beta for this activation."""


def second_moment(act: str, beta, dps: int = 30):
    """E_{rho ~ N(0, beta)}[phi(rho)^2] by mpmath quadrature (the left side of (4.3))."""
    f = ACTIVATIONS[act].mp_fn
    with mpmath.workdps(dps):
        s = mpmath.sqrt(mpmath.mpf(beta))
        return mpmath.quad(lambda t: f(s * t) ** 2 * mpmath.npdf(t), [-mpmath.inf, 0, mpmath.inf])


def _he_beta_float(act: str) -> float | None:
    """A float64 estimate of the root of (4.3): 200-point Gauss-Hermite moment and Brent's method (None if the
    moment does not cross 1 on [1e-6, 1e6])."""
    t, w = np.polynomial.hermite_e.hermegauss(200)
    f, t, w = ACTIVATIONS[act].torch_fn, torch.as_tensor(t), w / math.sqrt(2 * math.pi)
    g = lambda b: float(w @ f(math.sqrt(b) * t).numpy() ** 2) - 1  # noqa: E731
    return scipy.optimize.brentq(g, 1e-6, 1e6, xtol=1e-14) if g(1e-6) < 0 < g(1e6) else None


@functools.cache
def he_beta(act: str, dps: int = 30) -> float:
    """beta solving (4.3) E_{rho ~ N(0, beta)}[phi(rho)^2] = 1: quadrature plus bracketed root finding.

    Secant steps start from a relative 1e-12 around a float64 estimate when the quadrature confirms the sign
    change there (the moment increases with beta: one root), else Anderson's method from the search on [1e-6, 1].
    ReLU gives beta = 2 (E[relu(rho)^2] = beta / 2). tanh has no solution: tanh^2 < 1, so the
    moment stays below 1 for every beta (it tends to 1 as beta -> infinity): NoHeSolution.
    """
    if act == "tanh":
        raise NoHeSolution("E[tanh(rho)^2] < 1 for every beta > 0: (4.3) has no solution")
    g = lambda b: second_moment(act, b, dps) - 1  # noqa: E731
    b0 = _he_beta_float(act)
    lo, hi = (mpmath.mpf(b0 * (1 - 1e-12)), mpmath.mpf(b0 * (1 + 1e-12))) if b0 is not None else (None, None)
    solver = "secant"
    if b0 is None or not g(lo) < 0 < g(hi):
        (lo, hi), solver = _he_bracket(g, act), "anderson"
    with mpmath.workdps(dps):
        return float(mpmath.findroot(g, (lo, hi), solver=solver))


def _he_bracket(g, act: str):
    """[lo, hi] with g(lo) <= 0 <= g(hi), from [1e-6, 1] doubling hi; NoHeSolution if there is none."""
    lo, hi = mpmath.mpf("1e-6"), mpmath.mpf(1)
    if g(lo) > 0:
        raise NoHeSolution(f"E[{act}(rho)^2] > 1 already at beta = {lo}")
    while g(hi) < 0:
        hi *= 2
        if hi > 1e6:
            raise NoHeSolution(f"E[{act}(rho)^2] < 1 for beta up to 1e6")
    return lo, hi


# ---- random features (3.1) and deep random features (4.2) ----------------------------------

def as_tensor(a, device=None) -> torch.Tensor:
    return torch.as_tensor(a, dtype=DTYPE, device=torch_device(device) if not isinstance(device, torch.device) else device)


def flat(X: torch.Tensor) -> torch.Tensor:
    """flat(X) in R^D, row-major (token after token)."""
    return X.reshape(*X.shape[:-2], -1)


def rf_features(X, V, act: str) -> torch.Tensor:
    """(3.1) phi_RF(X) = phi(V flat(X)), V in R^{k x D}; dense reference."""
    return ACTIVATIONS[act].torch_fn(flat(X) @ V.T)


def drf_features(X, Vs, act: str) -> torch.Tensor:
    """(4.2) phi_DRF(X) = phi(V_L phi(... phi(V_1 flat(X)))); dense reference."""
    h = flat(X)
    for V in Vs:
        h = ACTIVATIONS[act].torch_fn(h @ V.T)
    return h


def bidiagonal_sigma_max(a: np.ndarray, b: np.ndarray) -> float:
    """Largest singular value of the upper bidiagonal matrix with diagonal a (p) and superdiagonal b (p - 1):
    the largest eigenvalue of the 2p x 2p Golub-Kahan tridiagonal matrix (zero diagonal, off-diagonal
    a_1, b_1, a_2, ..., a_p), by LAPACK bisection (stebz): O(p), no squaring."""
    e = np.empty(2 * len(a) - 1)
    e[0::2], e[1::2] = a, b
    top = 2 * len(a) - 1
    return float(scipy.linalg.eigvalsh_tridiagonal(np.zeros(2 * len(a)), e, select="i", select_range=(top, top))[0])


def gaussian_op_norms(k: int, D: int, var: float, rng: np.random.Generator, size: int) -> np.ndarray:
    """``size`` draws of ||V||_op for V in R^{k x D} with i.i.d. N(0, var) entries, from the exact law of its
    singular values: those of sqrt(var) B, B upper bidiagonal with diagonal chi_m, chi_{m-1}, ...,
    chi_{m-p+1} and superdiagonal chi_{p-1}, ..., chi_1 (p = min(k, D), m = max(k, D); Householder
    bidiagonalization of a Gaussian matrix, Silverstein 1985, Dumitriu-Edelman 2002). O(p) per draw."""
    p, m = min(k, D), max(k, D)
    out = np.empty(size)
    for j in range(size):
        a = np.sqrt(rng.chisquare(np.arange(m, m - p, -1)))
        b = np.sqrt(rng.chisquare(np.arange(p - 1, 0, -1))) if p > 1 else np.empty(0)
        out[j] = math.sqrt(var) * bidiagonal_sigma_max(a, b)
    return out


def drf_norm_draws(act: str, k: int, depth: int, beta: float, gen: torch.Generator, size: int,
                   device=None) -> torch.Tensor:
    """``size`` draws of ||phi_L(X)|| for (4.2) with V_1 entries N(0, beta / D) and V_l (l >= 2) entries
    N(0, beta / k), at any X with ||flat X||^2 = D (Assumption 1), exact in law without the weights:
    V_1 flat(X) ~ N(0, beta I_k), and V_{l+1} phi_l ~ N(0, beta ||phi_l||^2 / k I_k) given phi_l (V_{l+1} is
    independent of phi_l). depth = 1, beta = 1 is the RF map (3.1). O(k L) per draw."""
    f = ACTIVATIONS[act].torch_fn
    dev = torch_device(device) if not isinstance(device, torch.device) else device
    scale = torch.full((size, 1), math.sqrt(beta), dtype=DTYPE, device=dev)
    for _ in range(depth):
        norm = f(torch.randn((size, k), generator=gen, dtype=DTYPE, device=dev).mul_(scale)).norm(dim=-1, keepdim=True)
        scale = norm * math.sqrt(beta / k)
    return norm[:, 0]


@dataclass
class RFBlocks:
    """The first layer seen by a perturbation of tokens ``tokens``: z = V flat(X), A[t] = V_{tokens[t]}."""

    z: torch.Tensor  # (k,)
    A: torch.Tensor  # (|I|, k, d)
    tokens: tuple


def rf_blocks(X, tokens, k: int, gen: torch.Generator, scale2: float = 1.0) -> RFBlocks:
    """Exact joint law of (V flat(X), V_i for i in tokens), V_ij ~ N(0, scale2 / D), without V.

    Needs Assumption 1: the other rows contribute h ~ N(0, scale2 (n - |I|) d / D I_k).
    """
    n, d = X.shape
    D = n * d
    tokens = tuple(int(i) for i in tokens)
    sd = math.sqrt(scale2 / D)
    A = torch.randn((len(tokens), k, d), generator=gen, dtype=DTYPE, device=X.device).mul_(sd)
    rest = math.sqrt(scale2 * (n - len(tokens)) * d / D)
    z = torch.einsum("tkd,td->k", A, X[list(tokens)]) + rest * torch.randn(k, generator=gen, dtype=DTYPE, device=X.device)
    return RFBlocks(z, A, tokens)


@dataclass
class RFSamples:
    """The first layer seen by S samples and by a perturbation of their token ``token``:
    Z[s] = V flat(X_s), A = V_token (the k x d block of that token)."""

    Z: torch.Tensor  # (S, k)
    A: torch.Tensor  # (k, d)
    token: int


def rf_samples(Xs, token: int, k: int, gen: torch.Generator, scale2: float = 1.0) -> RFSamples:
    """Exact joint law of (V flat(X_s) for every sample s, V_token), V_ij ~ N(0, scale2 / D), without V.

    V flat(X_s) = V_token x_{s,token} + h_s with h_s = V_rest r_s (r_s: the other tokens of sample s). The k
    rows of V_rest are i.i.d. N(0, scale2 / D I), so the k rows of [h_1 ... h_S] are i.i.d.
    N(0, scale2 / D R R^T) (R = [r_1; ...; r_S]), independent of V_token: drawn as g L^T with L L^T =
    scale2 / D R R^T. Cost O(S^2 (D + k)) and memory O(S (D + k)), against k D for V.
    """
    S, n, d = Xs.shape
    D = n * d
    A = torch.randn((k, d), generator=gen, dtype=DTYPE, device=Xs.device).mul_(math.sqrt(scale2 / D))
    R = torch.cat([Xs[:, :token], Xs[:, token + 1:]], dim=1).reshape(S, -1)
    G = (R @ R.T) * (scale2 / D)
    L, info = torch.linalg.cholesky_ex(G)
    if int(info) != 0:  # singular R R^T (repeated samples, tiny D): the symmetric square root
        lam, U = torch.linalg.eigh(G)
        L = U * torch.sqrt(lam.clamp(min=0.0))
    g = torch.randn((k, S), generator=gen, dtype=DTYPE, device=Xs.device)
    Z = Xs[:, token] @ A.T + (g @ L.T).T
    return RFSamples(Z, A, int(token))


def rf_samples_from_V(Xs, V, token: int) -> RFSamples:
    """The same objects cut out of a dense V (reference for tests)."""
    S, n, d = Xs.shape
    return RFSamples(flat(Xs) @ V.T, V[:, token * d:(token + 1) * d], int(token))


def rf_blocks_from_V(X, V, tokens) -> RFBlocks:
    """The same objects cut out of a dense V (reference for tests)."""
    n, d = X.shape
    tokens = tuple(int(i) for i in tokens)
    A = torch.stack([V[:, i * d:(i + 1) * d] for i in tokens])
    return RFBlocks(flat(X) @ V.T, A, tokens)


def gaussian(shape, var: float, gen: torch.Generator, device=None) -> torch.Tensor:
    """i.i.d. N(0, var) entries."""
    dev = torch_device(device) if not isinstance(device, torch.device) else device
    return torch.randn(shape, generator=gen, dtype=DTYPE, device=dev).mul_(math.sqrt(var))


# ---- random attention features (3.2), (3.3) and the ReLU variant of Figure 3 ---------------

def scores(X, W) -> torch.Tensor:
    """S(X) = X W X^T / sqrt(d) (D.2)."""
    return X @ W @ X.transpose(-1, -2) / math.sqrt(X.shape[-1])


def relu_normalize(S) -> torch.Tensor:
    """ReLU-RAF attention (Figure 3): relu(S) with each row divided by its sum; a zero row stays zero."""
    R = torch.relu(S)
    Z = R.sum(-1, keepdim=True)
    return torch.where(Z > 0, R / torch.where(Z > 0, Z, torch.ones_like(Z)), torch.zeros_like(R))


def raf_features(X, W) -> torch.Tensor:
    """(3.3) phi_RAF(X) = softmax(X W X^T / sqrt d) X, n x d."""
    return torch.softmax(scores(X, W), dim=-1) @ X


def relu_raf_features(X, W) -> torch.Tensor:
    """ReLU-RAF: the softmax of (3.3) replaced by row-normalised ReLU (Figure 3, authors' convention)."""
    return relu_normalize(scores(X, W)) @ X


def qkv_features(X, WQ, WK, WV) -> torch.Tensor:
    """(3.2) phi_QKV(X) = softmax(X W_Q^T W_K X^T / sqrt d') X W_V^T, W_* in R^{d' x d}."""
    dp = WQ.shape[0]
    S = (X @ WQ.T) @ (X @ WK.T).transpose(-1, -2) / math.sqrt(dp)
    return torch.softmax(S, dim=-1) @ (X @ WV.T)


@dataclass
class Attention:
    """An attention map phi(X) = norm(S) X W_V^T with S = (X Q^T)(X K^T)^T / c (RAF, ReLU-RAF, QKV), i.e.
    S = X M X^T / c with M = Q^T K, kept factored: no d x d product is formed.

    RAF: Q = W^T, K = I (None), c = sqrt(d), W_V = I. QKV (Remark 5.1): Q = W_Q, K = W_K, c = sqrt(d'), W_V.
    """

    Q: torch.Tensor
    c: float
    K: torch.Tensor | None = None  # None: the identity
    WV: torch.Tensor | None = None  # None: the identity (no value matrix)
    kind: str = "softmax"  # or "relu" (row-normalised ReLU)

    def values(self, X):
        return X if self.WV is None else X @ self.WV.T

    def queries(self, X):
        """X Q^T: the left factor of the scores."""
        return X @ self.Q.T

    def keys(self, X):
        """X K^T: the right factor of the scores."""
        return X if self.K is None else X @ self.K.T

    def scores(self, X):
        return self.queries(X) @ self.keys(X).transpose(-1, -2) / self.c

    def weights(self, S):
        return torch.softmax(S, dim=-1) if self.kind == "softmax" else relu_normalize(S)

    def __call__(self, X):
        return self.weights(self.scores(X)) @ self.values(X)


def raf(W, kind: str = "softmax") -> Attention:
    return Attention(W.T, math.sqrt(W.shape[0]), None, None, kind)


def qkv(WQ, WK, WV) -> Attention:
    return Attention(WQ, math.sqrt(WQ.shape[0]), WK, WV, "softmax")
