"""bombari2024 Appendix D: the constructive witnesses of the proof of Theorem 3.

Lemma D.1 (D.8): delta_eps = sqrt(d/n) U_r eps; Lemma D.2 (D.24)-(D.25): delta*_{1,2} = delta*/2 +- v/2
with v orthogonal to the rows of X; Lemma D.3 (D.27), (D.31): sigma(Delta) = X W Delta / sqrt d with
Delta = C W^T delta, and a second pair aligned with the rows of X W (:func:`aligned_pair`); Lemma D.4 (D.40): the
distance of an attention row to e_i; Lemma D.5 (D.48): the
change of phi_RAF. numpy float64 for the token algebra, torch for the attention map.
:func:`candidate_pairs` draws W and the four candidate pairs of Lemmas D.3-D.5 (moved verbatim, with
:func:`separation`, from properties/bombari2024/test_raf_proof.py).
"""
from __future__ import annotations

import math

import numpy as np
import torch

from attncheck.numeric.devices import torch_device
from attncheck.papers.bombari2024.readings import fraction


def rank_of(s: np.ndarray) -> int:
    """The numerical rank from singular values s (descending): those above 1e-10 times the largest."""
    return int(np.sum(s > s[0] * 1e-10)) if s.size else 0


def row_space(X: np.ndarray) -> np.ndarray:
    """U_r: the first r = rank(X) left singular vectors of X^T (d x r), as in the proof of Lemma D.1 (thin SVD)."""
    U, s, _ = np.linalg.svd(X.T, full_matrices=False)
    return U[:, :rank_of(s)]


def sphere(rng: np.random.Generator, size: int, r: int) -> np.ndarray:
    """size draws of eps uniform on the sphere sqrt(r) S^{r-1}."""
    e = rng.standard_normal((size, r))
    return e / np.linalg.norm(e, axis=1, keepdims=True) * math.sqrt(r)


def delta_eps(X: np.ndarray, eps: np.ndarray, d: int | None = None, U: np.ndarray | None = None) -> np.ndarray:
    """(D.8) delta_eps = sqrt(d / n) U_r eps for each row eps (K x r). d: the token dimension, when X is given in
    coordinates of fewer or more dimensions (:mod:`raf_reduced`); X.shape[1] by default (as in every d below).
    U: :func:`row_space` (X) when already computed."""
    n = X.shape[0]
    return math.sqrt((d or X.shape[1]) / n) * eps @ (row_space(X) if U is None else U).T


def d1_candidates(X: np.ndarray, rng: np.random.Generator, draws: int = 64, d: int | None = None) -> np.ndarray:
    """`draws` draws of (D.8) with both signs (the sign choice of (D.23)): 2 draws x d."""
    U = row_space(X)
    D = delta_eps(X, sphere(rng, draws, U.shape[1]), d, U)
    return np.concatenate([D, -D])


def d1_delta(X: np.ndarray, rng: np.random.Generator, draws: int = 64) -> np.ndarray:
    """delta* of Lemma D.1 with the sign of (D.23): among the candidates, the one with the most indices i
    such that x_i^T delta >= 0.1 d / sqrt(n) (the proof's constant)."""
    n, d = X.shape
    D = d1_candidates(X, rng, draws)
    good = np.sum(D @ X.T >= 0.1 * d / math.sqrt(n), axis=1)
    return D[int(np.argmax(good))]


def orth_v(X: np.ndarray, rng: np.random.Generator, count: int = 1) -> np.ndarray:
    """count draws (count x d) of v of (D.24): random directions of Span{rows(X)}^perp with ||v|| = sqrt(d):
    Gaussian vectors projected off the row space (isotropic in Span{rows(X)}^perp). Needs rank(X) < d."""
    U = row_space(X)
    if U.shape[1] == X.shape[1]:
        raise ValueError("rank(X) = d: no v orthogonal to the rows of X")
    G = rng.standard_normal((count, X.shape[1]))
    V = G - (G @ U) @ U.T
    return V * (math.sqrt(X.shape[1]) / np.linalg.norm(V, axis=1, keepdims=True))


