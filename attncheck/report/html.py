"""The HTML report: index.html and one page per paper (static files, MathML, no network).

A paper page opens with what the paper claims and what attncheck found (main-text theorems, errata,
undecided claims, certification, scope, experiments, counts by verdict), then a table of contents, then
every claim section by section in the paper's order, each with a stable anchor
(``#deng2023/lemma-d.4/part-2``), then the errata rolled up by lemma (as printed beside corrected),
then the experiments. A claim's figure is folded unless the claim failed.
A few lines of inline JavaScript filter the claims by verdict and kind.
"""
from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

from attncheck.report import groups as g
from attncheck.report import replicates
from attncheck.report.figures import claim_figure_name
from attncheck.report.labels import key_evidence, unchecked_line, verdict_label
from attncheck.report.md import header
from attncheck.report.plain import note as note_text

e = html.escape

_CSS = """
body{font-family:system-ui,sans-serif;max-width:1150px;margin:1em auto;padding:0 1em;color:#222;line-height:1.4}
nav{font-size:13px}h1{font-size:1.5em;margin:.3em 0}h2{border-bottom:2px solid #ddd;margin-top:1.6em}
table{border-collapse:collapse;display:block;max-width:100%;overflow-x:auto}
td,th{border:1px solid #ccc;padding:3px 7px;font-size:13px;vertical-align:top}
th{background:#f4f4f4}.run{font-size:12px;color:#555}.partial{background:#fdd;padding:.5em;font-weight:bold}
.v{font-weight:bold;padding:0 .3em;border-radius:3px}.HOLDS,.CERTIFIED{color:#060}.REFUTED,.ERROR{color:#b00}
.ERRATUM,.INCONCLUSIVE{color:#a50}.tag{font-size:11px;border:1px solid #888;border-radius:3px;padding:0 .3em}
article.claim{border-left:3px solid #ddd;margin:.8em 0;padding:.2em .8em}article.claim h5{margin:.2em 0;font-size:14px}
.src,.ev,.replay{font-size:13px}.stmt{overflow-x:auto;overflow-y:hidden;margin:.3em 0}
[id]{scroll-margin-top:3em}.pair{display:grid;grid-template-columns:minmax(0,1fr);
gap:.4em}.pair>div{overflow-x:auto;border:1px solid #eee;padding:.3em}pre{white-space:pre-wrap;font-size:12px;
background:#f8f8f8;padding:.4em;max-height:12em;overflow:auto}img{max-width:100%;height:auto}
#filters{position:sticky;top:0;background:#fff;padding:.4em 0;font-size:13px;border-bottom:1px solid #ddd}
#filters label{margin-right:.7em;white-space:nowrap}dl{font-size:12px;margin:.2em 0}dt{font-weight:bold}
dd{margin:0 0 .3em 1.2em}.family{border:1px solid #e5c07b;padding:.3em .8em;margin:.8em 0}
details.unchecked{font-size:13px;color:#754}details.unchecked p{font-size:12px;margin:.2em 0 .2em 1.2em}
"""

_FILTER_JS = """
const f=document.getElementById('filters');
f.addEventListener('change',()=>{
 const on=n=>[...f.querySelectorAll('input[name='+n+']:checked')].map(i=>i.value);
 const v=on('verdict'),k=on('kind');
 document.querySelectorAll('article.claim').forEach(a=>{a.hidden=!(v.includes(a.dataset.col)&&k.includes(a.dataset.kind));});
 document.querySelectorAll('.lemma,.section').forEach(l=>{l.hidden=!l.querySelector('article.claim:not([hidden])');});
});
"""


@cache
def math(latex: str) -> str:
    """The statement as MathML (latex2mathml); LaTeX it cannot parse is shown as code."""
    from latex2mathml.converter import convert

    try:
        return convert(latex, display="block")
    except Exception:  # a statement that is not LaTeX stays readable as text
        return f"<code>{e(latex)}</code>"


_ITALIC_RUN = re.compile(r"(?:<mi>[A-Za-z]</mi>\s*){3,}")


def italic_words(markup: str) -> list[str]:
    """Runs of three or more single-letter math italics in MathML: a word set as a product of variables
    ("independentin", F_{exp}), which the statement should write as \\text{...} or \\mathrm{...}."""
    return ["".join(re.findall(r"<mi>([A-Za-z])</mi>", run)) for run in _ITALIC_RUN.findall(markup)]


