"""The cost class of a claim that declares none, from a deterministic proxy of a trial evaluation.

A claim's ``cost`` picks its budget (:mod:`attncheck.core.profiles`). An identity or inequality
that declares none is evaluated on two cases at its last path point (the largest, on the
usual paths): the first two rows of the design over its Space (seed 0), or of the design over
its strategy's choices. The second is measured, so that imports and caches the first warms
up are not counted, with two counts that are fixed by the code and the case, never a time
(the garbage collector is paused meanwhile, so that no collection's finalizers are counted):

- **lines**: Python line events (``sys.settrace``) while the case is built (a Space's ``build``,
  a composite strategy's own code) and decided as the check decides it (float64, then mpmath
  where float64 cannot decide: a tie costs its escalation), Hypothesis' and the design's code
  left out;
- **elements**: the size of the largest numpy array in the case (within containers and
  attributes, two levels down), passed to or returned by any Python function it runs
  (numpy's own Python wrappers, ``np.linalg`` among them), so that compiled work on large
  arrays is seen.

The claim is ``cheap`` when both stay within :data:`LINES` and :data:`ELEMENTS` (a few hundred
lines of Python, arrays of a few thousand entries), else ``normal``, the default before this
proxy. Compiled work on small arrays (torch, say) is not seen, so the line bound is kept low.
Caches that claims run earlier in the same process have warmed can lower a count: a claim near
the bound should declare its cost. A trial that raises, or a domain that draws no case, gives
``normal`` (the search then meets the same failure). Random kinds stay ``normal``: one of their
evaluations is a Monte Carlo batch whose size the budget itself sets.
"""
from __future__ import annotations

import gc
import sys
from pathlib import Path

import hypothesis
import numpy as np

from attncheck.core.claims import Claim, Cost
from attncheck.core.profiles import get_profile
from attncheck.engine import choices
from attncheck.engine.checks import DeterministicCheck
from attncheck.numeric.precision import Escalation

LINES = 400
"""Python line events of one evaluation (case building included) for ``cheap``: well under a millisecond
(docs/measurements.md, 2026-11-27)."""
ELEMENTS = 4_096
"""Entries of the largest array seen in one evaluation for ``cheap`` (a 64 x 64 matrix)."""

_SKIPPED = (str(Path(hypothesis.__file__).parent), choices.__file__)


def _largest(x, depth: int = 2) -> int:
    """Entries of the largest numpy array in ``x``, looking ``depth`` levels into containers and attributes."""
    if isinstance(x, np.ndarray):
        return x.size
    if depth <= 0 or isinstance(x, (str, bytes, int, float, complex, bool, type(None))):
        return 0
    if isinstance(x, dict):
        items = list(x.values())
    elif isinstance(x, (list, tuple, set, frozenset)):
        items = list(x)
    else:
        items = list(getattr(x, "__dict__", {}).values())
    return max((_largest(v, depth - 1) for v in items[:64]), default=0)


class _Tracer:
    """A ``sys.settrace`` tracer outside :data:`_SKIPPED`: counts line events (stopping past ``limit``) and
    the largest array among the arguments and return values of the Python calls it sees."""

    def __init__(self, limit: int):
        self.lines, self.elements, self.limit = 0, 0, limit

    def __call__(self, frame, event, arg):
        if self.lines > self.limit or frame.f_code.co_filename.startswith(_SKIPPED):
            return None
        n = frame.f_code.co_argcount + frame.f_code.co_kwonlyargcount
        self.elements = max([self.elements] + [_largest(frame.f_locals[v], 1)
                                               for v in frame.f_code.co_varnames[:n] if v in frame.f_locals])
        return self._local

    def _local(self, frame, event, arg):
        if event == "line":
            self.lines += 1
            if self.lines > self.limit:  # enough to say "not cheap": stop tracing new and current frames
                sys.settrace(None)
                return None
        elif event == "return":
            self.elements = max(self.elements, _largest(arg, 1))
        return self._local


def _trial_cases(claim: Claim, point) -> list:
    """Makers of the first two cases at ``point``, each building or drawing its case when called (a row a
    filter rejects is skipped: the first two kept of eight)."""
    space = claim.space_at(point)
    if space is not None:
        return [lambda v=v: space.case(v) for v in space.design(2, 0)]
    strategy = claim.strategy(point)
    rows, kept = choices.design_rows(8, 0), []
    for i in range(len(rows)):
        if len(kept) < 2 and choices.design_case(strategy, rows[i], 0, i) is not None:
            kept.append(i)
    return [lambda i=i: choices.design_case(strategy, rows[i], 0, i)[0] for i in kept]


def _measure(make, decide) -> dict:
    """The counts of building and deciding one case, with the garbage collector paused: a collection runs the
    finalizers of whatever garbage the process holds (a Dask worker's other threads make plenty) in the traced
    thread, at moments no one controls."""
    tracer, before, collecting = _Tracer(LINES), sys.gettrace(), gc.isenabled()
    gc.disable()
    sys.settrace(tracer)
    try:
        case = make()
        decide(case)
    finally:
        sys.settrace(before)
        if collecting:
            gc.enable()
    return {"lines": tracer.lines, "elements": max(tracer.elements, _largest(case))}


def choose(claim: Claim, profile: str) -> tuple[Cost, dict | None]:
    """The claim's cost class and, where the engine chose it, the proxy that did (for the evidence)."""
    if claim.cost is not None:
        return claim.cost, None
    if claim.kind.random:
        return Cost.NORMAL, {"declared": False, "why": "random kind: not measured"}
    point = claim.points(profile)[-1]
    prof = get_profile(profile)
    check = DeterministicCheck(claim, prof, prof.budget(False, Cost.NORMAL.value), 0, point, Escalation())
    try:
        makers = _trial_cases(claim, point)
        _measure(makers[0], check.decide)  # warms imports and caches
        proxy = _measure(makers[1], check.decide)
    except Exception as exc:  # noqa: BLE001 - the search meets and reports the same failure
        return Cost.NORMAL, {"declared": False, "why": f"the trial evaluation failed ({type(exc).__name__})"}
    cheap = proxy["lines"] <= LINES and proxy["elements"] <= ELEMENTS
    return (Cost.CHEAP if cheap else Cost.NORMAL), dict(proxy, declared=False, point=point)
