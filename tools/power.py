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
import sys
from concurrent.futures import ProcessPoolExecutor
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
    rec = run(suite.POWER.get(claim_id), profile, seed=seed)
    found = rec["evidence"].get("counterexample", {}).get("found_by")
    if found is None and rec["verdict"] in REFUTING:
        found = "trend fit" if "growth_exponent" in rec["evidence"] else "path"
    return claim_id, profile, seed, rec["verdict"], found


def measure(path, seeds: int = 20, profiles=("quick", "deep"), workers: int = 2, progress=None) -> list[dict]:
    """One row per (family, profile): power, false-refutation share, and the stage that found it."""
    suite = load_suite(path)
    jobs = [(str(path), f"power/{fam}/{which}", prof, s)
            for fam in suite.FAMILIES for prof in profiles for which in ("false", "twin") for s in range(seeds)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = []
        for i, r in enumerate(pool.map(_verdict, jobs, chunksize=4)):
            results.append(r)
            if progress and (i + 1) % 20 == 0:
                progress(f"  {i + 1}/{len(jobs)} runs")
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
