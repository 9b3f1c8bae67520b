"""Dask distributed as the backend of ``attncheck report --scheduler``: one task per (claim, seed).

Workers import each claim file by its absolute path (a cluster needs the repository at the
same path on every machine, e.g. a shared home). A worker that dies in the middle of a claim
is replaced by the nanny and the scheduler reruns the task elsewhere; Dask keeps one result per
task key, so a claim is never counted twice. A claim that kills ``allowed-failures + 1``
workers (Dask's ``distributed.scheduler.allowed-failures``, default 3) ends as ERROR naming
:class:`distributed.KilledWorker`. The experiments run as one task per paper runner, queued ahead of
the claims.
"""
from __future__ import annotations

import os
import shutil
import tempfile
import time
import traceback
from pathlib import Path

INSTALL = "pip install -e '.[dask]' (or pip install 'dask[distributed]')"

#: set by Dask's nannies in every worker they spawn (``distributed.nanny.pre-spawn-environ``). A fixed glibc trim
#: threshold also fixes the mmap threshold at 128 KiB, so every large numpy temporary is mapped and unmapped afresh:
#: 3.7 times the system time of the same claim in a plain process (deng2023/theorem-d.5/main, deep at scale 0.1:
#: sys 11.2 s against 3.0 s). attncheck's local clusters spawn workers without it.
MALLOC_TRIM = "MALLOC_TRIM_THRESHOLD_"


class ClusterError(Exception):
    """Dask is missing, or the scheduler cannot be reached (raised before any work starts)."""


