"""Lemma 7 of goel2026 (arXiv 2603.01514, Appendix C): E exp(z^T Q z) for z ~ N(0, I_d) and
Q = a sym(C) + b C C^T, whose closed form is det(I - 2Q)^{-1/2} while lambda_max(2Q) < 1.

x = Sigma^{1/2} z turns the exponent a x^T B x + b x^T B Sigma B^T x of the lemma into z^T Q z
with C = Sigma^{1/2} B Sigma^{1/2}. Here: the level search that places Q at a given gap
1 - lambda_max(2Q) from the integrability boundary (bisection on the scale s of C = s C0), and
the left side after the radial integral in closed form, as an angular integral (d = 2: periodic
trapezoid rule in float64, tanh-sinh in mpmath) or a sphere quadrature (d = 3, float64).
"""
from __future__ import annotations

import math

import mpmath
import numpy as np


def level_Q(C0, a0, b0, gap, xp):
    """Q = a sym(C) + b C C^T with C = s C0 (d = 2) and s chosen (bisection in the backend's precision) so that
    lambda_max(2Q) = 1 - gap."""
    mp = xp.precise
    num = mpmath.mpf if mp else float
    sqrt = mpmath.sqrt if mp else math.sqrt
    C0 = [[num(float(c)) for c in row] for row in C0]
    a, b, target = num(a0), num(b0), 1 - num(gap)

    def Q_of(s):
        S = [[(C0[i][j] + C0[j][i]) / 2 for j in range(2)] for i in range(2)]
        P = [[sum(C0[i][l] * C0[j][l] for l in range(2)) for j in range(2)] for i in range(2)]
        return [[a * s * S[i][j] + b * s * s * P[i][j] for j in range(2)] for i in range(2)]

    def lam(Q):
        return (Q[0][0] + Q[1][1]) + sqrt((Q[0][0] - Q[1][1]) ** 2 + 4 * Q[0][1] ** 2)  # lambda_max(2Q)

    if a0 == 0 and b0 == 0:
        return Q_of(num(0))  # Q = 0: both sides are 1 whatever the gap
    lo, hi = num(0), num(1)
    while lam(Q_of(hi)) < target:
        hi *= 2
    for _ in range(int(3.4 * (xp.dps if mp else 16)) + 20):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if lam(Q_of(mid)) < target else (lo, mid)
    return Q_of(lo)


def gap_too_small(Q) -> bool:
    """1 - lambda_max(2Q) below 1e-6: the float64 Q itself is then known only to a relative 1e-10 of the gap."""
    lam = (Q[0][0] + Q[1][1]) + math.sqrt((Q[0][0] - Q[1][1]) ** 2 + 4 * Q[0][1] ** 2)
    return 1 - lam < 1e-6


def angular_mean(Q, xp):
    """(1/2pi) int_0^{2pi} dphi / (1 - 2 u^T Q u), u = (cos phi, sin phi): E exp(z^T Q z) after the radial
    integral int_0^inf r e^{-r^2 (1 - 2u^T Q u)/2} dr = 1/(1 - 2u^T Q u)."""
    if xp.precise:
        return _angular_mean_mp(Q)
    if gap_too_small(Q):
        return float("nan")  # float64 cannot resolve the peak: let mpmath decide
    N, prev = 256, None
    f = _integrand(Q, np.arange(N), N)
    while True:
        val = np.mean(f)
        if prev is not None and abs(val - prev) <= 1e-15 * abs(val):
            return val
        if N == 2**22:
            return float("nan")  # the trapezoid rule did not converge in float64: let mpmath decide
        prev, N = val, 2 * N
        # the even nodes 2 pi (2k) / N are those of N / 2 to the bit (N a power of 2): evaluate only the odd ones
        f = np.stack([f, _integrand(Q, np.arange(1, N, 2), N)], axis=1).ravel()


def _angular_mean_mp(Q):
    """:func:`angular_mean` in mpmath, in the eigen-angle of Q: 2 u^T Q u = 2t + 2r cos 2psi (t = tr Q / 2,
    r = ((Q_00 - Q_11)^2 / 4 + Q_01^2)^{1/2}, psi the angle from Q's top eigenvector), so the integrand is
    1 / (g + 4r sin^2 psi) with g = 1 - 2t - 2r = 1 - lambda_max(2Q) (the gap, formed once, not at every node), even
    and of period pi in psi: tanh-sinh on [0, pi/2], split geometrically at the peak psi = 0, doubled. The same
    integral as :func:`_angular_mean_mp_direct` (the full period about the peak, 1 - 2 u^T Q u at each node), at
    half the nodes and one sine per node."""
    t = (Q[0][0] + Q[1][1]) / 2
    r = mpmath.sqrt((Q[0][0] - Q[1][1]) ** 2 / 4 + Q[0][1] ** 2)
    g = 1 - 2 * t - 2 * r

    def f(psi):
        return 1 / (g + 4 * r * mpmath.sin(psi) ** 2)

    w = mpmath.sqrt(g)
    offs = [w * 8 ** j for j in range(40) if w * 8 ** j < mpmath.pi / 2]
    return 2 * mpmath.quad(f, [0] + offs + [mpmath.pi / 2]) / mpmath.pi


