"""goel2026 (arXiv 2603.01514) Appendix C: integrability (Lemma 7), softmax gradients (Lemma 8)
and the conditional moments of one query's softmax weights (Lemmas 9-23).

Statements follow ``shared/papers/goel2026-claims.md`` (the paper's formulas are lost); every
interpretation starts with its provenance tag. Shared readings:

* query x_i fixed, the other n - 1 keys i.i.d. N(0, Sigma), self-term included (eq. (1) as
  reconstructed); E_{-i} is over those keys;
* B = Sigma^{-1/2} C Sigma^{-1/2} with ||C||_op <= 0.5 and x_i = Sigma^{1/2} z with ||z|| <= 3, so the
  tilt q = ||Sigma^{1/2} B^T x_i||^2 <= 2.25: the Monte Carlo tails stay light (larger tilts are unchecked);
* "O(1/n)" (and O(1/n^2)) read as: the implied constant n^a * (quantity) stays bounded along the path of
  n, judged by the engine's power-law fit (REFUTED only on significant growth). The quantity is an
  expectation, estimated from all the draws of a case; the "ratio" handed to the engine is that one
  estimate (every draw carries it), so its quantile is the estimate. Squared norms of means use the
  unbiased product of two independent replicas.
"""
import math
import warnings

import mpmath
import numpy as np
import torch
from scipy.special import expit

from attncheck import Int, Reading, Real, Space, claim, close, ge, le
from attncheck.papers.goel2026.data.gaussian_regression import sym_sqrt
from attncheck.papers.goel2026.models import softmax_moments as sm
from attncheck.papers.goel2026.models import softmax_regression as sr
from attncheck.papers.goel2026.strategies import softmax_regression as ss

PAPER = "goel2026 (arXiv 2603.01514v1)"
RATES = {"quick": [64, 256, 1024], "deep": [64, 128, 256, 512, 1024, 2048]}
RATE_DRAWS = 2_000  # at most this many draws of the keys per case: the same noise at every n <= 2^22 / 2000
QUERY = ("x_i = Sigma^{1/2} z with ||z|| in [0, 3], B = Sigma^{-1/2} C Sigma^{-1/2} with ||C||_op in [0, 0.5] "
         "(tilt q <= 2.25; larger tilts unchecked: Monte Carlo tails), d in {1, 2, 3}, cond(Sigma) in [1, 10]")
RATE = ("implied constant n^a * (Monte Carlo estimate of the expectation from min(2000, 2^22/n) draws of the "
        "keys: 2000 at every n <= 2048, so the noise does not change along the path) along n in the path; REFUTED "
        "only if it grows significantly (engine's power-law fit)")
QUERY_RATE = ("x_i = Sigma^{1/2} z with ||z|| in [0, 2], B = Sigma^{-1/2} C Sigma^{-1/2} with ||C||_op in [0, 0.5] "
              "(q <= 1, s <= 2), d in {1, 2, 3}, cond(Sigma) in [1, 10]. Larger tilts are unchecked here: with the "
              "self-term, p_ii stays near 1 until n ~ e^{s - q/2}, and the implied constants rise until then "
              "(measured: at q = 2.25, s = 4.5, n Var(mu_i) rises from 0.07 at n = 8 to 21 at n = 1024), so the "
              "path would not reach the asymptotic regime")
LEMMA7_AB = ("a or b outside [0, 8] (the statement admits any real a, b): not drawn. For b < 0 the construction "
             "cannot set s (lambda_max(2Q) need not reach 1 - gap as s grows: a = 0, b < 0 gives Q <= 0, and the "
             "level search would not find s). a < 0 is the case a > 0 with C -> -C (same Q). For a, b >= 0, Q = "
             "t sym(C0) + (b/a^2) t^2 C0 C0^T with t = a s set by the level, so only b/a^2 matters, and "
             "[0, 8]^2 reaches every ratio in [0, inf]: a, b > 8 give no new Q for the drawn C0")
INTEGRATED = ("x_i ~ N(0, Sigma) integrated (every tilt q, s, with its Gaussian weight), B = Sigma^{-1/2} C "
              "Sigma^{-1/2} with ||C||_op in [0, 0.5], d in {1, 2, 3}, cond(Sigma) in [1, 10]. Unchecked (not drawn): "
              "||C||_op > 0.5 (from ||C||_op = 1/2 on, E_i e^{2q} is infinite: Lemma 7's closed form), d >= 4, "
              "cond(Sigma) > 10")
MC_IDENTITY = ("identity between expectations checked by Monte Carlo: each coordinate of the mean of the "
               "difference (which has mean 0 exactly) must lie within 5 estimated standard errors of 0 "
               "(normal approximation; a false refutation has probability about 6e-7 per coordinate)")


# ---- Lemma 7 ---------------------------------------------------------------------------------

def _lemma7_case(**v):
    """C0: a 2 x 2 Gaussian matrix whose symmetric part has a positive eigenvalue (else -C0), so that
    lambda_max(2Q) reaches every level in (0, 1) as s grows, for b = 0 too."""
    C0 = np.random.default_rng([v["seed"], 7]).standard_normal((2, 2))
    if np.linalg.eigvalsh(C0 + C0.T)[-1] <= 0:
        C0 = -C0
    return ss.Case(dict(v), None, {"C0": C0})


def _lemma7_Q(case, xp):
    """Q = a sym(C) + b C C^T with C = s C0 and s chosen (bisection in the backend's precision) so that
    lambda_max(2Q) = 1 - gap."""
    mp = xp.name == "mpmath"
    num = mpmath.mpf if mp else float
    sqrt = mpmath.sqrt if mp else math.sqrt
    C0 = [[num(float(c)) for c in row] for row in case.C0]
    a, b, target = num(case.values["a"]), num(case.values["b"]), 1 - num(case.values["gap"])

    def Q_of(s):
        S = [[(C0[i][j] + C0[j][i]) / 2 for j in range(2)] for i in range(2)]
        P = [[sum(C0[i][l] * C0[j][l] for l in range(2)) for j in range(2)] for i in range(2)]
        return [[a * s * S[i][j] + b * s * s * P[i][j] for j in range(2)] for i in range(2)]

    def lam(Q):
        return (Q[0][0] + Q[1][1]) + sqrt((Q[0][0] - Q[1][1]) ** 2 + 4 * Q[0][1] ** 2)  # lambda_max(2Q)

    if case.values["a"] == 0 and case.values["b"] == 0:
        return Q_of(num(0))  # Q = 0: both sides are 1 whatever the gap
    lo, hi = num(0), num(1)
    while lam(Q_of(hi)) < target:
        hi *= 2
    for _ in range(int(3.4 * (xp.dps if mp else 16)) + 20):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if lam(Q_of(mid)) < target else (lo, mid)
    return Q_of(lo)


def case_gap_too_small(Q) -> bool:
    """1 - lambda_max(2Q) below 1e-6: the float64 Q itself is then known only to a relative 1e-10 of the gap."""
    lam = (Q[0][0] + Q[1][1]) + math.sqrt((Q[0][0] - Q[1][1]) ** 2 + 4 * Q[0][1] ** 2)
    return 1 - lam < 1e-6