def _page(title: str, body: list[str], script: str = "") -> str:
    return ("<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{e(title)}</title><style>{_CSS}</style></head><body>\n" + "\n".join(body) +
            (f"\n<script>{script}</script>" if script else "") + "\n</body></html>\n")


def _run_info(doc: dict) -> list[str]:
    lines = [e(line.replace("`", "").replace("**", "")) for line in header(doc)]
    out = [f"<p class='run'>{'<br>'.join(x for x in lines if not x.startswith('PARTIAL'))}</p>"]
    run = doc.get("run") or {}
    if not run.get("complete", True):
        out.append(f"<p class='partial'>PARTIAL report: {e(str(run.get('reason')))}</p>")
    return out


def _verdict(rec: dict) -> str:
    return f"<span class='v {rec['verdict']}'>{e(verdict_label(rec))}</span>"


def _link(rec: dict, page: str = "") -> str:
    return f"<a href='{page}#{e(rec['id'])}'>{e(rec['id'])}</a>"


def _figure(rec: dict, out: Path) -> str:
    name = claim_figure_name(rec["id"])
    if not (out / "figures" / name).is_file():
        return ""
    img = (f"<img loading='lazy' width='605' height='374' src='figures/{e(name)}' "
           f"alt='{e(rec['id'])} along its scaling path'>")
    held = rec["verdict"] in ("HOLDS", "CERTIFIED")  # folded where it holds: the page stays short
    return f"<details class='fig'{'' if held else ' open'}><summary>Figure: along its path</summary>{img}</details>"


def _counterexample(rec: dict) -> str:
    ev = rec["evidence"]
    cx = ev.get("counterexample") or ev.get("failing_case")
    if not cx:
        return ""
    text = "\n".join(f"{k}: {v}" for k, v in cx.items() if v is not None)
    return f"<p class='ev'>{'Counterexample' if 'counterexample' in ev else 'Failing case'}:</p><pre>{e(text)}</pre>"


def _counts_table(counts: dict[str, int]) -> str:
    head = "".join(f"<th>{e(k)}</th>" for k in g.COLUMNS)
    row = "".join(f"<td class='{k.split()[0]}'>{counts[k]}</td>" for k in g.COLUMNS)
    return f"<table><tr>{head}</tr><tr>{row}</tr></table>"


def _errata_line(recs: list[dict], label: str, fam: dict) -> str:
    by_id = {r["id"]: r for r in recs}
    fixed = [by_id.get(r["erratum"]["corrected_id"]) for r in fam["parts"]]
    held = sum(1 for f in fixed if f and f["verdict"] in ("HOLDS", "CERTIFIED"))
    paper = fam["parts"][0]["paper"]
    return (f"<li><a href='#errata/{e(paper)}/{e(label)}'>{e(g.label_title(label))}</a>: {len(fam['parts'])} "
            f"part(s) false as printed; {held} of {len(fixed)} corrected form(s) hold</li>")


def _scope(recs: list[dict]) -> str:
    """The HOLDS and CERTIFIED claims with an unchecked part, counted by reason; the "not drawn" ones named."""
    rows = []
    for reason, rs in g.scope_by_reason(recs).items():
        plural = "s" if len(rs) != 1 else ""
        listed = (f"<details><summary>{len(rs)} claim{plural}</summary>" + ", ".join(_link(r) for r in rs) + "</details>"
                  if reason == "not drawn" else str(len(rs)))
        rows.append(f"<tr><td>{e(reason)}</td><td>{listed}</td></tr>")
    table = f"<table><tr><th>reason</th><th>claims</th></tr>{''.join(rows)}</table>" if rows else ""
    return f"<p><b>Scope.</b> {e(g.scope_text(recs))}.</p>{table}"


