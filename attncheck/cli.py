"""Command line: ``attncheck list | check ID | report | experiments | bench``."""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from . import engine, report
from .claims import REGISTRY
from .profiles import PROFILES, get_profile
from .pytest_plugin import _scale, _seed

REPO = Path(__file__).resolve().parent.parent


def default_properties() -> Path:
    """./properties if present, else the properties/ folder beside the installed package."""
    here = Path.cwd() / "properties"
    return here if here.is_dir() else REPO / "properties"


def load(paths: list[str] | None) -> None:
    """Import claim files (a .py file or every .py file of a folder) into the registry."""
    targets = [Path(p) for p in paths] if paths else [default_properties()]
    for target in targets:
        if not target.exists():
            raise SystemExit(f"attncheck: no such claims file or folder: {target}")
        files = sorted(target.glob("*.py")) if target.is_dir() else [target]
        for f in files:
            if f.name in ("__init__.py", "conftest.py"):
                continue
            name = f"attncheck_claims_{f.stem}"
            if name in sys.modules:
                continue
            folder = str(f.resolve().parent)
            if folder not in sys.path:  # sibling helper modules import as under pytest (prepend mode)
                sys.path.insert(0, folder)
            spec = importlib.util.spec_from_file_location(name, f)
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)


def cmd_list(args) -> int:
    load(args.claims)
    claims = [c for c in REGISTRY if not args.paper or c.paper == args.paper]
    w = max((len(c.id) for c in claims), default=5)
    for c in claims:
        print(f"{c.id:<{w}}  {c.kind.value:<13}  {c.source}")
    print(f"{len(claims)} claims")
    return 0


def _progress(claim, pt) -> None:
    where = f"n = {pt.point}" if pt.point is not None else "domain"
    state = "refuted" if pt.refuted else "ok"
    print(f"  {claim.id}: {where}: {pt.cases} cases, {pt.samples} draws: {state}", flush=True)


def cmd_check(args) -> int:
    load(args.claims)
    try:
        c = REGISTRY.get(args.claim_id)
    except KeyError as e:
        raise SystemExit(f"attncheck: {e.args[0]}") from None
    seed = int.from_bytes(os.urandom(4), "little") & 0x7FFFFFFF if args.fresh else args.seed
    n_random = sum(x.kind.random for x in REGISTRY) or 1
    print(f"checking {c.id} ({c.kind.value}), profile {args.profile}, seed {seed}", flush=True)
    rec = engine.run(c, get_profile(args.profile, args.scale), seed, n_random, progress=_progress)
    print(f"{report.verdict_label(rec)}: {report.key_evidence(rec)}")
    print(report.detail(rec))
    if args.json:
        Path(args.json).write_text(json.dumps(rec, indent=1) + "\n")
    from .pytest_plugin import failure_text

    return 1 if failure_text(rec) else 0


def _pytest_cmd(profile: str, out: str, workers: str, claims: list[str] | None, seed: int,
                scale: float = 1.0) -> list[str]:
    targets = claims or [str(default_properties())]
    return [sys.executable, "-m", "pytest", "-n", workers, *targets, "-q", "-p", "no:cacheprovider",
            f"--attncheck-profile={profile}", f"--attncheck-seed={seed}", f"--attncheck-scale={scale}",
            f"--attncheck-report={out}"]


def cmd_report(args) -> int:
    t0 = time.perf_counter()
    cmd = _pytest_cmd(args.profile, args.out, args.workers, args.claims, args.seed, args.scale)
    print("running:", " ".join(cmd), flush=True)
    rc = subprocess.call(cmd)
    if rc not in (0, 1):
        print(f"attncheck: pytest exited with status {rc}; report not completed", file=sys.stderr)
        return rc
    if not args.skip_experiments:
        from . import experiments

        experiments.run_all(args.profile, args.out, args.seed, progress=lambda m: print(m, flush=True))
    summary = report.write_summary(args.out)
    print(f"report: {summary} ({time.perf_counter() - t0:.0f} s)")
    return rc


def cmd_experiments(args) -> int:
    from . import experiments

    path = experiments.run_all(args.profile, args.out, args.seed, progress=lambda m: print(m, flush=True))
    if (Path(args.out) / "results.json").exists():
        report.write_summary(args.out)
    print(f"experiments written to {path}")
    return 0


def cmd_bench(args) -> int:
    from . import bench

    return bench.main(args)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="attncheck", description="verify the claims of attention-theory papers")
    sub = p.add_subparsers(dest="cmd", required=True)

    def common(sp, claims=True):
        if claims:
            sp.add_argument("--claims", nargs="*", default=None,
                            help="claim files or folders (default: ./properties)")
        sp.add_argument("--profile", choices=sorted(PROFILES), default="quick")
        sp.add_argument("--seed", type=_seed, default=0, help="master seed >= 0 (default 0)")
        if claims:
            sp.add_argument("--scale", type=_scale, default=1.0,
                            help="multiply every search budget by this factor (default 1)")

    sp = sub.add_parser("list", help="list the registered claims")
    sp.add_argument("--claims", nargs="*", default=None)
    sp.add_argument("--paper", default=None, help="only this paper key, e.g. deng2023")
    sp.set_defaults(func=cmd_list)

    sp = sub.add_parser("check", help="check one claim and print its verdict and evidence")
    sp.add_argument("claim_id")
    common(sp)
    sp.add_argument("--fresh", action="store_true", help="fresh random seed (printed)")
    sp.add_argument("--json", default=None, help="also write the record to this file")
    sp.set_defaults(func=cmd_check)

    sp = sub.add_parser("report", help="run every claim and the experiments; write reports/")
    common(sp)
    sp.set_defaults(profile="deep")
    sp.add_argument("--out", default="reports")
    sp.add_argument("-n", "--workers", default="auto", help="pytest-xdist workers (default auto)")
    sp.add_argument("--skip-experiments", action="store_true")
    sp.set_defaults(func=cmd_report)

    sp = sub.add_parser("experiments", help="reproduce the papers' numerical experiments")
    common(sp, claims=False)
    sp.add_argument("--out", default="reports")
    sp.set_defaults(func=cmd_experiments)

    sp = sub.add_parser("bench", help="benchmark: suite wall time, Monte Carlo throughput, escalation share; "
                                      "--power: the engine's power on planted claims")
    sp.add_argument("-n", "--workers", default="auto", help="processes (default: all cores)")
    sp.add_argument("--power", action="store_true",
                    help="measure power and false refutations on the planted suite instead")
    sp.add_argument("--planted", default=str(REPO / "tests" / "planted_power.py"),
                    help="planted suite file (default: tests/planted_power.py)")
    sp.add_argument("--seeds", type=int, default=20, help="master seeds 0..K-1 (default 20)")
    sp.add_argument("--profiles", nargs="+", default=["quick", "deep"], choices=sorted(PROFILES))
    sp.add_argument("--json", default=None, help="also write the rows to this file")
    sp.set_defaults(func=cmd_bench)
    return p


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
