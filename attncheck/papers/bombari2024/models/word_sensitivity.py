"""bombari2024 word sensitivity (3.4): S(X) = sup_{i, ||Delta|| <= sqrt d} ||phi(X^i(Delta)) - phi(X)|| / ||phi(X)||.

Two sides of the sup:

- :func:`ascend` gives a *lower* bound: projected gradient ascent (torch autograd) over
  Delta in the ball of radius sqrt(d), vectorised over tokens and restarts; every iterate
  is feasible, so the best value seen is a witness. It can refute an O(.) upper bound,
  never an Omega(.) lower bound (it can confirm one).
- :func:`rf_upper` / :func:`drf_upper` give *certified upper* bounds from the Lipschitz chain
  of Lemma B.1 / Lemma C.2, with the operator norm of the k x d block of token i in place of
  ||V||_op (V(flat X^i(Delta) - flat X) = V_i Delta and ||V_i||_op <= ||V||_op), bounded above
  through its Gram matrix with the rounding accounted for (:func:`op_norm`).

A *probe* maps perturbations Delta of shape (T, R, m, d) (T token groups, R restarts, m
tokens per group) to ||phi(X^I(Delta)) - phi(X)||^2 of shape (T, R). The structured probes
never build the D x D matrix V nor, per step, the n x n scores: a one-token perturbation
touches d columns of V, and one row and one column of the scores.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from attncheck.papers.bombari2024.models.random_features import ACTIVATIONS, DTYPE, Attention, RFBlocks, rf_blocks


@dataclass
class WSEstimate:
    """Lower bound per token group (ratio of (3.4)) and the witnesses Delta achieving it."""

    ratio: torch.Tensor  # (T,)
    delta: torch.Tensor  # (T, m, d)
    base_norm: float

    @property
    def lower(self) -> float:
        return float(self.ratio.max())


def _project(delta: torch.Tensor, radius: float) -> torch.Tensor:
    norm = delta.norm(dim=-1, keepdim=True)
    return delta * torch.clamp(radius / torch.clamp(norm, min=1e-300), max=1.0)


def _starts(gen, T: int, restarts: int, m: int, d: int, dev) -> torch.Tensor:
    """Random starts on the sphere of radius sqrt(d): from one generator, or from each of a list of generators
    (one per draw of the weights) for its T / len(gen) consecutive groups."""
    gens = gen if isinstance(gen, (list, tuple)) else [gen]
    delta = torch.cat([torch.randn((T // len(gens), restarts, m, d), generator=g, dtype=DTYPE, device=dev)
                       for g in gens])
    return math.sqrt(d) * delta / delta.norm(dim=-1, keepdim=True)


def maximize(objective, T: int, m: int, d: int, gen, restarts: int = 4, steps: int = 100,
             lr: float = 0.5, device=None, feasible=None, starts=None):
    """Projected (normalised) gradient ascent of ``objective`` (T, R, m, d) -> (T, R) over each row
    of Delta in the ball of radius sqrt(d); returns the best value per group and its Delta.

    Restarts start on the sphere of radius sqrt(d) in random directions (:func:`_starts`); the step is
    lr * sqrt(d) times the unit gradient, decaying linearly to 1% of it. Every iterate is
    feasible for the ball; ``feasible(delta) -> bool (T, R)`` may restrict which iterates count.
    The last iterate is only evaluated (no gradient). ``starts`` (T, R, m, d), inside the ball, replaces the
    random starts (``gen`` and ``restarts`` are then unused).
    """
    radius = math.sqrt(d)
    dev = device if device is not None else torch.device("cpu")
    delta = _starts(gen, T, restarts, m, d, dev) if starts is None else starts.detach().clone()
    restarts = delta.shape[1]
    best = torch.full((T, restarts), -math.inf, dtype=DTYPE, device=dev)
    best_delta = delta.clone()
    for t in range(steps + 1):
        last = t == steps
        with torch.enable_grad() if not last else torch.no_grad():
            delta.requires_grad_(not last)
            val = objective(delta)
            if not last:
                grad, = torch.autograd.grad(val.sum(), delta)
        with torch.no_grad():
            better = val > best
            if feasible is not None:
                better &= feasible(delta)
            best = torch.where(better, val, best)
            best_delta = torch.where(better[..., None, None], delta, best_delta)
            if last:
                break
            gnorm = grad.flatten(2).norm(dim=-1).clamp(min=1e-300)[..., None, None]
            step = lr * radius * (1.0 - 0.99 * t / steps)
            delta = _project(delta + step * grad / gnorm, radius)
    top, arg = best.max(dim=1)
    return top, best_delta[torch.arange(T, device=dev), arg].detach()


def ascend(probe, base_norm: float, T: int, m: int, d: int, gen: torch.Generator, restarts: int = 4,
           steps: int = 100, lr: float = 0.5, device=None) -> WSEstimate:
    """Lower bound on the word sensitivity of each token group: :func:`maximize` of the probe."""
    top, wit = maximize(probe, T, m, d, gen, restarts, steps, lr, device)
    return WSEstimate(torch.sqrt(torch.clamp(top, min=0.0)) / base_norm, wit, base_norm)


def ratio_at(probe, base_norm: float, delta: torch.Tensor) -> torch.Tensor:
    """The ratio of (3.4) at given perturbations (T, R, m, d) -> (T, R)."""
    with torch.no_grad():
        return torch.sqrt(probe(delta)) / base_norm


# ---- probes -------------------------------------------------------------------------------

def group_blocks(blocks: RFBlocks, groups) -> torch.Tensor:
    """The blocks of each group's tokens (T, m, k, d); a view, not a copy, when the groups are the blocks in order."""
    idx = torch.as_tensor(groups, device=blocks.A.device)
    if idx.shape[1] == 1 and torch.equal(idx[:, 0], torch.arange(len(blocks.A), device=idx.device)):
        return blocks.A[:, None]
    return blocks.A[idx]


