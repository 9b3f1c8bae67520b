"""The CI gate a research group keeps: --strict fails an INCONCLUSIVE claim, pytest shows it apart, and `attncheck
diff` / `report --baseline` exit 1 on a regression under the user's policy (each kind of change in test_diff.py)."""
import json
import subprocess
import sys

import pytest
from gate_claims import GATE_FILE
from user_claims import USER_FILE

#: budgets at a tenth: the planted claims are decided in a few cases, and these tests check the gate, not the engine
SMALL = ("--scale", "0.1")


def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "attncheck", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=600)


def _pytest(path, *args):
    return subprocess.run([sys.executable, "-m", "pytest", str(path), "-p", "no:cacheprovider", "-n", "0",
                           "--attncheck-scale=0.1", *args], capture_output=True, text=True, cwd=path.parent,
                          timeout=600)


@pytest.fixture()
def gate_file(tmp_path):
    f = tmp_path / "gate_claims.py"
    f.write_text(GATE_FILE)
    return f


def test_check_strict_fails_an_inconclusive_claim_and_says_why(gate_file):
    plain = _cli("check", "gate/witness/undecided", *SMALL, "--claims", str(gate_file))
    assert plain.returncode == 0 and "INCONCLUSIVE" in plain.stdout and plain.stderr == ""
    strict = _cli("check", "gate/witness/undecided", *SMALL, "--claims", str(gate_file), "--strict")
    assert strict.returncode == 1
    assert "exit status 1: gate/witness/undecided: INCONCLUSIVE, which fails a strict run" in strict.stderr
    true = _cli("check", "gate/fact-1/true", *SMALL, "--claims", str(gate_file), "--strict")
    assert true.returncode == 0 and true.stderr == ""  # its twin: a decided claim passes a strict run


def test_pytest_shows_inconclusive_apart_and_strict_fails_it(gate_file):
    plain = _pytest(gate_file, "--attncheck-progress=off")
    assert plain.returncode == 0, plain.stdout
    assert "1 passed, 1 inconclusive" in plain.stdout and "I" in plain.stdout.splitlines()[-1] + plain.stdout
    assert "INCONCLUSIVE (they pass, undecided; --attncheck-strict fails them): gate/witness/undecided" in plain.stdout
    strict = _pytest(gate_file, "--attncheck-progress=off", "--attncheck-strict")
    assert strict.returncode == 1 and "1 failed, 1 passed" in strict.stdout
    assert "INCONCLUSIVE, which fails a strict run" in strict.stdout


def test_a_failing_exit_always_says_why(tmp_path):
    """A registered erratum whose stated claim is not refuted exits 1 with its reason, as pytest explains it."""
    f = tmp_path / "claims.py"
    f.write_text(USER_FILE.replace('domain=st.floats(0, 1), erratum=Erratum', 'domain=st.floats(0, 0.5), erratum=Erratum'))
    res = _cli("check", "mine/fact-3/stated", *SMALL, "--claims", str(f))
    assert res.returncode == 1
    assert "exit status 1: mine/fact-3/stated: an erratum is registered, but the stated claim was not refuted" \
        in res.stderr
    refuted = _cli("check", "mine/fact-1/false", *SMALL, "--claims", str(f))
    assert refuted.returncode == 1 and "exit status 1: mine/fact-1/false: REFUTED" in refuted.stderr
    assert refuted.stdout.splitlines()[2].startswith("Falsifying case: half(x=")  # first, as Hypothesis prints it
    assert "statement: x <= 1/2 on [0, 1]" in refuted.stdout


def _results(tmp, text, rc):
    """A quick report of a claims file at a tenth of its budgets: (the file, its results.json)."""
    (tmp / "claims.py").write_text(text)
    res = _cli("report", *SMALL, "--claims", str(tmp / "claims.py"), "--skip-experiments", "-n", "0",
               "--out", str(tmp / "rep"))
    assert res.returncode == rc, res.stdout + res.stderr
    return tmp / "claims.py", tmp / "rep" / "results.json"


@pytest.fixture(scope="module")
def user_results(tmp_path_factory):
    """The user file's report (exit 1: one planted claim is false)."""
    return _results(tmp_path_factory.mktemp("user"), USER_FILE, 1)


@pytest.fixture(scope="module")
def gate_results(tmp_path_factory):
    """The gate file's report (exit 0: its INCONCLUSIVE claim passes without --strict)."""
    return _results(tmp_path_factory.mktemp("gate"), GATE_FILE, 0)


