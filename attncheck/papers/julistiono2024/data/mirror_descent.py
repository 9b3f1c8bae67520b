"""julistiono2024 datasets: the synthetic data of Section 4.1 and the toy data of Section 4.2."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np


@dataclass(frozen=True)
class AttData:
    """Samples (X_i, Y_i, z_i), i = 1..n, and the fixed value vector v (claims file, Section 1.1).

    X: (n, T, d) tokens x_it as rows; z: (n, d) query tokens; Y: (n,) labels in {-1, +1}; v: (d,).
    """

    X: np.ndarray
    z: np.ndarray
    Y: np.ndarray
    v: np.ndarray

    def __post_init__(self):
        n, T, d = np.shape(self.X)
        if np.shape(self.z) != (n, d) or np.shape(self.Y) != (n,) or np.shape(self.v) != (d,):
            raise ValueError(f"shapes X {np.shape(self.X)}, z {np.shape(self.z)}, Y {np.shape(self.Y)}, "
                             f"v {np.shape(self.v)} do not match (n, T, d) = {(n, T, d)}")
        if not np.all(np.isin(self.Y, (-1.0, 1.0))):
            raise ValueError("labels Y must be +-1")

    @property
    def shape(self) -> tuple[int, int, int]:
        return tuple(np.shape(self.X))


def _unit_rows(a: np.ndarray) -> np.ndarray:
    return a / np.linalg.norm(a, axis=-1, keepdims=True)


def synthetic(n: int, T: int, d: int, rng: np.random.Generator) -> AttData:
    """Section 4.1 (CODE): x_it, z_i, v i.i.d. Gaussian normalized to unit ell_2 norm, Y_i = +-1 at random."""
    if min(n, T, d) < 1 or T < 2:
        raise ValueError(f"need n, d >= 1 and T >= 2, got n={n}, T={T}, d={d}")
    X = _unit_rows(rng.standard_normal((n, T, d)))
    z = _unit_rows(rng.standard_normal((n, d)))
    v = _unit_rows(rng.standard_normal(d))
    Y = rng.choice(np.array([-1.0, 1.0]), size=n)
    return AttData(X, z, Y, v)


def joint_toy() -> AttData:
    """Section 4.2 (CODE): n = 2, T = 3, d = 2, z_i = x_i1, Y = (1, -1); v starts at 0 (placeholder here)."""
    X = np.array([[[-2.7, 1.2], [1.4, 2.1], [1.3, -0.1]],
                  [[0.4, -2.2], [-1.1, -0.4], [0.9, 0.1]]])
    return AttData(X, X[:, 0, :].copy(), np.array([1.0, -1.0]), np.zeros(2))


@cache
def section_4_1(seed: int, n: int = 6, T: int = 8, d: int = 10) -> AttData:
    """The Section 4.1 dataset (n = 6, T = 8, d = 10 unless given) drawn from seed, cached."""
    return synthetic(n, T, d, np.random.default_rng(np.random.SeedSequence([seed, 41])))