def rf_perturbation(blocks: RFBlocks, groups, act: str, Vs=()):
    """RF (Vs empty) or DRF (Vs: layers 2..L) features of X^I(Delta); ``groups`` index rows of blocks.A.

    Returns (features, phi(X)): features maps Delta (T, R, m, d) to phi(X^I(Delta)) (T, R, k).
    """
    f = ACTIVATIONS[act].torch_fn
    A = group_blocks(blocks, groups)  # (T, m, k, d)

    def forward(pre):
        h = f(pre)
        for V in Vs:
            h = f(h @ V.T)
        return h

    def features(delta):
        return forward(blocks.z + torch.einsum("gmkd,grmd->grk", A, delta))

    return features, forward(blocks.z)


def rf_probe(blocks: RFBlocks, groups, act: str, Vs=()):
    """RF (Vs empty) or DRF (Vs: layers 2..L) probe; ``groups`` index rows of blocks.A.

    Returns (probe, ||phi(X)||).
    """
    features, base = rf_perturbation(blocks, groups, act, Vs)
    return (lambda delta: ((features(delta) - base) ** 2).sum(-1)), float(base.norm())


#: unit roundoff of float64
U64 = 2.0 ** -53


def op_norm(A: torch.Tensor) -> torch.Tensor:
    """A certified upper bound on the largest singular value over the last two axes, through the smaller Gram
    matrix G (A^T A or A A^T, inner dimension m, size p): sqrt(lambda_max(fl G) (1 + p^2 u) + gamma_m ||A||_F^2).

    Rounding of the Gram: |fl(G) - G| <= gamma_m |A|^T |A| entrywise, so ||fl(G) - G||_2 <= gamma_m ||A||_F^2
    (gamma_m = m u / (1 - m u)); the symmetric eigensolver is backward stable (error p^2 u ||G||_2 taken
    generously). Four times cheaper than an SVD of a tall block; the bound exceeds sigma_max by ~ m u d relative.
    """
    m, p = A.shape[-2:]
    At = A.transpose(-1, -2)
    G = At @ A if m >= p else A @ At
    inner, size = max(m, p), min(m, p)
    gamma = inner * U64 / (1 - inner * U64)
    lam = torch.linalg.eigvalsh(G)[..., -1].clamp(min=0.0)
    fro2 = torch.linalg.vector_norm(A, dim=(-2, -1)) ** 2 * (1 + gamma * size)
    return torch.sqrt(lam * (1 + size ** 2 * U64) + gamma * fro2) * (1 + 4 * U64)


