"""`attncheck report --scheduler` (Dask) and `--seeds K` (replication): parity with xdist, faults, flags."""
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")  # .ci/run installs the dask extra and checks it imports

from attncheck.report import writer as report  # noqa: E402
from attncheck.run import cluster, replication  # noqa: E402

pytestmark = pytest.mark.dask

HERE = Path(__file__).resolve().parents[1] / "support"
CLAIMS = HERE / "dask_claims.py"
VERDICTS = {"dask/fact-1/true": "HOLDS", "dask/fact-1/false": "REFUTED", "dask/coin/true": "HOLDS",
            "dask/coin/false": "REFUTED", "dask/fact-3/stated": "ERRATUM", "dask/fact-3/corrected": "HOLDS"}
TIMING = {"generated", "seconds"}
#: the planted claims' budgets at a tenth (every run here, so that runs compare): their verdicts are decided in a
#: dozen cases or hold at any budget, and these tests check the backends, not the engine's power
SCALE = 0.1


def _report(out, *args, env=None, code=None):
    base = [sys.executable, "-m", "attncheck"] if code is None else [sys.executable, "-c", code]
    return subprocess.run([*base, "report", "--profile", "quick", "--scale", str(SCALE), "--skip-experiments", "--out",
                           str(out), *args],
                          capture_output=True, text=True, timeout=600, env={**os.environ, **(env or {})})


def _doc(out):
    return json.loads((out / "results.json").read_text())


def _untimed(x):
    """The document without its timing fields (generated, seconds)."""
    if isinstance(x, dict):
        return {k: _untimed(v) for k, v in x.items() if k not in TIMING}
    if isinstance(x, list):
        return [_untimed(v) for v in x]
    return x


@pytest.fixture(scope="module")
def xdist_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("xdist") / "rep"
    res = _report(out, "--claims", str(CLAIMS), "-n", "2")
    assert res.returncode == 1, res.stdout + res.stderr  # two planted claims are false
    return out


def test_local_cluster_gives_the_xdist_results(xdist_run, tmp_path):
    out = tmp_path / "rep"
    res = _report(out, "--claims", str(CLAIMS), "--scheduler", "local:2")
    assert res.returncode == 1, res.stdout + res.stderr
    assert "2 workers" in res.stdout
    dask_doc, xdist_doc = _doc(out), _doc(xdist_run)
    assert {c["id"]: c["verdict"] for c in dask_doc["claims"]} == VERDICTS
    assert _untimed(dask_doc) == _untimed(xdist_doc)
    assert sorted(p.name for p in (out / "figures").iterdir()) == \
        sorted(p.name for p in (xdist_run / "figures").iterdir())
    assert not (out / "PARTIAL").exists() and (out / "dask.html").is_file()


def test_without_dask_scheduler_says_what_to_install(tmp_path):
    code = ("import sys; sys.modules['distributed'] = None; from attncheck.cli import main; "
            "sys.exit(main(sys.argv[1:]))")
    res = _report(tmp_path / "rep", "--claims", str(CLAIMS), "--scheduler", "local:2", code=code)
    assert res.returncode == 2, res.stdout + res.stderr
    assert "not installed" in res.stderr and "pip install -e '.[dask]'" in res.stderr
    assert "Traceback" not in res.stderr and not list(tmp_path.iterdir())  # nothing written


def test_unreachable_scheduler_fails_before_any_work(tmp_path):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    res = _report(tmp_path / "rep", "--claims", str(CLAIMS), "--scheduler", f"tcp://127.0.0.1:{port}",
                  env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"})
    assert res.returncode == 2, res.stdout + res.stderr
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}" in res.stderr
    assert "no claim was run" in res.stderr and not list(tmp_path.iterdir())


