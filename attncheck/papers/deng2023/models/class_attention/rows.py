"""Any X, V on a :class:`~attncheck.papers.deng2023.data.attention.CompressedDataset`, evaluated by
:mod:`attncheck.papers.deng2023.models.class_attention` (Definitions C.1, C.2, C.4, C.6) with one column
group per column.

The dataset lists the p distinct rows of A1 (query classes) and the q distinct rows of A2
(key classes, on which A3 is constant) with integer multiplicities; the dense entry
(j0, j1) is ``values[data.queries.class_of(j0), data.keys.class_of(j1)]`` and c_{j0} is
``c[data.queries.class_of(j0)]``. Cost O(p q d + (p + q) d^2) for d x d arrays X, V; n
enters only through the counts. The network heads F take float64 values.
"""
from __future__ import annotations

import numpy as np

from attncheck.numeric.precision import F64
from attncheck.papers.deng2023.data.attention import CompressedDataset
from attncheck.papers.deng2023.models import attention as dense
from attncheck.papers.deng2023.models.class_attention import c_parts, counts_of
from attncheck.papers.deng2023.models.class_attention import f as attention
from attncheck.papers.deng2023.models.class_attention import log_alpha_exp as _log_alpha_exp
from attncheck.papers.deng2023.models.class_attention import log_f_exp as _log_f_exp
from attncheck.papers.deng2023.models.class_attention import scores as _scores_of


def _check(data: object) -> CompressedDataset:
    if not isinstance(data, CompressedDataset):
        raise ValueError(f"data must be a CompressedDataset (see .compressed()); got {type(data).__name__}")
    return data


def _scores(data: CompressedDataset, X, xp):
    """S[alpha, beta] = (query row alpha) X (key row beta)^T (Claims C.3, C.5); (p, q)."""
    d = _check(data).d
    X = dense.as_array("X", X, 2, (d, d), "X = QK^T in R^{d x d}")
    return _scores_of(xp.asarray(data.queries.rows), xp.asarray(data.keys.rows), X, np.ones(d), xp)


def _values(data: CompressedDataset, V, xp):
    """Rows of A3 V on the key classes; (q, d)."""
    d = data.d
    return xp.asarray(data.values) @ xp.asarray(dense.as_array("V", V, 2, (d, d), "V in R^{d x d}"))


def u_lin(data: CompressedDataset, X, xp=F64):
    """u_lin values per (query class, key class) (Definition C.1, Claim C.3); (p, q)."""
    return _scores(data, X, xp)


def alpha_lin(data: CompressedDataset, X, xp=F64):
    """alpha_lin per query class (Definition C.1); (p,)."""
    S = _scores(data, X, xp)
    return xp.sum(S * counts_of(xp, data.keys.counts)[None, :], axis=1)


def f_lin(data: CompressedDataset, X, xp=F64):
    """f_lin values per (query class, key class) (Definition C.1); (p, q)."""
    return attention(_scores(data, X, xp), data.keys.counts, xp, softmax=False)


def c_lin(data: CompressedDataset, X, V, xp=F64):
    """c_lin per query class (Definition C.1); (p, d)."""
    return c_parts(_scores(data, X, xp), _values(data, V, xp), data.keys.counts, np.ones(data.d), xp, False).c


def log_u_exp(data: CompressedDataset, X, xp=F64):
    """log u_exp values per (query class, key class) (Definition C.4, Claim C.5); (p, q)."""
    return _scores(data, X, xp)


def u_exp(data: CompressedDataset, X):
    """u_exp values per (query class, key class); OverflowError if not representable."""
    return dense.checked_exp(log_u_exp(data, X), "u_exp")


def log_alpha_exp(data: CompressedDataset, X, xp=F64):
    """log alpha_exp per query class (Definition C.4); (p,)."""
    return _log_alpha_exp(_scores(data, X, xp), data.keys.counts, xp)


def alpha_exp(data: CompressedDataset, X):
    """alpha_exp per query class; OverflowError if not representable."""
    return dense.checked_exp(log_alpha_exp(data, X), "alpha_exp")


def log_f_exp(data: CompressedDataset, X, xp=F64):
    """log f_exp values per (query class, key class) (Definition C.4); (p, q)."""
    return _log_f_exp(_scores(data, X, xp), data.keys.counts, xp)


def f_exp(data: CompressedDataset, X, xp=F64):
    """f_exp values per (query class, key class) (Definition C.4); (p, q)."""
    return attention(_scores(data, X, xp), data.keys.counts, xp, softmax=True)


def c_exp(data: CompressedDataset, X, V, xp=F64):
    """c_exp per query class (Definition C.4); (p, d)."""
    return c_parts(_scores(data, X, xp), _values(data, V, xp), data.keys.counts, np.ones(data.d), xp, True).c


def F_lin(data: CompressedDataset, X, V, y, tau: float):
    """F_lin (Definition C.2); y in R^{d x m} or a batch (B, d, m); float or (B,)."""
    return dense.network_head(c_lin(data, X, V), y, tau, data.queries.counts)


def F_exp(data: CompressedDataset, X, V, y, tau: float):
    """F_exp (Definition C.6, with y in R^{d x m}); y may be a batch (B, d, m); float or (B,)."""
    return dense.network_head(c_exp(data, X, V), y, tau, data.queries.counts)