def rf_upper(blocks: RFBlocks, groups, act: str, base_norm: float, Vs=()) -> torch.Tensor:
    """Certified upper bound per group (Lemma B.1 / C.2 chain): M^L ||[A_g]||_op prod ||V_l||_op sqrt(m d) / ||phi(X)||.

    [A_g] is the k x (m d) block of the group's tokens; sum_t A_t Delta_t = [A_g] vec(Delta)
    and ||vec(Delta)|| <= sqrt(m d).
    """
    M = ACTIVATIONS[act].lipschitz
    A = group_blocks(blocks, groups)  # (T, m, k, d)
    T, m, k, d = A.shape
    joined = A.permute(0, 2, 1, 3).reshape(T, k, m * d)
    chain = op_norm(joined) * M
    for V in Vs:
        chain = chain * M * op_norm(V)
    return chain * math.sqrt(m * d) / base_norm


def dense_probe(feature, X: torch.Tensor, groups):
    """Reference probe: builds every X^I(Delta) and calls the dense feature map. Small n only."""
    base = feature(X)
    idx = torch.as_tensor(groups, device=X.device)  # (T, m)

    def probe(delta):
        T, R, m, d = delta.shape
        Xp = X.expand(T, R, *X.shape).clone()
        for t in range(T):
            Xp[t, :, idx[t]] = Xp[t, :, idx[t]] + delta[t]
        out = torch.stack([torch.stack([feature(Xp[t, r]) for r in range(R)]) for t in range(T)])
        return ((out - base) ** 2).flatten(2).sum(-1)

    return probe, float(base.norm())


class _OneToken:
    """The one-token structure of an attention map (see :func:`attention_perturbation`): O(n^2 d) once per token,
    then O(n d) per perturbation."""

    def __init__(self, att: Attention, X: torch.Tensor, tokens):
        n, d = X.shape
        self.att, self.X = att, X
        self.tok = torch.as_tensor(tokens, device=X.device)
        self.XQ, self.XK = att.queries(X), att.keys(X)  # (n, d'): S = XQ XK^T / c
        S = self.XQ @ self.XK.transpose(-1, -2) / att.c  # att.scores(X), its factors kept
        self.Vals = att.values(X)
        self.base = att.weights(S) @ self.Vals
        mask = torch.zeros((len(self.tok), n, n), dtype=torch.bool, device=X.device)
        mask[torch.arange(len(self.tok), device=X.device), :, self.tok] = True
        if att.kind == "softmax":
            Sm = S.expand(len(self.tok), n, n).masked_fill(mask, -math.inf)
            self.r = torch.logsumexp(Sm, dim=-1)  # (T, n)
            self.U = torch.softmax(Sm, dim=-1) @ self.Vals  # (T, n, dv)
        else:
            Rm = torch.relu(S).expand(len(self.tok), n, n).masked_fill(mask, 0.0)
            self.Z = Rm.sum(-1)
            self.U = Rm @ self.Vals
        self.sel = torch.arange(n, device=X.device)[None, :] == self.tok[:, None]  # (T, n): row i of each token

    def linear(self, delta):
        """(v_i', S'_{j i} for every j, the scores of row i) at Delta (T, R, 1, d): this draw's products."""
        att = self.att
        x_new = self.X[self.tok][:, None, :] + delta[:, :, 0, :]  # (T, R, d)
        v_new = x_new if att.WV is None else x_new @ att.WV.T
        q_new, k_new = att.queries(x_new), att.keys(x_new)  # (T, R, d')
        col = torch.einsum("ne,tre->trn", self.XQ, k_new) / att.c  # S'_{j i}, j != i
        row = torch.einsum("tre,ne->trn", q_new, self.XK) / att.c  # S'_{i k}, k != i
        diag = (q_new * k_new).sum(-1) / att.c
        return v_new, col, torch.where(self.sel[:, None, :], diag[..., None], row)


