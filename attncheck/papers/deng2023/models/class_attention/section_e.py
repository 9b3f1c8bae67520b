"""The row classes of the Section E datasets of deng2023, evaluated by
:mod:`attncheck.papers.deng2023.models.class_attention` (Definition C.4, Claim C.5).

A :class:`ClassModel` lists the distinct query rows of A1 and key rows of A2 = A3 at unit
scale (the dataset is sqrt(log n) times them) with their multiplicities; the scores, the
softmax and c_exp follow per class in float64 or mpmath, at any n.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attncheck.papers.deng2023.models import class_attention as core


@dataclass(frozen=True)
class ClassModel:
    """Distinct rows of A1 (queries) and A2 = A3 (keys) at unit scale, with multiplicities.

    ``column_counts[i]`` is how many columns of the dataset column i stands for (1 in the
    compressed view; 0, 1 or d - 4 in the orbit view). ``r3`` is the column of j3's
    residue and ``identity`` the columns of the stacked identities. Query and key class 0
    is the row j3.
    """

    queries: np.ndarray
    query_counts: np.ndarray
    keys: np.ndarray
    key_counts: np.ndarray
    column_counts: np.ndarray
    r3: int
    identity: np.ndarray
    n: int


def n_value(n, xp):
    """n as a backend value: an integer through float64 (as every evaluator reads it), a value relaxed for
    certification (an orbit model with counts as values) as it is."""
    return xp.asarray(float(n)) if isinstance(n, (int, np.integer)) else xp.asarray(n)


def log_u_exp(model, X, xp):
    """log u_exp per (query class, key class): log n * (unit query row) X (unit key row)^T."""
    L = xp.log(n_value(model.n, xp))
    return L * core.scores(xp.asarray(model.queries), xp.asarray(model.keys), np.asarray(X, dtype=float),
                           model.column_counts, xp)


def log_f_exp(model, X, xp):
    """log f_exp per (query class, key class), key classes weighted by their counts."""
    return core.log_f_exp(log_u_exp(model, X, xp), model.key_counts, xp)


def c_exp(model, X, xp):
    """c_exp per query class and dataset column: <f_exp_{j0}, (A3 V)_{i0}> with A3 = A1, V = I_d."""
    s = xp.sqrt(xp.log(n_value(model.n, xp)))
    values = xp.asarray(model.keys) * s
    return core.c_parts(log_u_exp(model, X, xp), values, model.key_counts, model.column_counts, xp, True).c
