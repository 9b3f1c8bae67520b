"""Certification (verdict CERTIFIED): proofs on a stated box, run as a stage after the sampled verdict, or
before the search where the box covers the claim's domain (:class:`Certification`).

Routes: a hand-written interval slack (:mod:`.boxes`), the claim's own evaluator on arb balls and on
SymPy symbols (:mod:`.params`, :mod:`.symbolic`). What a claim declares is in
:mod:`attncheck.core.declarations`.
"""
from __future__ import annotations

from attncheck.core.claims import Claim, Verdict
from attncheck.core.declarations import Cases, Ineligible, Parameters


class Certification:
    """One claim's certification, run at most once: before the search where its declaration ``covers`` the claim's
    domain (:meth:`covering`), else, or where that did not certify, as the stage after the sampled verdict
    (:meth:`stage`), which then reuses that run."""

    def __init__(self):
        self._out = None

    def _run(self, claim: Claim):
        if self._out is None:
            from attncheck.certify import params  # python-flint and SymPy load only where a claim certifies

            run = params.run if isinstance(claim.certify, Parameters) else params.run_cases
            self._out = run(claim.evaluate, claim.certify)
        return self._out

    def covering(self, claim: Claim, profile: str | None) -> dict | None:
        """Before the search: the certification evidence of a claim whose declaration ``covers`` its domain
        (:data:`attncheck.core.declarations.COVERS`) where it is CERTIFIED, else None (the search runs). A stated
        claim with a registered erratum, expected to be refuted, is searched first (its certification then runs
        only if the search does not refute it)."""
        decl = claim.certify
        if not isinstance(decl, (Parameters, Cases)) or not decl.covers or not _runs_in(decl, profile):
            return None
        if claim.erratum is not None:
            return None
        out = self._run(claim)
        return dict(out.evidence(decl), covers=decl.covers) if out.status == "certified" else None

    def stage(self, claim: Claim, verdict: Verdict, ev: dict, profile: str | None) -> tuple[Verdict, dict]:
        """Try the claim's certificate unless the sampled verdict already refutes it; CERTIFIED where it proves."""
        decl = claim.certify
        if decl is None or verdict is Verdict.REFUTED:
            return verdict, ev
        if isinstance(decl, Ineligible):
            ev["certification"] = {"status": "not eligible", "reason": decl.reason}
            if decl.detail:
                ev["certification"]["detail"] = decl.detail
            return verdict, ev
        if isinstance(decl, (Parameters, Cases)):
            if not _runs_in(decl, profile):
                ev["certification"] = {"status": "not run", "reason": f"runs in profile(s) {', '.join(decl.profiles)}"}
                return verdict, ev
            out = self._run(claim)
            ev["certification"] = out.evidence(decl)
        else:
            from attncheck.certify import boxes

            out = boxes.run(decl)
            ev["certification"] = {"status": out.status, "boxes": out.boxes, "box": decl.box,
                                   "certified_fraction": out.certified_fraction,
                                   "route": "interval (arb, hand-written slack)"}
        if out.status in ("not eligible", "error"):
            return verdict, ev
        if out.status == "refuted":
            ev["counterexample"] = dict(out.counterexample, found_by=out.counterexample.get(
                "found_by", "interval branch and bound"))
            return Verdict.REFUTED, ev
        if out.status == "certified" and verdict is Verdict.HOLDS:
            return Verdict.CERTIFIED, ev
        return verdict, ev


def _runs_in(decl, profile: str | None) -> bool:
    return profile is None or decl.profiles is None or profile in decl.profiles