class _Draws:
    """The one-token structure of S draws of an attention map (one :class:`_OneToken` each), their token groups
    stacked (groups of draw s after those of draws < s): each draw's products are its own, the rest is
    evaluated once for all draws."""

    def __init__(self, ones: list[_OneToken]):
        self.ones, self.att = ones, ones[0].att
        self.sizes = [len(o.tok) for o in ones]
        cat = lambda name: torch.cat([getattr(o, name) for o in ones])  # noqa: E731
        self.sel, self.U = cat("sel"), cat("U")
        self.r, self.Z = (cat("r"), None) if self.att.kind == "softmax" else (None, cat("Z"))
        self.vals_tok = torch.cat([o.Vals[o.tok] for o in ones])  # (T, dv)
        self.base_tok = torch.cat([o.base[o.tok] for o in ones])
        self.B = torch.cat([o.base.expand_as(o.U) for o in ones])  # (T, n, dv): phi(X) of each group's draw
        if self.att.kind == "softmax":  # the Delta-free terms of probe's row changes
            self.P = self.U - self.B
            self.PP, self.PU, self.UU = ((self.P * self.P).sum(-1), (self.P * self.U).sum(-1), (self.U * self.U).sum(-1))
        else:
            self.Q = self.U - self.Z[..., None] * self.B
            self.QQ, self.QB, self.BB = ((self.Q * self.Q).sum(-1), (self.Q * self.B).sum(-1), (self.B * self.B).sum(-1))

    def perturbed(self, delta):
        """(v_i', S'_{j i} for every j, the output row i) at Delta (T, R, 1, d)."""
        parts = [o.linear(dl) for o, dl in zip(self.ones, delta.split(self.sizes), strict=True)]
        v_new, col, scores_i = (torch.cat(p) for p in zip(*parts, strict=True))
        w = self.att.weights(scores_i)  # (T, R, n)
        w_i = (w * self.sel[:, None, :]).sum(-1, keepdim=True)  # weight on the new token
        wv = torch.cat([wd @ o.Vals for o, wd in zip(self.ones, w.split(self.sizes), strict=True)])
        out_i = wv + w_i * (v_new - self.vals_tok[:, None, :])
        return v_new, col, out_i

    def features(self, delta):
        v_new, col, out_i = self.perturbed(delta)
        if self.att.kind == "softmax":
            a = torch.sigmoid(col - self.r[:, None, :])[..., None]
            out = (1 - a) * self.U[:, None] + a * v_new[:, :, None, :]
        else:
            g = torch.relu(col)[..., None]
            den = self.Z[:, None, :, None] + g
            num = self.U[:, None] + g * v_new[:, :, None, :]
            out = torch.where(den > 0, num / torch.where(den > 0, den, torch.ones_like(den)), torch.zeros_like(num))
        return torch.where(self.sel[:, None, :, None], out_i[:, :, None, :], out)

    def probe(self, delta):
        """||phi(X^i(Delta)) - phi(X)||^2 without the (T, R, n, dv) outputs: for j != i the row change is
        P_j + a_j (v - U_j) (softmax, P = U - base) or (Q_j + g_j (v - base_j)) / (Z_j + g_j) (ReLU, Q = U - Z base),
        whose squared norms expand into inner products with v: two (T, R, dv) x (T, n, dv) products (the Delta-free
        ones, PP, PU, UU or QQ, QB, BB, once per draw)."""
        v, col, out_i = self.perturbed(delta)
        vv = (v * v).sum(-1, keepdim=True)  # (T, R, 1)
        if self.att.kind == "softmax":
            a = torch.sigmoid(col - self.r[:, None, :])
            Pv, Uv = torch.einsum("tnd,trd->trn", self.P, v), torch.einsum("tnd,trd->trn", self.U, v)
            rows = self.PP[:, None] + 2 * a * (Pv - self.PU[:, None]) + a * a * (vv - 2 * Uv + self.UU[:, None])
        else:
            g = torch.relu(col)
            den = self.Z[:, None, :] + g
            Qv, Bv = torch.einsum("tnd,trd->trn", self.Q, v), torch.einsum("tnd,trd->trn", self.B, v)
            num2 = self.QQ[:, None] + 2 * g * (Qv - self.QB[:, None]) + g * g * (vv - 2 * Bv + self.BB[:, None])
            rows = torch.where(den > 0, num2 / torch.where(den > 0, den, torch.ones_like(den)) ** 2,
                               self.BB[:, None].expand_as(num2))
        rows = torch.where(self.sel[:, None, :], torch.zeros_like(rows), rows).sum(-1)
        return rows + ((out_i - self.base_tok[:, None, :]) ** 2).sum(-1)


