"""The claim model: one checkable part of one lemma, its registry and the errata.

A claim is declared with :func:`claim` on its evaluator. What the evaluator receives
and returns depends on the kind (see :class:`Kind`); the engine never needs more.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from hypothesis.strategies import SearchStrategy

from attncheck.core.declarations import Certificate, Ineligible, OwnSpace, Parameters
from attncheck.core.reading import Reading
from attncheck.core.space import Space

#: decimal digits tried, in order, for a case float64 cannot decide (a claim may set its own ``dps``)
DPS_SCHEDULE = (30, 60, 120, 240)

ID_PATTERN = re.compile(r"^[a-z0-9]+/[a-z0-9][a-z0-9.\-]*/[a-z0-9][a-z0-9.\-]*$")


def check_probability(p: float, what: str = "probability") -> float:
    """Return p as float if it lies in [0, 1]; raise otherwise (nothing is clipped)."""
    p = float(p)
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"{what} must lie in [0, 1], got {p!r}")
    return p


class Kind(str, Enum):
    """What "holds" means for a claim (docs/design.md, "The claim model").

    - IDENTITY, INEQUALITY: ``evaluate(case, xp) -> Slack`` for every case of the domain.
    - PROBABILISTIC: ``sample(case, rng, size) -> R`` draws the randomness in bulk and
      ``evaluate(case, R, xp) -> Slack`` of shape (size,) gives one Bernoulli outcome
      per draw; the claim is ``Pr[outcome] {relation} probability`` for every case.
    - ASYMPTOTIC: same ``sample``/``evaluate`` but ``evaluate`` returns the ratio whose
      ``probability``-quantile is the implied constant; the constant must stay bounded
      along the scaling ``path``.
    - EXPECTATION: same ``sample``; ``evaluate(case, R, xp)`` returns per-draw values V of
      shape (size,) or (size, ...) (one column per coordinate), or a pair ``(lhs, rhs)`` of
      such arrays (V = lhs - rhs, and float64 rounding of a tie is judged against their
      magnitude); the claim is ``E[V] {relation} 0`` coordinate-wise, relation ``<=``,
      ``>=`` or ``==`` (a sequential mean test, :func:`attncheck.stats.mean_test`).
    """

    IDENTITY = "identity"
    INEQUALITY = "inequality"
    PROBABILISTIC = "probabilistic"
    ASYMPTOTIC = "asymptotic"
    EXPECTATION = "expectation"

    @property
    def random(self) -> bool:
        """Draws randomness (``sample``) and shares the suite's alpha (:func:`attncheck.run.session.n_random`)."""
        return self in (Kind.PROBABILISTIC, Kind.ASYMPTOTIC, Kind.EXPECTATION)

    @property
    def tested(self) -> bool:
        """Decided by a sequential test on fresh draws at the engine's per-test level ``alpha_test``."""
        return self in (Kind.PROBABILISTIC, Kind.EXPECTATION)


class Cost(str, Enum):
    """How expensive one evaluation is; the profile turns (kind, cost) into a budget.

    - CHEAP: microseconds to a millisecond (closed forms, grouped evaluators);
    - NORMAL: up to tens of milliseconds (small dense models, short solves);
    - EXPENSIVE: more (training loops, gradient ascent, large solves).

    A declared class, never a measured time, so a seed gives the same cases anywhere. A claim that
    declares none gets one from a deterministic proxy of a trial evaluation (:mod:`attncheck.engine.cost`).
    """

    CHEAP = "cheap"
    NORMAL = "normal"
    EXPENSIVE = "expensive"


class Outside(Exception):  # noqa: N818 - a case's status, not an error
    """Raised by an evaluator on a case outside its claim's hypotheses (a run that never settles on the fixed
    tokens a theorem assumes, say), with the reason. The case is neither a pass nor a failure: it is counted
    apart, and a claim with no case inside its hypotheses is INCONCLUSIVE (identity and inequality claims)."""


class Verdict(str, Enum):
    HOLDS = "HOLDS"
    CERTIFIED = "CERTIFIED"
    REFUTED = "REFUTED"
    ERRATUM = "ERRATUM"
    INCONCLUSIVE = "INCONCLUSIVE"
    ERROR = "ERROR"