def _angular_integral(Q, xp):
    """(1/2pi) int_0^{2pi} dphi / (1 - 2 u^T Q u), u = (cos phi, sin phi): E exp(z^T Q z) after the radial
    integral int_0^inf r e^{-r^2 (1 - 2u^T Q u)/2} dr = 1/(1 - 2u^T Q u)."""
    if xp.name == "mpmath":  # uQu has period pi: integrate over half a period, split geometrically at the peak
        phi0 = mpmath.atan2(2 * Q[0][1], Q[0][0] - Q[1][1]) / 2  # direction of the largest eigenvalue

        def f(phi):
            c, s = mpmath.cos(phi), mpmath.sin(phi)
            return 1 / (1 - 2 * (Q[0][0] * c * c + 2 * Q[0][1] * c * s + Q[1][1] * s * s))

        w = mpmath.sqrt(1 - (Q[0][0] + Q[1][1]) - mpmath.sqrt((Q[0][0] - Q[1][1]) ** 2 + 4 * Q[0][1] ** 2))
        offs = [w * 8 ** j for j in range(40) if w * 8 ** j < mpmath.pi / 2]
        pts = [phi0 - mpmath.pi / 2] + [phi0 - o for o in reversed(offs)] + [phi0] + \
              [phi0 + o for o in offs] + [phi0 + mpmath.pi / 2]
        return mpmath.quad(f, pts) / mpmath.pi
    if case_gap_too_small(Q):
        return float("nan")  # float64 cannot resolve the peak: let mpmath decide
    prev = None
    N = 256
    while N <= 2**22:
        phi = 2 * np.pi * np.arange(N) / N
        c, s = np.cos(phi), np.sin(phi)
        val = np.mean(1 / (1 - 2 * (Q[0][0] * c * c + 2 * Q[0][1] * c * s + Q[1][1] * s * s)))
        if prev is not None and abs(val - prev) <= 1e-15 * abs(val):
            return val
        prev, N = val, 2 * N
    return float("nan")  # the trapezoid rule did not converge in float64: let mpmath decide


@claim(
    "goel2026/lemma-7/closed-form", kind="identity", source=f"{PAPER}, Lemma 7 and its proof",
    statement=r"\lambda_{\max}(2a\,\mathrm{sym}(C)+2b\,CC^\top)<1:\ \mathbb E\,e^{a\,x^\top Bx+b\,x^\top B\Sigma B^\top x}"
              r"=\det\big(I-2a\,\mathrm{sym}(C)-2b\,CC^\top\big)^{-1/2},\ C=\Sigma^{1/2}B\Sigma^{1/2}",
    space=Space(build=_lemma7_case, seed=ss.SEED, a=Real(0.0, 8.0), b=Real(0.0, 8.0),
                gap=Real(1e-15, 1.0, log=True)),
    cost="expensive",
    reading=Reading(notes={
        "provenance": "RECONSTRUCTED lemma; the closed form DERIVED (claims file Lemma 7)",
        "reduction": "x = Sigma^{1/2} z: the exponent is z^T Q z with Q = a sym(C) + b C C^T, so the case draws "
                     "C directly (Sigma plays no further role)",
        "inputs": "d = 2 (d = 1 is the scalar Gaussian integral; d = 3 is lemma-7/closed-form-3d, for gaps "
                  ">= 1e-5; d >= 4 is unchecked); C = s C0 with C0 a random 2 x 2 Gaussian matrix, a, b in "
                  "[0, 8] (a + b > 0 implied by the bisection), s set so that 1 - lambda_max(2Q) = gap in "
                  "[1e-15, 1] (log scale): up to the boundary of integrability",
        "left side": "the radial integral in closed form, then the angle: float64 periodic trapezoid rule doubled "
                     "to convergence; for gap < 1e-6 (where float64 holds Q only to about 1e-10 of the gap) the "
                     "slack is NaN and the engine re-evaluates in mpmath (tanh-sinh quadrature on intervals split "
                     "geometrically at the peak; s by bisection at the working precision)",
        "check": "relative 1e-9",
        "unchecked": LEMMA7_AB,
    }),
)
def lemma_7_closed_form(case, xp):
    Q = _lemma7_Q(case, xp)
    det = (1 - 2 * Q[0][0]) * (1 - 2 * Q[1][1]) - 4 * Q[0][1] ** 2
    if xp.name == "mpmath":
        rhs = 1 / mpmath.sqrt(det)
    else:
        rhs = float("nan") if case_gap_too_small(Q) else 1 / math.sqrt(det)
    lhs = _angular_integral(Q, xp)
    return close(xp.asarray(np.array([lhs], dtype=object if xp.name == "mpmath" else float)),
                 xp.asarray(np.array([rhs], dtype=object if xp.name == "mpmath" else float)), 1e-9, xp=xp)


def _lemma7_case_3d(**v):
    """d = 3: Q = a sym(C) + b C C^T, C = s C0 (C0 a 3 x 3 Gaussian matrix whose symmetric part has a positive
    eigenvalue, else -C0), s by float64 bisection so that lambda_max(2Q) = 1 - gap (increasing in s >= 0: a
    maximum of convex functions with positive slope at 0)."""
    C0 = np.random.default_rng([v["seed"], 73]).standard_normal((3, 3))
    if np.linalg.eigvalsh(C0 + C0.T)[-1] <= 0:
        C0 = -C0
    S0, P0 = (C0 + C0.T) / 2, C0 @ C0.T

    def lam(s):
        return np.linalg.eigvalsh(2 * (v["a"] * s * S0 + v["b"] * s * s * P0))[-1]

    lo, hi = 0.0, 1.0
    if v["a"] == 0 and v["b"] == 0:
        return ss.Case(dict(v), None, {"Q": np.zeros((3, 3))})  # Q = 0: both sides are 1 whatever the gap
    while lam(hi) < 1 - v["gap"]:
        hi *= 2
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if lam(mid) < 1 - v["gap"] else (lo, mid)
    return ss.Case(dict(v), None, {"Q": v["a"] * lo * S0 + v["b"] * lo * lo * P0})


def _sphere_mean(Q, K, M):
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


@claim(
    "goel2026/lemma-7/closed-form-3d", kind="identity", source=f"{PAPER}, Lemma 7 and its proof",
    statement=r"d=3,\ \lambda_{\max}(2a\,\mathrm{sym}(C)+2b\,CC^\top)<1:\ \mathbb E\,e^{a\,x^\top Bx+b\,x^\top B\Sigma "
              r"B^\top x}=\det\big(I-2a\,\mathrm{sym}(C)-2b\,CC^\top\big)^{-1/2}",
    space=Space(build=_lemma7_case_3d, seed=ss.SEED, a=Real(0.0, 8.0), b=Real(0.0, 8.0),
                gap=Real(1e-5, 1.0, log=True)),
    cost="expensive",
    reading=Reading(notes={
        "provenance": "RECONSTRUCTED lemma; the closed form DERIVED (claims file Lemma 7)",
        "reduction": "as lemma-7/closed-form: z^T Q z with Q = a sym(C) + b C C^T",
        "inputs": "d = 3 (lemma-7/closed-form covers d = 2 up to the boundary): C = s C0, C0 a random 3 x 3 Gaussian "
                  "matrix, a, b in [0, 8], s set so that 1 - lambda_max(2Q) = gap in [1e-5, 1] (log scale). "
                  "Unchecked: d = 3 with gap < 1e-5 (float64 evaluates 1 - 2u^T Q u at the peak to ~1e-16/gap "
                  "relative, measured 1.6e-10 at gap = 1e-6 and 3e-7 at 1e-9: an mpmath sphere quadrature would be "
                  "needed, not built) and d >= 4",
        "left side": "the radial integral in closed form, int_0^inf r^2 e^{-r^2 (1 - 2u^T Q u)/2} dr ~ (1 - 2u^T Q u)"
                     "^{-3/2}, then the sphere in polar angles about the peak direction (Q's top eigenvector; the "
                     "eigenvalues are used only to place and size the quadrature): Gauss-Legendre on intervals "
                     "growing geometrically from the peak times the periodic trapezoid rule, nodes doubled from 8 "
                     "(x 64) until two levels agree to 1e-13 + 1e-16/gap, the float64 resolution at the peak (measured: 16 "
                     "nodes per interval reach 1e-11, 32 reach "
                     "1e-14 at gap = 1e-2 and 1e-3)",
        "check": "relative 1e-9",
        "unchecked": LEMMA7_AB,
    }),
)
def lemma_7_closed_form_3d(case, xp):
    Q = case.Q
    rhs = np.linalg.det(np.eye(3) - 2 * Q) ** -0.5
    K, prev, lhs = 8, None, float("nan")
    tol = 1e-13 + 1e-16 / (1 - 2 * np.linalg.eigvalsh(Q)[-1])
    while K <= 256:
        val = _sphere_mean(Q, K, 8 * K)
        if prev is not None and abs(val - prev) <= tol * abs(val):
            lhs = val
            break
        prev, K = val, 2 * K
    return close(xp.asarray(np.array([lhs])), xp.asarray(np.array([rhs])), 1e-9, xp=xp)