def attention_perturbation(att: Attention, X: torch.Tensor, tokens):
    """One-token perturbations of an attention map: O(n^2 d) once per token, O(n d) per evaluation.

    Returns (features, phi(X)): features maps Delta (T, R, 1, d) to phi(X^i(Delta)) (T, R, n, dv), i = tokens[t].

    Rows j != i keep their scores except column i: with r_j / U_j the log-normaliser /
    output of row j over k != i (softmax), out_j = (1 - a_j) U_j + a_j v_i' with
    a_j = sigmoid(S'_ji - r_j); for ReLU-RAF, out_j = (U_j + relu(S'_ji) v_i') / (Z_j + relu(S'_ji)).
    Row i is recomputed in full (n scores).
    """
    one = _OneToken(att, X, tokens)
    return _Draws([one]).features, one.base


def attention_probe(att: Attention, X: torch.Tensor, tokens):
    """One-token probe for an attention map: ||phi(X^i(Delta)) - phi(X)||^2 (T, R) in O(n d) per evaluation,
    through inner products (:meth:`_Draws.probe`). Returns (probe, ||phi(X)||)."""
    one = _OneToken(att, X, tokens)
    return _Draws([one]).probe, float(one.base.norm())


def groups_of(tokens) -> list[list[int]]:
    """Single-token groups [[i] for i in tokens]."""
    return [[int(i)] for i in tokens]


# ---- one call per model: the bracket [lower, upper] of the word sensitivity -----------------

@dataclass
class Bracket:
    """WS of a token subset: ``lower`` (ascent witness, max over groups), ``upper`` (certified, or None),
    per-group lower bounds, the sizes used and ``sup``, the witness's numerator max ||phi(X') - phi(X)|| (RF/DRF).
    Where phi(X) = 0 (relu: every unit of a layer off) the ratio (3.4) is undefined: ``lower`` is +inf there (the
    engine's quantile ranks such draws last), ``sup`` stays finite."""

    lower: float
    upper: float | None
    per_group: torch.Tensor
    base_norm: float
    groups: list
    upper_over: str  # "all tokens", "groups", or "none"
    sup: float | None = None


def random_tokens(n: int, count: int, gen: torch.Generator) -> list[int]:
    """Token 0 (the paper's choice), token n - 1 and random others: ``count`` distinct tokens."""
    if count >= n:
        return list(range(n))
    rest = torch.randperm(n, generator=gen, device=gen.device)[: count + 2].tolist()
    out = list(dict.fromkeys([0, n - 1] + rest))
    return out[:count]


@dataclass
class _RFDraw:
    """One draw of the RF/DRF weights seen by the ascent: first-layer blocks, groups (rows of blocks.A), Vs."""

    blocks: RFBlocks
    gidx: list
    Vs: list


def _rf_draw(X: torch.Tensor, k: int, groups, gen: torch.Generator, depth: int, beta: float,
             upper_all: bool) -> _RFDraw:
    """The first layer block by block (exact law of V, :func:`rf_blocks`) and the dense k x k layers 2..L."""
    n = X.shape[0]
    tokens = list(range(n)) if upper_all else sorted({i for g in groups for i in g})
    blocks = rf_blocks(X, tokens, k, gen, scale2=beta)
    where = {t: j for j, t in enumerate(tokens)}
    Vs = [torch.randn((k, k), generator=gen, dtype=DTYPE, device=X.device) * math.sqrt(beta / k)
          for _ in range(depth - 1)]
    return _RFDraw(blocks, [[where[i] for i in g] for g in groups], Vs)


def _stacked_blocks(draws: list[_RFDraw]) -> torch.Tensor:
    """The group blocks of S draws, draw after draw (S T, m, k, d); one draw's without a copy."""
    blocks = [group_blocks(dr.blocks, dr.gidx) for dr in draws]
    return blocks[0] if len(blocks) == 1 else torch.cat(blocks)


def stacked_rf_probe(draws: list[_RFDraw], act: str):
    """The RF/DRF probe of S draws at once, the T groups of draw s being groups s T .. (s + 1) T - 1 of the
    ascent; layer l multiplies each draw's rows by its own V_l (one batched product over the draws). Returns
    (probe, ||phi(X)|| per draw)."""
    f = ACTIVATIONS[act].torch_fn
    S, T = len(draws), len(draws[0].gidx)
    k = draws[0].blocks.z.shape[0]
    A = _stacked_blocks(draws)  # (S T, m, k, d)
    z = torch.stack([dr.blocks.z for dr in draws])[:, None, :]  # (S, 1, k)
    bases = [rf_perturbation(dr.blocks, dr.gidx, act, dr.Vs)[1] for dr in draws]
    base = torch.stack(bases)[:, None, :]
    layers = [torch.stack([dr.Vs[layer] for dr in draws]).transpose(1, 2) for layer in range(len(draws[0].Vs))]

    def probe(delta):  # (S T, R, m, d) -> (S T, R)
        R = delta.shape[1]
        h = f(z + torch.einsum("gmkd,grmd->grk", A, delta).reshape(S, T * R, k))
        for Vt in layers:  # (S, k, k): V_l^T of each draw
            h = f(torch.bmm(h, Vt))
        return ((h - base) ** 2).sum(-1).reshape(S * T, R)

    return probe, [float(b.norm()) for b in bases]


