"""bombari2024 token matrices X in R^{n x d} satisfying Assumption 1 (every row of norm sqrt(d)).

Deterministic builders from a numpy Generator; each validates Assumption 1 on its output.
Families: normalized Gaussian rows (= rows uniform on the sphere sqrt(d) S^{d-1}), rows on
the binary hypercube {-1, +1}^d, repeated tokens, near-collinear rows, orthogonal rows
(n <= d), low rank, and antipodal pairs. The proofs single out rank(X) = 1 (all tokens
parallel: Lemma D.1 with r = 1, delta_i^perp = 0 in Lemma D.3) and rank(X) = min(n, d)
(Lemma D.2 needs a vector orthogonal to every row, i.e. rank(X) < d).
"""
from __future__ import annotations

import numpy as np

FAMILIES = ("gaussian", "hypercube", "repeated", "collinear", "orthogonal", "low-rank", "antipodal")
#: the families whose X depends on the knob ``param`` of :func:`tokens` (the others ignore it)
KNOBBED = ("repeated", "collinear", "low-rank")
#: the i.i.d. Lipschitz-concentrated, mean-zero families (Theorem 5, Lemmas B.2-B.3)
IID_FAMILIES = ("gaussian", "hypercube")


def normalize_rows(Y: np.ndarray) -> np.ndarray:
    """Rescale every row to norm sqrt(d) (the paper's pre-processing)."""
    Y = np.asarray(Y, float)
    norms = np.linalg.norm(Y, axis=-1, keepdims=True)
    if np.any(norms == 0):
        raise ValueError("a zero row cannot be normalised")
    return Y * (np.sqrt(Y.shape[-1]) / norms)


def check_assumption_1(X: np.ndarray, rtol: float = 1e-12) -> np.ndarray:
    d = X.shape[-1]
    if not np.allclose(np.linalg.norm(X, axis=-1), np.sqrt(d), rtol=rtol, atol=0):
        raise ValueError("Assumption 1 violated: some row norm differs from sqrt(d)")
    return X


def tokens(family: str, n: int, d: int, rng: np.random.Generator, param: float = 0.5) -> np.ndarray:
    """One n x d token matrix of a family; ``param`` in [0, 1] is the family's knob:

    repeated: fraction of distinct tokens; collinear: angular spread (0: identical rows);
    low-rank: rank / min(n, d). Others ignore it.
    """
    if n < 1 or d < 1:
        raise ValueError(f"need n, d >= 1, got {n}, {d}")
    if family == "gaussian":
        Y = rng.standard_normal((n, d))
    elif family == "hypercube":
        return check_assumption_1(rng.choice([-1.0, 1.0], size=(n, d)))
    elif family == "repeated":
        m = max(1, int(round(param * n)))
        Y = rng.standard_normal((m, d))[rng.integers(0, m, n)]
    elif family == "collinear":
        Y = rng.standard_normal(d)[None, :] + param * 1e-3 * rng.standard_normal((n, d))
    elif family == "orthogonal":
        if n > d:
            raise ValueError(f"orthogonal rows need n <= d, got n={n}, d={d}")
        Q, _ = np.linalg.qr(rng.standard_normal((d, n)))
        Y = Q.T
    elif family == "low-rank":
        r = max(1, int(round(param * min(n, d))))
        Y = rng.standard_normal((n, r)) @ rng.standard_normal((r, d))
    elif family == "antipodal":
        half = rng.standard_normal(((n + 1) // 2, d))
        Y = np.concatenate([half, -half])[:n]
    else:
        raise ValueError(f"unknown family {family!r}; choose one of {FAMILIES}")
    return check_assumption_1(normalize_rows(Y))


def iid_samples(family: str, N: int, n: int, d: int, rng: np.random.Generator) -> np.ndarray:
    """N i.i.d. samples (N x n x d) of a mean-zero Lipschitz-concentrated family (Appendix A)."""
    if family not in IID_FAMILIES:
        raise ValueError(f"i.i.d. family must be one of {IID_FAMILIES}, got {family!r}")
    if family == "hypercube":
        return rng.choice([-1.0, 1.0], size=(N, n, d))
    return check_assumption_1(normalize_rows(rng.standard_normal((N, n, d))))
