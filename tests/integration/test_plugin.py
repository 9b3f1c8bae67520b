"""The pytest plugin end to end, on a user's claims file outside the repository."""
import json
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from user_claims import SLOW_FILE, USER_FILE, default_sigint, interrupt_when_slow_claim_runs

from attncheck.core import record

#: the planted claims' budgets at a tenth: their verdicts are decided in a dozen cases or hold at any budget, and
#: these tests check the plugin, not the engine's power (the documented examples run as documented, at full budget)
SMALL = "--attncheck-scale=0.1"

def _pytest(tmp_path, *args, name="my_claims.py", text=USER_FILE):
    f = tmp_path / name
    f.write_text(text)
    return subprocess.run([sys.executable, "-m", "pytest", str(f), "-p", "no:cacheprovider", *args],
                          capture_output=True, text=True, cwd=tmp_path, timeout=600)


def _records(out_dir):
    doc = json.loads((out_dir / "results.json").read_text())
    return doc, {r["id"]: r for r in doc["claims"]}


@pytest.fixture(scope="module")
def user_report(tmp_path_factory):
    """One ``-n 0 --attncheck-report`` run of the user file: (the finished process, its report folder), shared by
    the tests that read it or start from a complete report (those copy it: they change it)."""
    tmp = tmp_path_factory.mktemp("user")
    return _pytest(tmp, "-n", "0", SMALL, "--attncheck-report", str(tmp / "rep")), tmp / "rep"


def test_user_file_verdicts_exit_status_and_counterexample(user_report):
    res, rep = user_report
    assert res.returncode == 1, res.stdout
    out = res.stdout
    assert "mine/fact-1/false: REFUTED" in out
    assert "counterexample" in out and "replay: attncheck check mine/fact-1/false" in out
    assert "3 passed" in out and "1 failed" in out and "1 xfailed" in out  # the erratum is an expected failure
    _, recs = _records(rep)
    assert recs["mine/fact-1/true"]["verdict"] == "HOLDS"
    assert recs["mine/fact-1/false"]["verdict"] == "REFUTED"
    assert recs["mine/fact-2/coin"]["verdict"] == "HOLDS"
    assert recs["mine/fact-3/stated"]["verdict"] == "ERRATUM"
    assert recs["mine/fact-3/stated"]["erratum"]["corrected_statement"] == "x <= 0.9 on [0, 0.9]"
    assert recs["mine/fact-3/corrected"]["verdict"] == "HOLDS"


def test_results_json_schema(user_report):
    rep = user_report[1]
    doc, recs = _records(rep)
    assert doc["schema"] == "attncheck-results/2"
    assert set(doc) == {"schema", "generated", "versions", "constraints", "run", "seeds", "papers", "claims"}
    record.validate(doc)
    assert doc["run"] == {"complete": True, "reason": None}
    assert doc["seeds"]["master"] == 0 and doc["versions"]["numpy"]
    keys = {"id", "paper", "label", "part", "kind", "statement", "source", "reading", "verdict",
            "evidence", "erratum"}
    for r in doc["claims"]:
        assert keys <= set(r)
        assert r["verdict"] in {"HOLDS", "CERTIFIED", "REFUTED", "ERRATUM", "INCONCLUSIVE", "ERROR"}
        assert r["id"] == "/".join([r["paper"], r["label"], r["part"]])
    assert "[mine](mine.html)" in (rep / "summary.md").read_text()
    assert (rep / "mine.html").read_text().count("<article class='claim'") == 5


def _strip(recs, folder):
    """Records without their timing, the claims file's folder (named absolutely in each replay command) as DIR."""
    for r in recs.values():
        r["evidence"].pop("seconds")
        r["evidence"]["replay"] = r["evidence"]["replay"].replace(str(folder), "DIR")
    return recs


#: an earlier report's times: longest first, fact-1/false then fact-3/stated, then fact-1/true; the others unknown
PAST = {"claims": [{"id": "mine/fact-1/true", "evidence": {"seconds": 0.1}},
                   {"id": "mine/fact-1/false", "evidence": {"seconds": 9.0}},
                   {"id": "mine/fact-3/stated", "evidence": {"seconds": 2.0}}]}


@pytest.fixture(scope="module")
def xdist_report(tmp_path_factory):
    """One ``-n 2 --attncheck-report`` run of the user file, in the order of :data:`PAST` (order never changes a
    result): (the finished process, its report folder), for the tests that read it."""
    tmp = tmp_path_factory.mktemp("xdist")
    past = tmp / "past.json"
    past.write_text(json.dumps(PAST))
    return _pytest(tmp, "-n", "2", SMALL, f"--attncheck-order-from={past}", "--attncheck-report", str(tmp / "two")), \
        tmp / "two"


def test_xdist_aggregation_matches_a_single_process(user_report, xdist_report):
    one, rep = user_report
    two, rep2 = xdist_report
    assert one.returncode == two.returncode == 1
    a, b = _strip(_records(rep)[1], rep.parent), _strip(_records(rep2)[1], rep2.parent)
    assert sorted(a) == sorted(b) and len(a) == 5  # nothing lost, nothing counted twice
    assert a == b  # identical verdicts, counts and evidence
    assert "received twice" not in two.stdout