def _lemma7_tube(**v):
    case = ss.make_tube_case(lambda c: 10 * c["rho"], **v)
    c = case.constants
    tau = math.sqrt(c["sigma_1"]) + float(np.linalg.norm(case.H))
    case.extra.update(tau=tau, a=v["u"] * v["w"] / (2 * tau), b=(1 - v["u"]) * v["w"] / (2 * tau ** 2))
    return case


@claim(
    "goel2026/lemma-7/main", kind="inequality", source=f"{PAPER}, Lemma 7",
    statement=r"\operatorname{dist}_\Sigma(\theta,\mathcal M)\le\rho',\ 2a\tau+2b\tau^2<1,\ "
              r"\tau=\sigma_1(X)^{1/2}+\rho':\ \lambda_{\max}(2a\,\mathrm{sym}(C)+2b\,CC^\top)<1"
              r"\ (\text{so }\mathbb E e^{a x^\top Bx+b x^\top B\Sigma B^\top x}<\infty)",
    space=Space(build=_lemma7_tube, **ss.tube_params(), u=Real(0.0, 1.0), w=Real(0.0, 1.0, open_hi=True)),
    reading=Reading(notes={
        "provenance": "RECONSTRUCTED: A3 threshold and (a, b) UNKNOWN; parameterised by (a, b) as the claims file "
                      "asks; the sufficient condition DERIVED from ||C||_op <= sigma_1(X)^{1/2} + dist",
        "inputs": "problems as in theorem-1/part-3 (d <= 4, cond(Sigma) <= 10, sigma_1(X) in [0.01, 10])",
        "domain": "theta = theta_R + H (H normal, ||H||_Sigma = r 10 rho, so any rho' up to 10 rho is covered "
                  "with rho' = ||H||_Sigma, the tightest); a = u w/(2 tau), b = (1 - u) w/(2 tau^2), w in "
                  "[0, 1): every (a, b) >= 0 with 2 a tau + 2 b tau^2 = w < 1",
        "check": "1 - lambda_max(2a sym(C) + 2b C C^T) > 0 (strict), up to a rounding margin of 1e-12: the case's "
                 "theta* is a float64 point, on the manifold only to rounding (||C*||_op = sigma_1(X)^{1/2} to about "
                 "1e-16 relative), so at the exact tie (r = 0, all singular values equal, R with eigenvalue 1, "
                 "w -> 1) lambda_max = w (1 + O(1e-16)) can round above 1 = w + 1e-16; a violation larger than "
                 "1e-12 is still a refutation",
    }),
)
def lemma_7_main(case, xp):
    p = case.problem
    V = (case.Z_star + case.H)[p.k:]
    K = 2 * case.a * (V + V.T) / 2 + 2 * case.b * V @ V.T
    return ge(xp.asarray(1.0 + 1e-12), xp.asarray(float(np.linalg.eigvalsh(K)[-1])), xp, strict=True)


# ---- Lemma 8 ---------------------------------------------------------------------------------

def _keys_case(**v):
    """A problem, a B with ||Sigma^{1/2} B Sigma^{1/2}|| = c, n keys x_1..x_n (x_1 = the query i)."""
    p = ss.make_problem(v)
    rng = np.random.default_rng([v["seed"], 8])
    Si = sym_sqrt(p.Sigma, -0.5)
    C = rng.standard_normal((p.d, p.d))
    B = Si @ (v["c"] * C / np.linalg.norm(C, 2)) @ Si
    x = rng.standard_normal((v["n"], p.d)) @ np.linalg.cholesky(p.Sigma).T
    A = rng.standard_normal((p.k, p.d))
    y = rng.standard_normal((v["n"], p.k))
    return ss.Case(dict(v), p, {"B": B, "x": x, "A": A, "y": y})


KEYS = Space(build=_keys_case, **ss.problem_params(), n=Int(2, 6), c=Real(0.0, 3.0))


def _softmax_t(x, B):
    return torch.softmax(x @ B @ x.T, dim=-1)


@claim(
    "goel2026/lemma-8/weights", kind="identity", source=f"{PAPER}, Lemma 8",
    statement=r"l\ne i:\ \nabla_{x_l}p_{ij}=p_{ij}(\mathbb 1\{j=l\}-p_{il})\,u,\quad u=B^\top x_i",
    space=KEYS,
    reading=Reading(notes={
        "provenance": "DERIVED (claims file Lemma 8)",
        "inputs": "n in {2..6} keys, the query x_i = x_1 among them (self-term); " + QUERY.split(", d in")[0]
                  .replace("0.5", "3") + "; any d <= 4",
        "check": "every l != i and j against torch autograd (float64), relative 1e-9 of the largest entry",
    }),
)
def lemma_8_weights(case, xp):
    x = torch.tensor(case.x, requires_grad=True)
    B = torch.tensor(case.B)
    p = _softmax_t(x, B)[0]
    jac = torch.stack([torch.autograd.grad(p[j], x, retain_graph=True)[0] for j in range(len(p))]).numpy()
    pn, u = p.detach().numpy(), case.B.T @ case.x[0]
    n = len(pn)
    ref = np.array([[pn[j] * ((j == l) - pn[l]) * u for l in range(n)] for j in range(n)])
    return _close_all(jac[:, 1:], ref[:, 1:], 1e-9, xp)


@claim(
    "goel2026/lemma-8/mean-jacobian", kind="identity", source=f"{PAPER}, Lemma 8",
    statement=r"l\ne i:\ \partial\mu_i/\partial x_l=p_{il}\,[I+(x_l-\mu_i)u^\top]",
    space=KEYS,
    reading=Reading(notes={"provenance": "DERIVED (claims file Lemma 8)", "inputs": "as lemma-8/weights",
                    "check": "Jacobians d mu_i / d x_l (d x d) for every l != i against torch autograd, "
                             "relative 1e-9 of the largest entry"}),
)
def lemma_8_mean_jacobian(case, xp):
    x = torch.tensor(case.x)
    B = torch.tensor(case.B)
    J = torch.autograd.functional.jacobian(lambda z: (_softmax_t(z, B) @ z)[0], x).numpy()  # (d, n, d)
    p, mu = sr.attend(case.x, case.x, case.B)
    u = case.B.T @ case.x[0]
    ref = np.stack([p[0, l] * (np.eye(len(u)) + np.outer(case.x[l] - mu[0], u)) for l in range(1, len(case.x))])
    return _close_all(np.transpose(J, (1, 0, 2))[1:], ref, 1e-9, xp)


@claim(
    "goel2026/lemma-8/b-derivatives", kind="identity", source=f"{PAPER}, Lemma 8",
    statement=r"d_Bp_{ij}=p_{ij}\,x_i^\top(dB)(x_j-\mu_i),\quad d_B\mu_i=C_i(dB)^\top x_i,\quad "
              r"C_i=\sum_jp_{ij}x_jx_j^\top-\mu_i\mu_i^\top",
    space=KEYS,
    reading=Reading(notes={"provenance": "DERIVED (claims file Lemma 8)", "inputs": "as lemma-8/weights",
                    "check": "gradients of p_ij in B, the Jacobian of mu_i in B (torch autograd) and the two forms "
                             "of C_i, relative 1e-9 of the largest entry or of the terms C_i is a difference of "
                             "(sum_j p_ij |x_j|^2 |x_i|), whichever is larger: torch and numpy evaluate in float64 "
                             "only, and C_i cancels to ~1e-11 where one key takes all the weight (found by the "
                             "design stage: d = 1, n = 2, p_01 ~ 2e-12, entries 1e-11 apart by 9e-16)"}),
)
def lemma_8_b_derivatives(case, xp):
    x = torch.tensor(case.x)
    Bt = torch.tensor(case.B)
    Jp = torch.autograd.functional.jacobian(lambda b: _softmax_t(x, b)[0], Bt).numpy()  # (n, d, d)
    Jmu = torch.autograd.functional.jacobian(lambda b: (_softmax_t(x, b) @ x)[0], Bt).numpy()  # (d, d, d)
    p, mu = sr.attend(case.x, case.x, case.B)
    xi = case.x[0]
    ref_p = np.stack([p[0, j] * np.outer(xi, case.x[j] - mu[0]) for j in range(len(case.x))])
    C = sr.weighted_cov(p, case.x, mu)[0]
    C_alt = np.einsum("j,ja,jb->ab", p[0], case.x, case.x) - np.outer(mu[0], mu[0])
    ref_mu = np.einsum("ab,c->acb", C, xi)  # d mu_a / d B_{cb} = C_{ab} x_c
    # C_i is a difference of terms of size sum_j p_ij |x_j|^2 that cancel where one key takes all
    # the weight: relative 1e-9 of those terms, not of the (possibly tiny) difference
    terms = float(np.max(np.einsum("j,ja,jb->ab", p[0], np.abs(case.x), np.abs(case.x)) + np.abs(np.outer(mu[0], mu[0]))))
    return _close_all(np.concatenate([Jp.ravel(), Jmu.ravel(), C_alt.ravel()]),
                      np.concatenate([ref_p.ravel(), ref_mu.ravel(), C.ravel()]), 1e-9, xp,
                      magnitude=terms * max(1.0, float(np.abs(xi).max())))