def _headline(paper: str, recs: list[dict], exps: dict | None) -> list[str]:
    """What the paper claims and what attncheck found, in plain words: main theorems, errata, undecided claims,
    certification, scope and experiments, each linked to its details below."""
    mains = [r for r in recs if g.is_main_theorem(r)]
    out = ["<section id='headline'><h2>What the paper claims and what attncheck found</h2>"]
    if mains:
        out.append("<p><b>Main-text theorems.</b></p><ul>" + "".join(
            f"<li>{_link(r)} ({e(g.claim_title(r))}): {_verdict(r)}</li>" for r in mains) + "</ul>")
    fams = g.errata_families(recs)
    if fams:
        out.append(f"<p><b>Errata.</b> {sum(len(f['parts']) for f in fams.values())} statements are false as printed, "
                   f"in {len(fams)} lemmas. Each is checked as printed (its verdict ERRATUM: refuted, with a "
                   "counterexample) and, as a claim of its own, in its corrected form:</p><ul>"
                   + "".join(_errata_line(recs, label, fam) for label, fam in fams.items()) + "</ul>")
    else:
        out.append("<p><b>Errata.</b> None: no statement of this paper was refuted as printed.</p>")
    undecided = g.named(recs)
    out.append("<p><b>Refuted, error or undecided.</b> " + ("None." if not undecided else ", ".join(
        f"{_link(r)} {_verdict(r)}" for r in undecided) + ".") + "</p>")
    out.append(f"<p><b>Certified</b> (proved over the declared box, not sampled): {e(g.certification_text(recs))}.</p>")
    out.append(_scope(recs))
    mine = [x for x in (exps or {}).get("experiments", []) if x["id"].split("-")[0] == paper]
    if mine:
        out.append("<p><b>Experiments.</b></p><ul>" + "".join(
            f"<li><a href='#experiment/{e(x['id'])}'>{e(x['title'])}</a>: agreement with the paper: "
            f"{e((x.get('verdict') or {}).get('agreement', 'not assessed'))}</li>" for x in mine) + "</ul>")
    out.append(f"<p>{len(recs)} claims by verdict (a probabilistic HOLDS is <i>confirmed</i> when every case's "
               "one-sided 95% lower bound reaches the claim (an expectation HOLDS: when every mean's one-sided 95% "
               "interval lies on the claimed side of 0), <i>not refuted</i> when an estimate falls short of it "
               "without significance):</p>" + _counts_table(g.counts(recs)))
    return out + ["</section>"]


def _toc(paper: str, recs: list[dict], exps: dict | None) -> list[str]:
    """The table of contents: every section with its claim count, then the errata and the experiments."""
    items = [f"<li><a href='#section/{e(paper)}/{e(name)}'>{e(name)}</a> ({sum(len(v) for v in lemmas.values())} "
             f"claims: " + ", ".join(f"{n} {e(k)}" for k, n in g.counts([r for v in lemmas.values() for r in v]).items()
                                   if n) + ")</li>"
             for name, lemmas in g.sections(recs).items()]
    if g.errata_families(recs):
        items.append("<li><a href='#errata'>Errata, by lemma</a></li>")
    if any(x["id"].split("-")[0] == paper for x in (exps or {}).get("experiments", [])):
        items.append("<li><a href='#experiments'>Reproduced experiments</a></li>")
    return [f"<nav id='toc'><h2>Contents</h2><ul>{''.join(items)}</ul></nav>"]


def _errata(paper: str, recs: list[dict], out: Path) -> list[str]:
    fams = g.errata_families(recs)
    if not fams:
        return []
    by_id = {r["id"]: r for r in recs}
    html_ = ["<section id='errata'><h2>Errata, by lemma</h2>"]
    for label, fam in fams.items():
        html_.append(f"<div class='family' id='errata/{paper}/{label}'><h3>{e(g.label_title(label))}: "
                     f"{len(fam['parts'])} part(s) refuted as stated</h3>")
        for note, ids in fam["notes"]:
            html_.append(f"<p><b>Why</b> ({', '.join(e(i.split('/')[-1]) for i in ids)}): {e(note_text(note))}</p>")
        for r in fam["parts"]:
            cid = r["erratum"]["corrected_id"]
            corrected = by_id.get(cid)
            fixed = (f"{_link(corrected)} {_verdict(corrected)}" if corrected else f"<code>{e(cid)}</code> (not run)")
            stated_math = math(r["statement"])
            fixed_math = math(r["erratum"]["corrected_statement"] or "") if r["erratum"].get("corrected_statement") \
                else "<i>statement not recorded</i>"
            html_.append(f"<div class='pair'><div><b>As printed</b> {_link(r)}{stated_math}</div>"
                         f"<div><b>Corrected</b> {fixed}{fixed_math}</div></div>")
            html_.append(_counterexample(r) + _figure(r, out))
        html_.append("</div>")
    return html_ + ["</section>"]


