"""The console script and python -m attncheck."""
import json
import subprocess
import sys

from test_plugin import USER_FILE


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
    ok = _cli("check", "mine/fact-1/true", "--claims", str(f), "--json", str(tmp_path / "r.json"))
    assert ok.returncode == 0 and "HOLDS" in ok.stdout
    assert json.loads((tmp_path / "r.json").read_text())["verdict"] == "HOLDS"
    bad = _cli("check", "mine/fact-1/false", "--claims", str(f))
    assert bad.returncode == 1 and "REFUTED" in bad.stdout and "counterexample" in bad.stdout
    errata = _cli("check", "mine/fact-3/stated", "--claims", str(f))
    assert errata.returncode == 0 and "ERRATUM" in errata.stdout


def test_check_a_paper_claim_with_progress():
    res = _cli("check", "deng2023/lemma-4.2/part-2", "--profile", "quick", "--seed", "3")
    assert res.returncode == 0, res.stdout + res.stderr
    assert "n = 2:" in res.stdout and "HOLDS" in res.stdout and "seed 3" in res.stdout


def test_unknown_claim_and_bad_profile_fail_clearly():
    res = _cli("check", "deng2023/lemma-9.9/main")
    assert res.returncode != 0 and "no claim with id" in res.stderr
    res = _cli("check", "deng2023/lemma-4.2/part-2", "--profile", "huge")
    assert res.returncode != 0 and "invalid choice" in res.stderr


def test_console_script_is_installed():
    res = subprocess.run(["attncheck", "--help"], capture_output=True, text=True)
    assert res.returncode == 0 and "report" in res.stdout


def test_replay_does_not_depend_on_which_modules_are_loaded(tmp_path):
    # Hypothesis can draw literals of loaded local modules; attncheck switches that off
    (tmp_path / "noise.py").write_text("A = 0.7\nB = 0.099999\nC = 13.7\nD = 1e-05\nE = 'x'\n")
    plain = tmp_path / "plain.json"
    noisy = tmp_path / "noisy.json"
    cid = "deng2023/lemma-4.1/part-2"
    _cli("check", cid, "--json", str(plain))
    code = ("import sys; sys.path.insert(0, %r); import noise; from attncheck.cli import main; "
            "main(['check', %r, '--json', %r])" % (str(tmp_path), cid, str(noisy)))
    subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    a, b = (json.loads(p.read_text()) for p in (plain, noisy))
    for rec in (a, b):
        rec["evidence"].pop("seconds")
    assert a == b