def _with_verdict(results, tmp_path, cid, verdict, name="old.json"):
    doc = json.loads(results.read_text())
    next(c for c in doc["claims"] if c["id"] == cid)["verdict"] = verdict
    out = tmp_path / name
    out.write_text(json.dumps(doc))
    return out


def test_diff_of_a_report_with_itself_is_empty(user_results):
    res = _cli("diff", str(user_results[1]), str(user_results[1]))  # its REFUTED claim is no change
    assert res.returncode == 0 and "changes: none" in res.stdout and "regressions (--fail-on" in res.stdout


def test_diff_exits_1_on_a_regression_under_the_policy_and_writes_json(user_results, tmp_path):
    old = _with_verdict(user_results[1], tmp_path, "mine/fact-1/true", "CERTIFIED")  # NEW is then weaker
    res = _cli("diff", str(old), str(user_results[1]), "--json", str(tmp_path / "d.json"))
    assert res.returncode == 1 and "weaker        mine/fact-1/true: CERTIFIED -> HOLDS" in res.stdout
    assert json.loads((tmp_path / "d.json").read_text())["regressions"][0]["kind"] == "weaker"
    lenient = _cli("diff", str(old), str(user_results[1]), "--fail-on", "refuted,lost")
    assert lenient.returncode == 0 and "regressions (--fail-on refuted,lost): 0" in lenient.stdout
    assert _cli("diff", str(user_results[1]), str(old)).returncode == 0  # the other way round it is stronger


@pytest.mark.parametrize("args, message", [
    (("--fail-on", "sometimes"), "--fail-on takes a comma-separated list"),
    ((), "cannot read"),
])
def test_diff_input_errors_exit_2(user_results, tmp_path, args, message):
    res = _cli("diff", str(tmp_path / "missing.json") if not args else str(user_results[1]), str(user_results[1]),
               *args)
    assert res.returncode == 2 and message in res.stderr and "Traceback" not in res.stderr


def test_report_with_a_baseline_prints_the_changes_and_gates_on_them(gate_results, tmp_path):
    claims, results = gate_results
    old = _with_verdict(results, tmp_path, "gate/fact-1/true", "CERTIFIED")
    base = ("report", *SMALL, "--claims", str(claims), "--skip-experiments", "-n", "0", "--baseline")
    res = _cli(*base, str(old), "--out", str(tmp_path / "a"))
    assert res.returncode == 1 and "weaker        gate/fact-1/true: CERTIFIED -> HOLDS" in res.stdout
    assert "regressions (--fail-on refuted,erratum,weaker,lost): 1: gate/fact-1/true" in res.stdout
    lenient = _cli(*base, str(old), "--out", str(tmp_path / "b"), "--fail-on", "refuted")
    assert lenient.returncode == 0 and "regressions (--fail-on refuted): 0" in lenient.stdout
    same = _cli(*base, str(results), "--out", str(tmp_path / "c"))
    assert same.returncode == 0 and "changes: none" in same.stdout
    bad = _cli(*base, str(tmp_path / "missing.json"), "--out", str(tmp_path / "d"))
    assert bad.returncode == 2 and "cannot read" in bad.stderr and not (tmp_path / "d").exists()


def test_list_shows_verdicts_from_a_report_errata_and_natural_order(user_results, tmp_path):
    claims, results = user_results
    res = _cli("list", "--claims", str(claims), "--report", str(results))
    assert res.returncode == 0, res.stderr
    rows = [line.split() for line in res.stdout.splitlines() if line.startswith("mine/")]
    assert [r[0] for r in rows] == ["mine/fact-1/false", "mine/fact-1/true", "mine/fact-2/coin", "mine/fact-3/corrected",
                                    "mine/fact-3/stated"]
    assert rows[0][2] == "REFUTED" and rows[4][2:4] == ["ERRATUM", "erratum"]
    assert f"verdicts from {results}" in res.stdout and "1 with a registered erratum" in res.stdout
    fallback = _cli("list", "--paper", "bombari2024", cwd=tmp_path)  # no ./properties there
    assert fallback.returncode == 0 and fallback.stdout.startswith("no ./properties here: listing the package's own")
    ids = [line.split()[0] for line in fallback.stdout.splitlines() if line.startswith("bombari2024/eq-6.")]
    assert ids.index("bombari2024/eq-6.9/main") < ids.index("bombari2024/eq-6.10/main")
