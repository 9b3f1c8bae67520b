"""Conditional moments of one query's softmax weights (goel2026 Lemmas 9-23), by Monte Carlo.

Query x_i fixed, keys x_1..x_n with x_i among them (self-term) and the other n - 1 keys
i.i.d. N(0, Sigma): one draw of x_{-i} costs O(n d), never an n x n matrix. Notation of the
claims file: m(x) = Sigma B^T x, q(x) = x^T B Sigma B^T x, s(x) = x^T B x, mu_i = sum_j p_ij x_j,
C_i = sum_j p_ij (x_j - mu_i)(x_j - mu_i)^T.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np


def tilt(x_i, B, Sigma) -> tuple[float, float, np.ndarray]:
    """(q, s, m) = (x^T B Sigma B^T x, x^T B x, Sigma B^T x)."""
    u = B.T @ x_i
    return float(u @ Sigma @ u), float(x_i @ B @ x_i), Sigma @ u


@dataclass
class QueryDraws:
    """Softmax quantities of one query over ``size`` draws of the other n - 1 keys."""

    p_self: np.ndarray  # (size,) p_ii
    p_other: np.ndarray  # (size, n - 1) p_ij, j != i
    mu: np.ndarray  # (size, d)
    keys: np.ndarray | None  # (size, n - 1, d); None when drawn by :func:`score_draws`
    x_i: np.ndarray  # (d,) or (size, d)

    @property
    def mu_bar(self) -> np.ndarray:
        """mu_i itself (the keys are drawn; :class:`ScoreDraws` gives its mean given the scores)."""
        return self.mu

    @cached_property
    def p2(self) -> np.ndarray:
        """sum_{j != i} p_ij^2 per draw, (size,)."""
        return _row_sum(self.p_other, self.p_other)

    @cached_property
    def w3(self) -> np.ndarray:
        """sum_{j != i} (3 p_ij^2 - 2 p_ij^3) per draw, (size,): the weight of m m^T in Lemma 20's Stein form."""
        return 3 * self.p2 - 2 * _row_sum(self.p_other, self.p_other, self.p_other)

    def gap_outer(self, m) -> np.ndarray:
        """(mu_i - m)(mu_i - m)^T per draw, (size, d, d)."""
        dm = self.mu - m
        return dm[:, :, None] * dm[:, None, :]

    def tilted_cov(self, K, m) -> np.ndarray:
        """(mu_i - m)^T K C_i per draw, (size, d), K symmetric."""
        return np.einsum("sb,sbc->sc", (self.mu - m) @ K, self.cov())

    def cov(self, rows: int = 2**14) -> np.ndarray:
        """C_i per draw, (size, d, d): the centred keys in chunks of at most ``rows`` key rows, so that
        the (draws, n - 1, d) temporaries stay in cache."""
        if self.keys is None:
            raise ValueError("C_i needs the keys themselves: draw them with draw_keys and query (score_draws gives "
                             "its conditional mean, ScoreDraws.cond_cov)")
        size, n1, d = self.keys.shape
        out = np.empty((size, d, d))
        step = max(1, rows // n1)
        for a in range(0, size, step):
            b = slice(a, a + step)
            dx = self.keys[b] - self.mu[b, None, :]
            np.matmul(np.swapaxes(dx * self.p_other[b, :, None], 1, 2), dx, out=out[b])
        d0 = self.x_i - self.mu
        out += self.p_self[:, None, None] * d0[:, :, None] * d0[:, None, :]
        return out


def wide_queries(Sigma, rng, size: int, tau: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """(x, w): ``size`` queries x ~ N(0, tau^2 Sigma) and their importance weights w = phi_Sigma(x) /
    phi_{tau^2 Sigma}(x) = tau^d exp(-(tau^2 - 1) |u|^2 / 2), x = tau L u, so that E[w f(x)] = E_{N(0, Sigma)} f for
    every integrable f. A wider law samples the tails where an integrand grows like e^{s(x)} (the self-weight
    p_ii); tau = 1 is plain sampling (w = 1, x = L u)."""
    u = rng.standard_normal((size, Sigma.shape[0]))
    x = (tau * u) @ np.linalg.cholesky(Sigma).T
    return x, tau ** Sigma.shape[0] * np.exp(-0.5 * (tau * tau - 1) * np.sum(u * u, axis=1))


def tilted_queries(Sigma, B, rng, size: int) -> tuple[np.ndarray, np.ndarray]:
    """(x, w): ``size`` queries from the N(0, Sigma) law tilted by e^{q(x)}, q(x) = x^T B Sigma B^T x, and their importance
    weights w = phi_Sigma(x) / psi(x) = det(M)^{-1/2} e^{-q(x)}, so that E[w f(x)] = E_{N(0, Sigma)} f for every integrable
    f. With Sigma = L L^T and x = L v: q = v^T G v, G = L^T B Sigma B^T L, and the tilted law is v ~ N(0, M^{-1}),
    M = I - 2G (a Gaussian: the weight is Lemma 7's integral, det(M)^{-1/2} = E e^{q}). It needs ||G||_op < 1/2, i.e.
    ||Sigma^{1/2} B Sigma^{1/2}||_op < 2^{-1/2}. For an integrand that grows like e^{q} (n tr Var_{-i}(mu_i): the
    effective number of keys is n e^{-q}), w f stays of one order over the queries, and w <= det(M)^{-1/2}."""
    L = np.linalg.cholesky(Sigma)
    G = L.T @ B @ Sigma @ B.T @ L
    M = np.eye(len(L)) - 2 * G
    lam = np.linalg.eigvalsh(M)
    if lam[0] <= 0:
        raise ValueError(f"the e^q tilt needs ||Sigma^1/2 B Sigma^1/2||_op < 2^-1/2 (lambda_min(I - 2G) = {lam[0]:.3g})")
    v = rng.standard_normal((size, len(L))) @ np.linalg.cholesky(np.linalg.inv(M)).T
    q = np.einsum("sa,ab,sb->s", v, G, v)
    return v @ L.T, np.exp(-q) / np.sqrt(np.prod(lam))


def draw_keys(Sigma, rng, n: int, size: int, rows: int = 2**16) -> np.ndarray:
    """x_{-i}: (size, n - 1, d) i.i.d. N(0, Sigma), z L^T with z standard normal rows drawn ``rows`` at a
    time into one buffer (the same stream as one draw of all the rows, without its full-size temporary)."""
    d = Sigma.shape[0]
    LT = np.linalg.cholesky(Sigma).T
    out = np.empty((size * (n - 1), d))
    z = np.empty((min(rows, len(out)), d))
    for a in range(0, len(out), rows):
        m = min(rows, len(out) - a)
        rng.standard_normal(out=z[:m])
        np.matmul(z[:m], LT, out=out[a:a + m])
    return out.reshape(size, n - 1, d)


def _row_sum(*factors) -> np.ndarray:
    """sum_j of the product of the (size, n - 1) ``factors``, per row: one pass, no temporary."""
    return np.einsum(",".join(["ij"] * len(factors)) + "->i", *factors)


def _softmax(s_self, s):
    """(p_ii, p_ij) from the self score (size,) and the other scores (size, n - 1), ``s`` overwritten by p_ij."""
    top = np.maximum(s.max(axis=1), s_self)
    e_self = np.exp(s_self - top)
    p_other = np.exp(np.subtract(s, top[:, None], out=s), out=s)  # in place: one (size, n - 1) array
    Z = e_self + p_other.sum(axis=1)
    p_other /= Z[:, None]
    return e_self / Z, p_other


@dataclass
class ScoreDraws(QueryDraws):
    """:class:`QueryDraws` drawn from the scores (:func:`score_draws`), with what C_i's conditional mean needs:
    the key direction a (size, d), Sigma, the standardized scores z (size, n - 1), sum_j p_ij z_j, and (computed
    when first used: only C_i's conditional means need them) sum_j p_ij z_j^2, sum_j p_ij^2 z_j (each (size,))."""

    a: np.ndarray
    Sigma: np.ndarray
    pz: np.ndarray
    z: np.ndarray

    @cached_property
    def pz2(self) -> np.ndarray:
        """sum_{j != i} p_ij z_j^2 per draw, (size,)."""
        return _row_sum(self.p_other, self.z, self.z)

    @cached_property
    def p2z(self) -> np.ndarray:
        """sum_{j != i} p_ij^2 z_j per draw, (size,)."""
        return _row_sum(self.p_other, self.p_other, self.z)

    @property
    def mu_bar(self) -> np.ndarray:
        """E[mu_i | the scores] per draw, (size, d): p_ii x_i + a sum_j p_ij z_j."""
        return self.p_self[:, None] * self.x_i + self.a * self.pz[:, None]

    @property
    def perp(self) -> np.ndarray:
        """Sigma_perp = Sigma - a a^T per draw, (size, d, d): the covariance of the residual keys."""
        return self.Sigma - self.a[:, :, None] * self.a[:, None, :]

    def cond_mumu(self) -> np.ndarray:
        """E[mu_i mu_i^T | the scores] per draw, (size, d, d): mu_bar mu_bar^T + sum_j p_ij^2 Sigma_perp."""
        return self.gap_outer(0.0)

    def gap_outer(self, m) -> np.ndarray:
        """E[(mu_i - m)(mu_i - m)^T | the scores] per draw: (mu_bar - m)(mu_bar - m)^T + sum_j p_ij^2 Sigma_perp
        (the same mean as :meth:`QueryDraws.gap_outer`, without the residual keys' noise)."""
        dm = self.mu_bar - m
        return dm[:, :, None] * dm[:, None, :] + self.p2[:, None, None] * self.perp

    def tilted_cov(self, K, m) -> np.ndarray:
        """E[(mu_i - m)^T K C_i | the scores] per draw, (size, d), K symmetric. With mu_i = mu_bar + R,
        R = sum_j p_ij r_j, and C_i as in :meth:`cond_cov`: (K (mu_bar - m))^T E[C_i | z] + E[R^T K C_i | z], where
        only the terms of C_i linear in the residuals contribute (odd Gaussian moments vanish):
        sum_j p_ij z_j (a r_j^T + r_j a^T) gives (sum_j p_ij^2 z_j) (Sigma_perp K a + tr(K Sigma_perp) a), and
        -(mu_bar R^T + R mu_bar^T) gives -(sum_j p_ij^2) (Sigma_perp K mu_bar + tr(K Sigma_perp) mu_bar)."""
        a, mu_bar, perp, p2 = self.a, self.mu_bar, self.perp, self.p2[:, None]
        trKp = np.einsum("bc,scb->s", K, perp)[:, None]
        own = np.einsum("sb,sbc->sc", (mu_bar - m) @ K, self.cond_cov())
        return (own + self.p2z[:, None] * (np.einsum("sbc,cd,sd->sb", perp, K, a) + trKp * a)
                - p2 * (np.einsum("sbc,cd,sd->sb", perp, K, mu_bar) + trKp * mu_bar))

    def cond_cov(self) -> np.ndarray:
        """E[C_i | the scores] per draw, (size, d, d): with x_j = a z_j + r_j and C_i = sum_j p_ij x_j x_j^T - mu mu^T
        (self-term included, sum_j p_ij = 1), E[x_j x_j^T | z_j] = a a^T z_j^2 + Sigma_perp, E[mu mu^T | z] =
        mu_bar mu_bar^T + sum_j p_ij^2 Sigma_perp, mu_bar = p_ii x_i + a sum_j p_ij z_j, Sigma_perp = Sigma - a a^T:
        p_ii x_i x_i^T + (sum_j p_ij z_j^2) a a^T + (1 - p_ii - sum_j p_ij^2) Sigma_perp - mu_bar mu_bar^T.
        Its mean is E C_i; a product of two independent draws' has the mean of the product of their C_i."""
        X, mu_bar = np.broadcast_to(self.x_i, self.a.shape), self.mu_bar
        rest = 1 - self.p_self - self.p2
        return (self.p_self[:, None, None] * X[:, :, None] * X[:, None, :]
                + self.pz2[:, None, None] * (self.a[:, :, None] * self.a[:, None, :])
                + rest[:, None, None] * self.perp - mu_bar[:, :, None] * mu_bar[:, None, :])


def score_draws(x_i, B, Sigma, rng, n: int, size: int) -> ScoreDraws:
    """The law of (p_ii, p_ij, mu_i) of :func:`query` over ``size`` draws of the other n - 1 keys, from n - 1 + d
    standard normals per draw instead of (n - 1) d. With u = B^T x_i, sigma^2 = u^T Sigma u and a = Sigma u / sigma,
    a key x_j ~ N(0, Sigma) is a z_j + r_j, z_j = u^T x_j / sigma ~ N(0, 1) and r_j ~ N(0, Sigma - a a^T)
    independent of z_j (Gaussian conditioning). The weights depend on the scores u^T x_j = sigma z_j alone, and
    given them sum_j p_ij r_j ~ N(0, sum_j p_ij^2 (Sigma - a a^T)) = sqrt(sum_j p_ij^2) P L w, w ~ N(0, I_d),
    P = I - Sigma u u^T / sigma^2, L L^T = Sigma; so mu_i = p_ii x_i + a sum_j p_ij z_j + that (exact in law).
    x_i: (d,), or one query per draw (size, d). No C_i (the keys are not drawn), but its conditional mean given the
    scores (:meth:`ScoreDraws.cond_cov`). sigma = 0: the scores are 0, and every key is residual."""
    d = Sigma.shape[0]
    L = np.linalg.cholesky(Sigma)
    X = np.broadcast_to(x_i, (size, d))
    u = X @ B  # rows u^T = x_i^T B
    Su = u @ Sigma
    var = np.sum(u * Su, axis=1)
    sigma = np.sqrt(var)
    safe = np.where(sigma > 0, sigma, 1.0)
    a = np.where(sigma[:, None] > 0, Su / safe[:, None], 0.0)
    z = rng.standard_normal((size, n - 1))
    p_self, p_other = _softmax(np.sum(X * u, axis=1), sigma[:, None] * z)
    w = rng.standard_normal((size, d)) @ L.T  # L w per draw
    Pw = w - np.where(var[:, None] > 0, Su * (np.sum(u * w, axis=1) / np.where(var > 0, var, 1.0))[:, None], 0.0)
    pz = _row_sum(p_other, z)
    p2 = _row_sum(p_other, p_other)
    mu = p_self[:, None] * X + a * pz[:, None] + np.sqrt(p2)[:, None] * Pw
    D = ScoreDraws(p_self, p_other, mu, None, x_i, a, Sigma, pz, z)
    D.p2 = p2  # the cached sum_j p_ij^2 (QueryDraws.p2), computed once
    return D


def query(x_i, B, keys) -> QueryDraws:
    """p_ii, p_ij (j != i) and mu_i for the query x_i ((d,), or one per draw (size, d)) over the key
    sets ``keys`` (size, n - 1, d), x_i itself being a key too (self-term)."""
    u = x_i @ B  # rows u^T = x_i^T B, i.e. u = B^T x_i
    s_self = np.sum(x_i * u, axis=-1)
    s = keys @ u if u.ndim == 1 else (keys @ u[:, :, None])[:, :, 0]
    p_self, p_other = _softmax(s_self, s)
    mu = p_self[:, None] * x_i + (p_other[:, None, :] @ keys)[:, 0]
    return QueryDraws(p_self, p_other, mu, keys, x_i)