def connect(spec: str):
    """A Dask client for ``tcp://HOST:PORT`` (an existing scheduler) or ``local:N`` (a LocalCluster)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as e:
        raise ClusterError(f"--scheduler needs Dask distributed, which is not installed ({e}); "
                           f"install it with: {INSTALL}") from None
    if spec.startswith("local:"):
        try:
            n = int(spec.split(":", 1)[1])
        except ValueError:
            n = 0
        if n < 1:
            raise ClusterError(f"--scheduler local:N needs a worker count N >= 1, got {spec!r}")
        import dask

        # a worker inherits this process's environment, which an earlier nanny may have set (it writes its
        # pre-spawn environment into os.environ); kept out for the workers a nanny restarts later too
        os.environ.pop(MALLOC_TRIM, None)
        with dask.config.set({f"distributed.nanny.pre-spawn-environ.{MALLOC_TRIM}": None}):  # read by each Nanny
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
        return Client(cluster)
    if "://" not in spec:
        raise ClusterError(f"--scheduler takes tcp://HOST:PORT or local:N, got {spec!r}")
    import dask

    timeout = dask.config.get("distributed.comm.timeouts.connect")  # DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT
    try:
        return Client(spec, timeout=timeout)
    except (OSError, TimeoutError) as e:
        raise ClusterError(f"cannot reach the Dask scheduler at {spec} within {timeout} "
                           f"({type(e).__name__}: {e}); no claim was run") from None


def close(client) -> None:
    cluster = client.cluster if hasattr(client, "cluster") else None
    client.close()
    if cluster is not None:
        cluster.close()


def claim_task(path: str, claim_id: str, profile: str, scale: float, seed: int, n_random: int) -> dict:
    """On a worker: import the claim file by path and run the claim (:func:`attncheck.run.session.run_claim`)."""
    from attncheck.core.claims import REGISTRY
    from attncheck.core.profiles import get_profile
    from attncheck.run import loader, session

    try:
        loader.load([path])
    except loader.LoadError as e:
        raise RuntimeError(f"cannot load claims file {path} on this worker: {e}") from None
    return session.run_claim(REGISTRY.get(claim_id), get_profile(profile, scale), seed, n_random)


def killed_record(claim, profile, seed: int, error: BaseException) -> dict:
    """ERROR record of a claim whose task never finished (it killed every worker it ran on, or failed
    before the claim ran, e.g. a claims file missing on the worker)."""
    from attncheck.core.claims import Verdict
    from attncheck.engine.run import record
    from attncheck.run import replay

    killed = type(error).__name__ == "KilledWorker"
    why = ("the claim killed its worker on every try (a crash in native code, or memory beyond the worker's limit)"
           if killed else "the Dask task failed outside the claim's evaluation")
    evidence = {"error": f"{type(error).__name__}: {error}; {why}",
                "traceback": "".join(traceback.format_exception_only(type(error), error)),
                "profile": profile.name, "seed": seed, "cases": 0,
                "replay": replay.command(claim, profile.name, seed, profile.scale)}
    return record(claim, Verdict.ERROR, evidence)


#: seconds without a finished task after which :func:`run_claims` says what is still running
HEARTBEAT = 120.0
#: seconds between two looks for finished tasks
POLL = 0.2
CLAIM_KEY = "attncheck-claim-"


def run_claims(client, claims, profile, seeds: list[int], n_random: int, progress=print,
               heartbeat: float = HEARTBEAT) -> dict:
    """{(seed, claim id): record} for every claim under every seed, one Dask task each. A line per finished
    task; when none has finished for ``heartbeat`` seconds (a deep report's longest claims and experiments
    run for half an hour), a line with the elapsed time and the tasks assigned to the workers."""
    from distributed import as_completed

    from attncheck.run.replay import claims_file

    futures = {}
    for c in claims:  # claim-major: a claim's seeds finish together, so a cut-off run is still informative
        for seed in seeds:
            path = claims_file(c)
            if path is None:
                raise ClusterError(f"claim {c.id} is not defined in a file; Dask workers import claims by path")
            fut = client.submit(claim_task, str(path), c.id, profile.name, profile.scale, seed, n_random,
                                key=f"{CLAIM_KEY}{seed}-{c.id}", pure=False, retries=0)
            futures[fut] = (seed, c)
    out, total = {}, len(futures)
    pending, start = as_completed(list(futures)), time.monotonic()
    last = start
    while not pending.is_empty():
        batch = pending.next_batch(block=False)
        if not batch:
            if time.monotonic() - last >= heartbeat:
                last = time.monotonic()
                progress(f"  [{len(out)}/{total}] {_minutes(last - start)} elapsed, on the workers: {_on_workers(client)}")
            time.sleep(POLL)
            continue
        for fut in batch:
            seed, c = futures.pop(fut)
            try:
                rec = fut.result()
            except Exception as e:  # KilledWorker (or the task's own failure outside engine.run)
                rec = killed_record(c, profile, seed, e)
            fut.release()  # gathered: a worker that dies later does not make the scheduler recompute it
            out[(seed, c.id)] = rec
            progress(f"  [{len(out)}/{total}] seed {seed} {c.id}: {rec['verdict']}")
        last = time.monotonic()
    return out


def _minutes(seconds: float) -> str:
    return f"{int(seconds // 60)} min {int(seconds % 60):02d} s"


def _on_workers(client) -> str:
    """The tasks assigned to the workers: claims as 'seed S ID', experiment runners as 'experiments'."""
    names = []
    for keys in client.processing().values():
        for key in map(str, keys):
            if key.startswith(CLAIM_KEY):
                seed, cid = key[len(CLAIM_KEY):].split("-", 1)
                names.append(f"seed {seed} {cid}")
            else:
                names.append("experiments" if key.startswith("experiment_task") else key)
    return ", ".join(sorted(names)) or "nothing (waiting for workers)"


def experiment_task(runner, profile: str, seed: int) -> tuple[list[dict], dict[str, bytes]]:
    """On a worker: run one paper's experiments in a scratch folder; return entries and figure bytes."""
    from attncheck.run import experiments

    scratch = Path(tempfile.mkdtemp(prefix="attncheck-exp-"))
    try:
        (scratch / "figures").mkdir()
        entries = experiments.run(runner, profile, scratch, seed, lambda m: None)
        files = {f: (scratch / f).read_bytes() for e in entries for f in e.get("figures", [])
                 if (scratch / f).is_file()}
        return entries, files
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def submit_experiments(client, profile: str, seed: int = 0, runners=None) -> list:
    """One task per paper runner, to be submitted before the claims (Dask starts tasks of equal priority in
    submission order): a runner can be the longest single task of a report (bombari2024's deep figures took
    30 min on one core, more than any claim), so queued behind the claims it would run alone after them.
    Returns [(runner, future)] for :func:`gather_experiments`."""
    from attncheck.run import experiments

    runners = experiments.all_runners() if runners is None else runners
    return [(r, client.submit(experiment_task, r, profile, seed, pure=False)) for r in runners]


def gather_experiments(submitted: list, out_dir, progress=print) -> Path:
    """experiments.run_all's output from the tasks of :func:`submit_experiments`: the same experiments.json
    (entries in runner order), figures copied back."""
    out = Path(out_dir)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    entries = []
    for runner, fut in submitted:  # in all_runners() order, as run_all writes them
        got, files = fut.result()
        for rel, data in files.items():
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            (out / rel).write_bytes(data)
        entries += got
        progress(f"  experiments {runner.__module__}: {len(got)} entries")
    from attncheck.run import experiments

    return experiments.write(out, entries)


def describe(client) -> str:
    """The scheduler and its worker count, and a warning where workers run with a fixed malloc trim threshold."""
    workers = client.scheduler_info().get("workers", {})
    line = f"Dask scheduler {client.scheduler.address}, {len(workers)} workers"
    trimmed = trimming_workers(client)
    if trimmed:
        line += (f"; warning: {len(trimmed)} of them run with {MALLOC_TRIM} set (Dask's default for workers that a "
                 f"nanny spawns), which multiplies the system time of large numpy temporaries; start them with "
                 f"distributed.nanny.pre-spawn-environ.{MALLOC_TRIM}: null (docs/running.md)")
    return line


def trimming_workers(client) -> list[str]:
    """The addresses of the workers whose environment sets :data:`MALLOC_TRIM`."""
    return sorted(a for a, v in client.run(os.environ.get, MALLOC_TRIM).items() if v is not None)
