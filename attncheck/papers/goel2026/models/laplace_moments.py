"""tr Var_{-i}(mu_i) given the query, exactly (to quadrature accuracy), at a cost independent of n (goel2026 Lemmas
14 and 17).

Query x_i fixed, the other N = n - 1 keys i.i.d. N(0, Sigma), self-term included (notation of softmax_moments). With
u = B^T x_i, sigma = (u^T Sigma u)^{1/2} = q^{1/2}, a = Sigma u / sigma and m = a sigma, a key is x_j = m + a y_j + r_j,
y_j = z_j - sigma, z_j ~ N(0, 1) its standardized score and r_j ~ N(0, Sigma - a a^T) independent of z_j. The weights
are e_0 = e^s (self) and e_j = e^{sigma z_j}, S = e_0 + sum_j e_j, so

    mu_i - m = (e_0 (x_i - m) + a sum_j e_j y_j + sum_j e_j r_j) / S,

and tr Var_{-i}(mu_i) = E||mu_i - m||^2 - ||E mu_i - m||^2 needs six scalar moments of (A, Y) = (e_0 / S,
sum_j e_j y_j / S) and sum_j p_ij^2 (the r_j's share). Each is a Laplace integral, 1/S = int_0^inf e^{-tS} dt and
1/S^2 = int_0^inf t e^{-tS} dt, whose integrand factorizes over the i.i.d. keys into powers of one-dimensional Gaussian
integrals phi(t) = E e^{-tw}, psi_1 = E[w y e^{-tw}], psi_2 = E[w^2 y^2 e^{-tw}], chi = E[w^2 e^{-tw}] (w = e^{sigma z}):

    E A = e_0 int e^{-t e_0} phi^N,              E A^2 = e_0^2 int t e^{-t e_0} phi^N,
    E Y = N int e^{-t e_0} psi_1 phi^{N-1},      E A Y = e_0 N int t e^{-t e_0} psi_1 phi^{N-1},
    E Y^2 = int t e^{-t e_0} (N psi_2 phi^{N-1} + N (N - 1) psi_1^2 phi^{N-2}),
    E sum_j p_ij^2 = N int t e^{-t e_0} chi phi^{N-1}.

Centring at m (E[w y] = 0, so psi_1 = E[w y expm1(-tw)] is O(t)) keeps every variance a difference of an O(1/n) and an
O(1/n^2) term. Quadrature: t = T_0 e^v with T_0 = 1 / (N E w + e_0) (so that E S T_0 = 1), the trapezoid rule in v
and in z (both integrands analytic in a strip: spectral accuracy), blocks of v until the integrand is negligible.
Halving both steps moves no moment by 1e-8 relative for n >= 64 and sigma <= 3.5 (q <= 12); below n ~ 16 a large sigma
needs finer z steps (one key's weight then spans many decades of t).
"""
from __future__ import annotations

import math

import numpy as np

from attncheck.papers.goel2026.models import stein_forms as sf

H_V = 0.3  # trapezoid step in v = log(t / T_0): error ~ e^{-2 pi 1.2 / H_V}
V_MAX = 80.0  # a cap: the blocks stop well before (e^{-t e_0} with t e_0 >= e^{V_MAX} T_0 e_0)
V_MIN = -20.0  # below it the 1/S^2 integrands are O(e^{2 V_MIN}); the 1/S one's tail is added in closed form
Z_HALF = 7.5  # z from -Z_HALF to 2 sigma + Z_HALF: the Gaussian tilted by w^0, w^1, w^2 to 7.5 standard deviations
Z_STEP = 0.3  # trapezoid step in z: at most Z_STEP / sigma (e^{-t e^{sigma z}} is analytic for |Im z| < pi / (2 sigma))
LOG_TINY = -36.0  # stop the v blocks where log(t^2 e^{-t e_0} phi^N) < LOG_TINY for every query
BLOCK = 24  # v nodes per block
CHUNK = 64  # queries per chunk (sorted by sigma: one z grid per chunk)


def tilt_parts(x, B, Sigma):
    """Per query (rows of x): s, sigma, ||x - m||^2, (x - m).a, ||a||^2, tr Sigma - ||a||^2 (a = 0 where sigma = 0)."""
    u = x @ B  # rows u^T = x^T B
    Su = u @ Sigma  # rows m^T
    q = np.sum(u * Su, axis=1)
    sigma = np.sqrt(q)
    a = Su / np.where(sigma > 0, sigma, 1.0)[:, None]  # 0 at sigma = 0: every score 0, every key residual
    D = x - Su
    aa = np.sum(a * a, axis=1)
    return np.sum(x * u, axis=1), sigma, np.sum(D * D, axis=1), np.sum(D * a, axis=1), aa, np.trace(Sigma) - aa