def _claim(rec: dict, out: Path) -> str:
    ev = rec["evidence"]
    prov = g.provenance(rec)
    tag = f" <span class='tag' title='{e(prov['note'])}'>{e(prov['tag'])}</span>" if prov else ""
    reading = rec["reading"]
    interp = "".join(f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in reading["notes"].items()) + "".join(
        f"<dt>{e(k)} (shared)</dt><dd>{e(v)}</dd>" for k, v in reading["shared"].items())
    erratum = ""
    if rec.get("erratum"):
        cid = rec["erratum"]["corrected_id"]
        erratum = (f"<p class='ev'>Refuted as stated; corrected claim <a href='#{e(cid)}'>{e(cid)}</a>: "
                   f"{e(note_text(rec['erratum']['note']))}</p>")
    reason = f"<p class='ev'>{e(ev['reason'])}</p>" if ev.get("reason") else ""
    parts = g.unchecked(rec)
    scope = (f"<details class='unchecked'><summary>Unchecked ({len(parts)} part{'s' if len(parts) > 1 else ''}: "
             f"{', '.join(sorted({e(p['reason']) for p in parts}))})</summary>"
             + "".join(f"<p>{e(unchecked_line(p))}</p>" for p in parts) + "</details>") if parts else ""
    trace = f"<details><summary>traceback</summary><pre>{e(ev['traceback'])}</pre></details>" \
        if ev.get("traceback") else ""
    return (f"<article class='claim' id='{e(rec['id'])}' data-col='{e(g.column(rec))}' data-kind='{rec['kind']}'>"
            f"<h5><a href='#{e(rec['id'])}'>{e(rec['id'])}</a> {_verdict(rec)} <span class='tag'>{rec['kind']}"
            f"</span>{tag}</h5><p class='src'>{e(rec['source'])}</p><div class='stmt'>{math(rec['statement'])}</div>"
            f"{erratum}<p class='ev'><b>Evidence:</b> {e(key_evidence(rec))}</p>{replicates.html_claim(rec)}"
            f"{scope}{reason}{_counterexample(rec)}{trace}"
            + (f"<details><summary>Reading ({len(reading['notes']) + len(reading['shared'])} choices)</summary>"
               f"<dl>{interp}</dl></details>" if interp else "")
            + _figure(rec, out) + f"<p class='replay'>Replay: <code>{e(str(ev.get('replay')))}</code></p></article>")


def _filters(recs: list[dict]) -> str:
    cols = [c for c in g.COLUMNS if any(g.column(r) == c for r in recs)]
    kinds = sorted({r["kind"] for r in recs})
    boxes = "".join(f"<label><input type='checkbox' name='verdict' value='{e(c)}' checked> {e(c)}</label>" for c in cols)
    boxes += " | " + "".join(f"<label><input type='checkbox' name='kind' value='{k}' checked> {k}</label>" for k in kinds)
    return f"<form id='filters'>Show: {boxes}</form>"


def _claims(recs: list[dict], out: Path) -> list[str]:
    parts = ["<section id='claims'><h2>Every claim, section by section</h2>", _filters(recs)]
    for name, lemmas in g.sections(recs).items():
        parts.append(f"<div class='section'><h3 id='section/{e(recs[0]['paper'])}/{e(name)}'>{e(name)}</h3>")
        for label, items in lemmas.items():
            parts.append(f"<div class='lemma'><h4>{e(g.label_title(label))}</h4>")
            parts += [_claim(r, out) for r in items]
            parts.append("</div>")
        parts.append("</div>")
    return parts + ["</section>"]


