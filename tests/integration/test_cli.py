"""The console script and python -m attncheck."""
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from user_claims import USER_FILE

#: the file of the deng2023 claims these tests check: loading it alone, not every paper's (torch among them),
#: keeps a check of one claim as cheap as the claim
TOY = str(Path(__file__).resolve().parents[2] / "properties" / "deng2023" / "test_toy.py")
#: the user file's claims at a tenth of their budgets: their verdicts are decided in a dozen cases or hold at any
#: budget, and these tests check the command line, not the engine's power
SMALL = ("--scale", "0.1")


def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "attncheck", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=600)


def test_list_shows_the_deng2023_claims():
    res = _cli("list", "--paper", "deng2023")
    assert res.returncode == 0
    for cid in ("deng2023/lemma-4.1/part-1", "deng2023/lemma-4.2/part-3-pos", "deng2023/lemma-5.4/main"):
        assert cid in res.stdout


def test_check_true_and_false_claims_of_a_user_file(tmp_path):
    f = tmp_path / "claims.py"
    f.write_text(USER_FILE)
    ok = _cli("check", "mine/fact-1/true", *SMALL, "--claims", str(f), "--json", str(tmp_path / "r.json"))
    assert ok.returncode == 0 and "HOLDS" in ok.stdout
    assert json.loads((tmp_path / "r.json").read_text())["verdict"] == "HOLDS"
    bad = _cli("check", "mine/fact-1/false", *SMALL, "--claims", str(f))
    assert bad.returncode == 1 and "REFUTED" in bad.stdout and "counterexample" in bad.stdout
    errata = _cli("check", "mine/fact-3/stated", *SMALL, "--claims", str(f))
    assert errata.returncode == 0 and "ERRATUM" in errata.stdout


def test_check_a_paper_claim_with_progress():
    res = _cli("check", "deng2023/lemma-4.2/part-2", "--profile", "quick", "--seed", "3", "--claims", TOY)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "n = 2:" in res.stdout and "HOLDS" in res.stdout and "seed 3" in res.stdout
    assert " 0 draws" not in res.stdout and "point: None" not in res.stdout


def test_unknown_claim_and_bad_profile_fail_clearly():
    res = _cli("check", "deng2023/lemma-9.9/main")
    assert res.returncode == 2 and "no claim with id" in res.stderr and "properties" in res.stderr
    res = _cli("check", "deng2023/lemma-4.2/part-2", "--profile", "huge")
    assert res.returncode != 0 and "invalid choice" in res.stderr


def test_console_script_is_installed():
    res = subprocess.run(["attncheck", "--help"], capture_output=True, text=True)
    assert res.returncode == 0 and "report" in res.stdout


