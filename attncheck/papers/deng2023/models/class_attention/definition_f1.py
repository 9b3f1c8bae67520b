"""The classes of the Definition F.1 datasets with X = QK^T = I_d and V = I_d (the setting
of Lemmas F.2-F.16), evaluated by :mod:`attncheck.papers.deng2023.models.class_attention` in O(1) time and
memory.

Why the reduction is exact
--------------------------
With X = I_d the score is S_{j0,j1} = <(A1)_{j0,*}, (A2)_{j1,*}> (Claims C.3, C.5). Every
row of A1 is constant on each of three column groups (0-based columns, the reading of
attncheck/data/attention.py):

* ``FIRST``: column 0 (a log n at row j2, 0 elsewhere in A1; e_{j3} in A2 = A3);
* ``R3``: column 1 + r3, r3 = j3 mod (d-1), the identity column of row j3 in A2;
* ``REST``: the other d-2 columns,

so S only needs the sums of a row of A2 over each group (``KEY_GROUP_SUMS``). The rows
of A1 fall into two classes (``QUERY_J2``: row j2; ``QUERY_PLAIN``: the other n-1 rows)
and the rows of A2 = A3 into three (``KEY_J3``: row j3; ``KEY_R3``: the other t-1 rows
with residue r3; ``KEY_REST``: the n-t rows with another residue); u, f and c of a row
depend on its class only. With V = I_d, c_{j0,i0} = <f_{j0}, (A3)_{*,i0}> and a column
of group G sums the entries of class K's rows there (``class_attention.incidence``); the d-2 columns of
``REST`` all share one value of c (they are exchanged by a permutation that fixes A1).

n and d enter only through integer counts, so d = n/2 + 1 at n = 10^15 costs the same as
d = 2. For certification the counts may be relaxed to backend values (n, d - 1, t as values,
n = (d-1) t; :func:`key_counts`, :func:`widths`, :func:`log_n`); the structure (which classes and
groups are present: t >= 2, d >= 3, j2 = j3 or not) is then fixed by an integer case of the same
structure, which the position functions (:func:`query_classes`, :func:`present_keys`,
:func:`present_groups`) read. Functions take the numeric backend ``xp``; f and c are the ratios of
:mod:`attncheck.papers.deng2023.models.class_attention`, exact at the paper's tight cases.
"""
from __future__ import annotations

import numpy as np

from attncheck.papers.deng2023.models import class_attention as core
from attncheck.papers.deng2023.models.random_signs import column_maxima, narrowest, rademacher_group_sums

QUERY_J2, QUERY_PLAIN = 0, 1
KEY_J3, KEY_R3, KEY_REST = 0, 1, 2
FIRST, R3, REST = 0, 1, 2

KEY_GROUP_SUMS = np.array([[1, 1, 0], [0, 1, 0], [0, 0, 1]])
"""Sum of a row of A2 over (FIRST, R3, REST), per key class (Definition F.1)."""

SLOT_ORDER = {1: [FIRST, R3, REST, REST], 2: [FIRST, REST, R3, REST]}
"""Column group of each sampling slot (first, A, B, rest) when j3's column is slot A (1) or B (2)."""


def _integer(v) -> bool:
    """An integer count (Python, numpy, or an exact SymPy integer: a count a structure fixes)."""
    return isinstance(v, (int, np.integer)) or getattr(v, "is_Integer", False) is True


def t_of(n, d):
    """t = n / (d-1) (Definition F.1); n and d relaxed to backend values give the value n / (d-1)."""
    return n // (d - 1) if _integer(n) and _integer(d) else n / (d - 1)


def key_counts(n, d) -> np.ndarray:
    """Rows of A2 per key class: (1, t-1, n-t) (an object array of values for n, d relaxed to values;
    which classes are present is then the caller's structure, never read off the values)."""
    t = t_of(n, d)
    return np.array([1, t - 1, n - t], dtype=np.int64 if _integer(n) and _integer(d) else object)


def widths(d) -> np.ndarray:
    """Columns per group (FIRST, R3, REST): (1, 1, d-2)."""
    return np.array([1, 1, d - 2], dtype=np.int64 if _integer(d) else object)


def n_value(n, xp):
    """n as a backend value (an integer n through float64, as every evaluator reads it)."""
    return xp.asarray(float(n)) if _integer(n) else xp.asarray(n)


def log_n(n, xp):
    """log n, the scale of A1 in Definition F.1 (natural logarithm)."""
    return xp.log(n_value(n, xp))


def query_rows(n: int, a: float, xp):
    """Rows of A1 on (FIRST, R3, REST), per query class: (a log n, log n, log n), (0, log n, log n)."""
    return xp.asarray([[a, 1.0, 1.0], [0.0, 1.0, 1.0]]) * log_n(n, xp)


def scores(n: int, a: float, xp):
    """S = u_lin = log u_exp per (query class, key class) (Definitions C.1, C.4, X = I_d); (2, 3)."""
    return core.scores(query_rows(n, a, xp), core.counts_of(xp, KEY_GROUP_SUMS), "identity", widths(3), xp)


