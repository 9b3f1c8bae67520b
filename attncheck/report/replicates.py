"""Seed replication as a reader sees it: each claim's share of seeds per verdict, and the verdicts that flip."""
from __future__ import annotations

from collections import Counter
from html import escape as e


def shares_text(rec: dict) -> str | None:
    """"HOLDS 2/3, REFUTED 1/3 over seeds 0-2" (None without replication)."""
    rep = rec.get("replication")
    if not rep:
        return None
    k = len(rep["verdicts"])
    counts = Counter(rep["verdicts"])
    return (", ".join(f"{v} {counts[v]}/{k}" for v in rep["shares"])
            + f" over seeds {', '.join(map(str, rep['seeds']))}")


def flipping(recs: list[dict]) -> list[dict]:
    return [r for r in recs if (r.get("replication") or {}).get("flips")]


def html_flags(recs: list[dict]) -> list[str]:
    """Top of a paper's page: the claims whose verdict flips between seeds (nothing without replication)."""
    replicated = [r for r in recs if r.get("replication")]
    if not replicated:
        return []
    flips = flipping(replicated)
    k = len(replicated[0]["replication"]["seeds"])
    if not flips:
        return [f"<section id='replication'><p>Seed replication: every one of the {len(replicated)} claims gives "
                f"the same verdict under all {k} master seeds.</p></section>"]
    items = "".join(f"<li><a href='#{e(r['id'])}'>{e(r['id'])}</a>: {e(shares_text(r))}</li>" for r in flips)
    return [f"<section id='replication' class='flips'><h2>Verdicts that flip between seeds</h2>"
            f"<p><b>{len(flips)} of {len(replicated)} claims</b> change verdict between the {k} master seeds: "
            f"these verdicts depend on luck.</p><ul>{items}</ul></section>"]


def html_claim(rec: dict) -> str:
    """One claim's line: share of seeds giving each verdict."""
    text = shares_text(rec)
    if text is None:
        return ""
    flag = " <b>(flips)</b>" if rec["replication"]["flips"] else ""
    return f"<p class='ev'><b>Seeds:</b> {e(text)}{flag}</p>"


def md_lines(papers: dict[str, list[dict]]) -> list[str]:
    """summary.md: per paper, the flipping claims first (with their shares), then the stable count."""
    if not any(r.get("replication") for recs in papers.values() for r in recs):
        return []
    lines = ["## Seed replication", ""]
    for paper, recs in papers.items():
        replicated = [r for r in recs if r.get("replication")]
        if not replicated:
            continue
        flips = flipping(replicated)
        k = len(replicated[0]["replication"]["seeds"])
        head = f"**{len(flips)} verdict(s) flip between seeds**; " if flips else ""
        lines.append(f"### {paper}")
        lines.append("")
        lines.append(f"{head}{len(replicated) - len(flips)} of {len(replicated)} claims give the same verdict "
                     f"under all {k} master seeds.")
        lines += [f"- FLIPS [{r['id']}]({paper}.html#{r['id']}): {shares_text(r)}" for r in flips]
        lines.append("")
    return lines
