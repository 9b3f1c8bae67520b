"""Reports: terminal table, results.json (schema attncheck-results/1), summary.md, figures."""
from __future__ import annotations

import datetime as _dt
import html
import json
import platform
import subprocess
from importlib import metadata
from pathlib import Path

SCHEMA = "attncheck-results/1"
VERDICTS = ("HOLDS", "CERTIFIED", "REFUTED", "ERRATUM", "INCONCLUSIVE", "ERROR")


def _fmt(x) -> str:
    if isinstance(x, float) or (isinstance(x, int) and abs(x) >= 10**5):
        return f"{x:.4g}"
    return str(x)


def verdict_label(rec: dict) -> str:
    """The verdict as a reader needs it: with "from n = ..." and how strongly it holds.

    "HOLDS for n >= 1e+05 (fails below)", "HOLDS (confirmed)" when every case's 95% lower
    bound reaches the claim, "HOLDS (not refuted)" otherwise; an INCONCLUSIVE eventual
    claim gives the extrapolated n from which it would hold.
    """
    ev, verdict = rec["evidence"], rec["verdict"]
    label = verdict
    if verdict in ("HOLDS", "CERTIFIED") and "holds_from" in ev:
        label += f" for n >= {_fmt(_first(ev['holds_from']))} (fails below)"
    if verdict == "HOLDS" and ev.get("strength"):
        label += f" ({ev['strength']})"
    trend = ev.get("failure_trend") or {}
    if verdict == "INCONCLUSIVE" and "holds_from_extrapolated" in trend:
        label += f" (failure falls; holds from n ~ {_fmt(trend['holds_from_extrapolated'])}?)"
    return label


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
            lo, hi = ev["growth_exponent_ci95"]
            parts.append(f"growth n^{_fmt(ev['growth_exponent'])} [{_fmt(lo)}, {_fmt(hi)}]")
        parts.append(f"n <= {_fmt(path[-1]['point'])}")
    elif kind == "probabilistic":
        if path and "holds_from" in ev:  # eventually-claims: the evidence is the tail of the path
            path = path[[p["point"] for p in path].index(ev["holds_from"]):]
        worsts = [p["worst"] for p in path if p.get("worst")] if path else [ev.get("worst")]
        worst = min(worsts, key=lambda w: w["gap"]) if worsts and worsts[0] else None
        if worst:
            lo, hi = worst["ci95"]
            alo, ahi = worst["decision_bounds"]
            word = "worst pass rate" if rec.get("relation", ">=") == ">=" else "farthest pass rate"
            parts.append(f"{word} {_fmt(worst['pass_rate'])} vs claimed {_fmt(worst['claimed'])} "
                         f"(95% CI [{_fmt(lo)}, {_fmt(hi)}]; multiplicity-adjusted [{_fmt(alo)}, {_fmt(ahi)}])")
        if path:
            parts.append(f"n <= {_fmt(path[-1]['point'])}")
    else:
        worsts = [p["worst"] for p in path if p.get("worst")] if path else [ev.get("worst")]
        if worsts and worsts[0]:
            parts.append(f"min rel. slack {_fmt(min(w['relative_slack'] for w in worsts))}")
        if path:
            parts.append(f"n <= {_fmt(path[-1]['point'])}")
    if "holds_from" in ev:
        parts.append(f"holds from n = {_fmt(ev['holds_from'])} (refuted below)")
    parts.append(f"{ev.get('cases', 0)} cases")
    esc = ev.get("escalation", {})
    if esc.get("escalated"):
        parts.append(f"{esc['escalated']} escalated to mpmath")
    return "; ".join(parts)


def detail(rec: dict) -> str:
    """Multi-line explanation of a verdict: statement, counterexample, replay command."""
    ev = rec["evidence"]
    lines = [f"  statement: {rec['statement']}", f"  evidence: {key_evidence(rec)}"]
    if "reason" in ev:
        lines.append(f"  reason: {ev['reason']}")
    cx = ev.get("counterexample")
    if cx:
        lines.append("  counterexample (minimal where shrinking applies):")
        lines += [f"    {k}: {v}" for k, v in cx.items()]
    if "traceback" in ev:
        lines.append(ev["traceback"])
    lines.append(f"  replay: {ev.get('replay')}")
    return "\n".join(lines)


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
    """"; probabilistic HOLDS: k confirmed, m not refuted" (empty when there are none)."""
    s = [r["evidence"].get("strength") for r in records if r["verdict"] == "HOLDS" and r["kind"] == "probabilistic"]
    if not s:
        return ""
    return f"; probabilistic HOLDS: {s.count('confirmed')} confirmed, {s.count('not refuted')} not refuted"