@dataclass(frozen=True)
class Erratum:
    """A stated claim that is refuted, and the corrected claim (by id) that holds."""

    corrected_id: str
    note: str

    def to_json(self, registry: Registry | None = None) -> dict:
        reg = REGISTRY if registry is None else registry
        corrected = reg.get(self.corrected_id) if self.corrected_id in reg else None
        return {
            "corrected_id": self.corrected_id,
            "corrected_statement": corrected.statement if corrected else None,
            "note": self.note,
        }


@dataclass
class Claim:
    id: str
    kind: Kind
    statement: str
    source: str
    evaluate: Callable
    domain: Any = None  # a Hypothesis strategy, or a callable point -> strategy
    sample: Callable | None = None
    probability: float | Callable | None = None  # a number, or case -> number
    relation: str = ">="
    path: dict[str, list] | None = None  # profile name -> scaling path points
    reading: Reading = field(default_factory=Reading)  # every choice the paper leaves open
    margin: float | None = None
    erratum: Erratum | None = None
    eventually: bool = False  # "for all sufficiently large n": judged at the end of the path
    certify: Certificate | Parameters | Ineligible | None = None  # interval proof on a box (deterministic kinds)
    space: Space | Callable | None = None  # declared parameters (or point -> Space) for corners and the optimizer
    cost: Cost | None = None  # None: not declared, the engine picks it (engine/cost.py)
    draws: int | None = None  # Monte Carlo draws per case at most (random kinds whose one draw is a whole model)
    refutable: bool = True  # False: the evaluator is a one-sided witness; a failure is INCONCLUSIVE, never REFUTED
    across: str | None = None  # asymptotic: a second path coordinate x (dict points); n-trend per x, e^{Cx} rate fitted
    carry_worst: bool = False  # asymptotic: every point's worst case is re-evaluated at every other point
    dps: tuple[int, ...] | None = None  # mpmath precisions tried, in order, where float64 cannot decide
    n_max: float | None = None  # asymptotic: the largest n an undecided path may be extended to (None: no limit)
    vanishes: bool = False  # asymptotic: the quantity itself must tend to 0 (little-o(1)), not only stay bounded

    @property
    def precisions(self) -> tuple[int, ...]:
        """The escalation's schedule of decimal digits: ``dps``, else DPS_SCHEDULE."""
        return self.dps or DPS_SCHEDULE

    def mc_sizes(self, first: int, budget: int) -> tuple[int, int]:
        """(first look, budget) of Monte Carlo draws per case, capped by ``draws``."""
        if self.draws is None:
            return first, budget
        return min(first, self.draws), min(budget, self.draws)

    @property
    def paper(self) -> str:
        return self.id.split("/")[0]

    @property
    def label(self) -> str:
        return self.id.split("/")[1]

    @property
    def part(self) -> str:
        return self.id.split("/")[2]

    def points(self, profile: str) -> list:
        """Scaling-path points for a profile (``[None]`` when the claim has no path)."""
        if self.path is None:
            return [None]
        if profile not in self.path:
            raise ValueError(f"claim {self.id} has no scaling path for profile {profile!r}")
        return list(self.path[profile])

    def p(self, case) -> float:
        """The claimed probability (or quantile level) for one case."""
        value = self.probability(case) if callable(self.probability) else self.probability
        return check_probability(value, f"claim {self.id}: probability")

    def strategy(self, point):
        if self.domain is None:
            return self.space_at(point).strategy()
        return self.domain(point) if self.path is not None else self.domain

    def space_at(self, point) -> Space | None:
        """The declared parameter space at a path point (None when not declared)."""
        if self.space is None:
            return None
        return self.space(point) if self.path is not None and callable(self.space) else self.space

    def __repr__(self) -> str:
        return f"Claim({self.id!r}, {self.kind.value})"


