"""Running many claims, once for every front end (pytest, the CLI, Dask): one claim's record, the alpha
accounting across claims, the exit policy and the order of a run."""
from __future__ import annotations

import warnings

from attncheck import certify, papers
from attncheck.core.claims import Claim, Verdict
from attncheck.core.profiles import Profile, get_profile
from attncheck.report import labels
from attncheck.run import replay, schedule, threads


def n_random(claims) -> int:
    """How many random claims share the suite's alpha (Bonferroni over claims; at least 1)."""
    return sum(c.kind.random for c in claims) or 1


def run_claim(claim: Claim, profile: str | Profile = "quick", seed: int = 0, n_random_claims: int = 1,
              progress=None) -> dict:
    """One claim's results.json record: the engine's verdict, then certification (first, where its box covers the
    domain: :class:`attncheck.certify.Certification`), with BLAS on one thread
    and torch on one thread (:func:`attncheck.run.threads.one_thread`: the same numbers in every front end, no
    oversubscription) and the command that replays it."""
    from attncheck import engine  # SciPy and Hypothesis' engine only where a claim runs, not in an xdist controller

    profile = profile if isinstance(profile, Profile) else get_profile(profile)
    with threads.one_thread(), warnings.catch_warnings():
        # a Dask worker's own threads use the global `random` module while Hypothesis draws, which Hypothesis
        # reports as if a strategy did; the engine draws nothing from `random`
        warnings.filterwarnings("ignore", message="Do not use the `random` module inside strategies")
        cert = certify.Certification()
        rec = engine.run(claim, profile, seed, n_random_claims, progress=progress, stages=(cert.stage,),
                         first=cert.covering)
    rec["evidence"]["replay"] = replay.command(claim, profile.name, seed, profile.scale)
    return rec


def papers_of(records) -> dict:
    """The papers of these records as results.json describes them: a registered paper's PAPER record, else its key
    as title (a user's own claims)."""
    known = papers.registry()
    unknown = {"arxiv": None, "provenance_tags": []}
    return {key: known[key].to_json() if key in known else {"title": key, **unknown}
            for key in sorted({r["paper"] for r in records})}


def failure_text(rec: dict, strict: bool = False) -> str | None:
    """Why this record fails the run (REFUTED/ERROR without an erratum, or an erratum that no longer
    reproduces: the expected failure is strict; with ``strict``, INCONCLUSIVE too), or None if it does not."""
    verdict, erratum = rec["verdict"], rec["erratum"]
    if erratum is not None:
        if verdict == Verdict.ERRATUM.value:
            return None
        return (f"{rec['id']}: an erratum is registered, but the stated claim was not refuted "
                f"(verdict {verdict}); the expected failure is strict\n{labels.detail(rec)}")
    if verdict in (Verdict.REFUTED.value, Verdict.ERROR.value):
        return f"{rec['id']}: {verdict}\n{labels.detail(rec)}"
    if strict and verdict == Verdict.INCONCLUSIVE.value:
        return f"{rec['id']}: INCONCLUSIVE, which fails a strict run (the claim was not decided)\n{labels.detail(rec)}"
    return None


def longest_first(claims: list[Claim], *results) -> list[Claim]:
    """The claims ordered longest first by the first of these earlier results.json files with times (unknown ones
    first)."""
    order = schedule.longest_first([c.id for c in claims], schedule.past_seconds(*results))
    return [claims[k] for k in order]