def scalar_moments(s, sigma, n: int) -> np.ndarray:
    """(size, 6): E A, E Y, E A^2, E A Y, E Y^2, E sum_j p_ij^2 per (s, sigma) (module docstring), N = n - 1 keys."""
    return _by_chunks(_chunk, s, sigma, n, 6)


def _by_chunks(chunk, s, sigma, n: int, width: int) -> np.ndarray:
    """``chunk(s, sigma, N)`` over chunks of the queries sorted by sigma (one z grid per chunk), (size, width)."""
    s, sigma = np.asarray(s, float), np.asarray(sigma, float)
    out = np.empty((len(s), width))
    order = np.argsort(sigma)
    for a in range(0, len(s), CHUNK):
        idx = order[a:a + CHUNK]
        out[idx] = chunk(s[idx], sigma[idx], n - 1)
    return out


def _grid(s, sigma, N):
    """(e_0 T_0, log(T_0 w), y, log of the z trapezoid weights), per (query, z node): one z grid for the chunk."""
    h = min(Z_STEP / max(sigma.max(), 1.0), 0.4)
    z = np.arange(-Z_HALF, 2 * sigma.max() + Z_HALF + h, h)
    log_T0 = -np.logaddexp(math.log(N) + sigma ** 2 / 2, s)
    log_w = log_T0[:, None] + sigma[:, None] * z  # log(T_0 w) per (query, z)
    log_g = math.log(h) - z * z / 2 - 0.5 * math.log(2 * math.pi)
    return np.exp(s + log_T0), log_w, z - sigma[:, None], np.broadcast_to(log_g, log_w.shape)


def _v_blocks(e0, log_w, N, C, n_centred: int, power: int):
    """Per run of v blocks: (tau, F, wt) on its nodes, F (c, q, v) = E[c(w, y) e^{-tw}] for the z weights C (q, z, c)
    (by expm1(-tw) for the first ``n_centred``: E c = 0, exactly 0 at t = 0), wt[k] = H_V tau e^{-t e_0} phi^{N - k}
    (k = 0..power, 0 where N < k): dt = tau dv. C[..., 0] and C[..., -1] must be the Gaussian weights (phi - 1 and
    phi). Stops after the first block where tau^power e^{-t e_0} phi^N is negligible for every query. The first run
    holds every block up to the first that can stop (e^{-t e_0} phi^N >= e^{-t E S} = e^{-e^v}, Jensen), the later ones
    one block each: the sums over v are taken block by block (:func:`_accumulate`), so the runs change no number."""
    starts = range(0, int((V_MAX - V_MIN) / H_V), BLOCK)
    first = next((i for i, a in enumerate(starts) if V_MIN + H_V * (a + BLOCK - 1) > math.log(-LOG_TINY)), 0)
    centred = np.arange(C.shape[2]) < n_centred
    C0, C1 = C[:, :, centred], C[:, :, ~centred]  # (the layout of a boolean index, which fixes BLAS's sums)
    E = np.empty((BLOCK,) + log_w.shape)  # expm1(-tw) per (v, q, z) of one block
    Et = E.transpose(1, 0, 2)
    for run in [starts[:first + 1]] + [[a] for a in starts[first + 1:]]:
        v = V_MIN + H_V * np.arange(run[0], run[-1] + BLOCK)
        F = np.empty(C.shape[:1] + v.shape + C.shape[2:])
        for rows in (slice(a, a + BLOCK) for a in range(0, len(v), BLOCK)):
            np.add(v[rows, None, None], log_w, out=E)  # log(t w)
            np.expm1(np.negative(np.exp(E, out=E), out=E), out=E)
            np.matmul(Et, C0, out=F[:, rows, :n_centred])
            E += 1  # e^{-tw} itself: no cancellation against E c (e^{9 sigma^2 / 2} for w^3)
            np.matmul(Et, C1, out=F[:, rows, n_centred:])
        F = np.ascontiguousarray(np.moveaxis(F, 2, 0))
        tau = np.exp(v)
        phi = np.maximum(F[-1], 1e-300)  # phi to absolute accuracy; log1p(phi - 1) to relative where phi > 1/2
        log_phi = np.where(F[0] > -0.5, np.log1p(np.maximum(F[0], -0.5)), np.log(phi))
        log_G = N * log_phi - tau * e0[:, None]  # e^{-t e_0} phi^N
        ends = [i for i in range(BLOCK - 1, len(v), BLOCK)
                if v[i] > 0 and np.all(log_G[:, i] + power * v[i] < LOG_TINY)]
        nv = ends[0] + 1 if ends else len(v)
        tau, F, log_phi, log_G = tau[:nv], F[:, :, :nv], log_phi[:, :nv], log_G[:, :nv]
        wt = [H_V * tau * np.exp(log_G - k * log_phi) if N >= k else np.zeros_like(log_G) for k in range(power + 1)]
        if run[0] == 0:
            for x in wt:
                x[:, 0] /= 2  # the trapezoid's end node
        yield tau, F, wt
        if ends:
            return
    raise RuntimeError("laplace_moments: the v blocks did not reach a negligible integrand")


