"""Seed replication (``attncheck report --seeds K``): each claim under K master seeds.

The report keeps the record of the first seed (``--seed``) and adds to it
``"replication": {"seeds", "verdicts", "shares", "flips"}``: the verdict under each seed,
the share of seeds giving each verdict, and whether the verdict differs between seeds.
A verdict that flips is flagged at the top of its paper's section (HTML and summary.md).
"""
from __future__ import annotations

from collections import Counter
from html import escape as e


def seeds(master: int, k: int) -> list[int]:
    """The K master seeds: ``master, master + 1, ..., master + K - 1``."""
    if k < 1:
        raise ValueError(f"--seeds must be >= 1, got {k}")
    return [master + i for i in range(k)]


def merge(by_seed: dict[int, dict[str, dict]], master: int) -> list[dict]:
    """The master seed's records, each with its ``replication`` entry (by_seed: seed -> id -> record)."""
    order = sorted(by_seed)
    out = []
    for cid, rec in by_seed[master].items():
        verdicts = [by_seed[s][cid]["verdict"] for s in order if cid in by_seed[s]]
        counts = Counter(verdicts)
        out.append({**rec, "replication": {
            "seeds": [s for s in order if cid in by_seed[s]], "verdicts": verdicts,
            "shares": {v: counts[v] / len(verdicts) for v in sorted(counts, key=lambda v: -counts[v])},
            "flips": len(counts) > 1}})
    return out


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