def _derivative(act: str, x: torch.Tensor) -> torch.Tensor:
    """phi'(x) entrywise (autograd of the activation; relu'(0) = 0)."""
    with torch.enable_grad():
        x = x.detach().requires_grad_(True)
        grad, = torch.autograd.grad(ACTIVATIONS[act].torch_fn(x).sum(), x)
    return grad


def rf_jacobians(draws: list[_RFDraw], act: str) -> torch.Tensor:
    """J_g = d phi_L(z + A_g Delta) / d Delta at Delta = 0 for the one-token groups of S draws (the T groups of
    draw s being rows s T .. (s + 1) T - 1): (S T, k, d). Forward-mode through the layers, one batched product
    per layer over the draws: P_1 = phi'(z) A_g, P_{l+1} = phi'(V_{l+1} h_l) V_{l+1} P_l. O(L k^2 T d) per draw."""
    S, T = len(draws), len(draws[0].gidx)
    A = _stacked_blocks(draws)  # (S T, m, k, d)
    if A.shape[1] != 1:
        raise ValueError("rf_jacobians needs one-token groups")
    A = A[:, 0]
    k, d = A.shape[1:]
    z = torch.stack([dr.blocks.z for dr in draws])  # (S, k)
    P = _derivative(act, z).repeat_interleave(T, 0)[:, :, None] * A
    h = ACTIVATIONS[act].torch_fn(z)
    for layer in range(len(draws[0].Vs)):
        V = torch.stack([dr.Vs[layer] for dr in draws])  # (S, k, k)
        pre = torch.bmm(V, h[:, :, None])[..., 0]
        VP = torch.bmm(V, P.reshape(S, T, k, d).permute(0, 2, 1, 3).reshape(S, k, T * d))
        P = _derivative(act, pre).repeat_interleave(T, 0)[:, :, None] * \
            VP.reshape(S, k, T, d).permute(0, 2, 1, 3).reshape(S * T, k, d)
        h = ACTIVATIONS[act].torch_fn(pre)
    return P


def linear_starts(draws: list[_RFDraw], act: str) -> torch.Tensor:
    """Starts (S T, 2, 1, d) for :func:`maximize`: +- sqrt(d) v_g with v_g the top right singular vector of the
    Jacobian J_g (:func:`rf_jacobians`), the maximiser over the sqrt(d) ball of the linearised change
    ||J_g Delta||; inside the ball, so every value of the ascent from them is a witness."""
    J = rf_jacobians(draws, act)
    v = torch.linalg.svd(J, full_matrices=False)[2][:, 0, :] * math.sqrt(J.shape[-1])
    return torch.stack([v, -v], 1)[:, :, None, :]


