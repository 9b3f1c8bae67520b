"""Certification declarations: what a claim states about proving it on a box (no prover imported here).

A deterministic claim of a few real variables declares one of:

- :class:`Certificate`: a box and a hand-written interval slack (checked by :mod:`attncheck.certify.boxes`);
- :class:`Parameters` (or :class:`OwnSpace`, :class:`Cases`): its real parameters and how a case of its
  own evaluator is built from them (checked by :mod:`attncheck.certify.params`);
- :class:`Ineligible`: why it cannot be certified.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from attncheck.core.space import Int, Real


@dataclass(frozen=True)
class Certificate:
    """``slack(vars) -> arb`` on ``box`` = {name: (lo, hi)}; the claim holds where slack >= 0."""

    box: dict
    slack: Callable[[dict], Any]  # an arb ball (python-flint)
    strict: bool = False
    max_boxes: int = 20_000

    def __post_init__(self):
        for name, (lo, hi) in self.box.items():
            if not lo <= hi:
                raise ValueError(f"certificate box: {name} needs lo <= hi, got ({lo}, {hi})")


COVERS = ("A declaration whose ``covers`` says why its box holds every case the claim's domain draws, at every point "
          "of every profile's path, is certified before the search: where it is CERTIFIED the search would only draw "
          "proven cases, so none is drawn (a test draws each such claim's corners and design and checks them inside)")
"""What a non-empty ``covers`` of :class:`Parameters` or :class:`Cases` asserts, and what it changes."""

#: the reasons a deterministic claim is not certified by the interval route
REASONS = ("integer structure", "more than k parameters", "evaluator branches on data", "identity at a tolerance")


@dataclass(frozen=True)
class Parameters:
    """Real parameters ``box`` = {name: (lo, hi)} and ``case(values) -> case`` of the claim's evaluator."""

    box: dict
    case: Callable[[dict], Any]
    log: tuple = ()  # parameters bisected geometrically (lo > 0): ranges over many decades
    relaxed: str = ""  # integer parameters relaxed to reals, and why the evaluator allows it
    integers: tuple = ()  # parameters whose domain is the integers: a counterexample must be an integer point
    max_boxes: int = 4000
    prec: int = 128
    profiles: tuple | None = None  # profiles that run it (None: every profile; its budget is a count, max_boxes)
    symbolic_boxes: int = 4000  # the symbolic route's boxes per sign factor (a count: machine-independent)
    covers: str = ""  # why the box holds every case the claim's domain draws at every path point (COVERS)
    locate: Callable | None = None  # case -> its coordinates in the box, for the test of ``covers``

    def __post_init__(self):
        for name, (lo, hi) in self.box.items():
            if not lo <= hi:
                raise ValueError(f"certification box: {name} needs lo <= hi, got ({lo}, {hi})")
            if name in self.log and lo <= 0:
                raise ValueError(f"certification box: log-bisected {name} needs lo > 0")
        if not set(self.integers) <= set(self.box):
            raise ValueError(f"certification box: integers {self.integers} must be parameters of the box")


def from_space(space, relax: tuple = (), **kw) -> Parameters:
    """The box of a claim's :class:`~attncheck.core.space.Space`: its closed ranges (closing an open end only
    encloses more; a refutation is re-checked at an interior point), integers in ``relax`` as reals.

    The case is the dict of values, as ``Space`` passes it to the evaluator (no custom ``build``).
    """
    if space.build is not None:
        raise ValueError("from_space: a Space with its own build needs Parameters(box, case=...)")
    box, log = {}, []
    for name, p in space.params.items():
        if not (isinstance(p, Real) or (isinstance(p, Int) and name in relax)):
            raise ValueError(f"from_space: parameter {name} is not real (relax integers explicitly)")
        box[name] = (float(p.lo), float(p.hi))
        if p.log:
            log.append(name)
    return Parameters(box, case=dict, log=tuple(log), integers=tuple(relax), **kw)


class OwnSpace:
    """``certify=OwnSpace(relax, **options)``: certify over the claim's own ``space=`` (see :func:`from_space`);
    ``options`` go to :class:`Parameters` (max_boxes, prec, profiles, relaxed)."""

    def __init__(self, relax: tuple = (), **options):
        self.relax, self.options = tuple(relax), options

    def resolve(self, space) -> Parameters:
        if space is None or callable(space) and not hasattr(space, "params"):
            raise ValueError("certify=OwnSpace() needs a fixed space= on the claim")
        return from_space(space, self.relax, **self.options)


@dataclass(frozen=True)
class Cases:
    """Several boxes, one per structural case of a claim whose evaluator changes form across an integer
    condition (a class present only when its multiplicity is > 0): ``parts`` = ((label, Parameters), ...).
    Certified when every case is; refuted when one is."""

    parts: tuple
    profiles: tuple | None = None  # None: every profile
    relaxed: str = ""
    covers: str = ""  # why the boxes hold every case the claim's domain draws at every path point (COVERS)
    locate: Callable | None = None  # case -> (label of its part, its coordinates in that box), for the test of covers

    @property
    def box(self) -> dict:
        return {label: {k: list(v) for k, v in p.box.items()} for label, p in self.parts}


@dataclass(frozen=True)
class Ineligible:
    """Why a deterministic claim is not certified over a box of real parameters."""

    reason: str
    detail: str = ""

    def __post_init__(self):
        if self.reason not in REASONS:
            raise ValueError(f"ineligible: reason must be one of {REASONS}, got {self.reason!r}")
