"""What changed between two results.json documents, claim by claim, and which changes a policy calls regressions.

Each claim present in either document yields at most one change of verdict (or of its strength, or of its
certification), and one of its worst case; the kinds are :data:`KINDS`. ``attncheck diff OLD NEW`` and
``attncheck report --baseline OLD`` print them and exit 1 when a change of a kind in ``--fail-on`` is there.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

# labels (and the claim model under it) load where a diff is made, not where the command line is parsed

#: every kind of change, with what it means
KINDS = {
    "refuted": "a claim that did not fail now fails: REFUTED or ERROR",
    "erratum": "a new erratum: a stated claim refuted where it was not (or a new claim that is an erratum)",
    "weaker": "a verdict fell (CERTIFIED -> HOLDS -> INCONCLUSIVE) or its strength did (confirmed -> not refuted)",
    "lost": "a claim of OLD is not in NEW",
    "certification": "the certification changed (certified, incomplete, not eligible, ...) while the verdict did not",
    "stronger": "a verdict or its strength rose, or a failing claim (REFUTED, ERROR, ERRATUM) no longer fails",
    "added": "a claim of NEW is not in OLD",
    "worst": "the worst case moved (same verdict): minimum slack, worst pass rate, worst mean or implied constant",
}
#: the kinds that fail ``attncheck diff`` unless ``--fail-on`` says otherwise
REGRESSIONS = ("refuted", "erratum", "weaker", "lost")
#: the order of the verdicts that pass a run, weakest first
_PASSING = ("INCONCLUSIVE", "HOLDS", "CERTIFIED")
_FAILING = ("REFUTED", "ERROR")
_STRENGTH = ("not refuted", "confirmed")


class DiffError(Exception):
    """A document that cannot be read as results.json, or a --fail-on kind that does not exist (exit 2)."""


@dataclass(frozen=True)
class Change:
    id: str
    kind: str
    old: str | None
    new: str | None

    def line(self) -> str:
        if self.kind == "lost":
            return f"{self.kind:<13} {self.id} (was {self.old})"
        if self.kind == "added":
            return f"{self.kind:<13} {self.id} ({self.new})"
        return f"{self.kind:<13} {self.id}: {self.old} -> {self.new}"


def policy(text: str) -> tuple[str, ...]:
    """The kinds of ``--fail-on``: a comma-separated list of :data:`KINDS`, or ``none``, or ``all``."""
    if text.strip() == "none":
        return ()
    if text.strip() == "all":
        return tuple(KINDS)
    kinds = tuple(k.strip() for k in text.split(",") if k.strip())
    unknown = [k for k in kinds if k not in KINDS]
    if unknown or not kinds:
        raise DiffError(f"--fail-on takes a comma-separated list of {', '.join(KINDS)} (or none, or all); "
                        f"got {text!r}")
    return kinds


def load(path: str | Path) -> dict:
    """A results.json document, checked to hold a list of claim records with ids and verdicts."""
    try:
        doc = json.loads(Path(path).read_text())
    except OSError as e:
        raise DiffError(f"cannot read {path}: {e.strerror or e}") from None
    except ValueError as e:
        raise DiffError(f"{path} is not JSON: {e}") from None
    claims = doc.get("claims") if isinstance(doc, dict) else None
    if not isinstance(claims, list) or not all(isinstance(c, dict) and "id" in c and "verdict" in c for c in claims):
        raise DiffError(f"{path} is not a results.json: no list of claim records with ids and verdicts")
    return doc


def changes(old: dict, new: dict) -> list[Change]:
    """Every change from document ``old`` to ``new``, in natural claim-id order."""
    from attncheck.report.labels import natural_key

    a, b = ({c["id"]: c for c in d["claims"]} for d in (old, new))
    out = []
    for cid in sorted(a.keys() | b.keys(), key=natural_key):
        if cid not in b:
            out.append(Change(cid, "lost", state(a[cid]), None))
        elif cid not in a:
            out.append(Change(cid, "added", None, state(b[cid])))
            if b[cid]["verdict"] in _FAILING or b[cid]["verdict"] == "ERRATUM":
                out.append(Change(cid, "refuted" if b[cid]["verdict"] in _FAILING else "erratum", None,
                                  state(b[cid])))
        else:
            out += _between(cid, a[cid], b[cid])
    return out


def _between(cid: str, r: dict, s: dict) -> list[Change]:
    v, w = r["verdict"], s["verdict"]
    kind = None
    if v != w:
        if w in _FAILING:
            kind = "refuted"
        elif w == "ERRATUM":
            kind = "erratum"
        elif v in _FAILING or v == "ERRATUM":
            kind = "stronger"
        else:
            kind = "weaker" if _PASSING.index(w) < _PASSING.index(v) else "stronger"
    elif _strength(r) != _strength(s) and None not in (_strength(r), _strength(s)):
        kind = "weaker" if _STRENGTH.index(_strength(s)) < _STRENGTH.index(_strength(r)) else "stronger"
    elif _certification(r) != _certification(s):
        kind = "certification"
    out = [Change(cid, kind, state(r), state(s))] if kind else []
    if v == w and worst(r) != worst(s):
        out.append(Change(cid, "worst", worst(r), worst(s)))
    return out


def state(rec: dict) -> str:
    """The verdict with its strength and certification, as a change shows it: "HOLDS (confirmed)"."""
    extra = [x for x in (_strength(rec), _certification(rec)) if x]
    return rec["verdict"] + (f" ({', '.join(extra)})" if extra else "")


def _strength(rec: dict) -> str | None:
    return (rec.get("evidence") or {}).get("strength") if rec["verdict"] == "HOLDS" else None


def _certification(rec: dict) -> str | None:
    cert = (rec.get("evidence") or {}).get("certification")
    return f"certification {cert['status']}" if isinstance(cert, dict) and cert.get("status") else None


#: the figure of merit a worst case is shown by, per kind (deterministic kinds: the relative slack)
_MERIT = {"asymptotic": ("implied_constant", "implied constant"), "probabilistic": ("pass_rate", "worst pass rate"),
          "expectation": ("mean", "worst mean")}


def worst(rec: dict) -> str | None:
    """The worst case's figure of merit to four digits (:func:`attncheck.report.labels.tightest`): the smallest
    relative slack, the worst pass rate, the worst mean or the largest implied constant; None where the record has
    no worst case (a covered or failed claim)."""
    from attncheck.report.labels import tightest

    w = tightest(rec)
    key, name = _MERIT.get(rec.get("kind"), ("relative_slack", "min rel. slack"))
    return f"{name} {w[key]:.4g}" if w is not None and isinstance(w.get(key), (int, float)) else None


def regressions(found: list[Change], fail_on: tuple[str, ...]) -> list[Change]:
    return [c for c in found if c.kind in fail_on]


def lines(old: dict, new: dict, found: list[Change], fail_on: tuple[str, ...], names=("OLD", "NEW")) -> list[str]:
    """The printed diff: what is compared, a line per change (worst-case moves counted, not listed, unless they
    fail the run), the counts and the regressions under the policy."""
    from attncheck.report.labels import natural_key

    def about(doc, name):
        seeds = doc.get("seeds") or {}
        return f"{name}: {len(doc['claims'])} claims, profile {seeds.get('profile', '?')}, " \
               f"generated {doc.get('generated', '?')}"

    out = [about(old, names[0]), about(new, names[1])]
    p_old, p_new = ((d.get("seeds") or {}).get("profile") for d in (old, new))
    if p_old != p_new:
        out.append(f"note: the profiles differ ({p_old} -> {p_new}); budgets differ with them, so a probabilistic "
                   "strength, an INCONCLUSIVE or a worst case can change without the code changing")
    shown = [c for c in found if c.kind != "worst" or c.kind in fail_on]
    out += ["  " + c.line() for c in shown]
    counts = {k: sum(c.kind == k for c in found) for k in KINDS}
    out.append("changes: " + (", ".join(f"{k} {n}" for k, n in counts.items() if n) or "none"))
    bad = regressions(found, fail_on)
    rule = ",".join(fail_on) or "none"
    out.append(f"regressions (--fail-on {rule}): {len(bad)}" + (": " + ", ".join(sorted({c.id for c in bad},
                                                                                       key=natural_key))
                                                                 if bad else ""))
    return out


def to_json(found: list[Change], fail_on: tuple[str, ...]) -> dict:
    return {"fail_on": list(fail_on), "changes": [asdict(c) for c in found],
            "regressions": [asdict(c) for c in regressions(found, fail_on)]}