def _experiments(paper: str, exps: dict | None) -> list[str]:
    mine = [x for x in (exps or {}).get("experiments", []) if x["id"].split("-")[0] == paper]
    if not mine:
        return []
    out = ["<section id='experiments'><h2>Reproduced experiments</h2>"]
    for x in mine:
        verdict = x.get("verdict") or {}
        agree = verdict.get("agreement", "not assessed")
        details = "".join(f"<li>{e(d)}</li>" for d in verdict.get("details", []))
        notes = "".join(f"<li>{e(n)}</li>" for n in x.get("notes", []))
        figs = "".join(f"<p><img loading='lazy' src='{e(f)}' alt='{e(x['title'])}'></p>" for f in x.get("figures", []))
        out.append(f"<div id='experiment/{e(x['id'])}'><h3>{e(x['title'])}</h3>"
                   f"<p><b>Agreement with the paper:</b> <span class='v'>{e(agree)}</span> "
                   f"(profile {e(str(x.get('profile')))}, seed {e(str(x.get('seed')))})</p><ul>{details}</ul>"
                   f"<p>{e(x['description'])}</p>{figs}<ul>{notes}</ul></div>")
    return out + ["</section>"]


def paper_page(paper: str, recs: list[dict], doc: dict, exps: dict | None, out: Path) -> str:
    title = g.paper_title(doc, paper)
    body = ["<nav><a href='index.html'>all papers</a> · <a href='summary.md'>summary.md</a> · "
            "<a href='results.json'>results.json</a></nav>",
            f"<h1>{e(paper)}: {e(title)}</h1>", *_run_info(doc), *replicates.html_flags(recs),
            *_headline(paper, recs, exps), *_toc(paper, recs, exps), *_claims(recs, out), *_errata(paper, recs, out),
            *_experiments(paper, exps)]
    return _page(f"{paper}: attncheck report", body, _FILTER_JS)


def index_page(doc: dict, exps: dict | None) -> str:
    papers = g.by_paper(doc["claims"])
    rows = []
    for paper, recs in papers.items():
        c = g.counts(recs)
        mains = "<br>".join(f"<a href='{paper}.html#{e(r['id'])}'>{e(g.claim_title(r))}</a>: {_verdict(r)}"
                            for r in recs if g.is_main_theorem(r))
        fams = g.errata_families(recs)
        errata = f"<a href='{paper}.html#errata'>{len(fams)} lemmas</a>" if fams else "none"
        rows.append(f"<tr><td><a href='{paper}.html'>{e(paper)}</a><br><small>{e(g.paper_title(doc, paper))}</small>"
                    f"</td><td>{len(recs)}</td>" + "".join(f"<td class='{k.split()[0]}'>{c[k] or ''}</td>"
                                                          for k in g.COLUMNS)
                    + f"<td>{mains or '-'}</td><td>{errata}</td></tr>")
    head = "".join(f"<th>{e(k)}</th>" for k in ("paper", "claims", *g.COLUMNS, "main-text theorems", "errata"))
    exp_rows = "".join(
        f"<li><a href='{x['id'].split('-')[0]}.html#experiment/{e(x['id'])}'>{e(x['title'])}</a>: agreement with the "
        "paper: "
        f"{e((x.get('verdict') or {}).get('agreement', 'not assessed'))}</li>"
        for x in (exps or {}).get("experiments", []))
    body = ["<nav><a href='summary.md'>summary.md</a> · <a href='results.json'>results.json</a></nav>",
            "<h1>attncheck verification report</h1>", *_run_info(doc),
            f"<table><tr>{head}</tr>{''.join(rows)}</table>", f"<p>{e(g.DISJOINT)}</p>"]
    shown = g.named(doc["claims"])
    if shown:
        body.append("<h2>Claims REFUTED, ERROR or INCONCLUSIVE</h2><ul>" + "".join(
            f"<li><a href='{e(r['paper'])}.html#{e(r['id'])}'>{e(r['id'])}</a>: {_verdict(r)}</li>" for r in shown)
            + "</ul>")
    if exp_rows:
        body.append(f"<h2>Reproduced experiments</h2><ul>{exp_rows}</ul>")
    return _page("attncheck report", body)


def write_pages(out: Path, doc: dict, exps: dict | None) -> list[Path]:
    """Write index.html and <paper>.html for every paper in the records; return the paths."""
    paths = [out / "index.html"]
    paths[0].write_text(index_page(doc, exps))
    for paper, recs in g.by_paper(doc["claims"]).items():
        path = out / f"{paper}.html"
        path.write_text(paper_page(paper, recs, doc, exps, out))
        paths.append(path)
    return paths
