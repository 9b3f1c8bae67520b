"""Writing a report: results.json (:mod:`attncheck.core.record`), the figures, summary.md and the HTML pages."""
from __future__ import annotations

import datetime as _dt
import json
import platform
import shutil
import subprocess
from importlib import metadata
from pathlib import Path

from attncheck.core.record import SCHEMA
from attncheck.report.labels import natural_key

PACKAGES = ("attncheck", "numpy", "scipy", "hypothesis", "mpmath", "torch", "python-flint", "matplotlib", "pytest",
            "pytest-xdist", "latex2mathml", "tqdm")
CONSTRAINTS = "constraints.txt"


def versions() -> dict:
    out = {"python": platform.python_version()}
    for pkg in PACKAGES:
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


def constraints(installed: dict) -> dict | None:
    """The constraints file the report's versions should match, and where they differ."""
    path = Path(__file__).resolve().parents[2] / CONSTRAINTS
    if not path.is_file():
        return None
    pins = {}
    for line in path.read_text().splitlines():
        name, sep, version = line.split("#")[0].strip().partition("==")
        if sep:
            pins[name.strip().lower()] = version.strip()
    differs = {k: [installed[k], pins[k]] for k in pins
               if k in installed and installed[k] and installed[k].split("+")[0] != pins[k].split("+")[0]}
    return {"file": CONSTRAINTS, "differs": differs}


def keep_experiments(src, out: Path) -> None:
    """Carry experiments.json and its figures over from the report being replaced."""
    exp = Path(src) / "experiments.json"
    if not exp.is_file() or (out / "experiments.json").exists():
        return
    doc = json.loads(exp.read_text())
    for e in doc.get("experiments", []):
        for f in e.get("figures", []):
            if (Path(src) / f).is_file():
                (out / f).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(Path(src) / f, out / f)
    shutil.copy2(exp, out / "experiments.json")


def write(out_dir, records: list[dict], meta: dict, keep_experiments_from=None) -> Path:
    """Write results.json, the figures not drawn yet, summary.md and the HTML pages; return out_dir.

    ``out_dir`` is normally a staging directory (:mod:`attncheck.run.staging`); the experiments
    of the report it will replace are kept (``keep_experiments_from``).
    """
    out = Path(out_dir)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    if keep_experiments_from:
        keep_experiments(keep_experiments_from, out)
    vers = versions()
    doc = {
        "schema": SCHEMA,
        "generated": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "versions": vers,
        "constraints": constraints(vers),
        "run": meta.get("run", {"complete": True, "reason": None}),
        "seeds": {"master": meta.get("seed"), "profile": meta.get("profile"),
                  "derivation": "Hypothesis seed = crc32(master, claim id, path point); Monte Carlo "
                                "generator = SeedSequence([master, crc32(claim id), crc32(repr(case))])"},
        "papers": meta.get("papers", {}),
        "claims": sorted(records, key=lambda r: natural_key(r["id"])),
    }
    (out / "results.json").write_text(json.dumps(doc, indent=1) + "\n")
    from attncheck.report import figures  # matplotlib only when a report is written

    figures.claim_figures(doc["claims"], out / "figures", skip_existing=True)
    write_summary(out)
    return out


def write_summary(out_dir) -> Path:
    """Render summary.md and the HTML pages from results.json (and experiments.json when present)."""
    from attncheck.report import html as report_html
    from attncheck.report import md as report_md

    out = Path(out_dir)
    doc = json.loads((out / "results.json").read_text())
    exp = out / "experiments.json"
    exps = json.loads(exp.read_text()) if exp.exists() else None
    report_html.write_pages(out, doc, exps)
    path = out / "summary.md"
    path.write_text(report_md.summary(doc, exps))
    return path
