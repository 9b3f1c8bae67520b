"""Hypothesis strategies for bombari2024 token matrices (Assumption 1), boundaries included."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from ..data.token_matrices import FAMILIES, tokens


@dataclass(frozen=True)
class TokenCase:
    """A token matrix and how it was built (shown in counterexamples)."""

    family: str
    n: int
    d: int
    seed: int
    param: float

    @property
    def X(self) -> np.ndarray:
        return tokens(self.family, self.n, self.d, np.random.default_rng(self.seed), self.param)

    def __repr__(self) -> str:
        return f"TokenCase({self.family!r}, n={self.n}, d={self.d}, seed={self.seed}, param={self.param})"


def token_case(n: int, d: int, families=FAMILIES):
    """Every family admissible at (n, d) (orthogonal rows need n <= d); the knob's ends included."""
    fams = [f for f in families if not (f == "orthogonal" and n > d)]
    return st.builds(TokenCase, st.sampled_from(fams), st.just(n), st.just(d), st.integers(0, 2**31 - 1),
                     st.one_of(st.sampled_from([0.0, 1.0]), st.floats(0.0, 1.0)))


def token_case_sizes(n_range=(1, 8), d_range=(1, 8), families=FAMILIES):
    """Token matrices with n, d drawn too (n = 1 and d = 1 included)."""
    return st.tuples(st.integers(*n_range), st.integers(*d_range)).flatmap(lambda nd: token_case(*nd, families))
