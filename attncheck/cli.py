"""Command line: ``attncheck list | check ID | report | diff OLD NEW | experiments | bench``."""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from attncheck.core.profiles import PROFILES, get_profile
from attncheck.report.diff import KINDS, REGRESSIONS
from attncheck.run import staging
from attncheck.run.options import parse_scale as _scale
from attncheck.run.options import parse_seed as _seed
from attncheck.run.replay import REPO, default_properties

# the engine, the loader and the report writer are imported by the commands that use them: `attncheck --help` and a
# usage error load none of them

#: exit statuses (:data:`EXIT_STATUS`): 0 nothing fails the run, 1 something does, 2 usage or input error (bad
#: arguments, a claims file that does not load, an output that cannot be written), 130 interrupted
USAGE, INTERRUPTED = 2, 130
EXIT_STATUS = ("exit status: 0 no claim is REFUTED or ERROR (a registered erratum's stated claim is refuted as expected; "
               "an INCONCLUSIVE claim passes unless --strict); 1 a claim is REFUTED or ERROR, an erratum's stated claim "
               "is no longer refuted, an INCONCLUSIVE claim under --strict, or a regression against --baseline (diff: "
               "a change of a --fail-on kind); 2 usage or input error; 130 interrupted")

LOOKED_IN: list[Path] = []  # where the claims were loaded from (for "no claim" messages)


def fail(message: str, status: int = USAGE):
    print(f"attncheck: {message}", file=sys.stderr)
    raise SystemExit(status)


def _targets(paths: list[str] | None) -> list[Path]:
    """The claim files or folders named (default: ./properties); a missing one is an input error."""
    targets = [Path(p) for p in paths] if paths else [default_properties()]
    for target in targets:
        if not target.exists():
            fail(f"no such claims file or folder: {target}")
    return targets


def load(paths: list[str] | None) -> list:
    """The claims of the files or folders named (default ./properties); a file that does not load is an input error."""
    from attncheck.run import loader

    targets = _targets(paths)
    LOOKED_IN.extend(targets)
    try:
        return loader.load(targets)
    except loader.LoadError as e:
        fail(str(e))


def _looked_in() -> str:
    return ", ".join(str(p) for p in LOOKED_IN) or str(default_properties())


def cmd_list(args) -> int:
    from attncheck.report import labels
    from attncheck.run import session

    if not args.claims and not (Path.cwd() / "properties").is_dir():
        print(f"no ./properties here: listing the package's own claims in {default_properties()}", flush=True)
    loaded = load(args.claims)
    claims = sorted((c for c in loaded if not args.paper or c.paper == args.paper), key=lambda c: labels.natural_key(c.id))
    if not claims:
        papers = sorted({c.paper for c in loaded})
        fail(f"no claims{f' of paper {args.paper!r}' if args.paper else ''} in {_looked_in()}"
             + (f"; papers there: {', '.join(papers)}" if papers else ""))
    verdicts, source = _report_verdicts(args.report)
    if source:
        print(f"verdicts from {source}", flush=True)
    w = max(len(c.id) for c in claims)
    v = max([len("verdict")] + [len(x) for x in verdicts.values()])
    print(f"{'claim':<{w}}  {'kind':<13}  {'verdict':<{v}}  erratum  source")
    for c in claims:
        mark = "erratum" if c.erratum is not None else ""
        print(f"{c.id:<{w}}  {c.kind.value:<13}  {verdicts.get(c.id, '-'):<{v}}  {mark:<7}  {c.source}")
    print(f"{len(claims)} claims; {sum(c.erratum is not None for c in claims)} with a registered erratum"
          + ("" if source else "; no report to take verdicts from (attncheck report writes one)"))
    for key, info in session.papers_of({"paper": c.paper} for c in claims).items():
        n = sum(c.paper == key for c in claims)
        print(f"  {key}: {n} claims; {info['title']}" + (f" (arXiv {info['arxiv']})" if info["arxiv"] else ""))
    return 0


