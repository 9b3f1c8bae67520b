"""How a record reads: verdict labels, key evidence, the detail block and the terminal table."""
from __future__ import annotations

import re

from attncheck.core.claims import Verdict
from attncheck.report.plain import plain

VERDICTS = tuple(v.value for v in Verdict)


def _fmt(x) -> str:
    if isinstance(x, float) or (isinstance(x, int) and abs(x) >= 10**5):
        return f"{x:.4g}"
    return str(x)


def verdict_label(rec: dict) -> str:
    """The verdict as a reader needs it: with "from n = ..." and how strongly it holds.

    "HOLDS for n >= 1e+05 (fails below)", "HOLDS (confirmed)" when every case's 95% lower
    bound reaches the claim, "HOLDS (not refuted)" otherwise; an eventual claim that fails at the
    end of its path gives the n from which its fitted failure rate holds, marked when extrapolated.
    """
    ev, verdict = rec["evidence"], rec["verdict"]
    label = verdict
    if verdict in ("HOLDS", "CERTIFIED") and "holds_from" in ev:
        label += f" for n >= {_fmt(_first(ev['holds_from']))} (fails below)"
    if verdict == "HOLDS" and ev.get("strength"):
        label += f" ({ev['strength']})"
    trend = ev.get("failure_trend") or {}
    if verdict in ("HOLDS", "INCONCLUSIVE") and "holds_from_extrapolated" in trend:
        where = ", extrapolated" if trend.get("extrapolated") else ""
        label += f" (failure falls; holds from n ~ {_fmt(trend['holds_from_extrapolated'])}{where})"
    if ev.get("series"):
        label += " [" + "; ".join(_series_label(row) for row in ev["series"]) + "]"
    return label


def _series_label(row: dict) -> str:
    """One series of a path over (beta, n): "beta = 0.25: n >= 1e+08", "all n", or its verdict."""
    name = ", ".join(f"{k} = {_fmt(v)}" for k, v in row["series"].items())
    if row["verdict"] != "HOLDS":
        extra = (row.get("failure_trend") or {}).get("holds_from_extrapolated")
        return f"{name}: {row['verdict']}" + (f" (holds from n ~ {_fmt(extra)}?)" if extra else "")
    return f"{name}: " + (f"n >= {_fmt(row['holds_from']['n'])}" if "holds_from" in row else "all n")


def _in_tail(point, series: list) -> bool:
    """Whether a point of a path over (beta, n) lies where its series holds (from its holds_from on)."""
    for row in series:
        if all(point.get(k) == v for k, v in row["series"].items()):
            return row["verdict"] != "HOLDS" or point["n"] >= row.get("holds_from", {"n": 0})["n"]
    return True


def point_text(point) -> str:
    """A path point as a reader writes it: "n = 1e+05", "beta = 0.25, n = 1e+18", or "(32768, 280)" for a point whose
    coordinates the record does not name."""
    if isinstance(point, dict):
        return ", ".join(f"{k} = {_fmt(v)}" for k, v in point.items())
    if isinstance(point, (list, tuple)):
        return "(" + ", ".join(_fmt(v) for v in point) + ")"
    return f"n = {_fmt(point)}"


def path_end(point) -> str:
    """Where a path ends: "n <= 1e+05", "path to beta = 1, n = 1e+18", "path to (32768, 280)"."""
    if isinstance(point, (dict, list, tuple)):
        return f"path to {point_text(point)}"
    return f"n <= {_fmt(point)}"


def _first(point):
    return point[0] if isinstance(point, (list, tuple)) else point