def test_a_missing_claims_file_fails_before_a_cluster_starts(tmp_path):
    res = _report(tmp_path / "rep", "--claims", str(tmp_path / "nosuch.py"), "--scheduler", "local:2")
    assert res.returncode == 2, res.stdout + res.stderr
    assert "no such claims file or folder" in res.stderr
    assert "running on Dask" not in res.stdout and not (tmp_path / "rep").exists()


def test_a_worker_killed_mid_claim_loses_and_doubles_nothing(tmp_path):
    kill = tmp_path / "kill"
    kill.mkdir()
    out = tmp_path / "rep"
    res = _report(out, "--claims", str(CLAIMS), str(HERE / "dask_killer_once.py"), "--scheduler", "local:2",
                  env={"ATTNCHECK_TEST_KILL_DIR": str(kill)})
    assert res.returncode == 1, res.stdout + res.stderr
    assert (kill / "killed-once").is_file()  # a worker did die in the middle of that claim
    ids = [c["id"] for c in _doc(out)["claims"]]
    assert sorted(ids) == sorted([*VERDICTS, "killer/crash/once"])  # every claim, exactly once
    assert {c["id"]: c["verdict"] for c in _doc(out)["claims"]} == {**VERDICTS, "killer/crash/once": "HOLDS"}
    assert not (out / "PARTIAL").exists()


