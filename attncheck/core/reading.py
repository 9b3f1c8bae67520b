"""A claim's reading: every choice the paper leaves open, written down (docs/design.md, "Interpretation policy").

A :class:`Reading` has four parts, each with one job:

- ``provenance``: where the statement comes from, a tag of the paper's own list (``Paper.provenance_tags``:
  RECOVERED, DERIVED, ...) for statements restated because the extracted text lost them;
- ``unchecked``: the parts of the admissible domain the verdict does not cover, each with its
  :class:`Reason` (out of float range, beyond the path, out of budget, not drawn) and a short why;
- ``shared``: readings of open phrases written once per paper (:class:`Shared`, in the paper's
  ``readings.py``) and referenced by every claim that uses the phrase;
- ``notes``: short notes on the claim's own choices (a constant, an index, a tolerance).

Measurements and investigations belong in docs/papers/<paper>.md, not here: :data:`NOTE_LIMIT` bounds
a claim's own text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

#: characters of a claim's own reading (notes, unchecked parts, provenance note); shared readings not counted
NOTE_LIMIT = 1500
SHARED_ID = re.compile(r"^[a-z0-9]+/[a-z0-9][a-z0-9\-]*$")


class Reason(str, Enum):
    """Why a part of the admissible domain is not checked."""

    FLOAT_RANGE = "out of float range"  # past float64 (and the mpmath precisions tried) or int64
    BEYOND_PATH = "beyond the path"  # n past the scaling path's largest point
    BUDGET = "out of budget"  # reachable, at a stated cost the profile does not spend
    NOT_DRAWN = "not drawn"  # reachable and affordable, but the strategy does not draw it (say why)


@dataclass(frozen=True)
class Unchecked:
    """A part of the admissible domain the verdict does not cover."""

    part: str
    reason: Reason
    why: str = ""

    def __post_init__(self):
        object.__setattr__(self, "reason", Reason(self.reason))
        if not self.part.strip():
            raise ValueError("an unchecked part needs a text naming it")

    def to_json(self) -> dict:
        return {"part": self.part, "reason": self.reason.value, "why": self.why}


@dataclass(frozen=True)
class Shared:
    """The reading of an open phrase, written once per paper (``id`` = "<paper>/<name>")."""

    id: str
    text: str

    def __post_init__(self):
        if not SHARED_ID.match(self.id):
            raise ValueError(f"shared reading id {self.id!r} must look like '<paper>/<name>' in lower case")


@dataclass(frozen=True)
class Provenance:
    """A restated statement's origin: a tag of the paper's list, and a short note."""

    tag: str
    note: str = ""

    def __post_init__(self):
        if not re.fullmatch(r"[A-Z][A-Z\-]*", self.tag):
            raise ValueError(f"provenance tag {self.tag!r} must be upper case (e.g. RECOVERED, DERIVED)")


@dataclass(frozen=True)
class Reading:
    provenance: Provenance | None = None
    unchecked: tuple[Unchecked, ...] = ()
    shared: tuple[Shared, ...] = ()
    notes: dict[str, str] = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "unchecked", tuple(self.unchecked))
        object.__setattr__(self, "shared", tuple(self.shared))
        object.__setattr__(self, "notes", dict(self.notes))
        for name, kinds in (("unchecked", Unchecked), ("shared", Shared)):
            bad = [x for x in getattr(self, name) if not isinstance(x, kinds)]
            if bad:
                raise TypeError(f"Reading.{name} takes {kinds.__name__} entries, got {bad[0]!r}")
        ids = [s.id for s in self.shared]
        if len(set(ids)) != len(ids):
            raise ValueError(f"a shared reading is referenced twice: {ids}")

    def own_length(self) -> int:
        """Characters of the claim's own text (notes, unchecked parts, provenance note)."""
        return (sum(len(k) + len(v) for k, v in self.notes.items())
                + sum(len(u.part) + len(u.why) for u in self.unchecked)
                + (len(self.provenance.note) if self.provenance else 0))

    def to_json(self) -> dict:
        return {
            "provenance": None if self.provenance is None else {"tag": self.provenance.tag,
                                                                "note": self.provenance.note},
            "unchecked": [u.to_json() for u in self.unchecked],
            "shared": {s.id: s.text for s in self.shared},
            "notes": dict(self.notes),
        }