@claim(
    "goel2026/lemma-8/second-order", kind="identity", source=f"{PAPER}, Lemma 8",
    statement=r"j\ne i:\ \nabla^2_{x_j}p_{ij}=p_{ij}(1-p_{ij})(1-2p_{ij})\,uu^\top",
    space=KEYS,
    reading=Reading(notes={"provenance": "DERIVED (claims file Lemma 8)", "inputs": "as lemma-8/weights",
                    "check": "Hessian of p_ij in x_j (torch autograd) for every j != i, 1e-9 relative plus 1e-9 "
                             "max_j p_ij ||u||^2 absolute (the factor (1 - 2p) cancels near p = 1/2)"}),
)
def lemma_8_second_order(case, xp):
    B = torch.tensor(case.B)
    x0 = torch.tensor(case.x)
    p = sr.softmax_weights(case.x, case.x, case.B)[0]
    u = case.B.T @ case.x[0]
    got, ref = [], []
    for j in range(1, len(case.x)):
        def pij(z, j=j):
            x = torch.cat([x0[:j], z[None], x0[j + 1:]])
            return _softmax_t(x, B)[0, j]
        got.append(torch.autograd.functional.hessian(pij, x0[j]).numpy())
        ref.append(p[j] * (1 - p[j]) * (1 - 2 * p[j]) * np.outer(u, u))
    atol = 1e-9 * float(np.max(p[1:])) * float(u @ u)  # the scale of each term; p(1-p)(1-2p) cancels near 1/2
    return close(xp.asarray(np.ravel(got)), xp.asarray(np.ravel(ref)), 1e-9, atol=atol + 1e-300, xp=xp)


@claim(
    "goel2026/lemma-8/loss-gradients", kind="identity", source=f"{PAPER}, Lemma 8 and Section 3 (claims file 1.12)",
    statement=r"\nabla_AL_n=-\tfrac1n\sum_ir_i\mu_i^\top,\quad\nabla_BL_n=-\tfrac1n\sum_ix_ir_i^\top AC_i,\quad "
              r"r_i=y_i-A\mu_i",
    space=KEYS,
    reading=Reading(notes={"provenance": "DERIVED (claims file 1.12); L_n with the self-term (RECONSTRUCTED eq. (1))",
                    "inputs": "as lemma-8/weights, with any A (Gaussian) and responses y (Gaussian)",
                    "check": "against torch autograd of L_n, relative 1e-9 of the largest entry"}),
)
def lemma_8_loss_gradients(case, xp):
    A, B = torch.tensor(case.A, requires_grad=True), torch.tensor(case.B, requires_grad=True)
    x, y = torch.tensor(case.x), torch.tensor(case.y)
    loss = 0.5 * ((y - _softmax_t(x, B) @ x @ A.T) ** 2).sum(-1).mean()
    loss.backward()
    gA, gB = sr.empirical_gradients(case.A, case.B, case.x, case.y)
    return _close_all(np.concatenate([gA.ravel(), gB.ravel()]),
                      np.concatenate([A.grad.numpy().ravel(), B.grad.numpy().ravel()]), 1e-9, xp)


def _close_all(lhs, rhs, rtol, xp, magnitude=0.0):
    """Entrywise closeness, relative ``rtol`` of the largest entry (or of ``magnitude``, the size of
    the terms an entry is computed from, where float64 cancellation makes that larger)."""
    lhs, rhs = np.asarray(lhs, float), np.asarray(rhs, float)
    atol = rtol * float(max(np.abs(lhs).max(), np.abs(rhs).max(), magnitude, 1e-300))
    return close(xp.asarray(lhs.ravel()), xp.asarray(rhs.ravel()), rtol, atol=atol, xp=xp)


# ---- Lemmas 9-23: one query, Monte Carlo over the other keys --------------------------------------

def _query_case(n, **v):
    p = ss.make_problem(v)
    rng = np.random.default_rng([v["seed"], 9])
    Si, Sh = sym_sqrt(p.Sigma, -0.5), sym_sqrt(p.Sigma)
    C = rng.standard_normal((p.d, p.d))
    B = Si @ (v["c"] * C / np.linalg.norm(C, 2)) @ Si
    z = rng.standard_normal(p.d)
    x_i = Sh @ (v["z"] * z / np.linalg.norm(z))
    q, s_, m = sm.tilt(x_i, B, p.Sigma)
    return ss.Case(dict(v, n=n), p, {"B": B, "x_i": x_i, "q": q, "s": s_, "m": m, "n": n})


def query_space(n, d_max=3):
    """Rate claims: ||C|| <= 0.5, ||z|| <= 2 (q <= 1, s <= 2: the asymptotic regime starts by n ~ 500)."""
    prm = ss.problem_params(d_max=d_max)
    prm.pop("x_scale"), prm.pop("spread"), prm.pop("sigma"), prm.pop("extra")
    return Space(build=lambda **v: _query_case(n, **v, x_scale=1.0, spread=1.0, sigma=0.0, extra=0),
                 **prm, c=Real(0.0, 0.5), z=Real(0.0, 2.0))


KEY_ROWS = 2**22  # at most this many key rows (draws x n) per key set: memory O(KEY_ROWS d) floats


