"""The experiments of an xdist report in a child process beside the claims (attncheck/background.py)."""
import functools
import json
import os
import time
from pathlib import Path

import planted_experiments as toy
import pytest

from attncheck import cli
from attncheck.run import background, experiments, threads
from attncheck.run.background import Experiments

CLAIMS = Path(__file__).resolve().parents[1] / "support" / "dask_claims.py"


def test_the_child_runs_the_experiments_and_its_files_move_into_the_report(tmp_path):
    job = Experiments("quick", 4, runners=[toy.drawing])
    lines = []
    job.finish(tmp_path, progress=lines.append)
    (e,) = json.loads((tmp_path / "experiments.json").read_text())["experiments"]
    assert e["id"] == "toy-4" and e["pid"] != os.getpid() and (tmp_path / "figures" / "toy.png").read_bytes() == b"png"
    assert any("toy: drawing" in m for m in lines) and not job.scratch.exists()


def test_a_failing_experiment_is_an_error_with_its_output(tmp_path):
    job = Experiments("quick", 0, runners=[toy.failing])
    with pytest.raises(RuntimeError, match="the experiments failed") as err:
        job.finish(tmp_path, progress=lambda m: None)
    assert "planted failure" in str(err.value) and "toy: about to fail" in str(err.value)
    assert not job.scratch.exists() and not (tmp_path / "experiments.json").exists()


def test_stop_ends_a_running_child_at_once():
    job = Experiments("quick", 0, runners=[toy.sleeping])
    time.sleep(1)
    t0 = time.perf_counter()
    job.stop()
    assert time.perf_counter() - t0 < 10 and not job.proc.is_alive() and not job.scratch.exists()


def test_a_report_runs_its_experiments_beside_the_claims(tmp_path, monkeypatch):
    # the report's child finds every paper's runners itself (the parent imports none): the toy one is handed to it
    monkeypatch.setattr(background, "Experiments", functools.partial(Experiments, runners=[toy.drawing]))
    out = tmp_path / "rep"
    # the planted claims at a tenth of their budgets: their verdicts do not depend on it, the claims' run does not
    assert cli.main(["report", "--profile", "quick", "--scale", "0.1", "--claims", str(CLAIMS), "-n", "2", "--out",
                     str(out)]) == 1
    (e,) = json.loads((out / "experiments.json").read_text())["experiments"]
    assert e["started"] < (out / "results.json").stat().st_mtime  # started before the claims were done
    assert (out / "figures" / "toy.png").is_file() and e["pid"] != os.getpid()


def test_experiments_run_with_the_claims_thread_limits_in_process_and_in_the_child(tmp_path):
    """run_all (in process) and the report's child run a runner with one BLAS, OpenMP and torch thread, as
    run_claim runs a claim; the process's own environment is restored after."""
    before = {k: os.environ.get(k) for k in threads.ENV}
    path = experiments.run_all("quick", tmp_path / "here", 0, progress=lambda m: None, runners=[toy.threads])
    (here,) = json.loads(path.read_text())["experiments"]
    toy.assert_one_thread(here)
    assert {k: os.environ.get(k) for k in threads.ENV} == before
    (tmp_path / "child").mkdir()
    Experiments("quick", 0, runners=[toy.threads]).finish(tmp_path / "child", progress=lambda m: None)
    (child,) = json.loads((tmp_path / "child" / "experiments.json").read_text())["experiments"]
    assert child["pid"] != os.getpid()
    toy.assert_one_thread(child)