def key_evidence(rec: dict) -> str:
    """One line of the evidence a reader needs first."""
    ev, kind = rec["evidence"], rec["kind"]
    if "error" in ev:
        return ev["error"].splitlines()[0][:160]
    parts = []
    path = ev.get("path")
    if kind == "asymptotic":
        parts.append(f"C* max {_fmt(ev['implied_constant_max'])}")
        if "growth_exponent" in ev:
            lo, hi = ev["growth_exponent_ci"]
            parts.append(f"tail growth n^{_fmt(ev['growth_exponent'])} [{_fmt(lo)}, {_fmt(hi)}]")
        if "last_step_exponent" in ev:
            lo, hi = ev["last_step_exponent_ci"]
            parts.append(f"last step n^{_fmt(ev['last_step_exponent'])} [{_fmt(lo)}, {_fmt(hi)}] (tends to 0)")
        if "limit" in ev:
            parts.append(f"limit {_fmt(ev['limit'])} ± {_fmt(ev['limit_se'])}")
        parts.append(path_end(path[-1]['point']))
    elif kind == "probabilistic":
        # eventually-claims: the evidence is the tail of the path
        if path and "holds_from" in ev and ev["holds_from"] in [p["point"] for p in path]:
            path = path[[p["point"] for p in path].index(ev["holds_from"]):]
        elif path and ev.get("series"):  # a path over (beta, n): each series from where it holds
            path = [p for p in path if _in_tail(p["point"], ev["series"])]
        worsts = [p["worst"] for p in path if p.get("worst")] if path else [ev.get("worst")]
        worst = min(worsts, key=lambda w: w["gap"]) if worsts and worsts[0] else None
        if worst:
            lo, hi = worst["ci95"]
            alo, ahi = worst["decision_bounds"]
            word = "worst pass rate" if rec.get("relation", ">=") == ">=" else "farthest pass rate"
            parts.append(f"{word} {_fmt(worst['pass_rate'])} vs claimed {_fmt(worst['claimed'])} "
                         f"(95% CI [{_fmt(lo)}, {_fmt(hi)}]; multiplicity-adjusted [{_fmt(alo)}, {_fmt(ahi)}])")
        if path:
            parts.append(path_end(path[-1]['point']))
    elif kind == "expectation":
        worsts = [p["worst"] for p in path if p.get("worst")] if path else [ev.get("worst")]
        if worsts and worsts[0]:
            parts.append(expectation_line(min(worsts, key=lambda w: w["score"]), rec.get("relation")))
        if path:
            parts.append(path_end(path[-1]['point']))
    else:
        worsts = [p["worst"] for p in path if p.get("worst")] if path else [ev.get("worst")]
        if worsts and worsts[0]:
            parts.append(f"min rel. slack {_fmt(min(w['relative_slack'] for w in worsts))}")
        if path:
            parts.append(path_end(path[-1]['point']))
    if "holds_from" in ev:
        parts.append(f"holds from {point_text(ev['holds_from'])} (refuted below)")
    parts.append(f"{ev.get('cases', 0)} cases")
    if ev.get("certification"):
        parts.append(certification_line(ev["certification"]))
    esc = ev.get("escalation", {})
    if esc.get("escalated"):
        parts.append(f"{esc['escalated']} escalated to mpmath")
    return "; ".join(parts)


def expectation_line(worst: dict, relation: str | None) -> str:
    """The worst case of an expectation claim: its mean, standard error and multiplicity-adjusted interval."""
    lo, hi = worst["decision_bounds"]
    coord = f", coordinate {worst['coordinate']} of {worst['coordinates']}" if worst["coordinates"] > 1 else ""
    return (f"worst mean {_fmt(worst['mean'])} (se {_fmt(worst['se'])}, {worst['draws']} draws{coord}) "
            f"vs E {relation} 0 (multiplicity-adjusted [{_fmt(lo)}, {_fmt(hi)}])")


def certification_line(cert: dict) -> str:
    """The certification in one phrase: proved (and by which route), partly proved, or why not."""
    status = cert["status"]
    if status in ("not eligible", "not run"):
        return f"certification {status}: {cert['reason']}"
    if status == "error":
        return f"certification failed on balls ({cert['detail'][:80]}); the sampled verdict stands"
    where = f"{cert.get('boxes', '?')} boxes"
    if "depth" in cert:
        where += f", depth {cert['depth']}, {_fmt(cert['seconds'])} s"
    if status == "certified":
        covers = "; its boxes hold every case of the domain, so no case was drawn" if cert.get("covers") else ""
        return f"certified by {cert.get('route', 'interval arithmetic')} ({where}){covers}"
    if status == "refuted":
        return f"refuted by {cert.get('route') or 'interval branch and bound'} ({where})"
    return f"certified on {_fmt(100 * cert['certified_fraction'])}% of the box ({where}; the sampled verdict stands)"


def unchecked_line(part: dict) -> str:
    """"part (reason: why)", the reason said once where the why already opens with it."""
    reason, why = part["reason"], part["why"]
    said = why if why.startswith(reason) else f"{reason}: {why}" if why else reason
    return f"{part['part']} ({said})"


