"""Certification (verdict CERTIFIED): proofs on a stated box, run as a stage after the sampled verdict.

Routes: a hand-written interval slack (:mod:`.boxes`), the claim's own evaluator on arb balls and on
SymPy symbols (:mod:`.params`, :mod:`.symbolic`). What a claim declares is in
:mod:`attncheck.core.declarations`.
"""
from __future__ import annotations

from attncheck.core.claims import Claim, Verdict
from attncheck.core.declarations import Cases, Ineligible, Parameters


def stage(claim: Claim, verdict: Verdict, ev: dict, profile: str | None) -> tuple[Verdict, dict]:
    """Try the claim's certificate unless the sampled verdict already refutes it; CERTIFIED where it proves."""
    if claim.certify is None or verdict is Verdict.REFUTED:
        return verdict, ev
    if isinstance(claim.certify, Ineligible):
        ev["certification"] = {"status": "not eligible", "reason": claim.certify.reason}
        if claim.certify.detail:
            ev["certification"]["detail"] = claim.certify.detail
        return verdict, ev
    from attncheck.certify import boxes, params  # python-flint and SymPy load only where a claim certifies

    if isinstance(claim.certify, (Parameters, Cases)):
        if profile is not None and claim.certify.profiles is not None and profile not in claim.certify.profiles:
            ev["certification"] = {"status": "not run", "reason": f"runs in profile(s) {', '.join(claim.certify.profiles)}"}
            return verdict, ev
        run = params.run if isinstance(claim.certify, Parameters) else params.run_cases
        out = run(claim.evaluate, claim.certify)
        ev["certification"] = out.evidence(claim.certify)
    else:
        out = boxes.run(claim.certify)
        ev["certification"] = {"status": out.status, "boxes": out.boxes, "box": claim.certify.box,
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