def test_erratum_is_a_strict_expected_failure(tmp_path):
    text = USER_FILE.replace('domain=st.floats(0, 1), erratum=', 'domain=st.floats(0, 0.5), erratum=')
    res = _pytest(tmp_path, "-n", "0", SMALL, "-k", "fact-3", text=text)
    assert res.returncode == 1
    assert "an erratum is registered, but the stated claim was not refuted" in res.stdout


def test_fresh_randomness_is_recorded_and_used_by_the_claims_under_xdist(tmp_path):
    res = _pytest(tmp_path, "-n", "2", SMALL, "-k", "coin or true", "--attncheck-fresh",
                  "--attncheck-report", str(tmp_path / "r"))
    assert res.returncode == 0, res.stdout
    doc, recs = _records(tmp_path / "r")
    seed = doc["seeds"]["master"]
    assert f"seed {seed}" in res.stdout
    assert len(recs) == 2 and seed != 0  # 0 has probability 2^-31
    for r in recs.values():  # the seed each claim actually ran with, on the workers
        assert r["evidence"]["seed"] == seed
        assert f"--seed {seed}" in r["evidence"]["replay"]
        assert f"case_rng(seed={seed:d}" in json.dumps(r["evidence"]) or r["kind"] != "probabilistic"


@pytest.mark.parametrize("bad, message", [
    ('"Mine/x/y"', "must look like"),
    ('"mine/x/y", probability=1.5', "must lie in"),
])
def test_bad_claim_declarations_fail_clearly(tmp_path, bad, message):
    text = ("from hypothesis import strategies as st\nfrom attncheck import claim, lt\n"
            f"@claim({bad}, kind='probabilistic', statement='s', source='s', domain=st.just(0),\n"
            "       sample=lambda c, rng, size: rng.random(size), **({} if 'probability' in " + repr(bad) +
            " else {'probability': 0.5}))\n"
            "def f(c, u, xp):\n    return lt(u, 0.5, xp)\n")
    res = _pytest(tmp_path, "-n", "0", text=text)
    assert res.returncode != 0 and message in res.stdout + res.stderr


def _example(doc: str, heading: str) -> str:
    text = (Path(__file__).resolve().parents[2] / doc).read_text()
    section = text[text.index(heading):]
    code = section[section.index("```python") + len("```python"):]
    return code[:code.index("```")]


@pytest.mark.parametrize("doc, heading, verdicts, count", [
    ("README.md", "## Your own claims", {"HOLDS"}, 2),
    ("docs/writing-claims.md", "## A complete example", {"HOLDS", "ERRATUM"}, 6),
])
def test_documented_examples_run_as_documented(tmp_path, doc, heading, verdicts, count):
    res = _pytest(tmp_path, "-n", "2", "--attncheck-report", str(tmp_path / "rep"), text=_example(doc, heading))
    assert res.returncode == 0, res.stdout
    _, recs = _records(tmp_path / "rep")
    assert {r["verdict"] for r in recs.values()} == verdicts and len(recs) == count


def test_a_subset_never_replaces_a_complete_report_unless_asked(user_report, tmp_path):
    rep = tmp_path / "rep"
    shutil.copytree(user_report[1], rep)
    assert not (rep / "PARTIAL").exists() and len(_records(rep)[1]) == 5
    res = _pytest(tmp_path, "-n", "0", SMALL, "-k", "fact-1", "--attncheck-report", str(rep))
    assert "holds a complete report" in res.stdout and "rep-partial" in res.stdout
    assert len(_records(rep)[1]) == 5  # untouched
    part = tmp_path / "rep-partial"
    assert "selection" in (part / "PARTIAL").read_text()
    doc, recs = _records(part)
    assert doc["run"]["complete"] is False and len(recs) == 2
    assert "PARTIAL report" in (part / "summary.md").read_text()
    _pytest(tmp_path, "-n", "0", SMALL, "-k", "fact-1", "--attncheck-report", str(rep), "--attncheck-replace")
    assert len(_records(rep)[1]) == 2 and (rep / "PARTIAL").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".rep")]  # no staging left behind




@pytest.mark.parametrize("workers", ["0", "2"])
def test_ctrl_c_prints_one_line_and_keeps_the_complete_report(user_report, tmp_path, workers):
    import os

    rep = tmp_path / "rep"
    shutil.copytree(user_report[1], rep)
    before = (rep / "results.json").read_text()
    f = tmp_path / "slow_claims.py"
    f.write_text(SLOW_FILE)
    started = tmp_path / "slow-started"
    proc = subprocess.Popen([sys.executable, "-m", "pytest", str(f), "-p", "no:cacheprovider", "-n", workers,
                             SMALL, "--attncheck-report", str(rep)], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env={**os.environ, "SLOW_CLAIM_STARTED": str(started)},
                            start_new_session=True, preexec_fn=default_sigint)
    interrupt_when_slow_claim_runs(proc, started)
    out = proc.communicate(timeout=120)[0]
    assert proc.returncode == 2, out
    lines = [line for line in out.splitlines() if line.startswith("attncheck:")
             and not re.match(r"attncheck: \d+/\d+ claims, ", line)]  # the progress lines are not about the interrupt
    assert len(lines) == 1 and "interrupted" in lines[0] and "rep-partial" in lines[0], out
    assert "Traceback" not in out, out
    assert "PluggyTeardownRaisedWarning" not in out and "cannot send" not in out, out  # workers leave silently
    assert (rep / "results.json").read_text() == before
    assert "interrupted" in (tmp_path / "rep-partial" / "PARTIAL").read_text()