def f(n: int, d: int, a: float, xp, softmax: bool):
    """f_exp (Definition C.4) or f_lin (Definition C.1) per (query class, key class); (2, 3)."""
    return core.f(scores(n, a, xp), key_counts(n, d), xp, softmax)


def c_parts(n: int, d: int, a: float, xp, softmax: bool) -> core.Parts:
    """c_{j0,i0} = <f_{j0}, (A3 V)_{*,i0}> (Definitions C.1, C.4, V = I_d) as numerator / alpha.

    Tight cases come out exact: f = 1/n, c = t/n (exact integers over n) and c = 1 (a column
    holding every row); inner products with signs are formed on the numerators and divided
    once, so a rational tie such as <c, sigma> = 1/2 is exact too."""
    return core.c_parts(scores(n, a, xp), core.counts_of(xp, KEY_GROUP_SUMS), key_counts(n, d), widths(d),
                        xp, softmax)


def rows_where(n: int, j2: int, j3: int, condition) -> list[int]:
    """Rows j0 with ``condition(j0, j2, j3)`` among j2, j3, 0, n-1 and the next rows after j2
    and j3: conditions that compare j0 with j2 and j3 reach every query class this way."""
    near = {j2, j3, 0, n - 1, (j2 + 1) % n, (j3 + 1) % n, (j3 + 2) % n}
    return sorted(j for j in near if condition(j, j2, j3))


def query_classes(n: int, j2: int, j3: int, condition) -> list[int]:
    """Query classes of the rows j0 with ``condition(j0, j2, j3)``."""
    return sorted({query_class(j0, j2) for j0 in rows_where(n, j2, j3, condition)})


def present_keys(n: int, d: int, classes) -> list[int]:
    """The key classes among ``classes`` that hold at least one row (integer n, d: the structure)."""
    counts = key_counts(n, d)
    return [K for K in classes if counts[K] > 0]


def bound_counts(ones, xp):
    """Integer multiplicities (or values of relaxed counts) as backend values: float64 for integers."""
    if all(_integer(o) for o in ones):
        return xp.asarray(np.array(ones, dtype=float))
    return core.counts_of(xp, np.array(ones, dtype=object))


def present_groups(d: int, groups) -> list[int]:
    """The column groups among ``groups`` that hold at least one column (REST needs d >= 3)."""
    return [G for G in groups if G != REST or d >= 3]


def query_class(j0: int, j2: int) -> int:
    """Class of row j0 of A1."""
    return QUERY_J2 if j0 == j2 else QUERY_PLAIN


def key_class(j1: int, j3: int, d: int) -> int:
    """Class of row j1 of A2 = A3."""
    if j1 == j3:
        return KEY_J3
    return KEY_R3 if j1 % (d - 1) == j3 % (d - 1) else KEY_REST


def column_group(i0: int, j3: int, d: int) -> int:
    """Group of 0-based column i0."""
    if i0 == 0:
        return FIRST
    return R3 if i0 - 1 == j3 % (d - 1) else REST


def slot_sizes(d: int) -> np.ndarray:
    """Columns per sampling slot (first, A, B, rest): (1, 1, 1, d-3), clipped at 0 for d < 4."""
    return np.array([1, 1, min(1, d - 2), max(0, d - 3)], dtype=np.int64)


def slot_sums(d: int, rng: np.random.Generator, shape: tuple) -> np.ndarray:
    """Group sums over the slots of i.i.d. Rademacher vectors in {-1, +1}^d; shape + (4,), in the narrowest integer
    type (every consumer goes through :func:`inner`, which computes in float64 or mpmath)."""
    sizes = slot_sizes(d)
    return rademacher_group_sums(sizes, rng, shape, dtype=narrowest(sizes))


def network_slot_sums(d: int, rng: np.random.Generator, shape: tuple) -> np.ndarray:
    """Slot sums of the columns of networks of m = shape[-1] columns that attain max_l <c_{j0}, y_l> for every j0
    (:func:`random_signs.column_maxima`: c >= 0, Definition F.1's entries being >= 0); shape[:-1] + (columns, 4)."""
    sizes = slot_sizes(d)
    return column_maxima(sizes, rng, shape, dtype=narrowest(sizes))


def inner(parts: core.Parts, slot_of_r3: int, sums, xp):
    """<c_{j0}, sigma> for every query class from slot sums: (..., 2) for sums (..., 4).

    ``slot_of_r3`` (1 or 2) is the slot holding column R3; the other slots are REST
    columns. Two datasets sharing sigma (Theorem 1.2) put their R3 in slots 1 and 2
    when their j3 residues differ. In mpmath (object arrays) each distinct sums vector is
    evaluated once: close calls come in bulk from small n, where few vectors exist.
    """
    numerator = parts.numerator[:, SLOT_ORDER[slot_of_r3]]
    sums = np.asarray(sums)
    if np.asarray(numerator).dtype != object:
        return (np.asarray(sums, dtype=float) @ numerator.T) / parts.alpha
    distinct, index = np.unique(sums.reshape(-1, sums.shape[-1]), axis=0, return_inverse=True)
    z = xp.sum(xp.asarray(distinct)[:, None, :] * numerator, axis=-1) / parts.alpha
    return z[index.ravel()].reshape(sums.shape[:-1] + (2,))
