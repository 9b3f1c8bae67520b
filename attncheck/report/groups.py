"""How a report groups claims: papers, sections, lemmas, errata families, verdict counts.

Works on results.json records only, for any number of papers (``record["paper"]``).
"""
from __future__ import annotations

import re
from collections import Counter, OrderedDict

from attncheck.report.labels import natural_key

#: the headline's verdict columns: HOLDS split by strength (probabilistic and expectation claims)
#: kinds decided by a sequential test, whose HOLDS has a strength ("confirmed" or "not refuted")
TESTED = ("probabilistic", "expectation")
COLUMNS = ("CERTIFIED", "HOLDS", "HOLDS confirmed", "HOLDS not refuted", "ERRATUM", "REFUTED", "INCONCLUSIVE",
           "ERROR")

def paper_title(doc: dict, paper: str) -> str:
    """"Title (arXiv id)" of a paper as results.json describes it; the key for a paper it does not describe."""
    info = doc.get("papers", {}).get(paper)
    if not info:
        return paper
    return info["title"] + (f" (arXiv {info['arxiv']})" if info.get("arxiv") else "")


def column(rec: dict) -> str:
    """The headline column of a record: its verdict, with a probabilistic or expectation HOLDS split by strength."""
    if rec["verdict"] == "HOLDS" and rec["kind"] in TESTED:
        strength = rec["evidence"].get("strength")
        return f"HOLDS {strength}" if strength in ("confirmed", "not refuted") else "HOLDS"
    return rec["verdict"]

#: what the index and summary.md say of the verdict columns
DISJOINT = ("The verdict columns are disjoint: each claim is counted once, under its verdict. A CERTIFIED claim is "
            "not counted again under HOLDS; the HOLDS of a probabilistic or expectation claim is counted under HOLDS "
            "confirmed or HOLDS not refuted, and plain HOLDS counts the deterministic and asymptotic claims that hold; "
            "an ERRATUM's corrected claim is a claim of its own, counted under its own verdict.")
#: the verdicts a report names claim by claim, not only in counts
NAMED = ("REFUTED", "ERROR", "INCONCLUSIVE")


def named(records: list[dict]) -> list[dict]:
    """The records a reader must see by name: REFUTED, ERROR and INCONCLUSIVE, in natural id order."""
    return sorted((r for r in records if r["verdict"] in NAMED), key=lambda r: natural_key(r["id"]))


def counts(records: list[dict]) -> dict[str, int]:
    out = dict.fromkeys(COLUMNS, 0)
    for r in records:
        out[column(r)] += 1
    return out

def route_of(cert: dict) -> str:
    """The route(s) that proved a certification: 'symbolic', 'symbolic-interval', 'interval' (joined by ' + '
    when the class structures of one claim took different routes)."""
    names = (part.split(" (")[0].strip() for part in str(cert.get("route", "interval")).split(";"))
    return " + ".join(sorted({n for n in names if n}))


def unchecked(rec: dict) -> list[dict]:
    """The parts of the claim's admissible domain its reading names unchecked ({"part", "reason", "why"}):
    the verdict speaks for the rest of the domain only."""
    return rec["reading"]["unchecked"]


#: the unchecked reasons in the order of :class:`attncheck.core.reading.Reason` (an unknown one sorts last)
REASONS = ("out of float range", "beyond the path", "out of budget", "not drawn")


def _reason_key(reason: str) -> tuple:
    return (REASONS.index(reason) if reason in REASONS else len(REASONS), reason)


def scope_by_reason(records: list[dict]) -> dict[str, list[dict]]:
    """Reason -> the HOLDS and CERTIFIED claims naming at least one unchecked part for it (a claim naming parts
    for two reasons is in both lists), in :data:`REASONS` order."""
    out: dict[str, list[dict]] = {}
    for r in records:
        if r["verdict"] in ("HOLDS", "CERTIFIED"):
            for reason in {p["reason"] for p in unchecked(r)}:
                out.setdefault(reason, []).append(r)
    return {k: sorted(out[k], key=lambda r: natural_key(r["id"])) for k in sorted(out, key=_reason_key)}


def scope_text(records: list[dict]) -> str:
    """How many HOLDS and CERTIFIED claims name parts of their domain as unchecked, and for which reasons
    (claims per reason; a claim may count under two)."""
    held = [r for r in records if r["verdict"] in ("HOLDS", "CERTIFIED")]
    named = [r for r in held if unchecked(r)]
    reasons = scope_by_reason(records)
    why = f" (claims by reason: {', '.join(f'{k} {len(v)}' for k, v in reasons.items())})" if reasons else ""
    return (f"{len(named)} of the {len(held)} HOLDS and CERTIFIED claims name parts of their admissible domain as "
            f"unchecked{why}: their verdict covers the rest")