def _rate_draws(size, n=0):
    return max(2, min(size // 8, RATE_DRAWS, KEY_ROWS // max(n, 1)))


def _keys(case, rng, size):
    return sm.draw_keys(case.problem.Sigma, rng, case.n, _rate_draws(size, case.n))


def _mean_se(v):
    """Mean and standard error over the first axis."""
    v = np.asarray(v, float)
    return v.mean(axis=0), v.std(axis=0, ddof=1) / np.sqrt(v.shape[0])


MC_DRAWS = 4_000  # draws per case for the Monte Carlo inequalities and identities of Lemmas 9-11, 20


def _draws(case, tag):
    rng = np.random.default_rng([case.values["seed"], case.n, tag])
    return sm.query(case.x_i, case.B, sm.draw_keys(case.problem.Sigma, rng, case.n, MC_DRAWS))


def _n_space(n_lo=2, n_hi=128):
    prm = ss.problem_params(d_max=3)
    for k in ("x_scale", "spread", "sigma", "extra"):
        prm.pop(k)
    return Space(build=lambda n, **v: _query_case(n, **v, x_scale=1.0, spread=1.0, sigma=0.0, extra=0),
                 **prm, c=Real(0.0, 0.5), z=Real(0.0, 3.0), n=Int(n_lo, n_hi, log=True), m=Int(1, 4))


def _lemma9_bounds(case):
    n, m, q, s = case.n, case.values["m"], case.q, case.s
    first = n ** -m * math.exp(m * m / 2 * (1 - 1 / n - 1 / n ** 2) * q - m / n * s)
    second = n ** -m * math.exp(m * m * q / 2 - m * s / n)
    self_ = n ** -m * math.exp(m * (1 - 1 / n) * s + m * m * (n - 1) / (2 * n * n) * q)
    return first, second, self_


def _mc_le(estimate, se, bound, xp, scale=None):
    """estimate <= bound, refuted only if the estimate exceeds the bound by more than 5 standard errors
    (plus 1e-9 of ``scale``, default the bound: float64 rounding of an exact tie such as q = 0)."""
    tol = 5 * se + 1e-9 * abs(bound if scale is None else scale)
    return le(xp.asarray(estimate - tol), xp.asarray(bound), xp)


@claim(
    "goel2026/lemma-9/cross", kind="inequality", source=f"{PAPER}, Lemma 9",
    statement=r"j\ne i,\ n\ge2:\ \mathbb E_{-i}[p_{ij}^m]\le n^{-m}\exp\!\big(\tfrac{m^2}2(1-\tfrac1n-\tfrac1{n^2})q"
              r"-\tfrac mn s\big)",
    space=_n_space(), cost="expensive",
    reading=Reading(notes={
        "provenance": "DERIVED (claims file Lemma 9; the paper's form is likely m = 2, possibly m = 4)",
        "inputs": QUERY + "; n in [2, 128] (log scale), m in {1, 2, 3, 4}",
        "check": f"Monte Carlo over x_{{-i}} ({MC_DRAWS} draws, averaged over the n - 1 exchangeable j): refuted "
                 "only if the mean exceeds the bound by more than 5 standard errors",
        "unchecked": "m >= 5 and n > 128 (the statement: every integer m >= 1 and every n >= 2), not drawn; "
                     "||z|| > 3 or ||C||_op > 0.5 (larger tilts, see 'inputs'), d >= 4, cond(Sigma) > 10",
    }),
)
def lemma_9_cross(case, xp):
    D = _draws(case, 1)
    est, se = _mean_se((D.p_other ** case.values["m"]).mean(axis=1))
    return _mc_le(est, se, _lemma9_bounds(case)[0], xp)


@claim(
    "goel2026/lemma-9/cross-simple", kind="inequality", source=f"{PAPER}, Lemma 9",
    statement=r"j\ne i:\ \mathbb E_{-i}[p_{ij}^m]\le n^{-m}e^{m^2q/2-ms/n}",
    space=_n_space(), cost="expensive",
    reading=Reading(notes={"provenance": "DERIVED (claims file Lemma 9, second inequality; m = 2 gives the likely "
                                  "paper form n^{-2} e^{2q - 2s/n})",
                    "inputs": "as lemma-9/cross", "check": "as lemma-9/cross", "unchecked": "as lemma-9/cross"}),
)
def lemma_9_cross_simple(case, xp):
    D = _draws(case, 1)
    est, se = _mean_se((D.p_other ** case.values["m"]).mean(axis=1))
    return _mc_le(est, se, _lemma9_bounds(case)[1], xp)


@claim(
    "goel2026/lemma-9/self", kind="inequality", source=f"{PAPER}, Lemma 9",
    statement=r"\mathbb E_{-i}[p_{ii}^m]\le n^{-m}\exp\!\big(m(1-\tfrac1n)s+\tfrac{m^2(n-1)}{2n^2}q\big)",
    space=_n_space(), cost="expensive",
    reading=Reading(notes={"provenance": "DERIVED (claims file Lemma 9; the self-term bound, which fits the "
                                  "reconstructed self-term choice)",
                    "inputs": "as lemma-9/cross", "check": "as lemma-9/cross", "unchecked": "as lemma-9/cross"}),
)
def lemma_9_self(case, xp):
    D = _draws(case, 1)
    est, se = _mean_se(D.p_self ** case.values["m"])
    return _mc_le(est, se, _lemma9_bounds(case)[2], xp)


@claim(
    "goel2026/lemma-10/main", kind="inequality", source=f"{PAPER}, Lemma 10 (Gaussian Poincare)",
    statement=r"j\ne i:\ \operatorname{Var}_{-i}(p_{ij})\le2q\,\mathbb E_{-i}[p_{ij}^2]",
    space=_n_space(n_lo=3), cost="expensive",
    reading=Reading(notes={
        "provenance": "RECONSTRUCTED (exact constants lost; the claims file's 'roughly' form, via "
                      "sum_l ||Sigma^{1/2} grad_{x_l} p_ij||^2 = p_ij^2 q [(1 - p_ij)^2 + sum_{l != i,j} p_il^2] "
                      "<= 2 q p_ij^2, DERIVED)",
        "inputs": QUERY + "; n in [3, 128]; m unused",
        "check": f"Monte Carlo ({MC_DRAWS} draws): Var estimated per j and averaged over the n - 1 j; refuted only "
                 "if Var - 2q E p^2 exceeds 0 by more than 5 standard errors (delta method)",
        "unchecked": "n = 2 (j != i admits it; the space starts at n = 3) and n > 128, not drawn; ||z|| > 3 or "
                     "||C||_op > 0.5 (larger tilts, see 'inputs'), d >= 4, cond(Sigma) > 10",
    }),
)
def lemma_10_main(case, xp):
    P = _draws(case, 1).p_other
    diff = (P - P.mean(axis=0)) ** 2 - 2 * case.q * P ** 2  # per draw: mean is Var - 2q E p^2 (up to O(1/N))
    est, se = _mean_se(diff.mean(axis=1))
    return _mc_le(est, se, 0.0, xp, scale=float(np.mean(P ** 2)))


def _lemma11_parts(case, D):
    """Per draw: mu_i - m_i and its Stein form p_ii (x_i - m_i) - sum_{j != i} p_ij^2 m_i (same mean)."""
    m = case.m
    lhs = D.mu - m[None]
    rhs = D.p_self[:, None] * (case.x_i - m)[None] - (D.p_other ** 2).sum(axis=1)[:, None] * m[None]
    return lhs, rhs


@claim(
    "goel2026/lemma-11/identity", kind="identity", source=f"{PAPER}, Lemma 11 (Stein's lemma in x_j)",
    statement=r"j\ne i:\ \mathbb E_{-i}[\mu_i]-\Sigma B^\top x_i=\mathbb E_{-i}[p_{ii}](x_i-\Sigma B^\top x_i)"
              r"-(n-1)\mathbb E_{-i}[p_{ij}^2]\,\Sigma B^\top x_i",
    space=_n_space(), cost="expensive",
    reading=Reading(notes={"provenance": "DERIVED exact identity (claims file Lemma 11)",
                    "inputs": QUERY + "; n in [2, 128]; m unused",
                    "check": MC_IDENTITY + f"; {MC_DRAWS} draws; the exact one-dimensional case is "
                                           "lemma-11/identity-exact"}),
)
def lemma_11_identity(case, xp):
    lhs, rhs = _lemma11_parts(case, _draws(case, 1))
    est, se = _mean_se(lhs - rhs)
    return le(xp.asarray(np.abs(est)), xp.asarray(5 * se + 1e-300), xp)


def _stein1d_case(**v):
    return ss.Case(dict(v), None, {})


def _stein1d(case, xp, second):
    """n = 2, d = 1: both sides of Lemma 11 (or 20) as one-dimensional integrals over x_j ~ N(0, s2)."""
    mp = xp.name == "mpmath"
    num = mpmath.mpf if mp else float
    xi, b, s2 = num(case.values["x_i"]), num(case.values["b"]), num(case.values["var"])
    m = s2 * b * xi
    E = mpmath.exp if mp else math.exp

    def p_j(t):  # p_ij = 1 / (1 + exp(b xi (xi - t)))
        return 1 / (1 + mpmath.exp(b * xi * (xi - t))) if mp else float(expit(b * xi * (t - xi)))

    def expect(f):
        def g(t):
            return (f(t) * E(-t * t / (2 * s2)) / (mpmath.sqrt(2 * mpmath.pi * s2) if mp else
                                                               math.sqrt(2 * math.pi * s2)))
        if mp:
            return mpmath.quad(g, [-mpmath.inf, 0, m, mpmath.inf])
        from scipy.integrate import quad
        R = abs(float(m)) + abs(float(xi)) + 40 * math.sqrt(float(s2))  # the Gaussian mass beyond is e^{-800}
        cuts = sorted({-R, 0.0, float(m), float(xi), R})
        with warnings.catch_warnings():  # scipy warns when 1e-13 is below its own roundoff estimate
            warnings.simplefilter("ignore")
            return sum(quad(g, a, c, epsabs=0, epsrel=1e-13, limit=200)[0] for a, c in zip(cuts, cuts[1:], strict=False))

    def mu(t):
        return (1 - p_j(t)) * xi + p_j(t) * t

    if not second:
        lhs = expect(mu) - m
        rhs = expect(lambda t: 1 - p_j(t)) * (xi - m) - expect(lambda t: p_j(t) ** 2) * m
    else:
        def C(t):
            return (1 - p_j(t)) * (xi - mu(t)) ** 2 + p_j(t) * (t - mu(t)) ** 2
        lhs = expect(C) - s2
        rhs = (expect(lambda t: 1 - p_j(t)) * (xi * xi - s2 - m * m)
               - expect(lambda t: 3 * p_j(t) ** 2 - 2 * p_j(t) ** 3) * m * m + m * m
               - expect(lambda t: mu(t) ** 2))
    scale = abs(m) + abs(xi) + s2 if not second else s2 + xi * xi + m * m
    arr = (lambda v: np.array([v], dtype=object)) if mp else (lambda v: np.array([v], float))
    return close(arr(lhs), arr(rhs), 0.0, atol=1e-10 * scale, xp=xp)


STEIN1D = Space(build=_stein1d_case, x_i=Real(-3.0, 3.0), b=Real(-1.0, 1.0), var=Real(0.1, 10.0, log=True))


@claim(
    "goel2026/lemma-11/identity-exact", kind="identity", source=f"{PAPER}, Lemma 11 (Stein's lemma in x_j)",
    statement=r"n=2,\ d=1:\ \mathbb E_{-i}[\mu_i]-\Sigma B^\top x_i=\mathbb E_{-i}[p_{ii}](x_i-\Sigma B^\top x_i)"
              r"-\mathbb E_{-i}[p_{ij}^2]\,\Sigma B^\top x_i",
    space=STEIN1D,
    reading=Reading(notes={"provenance": "DERIVED exact identity (claims file Lemma 11)",
                    "inputs": "n = 2, d = 1: x_i in [-3, 3], B = b in [-1, 1], Sigma = var in [0.1, 10]",
                    "check": "both sides as one-dimensional integrals (scipy adaptive quadrature to 1e-13 in "
                             "float64; mpmath tanh-sinh where float64 is undecided), absolute 1e-10 of "
                             "|m_i| + |x_i| + Sigma"}),
)
def lemma_11_identity_exact(case, xp):
    return _stein1d(case, xp, second=False)


@claim(
    "goel2026/lemma-20/identity-exact", kind="identity", source=f"{PAPER}, Lemma 20 (second-order Stein)",
    statement=r"n=2,\ d=1:\ \mathbb E_{-i}C_i-\Sigma=\mathbb E_{-i}[p_{ii}](x_i^2-\Sigma-m_i^2)"
              r"-\mathbb E_{-i}[3p_{ij}^2-2p_{ij}^3]m_i^2+m_i^2-\mathbb E_{-i}[\mu_i^2]",
    space=STEIN1D,
    reading=Reading(notes={"provenance": "DERIVED exact identity (claims file Lemma 20; the paper's statement is lost)",
                    "inputs": "as lemma-11/identity-exact",
                    "check": "both sides as one-dimensional integrals, absolute 1e-10 of Sigma + x_i^2 + m_i^2"}),
)
def lemma_20_identity_exact(case, xp):
    return _stein1d(case, xp, second=True)


def _lemma20_parts(case, D):
    """Per draw: C_i - Sigma and the per-draw terms of the Stein form (same mean)."""
    m, x = case.m, case.x_i
    mm = np.outer(m, m)
    lhs = D.cov() - case.problem.Sigma[None]
    w = (3 * D.p_other ** 2 - 2 * D.p_other ** 3).sum(axis=1)
    rhs = (D.p_self[:, None, None] * (np.outer(x, x) - case.problem.Sigma - mm)[None]
           - w[:, None, None] * mm[None] + mm[None] - D.mu[:, :, None] * D.mu[:, None, :])
    return lhs, rhs


@claim(
    "goel2026/lemma-20/identity", kind="identity", source=f"{PAPER}, Lemma 20 (second-order Stein)",
    statement=r"j\ne i:\ \mathbb E_{-i}C_i-\Sigma=\mathbb E_{-i}[p_{ii}](x_ix_i^\top-\Sigma-m_im_i^\top)"
              r"-(n-1)\mathbb E_{-i}[3p_{ij}^2-2p_{ij}^3]m_im_i^\top+m_im_i^\top-\mathbb E_{-i}[\mu_i\mu_i^\top]",
    space=_n_space(), cost="expensive",
    reading=Reading(notes={"provenance": "DERIVED exact identity (claims file Lemma 20; the paper's statement is lost)",
                    "inputs": QUERY + "; n in [2, 128]; m unused",
                    "check": MC_IDENTITY + f"; {MC_DRAWS} draws; the exact one-dimensional case is "
                                           "lemma-20/identity-exact"}),
)
def lemma_20_identity(case, xp):
    lhs, rhs = _lemma20_parts(case, _draws(case, 1))
    est, se = _mean_se((lhs - rhs).reshape(len(lhs), -1))
    return le(xp.asarray(np.abs(est)), xp.asarray(5 * se + 1e-300), xp)


# ---- O(1/n) rates of Lemmas 10-23 (asymptotic claims along n) -------------------------------------

def _problem_B(n, **v):
    """A problem and B (no query): for the x_i-integrated lemmas."""
    case = _query_case(n, **v)
    return case


def _integrated_space(n, c_max=0.5):
    prm = ss.problem_params(d_max=3)
    for k in ("x_scale", "spread", "sigma", "extra"):
        prm.pop(k)
    return Space(build=lambda **v: _query_case(n, **v, x_scale=1.0, spread=1.0, sigma=0.0, extra=0, z=0.0),
                 **prm, c=Real(0.0, c_max))


def _queries(case, rng, size):
    """(x_i, keys, keys'): x_i ~ N(0, Sigma) per draw and two independent key sets (product estimators)."""
    S = case.problem.Sigma
    size = _rate_draws(size, case.n)
    x = rng.standard_normal((size, S.shape[0])) @ np.linalg.cholesky(S).T
    return x, sm.draw_keys(S, rng, case.n, size), sm.draw_keys(S, rng, case.n, size)


def _sq_mean(v):
    """Unbiased ||E v||^2 from draws v (size, ...): ||mean||^2 - tr(Cov)/N."""
    v = np.asarray(v, float).reshape(len(v), -1)
    return float(np.sum(v.mean(axis=0) ** 2) - np.sum(v.var(axis=0, ddof=1)) / len(v))


def _rate(cid, source, statement, provenance, power, stat, *, integrated=False, quantity="", path=RATES,
          space=None, inputs=None):
    """An asymptotic claim: n^power * stat(case, draws) stays bounded along n."""

    @claim(
        cid, kind="asymptotic", carry_worst=True, source=f"{PAPER}, {source}", statement=statement,
        space=space or (_integrated_space if integrated else query_space), path=path,
        sample=_queries if integrated else _keys, probability=0.5, cost="expensive",
        reading=Reading(notes={
            "provenance": provenance,
            "inputs": inputs or (INTEGRATED if integrated else QUERY_RATE),
            "quantity": quantity,
            "O(.)": RATE.replace("n^a", f"n^{power}"),
        }),
    )
    def evaluate(case, R, xp):
        size = len(R[0]) if isinstance(R, tuple) else len(R)  # one estimate, carried by every draw
        return np.full(size, case.n ** power * stat(case, R))

    return evaluate


def _m_rows(case, x):
    return x @ case.B @ case.problem.Sigma  # rows m(x)^T = x^T B Sigma


lemma_10_rate = _rate(
    "goel2026/lemma-10/rate", "Lemma 10", r"j\ne i:\ \operatorname{Var}_{-i}(p_{ij})=O(1/n^2)",
    "RECONSTRUCTED (claims file Lemma 10: O(q e^{2q}/n^2))", 2,
    lambda c, K: float(np.mean(np.var(sm.query(c.x_i, c.B, K).p_other, axis=0, ddof=1))),
    quantity="Var_{-i}(p_ij), averaged over the n - 1 exchangeable j")

def _stein_mean_gap(x, B, Sigma, K):
    """Per draw: p_ii (x_i - m_i) - sum_{j != i} p_ij^2 m_i, whose mean is E_{-i} mu_i - m_i exactly
    (lemma-11/identity). Its terms have relative Monte Carlo error O(N^{-1/2}) at every n, where
    mu_i - m_i itself has an O(n^{-1/2}) spread around an O(1/n) mean."""
    D = sm.query(x, B, K)
    m = x @ B @ Sigma
    return D.p_self[:, None] * (x - m) - (D.p_other ** 2).sum(axis=1)[:, None] * m


STEIN_ESTIMATE = ("estimated through the exact Stein form of lemma-11/identity (checked there): E_{-i} mu_i - m_i = "
                  "E[p_ii (x_i - m_i) - sum_j p_ij^2 m_i], a control variate whose relative error stays "
                  "O(N^{-1/2}) as n grows (the plain mean of mu_i - m_i would need N >> n draws)")

lemma_11_rate = _rate(
    "goel2026/lemma-11/rate", "Lemma 11", r"\|\mathbb E_{-i}\mu_i-m_i\|\le(c_1(x_i)+c_2(x_i))/n",
    "DERIVED (claims file Lemma 11: the norm is O(1/n))", 1,
    lambda c, K: math.sqrt(max(0.0, _sq_mean(_stein_mean_gap(c.x_i, c.B, c.problem.Sigma, K)))),
    quantity="||E_{-i} mu_i - m_i|| (unbiased squared norm of the mean, then the root); " + STEIN_ESTIMATE)

lemma_12_rate = _rate(
    "goel2026/lemma-12/rate", "Lemma 12", r"\mathbb E_i\|\mathbb E_{-i}\mu_i-m_i\|^2=O(1/n^2)",
    "RECONSTRUCTED (claims file Lemmas 12-13: the x_i-integrated Lemma 11; proof empty in the extraction)", 2,
    lambda c, R: float(np.mean(np.sum(_stein_mean_gap(R[0], c.B, c.problem.Sigma, R[1])
                                      * _stein_mean_gap(R[0], c.B, c.problem.Sigma, R[2]), axis=1))),
    integrated=True, space=lambda n: _integrated_space(n, c_max=0.2),
    inputs=("x_i ~ N(0, Sigma) integrated, B = Sigma^{-1/2} C Sigma^{-1/2} with ||C||_op in [0, 0.2], d in {1, 2, 3}, "
            "cond(Sigma) in [1, 10]. Domain = where the Lemma 7 integrals this rate needs are finite (the paper's A3 "
            "and rho' are chosen for that; threshold UNKNOWN, so the most lenient reading): n E_{-i} p_ii -> "
            "e^{s - q/2} and n^2 E_{-i} p_ij^2 -> e^q, so O(1/n^2) needs E_i e^{2s - q} ||x_i - m_i||^2 and "
            "E_i e^{2q} ||m_i||^2 finite, i.e. lambda_max(4 sym(C) - 2 C C^T) < 1 and ||C||_op < 1/2 (Lemma 7's "
            "closed form); ||C||_op <= 0.2 keeps both below 0.8. ||C||_op in (0.2, 0.5) is unchecked: there "
            "the first integral diverges for some C (C = 0.5 I: lambda = 1.5) and the quick search measured a "
            "rising n^2 E_i||.||^2 (C* 35.6 at n = 1024), which the lemma, read with its integrability "
            "hypothesis, does not cover; d >= 4 and cond(Sigma) > 10 are not drawn. A3 is read differently by "
            "goel2026/theorem-4/main (and theorem-3/*, theorem-1/part-1-finite-n) for the same Lemma 7 integrals: "
            "sigma_1(X) <= 0.125 (4||C||^2 < 1 in the tube, ||C||_op up to 0.437), without this lambda_max "
            "condition, which fails inside that box (e.g. d = 1, C = sigma_1(X)^{1/2} > 0.293 on the manifold: "
            "lambda_max = 4 sigma_1(X)^{1/2} - 2 sigma_1(X) > 1 for sigma_1(X) > 0.0858)"),
    quantity="E_i ||E_{-i} mu_i - m_i||^2: per x_i, the product of the Stein forms of two independent key sets "
             "(unbiased); " + STEIN_ESTIMATE + ". Rate reading: O(1/n^2) for this square (n^2 E_i||.||^2 bounded), "
             "the square of Lemma 11's O(1/n) norm, as the claims file states Lemma 12; lemma-16/rate and "
             "lemma-21/rate read their integrated squares at O(1/n) (n E_i||.||^2 bounded: the O(1/n)-for-squares "
             "convention of Theorems 3-4 and Lemma 15's c_5/n + c_6/n^2), a weaker requirement, and on ||C||_op up "
             "to 0.5")


def _stein_cov_gap(case, K):
    """Per draw, a variable whose mean is E_{-i} C_i - Sigma exactly (lemma-20/identity): the Stein form
    p_ii (x x^T - Sigma - m m^T) - sum_j (3p_ij^2 - 2p_ij^3) m m^T + m m^T - mu mu^T, with
    m m^T - mu mu^T = -(g m^T + m g^T + (mu - m)(mu - m)^T) and mu - m replaced in the linear terms by its
    Stein form g (lemma-11/identity). Every term is O(1/n) per draw; C_i - Sigma itself spreads O(n^{-1/2})."""
    D = sm.query(case.x_i, case.B, K)
    x, m, S = case.x_i, case.m, case.problem.Sigma
    mm = np.outer(m, m)
    g = _stein_mean_gap(x, case.B, S, K)
    dm = D.mu - m
    w = (3 * D.p_other ** 2 - 2 * D.p_other ** 3).sum(axis=1)
    return (D.p_self[:, None, None] * (np.outer(x, x) - S - mm)[None] - w[:, None, None] * mm[None]
            - (g[:, :, None] * m[None, None, :] + m[None, :, None] * g[:, None, :] + dm[:, :, None] * dm[:, None, :]))


lemma_20_rate = _rate(
    "goel2026/lemma-20/rate", "Lemma 20 (self- and cross-interaction terms)",
    r"\|\mathbb E_{-i}C_i-\Sigma\|_F\le(c_7(x_i)+\dots+c_{12}(x_i))/n",
    "RECONSTRUCTED (claims file Lemma 20: the statement is lost; 'bounded by a self-interaction plus a "
    "cross-interaction term, O(1/n)')", 1,
    lambda c, K: math.sqrt(max(0.0, _sq_mean(_stein_cov_gap(c, K)))),
    path={"quick": [256, 1024, 4096], "deep": [256, 1024, 4096, 16384, 65536]},
    quantity="||E_{-i} C_i - Sigma||_F (unbiased squared norm of the mean, then the root), estimated through the "
             "exact Stein forms of lemma-20/identity and lemma-11/identity (checked there): relative Monte Carlo "
             "error about 1.5% at every n. The plain mean of C_i - Sigma, whose spread is O(n^{-1/2}) around an "
             "O(1/n) mean, is noise-dominated once n ~ N (measured, d = 2, q = 0.10, s = 0.62, N = 4000: n times "
             "its norm 4.36, 4.06, 6.48, 4.80 at n = 64, 256, 1024, 4096, against 4.71, 4.77, 4.75, 4.75 for "
             "the Stein form): that noise, not the lemma, made an earlier version of this claim look refuted. The path "
             "starts at n = 256 and reaches 4096 (quick; 65536 deep, draws capped at 2^22/n key rows): with q = 1, "
             "s = -2 (d = 1, ||C|| = 0.5, the corner) n||.|| rises as c - a/n, 5.9, 6.9, 7.3 at n = 64, 256, 1024 "
             "and levels at 7.4-7.5 for n = 4096, 16384, 65536 (4 x 200-4000 draws each, measured)")


def _mumu(D):
    return D.mu[:, :, None] * D.mu[:, None, :]


def _mm_rows(case, x):
    m = _m_rows(case, x)
    return m[:, :, None] * m[:, None, :]


def _mu_var(mu, mu2):
    """E||mu||^2 - E[mu . mu'] (mu' from independent keys): unbiased E_i tr Var_{-i}(mu_i)."""
    return float(np.mean(np.sum(mu * (mu - mu2), axis=1)))


lemma_13_rate = _rate(
    "goel2026/lemma-13/rate", "Lemma 13", r"\|\mathbb E[\mu_i\mu_i^\top]-\mathbb E[m_im_i^\top]\|_F^2=O(1/n)",
    "RECONSTRUCTED (claims file Lemmas 12-13)", 1,
    lambda c, R: _sq_mean(_mumu(sm.query(R[0], c.B, R[1])) - _mm_rows(c, R[0])),
    integrated=True, quantity="||E[mu mu^T - m m^T]||_F^2 (unbiased)")

lemma_14_rate = _rate(
    "goel2026/lemma-14/rate", "Lemma 14 (Gaussian Poincare)", r"\operatorname{tr}\operatorname{Var}_{-i}(\mu_i)=O(1/n)",
    "RECONSTRUCTED (claims file Lemma 14)", 1,
    lambda c, K: float(np.sum(np.var(sm.query(c.x_i, c.B, K).mu, axis=0, ddof=1))),
    quantity="tr Var_{-i}(mu_i)")

lemma_15_rate = _rate(
    "goel2026/lemma-15/rate", "Lemma 15", r"\|\mathbb E_{-i}[\mu_i\mu_i^\top]-m_im_i^\top\|_F^2\le c_5/n+c_6/n^2",
    "RECONSTRUCTED (claims file Lemma 15; the statement is missing from the extraction)", 1,
    lambda c, K: _sq_mean(_mumu(sm.query(c.x_i, c.B, K)) - np.outer(c.m, c.m)),
    quantity="||E_{-i}[mu mu^T] - m m^T||_F^2 (unbiased)")

lemma_16_rate = _rate(
    "goel2026/lemma-16/rate", "Lemma 16",
    r"\mathbb E_i\|\mathbb E_{-i}[\mu_i\mu_i^\top]-m_im_i^\top\|_F^2=O(1/n)",
    "UNKNOWN statement (claims file: 'x_i-integrated versions via Hoelder'); RECONSTRUCTED here as the "
    "integrated Lemma 15", 1,
    lambda c, R: float(np.mean(np.sum((_mumu(sm.query(R[0], c.B, R[1])) - _mm_rows(c, R[0]))
                                      * (_mumu(sm.query(R[0], c.B, R[2])) - _mm_rows(c, R[0])), axis=(1, 2)))),
    integrated=True, quantity="E_i ||E_{-i}[mu mu^T] - m m^T||_F^2 (product of two independent key sets). Rate "
                              "reading: O(1/n) for this square (n E_i||.||_F^2 bounded), Lemma 15's c_5/n + c_6/n^2 "
                              "form; lemma-12/rate reads its integrated square at O(1/n^2) (the square of an O(1/n) "
                              "norm), a stronger requirement, and only on ||C||_op <= 0.2, where its integrability "
                              "condition lambda_max(4 sym(C) - 2 C C^T) < 1 holds; here ||C||_op reaches 0.5, where "
                              "that condition can fail (d = 1, C = 0.5: 1.5)")

lemma_17_rate = _rate(
    "goel2026/lemma-17/rate", "Lemma 17", r"\mathbb E_i\operatorname{tr}\operatorname{Var}_{-i}(\mu_i)=O(1/n)",
    "UNKNOWN statement (claims file: 'x_i-integrated versions'); RECONSTRUCTED here as the integrated Lemma 14",
    1,
    lambda c, R: _mu_var(sm.query(R[0], c.B, R[1]).mu, sm.query(R[0], c.B, R[2]).mu),
    integrated=True, quantity="E||mu||^2 - E[mu . mu'] with mu' from independent keys (unbiased)")

lemma_18_rate = _rate(
    "goel2026/lemma-18/rate", "Lemma 18 (as used in Theorem 4)", r"\|\mathbb E[x_i(\mu_i-m_i)^\top]\|_F^2=O(1/n)",
    "RECONSTRUCTED (claims file Lemmas 16-18: the example it gives)", 1,
    lambda c, R: _sq_mean(R[0][:, :, None] * (sm.query(R[0], c.B, R[1]).mu - _m_rows(c, R[0]))[:, None, :]),
    integrated=True, quantity="||E[x_i (mu_i - m_i)^T]||_F^2 (unbiased)")

lemma_19_rate = _rate(
    "goel2026/lemma-19/rate", "Lemma 19 (Gaussian Poincare)",
    r"\operatorname{tr}\operatorname{Var}_{-i}(\mu_i\mu_i^\top)=O(1/n)",
    "RECONSTRUCTED (claims file Lemma 19)", 1,
    lambda c, K: float(np.sum(np.var(_mumu(sm.query(c.x_i, c.B, K)).reshape(len(K), -1), axis=0, ddof=1))),
    quantity="sum of the variances of the entries of mu_i mu_i^T")

lemma_21_rate = _rate(
    "goel2026/lemma-21/rate", "Lemma 21", r"\mathbb E_i\|\mathbb E_{-i}C_i-\Sigma\|_F^2=O(1/n)",
    "UNKNOWN statement (claims file: 'integrated versions, finite by Lemma 7'); RECONSTRUCTED as the integrated "
    "Lemma 20 squared, in the paper's O(1/n)-for-squares convention", 1,
    lambda c, R: float(np.mean(np.sum((sm.query(R[0], c.B, R[1]).cov() - c.problem.Sigma)
                                      * (sm.query(R[0], c.B, R[2]).cov() - c.problem.Sigma), axis=(1, 2)))),
    integrated=True, quantity="E_i ||E_{-i} C_i - Sigma||_F^2 (product of two independent key sets). Rate "
                              "reading: O(1/n) for this square (n E_i||.||_F^2 bounded), the O(1/n)-for-squares "
                              "convention, although lemma-20/rate reads the norm itself as O(1/n); lemma-12/rate "
                              "reads its integrated square at O(1/n^2) (the square of an O(1/n) norm), a stronger "
                              "requirement, and only on ||C||_op <= 0.2, where its integrability condition "
                              "lambda_max(4 sym(C) - 2 C C^T) < 1 holds; here ||C||_op reaches 0.5, where that "
                              "condition can fail (d = 1, C = 0.5: 1.5)")

lemma_22_rate = _rate(
    "goel2026/lemma-22/rate", "Lemma 22", r"\|\mathbb E[x_ix_i^\top(C_i-\Sigma)]\|_F^2=O(1/n)",
    "UNKNOWN statement (claims file: 'controls the third term of the B-gradient error in Theorem 4'); "
    "RECONSTRUCTED with r_i^T A replaced by x_i^T (a linear function of x_i, as r_i is near the manifold)", 1,
    lambda c, R: _sq_mean(np.einsum("sa,sb,sbc->sac", R[0], R[0], sm.query(R[0], c.B, R[1]).cov()
                                    - c.problem.Sigma)),
    integrated=True, quantity="||E[x_i x_i^T (C_i - Sigma)]||_F^2 (unbiased)")

lemma_23_rate = _rate(
    "goel2026/lemma-23/rate", "Lemma 23 (Gaussian Poincare)", r"\operatorname{tr}\operatorname{Var}_{-i}(C_i)=O(1/n)",
    "RECONSTRUCTED (claims file Lemma 23)", 1,
    lambda c, K: float(np.sum(np.var(sm.query(c.x_i, c.B, K).cov().reshape(len(K), -1), axis=0, ddof=1))),
    quantity="sum of the variances of the entries of C_i. Measured beyond the deep path at its worst case (d = 3, "
             "cond(Sigma) = 10, ||C|| = 0.5, ||z|| = 2; 20 batches of min(2000, 2^22/n) draws): n tr Var(C_i) = 123, "
             "144, 147, 150, 154 (standard errors 1-2) at n = 256, 1024, 2048, 4096, 8192, a rise of 2-3% per "
             "doubling that these sizes cannot tell from a slow approach to a limit")