def _report_verdicts(path: str | None) -> tuple[dict[str, str], str | None]:
    """{claim id: verdict label} of a report's results.json: the one named, else ./reports' or the package's committed
    one; ({}, None) when there is none. A file named but unreadable is an input error."""
    from attncheck.report import diff, labels
    from attncheck.run import schedule

    candidates = [Path(path)] if path else [schedule.committed(Path.cwd()), schedule.committed(REPO)]
    for f in candidates:
        if f.is_file() or path:
            try:
                doc = diff.load(f)
            except diff.DiffError as e:
                fail(str(e))
            profile = (doc.get("seeds") or {}).get("profile", "?")
            return {r["id"]: labels.verdict_label(r).split(" [")[0] for r in doc["claims"]}, \
                f"{f} (profile {profile}, generated {doc.get('generated', '?')})"
    return {}, None


def _progress(claim, pt) -> None:
    from attncheck.report.labels import point_text

    where = point_text(pt.point) if pt.point is not None else "domain"
    if pt.refuted:  # not yet a verdict: an eventual claim may fail below the n it holds from, a witness cannot refute
        state = "a case fails" + (" (an eventual claim is judged at the end of its path)" if claim.eventually else "")
    else:
        state = "no case fails"
    draws = f", {pt.samples} draws" if pt.samples else ""
    print(f"  {claim.id}: {where}: {pt.cases} cases{draws}: {state}", flush=True)


def cmd_check(args) -> int:
    if args.json:
        try:
            staging.check_writable_file(args.json)
        except staging.OutputError as e:
            fail(str(e))
    from attncheck.report import labels
    from attncheck.run import session

    loaded = {c.id: c for c in load(args.claims)}
    if args.claim_id not in loaded:
        fail(f"no claim with id {args.claim_id!r} among the {len(loaded)} claims in {_looked_in()}; "
             "pass --claims FILE for claims elsewhere, see `attncheck list`")
    c = loaded[args.claim_id]
    seed = int.from_bytes(os.urandom(4), "little") & 0x7FFFFFFF if args.fresh else args.seed
    n_random = session.n_random(loaded.values())
    print(f"checking {c.id} ({c.kind.value}), profile {args.profile}, seed {seed}", flush=True)
    rec = session.run_claim(c, get_profile(args.profile, args.scale), seed, n_random, progress=_progress)
    falsifying = _falsifying(c, rec)
    if falsifying:
        print(falsifying)
    print(f"{labels.verdict_label(rec)}: {labels.key_evidence(rec)}")
    print(labels.detail(rec))
    if args.json:
        Path(args.json).write_text(json.dumps(rec, indent=1) + "\n")
    why = session.failure_text(rec, strict=args.strict)
    if why:
        print(f"attncheck: exit status 1: {why.splitlines()[0]}", file=sys.stderr)
    return 1 if why else 0


def _falsifying(claim, rec: dict) -> str | None:
    """The counterexample in the evaluator's argument form, as Hypothesis prints a falsifying example:
    "Falsifying case: coin(p=0.1)" (at its path point, where the claim has a path)."""
    import inspect

    from attncheck.report.labels import point_text

    cx = rec["evidence"].get("counterexample") or {}
    if "case" not in cx:
        return None
    params = list(inspect.signature(claim.evaluate).parameters)
    where = f" at {point_text(cx['point'])}" if cx.get("point") is not None else ""
    return f"Falsifying case: {claim.evaluate.__name__}({params[0]}={cx['case']}){where}" if params else None


def _pytest_cmd(profile: str, out: str, workers: str, claims: list[str] | None, seed: int,
                scale: float, order_from: str, strict: bool) -> list[str]:
    """The pytest run of `attncheck report`: quiet, without xdist's own status lines (the progress lines say how far
    the run is), into the staging folder ``out``."""
    targets = claims or [str(default_properties())]
    return [sys.executable, "-m", "pytest", "-n", workers, "--dist", "worksteal", *targets, "-q",
            "-p", "no:cacheprovider", "-p", "no:terminaldistreporter",
            f"--attncheck-profile={profile}", f"--attncheck-seed={seed}", f"--attncheck-scale={scale}",
            f"--attncheck-report={out}", "--attncheck-staged", f"--attncheck-order-from={order_from}",
            *(["--attncheck-strict"] if strict else [])]