def _validate(c: Claim) -> None:
    if not ID_PATTERN.match(c.id):
        raise ValueError(f"claim id {c.id!r} must look like '<paper>/<label>/<part>' in lower case")
    if not isinstance(c.reading, Reading):
        raise TypeError(f"claim {c.id}: reading must be an attncheck.Reading, got {type(c.reading).__name__}")
    if c.domain is None and c.space is None:
        raise ValueError(f"claim {c.id}: a domain (Hypothesis strategy) or a space (attncheck.Space) is required")
    if c.domain is not None:
        if c.path is not None and not callable(c.domain):
            raise ValueError(f"claim {c.id}: with a scaling path, domain must be a callable point -> strategy")
        if c.path is None and not isinstance(c.domain, SearchStrategy):
            raise ValueError(f"claim {c.id}: without a scaling path, domain must be a Hypothesis strategy")
    if c.space is not None:
        if c.path is None and not isinstance(c.space, Space):
            raise ValueError(f"claim {c.id}: without a scaling path, space must be an attncheck.Space")
        if c.path is not None and not (isinstance(c.space, Space) or callable(c.space)):
            raise ValueError(f"claim {c.id}: space must be a Space or a callable point -> Space")
    if c.kind is Kind.EXPECTATION:
        if c.sample is None:
            raise ValueError(f"claim {c.id}: expectation claims need sample(case, rng, size)")
        if c.probability is not None:
            raise ValueError(f"claim {c.id}: expectation claims take no probability (the claim is E[V] "
                             f"{{relation}} 0)")
        if c.relation not in ("<=", ">=", "=="):
            raise ValueError(f"claim {c.id}: relation must be '<=', '>=' or '==', got {c.relation!r}")
        if c.draws is not None and c.draws < 2:
            raise ValueError(f"claim {c.id}: an expectation needs draws >= 2 (a standard error)")
    elif c.kind.random:
        if c.sample is None:
            raise ValueError(f"claim {c.id}: {c.kind.value} claims need sample(case, rng, size)")
        if c.probability is None:
            raise ValueError(f"claim {c.id}: {c.kind.value} claims need a probability")
        if not callable(c.probability):
            check_probability(c.probability, f"claim {c.id}: probability")
        if c.relation not in (">=", "=="):
            raise ValueError(f"claim {c.id}: relation must be '>=' or '==', got {c.relation!r}")
    if c.eventually and (c.path is None or c.kind is Kind.ASYMPTOTIC):
        raise ValueError(f"claim {c.id}: eventually=True needs a scaling path (asymptotic claims are judged on trends anyway)")
    if c.draws is not None and (not c.kind.random or c.draws < 1):
        raise ValueError(f"claim {c.id}: draws applies to probabilistic/asymptotic/expectation claims and must be >= 1")
    if c.certify is not None and c.kind.random:
        raise ValueError(f"claim {c.id}: interval certification applies to identity/inequality claims only")
    if c.dps is not None and not (c.dps and all(isinstance(d, int) and d >= 20 for d in c.dps)
                                  and list(c.dps) == sorted(set(c.dps))):
        raise ValueError(f"claim {c.id}: dps must be a non-empty, strictly increasing sequence of integers >= 20 "
                         f"(decimal digits), got {c.dps!r}")
    if c.n_max is not None and c.kind is not Kind.ASYMPTOTIC:
        raise ValueError(f"claim {c.id}: n_max applies to asymptotic claims (the path's extension)")
    if c.vanishes and (c.kind is not Kind.ASYMPTOTIC or c.across is not None):
        raise ValueError(f"claim {c.id}: vanishes=True applies to asymptotic claims without across= (a quantity "
                         "tending to 0 along n)")
    if c.kind is Kind.ASYMPTOTIC and c.path is None:
        raise ValueError(f"claim {c.id}: asymptotic claims need a scaling path")
    if c.carry_worst and (c.kind is not Kind.ASYMPTOTIC or c.space is None):
        raise ValueError(f"claim {c.id}: carry_worst needs an asymptotic claim with a declared space")
    if c.path is not None:
        for prof, pts in c.path.items():
            if c.kind is Kind.ASYMPTOTIC and len(pts) < 3:
                raise ValueError(f"claim {c.id}: path {prof!r} needs >= 3 points to fit a trend")
            if c.across is not None:
                if c.kind is not Kind.ASYMPTOTIC or not all(isinstance(p, dict) and {"n", c.across} <= set(p)
                                                            for p in pts):
                    raise ValueError(f"claim {c.id}: across={c.across!r} needs an asymptotic claim whose path "
                                     f"points are dicts with 'n' and {c.across!r}")
                xs = [p[c.across] for p in pts]
                if any(xs.count(x) < 3 for x in set(xs)):
                    raise ValueError(f"claim {c.id}: path {prof!r} needs >= 3 points at each {c.across}")


def _origin(c: Claim) -> tuple[str, str]:
    code = getattr(c.evaluate, "__code__", None)
    return (code.co_filename if code else c.evaluate.__module__), c.evaluate.__qualname__


def _where(c: Claim) -> str:
    code = getattr(c.evaluate, "__code__", None)
    return f"{code.co_filename}:{code.co_firstlineno} ({c.evaluate.__qualname__})" if code else c.evaluate.__module__


