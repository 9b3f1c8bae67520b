"""Spaces of goel2026 cases: problems (Sigma, M, sigma) and points theta in the tube around
the manifold of minima, valid by construction.

A problem is drawn from its declared parameters (:func:`problem_params`): dimensions
d <= d_max (default 4), k = d + extra (extra in {0, 1, 2}), the condition number of Sigma, the
size sigma_1(X) and the spread sigma_d(X) / sigma_1(X) (in [0.05, 1] whatever the arguments) of
X = M Sigma^{1/2}, the noise level and a seed for the random bases (directions set by the seed are
not moved by the optimizer, which moves only the real parameters). A tube point is
theta = theta* + H with H normal to the manifold at theta* (so that theta* = P_M(theta)),
||H||_Sigma = r * radius, mixing a random normal direction with the radial one (+- Z*) by
``radial`` in [-1, 1].
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.linalg import solve_sylvester

from attncheck.core.space import Int, Real
from attncheck.papers.goel2026.data.gaussian_regression import Problem, random_problem
from attncheck.papers.goel2026.models import softmax_regression as sr

SEED = Int(0, 2**31 - 1)


def problem_params(d_max: int = 4, x_scale=(0.01, 10.0), cond=(1.0, 10.0), sigma=(0.0, 1.0)) -> dict:
    """The declared parameters of a problem (A1, A2 hold by construction; A3, a bound on sigma_1(X), is
    ``x_scale``'s range; k - d in {0, 1, 2} and sigma_d(X)/sigma_1(X) in [0.05, 1] are fixed ranges)."""
    return {"d": Int(1, d_max), "extra": Int(0, 2), "cond": Real(*cond, log=True),
            "x_scale": Real(*x_scale, log=True), "spread": Real(0.05, 1.0, log=True),
            "sigma": Real(*sigma), "seed": SEED}


def make_problem(v: dict) -> Problem:
    rng = np.random.default_rng(v["seed"])
    return random_problem(rng, v["d"], v["d"] + v["extra"], cond=v["cond"], x_scale=v["x_scale"],
                          spread=v["spread"], sigma=v["sigma"])


@dataclass(eq=False)
class Case:
    """A case: its parameter values (the repr, replayable) and the objects built from them."""

    values: dict
    problem: Problem
    extra: dict = field(default_factory=dict)

    def __getattr__(self, name):
        try:
            return self.__dict__["extra"][name]
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self) -> str:
        return "Case(" + ", ".join(f"{k}={v!r}" for k, v in self.values.items()) + ")"


def random_orthogonal(rng, d: int) -> np.ndarray:
    """Haar-distributed R in O(d) (both components, det = +-1)."""
    Q, Rr = np.linalg.qr(rng.standard_normal((d, d)))
    return Q * np.sign(np.diag(Rr))


def normal_direction(Z_star: np.ndarray, G: np.ndarray) -> np.ndarray:
    """G minus its component Z* Omega (Omega skew) along the tangent space of {Z_0 R} at Z*:
    the result H has Z*^T H symmetric (Lemma 1), so Z* stays the projection of Z* + tH."""
    P = Z_star.T @ Z_star
    K = Z_star.T @ G - G.T @ Z_star
    Omega = solve_sylvester(P, P, K)
    return G - Z_star @ Omega


def tube_point(problem: Problem, rng, r: float, radial: float, radius: float):
    """(Z*, H): Z* = Z_0 R on the manifold (R Haar on O(d)) and H normal there, ||H||_F = r * radius."""
    Z_star = sr.manifold_base(problem) @ random_orthogonal(rng, problem.d)
    N = normal_direction(Z_star, rng.standard_normal(Z_star.shape))
    N /= np.linalg.norm(N)
    H = (1 - abs(radial)) * N + radial * Z_star / np.linalg.norm(Z_star)
    H *= r * radius / np.linalg.norm(H)
    return Z_star, H


def tube_params(r_min: float = 0.0, **kw) -> dict:
    """Problem parameters plus r in [r_min, 1] (fraction of the radius; log scale if r_min > 0)
    and radial in [-1, 1]."""
    r = Real(r_min, 1.0, log=r_min > 0)
    return dict(problem_params(**kw), r=r, radial=Real(-1.0, 1.0))


def make_tube_case(radius_of, **v) -> Case:
    """A tube case: problem, Z*, H and theta = theta* + H (radius_of(constants) is the tube radius)."""
    problem = make_problem(v)
    c = sr.constants(problem)
    rng = np.random.default_rng([v["seed"], 1])
    Z_star, H = tube_point(problem, rng, v["r"], v["radial"], radius_of(c))
    return Case(dict(v), problem, {"Z_star": Z_star, "H": H, "constants": c})