def test_the_command_line_is_parsed_before_the_engine_loads():
    """--help, --version and usage errors answer at once: attncheck.cli imports no engine, SciPy, SymPy or Hypothesis."""
    code = ("import sys, attncheck.cli; "
            "print(sorted(m for m in ('attncheck.engine', 'scipy', 'sympy', 'hypothesis') if m in sys.modules))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0 and res.stdout.strip() == "[]", res.stdout + res.stderr


def test_loading_claims_imports_what_running_them_needs_only(tmp_path):
    """A process that loads claims and the plugin (an xdist controller, `attncheck list`, the report's parent)
    imports no engine, SciPy, SymPy, python-flint, matplotlib or torch; one that also runs a deterministic user
    claim imports SciPy and the engine, still no SymPy, python-flint (exact arithmetic, certification),
    matplotlib (figures) or torch (the papers that use it). Each loads where it is used: lazily, by
    attncheck.core.lazy or an import inside the function."""
    f = tmp_path / "claims.py"
    f.write_text(USER_FILE)
    heavy = ("attncheck.engine", "scipy", "sympy", "flint", "matplotlib", "torch")
    code = textwrap.dedent(f"""
        import sys
        from attncheck.run import loader, session
        from attncheck.core.profiles import get_profile
        import attncheck.pytest_plugin, attncheck.report.writer, attncheck.report.html
        claims = {{c.id: c for c in loader.load([{str(f)!r}])}}
        session.papers_of([{{"paper": "mine"}}])
        print(sorted(m for m in {heavy!r} if m in sys.modules))
        rec = session.run_claim(claims["mine/fact-1/true"], get_profile("quick", 0.1), 0, 1)
        print(rec["verdict"], sorted(m for m in {heavy!r} if m in sys.modules))
    """)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.splitlines() == ["[]", "HOLDS ['attncheck.engine', 'scipy']"], res.stdout + res.stderr


def test_replay_does_not_depend_on_which_modules_are_loaded(tmp_path):
    # Hypothesis can draw literals of loaded local modules; attncheck switches that off
    (tmp_path / "noise.py").write_text("A = 0.7\nB = 0.099999\nC = 13.7\nD = 1e-05\nE = 'x'\n")
    plain = tmp_path / "plain.json"
    noisy = tmp_path / "noisy.json"
    cid = "deng2023/lemma-4.1/part-2"
    _cli("check", cid, "--claims", TOY, "--json", str(plain))
    code = (f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import noise; from attncheck.cli import main; "
            f"main(['check', {cid!r}, '--claims', {TOY!r}, '--json', {str(noisy)!r}])")
    subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    a, b = (json.loads(p.read_text()) for p in (plain, noisy))
    for rec in (a, b):
        rec["evidence"].pop("seconds")
    assert a == b


def test_replay_command_of_a_user_file_replays_it(tmp_path):
    f = tmp_path / "my_claims.py"
    f.write_text(USER_FILE)
    first = _cli("check", "mine/fact-1/false", "--claims", str(f), "--json", str(tmp_path / "r.json"), cwd=tmp_path)
    rec = json.loads((tmp_path / "r.json").read_text())
    replay = rec["evidence"]["replay"]
    assert replay == f"attncheck check mine/fact-1/false --profile quick --seed 0 --claims {f.resolve()}"
    again = subprocess.run(replay.replace("attncheck", f"{sys.executable} -m attncheck", 1), shell=True,
                           capture_output=True, text=True, cwd=tmp_path.parent, timeout=600)  # from elsewhere
    assert again.returncode == 1 and again.stdout.splitlines()[1:] == first.stdout.splitlines()[1:]
    missing = _cli("check", "mine/fact-1/false", cwd=tmp_path)
    assert missing.returncode == 2 and "pass --claims FILE" in missing.stderr and "properties" in missing.stderr


def test_check_an_erratum_prints_note_corrected_id_and_reading(tmp_path):
    f = tmp_path / "claims.py"
    f.write_text(USER_FILE.replace('erratum=Erratum("mine/fact-3/corrected"',
                                   'reading=Reading(notes={"domain": "all of [0, 1]"}), erratum=Erratum("mine/fact-3/corrected"'))
    res = _cli("check", "mine/fact-3/stated", "--claims", str(f))
    assert res.returncode == 0 and "ERRATUM" in res.stdout
    assert "erratum: holds on [0, 0.9] only" in res.stdout
    assert "corrected claim: mine/fact-3/corrected: x <= 0.9 on [0, 0.9]" in res.stdout
    assert "domain: all of [0, 1]" in res.stdout


def test_list_of_an_unknown_paper_fails():
    res = _cli("list", "--paper", "nosuch")
    assert res.returncode == 2 and "no claims of paper 'nosuch'" in res.stderr and "deng2023" in res.stderr


def test_version_and_experiments_help():
    res = _cli("--version")
    assert res.returncode == 0 and res.stdout.startswith("attncheck ")
    res = _cli("experiments", "--help")
    assert res.returncode == 0 and "deng2023-7.1" in res.stdout and "Figure 3" in res.stdout


def test_a_broken_claims_file_is_an_input_error_without_traceback(tmp_path):
    f = tmp_path / "broken.py"
    f.write_text("x = (\n")
    res = _cli("list", "--claims", str(f))
    assert res.returncode == 2 and "syntax error at line 1" in res.stderr and "Traceback" not in res.stderr


def test_duplicate_ids_are_an_error_naming_both_files(tmp_path):
    one = USER_FILE.replace("mine/fact-1/true", "dup/same/id")
    (tmp_path / "a.py").write_text(one)
    (tmp_path / "b.py").write_text(one.replace("mine/", "other/"))
    res = _cli("list", "--claims", str(tmp_path))
    assert res.returncode == 2 and "dup/same/id" in res.stderr
    assert str(tmp_path / "a.py") in res.stderr and str(tmp_path / "b.py") in res.stderr


def test_bad_outputs_and_seeds_fail_before_anything_runs(tmp_path):
    res = _cli("check", "deng2023/lemma-4.2/part-2", "--json", str(tmp_path / "missing" / "x.json"))
    assert res.returncode == 2 and "no such directory" in res.stderr and "checking" not in res.stdout
    res = _cli("report", "--out", "/dev/null/dir")
    assert res.returncode == 2 and "is not a directory" in res.stderr and "running" not in res.stdout
    for cmd in (["check", "deng2023/lemma-4.2/part-2"], ["report"], ["experiments"]):
        res = _cli(*cmd, "--seed", "-1")
        assert res.returncode == 2 and "seed must be an integer >= 0" in res.stderr


def test_quick_experiments_do_not_replace_deep_ones(tmp_path):
    (tmp_path / "experiments.json").write_text(json.dumps({"experiments": [{"id": "x-1", "profile": "deep"}]}))
    res = _cli("experiments", "--out", str(tmp_path))
    assert res.returncode == 2 and "--replace" in res.stderr
    assert json.loads((tmp_path / "experiments.json").read_text())["experiments"][0]["profile"] == "deep"


@pytest.mark.parametrize("experiments", [["--skip-experiments"], []], ids=["claims", "claims-and-experiments"])
def test_ctrl_c_of_a_report_prints_one_line_and_nothing_from_the_workers(tmp_path, experiments):
    """Ctrl-C reaches attncheck, the pytest controller and its xdist workers (one process group): one line, exit 130,
    the output folder as it was; no worker writes its teardown to the closed channel (PluggyTeardownRaisedWarning),
    and the experiments' child (attncheck/background.py), running beside the claims, is stopped without a word."""
    import os

    from user_claims import SLOW_FILE, default_sigint, interrupt_when_slow_claim_runs

    f = tmp_path / "slow_claims.py"
    f.write_text(SLOW_FILE)
    started = tmp_path / "slow-started"
    proc = subprocess.Popen([sys.executable, "-m", "attncheck", "report", "--claims", str(f), "--out",
                             str(tmp_path / "rep"), "-n", "2", "--profile", "quick", *SMALL, *experiments],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "SLOW_CLAIM_STARTED": str(started)},
                            start_new_session=True, preexec_fn=default_sigint)
    interrupt_when_slow_claim_runs(proc, started)
    out = proc.communicate(timeout=120)[0]
    assert proc.returncode == 130, out
    tail = out[out.index("attncheck: interrupted"):]
    assert tail.strip() == f"attncheck: interrupted; {tmp_path / 'rep'} left as it was", out
    assert "PluggyTeardownRaisedWarning" not in out and "Traceback" not in out, out
    assert not (tmp_path / "rep").exists()
