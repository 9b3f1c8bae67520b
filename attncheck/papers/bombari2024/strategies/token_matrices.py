"""Hypothesis strategies for bombari2024 token matrices (Assumption 1), boundaries included."""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
from hypothesis import strategies as st

from attncheck.core.space import Choice, Int, Real, Space
from attncheck.papers.bombari2024.data.token_matrices import FAMILIES, KNOBBED, tokens


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

    @property
    def canonical(self) -> TokenCase:
        """The case with the same X and the knob at 0 where the family ignores it: one name per token matrix."""
        return self if self.family in KNOBBED else replace(self, param=0.0)

    def __repr__(self) -> str:
        return f"TokenCase({self.family!r}, n={self.n}, d={self.d}, seed={self.seed}, param={self.param})"


def admissible(n: int, d: int, families=FAMILIES) -> tuple[str, ...]:
    """The families that can build an n x d token matrix: orthogonal rows need n <= d."""
    return tuple(f for f in families if not (f == "orthogonal" and n > d))


def token_case(n: int, d: int, families=FAMILIES):
    """Every family admissible at (n, d); the knob's ends included."""
    return st.builds(TokenCase, st.sampled_from(admissible(n, d, families)), st.just(n), st.just(d),
                     st.integers(0, 2**31 - 1), st.one_of(st.sampled_from([0.0, 1.0]), st.floats(0.0, 1.0)))


def token_space(n: int, d: int, families=FAMILIES) -> Space:
    """The cases (X, i) of :func:`token_case` with a token index i in [0, n - 1], as a declared Space: the family,
    its seed and knob, and i as the fraction ``i_frac`` of n (i = min(n - 1, floor(i_frac n))), so that one
    parameter value names a case at every (n, d) of a path (``carry_worst``)."""
    def build(family, seed, knob, i_frac):
        return TokenCase(family, n, d, seed, knob), min(n - 1, math.floor(i_frac * n))

    return Space(build, family=Choice(admissible(n, d, families)), seed=Int(0, 2**31 - 1), knob=Real(0.0, 1.0),
                 i_frac=Real(0.0, 1.0))


def token_case_sizes(n_range=(1, 8), d_range=(1, 8), families=FAMILIES):
    """Token matrices with n, d drawn too (n = 1 and d = 1 included)."""
    return st.tuples(st.integers(*n_range), st.integers(*d_range)).flatmap(lambda nd: token_case(*nd, families))


#: the exponent a of N = k^a (Theorems 4-5) where a claim does not draw it
N_EXP = 1 / 3


@dataclass(frozen=True, repr=False)
class WSCase:
    """One word-sensitivity case: tokens X, the activation, k = ceil(rho D), the depth L, the
    number m of modified tokens (Remark 4.1) and the exponent a of the training-set size N = k^a (Theorems 4-5)."""

    tokens: TokenCase
    act: str = "relu"
    rho: float = 1.0
    depth: int = 1
    m: int = 1
    n_exp: float = N_EXP

    def __repr__(self) -> str:
        """The dataclass repr, with n_exp only where it is not N_EXP: a case's repr seeds its Monte Carlo draws
        (engine.checks.case_rng), so the claims that do not draw n_exp keep the draws they had before it."""
        tail = "" if self.n_exp == N_EXP else f", n_exp={self.n_exp!r}"
        return (f"WSCase(tokens={self.tokens!r}, act={self.act!r}, rho={self.rho!r}, depth={self.depth!r}, "
                f"m={self.m!r}{tail})")

    @property
    def n(self) -> int:
        return self.tokens.n

    @property
    def d(self) -> int:
        return self.tokens.d

    @property
    def k(self) -> int:
        return math.ceil(self.rho * self.n * self.d)


def ws_case(n: int, ds, acts, rhos=(1.0,), depths=(1,), ms=(1,), families=FAMILIES, n_exps=(N_EXP, N_EXP)):
    """WSCase with d, the activation, rho, L and m drawn from the given choices (all included), and the
    exponent a of N = k^a in the interval ``n_exps`` (its two ends included, as the token knob's)."""
    ms_ok = [m for m in ms if 1 <= m <= n] or [n]
    lo, hi = n_exps
    a = st.just(lo) if lo == hi else st.one_of(st.sampled_from([lo, hi]), st.floats(lo, hi))
    return st.builds(WSCase, st.sampled_from(list(ds)).flatmap(lambda d: token_case(n, d, families)),
                     st.sampled_from(list(acts)), st.sampled_from(list(rhos)), st.sampled_from(list(depths)),
                     st.sampled_from(ms_ok), a)


#: the knob of the token families in :func:`ws_space`: its two ends and the middle
KNOBS = (0.0, 0.5, 1.0)
#: the ranks of d in :func:`ws_space` (the d of :func:`ws_case` sorted; a rank past the last is the largest d)
D_RANKS = (0, 1, 2, 3, 4)


def ws_space(n: int, ds, acts, rhos=(1.0,), depths=(1,), families=FAMILIES) -> Space:
    """The cases of :func:`ws_case` (m = 1) as a declared Space, so that one parameter value names a case at
    every path point (``carry_worst``): d by its rank among the sorted ``ds`` (``d_rank``, clamped to the
    largest), the family's knob in :data:`KNOBS`. Orthogonal rows need n <= d: the family is offered when
    some d in ``ds`` admits it, and is built at the smallest such d when the ranked d does not.

    Corners run in the order of the parameters (the last varies fastest), so the activation, rho and L come
    last: the first corners cover them at the first family, seed, knob and d rank."""
    ds = sorted(ds)
    fams = admissible(n, ds[-1], families)

    def build(family, seed, knob, d_rank, depth, act, rho):
        d = ds[min(d_rank, len(ds) - 1)]
        if family == "orthogonal" and n > d:
            d = min(x for x in ds if x >= n)
        return WSCase(TokenCase(family, n, d, seed, knob), act, rho, depth)

    return Space(build, family=Choice(fams), seed=Int(0, 2**31 - 1), knob=Choice(KNOBS), d_rank=Choice(D_RANKS),
                 depth=Choice(tuple(depths)), act=Choice(tuple(acts)), rho=Choice(tuple(rhos)))
