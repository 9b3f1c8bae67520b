"""What a paper is to attncheck: the record a paper package exports as ``PAPER``."""
from __future__ import annotations

import re
from dataclasses import dataclass

KEY = re.compile(r"^[a-z][a-z0-9]*$")


@dataclass(frozen=True)
class Paper:
    """``key`` is the first part of its claims' ids; ``experiments`` names the module (inside the paper's
    package) whose ``entries(profile, out, seed, progress)`` and ``DESCRIPTIONS`` reproduce its figures."""

    key: str
    title: str
    arxiv: str | None = None
    provenance_tags: tuple[str, ...] = ()  # the labels its restated statements carry (RECOVERED, DERIVED, ...)
    experiments: str | None = None

    def __post_init__(self):
        if not KEY.match(self.key):
            raise ValueError(f"paper key {self.key!r} must be lower-case letters and digits, starting with a letter")

    def to_json(self) -> dict:
        return {"title": self.title, "arxiv": self.arxiv, "provenance_tags": list(self.provenance_tags)}