def test_a_claim_that_keeps_killing_its_worker_ends_as_error(tmp_path):
    kill = tmp_path / "kill"
    kill.mkdir()
    out = tmp_path / "rep"
    res = _report(out, "--claims", str(HERE / "dask_killer_always.py"), "--scheduler", "local:2",
                  env={"ATTNCHECK_TEST_KILL_DIR": str(kill), "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "1"})
    assert res.returncode == 1, res.stdout + res.stderr
    (rec,) = _doc(out)["claims"]
    assert rec["id"] == "killer/crash/always" and rec["verdict"] == "ERROR"
    assert rec["evidence"]["error"].startswith("KilledWorker") and "killed its worker" in rec["evidence"]["error"]
    assert len(list(kill.iterdir())) == 2  # allowed-failures 1: tried on two workers, both died
    assert "KilledWorker" in (out / "killer.html").read_text()


@pytest.fixture(scope="module")
def dask_seeds3(tmp_path_factory):
    out = tmp_path_factory.mktemp("seeds3") / "rep"
    res = _report(out, "--claims", str(CLAIMS), "--scheduler", "local:2", "--seeds", "3")
    assert res.returncode == 1, res.stdout + res.stderr
    return out


def test_replication_of_planted_true_and_false_claims(dask_seeds3, xdist_run):
    out = dask_seeds3
    doc = _doc(out)
    recs = {c["id"]: c for c in doc["claims"]}
    assert doc["seeds"]["replicates"] == [0, 1, 2] and len(recs) == len(VERDICTS)
    for cid, verdict in [("dask/coin/true", "HOLDS"), ("dask/coin/false", "REFUTED")]:
        rep = recs[cid]["replication"]
        assert rep == {"seeds": [0, 1, 2], "verdicts": [verdict] * 3, "shares": {verdict: 1.0}, "flips": False}
        assert recs[cid]["evidence"]["seed"] == 0  # the record shown is the master seed's
    # seed 0 of the replication is the single-seed run
    assert _untimed([{k: v for k, v in c.items() if k != "replication"} for c in doc["claims"]]) == \
        _untimed(_doc(xdist_run)["claims"])
    md = (out / "summary.md").read_text()
    assert "## Seed replication" in md and "6 of 6 claims give the same verdict under all 3 master seeds" in md
    assert "HOLDS 3/3 over seeds 0, 1, 2" in (out / "dask.html").read_text()


def test_replication_on_xdist_matches_dask(dask_seeds3, tmp_path):
    out = tmp_path / "x"
    assert _report(out, "--claims", str(CLAIMS), "-n", "0", "--seeds", "2").returncode == 1
    xdist, dask = _doc(out)["claims"], _doc(dask_seeds3)["claims"]
    assert _doc(out)["seeds"]["replicates"] == [0, 1]
    assert [c["replication"]["verdicts"] for c in xdist] == [c["replication"]["verdicts"][:2] for c in dask]
    assert _untimed([{k: v for k, v in c.items() if k != "replication"} for c in xdist]) == \
        _untimed([{k: v for k, v in c.items() if k != "replication"} for c in dask])
    assert not [p for p in out.iterdir() if p.name.startswith(".seed-")]  # scratch runs removed


def test_a_flipping_verdict_is_flagged_at_the_top_of_its_paper(xdist_run, tmp_path):
    recs = {c["id"]: c for c in _doc(xdist_run)["claims"]}
    flipped = {**recs, "dask/coin/true": {**recs["dask/coin/true"], "verdict": "REFUTED"}}
    doc = {**_doc(xdist_run), "claims": replication.merge({0: recs, 1: flipped, 2: recs}, 0)}
    (tmp_path / "results.json").write_text(json.dumps(doc))
    report.write_summary(tmp_path)
    html = (tmp_path / "dask.html").read_text()
    assert html.index("Verdicts that flip between seeds") < html.index("id='headline'")
    assert "1 of 6 claims</b> change verdict" in html and "HOLDS 2/3, REFUTED 1/3 over seeds 0, 1, 2" in html
    md = (tmp_path / "summary.md").read_text()
    assert "**1 verdict(s) flip between seeds**; 5 of 6 claims" in md
    assert "- FLIPS [dask/coin/true](dask.html#dask/coin/true): HOLDS 2/3, REFUTED 1/3 over seeds 0, 1, 2" in md


@pytest.fixture(scope="module")
def one_worker():
    """One single-threaded worker process, started once for the tests that drive a cluster in process."""
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=None) as lc:
        yield lc


def test_experiments_run_as_dask_tasks_and_come_back_as_run_all_writes_them(one_worker, tmp_path):
    """One task per runner; entries and figures come back as run_all writes them; the claims' thread limits hold
    on the worker (the last runner records them)."""
    import cloudpickle
    import planted_experiments as toy

    cloudpickle.register_pickle_by_value(toy)  # the workers do not have tests/support on their path

    def runner(profile, out, seed, progress):  # pickled by value: the workers run this very function
        (out / "figures" / f"exp_{seed}.png").write_bytes(f"{profile}-{seed}".encode())
        return [{"id": f"toy-{seed}", "figures": [f"figures/exp_{seed}.png"], "profile": profile, "seed": seed,
                 "pid": os.getpid()}]

    with distributed.Client(one_worker) as client:
        submitted = cluster.submit_experiments(client, "quick", 7, runners=[runner, runner, toy.threads])
        path = cluster.gather_experiments(submitted, tmp_path, progress=lambda m: None)
    entries = json.loads(path.read_text())["experiments"]
    assert [e["id"] for e in entries] == ["toy-7", "toy-7", "threads"] and all(e["pid"] != os.getpid() for e in entries)
    toy.assert_one_thread(entries[2])
    assert (tmp_path / "figures" / "exp_7.png").read_bytes() == b"quick-7"


def test_experiments_run_before_the_claims_queued_after_them(one_worker, tmp_path):
    """On one worker, the experiment submitted first starts before every claim: a long experiment does not
    wait for the claims and then run alone (the claims are submitted after it, as cmd_report does)."""
    from attncheck import cli
    from attncheck.core.claims import REGISTRY
    from attncheck.core.profiles import get_profile

    def runner(profile, out, seed, progress):
        return [{"id": "toy", "figures": [], "profile": profile, "seed": seed}]

    cli.load([str(CLAIMS)])
    claims = [c for c in REGISTRY if c.id.startswith("dask/")]
    with distributed.Client(one_worker) as client, distributed.get_task_stream(client) as stream:
        submitted = cluster.submit_experiments(client, "quick", 0, runners=[runner])
        got = cluster.run_claims(client, claims, get_profile("quick", SCALE), [0], 1, progress=lambda m: None)
        cluster.gather_experiments(submitted, tmp_path, progress=lambda m: None)
    start = {t["key"]: min(s["start"] for s in t["startstops"]) for t in stream.data}
    experiment = [t for k, t in start.items() if "experiment_task" in str(k)]
    claim_starts = [t for k, t in start.items() if "attncheck-claim" in str(k)]
    assert len(got) == len(claims) == len(claim_starts) and len(experiment) == 1
    assert experiment[0] < min(claim_starts)


def test_a_long_silence_is_broken_by_a_line_naming_what_runs(one_worker, tmp_path):
    """While no task finishes for `heartbeat` seconds (here an experiment that sleeps ahead of the claims on one
    worker), run_claims prints the elapsed time and the tasks on the workers; every claim still ends once."""
    import time

    from attncheck import cli
    from attncheck.core.claims import REGISTRY
    from attncheck.core.profiles import get_profile

    def runner(profile, out, seed, progress):
        time.sleep(3.0)
        return [{"id": "toy", "figures": [], "profile": profile, "seed": seed}]

    cli.load([str(CLAIMS)])
    claims = [c for c in REGISTRY if c.id.startswith("dask/")]
    lines = []
    with distributed.Client(one_worker) as client:
        submitted = cluster.submit_experiments(client, "quick", 0, runners=[runner])
        got = cluster.run_claims(client, claims, get_profile("quick", SCALE), [0], 1, progress=lines.append,
                                 heartbeat=0.5)
        cluster.gather_experiments(submitted, tmp_path, progress=lambda m: None)
    first_done = next(i for i, m in enumerate(lines) if "elapsed" not in m)
    silent = [m for m in lines[:first_done] if "elapsed, on the workers:" in m]
    assert silent and all(m.startswith(f"  [0/{len(claims)}]") for m in silent)
    assert any("experiments" in m for m in silent)
    assert len(got) == len(claims) and sum("elapsed" not in m for m in lines) == len(claims)


def test_the_report_submits_its_experiments_before_its_claims(one_worker, tmp_path, monkeypatch):
    from attncheck import cli

    calls = []

    def runner(profile, out, seed, progress):
        return [{"id": "toy", "title": "toy", "description": "a planted experiment", "figures": [], "notes": [],
                 "profile": profile, "seed": seed, "data": {}, "verdict": {"agreement": "agrees", "details": []}}]

    def submit(client, profile, seed):
        calls.append("experiments")
        return submit_experiments(client, profile, seed, runners=[runner])

    def claims(*args, **kwargs):
        calls.append("claims")
        return run_claims(*args, **kwargs)

    submit_experiments, run_claims = cluster.submit_experiments, cluster.run_claims
    monkeypatch.setattr(cluster, "submit_experiments", submit)
    monkeypatch.setattr(cluster, "run_claims", claims)
    assert cli.main(["report", "--profile", "quick", "--scale", str(SCALE), "--claims", str(CLAIMS), "--scheduler",
                     one_worker.scheduler_address, "--out", str(tmp_path / "rep")]) == 1  # two planted claims are false
    assert calls == ["experiments", "claims"]
    assert [e["id"] for e in json.loads((tmp_path / "rep" / "experiments.json").read_text())["experiments"]] == ["toy"]


def test_local_clusters_spawn_workers_without_a_fixed_malloc_trim(one_worker):
    """Dask's own LocalCluster sets MALLOC_TRIM_THRESHOLD_ in its workers, and describe() warns of it;
    connect('local:N') spawns them without it, and describe() does not warn."""
    with distributed.Client(one_worker) as client:
        assert cluster.trimming_workers(client) and "warning" in cluster.describe(client)
    client = cluster.connect("local:1")
    try:
        assert cluster.trimming_workers(client) == [] and "warning" not in cluster.describe(client)
    finally:
        cluster.close(client)
