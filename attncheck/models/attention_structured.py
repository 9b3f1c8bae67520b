"""Structured evaluators of Deng et al. 2023 (Definitions C.1, C.2, C.4, C.6) on the
datasets of Definitions D.1 and F.1, without any n x n or length-n array.

A :class:`~attncheck.data.attention.CompressedDataset` lists the p distinct rows of A1
(query classes) and the q distinct rows of A2 (key classes, on which A3 is constant)
with integer multiplicities. For any X the score (A1 X A2^T)_{j0,j1} depends only on
the classes of j0 and j1, so

* row j0 of u / f is given by its q values on the key classes, each value occurring
  ``data.keys.counts`` times: u_*, f_* return (p, q) arrays, one row per query class;
* alpha_* (p,) and c_* (p, d) are per query class; F_* sums over query classes
  weighted by ``data.queries.counts``.

The dense entry (j0, j1) is ``values[data.queries.class_of(j0), data.keys.class_of(j1)]``
and c_{j0} is ``c[data.queries.class_of(j0)]``. Any X, V in R^{d x d} are supported.
Cost O(p q d + (p + q) d^2 + B m p d) time and O(p q + p d + d^2) memory (plus bounded
chunks over the batch of y), where p, q <= d for D.1 / F.1; n enters only through the
counts, so n = 10^9 costs the same as n = 10^3.
"""

from __future__ import annotations

import numpy as np

from attncheck.data.attention import CompressedDataset
from attncheck.models import attention as dense


def _check(data: object) -> CompressedDataset:
    if not isinstance(data, CompressedDataset):
        raise ValueError(f"data must be a CompressedDataset (see .compressed()); got {type(data).__name__}")
    return data


def _scores(data: CompressedDataset, X: np.ndarray) -> np.ndarray:
    """S[alpha, beta] = (query row alpha) X (key row beta)^T (Claims C.3, C.5); (p, q)."""
    d = _check(data).d
    X = dense.as_array("X", X, 2, (d, d), "X = QK^T in R^{d x d}")
    return data.queries.rows @ X @ data.keys.rows.T


def _values(data: CompressedDataset, V: np.ndarray) -> np.ndarray:
    """Rows of A3 V on the key classes; (q, d)."""
    d = data.d
    return data.values @ dense.as_array("V", V, 2, (d, d), "V in R^{d x d}")


def u_lin(data: CompressedDataset, X: np.ndarray) -> np.ndarray:
    """u_lin values per (query class, key class) (Definition C.1, Claim C.3); (p, q)."""
    return _scores(data, X)


def alpha_lin(data: CompressedDataset, X: np.ndarray) -> np.ndarray:
    """alpha_lin per query class (Definition C.1); (p,)."""
    return dense.alpha_lin_from_scores(_scores(data, X), data.keys.counts)


def f_lin(data: CompressedDataset, X: np.ndarray) -> np.ndarray:
    """f_lin values per (query class, key class) (Definition C.1); (p, q)."""
    return dense.f_lin_from_scores(_scores(data, X), data.keys.counts)


def c_lin(data: CompressedDataset, X: np.ndarray, V: np.ndarray) -> np.ndarray:
    """c_lin per query class (Definition C.1); (p, d)."""
    f = f_lin(data, X)
    return dense.c_from_f(f, _values(data, V), data.keys.counts)


def log_u_exp(data: CompressedDataset, X: np.ndarray) -> np.ndarray:
    """log u_exp values per (query class, key class) (Definition C.4, Claim C.5); (p, q)."""
    return _scores(data, X)


def u_exp(data: CompressedDataset, X: np.ndarray) -> np.ndarray:
    """u_exp values per (query class, key class); OverflowError if not representable."""
    return dense.checked_exp(log_u_exp(data, X), "u_exp")


def log_alpha_exp(data: CompressedDataset, X: np.ndarray) -> np.ndarray:
    """log alpha_exp per query class (Definition C.4); (p,)."""
    return dense.log_alpha_exp_from_scores(_scores(data, X), data.keys.counts)


def alpha_exp(data: CompressedDataset, X: np.ndarray) -> np.ndarray:
    """alpha_exp per query class; OverflowError if not representable."""
    return dense.checked_exp(log_alpha_exp(data, X), "alpha_exp")


def log_f_exp(data: CompressedDataset, X: np.ndarray) -> np.ndarray:
    """log f_exp values per (query class, key class) (Definition C.4); (p, q)."""
    return dense.log_f_exp_from_scores(_scores(data, X), data.keys.counts)


def f_exp(data: CompressedDataset, X: np.ndarray) -> np.ndarray:
    """f_exp values per (query class, key class) (Definition C.4), log domain; (p, q)."""
    return dense.f_exp_from_scores(_scores(data, X), data.keys.counts)


def c_exp(data: CompressedDataset, X: np.ndarray, V: np.ndarray) -> np.ndarray:
    """c_exp per query class (Definition C.4); (p, d)."""
    f = f_exp(data, X)
    return dense.c_from_f(f, _values(data, V), data.keys.counts)


def F_lin(data: CompressedDataset, X: np.ndarray, V: np.ndarray, y: np.ndarray, tau: float):
    """F_lin (Definition C.2); y in R^{d x m} or a batch (B, d, m); float or (B,)."""
    return dense.network_head(c_lin(data, X, V), y, tau, data.queries.counts)


def F_exp(data: CompressedDataset, X: np.ndarray, V: np.ndarray, y: np.ndarray, tau: float):
    """F_exp (Definition C.6, with y in R^{d x m}); y may be a batch (B, d, m); float or (B,)."""
    return dense.network_head(c_exp(data, X, V), y, tau, data.queries.counts)
