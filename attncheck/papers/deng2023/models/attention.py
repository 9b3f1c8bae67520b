"""Dense reference implementation of the Q, K, V attention model of Deng et al. 2023,
"Why Softmax Attention Outperforms Linear Attention" (arXiv 2310.11685):
Fact A.1, Definitions C.1, C.2, C.4, C.6 and Claims C.3, C.5.

numpy float64. Forms n x n (and, in tensor form, n^2 x d^2) arrays: small n only; see
:mod:`attncheck.papers.deng2023.models.class_attention` for large n.

Conventions
-----------
* Indices are 0-based: j0, j1 in {0, ..., n-1}, i0 in {0, ..., d-1}.
* ``vec`` is row-major, vec(M)[i * cols + j] = M[i, j]. The paper's Kronecker product
  (entry ((i1-1) n2 + i2, (j1-1) d2 + j2) is A_{i1,j1} B_{i2,j2}) is ``numpy.kron``, and
  (A1 ⊗ A2) vec(X) = vec(A1 X A2^T) holds for the row-major vec: this is Fact A.1. The
  column-major vec gives vec(A2 X A1^T) instead, so Fact A.1 fails for it unless
  A1 X A2^T = A2 X A1^T (checked in tests/papers/deng2023/test_models_attention.py).
* Block j0 of 𝖠 (its rows j0 n, ..., j0 n + n - 1) is (A1)_{j0,*} ⊗ A2, hence
  𝖠_{j0} x = ((A1)_{j0,*} X A2^T)^T (Claims C.3, C.5). Row j0 of the n x n score matrix
  S = A1 X A2^T is u_lin(𝖠, x)_{j0} = log u_exp(𝖠, x)_{j0}.
* (A3 V)_{i0} in Definitions C.1/C.4 is column i0 of A3 V, so c_{j0} = (A3 V)^T f_{j0}
  and the matrix of all c_{j0} is c = f A3 V (n x d).
* Softmax quantities are computed in the log domain (row-wise logsumexp); u_exp and
  alpha_exp raise OverflowError rather than return inf.
* ``*_from_scores`` take optional integer ``counts``: column j1 of S then stands for
  counts[j1] equal columns. The dense functions use counts = 1; the structured module
  uses the multiplicities of the distinct rows of the datasets.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import logsumexp

from attncheck.papers.deng2023.models.toy import phi, phi_tau  # Definition 3.4, shared with the toy model

_CHUNK_ELEMENTS = 1 << 22
"""Largest (batch x rows x m) block of inner products evaluated at once in network_head."""


# --------------------------------------------------------------------- validation


def as_array(name: str, value: object, ndim: int, shape: tuple[int | None, ...] | None = None,
             why: str = "") -> np.ndarray:
    """``value`` as a finite float64 array with ``ndim`` axes and the given ``shape``
    (None = any length); ValueError naming the violated constraint otherwise."""
    array = np.asarray(value)
    if array.dtype.kind not in "iuf":
        raise ValueError(f"{name} must be a real numeric array; got dtype {array.dtype}")
    if array.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} axes; got shape {array.shape}")
    if shape is not None and any(w is not None and w != g for w, g in zip(shape, array.shape, strict=False)):
        wanted = "(" + ", ".join("*" if w is None else str(w) for w in shape) + ")"
        reason = f" ({why})" if why else ""
        raise ValueError(f"{name} must have shape {wanted}{reason}; got {array.shape}")
    array = array.astype(np.float64, copy=False)
    if not np.isfinite(array).all():
        raise ValueError(f"{name} must be finite; it contains NaN or inf")
    return array


def _scalar(name: str, value: object) -> float:
    return float(as_array(name, value, 0))


def _isqrt(name: str, size: int) -> int:
    root = math.isqrt(size)
    if root * root != size or size == 0:
        raise ValueError(f"{name} must be a positive perfect square (n^2 or d^2); got {size}")
    return root


def _multiplicities(counts: object, size: int) -> np.ndarray:
    """counts as float64 weights of length ``size`` (all ones if None)."""
    if counts is None:
        return np.ones(size)
    array = np.asarray(counts)
    if array.dtype.kind not in "iu" or array.shape != (size,) or (array < 1).any():
        raise ValueError(f"counts must be {size} positive integers; got {counts!r}")
    return array.astype(np.float64)


# --------------------------------------------------------------------- Appendix A


def vec(M: np.ndarray) -> np.ndarray:
    """Row-major vectorization, vec(M)[i cols + j] = M[i, j] (the convention of Fact A.1)."""
    return as_array("M", M, 2).reshape(-1)


def tensor_A(A1: np.ndarray, A2: np.ndarray) -> np.ndarray:
    """𝖠 = A1 ⊗ A2 in R^{n^2 x d^2} (Fact A.1, Appendix A Kronecker convention)."""
    A1 = as_array("A1", A1, 2)
    A2 = as_array("A2", A2, 2, A1.shape, "Fact A.1: A1, A2 in R^{n x d}")
    return np.kron(A1, A2)


# --------------------------------------------------------------------- scores


def _tensor_scores(A: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, int]:
    """(S, d) with row j0 of S = 𝖠_{j0} x (Definitions C.1, C.4)."""
    A = as_array("A", A, 2)
    n, d = _isqrt("the number of rows of A", A.shape[0]), _isqrt("the number of columns of A", A.shape[1])
    x = as_array("x", x, 1, (A.shape[1],), "x = vec(QK^T) in R^{d^2}, d^2 = columns of A")
    return (A @ x).reshape(n, n), d


def _matrix_scores(A1: np.ndarray, A2: np.ndarray, X: np.ndarray) -> tuple[np.ndarray, int]:
    """(S, d) with S = A1 X A2^T (Claims C.3, C.5)."""
    A1 = as_array("A1", A1, 2)
    A2 = as_array("A2", A2, 2, A1.shape, "A1, A2 in R^{n x d}")
    d = A1.shape[1]
    X = as_array("X", X, 2, (d, d), "X = QK^T in R^{d x d}")
    return A1 @ X @ A2.T, d


def _values(A3: np.ndarray, V: np.ndarray, n: int, d: int) -> np.ndarray:
    """A3 V in R^{n x d}, whose column i0 is (A3 V)_{i0} of Definitions C.1, C.4."""
    A3 = as_array("A3", A3, 2, (n, d), "A3 in R^{n x d}")
    return A3 @ as_array("V", V, 2, (d, d), "V in R^{d x d}")


# --------------------------------------------------------------------- quantities from scores


def alpha_lin_from_scores(S: np.ndarray, counts: np.ndarray | None = None) -> np.ndarray:
    """alpha_lin_{j0} = <u_lin_{j0}, 1_n> (Definition C.1), columns weighted by counts."""
    return S @ _multiplicities(counts, S.shape[-1])


def f_lin_from_scores(S: np.ndarray, counts: np.ndarray | None = None) -> np.ndarray:
    """f_lin_{j0} = alpha_lin_{j0}^{-1} u_lin_{j0} (Definition C.1)."""
    alpha = alpha_lin_from_scores(S, counts)
    if (alpha == 0).any():
        rows = np.flatnonzero(alpha == 0)
        raise ValueError(f"alpha_lin vanishes at rows {rows}: f_lin = u_lin / alpha_lin is undefined")
    return S / alpha[..., None]


def log_alpha_exp_from_scores(S: np.ndarray, counts: np.ndarray | None = None) -> np.ndarray:
    """log alpha_exp_{j0} = logsumexp_j1 of S_{j0,j1} (Definition C.4), weighted by counts."""
    return logsumexp(S + np.log(_multiplicities(counts, S.shape[-1])), axis=-1)


def log_f_exp_from_scores(S: np.ndarray, counts: np.ndarray | None = None) -> np.ndarray:
    """log f_exp_{j0} = log u_exp_{j0} - log alpha_exp_{j0} (Definition C.4)."""
    return S - log_alpha_exp_from_scores(S, counts)[..., None]


def f_exp_from_scores(S: np.ndarray, counts: np.ndarray | None = None) -> np.ndarray:
    """f_exp_{j0} = alpha_exp_{j0}^{-1} u_exp_{j0} = softmax of row j0 (Definition C.4)."""
    return np.exp(log_f_exp_from_scores(S, counts))


def c_from_f(f: np.ndarray, values: np.ndarray, counts: np.ndarray | None = None) -> np.ndarray:
    """c_{j0,i0} = <f_{j0}, (A3 V)_{i0}> (Definitions C.1, C.4); values = A3 V."""
    return (f * _multiplicities(counts, f.shape[-1])) @ values


def checked_exp(log_value: np.ndarray, name: str) -> np.ndarray:
    """exp(log_value), raising OverflowError (never inf) if float64 cannot hold it."""
    with np.errstate(over="ignore"):
        value = np.exp(log_value)
    if np.isinf(value).any():
        raise OverflowError(
            f"{name} overflows float64 (largest log {np.max(log_value):.6g}); use log_{name}"
        )
    return value


def network_head(c: np.ndarray, y: np.ndarray, tau: float, counts: np.ndarray | None = None):
    """phi(sum_{j0} sum_l phi_tau(<c_{j0}, y_l>)) of Definitions C.2, C.6.

    c: (rows, d), row j0 is c_{j0} (with ``counts``, row j0 stands for counts[j0] equal
    rows). y: (d, m), column l is y_l, or a batch (B, d, m). Returns a float for 2-D y
    and a (B,) array for 3-D y.
    """
    c = as_array("c", c, 2)
    y = np.asarray(y)
    if y.ndim not in (2, 3):
        raise ValueError(f"y must have shape (d, m) or (B, d, m); got {y.shape}")
    batched = y.ndim == 3
    y = as_array("y", y if batched else y[None], 3, (None, c.shape[1], None), f"d = {c.shape[1]}")
    if 0 in y.shape:
        raise ValueError(f"y must have B >= 1 and m >= 1; got shape {y.shape}")
    tau = _scalar("tau", tau)
    weights = _multiplicities(counts, c.shape[0])
    chunk = max(1, _CHUNK_ELEMENTS // (c.shape[0] * y.shape[2]))
    inner = [np.einsum("bpm,p->b", phi_tau(c @ y[s:s + chunk], tau), weights)
             for s in range(0, len(y), chunk)]
    total = phi(np.concatenate(inner))
    return total if batched else float(total[0])


# --------------------------------------------------------------------- tensor form (Definitions C.1, C.4)


def u_lin(A: np.ndarray, x: np.ndarray) -> np.ndarray:
    """u_lin(𝖠, x)_{j0} = 𝖠_{j0} x (Definition C.1); (n, n), row j0."""
    return _tensor_scores(A, x)[0]


def alpha_lin(A: np.ndarray, x: np.ndarray) -> np.ndarray:
    """alpha_lin(𝖠, x)_{j0} = <u_lin_{j0}, 1_n> (Definition C.1); (n,)."""
    return alpha_lin_from_scores(u_lin(A, x))


def f_lin(A: np.ndarray, x: np.ndarray) -> np.ndarray:
    """f_lin(𝖠, x)_{j0} = alpha_lin_{j0}^{-1} u_lin_{j0} (Definition C.1); (n, n)."""
    return f_lin_from_scores(u_lin(A, x))


def c_lin(A: np.ndarray, x: np.ndarray, A3: np.ndarray, V: np.ndarray) -> np.ndarray:
    """c_lin(𝖠, x)_{j0,i0} = <f_lin_{j0}, (A3 V)_{i0}> (Definition C.1); (n, d)."""
    S, d = _tensor_scores(A, x)
    return c_from_f(f_lin_from_scores(S), _values(A3, V, S.shape[0], d))


def log_u_exp(A: np.ndarray, x: np.ndarray) -> np.ndarray:
    """log u_exp(𝖠, x)_{j0} = 𝖠_{j0} x (Definition C.4); (n, n)."""
    return _tensor_scores(A, x)[0]


def u_exp(A: np.ndarray, x: np.ndarray) -> np.ndarray:
    """u_exp(𝖠, x)_{j0} = exp(𝖠_{j0} x) (Definition C.4); OverflowError if not representable."""
    return checked_exp(log_u_exp(A, x), "u_exp")


def log_alpha_exp(A: np.ndarray, x: np.ndarray) -> np.ndarray:
    """log alpha_exp(𝖠, x)_{j0} = log <u_exp_{j0}, 1_n> (Definition C.4); (n,)."""
    return log_alpha_exp_from_scores(log_u_exp(A, x))


def alpha_exp(A: np.ndarray, x: np.ndarray) -> np.ndarray:
    """alpha_exp(𝖠, x)_{j0} = <u_exp_{j0}, 1_n> (Definition C.4); OverflowError if not representable."""
    return checked_exp(log_alpha_exp(A, x), "alpha_exp")


def log_f_exp(A: np.ndarray, x: np.ndarray) -> np.ndarray:
    """log f_exp(𝖠, x)_{j0} (Definition C.4), exact where f_exp underflows; (n, n)."""
    return log_f_exp_from_scores(log_u_exp(A, x))


def f_exp(A: np.ndarray, x: np.ndarray) -> np.ndarray:
    """f_exp(𝖠, x)_{j0} = alpha_exp_{j0}^{-1} u_exp_{j0} (Definition C.4), log domain; (n, n)."""
    return f_exp_from_scores(log_u_exp(A, x))


def c_exp(A: np.ndarray, x: np.ndarray, A3: np.ndarray, V: np.ndarray) -> np.ndarray:
    """c_exp(𝖠, x)_{j0,i0} = <f_exp_{j0}, (A3 V)_{i0}> (Definition C.4); (n, d)."""
    S, d = _tensor_scores(A, x)
    return c_from_f(f_exp_from_scores(S), _values(A3, V, S.shape[0], d))


# --------------------------------------------------------------------- matrix form (Claims C.3, C.5)


def u_lin_matrix(A1: np.ndarray, A2: np.ndarray, X: np.ndarray) -> np.ndarray:
    """u_lin_{j0} = ((A1)_{j0,*} X A2^T)^T (Claim C.3), i.e. A1 X A2^T; (n, n)."""
    return _matrix_scores(A1, A2, X)[0]


def alpha_lin_matrix(A1: np.ndarray, A2: np.ndarray, X: np.ndarray) -> np.ndarray:
    """alpha_lin_{j0} = <((A1)_{j0,*} X A2^T)^T, 1_n> (Claim C.3); (n,)."""
    return alpha_lin_from_scores(u_lin_matrix(A1, A2, X))


def f_lin_matrix(A1: np.ndarray, A2: np.ndarray, X: np.ndarray) -> np.ndarray:
    """f_lin (Definition C.1) from the matrix form of Claim C.3; (n, n)."""
    return f_lin_from_scores(u_lin_matrix(A1, A2, X))


def c_lin_matrix(A1: np.ndarray, A2: np.ndarray, A3: np.ndarray, X: np.ndarray,
                 V: np.ndarray) -> np.ndarray:
    """c_lin = f_lin A3 V (Definition C.1 via Claim C.3); (n, d)."""
    S, d = _matrix_scores(A1, A2, X)
    return c_from_f(f_lin_from_scores(S), _values(A3, V, S.shape[0], d))


def log_u_exp_matrix(A1: np.ndarray, A2: np.ndarray, X: np.ndarray) -> np.ndarray:
    """log u_exp_{j0} = ((A1)_{j0,*} X A2^T)^T (Claim C.5); (n, n)."""
    return _matrix_scores(A1, A2, X)[0]


def u_exp_matrix(A1: np.ndarray, A2: np.ndarray, X: np.ndarray) -> np.ndarray:
    """u_exp_{j0} = exp((A1)_{j0,*} X A2^T)^T (Claim C.5); OverflowError if not representable."""
    return checked_exp(log_u_exp_matrix(A1, A2, X), "u_exp")


def log_alpha_exp_matrix(A1: np.ndarray, A2: np.ndarray, X: np.ndarray) -> np.ndarray:
    """log alpha_exp_{j0} = log <exp((A1)_{j0,*} X A2^T)^T, 1_n> (Claim C.5); (n,)."""
    return log_alpha_exp_from_scores(log_u_exp_matrix(A1, A2, X))


def alpha_exp_matrix(A1: np.ndarray, A2: np.ndarray, X: np.ndarray) -> np.ndarray:
    """alpha_exp (Claim C.5); OverflowError if not representable."""
    return checked_exp(log_alpha_exp_matrix(A1, A2, X), "alpha_exp")


def log_f_exp_matrix(A1: np.ndarray, A2: np.ndarray, X: np.ndarray) -> np.ndarray:
    """log f_exp (Definition C.4) from the matrix form of Claim C.5; (n, n)."""
    return log_f_exp_from_scores(log_u_exp_matrix(A1, A2, X))


def f_exp_matrix(A1: np.ndarray, A2: np.ndarray, X: np.ndarray) -> np.ndarray:
    """f_exp (Definition C.4) from the matrix form of Claim C.5, log domain; (n, n)."""
    return f_exp_from_scores(log_u_exp_matrix(A1, A2, X))


def c_exp_matrix(A1: np.ndarray, A2: np.ndarray, A3: np.ndarray, X: np.ndarray,
                 V: np.ndarray) -> np.ndarray:
    """c_exp = f_exp A3 V (Definition C.4 via Claim C.5); (n, d)."""
    S, d = _matrix_scores(A1, A2, X)
    return c_from_f(f_exp_from_scores(S), _values(A3, V, S.shape[0], d))


# --------------------------------------------------------------------- networks (Definitions C.2, C.6)


def F_lin(A1: np.ndarray, A2: np.ndarray, A3: np.ndarray, X: np.ndarray, V: np.ndarray,
          y: np.ndarray, tau: float):
    """F_lin = phi(sum_{j0} sum_l phi_tau(<c_lin_{j0}, y_l>)) (Definition C.2).

    y in R^{d x m} (or a batch B x d x m); returns a float (or a (B,) array).
    """
    return network_head(c_lin_matrix(A1, A2, A3, X, V), y, tau)


def F_exp(A1: np.ndarray, A2: np.ndarray, A3: np.ndarray, X: np.ndarray, V: np.ndarray,
          y: np.ndarray, tau: float):
    """F_exp = phi(sum_{j0} sum_l phi_tau(<c_exp_{j0}, y_l>)) (Definition C.6).

    Definition C.6 states y in R^{n x m}, but y_l is paired with c_exp_{j0} in R^d; we
    take y in R^{d x m} as in Definition C.2 (or a batch B x d x m). Returns a float
    (or a (B,) array).
    """
    return network_head(c_exp_matrix(A1, A2, A3, X, V), y, tau)


# ---- general inputs (A1, A2, A3, Q, K, V of one case): the two forms of Fact A.1 and Claims C.3, C.5 ----------------

def general_tensor_form(case):
    """(A1 (x) A2, vec(QK^T)) of Definitions C.1, C.4."""
    return tensor_A(case.A1, case.A2), vec(case.X)


def general_matrix_scores(case):
    """(A1)_{j0,*} Q K^T A2^T for every j0 (rows), and the magnitude |A1||Q||K|^T|A2|^T (Claims C.3, C.5)."""
    magnitude = np.abs(case.A1) @ np.abs(case.Q) @ np.abs(case.K).T @ np.abs(case.A2).T
    return case.A1 @ case.Q @ case.K.T @ case.A2.T, magnitude