def versions() -> dict:
    out = {"python": platform.python_version()}
    for pkg in ("attncheck", "numpy", "scipy", "hypothesis", "mpmath", "pytest", "matplotlib"):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            out[pkg] = None
    try:
        out["git"] = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                    text=True, cwd=Path(__file__).parent, timeout=10).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        out["git"] = None
    return out


def write(out_dir, records: list[dict], meta: dict) -> Path:
    """Write results.json, claim figures and summary.md to out_dir; return the directory."""
    out = Path(out_dir)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    doc = {
        "schema": SCHEMA,
        "generated": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "versions": versions(),
        "seeds": {"master": meta.get("seed"), "profile": meta.get("profile"),
                  "derivation": "Hypothesis seed = crc32(master, claim id, path point); Monte Carlo "
                                "generator = SeedSequence([master, crc32(claim id), crc32(repr(case))])"},
        "claims": sorted(records, key=lambda r: r["id"]),
    }
    (out / "results.json").write_text(json.dumps(doc, indent=1) + "\n")
    from . import figures  # matplotlib only when a report is written

    figures.claim_figures(doc["claims"], out / "figures")
    write_summary(out)
    return out


def _md_escape(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def write_summary(out_dir) -> Path:
    """Render summary.md from results.json (and experiments.json when present)."""
    out = Path(out_dir)
    doc = json.loads((out / "results.json").read_text())
    claims = doc["claims"]
    lines = ["# attncheck verification report", "",
             f"Generated {doc['generated']} with profile `{doc['seeds']['profile']}`, master seed "
             f"`{doc['seeds']['master']}`; versions: " +
             ", ".join(f"{k} {v}" for k, v in doc["versions"].items()) + ".", "",
             "Machine-readable: [results.json](results.json) (schema `%s`)." % doc["schema"], "",
             "## Verdicts", "", "| claim | kind | verdict | evidence |", "| --- | --- | --- | --- |"]
    lines += [f"| `{r['id']}` | {r['kind']} | **{verdict_label(r)}** | {_md_escape(key_evidence(r))} |" for r in claims]
    counts = {v: sum(r["verdict"] == v for r in claims) for v in VERDICTS}
    lines += ["", "Totals: " + ", ".join(f"{v} {c}" for v, c in counts.items() if c) + strength_counts(claims) + ".",
              "", "A probabilistic HOLDS is *confirmed* when every case's one-sided 95% lower bound reaches the "
              "claimed probability, *not refuted* when some estimate falls short of it without significance.", ""]
    errata = [r for r in claims if r["erratum"]]
    lines += ["## Errata", ""]
    if not errata:
        lines += ["No erratum registered among these claims.", ""]
    for r in errata:
        e = r["erratum"]
        lines += [f"### `{r['id']}`", "", f"- stated: {r['statement']}",
                  f"- corrected (`{e['corrected_id']}`): {e['corrected_statement']}", f"- note: {e['note']}",
                  f"- stated-claim verdict: **{r['verdict']}**; evidence: {key_evidence(r)}", ""]
    lines += ["## Claims in detail", ""]
    for r in claims:
        lines += [f"### `{r['id']}` — {verdict_label(r)}", "", f"*{r['source']}* ({r['kind']})", "",
                  f"Statement: ${r['statement']}$", "", "Interpretation:", ""]
        lines += [f"- **{k}**: {v}" for k, v in r["interpretation"].items()]
        lines += ["", f"Evidence: {key_evidence(r)}.", ""]
        fig = Path("figures") / (r["id"].replace("/", "_") + ".png")
        if (out / fig).exists():
            lines += [f"![{r['id']}]({fig.as_posix()})", ""]
        path = r["evidence"].get("path")
        if path:
            lines += _path_table(r["kind"], path)
        cx = r["evidence"].get("counterexample")
        if cx:
            lines += ["Counterexample:", "", "```", *(f"{k}: {v}" for k, v in cx.items()), "```", ""]
        lines += [f"Replay: `{r['evidence'].get('replay')}`", ""]
    exp = out / "experiments.json"
    if exp.exists():
        lines += _experiments_section(json.loads(exp.read_text()))
    (out / "summary.md").write_text("\n".join(lines) + "\n")
    write_html(out, doc, json.loads(exp.read_text()) if exp.exists() else None)
    return out / "summary.md"


_CSS = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto}td,th{border:1px solid #ccc;"
        "padding:3px 6px;font-size:13px;vertical-align:top}table{border-collapse:collapse}"
        ".HOLDS,.CERTIFIED{color:#070}.REFUTED,.ERROR{color:#b00}.ERRATUM,.INCONCLUSIVE{color:#a60}")