def d2_pair(X: np.ndarray, delta: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(D.24)-(D.25): delta*/2 +- v/2."""
    v = orth_v(X, rng)[0]
    return delta / 2 + v / 2, delta / 2 - v / 2


def d3_best(X: np.ndarray, W: np.ndarray, rng: np.random.Generator, frac: int, draws: int = 64, vs: int = 8,
            d: int | None = None, V: np.ndarray | None = None):
    """The Lemma D.3 witness pair [Delta*_1, Delta*_2], Delta*_k = C_k W^T delta*_k (D.31) with
    delta*_{1,2} = delta*/2 +- v/2 (D.24)-(D.25) and ||Delta*_k|| = sqrt(d): among `draws` draws of (D.8)
    (both signs) and `vs` draws of v, the pair with the largest frac-th largest min_k sigma(Delta*_k)_i.
    Any pair in the ball is an admissible witness of the existence claims D.3-D.5. With M = W W^T,
    sigma(Delta_k) = X M delta_k / ||W^T delta_k||, every M-product is taken as (. W)(. W)^T: O((n + draws) d^2),
    no d x d product. V: the vs draws of v when given (:mod:`raf_reduced` draws them in coordinates)."""
    d = d or X.shape[1]
    A = d1_candidates(X, rng, draws, d)  # a x d, [D; -D]
    V = orth_v(X, rng, vs) if V is None else V  # b x d
    DW = A[:draws] @ W
    XW, AW, VW = X @ W, np.concatenate([DW, -DW]), V @ W
    aMa, vMv, aMv = np.einsum("ij,ij->i", AW, AW), np.einsum("ij,ij->i", VW, VW), AW @ VW.T  # a, b, a x b
    XMa, XMv = XW @ AW.T, XW @ VW.T  # n x a, n x b
    sig = []
    for sgn in (1.0, -1.0):
        norm = np.sqrt((aMa[:, None] + sgn * 2 * aMv + vMv[None, :]) / 4)  # ||W^T delta_k||, a x b
        sig.append((XMa[:, :, None] + sgn * XMv[:, None, :]) / 2 / norm[None])  # sigma = X M delta / ||W^T delta||
    q = -np.sort(-np.minimum(*sig), axis=0)[frac - 1]  # a x b
    ia, ib = np.unravel_index(int(np.argmax(q)), q.shape)
    out = []
    for sgn in (1.0, -1.0):
        u = W.T @ (A[ia] / 2 + sgn * V[ib] / 2)
        out.append(u * math.sqrt(d) / np.linalg.norm(u))
    return out


def top_direction(XW: np.ndarray, frac: int) -> np.ndarray:
    """The top right singular vector v of [a_j] (a_j = W^T x_j / sqrt d, XW = X W), with the sign that makes the
    frac-th largest a_j^T v larger."""
    Aj = XW / math.sqrt(XW.shape[1])
    v = np.linalg.svd(Aj, full_matrices=False)[2][0]
    proj = Aj @ v
    return -v if np.sort(-proj)[::-1][frac - 1] > np.sort(proj)[::-1][frac - 1] else v


def rows_along(XW: np.ndarray, frac: int, v: np.ndarray | None = None) -> np.ndarray:
    """frac rows J for :func:`aligned_pair`: where a_j^T v is largest (v = :func:`top_direction`, when not given)."""
    proj = XW @ (top_direction(XW, frac) if v is None else v)
    return np.argsort(-proj, kind="stable")[:frac]


def rows_toward(X: np.ndarray, XW: np.ndarray, i: int, frac: int, d: int | None = None) -> np.ndarray:
    """frac rows J != i for :func:`aligned_pair`: those whose attention already leans most toward token i,
    by the margin S_ji - logsumexp_{k != i} S_jk of the unperturbed scores S = X W X^T / sqrt d (XW = X W)."""
    S = XW @ X.T / math.sqrt(d or X.shape[1])
    others = np.delete(S, i, axis=1)
    top = others.max(axis=1)
    margin = S[:, i] - top - np.log(np.exp(others - top[:, None]).sum(axis=1))
    margin[i] = -np.inf
    return np.argsort(-margin, kind="stable")[:frac]


def pair_along(XW: np.ndarray, rng: np.random.Generator, g: np.ndarray, d: int | None = None, orth=orth_v) -> list:
    """Delta*_{1,2} = sqrt(d) (g +- h) / ||g +- h|| with h orthogonal to every row of X W and ||h|| = ||g||: then
    sigma(Delta*_1) = sigma(Delta*_2) = sqrt(d / 2) X W g / (sqrt(d) ||g||) and ||Delta*_1 - Delta*_2|| = sqrt(2 d).
    Needs rank(X) < d (h exists). orth(XW, rng): a draw of the direction h (:func:`orth_v` by default)."""
    d = d or XW.shape[1]
    h = orth(XW, rng)[0]
    h *= np.linalg.norm(g) / np.linalg.norm(h)
    return [(g + s * h) * math.sqrt(d) / np.linalg.norm(g + s * h) for s in (1.0, -1.0)]


def aligned_pair(XW: np.ndarray, rng: np.random.Generator, J, d: int | None = None, orth=orth_v) -> list:
    """A witness pair for Lemmas D.3-D.5 other than the proof's: with a_j = W^T x_j / sqrt(d) (so that
    sigma(Delta)_j = a_j^T Delta), :func:`pair_along` the minimum-norm g with a_J^T g = 1 on the rows J:
    sigma(Delta*_k)_j = sqrt(d / 2) / ||g|| on J for both k (about sqrt(d / (2 |J|)) for nearly orthogonal a_j).
    XW = X W."""
    d = d or XW.shape[1]
    Aj, J = XW / math.sqrt(d), np.asarray(J)
    rcond = np.finfo(float).eps * max(len(J), d)  # lstsq's default cut-off, in the token dimension d
    return pair_along(XW, rng, np.linalg.lstsq(Aj[J], np.ones(len(J)), rcond=rcond)[0], d, orth)


def sigma(X: np.ndarray, W: np.ndarray, Delta: np.ndarray, d: int | None = None) -> np.ndarray:
    """(D.27) sigma(Delta) = X W Delta / sqrt(d)."""
    return X @ (W @ Delta) / math.sqrt(d or X.shape[1])


def perturbed(X: np.ndarray, i: int, Delta: np.ndarray) -> np.ndarray:
    """X^i(Delta) = X + e_i Delta^T."""
    Xp = X.copy()
    Xp[i] += Delta
    return Xp


class RAFDraw:
    """phi_RAF and its attention at X and at one-token perturbations X^i(Delta), for one W. X W is formed once:
    row i of X^i(Delta) W is (x_i + Delta)^T W and the other rows are unchanged, so a perturbation costs
    O(d^2 + n^2 d) instead of O(n d^2)."""

    def __init__(self, X: np.ndarray, W: np.ndarray, device=None, XW: np.ndarray | None = None):
        dev = torch_device(device)
        self.X, self.W = torch.as_tensor(X, device=dev), torch.as_tensor(W, device=dev)
        self.XW = self.X @ self.W if XW is None else torch.as_tensor(XW, device=dev)
        self.c = math.sqrt(X.shape[1])
        self.base = torch.softmax(self.XW @ self.X.T / self.c, dim=-1) @ self.X

    def attention(self, i: int, Delta: np.ndarray):
        """(X^i(Delta), s(X^i(Delta))) with s = softmax(X W X^T / sqrt d) (D.4)."""
        D = torch.as_tensor(Delta, device=self.X.device)
        Xp, XpW = self.X.clone(), self.XW.clone()
        Xp[i] += D
        XpW[i] = Xp[i] @ self.W
        return Xp, torch.softmax(XpW @ Xp.T / self.c, dim=-1)

    def rows_to_e_i(self, i: int, Delta: np.ndarray) -> np.ndarray:
        """(D.40): ||[s(X^i(Delta))]_{j:}^T - e_i||_2 for every row j (n-vector)."""
        s = self.attention(i, Delta)[1].cpu().numpy()
        s[:, i] -= 1.0
        return np.linalg.norm(s, axis=1)

    def feature_change(self, i: int, Delta: np.ndarray) -> float:
        """(D.48): ||phi_RAF(X) - phi_RAF(X^i(Delta))||_F."""
        Xp, s = self.attention(i, Delta)
        return float((s @ Xp - self.base).norm())


def candidate_pairs(case, seed):
    """(X, W, i, pairs, draw) for one draw of W (N(0, 1/d) entries): the candidate pairs [Delta*_1, Delta*_2]
    (the proof's (D.8), (D.24)-(D.25), (D.31) and three pairs aligned with the rows of X W; each existence claim of
    Lemmas D.3-D.5 takes the best of them for its own statement) and a function giving the RAFDraw (phi_RAF and
    attention under one-token perturbations) of this W."""
    tc, i = case
    X = tc.X
    n, d = X.shape
    rng = np.random.default_rng(int(seed))
    W = rng.standard_normal((d, d)) / math.sqrt(d)
    XW, frac = X @ W, fraction(n)
    pairs = [d3_best(X, W, rng, frac), aligned_pair(XW, rng, rows_along(XW, frac)),
             aligned_pair(XW, rng, rows_toward(X, XW, i, frac)), pair_along(XW, rng, top_direction(XW, frac))]
    return X, W, i, pairs, lambda: RAFDraw(X, W, XW=XW)


def separation(Deltas, d):
    """sqrt(d) / ||Delta*_1 - Delta*_2|| (the separation term of Lemmas D.3-D.4)."""
    return math.sqrt(d) / float(np.linalg.norm(Deltas[0] - Deltas[1]))


def d4_terms(case, seed) -> tuple[float, float]:
    """Lemma D.4 for one draw of W: (separation term, sqrt(d) r) of the candidate pair that minimises their max,
    r the ceil(n / 4)-th smallest over rows j of max_k ||[s(X^i(Delta*_k))]_{j:} - e_i|| ((D.40)-(D.41)); the max
    is lemma-d.4/main's implied constant, sqrt(d) r the quantity of its little-o (lemma-d.4/little-o)."""
    X, W, i, pairs, raf_draw = candidate_pairs(case, int(seed))
    d, draw = X.shape[1], raf_draw()
    best = (math.inf, math.inf)
    for Deltas in pairs:
        r = np.maximum(draw.rows_to_e_i(i, Deltas[0]), draw.rows_to_e_i(i, Deltas[1]))
        terms = (separation(Deltas, d), math.sqrt(d) * float(np.sort(r)[fraction(X.shape[0]) - 1]))
        if max(terms) < max(best):
            best = terms
    return best