def _accumulate(acc, factors, terms):
    """acc += factors * (each v integrand in ``terms`` (q, v) summed over each v block), block by block."""
    sums = np.stack(terms, axis=1).reshape(len(acc), len(terms), -1, BLOCK).sum(axis=3)
    for b in range(sums.shape[2]):
        acc += factors * sums[:, :, b]


def _weights(log_w, log_g, *powers):
    """The z weights w^k g per (query, z) for each k in ``powers`` (w = T_0 e^{sigma z}, g the Gaussian's)."""
    return [np.exp(k * log_w + log_g) for k in powers]


def _chunk(s, sigma, N):
    """:func:`scalar_moments` for queries with one z grid (``sigma`` at most its largest)."""
    e0, log_w, y, log_g = _grid(s, sigma, N)
    g, w, w2 = _weights(log_w, log_g, 0, 1, 2)
    # the z weights of phi - 1, psi_1 (times expm1(-tw): E[w y] = 0), psi_2, chi and phi (times e^{-tw})
    C = np.stack([g, w * y, w2 * y * y, w2, g], axis=2)
    acc = np.zeros((len(s), 6))
    factors = _scalar_factors(e0, N)
    for tau, F, wt in _v_blocks(e0, log_w, N, C, 2, 2):
        _accumulate(acc, factors, _scalar_terms(N, tau, wt, F[1], F[2], F[3]))
    return _add_tail(acc, e0)


def _scalar_factors(e0, N):
    """Per query, the factors of :func:`scalar_moments`' six v integrals (:func:`_scalar_terms`), (q, 6)."""
    N1 = N * np.ones_like(e0)
    return np.stack([e0, N1, e0 * e0, e0 * N, N1, N1], axis=1)


def _scalar_terms(N, tau, wt, p1, p2, chi):
    """The v integrands of :func:`scalar_moments`' six, less their factors (psi_1, psi_2, chi on the nodes)."""
    wt, wt1, wt2 = wt[:3]
    tw1 = tau * wt1
    return [wt, wt1 * p1, tau * wt, tw1 * p1, tau * (wt1 * p2 + (N - 1) * wt2 * p1 * p1), tw1 * chi]


def _add_tail(acc, e0):
    """E A below V_MIN (G = 1 - t + O(t^2) there: E S T_0 = 1), and the trapezoid's end correction h^2 / 12
    f'(V_MIN), added to column 0 (every other moment's integrand is O(t^2) there)."""
    t_min = math.exp(V_MIN)
    acc[:, 0] += e0 * t_min * (1 - t_min / 2 + H_V * H_V / 12)
    return acc