def rf_brackets(X: torch.Tensor, k: int, act: str, groups, gens, depth: int = 1, beta: float = 1.0,
                restarts: int = 4, steps: int = 60, upper_all: bool = True, lower: bool = True,
                upper: bool = True, linear: bool = False, lr: float = 0.5) -> list[Bracket]:
    """RF (depth 1, beta = 1: (3.1)) or DRF (depth L, He beta: (4.2)) word sensitivity of token groups, one
    Bracket per draw of the weights (generator gens[s], token groups groups[s], the same count T in each):
    the ascent lower bound (``lower``, every draw in one ascent) and the certified upper bound (``upper``),
    each on request. With ``linear`` (one-token groups) the ascent starts at :func:`linear_starts` (two starts,
    ``restarts`` unused) instead of random points of the sphere.

    The first layer is drawn block by block (exact law of V); with ``upper_all`` every token's
    block is drawn, so the certified upper bound covers the sup over all i of (3.4); otherwise
    only the groups' tokens (the bound then covers the groups only). Layers 2..L are dense k x k.
    """
    n, d = X.shape
    draws = [_rf_draw(X, k, gr, g, depth, beta, upper_all) for gr, g in zip(groups, gens, strict=True)]
    S, T, m = len(draws), len(groups[0]), len(groups[0][0])
    probe, bases = stacked_rf_probe(draws, act)
    per = None
    if lower:
        starts = linear_starts(draws, act) if linear else None
        top, _ = maximize(probe, S * T, m, d, list(gens), restarts, steps, lr=lr, device=X.device, starts=starts)
        sups = torch.sqrt(torch.clamp(top, min=0.0)).reshape(S, T)
        per = [r / b if b > 0 else torch.full_like(r, math.inf) for r, b in zip(sups, bases, strict=True)]
    out = []
    for s, dr in enumerate(draws):
        base = bases[s]
        up, over = None, "none"
        if upper and m == 1 and upper_all:
            up, over = float(rf_upper(dr.blocks, [[j] for j in range(n)], act, base, dr.Vs).max()), "all tokens"
        elif upper:
            up, over = float(rf_upper(dr.blocks, dr.gidx, act, base, dr.Vs).max()), "groups"
        low = float(per[s].max()) if lower else float("nan")
        out.append(Bracket(low, up, per[s] if lower else None, base, [list(g) for g in groups[s]], over,
                           float(sups[s].max()) if lower else None))
    return out


def score_starts(att: Attention, X: torch.Tensor, tokens) -> torch.Tensor:
    """Starts (T, 4, 1, d) on the sqrt(d) sphere along +- M x_i and +- M^T x_i, M = Q^T K the score matrix (S = X M X^T
    / c; RAF: M = W): the gradients in x_i' of the perturbed token's own scores x_i'^T M x_i and x_i^T M x_i' (its
    self-score (x_i'^T M x_i') has gradient (M + M^T) x_i at x_i). For ReLU-RAF, random starts stay in a basin at
    about half the value these starts reach (measurement in docs/papers/bombari2024.md, 'ReLU-RAF ascent')."""
    x = X[torch.as_tensor(list(tokens), device=X.device)]  # (T, d)
    kx = att.keys(x)  # K x_i (T, d')
    qx = att.queries(x)  # Q x_i
    mx = kx @ att.Q  # M x_i = Q^T K x_i
    mtx = qx if att.K is None else qx @ att.K  # M^T x_i = K^T Q x_i
    v = torch.stack([mx, mtx, -mx, -mtx], 1)
    return (math.sqrt(X.shape[1]) * v / v.norm(dim=-1, keepdim=True).clamp(min=1e-300))[:, :, None, :]


def attention_brackets(atts: list[Attention], X: torch.Tensor, tokens, gens, restarts: int = 4, steps: int = 60,
                       chunk: int = 16, aligned: bool = False) -> list[Bracket]:
    """Attention-map word sensitivity of each token in ``tokens[s]`` under the map ``atts[s]`` drawn by generator
    ``gens[s]`` (lower bounds; no certified upper): one ascent for every draw, chunk by chunk of tokens. With
    ``aligned`` the four :func:`score_starts` of each token join the ``restarts`` random starts."""
    d = X.shape[1]
    ratios = [[] for _ in atts]
    for c in range(0, len(tokens[0]), chunk):
        ones = [_OneToken(att, X, list(tok)[c:c + chunk]) for att, tok in zip(atts, tokens, strict=True)]
        T = sum(len(o.tok) for o in ones)
        starts = None
        if aligned:
            starts = torch.cat([_starts(list(gens), T, restarts, 1, d, X.device), torch.cat([score_starts(att, X, o.tok.tolist())
                                                 for att, o in zip(atts, ones, strict=True)])], 1)
        top, _ = maximize(_Draws(ones).probe, T, 1, d, list(gens), restarts, steps, device=X.device, starts=starts)
        for r, o, part in zip(ratios, ones, torch.sqrt(torch.clamp(top, min=0.0)).split([len(o.tok) for o in ones]),
                              strict=True):
            r.append(part / float(o.base.norm()))
    out = []
    for r, tok, o in zip(ratios, tokens, ones, strict=True):
        per = torch.cat(r)
        out.append(Bracket(float(per.max()), None, per, float(o.base.norm()), [[int(i)] for i in tok], "none"))
    return out