def _angular_mean_mp_direct(Q):
    """The plain mpmath form of :func:`angular_mean` (the reference for :func:`_angular_mean_mp`): uQu has period
    pi, so integrate 1 / (1 - 2 u^T Q u) over one period about the peak, split geometrically at it."""
    phi0 = mpmath.atan2(2 * Q[0][1], Q[0][0] - Q[1][1]) / 2  # direction of the largest eigenvalue

    def f(phi):
        c, s = mpmath.cos_sin(phi)
        return 1 / (1 - 2 * (Q[0][0] * c * c + 2 * Q[0][1] * c * s + Q[1][1] * s * s))

    w = mpmath.sqrt(1 - (Q[0][0] + Q[1][1]) - mpmath.sqrt((Q[0][0] - Q[1][1]) ** 2 + 4 * Q[0][1] ** 2))
    offs = [w * 8 ** j for j in range(40) if w * 8 ** j < mpmath.pi / 2]
    pts = [phi0 - mpmath.pi / 2] + [phi0 - o for o in reversed(offs)] + [phi0] + \
          [phi0 + o for o in offs] + [phi0 + mpmath.pi / 2]
    return mpmath.quad(f, pts) / mpmath.pi


def _integrand(Q, k, N):
    """1 / (1 - 2 u^T Q u) at the nodes phi = 2 pi k / N of :func:`angular_mean`'s trapezoid rule."""
    phi = 2 * np.pi * k / N
    c, s = np.cos(phi), np.sin(phi)
    return 1 / (1 - 2 * (Q[0][0] * c * c + 2 * Q[0][1] * c * s + Q[1][1] * s * s))


def level_Q_3d(C0, a, b, gap):
    """d = 3: Q = a sym(C) + b C C^T, C = s C0, s by float64 bisection so that lambda_max(2Q) = 1 - gap
    (increasing in s >= 0: a maximum of convex functions with positive slope at 0)."""
    S0, P0 = (C0 + C0.T) / 2, C0 @ C0.T

    def lam(s):
        return np.linalg.eigvalsh(2 * (a * s * S0 + b * s * s * P0))[-1]

    lo, hi = 0.0, 1.0
    if a == 0 and b == 0:
        return np.zeros((3, 3))  # Q = 0: both sides are 1 whatever the gap
    while lam(hi) < 1 - gap:
        hi *= 2
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if lam(mid) < 1 - gap else (lo, mid)
    return a * lo * S0 + b * lo * lo * P0


def sphere_mean(Q, K, M):
    """(1/4 pi) int_{S^2} (1 - 2 u^T Q u)^{-3/2} du in polar coordinates (psi, chi) about Q's top eigenvector,
    where the integrand peaks (u and -u alike: twice the hemisphere psi <= pi/2): Gauss-Legendre with K nodes
    on each of the intervals [0, w], [w, 8w], [8w, 64w], ... (w = (gap / spread)^{1/2}, the peak's width)
    and the periodic trapezoid rule with M nodes in chi."""
    lam, V = np.linalg.eigh(Q)
    w = math.sqrt(max(1 - 2 * lam[-1], 1e-300) / max(2 * (lam[-1] - lam[0]), 1.0))
    edges = [0.0] + [w * 8 ** j for j in range(40) if w * 8 ** j < np.pi / 2] + [np.pi / 2]
    x, wx = np.polynomial.legendre.leggauss(K)
    psi = np.concatenate([(lo + hi) / 2 + (hi - lo) / 2 * x for lo, hi in zip(edges, edges[1:], strict=False)])
    wpsi = np.concatenate([(hi - lo) / 2 * wx for lo, hi in zip(edges, edges[1:], strict=False)])
    chi = 2 * np.pi * np.arange(M) / M
    U = (np.cos(psi)[:, None, None] * V[:, -1] + np.sin(psi)[:, None, None]
         * (np.cos(chi)[None, :, None] * V[:, 0] + np.sin(chi)[None, :, None] * V[:, 1]))
    quad = np.sum((U @ Q) * U, axis=-1)
    f = (1 - 2 * quad) ** -1.5 * np.sin(psi)[:, None]
    return float(2 * np.sum(wpsi[:, None] * f) * (2 * np.pi / M) / (4 * np.pi))


def sphere_expectation(Q):
    """E exp(z^T Q z), d = 3, by :func:`sphere_mean` with nodes doubled from 8 (x 8 in chi) until two levels
    agree to 1e-13 + 1e-16/gap (the float64 resolution at the peak); NaN if 256 nodes do not converge."""
    K, prev, lhs = 8, None, float("nan")
    tol = 1e-13 + 1e-16 / (1 - 2 * np.linalg.eigvalsh(Q)[-1])
    while K <= 256:
        val = sphere_mean(Q, K, 8 * K)
        if prev is not None and abs(val - prev) <= tol * abs(val):
            lhs = val
            break
        prev, K = val, 2 * K
    return lhs
