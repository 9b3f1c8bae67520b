"""``attncheck bench``: the numbers the closing notes quote, measured in one run.

1. wall time of ``pytest -n <workers> properties`` (quick profile), and the share of
   float64 evaluations escalated to mpmath in that run (from its results.json);
2. throughput of the Rademacher group-sum sampler at a deep-profile shape of Theorem D.5;
3. Monte Carlo throughput of one claim (Lemma 5.1 at n = 10^6) through the engine's
   evaluation path (sampling, slack, float64 margin check) vs the same sampler and
   arithmetic in bare numpy;
4. with ``--power``: the share of seeds in which each planted false claim is refuted,
   and its twin (:mod:`tools.power`);
5. with ``--claims-top ID ...``: the seconds (wall and CPU) and verdict of each claim, run by
   ``attncheck check`` in a process of its own, in this checkout and, with ``--baseline DIR``,
   first in another one (before/after timings of the most expensive claims).
"""
from __future__ import annotations

import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from attncheck.core.claims import REGISTRY
from attncheck.engine import case_rng, take
from attncheck.numeric import precision
from attncheck.papers.deng2023.data import toy as data
from attncheck.papers.deng2023.models.random_signs import narrowest, rademacher_group_sums
from attncheck.papers.deng2023.strategies.toy import ToyCase
from attncheck.run.loader import load
from attncheck.run.replay import default_properties

CLAIM = "deng2023/lemma-5.1/main"
DRAWS = 16_000
REPEATS = 5
SAMPLER_WIDTHS = (1, 1, 1, 62, 1)  # Theorem D.5's column groups at beta = 0.2, n = 10^10 (deep profile)
SAMPLER_SHAPE = (16_000, 277)  # draws x m there


