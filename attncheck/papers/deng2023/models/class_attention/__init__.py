"""Class-structured attention of Deng et al. 2023 (Definitions C.1, C.4; Claims C.3, C.5),
evaluated on row classes and column groups, at a cost free of n.

A dataset enters as

* ``queries`` (p, g): the rows of A1 on g column groups, one row per query class; a query
  row must be constant on every group where X mixes columns (X = I_d: value per column);
* ``keys`` (q, g): the rows of A2, as their sums over each group, one row per key class,
  with integer ``key_counts`` (q,) (how many rows of A2 the class holds);
* ``values`` (q, g): the rows of A3 V on the key classes, as sums over each group;
* ``widths`` (g,): the number of columns of each group.

X = QK^T is ``"identity"`` (S = queries keys^T), ``"ones"`` (S = (queries widths)(sum keys))
or a (g, g) array (S = queries X keys^T, for groups of one column). Attention and c are
formed as ratios of integer-weighted sums of exp(S - max S) (softmax) or S / max S
(linear), every sum in one order, so the paper's tight cases (f = 1/n, c = t/n, c = 1)
come out exact and tie exactly. Every function takes the backend ``xp`` of
:mod:`attncheck.numeric.precision` and uses only its operations on values.

Cost O(p q g) (+ O(p g^2) for an array X); n enters only through the counts. The dataset
modules build the classes: :mod:`.rows` (any X, V, one group per column),
:mod:`.definition_d1` (Definition D.1, X in {1, I}), :mod:`.definition_f1` (Definition F.1,
X = I) and :mod:`.section_e` (Section E).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

X_CHOICES = ("ones", "identity")


def counts_of(xp, counts):
    """Integer counts or widths as backend values (an object array, e.g. of counts relaxed to
    reals as arb balls, is passed through)."""
    counts = np.asarray(counts)
    return xp.asarray(counts if counts.dtype == object else counts.astype(float))


def scores(queries, keys, X, widths, xp):
    """S = A1 X A2^T per (query class, key class) (Claims C.3, C.5); (p, q)."""
    if isinstance(X, str):
        if X not in X_CHOICES:
            raise ValueError(f"X must be one of {X_CHOICES} or an array; got {X!r}")
        if X == "identity":
            return queries @ keys.T
        return xp.sum(queries * counts_of(xp, widths), axis=1)[:, None] * xp.sum(keys, axis=1)[None, :]
    return queries @ xp.asarray(X) @ keys.T


def row_max(S, xp):
    """max over the key classes of each row of S; (p,)."""
    top = S[:, 0]
    for j in range(1, S.shape[1]):
        top = xp.maximum(top, S[:, j])
    return top


def shifted(S, xp, softmax: bool):
    """Unnormalised attention scaled by the row's largest score: exp(S - max S) (Definition
    C.4) or S / max S (Definition C.1); equal scores give exactly 1 and nothing overflows."""
    top = row_max(S, xp)[:, None]
    return xp.exp(S - top) if softmax else S / top


class Parts(NamedTuple):
    """A ratio per query class: ``numerator`` (p, k) over ``alpha`` (p,)."""

    numerator: object
    alpha: object

    @property
    def ratio(self):
        return self.numerator / self.alpha[:, None]

    @property
    def c(self):
        return self.ratio


def weighted_sums(w, columns, key_counts, xp) -> Parts:
    """(w @ columns, w @ key_counts) per row, every sum taken term by term in the same order:
    a column equal to the counts has numerator == alpha exactly."""
    stacked = np.concatenate([columns, counts_of(xp, key_counts)[:, None]], axis=1)
    sums = xp.sum(w[:, :, None] * stacked[None], axis=1)
    return Parts(sums[:, :-1], sums[:, -1])


def f(S, key_counts, xp, softmax: bool):
    """f_exp (Definition C.4) or f_lin (Definition C.1) per (query class, key class); (p, q)."""
    eye = counts_of(xp, np.eye(S.shape[1]))
    return weighted_sums(shifted(S, xp, softmax), eye, key_counts, xp).ratio


def alpha_lin(S, key_counts, xp):
    """alpha_lin_{j0} = <u_lin_{j0}, 1_n> (Definition C.1); (p,)."""
    return xp.sum(S * counts_of(xp, key_counts)[None, :], axis=1)


def log_alpha_exp(S, key_counts, xp):
    """log alpha_exp_{j0} = log <exp(S_{j0}), 1_n> (Definition C.4); (p,)."""
    return row_max(S, xp) + xp.log(xp.sum(shifted(S, xp, True) * counts_of(xp, key_counts)[None, :], axis=1))


def log_f_exp(S, key_counts, xp):
    """log f_exp = S - log alpha_exp (Definition C.4), shifted by the row maximum; (p, q)."""
    top = row_max(S, xp)[:, None]
    total = xp.sum(xp.exp(S - top) * counts_of(xp, key_counts)[None, :], axis=1)
    return (S - top) - xp.log(total)[:, None]


def incidence(values, key_counts, widths, xp):
    """[K, G]: the sum over key class K's rows of one column of group G of A3 V; (q, g). Integer widths
    of 0 (a group without columns) divide as 1; widths relaxed to values (an object array) are those of
    present groups, >= 1, and are not compared."""
    widths = np.asarray(widths)
    per_column = widths if widths.dtype == object else np.maximum(widths, 1)
    return counts_of(xp, key_counts)[:, None] * values / counts_of(xp, per_column)[None, :]


def c_parts(S, values, key_counts, widths, xp, softmax: bool) -> Parts:
    """c_{j0,i0} = <f_{j0}, (A3 V)_{*,i0}> (Definitions C.1, C.4) per (query class, group),
    as numerator / alpha: c is constant on a group whose columns the classes exchange."""
    return weighted_sums(shifted(S, xp, softmax), incidence(values, key_counts, widths, xp), key_counts, xp)
