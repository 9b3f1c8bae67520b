"""Every claim of the repository's papers carries a structured reading (attncheck.core.reading): its own text is
short (measurements and investigations live in docs/papers/<paper>.md), the parts of its domain it does not cover
are named with a reason, its provenance tag is one of its paper's, and shared readings are the paper's own."""
from pathlib import Path

import pytest

from attncheck import papers
from attncheck.core.reading import NOTE_LIMIT
from attncheck.run import loader

PROPERTIES = Path(__file__).resolve().parents[2] / "properties"
CLAIMS = loader.load([PROPERTIES])
PAPERS = papers.registry()


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_claims_readings_are_short_structured_and_the_papers_own(paper):
    mine = [c for c in CLAIMS if c.paper == paper]
    assert mine, f"no claims of {paper} under {PROPERTIES}"
    tags = set(PAPERS[paper].provenance_tags)
    long, inline, bad_tags, foreign = [], [], [], []
    for c in mine:
        r = c.reading
        if r.own_length() > NOTE_LIMIT:
            long.append(f"{c.id} ({r.own_length()} characters)")
        if any("unchecked" in f"{k} {v}".lower() for k, v in r.notes.items()):
            inline.append(c.id)
        if r.provenance is not None and r.provenance.tag not in tags:
            bad_tags.append(f"{c.id}: {r.provenance.tag}")
        foreign += [f"{c.id}: {s.id}" for s in r.shared if not s.id.startswith(f"{paper}/")]
    assert not long, f"readings over {NOTE_LIMIT} characters of their own: {long}"
    assert not inline, f"unchecked parts written into notes instead of Reading.unchecked: {inline}"
    assert not bad_tags, f"provenance tags outside {sorted(tags)}: {bad_tags}"
    assert not foreign, f"shared readings of another paper: {foreign}"
    if tags:  # restated papers: every statement says where it comes from
        assert all(c.reading.provenance is not None for c in mine), \
            [c.id for c in mine if c.reading.provenance is None]