def suite(workers: str) -> dict:
    with tempfile.TemporaryDirectory() as out:
        cmd = [sys.executable, "-m", "pytest", "-n", workers, str(default_properties()), "-q",
               "-p", "no:cacheprovider", f"--attncheck-report={out}"]
        t0 = time.perf_counter()
        rc = subprocess.call(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - t0
        claims = json.loads((Path(out) / "results.json").read_text())["claims"]
    evaluated = sum(c["evidence"]["escalation"]["evaluated"] for c in claims)
    escalated = sum(c["evidence"]["escalation"]["escalated"] for c in claims)
    return {"exit_status": rc, "wall_seconds": wall, "claims": len(claims), "evaluated": evaluated,
            "escalated": escalated, "escalated_share": escalated / max(evaluated, 1)}


def _case(n: int = 10**6, delta: float = 0.05) -> ToyCase:
    lo, hi = data.score_interval(n)
    j = round(n ** 0.6)
    return ToyCase(n, data.d0(n, [hi, lo], [j, n - j]), delta, math.floor(math.log(n / delta)) + 1, 0.25)


def _best(fn) -> float:
    times = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def sampler(dtype=np.int64) -> dict:
    rng = np.random.default_rng(0)
    seconds = _best(lambda: rademacher_group_sums(SAMPLER_WIDTHS, rng, SAMPLER_SHAPE, dtype=dtype))
    return {"widths": SAMPLER_WIDTHS, "shape": SAMPLER_SHAPE, "dtype": np.dtype(dtype).name, "seconds": seconds,
            "sums_per_s": math.prod(SAMPLER_SHAPE) * len(SAMPLER_WIDTHS) / seconds}


def throughput() -> dict:
    load(None)
    c, case = REGISTRY.get(CLAIM), _case()

    def engine_path():
        R = c.sample(case, case_rng(0, c.id, case), DRAWS)
        return precision.holds(lambda xp, idx: c.evaluate(case, take(R, idx), xp)).ok

    def bare_numpy():  # the same sampler and arithmetic, without claims, slacks and escalation checks
        S = rademacher_group_sums(case.scores.k, np.random.default_rng(0), (DRAWS, case.m))
        k, z = case.scores.k, case.scores.z
        f = np.exp(z - np.log(np.sum(k * np.exp(z - z.max()))) - z.max())
        return (S @ f).max(axis=-1) <= case.tau

    t_engine, t_bare = _best(engine_path), _best(bare_numpy)
    return {"claim": CLAIM, "n": case.n, "m": case.m, "draws": DRAWS,
            "engine_outcomes_per_s": DRAWS / t_engine, "numpy_outcomes_per_s": DRAWS / t_bare,
            "overhead": t_engine / t_bare}


def power(args) -> int:
    from tools import power as pw

    print(f"benchmark: power of the engine on {args.planted}, {args.seeds} seeds, "
          f"profiles {', '.join(args.profiles)} ...", flush=True)
    rows = pw.measure(args.planted, args.seeds, args.profiles, _workers(args.workers),
                      progress=lambda m: print(m, flush=True), log=args.log)
    for line in pw.table(rows):
        print(line)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


def timed_claim(claim_id: str, root: Path, profile: str, seed: int = 0) -> dict:
    """``attncheck check`` of one claim with the package and claims of checkout ``root``: wall and CPU seconds of
    the process, the verdict and the engine's own seconds."""
    paper = claim_id.split("/", 1)[0]
    with tempfile.TemporaryDirectory() as out:
        record = Path(out) / "claim.json"
        cmd = [sys.executable, "-m", "attncheck", "check", claim_id, "--claims", str(root / "properties" / paper),
               "--profile", profile, "--seed", str(seed), "--json", str(record)]
        env = dict(os.environ, PYTHONPATH=str(root))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        rc = subprocess.call(cmd, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        data = json.loads(record.read_text()) if record.is_file() else {}
    return {"claim": claim_id, "root": str(root), "exit_status": rc, "wall_seconds": wall,
            "cpu_seconds": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
            "verdict": data.get("verdict", "none"), "claim_seconds": data.get("evidence", {}).get("seconds")}


def claims_top(args) -> int:
    roots = ([Path(args.baseline).resolve()] if args.baseline else []) + [Path(__file__).resolve().parents[1]]
    print(f"benchmark: {len(args.claims_top)} claims, profile {args.profile}, seed 0, in "
          + " then ".join(map(str, roots)), flush=True)
    rows = []
    for claim_id in args.claims_top:
        for root in roots:
            r = timed_claim(claim_id, root, args.profile)
            rows.append(r)
            print(f"  {claim_id} [{root.name}]: wall {r['wall_seconds']:.1f} s, cpu {r['cpu_seconds']:.1f} s, "
                  f"{r['verdict']}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


def _workers(value: str) -> int:
    return os.cpu_count() or 1 if value == "auto" else int(value)


def main(args) -> int:
    if args.power:
        return power(args)
    if args.claims_top:
        return claims_top(args)
    for dtype in (np.int64, narrowest(SAMPLER_WIDTHS)):
        sp = sampler(dtype)
        print(f"benchmark: Rademacher group sums, widths {sp['widths']}, shape {sp['shape']}, {sp['dtype']}: "
              f"{sp['seconds']:.3f} s, {sp['sums_per_s']:.3g} sums/s (best of {REPEATS})", flush=True)
    print("benchmark: Monte Carlo throughput ...", flush=True)
    tp = throughput()
    print(f"  {tp['claim']} at n = {tp['n']}, m = {tp['m']}: engine {tp['engine_outcomes_per_s']:.3g} "
          f"outcomes/s, bare numpy {tp['numpy_outcomes_per_s']:.3g} outcomes/s, overhead x{tp['overhead']:.2f} "
          f"(best of {REPEATS})")
    print(f"benchmark: pytest -n {args.workers} properties (quick) ...", flush=True)
    s = suite(args.workers)
    print(f"  wall {s['wall_seconds']:.1f} s, exit status {s['exit_status']}, {s['claims']} claims")
    print(f"  escalated to mpmath: {s['escalated']} of {s['evaluated']} float64 evaluations "
          f"({100 * s['escalated_share']:.3f}%)")
    return 0
