"""summary.md: counts per paper, errata by lemma, links to the HTML pages (short by design)."""
from __future__ import annotations

from attncheck.report import groups as g
from attncheck.report import replicates
from attncheck.report.labels import VERDICTS, key_evidence, verdict_label
from attncheck.report.plain import note as note_text


def header(doc: dict) -> list[str]:
    """The run's provenance in a few lines: time, profile, seed, versions, constraints, completeness."""
    v = doc["versions"]
    cons = doc.get("constraints")
    lines = [f"Generated {doc['generated']}, profile `{doc['seeds']['profile']}`, master seed "
             f"`{doc['seeds']['master']}`, attncheck {v.get('attncheck')} (git {v.get('git')}).",
             "Versions: " + ", ".join(f"{k} {val}" for k, val in v.items() if k not in ("attncheck", "git")) + "."]
    if cons:
        diff = "; ".join(f"{k} {a} (pinned {b})" for k, (a, b) in cons["differs"].items())
        lines.append(f"Against attncheck's own pins (its `{cons['file']}`, the versions of its committed report): "
                     + (f"differs: {diff}." if diff else "these versions match."))
    run = doc.get("run") or {}
    if run and not run.get("complete", True):
        lines.append(f"**PARTIAL report: {run.get('reason')}.**")
    return lines


def summary(doc: dict, exps: dict | None) -> str:
    papers = g.by_paper(doc["claims"])
    lines = ["# attncheck verification report", "", *header(doc), "",
             "Full report: [index.html](index.html) (one page per paper); machine-readable: "
             f"[results.json](results.json) (schema `{doc['schema']}`).", "",
             *replicates.md_lines(papers),
             "## Verdicts per paper", "",
             "| paper | claims | " + " | ".join(g.COLUMNS) + " | main-text theorems |",
             "| --- | --- | " + " | ".join("---" for _ in g.COLUMNS) + " | --- |"]
    for paper, recs in papers.items():
        c = g.counts(recs)
        mains = ", ".join(f"{g.claim_title(r)}: {verdict_label(r)}" for r in recs if g.is_main_theorem(r))
        lines.append(f"| [{paper}]({paper}.html) | {len(recs)} | " + " | ".join(str(c[k] or "") for k in g.COLUMNS)
                     + f" | {mains or '-'} |")
    lines += ["", g.DISJOINT, ""]
    shown = g.named(doc["claims"])
    if shown:
        lines += ["## Claims REFUTED, ERROR or INCONCLUSIVE", "",
                  *(f"- [{r['id']}]({r['paper']}.html#{r['id']}): {verdict_label(r)}: {_short(key_evidence(r), 160)}"
                    for r in shown)]
    lines += ["", "A probabilistic HOLDS is *confirmed* when every case's one-sided 95% lower bound reaches the "
              "claimed probability (an expectation HOLDS: when every mean's one-sided 95% interval lies on the claimed "
              "side of 0), *not refuted* when some estimate falls short of it without significance.", "",
              "Certification (CERTIFIED: proved over the declared box, not sampled: identities rewritten to 0 by SymPy "
              "(symbolic), inequalities by sign factors on arb intervals (symbolic-interval) or by arb balls "
              "(interval); each claim's evidence names its route):", "",
              *(f"- {paper}: {g.certification_text(recs)}" for paper, recs in papers.items()), "",
              "Scope (a part of a claim's domain out of reach is named unchecked in its reading, never "
              "dropped silently):", "",
              *(f"- {paper}: {g.scope_text(recs)}" for paper, recs in papers.items()), "",
              "## Errata by lemma", ""]
    any_errata = False
    for paper, recs in papers.items():
        for label, fam in g.errata_families(recs).items():
            any_errata = True
            corrected = {r["id"]: r for r in recs}
            fixed = [corrected.get(r["erratum"]["corrected_id"]) for r in fam["parts"]]
            ok = sum(1 for f in fixed if f and f["verdict"] in ("HOLDS", "CERTIFIED"))
            notes = " / ".join(note_text(n) for n, _ in fam["notes"])
            lines.append(f"- [{paper} {g.label_title(label)}]({paper}.html#errata/{paper}/{label}): "
                         f"{len(fam['parts'])} part(s) refuted as stated, {ok} corrected claim(s) hold. "
                         f"{_short(notes)}")
    if not any_errata:
        lines.append("No erratum among these claims.")
    if exps:
        lines += ["", "## Reproduced experiments", ""]
        for e in exps.get("experiments", []):
            verdict = e.get("verdict", {}).get("agreement", "not assessed")
            lines.append(f"- [{e['title']}]({e['id'].split('-')[0]}.html#experiment/{e['id']}): "
                         f"agreement with the paper: {verdict} (profile {e.get('profile')})")
    return "\n".join(lines) + "\n"


def _short(text: str, limit: int = 220) -> str:
    text = " ".join(str(text).split()).replace("|", "\\|")
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " ..."


def verdict_tables(doc: dict) -> str:
    """One table of verdict counts per paper (the README's "What it found", between its markers)."""
    out = []
    for paper, recs in g.by_paper(doc["claims"]).items():
        counts = {v: sum(r["verdict"] == v for r in recs) for v in VERDICTS}
        out += [f"**{paper}** — {g.paper_title(doc, paper)}", "", "| verdict | claims |", "| --- | ---: |",
                *(f"| {v} | {n} |" for v, n in counts.items() if n), ""]
    return "\n".join(out).rstrip() + "\n"