def test_unwritable_report_dir_fails_before_any_claim_runs(tmp_path):
    res = _pytest(tmp_path, "-n", "2", "--attncheck-report", "/dev/null/dir")
    assert res.returncode == 4, res.stdout + res.stderr  # pytest's usage error, not "claims refuted" (1)
    assert "attncheck: cannot write the report to /dev/null/dir" in res.stderr
    assert "passed" not in res.stdout and "failed" not in res.stdout and "Traceback" not in res.stderr


def test_negative_seed_is_rejected_at_the_command_line(tmp_path):
    res = _pytest(tmp_path, "-n", "0", "--attncheck-seed=-1")
    assert res.returncode == 4 and "seed must be an integer >= 0" in res.stderr


def test_duplicate_claim_ids_in_two_files_are_an_error_naming_both(tmp_path):
    one = USER_FILE.replace("mine/fact-1/true", "dup/same/id")
    (tmp_path / "a_claims.py").write_text(one)
    (tmp_path / "b_claims.py").write_text(one.replace("mine/", "other/"))
    res = subprocess.run([sys.executable, "-m", "pytest", "a_claims.py", "b_claims.py", "-p", "no:cacheprovider",
                          "-n", "0"], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert res.returncode != 0
    assert "dup/same/id" in res.stdout and "a_claims.py" in res.stdout and "b_claims.py" in res.stdout


@pytest.mark.parametrize("last", ["mine/fact-1/true", "mine/fact-1/false"])
def test_progress_shows_claims_done_and_the_eta(tmp_path, last):
    """Also when the last claim fails: its "F" stays on the line of dots, the progress line starts a new one."""
    past = tmp_path / "past.json"
    past.write_text(json.dumps({"claims": [{"id": i, "evidence": {"seconds": 0.0 if i == last else 1.0}}
                                           for i in ("mine/fact-1/true", "mine/fact-1/false")]}))
    res = _pytest(tmp_path, "-n", "1", SMALL, "--attncheck-progress=on", f"--attncheck-order-from={past}")
    lines = [line for line in res.stdout.splitlines() if line.startswith("attncheck: ")]
    assert lines and lines[-1].startswith("attncheck: 5/5 claims") and "elapsed, ETA 0:00" in lines[-1]
    assert ".." not in res.stdout  # the progress stands in for the dots; the failure is still listed
    assert "FAILED" in res.stdout and "1 failed, 3 passed, 1 xfailed" in res.stdout


def test_figures_are_drawn_where_the_claims_ran(tmp_path):
    path_claim = USER_FILE + textwrap.dedent('''
        @claim("mine/fact-5/path", kind="inequality", statement="n >= 1", source="user",
               path={"quick": [1, 10, 100]}, domain=lambda n: st.just(n))
        def on_path(n, xp):
            return ge(xp.asarray(float(n)), 1.0, xp)
    ''')
    res = _pytest(tmp_path, "-n", "2", SMALL, "--attncheck-report", str(tmp_path / "rep"), text=path_claim)
    assert res.returncode == 1
    assert (tmp_path / "rep" / "figures" / "mine_fact-5_path.png").stat().st_size > 1000


def test_claims_run_longest_first_by_an_earlier_report(tmp_path, xdist_report):
    """The order xdist hands out (issue 11: the report phase must not undo xdist): an earlier report's times put the
    long claims first, claims it does not know before them, and the collected order is the same on every worker."""
    from attncheck.run.schedule import committed, longest_first, past_seconds

    past = tmp_path / "past.json"
    past.write_text(json.dumps(PAST))
    assert past_seconds(tmp_path / "missing.json") == {} and past_seconds(past)["mine/fact-1/false"] == 9.0
    assert past_seconds(tmp_path / "missing.json", None, past) == past_seconds(past)  # the first with times
    assert committed(tmp_path) == tmp_path / "reports" / "results.json"
    assert longest_first(["a", "b", "c"], {"a": 1.0, "c": 5.0}) == [1, 2, 0]
    res = _pytest(tmp_path, "--collect-only", "-q", f"--attncheck-order-from={past}")
    ids = [line.rsplit("::", 1)[1] for line in res.stdout.splitlines() if "::" in line]
    assert ids == ["mine/fact-2/coin", "mine/fact-3/corrected", "mine/fact-1/false", "mine/fact-3/stated",
                   "mine/fact-1/true"]
    res = xdist_report[0]  # the user file on two workers in this order
    assert res.returncode == 1 and "different tests were collected" not in res.stdout + res.stderr