def cmd_report(args) -> int:
    t0 = time.perf_counter()
    _targets(args.claims)  # a missing claims file fails before a cluster starts
    baseline, fail_on = _baseline(args)  # read before the run, which may replace it
    client = _dask_client(args.scheduler) if args.scheduler else None  # fails here, before any work
    try:
        stage = staging.Staging(args.out, replace=args.replace)
    except staging.OutputError as e:
        fail(str(e))
    from attncheck.report import writer as report

    beside = None
    try:
        if client is not None:
            from attncheck.run import cluster

            pending = None if args.skip_experiments else cluster.submit_experiments(client, args.profile, args.seed)
            rc, status = _report_dask(client, args, stage)
        else:
            if not args.skip_experiments:
                from attncheck.run.background import Experiments

                beside = Experiments(args.profile, args.seed)
            rc, status = _report_xdist(args, stage)
        if args.skip_experiments:
            report.keep_experiments(args.out, stage.path)
        elif client is not None:
            cluster.gather_experiments(pending, stage.path, progress=lambda m: print(m, flush=True))
        else:
            beside.finish(stage.path, progress=lambda m: print(m, flush=True))
        report.write_summary(stage.path)
        doc = json.loads((stage.path / "results.json").read_text())
        where, line = stage.commit(staging.Status(status["complete"], status["reason"] or "", len(doc["claims"]),
                                                  args.profile), {c["id"] for c in doc["claims"]})
    except KeyboardInterrupt:
        stage.abandon()
        fail(f"interrupted; {args.out} left as it was", INTERRUPTED)
    except SystemExit:  # a claims file that does not load, no claims: nothing written
        stage.abandon()
        raise
    finally:
        if beside is not None:
            beside.stop()
        if client is not None:
            from attncheck.run import cluster

            cluster.close(client)
    print(f"attncheck: {line} ({time.perf_counter() - t0:.0f} s)")
    if baseline is not None:
        rc = max(rc, _print_diff(baseline, doc, fail_on, (args.baseline, str(Path(where) / "results.json"))))
    return rc


def _baseline(args) -> tuple[dict | None, tuple[str, ...]]:
    """The --baseline document (None without one) and the --fail-on policy, checked before any work (exit 2)."""
    from attncheck.report import diff

    try:
        return (diff.load(args.baseline) if args.baseline else None), diff.policy(args.fail_on)
    except diff.DiffError as e:
        fail(str(e))


def _print_diff(old: dict, new: dict, fail_on: tuple[str, ...], names: tuple[str, str]) -> int:
    """Print the changes from ``old`` to ``new``; 1 when one of them is a regression under ``fail_on``."""
    from attncheck.report import diff

    found = diff.changes(old, new)
    print("\n".join(diff.lines(old, new, found, fail_on, names)), flush=True)
    return 1 if diff.regressions(found, fail_on) else 0


def cmd_diff(args) -> int:
    from attncheck.report import diff

    try:
        fail_on = diff.policy(args.fail_on)
        old, new = diff.load(args.old), diff.load(args.new)
        if args.json:
            staging.check_writable_file(args.json)
    except (diff.DiffError, staging.OutputError) as e:
        fail(str(e))
    rc = _print_diff(old, new, fail_on, (args.old, args.new))
    if args.json:
        Path(args.json).write_text(json.dumps(diff.to_json(diff.changes(old, new), fail_on), indent=1) + "\n")
    return rc