def bias_moments(s, sigma, n: int) -> np.ndarray:
    """(size, 16): the moments of the gradient bias (Theorem 4): :func:`scalar_moments`' six, then ten more with U = sum_j p_ij
    (y_j^2 - 1), V = sum_j p_ij^2 y_j, P = sum_j p_ij^2: E U, E A U, E Y U, E V (1/S and 1/S^2 integrals) and E A^3,
    E A^2 Y, E A Y^2, E Y^3, E P A, E P Y (1/S^3 = int t^2 / 2 e^{-tS} dt); in the notation of the module docstring,
    with the one-key integrals psi_{k,b} = E[w^k y^b e^{-tw}] (y^2 - 1 in place of y^2 where it keeps E = 0 at t = 0):
    E U = N int e^{-t e_0} psi_{1,u} phi^{N-1}, E A U = e_0 N int t e^{-t e_0} psi_{1,u} phi^{N-1},
    E Y U = int t e^{-t e_0} (N psi_{2,yu} phi^{N-1} + N (N-1) psi_1 psi_{1,u} phi^{N-2}), E V = N int t e^{-t e_0}
    psi_{2,1} phi^{N-1}; and with t^2 / 2 e^{-t e_0}: e_0^3 phi^N, e_0^2 N psi_1 phi^{N-1}, e_0 (N psi_2 phi^{N-1} +
    N (N-1) psi_1^2 phi^{N-2}), N psi_{3,3} phi^{N-1} + 3 N (N-1) psi_2 psi_1 phi^{N-2} + N (N-1) (N-2) psi_1^3
    phi^{N-3}, e_0 N chi phi^{N-1}, N psi_{3,1} phi^{N-1} + N (N-1) chi psi_1 phi^{N-2} (U, V: centred; the 1/S
    integrals' t below V_MIN is O(t^2): negligible)."""
    return _by_chunks(_bias_chunk, s, sigma, n, 16)


def _bias_chunk(s, sigma, N):
    """:func:`bias_moments` for queries with one z grid (one pass over the v blocks for all sixteen)."""
    e0, log_w, y, log_g = _grid(s, sigma, N)
    g, w, w2, w3 = _weights(log_w, log_g, 0, 1, 2, 3)
    u = y * y - 1
    C = np.stack([g, w * y, w * u, w2 * y, w2, w2 * y * y, w2 * y * u, w3 * y, w3 * y ** 3, g], axis=2)
    acc = np.zeros((len(s), 16))
    one = np.ones_like(e0)
    factors = np.concatenate([_scalar_factors(e0, N), np.stack(
        [N * one, e0 * N, one, N * one, e0 ** 3, e0 ** 2 * N, e0, one, e0 * N, one], axis=1)], axis=1)
    M1, M2 = N * (N - 1), N * (N - 1) * (N - 2)
    for tau, F, wt in _v_blocks(e0, log_w, N, C, 3, 3):
        p1, pu, p21, chi, p2, p2u, p31, p33 = F[1:9]
        wt1, wt2, wt3 = wt[1:]
        t2 = tau * tau / 2  # the 1/S^3 kernel (tau: the 1/S^2 one)
        tw1, t2w1, Nw1, M1w2 = tau * wt1, t2 * wt1, N * wt1, M1 * wt2
        M1w2p1 = M1w2 * p1
        # E U, E A U, E Y U, E V, E A^3, E A^2 Y, E A Y^2, E Y^3, E P A, E P Y (bias_moments), less their factors
        _accumulate(acc, factors, _scalar_terms(N, tau, wt, p1, p2, chi) + [
            wt1 * pu, tw1 * pu, tau * (Nw1 * p2u + M1w2p1 * pu), tw1 * p21, t2 * wt[0], t2w1 * p1,
            t2 * (Nw1 * p2 + M1w2p1 * p1), t2 * (Nw1 * p33 + 3 * M1 * wt2 * p2 * p1 + M2 * wt3 * p1 ** 3),
            t2w1 * chi, t2 * (Nw1 * p31 + M1w2 * chi * p1)])
    return _add_tail(acc, e0)


def n_tr_var(x, B, Sigma, n: int) -> np.ndarray:
    """n tr Var_{-i}(mu_i) per query (rows of x), exactly (module docstring): Lemma 14's quantity, whose mean over x_i is
    Lemma 17's."""
    s, sigma, DD, Da, aa, perp = tilt_parts(np.atleast_2d(x), B, Sigma)
    EA, EY, EAA, EAY, EYY, P2 = scalar_moments(s, sigma, n).T
    var = DD * (EAA - EA * EA) + 2 * Da * (EAY - EA * EY) + aa * (EYY - EY * EY) + perp * P2
    return n * var


def tr_var_cv(x, B, Sigma, n: int) -> np.ndarray:
    """Per query, tr Var_{-i}(mu_i) (:func:`n_tr_var` / n) less stein_forms.query_cv / n (of mean 0 over x_i ~ N(0, Sigma),
    following the leading term e^q (tr Sigma + |m|^2) / n): the same mean (Lemma 17), less spread over the queries."""
    return (n_tr_var(x, B, Sigma, n) - sf.query_cv(x, B, Sigma, n)) / n