def certification(records: list[dict]) -> dict[str, int]:
    """Deterministic claims: how many are certified (in all, and by route), declared eligible, and not
    eligible (by reason)."""
    det = [r for r in records if r["kind"] in ("identity", "inequality")]
    certs = [r["evidence"].get("certification") or {} for r in det]
    out = {"deterministic": len(det), "certified": sum(r["verdict"] == "CERTIFIED" for r in det),
           "eligible": sum(c.get("status") not in (None, "not eligible") for c in certs)}
    for r, c in zip(det, certs, strict=False):
        if r["verdict"] == "CERTIFIED":
            key = f"certified by {route_of(c)}"
            out[key] = out.get(key, 0) + 1
    for c in certs:
        if c.get("status") == "not eligible":
            out[f"not eligible: {c['reason']}"] = out.get(f"not eligible: {c['reason']}", 0) + 1
    out["undeclared"] = sum(not c for c in certs)
    return out


def certification_text(records: list[dict]) -> str:
    c = certification(records)
    routes = ", ".join(f"{v} {k[len('certified by '):]}" for k, v in c.items() if k.startswith("certified by "))
    rest = ", ".join(f"{v} {k}" for k, v in c.items() if k.startswith("not eligible") or k == "undeclared")
    not_run = Counter(str((r["evidence"].get("certification") or {}).get("reason", "")) for r in records
                      if (r["evidence"].get("certification") or {}).get("status") == "not run")
    skipped = "".join(f"; {n} not run here: certification {why.replace('runs in', 'runs in the')}"
                      for why, n in sorted(not_run.items()))
    return (f"{c['certified']} of {c['eligible']} eligible deterministic claims CERTIFIED"
            f"{' (' + routes + ')' if routes else ''}{skipped} "
            f"({c['deterministic']} deterministic{'; ' + rest if rest else ''})")


def by_paper(records: list[dict]) -> OrderedDict[str, list[dict]]:
    out: OrderedDict[str, list[dict]] = OrderedDict()
    for r in sorted(records, key=lambda r: natural_key(r["id"])):
        out.setdefault(r["paper"], []).append(r)
    return out

#: a label's number: 4.1, d.4, c.3, a (letters name appendices, upper case in the paper)
_NUMBER = re.compile(r"[a-z]?\d*(\.\d+)*")


def label_title(label: str) -> str:
    """lemma-d.4 -> Lemma D.4; eq-6.9 -> Eq. 6.9; theorem-main -> Main theorem; a label whose tail is a word keeps it
    as written (softmax-max -> Softmax max)."""
    head, _, num = label.partition("-")
    if num == "main":
        return f"Main {head}"
    head = {"eq": "Eq."}.get(head, head.capitalize())
    if not num:
        return head
    return f"{head} {num.upper() if _NUMBER.fullmatch(num) else num}"

def claim_title(rec: dict) -> str:
    """Theorem 1.1 (part main omitted), Theorem 6.2 part-1-corrected."""
    title = label_title(rec["label"])
    return title if rec["part"] == "main" else f"{title} {rec['part']}"


_SOURCE_SECTION = re.compile(r"\b(Section|Appendix)\s+([A-Z0-9]+)")

def section(rec: dict) -> str:
    """The paper section of a claim: from its label (lemma-d.4 -> Appendix D), else its source."""
    _, _, num = rec["label"].partition("-")
    if "." in num:
        head = num.split(".")[0].upper()
        return f"Appendix {head}" if head.isalpha() else f"Section {head}"
    m = _SOURCE_SECTION.search(rec.get("source", ""))
    return f"{m.group(1)} {m.group(2)}" if m else "Main text"

def section_key(name: str) -> tuple:
    kind, _, tag = name.partition(" ")
    return ({"Main": 0, "Section": 1, "Appendix": 2}.get(kind, 3), natural_key(tag))

def sections(records: list[dict]) -> OrderedDict[str, OrderedDict[str, list[dict]]]:
    """section -> lemma label -> records, each level in the paper's (natural) order."""
    grouped: dict[str, dict[str, list[dict]]] = {}
    for r in sorted(records, key=lambda r: natural_key(r["id"])):
        grouped.setdefault(section(r), {}).setdefault(r["label"], []).append(r)
    out: OrderedDict = OrderedDict()
    for name in sorted(grouped, key=section_key):
        out[name] = OrderedDict(sorted(grouped[name].items(), key=lambda kv: natural_key(kv[0])))
    return out

def is_main_theorem(rec: dict) -> bool:
    """A theorem of the main text (numbered without an appendix letter: theorem-1.1, theorem-2; or the paper's
    unnumbered main theorem, theorem-main)."""
    head, _, num = rec["label"].partition("-")
    return head == "theorem" and (num == "main" or bool(re.fullmatch(r"\d+(\.\d+)*", num)))

def errata_families(records: list[dict]) -> OrderedDict[str, dict]:
    """Errata rolled up by lemma: label -> {"parts": [records], "notes": [(note, [part ids])]}.

    A note shared by several parts of one lemma is given once, with the parts it covers.
    """
    out: OrderedDict[str, dict] = OrderedDict()
    for r in sorted((r for r in records if r.get("erratum")), key=lambda r: natural_key(r["id"])):
        fam = out.setdefault(r["label"], {"parts": [], "notes": OrderedDict()})
        fam["parts"].append(r)
        fam["notes"].setdefault(r["erratum"]["note"], []).append(r["id"])
    for fam in out.values():
        fam["notes"] = list(fam["notes"].items())
    return out

def provenance(rec: dict) -> dict | None:
    """{"tag", "note"} of a restated statement's provenance (None for a statement as printed)."""
    return rec["reading"]["provenance"]
