"""Self- and cross-attention datasets of Deng et al. 2023 (arXiv 2310.11685).

Definition D.1 (self-attention, D0/D1) and Definition F.1 (cross-attention, D0/D1),
in two equivalent forms:

* ``dense()``: the matrices (A1, A2, A3), each n x d, written column by column as in
  the paper (reference form, small n only);
* ``compressed()``: a :class:`CompressedDataset`, the distinct rows of each matrix
  with integer multiplicities. Its size depends on d only, so it serves n = 10^9.

Conventions
-----------
* Indices are 0-based: j2, j3 in {0, ..., n-1}; the paper's "first column" is column 0.
* The stacked identity [I_k; I_k; ...; I_k] has a one in row i at column i mod k.
* ``label`` selects D0 (``a`` plays a0) or D1 (``a`` plays a1).
* ``validate=True`` (default) enforces every hypothesis of the definition.
  ``validate=False`` keeps only the structural requirements (integer sizes, n >= 2,
  indices in range, finite parameters) so that the paper's own experiments, which go
  outside the hypotheses (Section 7: a0 up to 0.9, a1 down to 0.1, b = 0.2 with
  c in [0.5, 0.9], and n = 200 with d = 12 in Figure 7 (d, e), where d-1 does not
  divide n), can be built. When k (= d-2 or d-1) does not divide n, the stack of
  identities is truncated to its first n rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Literal

import numpy as np

BC_TOLERANCE = 1e-12
"""Tolerance of the constraint b + c = 1 (or b^2 + c^2 = 1)."""

BCConstraint = Literal["sum", "sum_of_squares"]


def _integer(name: str, value: object, low: int, high: int | None = None) -> int:
    """Return ``value`` as int after checking low <= value (< high)."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise ValueError(f"{name} must be an integer; got {value!r}")
    value = int(value)
    if value < low or (high is not None and value >= high):
        upper = "" if high is None else f" and < {high}"
        raise ValueError(f"{name} must be >= {low}{upper}; got {name}={value}")
    return value


def _real(name: str, value: object) -> float:
    """Return ``value`` as a finite float."""
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite real number; got {value!r}")
    return float(value)