def _report_xdist(args, stage) -> tuple[int, dict]:
    """The claims through pytest-xdist, once per master seed; extra seeds run in scratch folders."""
    from attncheck.run import replication

    seeds = replication.seeds(args.seed, args.seeds)
    rc, reasons, by_seed = 0, [], {}
    for seed in seeds:
        path = stage.path if seed == args.seed else Path(tempfile.mkdtemp(prefix=f".seed-{seed}-", dir=stage.path))
        cmd = _pytest_cmd(args.profile, str(path), args.workers, args.claims, seed, args.scale,
                          str(Path(args.out) / "results.json"), args.strict)
        where = " ".join(args.claims) if args.claims else str(default_properties())
        print(f"running the claims of {where} with pytest-xdist (-n {args.workers}), profile {args.profile}, "
              f"seed {seed}" + (f", budgets x{args.scale:g}" if args.scale != 1.0 else ""), flush=True)
        r = subprocess.call(cmd)
        run_file = path / "RUN"
        if r not in (0, 1) or not run_file.is_file():
            stage.abandon()
            fail(f"pytest exited with status {r}; {args.out} left as it was", r if r else 1)
        status = json.loads(run_file.read_text())
        run_file.unlink()
        rc = max(rc, r)
        if not status["complete"]:
            reasons.append(status["reason"] if len(seeds) == 1 else f"seed {seed}: {status['reason']}")
        if len(seeds) > 1:
            by_seed[seed] = {c["id"]: c for c in json.loads((path / "results.json").read_text())["claims"]}
        if path != stage.path:
            shutil.rmtree(path)
    if len(seeds) > 1:
        _replicate(stage.path / "results.json", by_seed, args.seed, seeds)
    return rc, {"complete": not reasons, "reason": "; ".join(reasons) or None}


def _replicate(results: Path, by_seed: dict, master: int, seeds: list[int]) -> None:
    from attncheck.report import labels
    from attncheck.run import replication

    doc = json.loads(results.read_text())
    doc["claims"] = sorted(replication.merge(by_seed, master), key=lambda r: labels.natural_key(r["id"]))
    doc["seeds"]["replicates"] = seeds
    results.write_text(json.dumps(doc, indent=1) + "\n")


def _dask_client(spec: str):
    from attncheck.run import cluster

    try:
        client = cluster.connect(spec)
    except cluster.ClusterError as e:
        fail(str(e))
    print(f"running on {cluster.describe(client)}", flush=True)
    return client


def _report_dask(client, args, stage) -> tuple[int, dict]:
    """The claims as Dask tasks, one per (claim, seed); every claim ends with one record per seed."""
    from attncheck.report import labels
    from attncheck.report import writer as report
    from attncheck.run import cluster, replication, schedule, session

    claims = load(args.claims)  # the claims of these files, not every claim this process has loaded
    if not claims:
        fail(f"no claims in {_looked_in()}")
    n_random = session.n_random(claims)
    seeds = replication.seeds(args.seed, args.seeds)
    claims = session.longest_first(claims, Path(args.out) / "results.json", schedule.committed())
    got = cluster.run_claims(client, claims, get_profile(args.profile, args.scale), seeds, n_random,
                             progress=lambda m: print(m, flush=True))
    failed = any(session.failure_text(r, strict=args.strict) for r in got.values())
    master = sorted((got[(args.seed, c.id)] for c in claims), key=lambda r: labels.natural_key(r["id"]))
    print("\n".join(labels.table(master)))
    status = staging.Status(True)
    meta = {"profile": args.profile, "seed": args.seed, "scale": args.scale, "workers": args.scheduler,
            "run": status.to_json(), "papers": session.papers_of(got.values())}
    report.write(stage.path, [got[(args.seed, c.id)] for c in claims], meta)
    if len(seeds) > 1:
        _replicate(stage.path / "results.json", {s: {c.id: got[(s, c.id)] for c in claims} for s in seeds},
                   args.seed, seeds)
    return int(failed), status.to_json()


def cmd_experiments(args) -> int:
    from attncheck import papers
    from attncheck.report import writer as report
    from attncheck.run import experiments

    known = papers.registry()
    unknown = [k for k in args.paper or () if k not in known]
    if unknown:
        fail(f"no paper {', '.join(map(repr, unknown))}; papers: {', '.join(known)}")
    old = Path(args.out) / "experiments.json"
    if old.is_file() and not args.replace:
        old_prof = {x.get("profile") for x in json.loads(old.read_text()).get("experiments", [])}
        if any(staging.PROFILE_RANK.get(p, 0) > staging.PROFILE_RANK[args.profile] for p in old_prof):
            fail(f"{old} holds {', '.join(sorted(map(str, old_prof)))} experiments; --profile {args.profile} would "
                 "replace them: pass --profile deep, another --out, or --replace")
    try:
        stage = staging.Staging(args.out, replace=True, copy_from_dest=True)
    except staging.OutputError as e:
        fail(str(e))
    try:
        keep = []
        if args.paper and (stage.path / "experiments.json").is_file():  # the other papers' entries stay
            keep = [x for x in json.loads((stage.path / "experiments.json").read_text())["experiments"]
                    if x["id"].split("-")[0] not in args.paper]
        experiments.run_all(args.profile, stage.path, args.seed, progress=lambda m: print(m, flush=True),
                            runners=experiments.all_runners(args.paper), keep=keep)
        if (stage.path / "results.json").exists():
            report.write_summary(stage.path)
        stage.mark(staging.Status(True))
        staging.swap(stage.path, Path(args.out))
    except KeyboardInterrupt:
        stage.abandon()
        fail(f"interrupted; {args.out} left as it was", INTERRUPTED)
    print(f"attncheck: experiments written to {Path(args.out) / 'experiments.json'}")
    return 0


