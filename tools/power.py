"""The engine's power, measured: planted false claims and their twins over many seeds.

A planted suite is a claims file defining ``FAMILIES`` (family -> why it is hard) and a
registry ``POWER`` holding ``power/<family>/false`` and ``power/<family>/twin``. For each
family and profile, :func:`measure` runs both claims under seeds 0..K-1 and reports
the share of seeds in which the false claim is refuted (power) and in which the twin
is refuted (false refutations). Seeds are the engine's master seeds: the table is
reproducible on any machine.
"""
from __future__ import annotations

import importlib.util
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from attncheck.run.session import run_claim as run

REFUTING = ("REFUTED", "ERRATUM")


def load_suite(path: str | Path):
    """Import a planted suite file; return its module (FAMILIES, POWER)."""
    path = Path(path)
    if not path.is_file():
        raise SystemExit(f"attncheck: no planted suite at {path} (a file defining FAMILIES and POWER)")
    name = f"attncheck_power_{path.stem}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    module = sys.modules[name]
    for attr in ("FAMILIES", "POWER"):
        if not hasattr(module, attr):
            raise SystemExit(f"attncheck: planted suite {path} defines no {attr}")
    return module


def _verdict(job) -> tuple:
    path, claim_id, profile, seed = job
    suite = load_suite(path)
    t0 = time.process_time()
    rec = run(suite.POWER.get(claim_id), profile, seed=seed)
    found = rec["evidence"].get("counterexample", {}).get("found_by")
    if found is None and rec["verdict"] in REFUTING:
        found = "trend fit" if "growth_exponent" in rec["evidence"] else "path"
    return claim_id, profile, seed, rec["verdict"], found, time.process_time() - t0


def _logged(log: Path | None) -> dict:
    """The runs already in ``log`` (one JSON list per line), by (claim, profile, seed)."""
    if log is None or not log.is_file():
        return {}
    rows = [tuple(json.loads(line)) for line in log.read_text().splitlines() if line.strip()]
    return {r[:3]: r for r in rows}


def measure(path, seeds: int = 20, profiles=("quick", "deep"), workers: int = 2, progress=None,
            log: str | Path | None = None) -> list[dict]:
    """One row per (family, profile): power, false-refutation share, and the stage that found it.

    With ``log``, each run is appended to that file as it ends (claim, profile, seed, verdict,
    stage, CPU seconds), and runs already there are not run again: an interrupted
    measurement resumes where it stopped. Jobs go seed by seed, so a partial log covers
    every family."""
    suite = load_suite(path)
    log = Path(log) if log else None
    done = _logged(log)
    jobs = [(str(path), f"power/{fam}/{which}", prof, s) for s in range(seeds)
            for prof in profiles for fam in suite.FAMILIES for which in ("false", "twin")]
    todo = [j for j in jobs if j[1:] not in done]
    results = [done[j[1:]] for j in jobs if j[1:] in done]
    if progress and results:
        progress(f"  {len(results)}/{len(jobs)} runs read from {log}")
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for fut in as_completed([pool.submit(_verdict, j) for j in todo]):
            r = fut.result()
            results.append(r)
            if log is not None:
                with log.open("a") as fh:
                    fh.write(json.dumps(list(r)) + "\n")
            if progress and len(results) % 20 == 0:
                progress(f"  {len(results)}/{len(jobs)} runs")
    rows = []
    for fam, why in suite.FAMILIES.items():
        for prof in profiles:
            mine = [r for r in results if r[0].startswith(f"power/{fam}/") and r[1] == prof]
            false = [r for r in mine if r[0].endswith("/false")]
            twin = [r for r in mine if r[0].endswith("/twin")]
            stages = sorted({r[4] for r in false if r[3] in REFUTING and r[4]})
            rows.append({"family": fam, "why": why, "profile": prof, "seeds": seeds,
                         "power": sum(r[3] in REFUTING for r in false) / seeds,
                         "false_refutations": sum(r[3] in REFUTING for r in twin) / seeds,
                         "twin_verdicts": sorted({r[3] for r in twin}), "found_by": stages})
    return rows


def table(rows: list[dict]) -> list[str]:
    """The power table as Markdown."""
    profs = list(dict.fromkeys(r["profile"] for r in rows))
    head = "| family | what makes it hard | " + " | ".join(
        f"{p}: power | {p}: twin refuted" for p in profs) + " | found by | twin verdicts |"
    out = [head, "|" + " --- |" * (2 + 2 * len(profs) + 2)]
    for fam in dict.fromkeys(r["family"] for r in rows):
        mine = {r["profile"]: r for r in rows if r["family"] == fam}
        first = next(iter(mine.values()))
        cells = " | ".join(f"{mine[p]['power']:.0%} | {mine[p]['false_refutations']:.0%}" for p in profs)
        found = ", ".join(sorted({s for r in mine.values() for s in r["found_by"]}))
        twins = ", ".join(sorted({v for r in mine.values() for v in r["twin_verdicts"]}))
        out.append(f"| {fam} | {first['why']} | {cells} | {found} | {twins} |")
    return out