def _label(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or value not in (0, 1):
        raise ValueError(f"label must be 0 (dataset D0) or 1 (dataset D1); got {value!r}")
    return int(value)


def _check_divisible(n: int, d: int, k: int, k_name: str, source: str) -> None:
    if n % k:
        raise ValueError(
            f"n must be divisible by {k_name} ({source}: n = ({k_name}) t for a positive "
            f"integer t); got n={n}, d={d}, {k_name}={k}"
        )


def _check_a(a: float, label: int, source: str, a1_low: float, a1_strict: bool) -> None:
    """a0 in (0, 0.1) for D0; a1 >= a1_low (or > a1_low if strict) for D1."""
    if label == 0 and not 0.0 < a < 0.1:
        raise ValueError(f"a0 must lie in (0, 0.1) for D0 ({source}); got a={a}")
    a1_ok = a > a1_low if a1_strict else a >= a1_low
    if label == 1 and not a1_ok:
        relation = ">" if a1_strict else ">="
        raise ValueError(f"a1 must be {relation} {a1_low} for D1 ({source}); got a={a}")


def residue_counts(n: int, k: int) -> list[int]:
    """Number of i in {0, ..., n-1} with i mod k == r, for r = 0, ..., k-1."""
    return [(n - r + k - 1) // k for r in range(k)]


def stacked_identity(n: int, k: int) -> np.ndarray:
    """[I_k; I_k; ...; I_k] truncated to n rows (n x k)."""
    return np.tile(np.eye(k), (-(-n // k), 1))[:n]


@dataclass(frozen=True)
class RowClasses:
    """The rows of an n x d matrix grouped into classes of equal rows.

    Class 0 is the row at dense index ``special``; class 1 + i collects the other rows
    whose index is congruent to ``residues[i]`` modulo ``modulus``. Classes of
    multiplicity zero are omitted, so every count is >= 1.
    """

    rows: np.ndarray
    counts: np.ndarray
    special: int
    modulus: int
    residues: np.ndarray

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    def class_of(self, index: int | np.ndarray) -> np.ndarray:
        """Class of the dense row(s) ``index`` (0-based)."""
        index = np.asarray(index)
        if np.any((index < 0) | (index >= self.n)):
            raise ValueError(f"row index must lie in [0, {self.n}); got {index}")
        plain = 1 + np.searchsorted(self.residues, index % self.modulus)
        return np.where(index == self.special, 0, plain)


def _row_classes(special_row: np.ndarray, plain_rows: np.ndarray, plain_counts: list[int],
                 special: int, modulus: int) -> RowClasses:
    """Assemble RowClasses from the special row and one plain row per residue."""
    keep = np.flatnonzero(np.asarray(plain_counts) > 0)
    arrays = (np.vstack([special_row[None, :], plain_rows[keep]]),
              np.concatenate([[1], np.asarray(plain_counts, dtype=np.int64)[keep]]),
              keep.astype(np.int64))
    for array in arrays:
        array.setflags(write=False)
    rows, counts, residues = arrays
    return RowClasses(rows=rows, counts=counts, special=special, modulus=modulus, residues=residues)


def _plain_counts(n: int, k: int, special: int) -> list[int]:
    """Residue counts of {0..n-1} \\ {special} modulo k."""
    counts = residue_counts(n, k)
    counts[special % k] -= 1
    return counts


@dataclass(frozen=True)
class CompressedDataset:
    """(A1, A2, A3) as distinct rows with multiplicities.

    ``queries`` are the row classes of A1, ``keys`` those of A2; A3 is constant on the
    key classes and ``values[i]`` is its row on key class i.
    """

    queries: RowClasses
    keys: RowClasses
    values: np.ndarray

    @property
    def n(self) -> int:
        return self.queries.n

    @property
    def d(self) -> int:
        return self.values.shape[1]


@dataclass(frozen=True)
class SelfAttentionParams:
    """Parameters of Definition D.1; validated on construction.

    ``bc_constraint="sum"`` is Definition D.1 (b + c = 1, b, c >= 0.1);
    ``"sum_of_squares"`` is the variant of Section E (Lemma E.1 onward: b^2 + c^2 = 1,
    b, c > 0; Theorem E.4 takes b in (0, 0.2), so the bound 0.1 is not kept).
    """

    n: int
    d: int
    a: float
    b: float
    c: float
    j3: int
    label: int
    bc_constraint: BCConstraint = "sum"
    validate: bool = True

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "d", _integer("d", self.d, 3))
        set_(self, "n", _integer("n", self.n, 2))
        set_(self, "j3", _integer("j3", self.j3, 0, self.n))
        set_(self, "label", _label(self.label))
        for name in ("a", "b", "c"):
            set_(self, name, _real(name, getattr(self, name)))
        if self.bc_constraint not in ("sum", "sum_of_squares"):
            raise ValueError(f"bc_constraint must be 'sum' or 'sum_of_squares'; got {self.bc_constraint!r}")
        if self.validate:
            self._check_hypotheses()

    def _check_hypotheses(self) -> None:
        _check_divisible(self.n, self.d, self.k, "d-2", "Definition D.1")
        _check_a(self.a, self.label, "Definition D.1", 0.7, a1_strict=False)
        if self.bc_constraint == "sum":
            if min(self.b, self.c) < 0.1:
                raise ValueError(f"b and c must be >= 0.1 (Definition D.1); got b={self.b}, c={self.c}")
            total, rule = self.b + self.c, "b + c"
        else:
            if min(self.b, self.c) <= 0:
                raise ValueError(f"b and c must be > 0 (Section E); got b={self.b}, c={self.c}")
            total, rule = self.b**2 + self.c**2, "b^2 + c^2"
        if abs(total - 1.0) > BC_TOLERANCE:
            raise ValueError(f"{rule} must equal 1 (to {BC_TOLERANCE:g}); got {rule} = {total!r}")

    @property
    def k(self) -> int:
        """Width d-2 of the identity blocks."""
        return self.d - 2

    @property
    def scale(self) -> float:
        """sqrt(log n)."""
        return math.sqrt(math.log(self.n))

    def dense(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(A1, A2, A3), A1 = A2 = A3 (independent copies), column by column as in D.1."""
        A1 = np.zeros((self.n, self.d))
        A1[self.j3, 0] = self.a * self.scale
        A1[:, 1:-1] = stacked_identity(self.n, self.k) * (self.b * self.scale)
        A1[:, -1] = self.c * self.scale
        return A1, A1.copy(), A1.copy()

    def compressed(self) -> CompressedDataset:
        """Distinct rows: the row j3, and the other rows by residue of the index mod d-2."""
        plain = np.zeros((self.k, self.d))
        plain[:, 1:-1] = np.eye(self.k) * (self.b * self.scale)
        plain[:, -1] = self.c * self.scale
        special = plain[self.j3 % self.k].copy()
        special[0] = self.a * self.scale
        classes = _row_classes(special, plain, _plain_counts(self.n, self.k, self.j3), self.j3, self.k)
        return CompressedDataset(queries=classes, keys=classes, values=classes.rows)


@dataclass(frozen=True)
class CrossAttentionParams:
    """Parameters of Definition F.1; validated on construction.

    Interpretation (Definition F.1 is dimensionally inconsistent): it says "the second
    column to d-1 columns" of A1 are log n and of A2 are [I_{d-1}; ...; I_{d-1}], but
    I_{d-1} has d-1 columns and n = (d-1) t. We read "columns 2 to d" for both A1 and
    A2 (0-based columns 1..d-1): the reading consistent with I_{d-1}, n = (d-1) t and
    Lemma F.2 (u_exp = n^(1+a1) at (j2, j3) and n elsewhere, for X = I_d); with column
    d of A1 zero, the rows of A2 whose identity entry falls in column d would score 0,
    not log n.
    A2 = A3; A1 has a1 log n (or a0 log n) at row j2 of column 0 and log n elsewhere
    in columns 1..d-1.
    """

    n: int
    d: int
    a: float
    j2: int
    j3: int
    label: int
    validate: bool = True

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "d", _integer("d", self.d, 2))
        set_(self, "n", _integer("n", self.n, 2))
        set_(self, "j2", _integer("j2", self.j2, 0, self.n))
        set_(self, "j3", _integer("j3", self.j3, 0, self.n))
        set_(self, "label", _label(self.label))
        set_(self, "a", _real("a", self.a))
        if self.validate:
            _check_divisible(self.n, self.d, self.k, "d-1", "Definition F.1")
            _check_a(self.a, self.label, "Definition F.1", 1.0, a1_strict=True)

    @property
    def k(self) -> int:
        """Width d-1 of the identity blocks of A2."""
        return self.d - 1

    @property
    def scale(self) -> float:
        """log n (Definition F.1 scales A1 by log n, not sqrt(log n))."""
        return math.log(self.n)

    def dense(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(A1, A2, A3) with A2 = A3 (independent copies), column by column as in F.1."""
        A1 = np.zeros((self.n, self.d))
        A1[self.j2, 0] = self.a * self.scale
        A1[:, 1:] = self.scale
        A2 = np.zeros((self.n, self.d))
        A2[self.j3, 0] = 1.0
        A2[:, 1:] = stacked_identity(self.n, self.k)
        return A1, A2, A2.copy()

    def compressed(self) -> CompressedDataset:
        """Queries: row j2 and the rest; keys/values: row j3 and the rest by index mod d-1."""
        query = np.full(self.d, self.scale)
        query[0] = 0.0
        special_query = query.copy()
        special_query[0] = self.a * self.scale
        queries = _row_classes(special_query, query[None, :], [self.n - 1], self.j2, 1)
        plain = np.zeros((self.k, self.d))
        plain[:, 1:] = np.eye(self.k)
        special = plain[self.j3 % self.k].copy()
        special[0] = 1.0
        keys = _row_classes(special, plain, _plain_counts(self.n, self.k, self.j3), self.j3, self.k)
        return CompressedDataset(queries=queries, keys=keys, values=keys.rows)


def self_attention_dataset(n: int, d: int, a: float, b: float, c: float, j3: int, label: int, *,
                           bc_constraint: BCConstraint = "sum",
                           validate: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(A1, A2, A3) of Definition D.1 (A1 = A2 = A3 in R^{n x d}); see SelfAttentionParams."""
    return SelfAttentionParams(n, d, a, b, c, j3, label, bc_constraint, validate).dense()


def cross_attention_dataset(n: int, d: int, a: float, j2: int, j3: int, label: int, *,
                            validate: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(A1, A2, A3) of Definition F.1 (A2 = A3 in R^{n x d}); see CrossAttentionParams."""
    return CrossAttentionParams(n, d, a, j2, j3, label, validate).dense()