def cmd_bench(args) -> int:
    """The developer benchmark, tools/bench.py of a checkout (tools/ is not part of the installed package)."""
    path = REPO / "tools" / "bench.py"
    if not path.is_file():
        fail(f"attncheck bench runs tools/bench.py of a checkout of the repository; there is none at {path}")
    sys.path.insert(0, str(REPO))
    from tools import bench

    return bench.main(args)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="attncheck", description="verify the claims of attention-theory papers",
                                epilog=EXIT_STATUS)
    p.add_argument("--version", action="version", version=f"attncheck {_version()}")
    sub = p.add_subparsers(dest="cmd", required=True)

    def common(sp, claims=True):
        if claims:
            sp.add_argument("--claims", nargs="*", default=None,
                            help="claim files or folders (default: ./properties)")
        sp.add_argument("--profile", choices=sorted(PROFILES), default="quick",
                        help="budget profile (default quick; the committed reports/ is deep)")
        sp.add_argument("--seed", type=_seed, default=0, help="master seed >= 0 (default 0)")
        if claims:
            sp.add_argument("--scale", type=_scale, default=1.0,
                            help="multiply every search budget by this factor (default 1)")

    sp = sub.add_parser("list", help="list the claims with their verdicts in a report, errata marked")
    sp.add_argument("--claims", nargs="*", default=None, help="claim files or folders (default: ./properties)")
    sp.add_argument("--paper", default=None, help="only this paper key, e.g. deng2023")
    sp.add_argument("--report", default=None, metavar="RESULTS",
                    help="the results.json to take verdicts from (default: ./reports/results.json, else the "
                         "package's committed report)")
    sp.set_defaults(func=cmd_list)

    sp = sub.add_parser("check", help="check one claim and print its verdict and evidence")
    sp.add_argument("claim_id")
    common(sp)
    sp.add_argument("--fresh", action="store_true", help="fresh random seed (printed)")
    sp.add_argument("--json", default=None, help="also write the record to this file")
    sp.add_argument("--strict", action="store_true", help="exit 1 when the claim is INCONCLUSIVE")
    sp.set_defaults(func=cmd_check)

    sp = sub.add_parser("report", help="run every claim and the experiments; write a report",
                        epilog=EXIT_STATUS)
    common(sp)
    sp.add_argument("--out", default="reports",
                    help="the report folder (default reports; a quick run does not replace a deep report there "
                         "without --replace)")
    sp.add_argument("--strict", action="store_true", help="an INCONCLUSIVE claim fails the run (exit 1)")
    sp.add_argument("--baseline", default=None, metavar="RESULTS",
                    help="an earlier results.json (e.g. reports/results.json): print what changed, claim by claim, "
                         "and exit 1 on a regression (see --fail-on)")
    sp.add_argument("--fail-on", default=",".join(REGRESSIONS), metavar="KINDS",
                    help=f"with --baseline: the kinds of change that fail the run (default {','.join(REGRESSIONS)}; "
                         f"all kinds: {', '.join(KINDS)}; or none, or all)")
    sp.add_argument("-n", "--workers", default="auto", help="pytest-xdist workers (default auto)")
    sp.add_argument("--skip-experiments", action="store_true", help="keep the experiments of the report in --out")
    sp.add_argument("--replace", action="store_true",
                    help="let a partial report (subset, interrupted, lower profile) replace a complete one")
    sp.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT|local:N",
                    help="run the claims and experiments as Dask tasks on this scheduler, or on a local cluster "
                         "of N workers (needs the dask extra: pip install -e '.[dask]'); -n is then ignored")
    sp.add_argument("--seeds", type=_positive, default=1, metavar="K",
                    help="run every claim under K master seeds (--seed, --seed + 1, ...); the report gives each "
                         "claim's share of seeds per verdict and flags verdicts that flip (default 1)")
    sp.set_defaults(func=cmd_report)

    sp = sub.add_parser("diff", help="what changed between two results.json files, claim by claim; exit 1 on a "
                                     "regression", epilog=EXIT_STATUS,
                        description="Compares the claims of OLD and NEW: verdict, its strength, certification and "
                                    "worst case. Kinds of change: " + "; ".join(f"{k}: {v}" for k, v in KINDS.items()))
    sp.add_argument("old", metavar="OLD")
    sp.add_argument("new", metavar="NEW")
    sp.add_argument("--fail-on", default=",".join(REGRESSIONS), metavar="KINDS",
                    help=f"the kinds of change that exit 1 (default {','.join(REGRESSIONS)}; or none, or all)")
    sp.add_argument("--json", default=None, metavar="FILE", help="also write the changes to this file")
    sp.set_defaults(func=cmd_diff)

    sp = sub.add_parser("experiments", help="reproduce the papers' numerical experiments", add_help=False,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    sp.add_argument("-h", "--help", action=_ExperimentsHelp, help="show this help and the experiments")
    common(sp, claims=False)
    sp.add_argument("--out", default="reports")
    sp.add_argument("--replace", action="store_true", help="let quick experiments replace deep ones")
    sp.add_argument("--paper", action="append", default=None, metavar="KEY",
                    help="only this paper's experiments (repeatable; the others' entries in --out are kept)")
    sp.set_defaults(func=cmd_experiments)

    sp = sub.add_parser("bench", help="benchmark: suite wall time, Monte Carlo throughput, escalation share; "
                                      "--power: the engine's power on planted claims")
    sp.add_argument("-n", "--workers", default="auto", help="processes (default: all cores)")
    sp.add_argument("--power", action="store_true",
                    help="measure power and false refutations on the planted suite instead")
    sp.add_argument("--planted", default=str(REPO / "tests" / "support" / "planted_power.py"),
                    help="planted suite file (default: tests/support/planted_power.py)")
    sp.add_argument("--seeds", type=int, default=20, help="master seeds 0..K-1 (default 20)")
    sp.add_argument("--profiles", nargs="+", default=["quick", "deep"], choices=sorted(PROFILES))
    sp.add_argument("--json", default=None, help="also write the rows to this file")
    sp.add_argument("--log", default=None, metavar="FILE",
                    help="with --power: append each run to FILE as it ends, and skip the runs already there "
                         "(resume an interrupted measurement)")
    sp.add_argument("--claims-top", nargs="+", default=None, metavar="ID",
                    help="time these claims instead (attncheck check, seed 0, each in its own process)")
    sp.add_argument("--baseline", default=None, metavar="DIR",
                    help="with --claims-top: also time them in this checkout (e.g. a `git worktree` of an older "
                         "commit), before this one's")
    sp.add_argument("--profile", default="quick", choices=sorted(PROFILES), help="with --claims-top (default quick)")
    sp.set_defaults(func=cmd_bench)
    return p


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {text!r}")
    return value


class _ExperimentsHelp(argparse.Action):
    """--help of `experiments`: lists each runner's experiments (imported only when asked)."""

    def __init__(self, option_strings, dest, **kw):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kw)

    def __call__(self, parser, namespace, values, option_string=None):
        from attncheck.run.experiments import descriptions

        parser.epilog = "experiments:\n" + "\n".join(
            f"  {key}: {title}\n" + textwrap.fill(desc, 100, initial_indent="      ", subsequent_indent="      ")
            for key, (title, desc) in descriptions().items())
        parser.print_help()
        parser.exit()


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("attncheck")
    except metadata.PackageNotFoundError:
        return "unknown"


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:  # one line, no traceback
        print("attncheck: interrupted", file=sys.stderr)
        return INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