class Registry:
    """Claims by id. Registering the same id twice with different claims is an error."""

    def __init__(self) -> None:
        self._claims: dict[str, Claim] = {}

    def add(self, c: Claim) -> Claim:
        """Register ``c``; the same file imported again (pytest, then the CLI) may re-register it."""
        old = self._claims.get(c.id)
        if old is not None and _origin(old) != _origin(c):
            raise ValueError(f"claim id {c.id!r} is defined twice: in {_where(old)} and in {_where(c)}")
        self._claims[c.id] = c
        return c

    def get(self, claim_id: str) -> Claim:
        try:
            return self._claims[claim_id]
        except KeyError:
            raise KeyError(f"no claim with id {claim_id!r}; see `attncheck list`") from None

    def __contains__(self, claim_id: str) -> bool:
        return claim_id in self._claims

    def __iter__(self):
        return iter(sorted(self._claims.values(), key=lambda c: c.id))

    def __len__(self) -> int:
        return len(self._claims)

    def errata(self) -> list[Claim]:
        return [c for c in self if c.erratum is not None]


REGISTRY = Registry()


def claim(
    id: str,
    *,
    kind: str | Kind,
    statement: str,
    source: str,
    domain=None,
    sample: Callable | None = None,
    probability: float | None = None,
    relation: str = ">=",
    path: dict[str, list] | None = None,
    reading: Reading | None = None,
    margin: float | None = None,
    erratum: Erratum | None = None,
    eventually: bool = False,
    certify: Certificate | Parameters | OwnSpace | Ineligible | None = None,
    space: Space | Callable | None = None,
    cost: str | Cost | None = None,
    draws: int | None = None,
    refutable: bool = True,
    across: str | None = None,
    carry_worst: bool = False,
    dps: tuple[int, ...] | None = None,
    n_max: float | None = None,
    vanishes: bool = False,
    registry: Registry | None = None,
):
    """Decorator turning an evaluator into a registered :class:`Claim`.

    The decorated name becomes the Claim object, which pytest (through the attncheck
    plugin) collects as one test item. ``domain`` is a Hypothesis strategy of cases;
    ``space`` declares named parameters with ranges (corners, optimizer), and stands in
    for ``domain`` when that is omitted. ``cost`` sets the search budget (see :class:`Cost`; left out, the engine picks it).
    ``draws`` caps the Monte Carlo draws per case (a draw that is a whole random model);
    ``refutable=False`` marks an evaluator that is a one-sided witness (e.g. a lower bound on a
    sup checked against an Omega claim): a failure then gives INCONCLUSIVE, never REFUTED.
    ``across="L"`` (asymptotic, dict path points with "n" and "L"): a bound such as O(e^{CL}/sqrt n)
    with C unspecified; the n-trend is judged at each L, and the rate C of the growth across L is fitted.
    ``carry_worst=True`` (asymptotic, declared space): after the path is searched, every point's worst case
    is re-evaluated at every other point, so that the implied constant's trend follows one common set of
    cases (independent searches per point find different worst cases, whose spread can swamp the fit).
    ``dps`` replaces the escalation's schedule of mpmath precisions (default DPS_SCHEDULE) for a claim
    whose undecided cases are known to need more digits than its first entries (each entry is a full re-evaluation).
    ``n_max`` (asymptotic): the largest n to which the engine may extend an undecided path (the evaluator's
    domain or memory ends there); the path's own last n opts out of extension.
    ``vanishes=True`` (asymptotic): a little-o(1) claim, the evaluator's quantity must tend to 0 along the path
    (the vanishing rule, :mod:`attncheck.engine.vanishing`), not only stay bounded.
    """

    def wrap(evaluate: Callable) -> Claim:
        cert = certify.resolve(space) if isinstance(certify, OwnSpace) else certify
        c = Claim(
            id=id, kind=Kind(kind), statement=statement, source=source, evaluate=evaluate,
            domain=domain, sample=sample, probability=probability, relation=relation,
            path=path, reading=reading or Reading(), margin=margin, erratum=erratum,
            eventually=eventually, certify=cert, space=space, cost=None if cost is None else Cost(cost), draws=draws,
            refutable=refutable, across=across, carry_worst=carry_worst,
            dps=None if dps is None else tuple(dps), n_max=n_max, vanishes=vanishes,
        )
        _validate(c)
        return (REGISTRY if registry is None else registry).add(c)

    return wrap