def write_html(out: Path, doc: dict, exps: dict | None) -> Path:
    """summary.html: the verdict table, each claim's interpretation and figure, the experiments."""
    e = html.escape
    rows = "".join(
        f"<tr><td><a href='#{e(r['id'])}'>{e(r['id'])}</a></td><td>{r['kind']}</td>"
        f"<td class='{r['verdict']}'><b>{e(verdict_label(r))}</b></td><td>{e(key_evidence(r))}</td></tr>"
        for r in doc["claims"])
    parts = [f"<!doctype html><meta charset='utf-8'><title>attncheck report</title><style>{_CSS}</style>",
             f"<h1>attncheck verification report</h1><p>Generated {e(doc['generated'])}, profile "
             f"{e(str(doc['seeds']['profile']))}, seed {e(str(doc['seeds']['master']))}. "
             "<a href='results.json'>results.json</a> · <a href='summary.md'>summary.md</a></p>",
             f"<table><tr><th>claim</th><th>kind</th><th>verdict</th><th>evidence</th></tr>{rows}</table>"]
    for r in doc["claims"]:
        interp = "".join(f"<li><b>{e(k)}</b>: {e(v)}</li>" for k, v in r["interpretation"].items())
        fig = Path("figures") / (r["id"].replace("/", "_") + ".png")
        img = f"<img src='{fig.as_posix()}'>" if (out / fig).exists() else ""
        err = ""
        if r["erratum"]:
            err = (f"<p>Erratum: corrected claim <code>{e(r['erratum']['corrected_id'])}</code>: "
                   f"{e(str(r['erratum']['corrected_statement']))} ({e(r['erratum']['note'])})</p>")
        parts.append(f"<h3 id='{e(r['id'])}'>{e(r['id'])} — <span class='{r['verdict']}'>{r['verdict']}</span></h3>"
                     f"<p><i>{e(r['source'])}</i></p><p><code>{e(r['statement'])}</code></p>{err}"
                     f"<ul>{interp}</ul><p>{e(key_evidence(r))}</p>{img}")
    for x in (exps or {}).get("experiments", []):
        notes = "".join(f"<li>{e(n)}</li>" for n in x.get("notes", []))
        figs = "".join(f"<img src='{f}' style='max-width:100%'>" for f in _figures(x))
        parts.append(f"<h2>{e(x['title'])}</h2><p>{e(x['description'])}</p>{figs}<ul>{notes}</ul>")
    path = out / "summary.html"
    path.write_text("\n".join(parts) + "\n")
    return path


def _figures(exp: dict) -> list[str]:
    return exp["figures"]


def _path_table(kind: str, path: list[dict]) -> list[str]:
    if kind == "asymptotic":
        rows = ["| n | cases | implied constant C*(n) | worst case |", "| --- | --- | --- | --- |"]
        rows += [f"| {_fmt(p['point'])} | {p['cases']} | {_fmt(p['worst']['implied_constant'])} | "
                 f"{_md_escape(p['worst']['case'])[:120]} |" for p in path]
    elif kind in ("identity", "inequality"):
        rows = ["| n | cases | smallest relative slack | found by | refuted here | tightest case |",
                "| --- | --- | --- | --- | --- | --- |"]
        rows += [f"| {_fmt(p['point'])} | {p['cases']} | {_fmt(p['worst']['relative_slack'])} | "
                 f"{p['worst'].get('found_by', '')} | {'yes' if p['refuted'] else 'no'} | "
                 f"{_md_escape(p['worst']['case'])[:120]} |" for p in path if p.get("worst")]
    else:
        rows = ["| n | cases | min pass rate | 95% CI | claimed | refuted here |", "| --- | --- | --- | --- | --- | --- |"]
        rows += [f"| {_fmt(p['point'])} | {p['cases']} | {_fmt(p['worst']['pass_rate'])} | "
                 f"[{_fmt(p['worst']['ci95'][0])}, {_fmt(p['worst']['ci95'][1])}] | {_fmt(p['worst']['claimed'])} | "
                 f"{'yes' if p['refuted'] else 'no'} |" for p in path if p.get("worst")]
    return rows + [""]


def _experiments_section(exps: dict) -> list[str]:
    lines = ["## Reproduced experiments", ""]
    for e in exps["experiments"]:
        lines += [f"### {e['title']}", "", e["description"], ""]
        lines += [f"![{e['title']}]({f})" for f in _figures(e)] + [""]
        lines += [f"- {note}" for note in e.get("notes", [])]
        lines.append("")
    return lines
