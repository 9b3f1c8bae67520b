"""Screen, then confirm: how a random kind spends the suite's alpha (issue 27).

The search *screens* every case it tries: the check evaluates it on the path point's common random
numbers (:meth:`.checks.Check.crn`, ``Profile.screen`` draws), spends no alpha and never refutes, and
the point's :class:`Pool` keeps the ``Profile.confirm`` distinct cases the screen ranks worst. After the
search, each of those is *confirmed* on fresh i.i.d. draws of its own (:func:`.checks.case_rng`, a stream
distinct from the screen's) by a sequential test at the per-test level

    alpha_per_test = alpha_claim / (path points x Profile.confirm x looks of the confirmation),

drawing more (up to ``Profile.confirm_budget``) while the estimate sits on the failing side and the test
is undecided. Only confirmations spend alpha, so a case the search tries costs none, and the estimate
that enters the evidence (``worst``, the failure trend of an eventually-claim) comes from draws that did
not select the case, so selection does not bias it.

A random kind plugs in by subclassing :class:`.checks.ScreenedCheck` and writing two methods:

- ``screen(case, pt) -> Screened``: the case on the screening draws; ``score`` ranks it (lower is more
  suspect, negative is significant at the liberal level :data:`attncheck.stats.SCREEN_ALPHA`; a case that
  claims nothing ranks last with ``claims=False``), ``gap`` is the tightness handed back to the search
  (Hypothesis' target, the optimizer's starts), ``info`` a summary kept in the evidence; ``flagrant`` when
  the screening draws alone would refute at the confirmation's level: the case is then confirmed at once,
  within the same ``Profile.confirm`` confirmations, so that a refutation ends the point's search (a false
  claim's search stops as soon as it finds a gross violation; a true claim is flagrant with probability
  below its alpha_per_test, so the worst cases keep their confirmations);
- ``confirm(case, pt) -> Confirmed``: the sequential test on fresh draws at ``self.alpha_test``; ``state``
  is "refute", "holds" or "continue" (undecided at the budget), ``info`` the evidence of the case (its
  estimate, intervals, draws), ``gap`` its estimate's distance to the claim, ``lower_gap`` the distance of
  its one-sided 95% bound (>= 0: the case is *confirmed*; None where the kind has no such bound).

:class:`.checks.ProbabilisticCheck` is the first such kind.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass


@dataclass(frozen=True)
class Screened:
    score: float
    gap: float
    info: dict
    claims: bool = True  # False: the case claims nothing (e.g. probability 0); ranked after every other
    flagrant: bool = False  # the screening draws alone would refute at the confirmation's level: confirmed at once


@dataclass(frozen=True)
class Confirmed:
    state: str
    info: dict
    gap: float
    lower_gap: float | None


class Pool:
    """The ``keep`` distinct cases (by repr) the screen ranks worst at one path point, and how many distinct
    cases were suspects (negative score) there."""

    def __init__(self, keep: int):
        self.keep, self._heap, self._best, self._suspects, self._done = keep, [], {}, set(), set()

    def take(self, case) -> bool:
        """Reserve one of the ``keep`` confirmations for ``case`` now (a flagrant case, confirmed during the
        search so that a refutation ends it); False when none is left or the case has one."""
        key = repr(case)
        if key in self._done or len(self._done) >= self.keep:
            return False
        self._done.add(key)
        return True

    def offer(self, case, stage: str, s: Screened) -> None:
        key = repr(case)
        if s.claims and s.score < 0:
            self._suspects.add(key)
        rank = (not s.claims, s.score)
        if key in self._best and self._best[key][0] <= rank:
            return
        self._best[key] = (rank, len(self._best), case, stage, s)
        self._heap = heapq.nsmallest(self.keep, self._best.items(), key=lambda kv: kv[1][:2])
        self._best = dict(self._heap)

    def worst(self) -> list[tuple]:
        """(case, stage that screened it, Screened) still to confirm, worst first, within the confirmations left."""
        todo = [(case, stage, s) for key, (_, _, case, stage, s) in self._heap if key not in self._done]
        return todo[: self.keep - len(self._done)]

    @property
    def suspects(self) -> int:
        return len(self._suspects)

    def unconfirmed_suspects(self) -> int:
        """Suspects neither confirmed nor to be (then a HOLDS is *not refuted*, never *confirmed*)."""
        return len(self._suspects - self._done - {repr(case) for case, _, _ in self.worst()})