def detail(rec: dict) -> str:
    """Multi-line explanation of a verdict: statement, erratum, counterexample, reading, replay."""
    ev = rec["evidence"]
    lines = [f"  statement: {plain(rec['statement'])}", f"  evidence: {key_evidence(rec)}"]
    if "reason" in ev:
        lines.append(f"  reason: {ev['reason']}")
    if rec.get("erratum"):
        e = rec["erratum"]
        lines += [f"  erratum: {e['note']}", f"  corrected claim: {e['corrected_id']}"
                  + (f": {plain(e['corrected_statement'])}" if e.get("corrected_statement") else "")]
    cx = ev.get("counterexample")
    if cx:
        lines.append("  counterexample (minimal where shrinking applies):")
        lines += [f"    {k}: {v}" for k, v in cx.items() if v is not None]
    worst = tightest(rec)
    if worst is not None and rec["verdict"] in ("HOLDS", "CERTIFIED", "INCONCLUSIVE") and not cx:
        lines.append(f"  worst case ({worst.get('found_by', 'search')}): {worst['case']}")
    if ev.get("failing_case"):
        lines.append(f"  failing case ({ev['failing_case'].get('found_by', '?')}): {ev['failing_case']['case']}")
    if "traceback" in ev:
        lines.append(ev["traceback"].rstrip())
    reading = rec["reading"]
    if reading["provenance"]:
        lines.append(f"  provenance: {reading['provenance']['tag']} {reading['provenance']['note']}".rstrip())
    if reading["notes"] or reading["shared"]:
        lines.append("  reading:")
        lines += [f"    {k}: {v}" for k, v in {**reading["notes"], **reading["shared"]}.items()]
    lines += [f"  unchecked: {unchecked_line(u)}" for u in reading["unchecked"]]
    lines.append(f"  replay: {ev.get('replay')}")
    return "\n".join(lines)


#: how the worst case of a record's kind is picked among its path points' worst cases
_TIGHTEST = {"asymptotic": ("implied_constant", max), "probabilistic": ("gap", min), "expectation": ("score", min)}


def tightest(rec: dict) -> dict | None:
    """The worst case over the record's path (or its one worst), as found: the smallest relative slack, pass-rate
    gap or mean score, or the largest implied constant; None where no worst case names its inputs."""
    ev = rec["evidence"]
    worsts = [p["worst"] for p in ev.get("path") or [] if isinstance(p.get("worst"), dict)] or [ev.get("worst")]
    key, pick = _TIGHTEST.get(rec["kind"], ("relative_slack", min))
    worsts = [w for w in worsts if isinstance(w, dict) and "case" in w and isinstance(w.get(key), (int, float))]
    return pick(worsts, key=lambda w: w[key]) if worsts else None


def table(records: list[dict]) -> list[str]:
    """Fixed-width lines: id, kind, verdict, key evidence."""
    w = max(len(r["id"]) for r in records)
    v = max(12, max(len(verdict_label(r)) for r in records))
    lines = [f"{'claim':<{w}}  {'kind':<13}  {'verdict':<{v}}  evidence", "-" * (w + v + 48)]
    lines += [f"{r['id']:<{w}}  {r['kind']:<13}  {verdict_label(r):<{v}}  {key_evidence(r)}" for r in records]
    counts = {v: sum(r["verdict"] == v for r in records) for v in VERDICTS}
    lines.append("verdicts: " + ", ".join(f"{v} {c}" for v, c in counts.items() if c) + strength_counts(records))
    return lines


def strength_counts(records: list[dict]) -> str:
    """"; probabilistic HOLDS: k confirmed, m not refuted" and the same for expectation claims (empty when there
    are none)."""
    out = ""
    for kind in ("probabilistic", "expectation"):
        s = [r["evidence"].get("strength") for r in records if r["verdict"] == "HOLDS" and r["kind"] == kind]
        if s:
            out += f"; {kind} HOLDS: {s.count('confirmed')} confirmed, {s.count('not refuted')} not refuted"
    return out


def natural_key(text: str) -> list:
    """Sort key that orders digits by value: lemma-d.2 < lemma-d.10."""
    return [(0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", text) if t]
