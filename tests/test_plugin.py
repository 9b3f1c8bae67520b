"""The pytest plugin end to end, on a user's claims file outside the repository."""
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

USER_FILE = textwrap.dedent('''
    import numpy as np
    from hypothesis import strategies as st
    from attncheck import Erratum, claim, ge, le, lt

    @claim("mine/fact-1/true", kind="inequality", statement="x^2 >= 0", source="user",
           domain=st.floats(-1e3, 1e3))
    def square_nonnegative(x, xp):
        x = xp.asarray(x)
        return ge(x * x, 0.0 * x, xp)

    @claim("mine/fact-1/false", kind="inequality", statement="x <= 1/2 on [0, 1]", source="user",
           domain=st.floats(0, 1))
    def half(x, xp):
        return le(xp.asarray(x), 0.5, xp)

    @claim("mine/fact-2/coin", kind="probabilistic", statement="Pr[heads] >= 0.5", source="user",
           domain=st.just(0.5), sample=lambda c, rng, size: rng.random(size), probability=0.5)
    def coin(p, u, xp):
        return lt(xp.asarray(u), p, xp)

    @claim("mine/fact-3/stated", kind="inequality", statement="x <= 0.9 on [0, 1]", source="user",
           domain=st.floats(0, 1), erratum=Erratum("mine/fact-3/corrected", "holds on [0, 0.9] only"))
    def stated(x, xp):
        return le(xp.asarray(x), 0.9, xp)

    @claim("mine/fact-3/corrected", kind="inequality", statement="x <= 0.9 on [0, 0.9]", source="user",
           domain=st.floats(0, 0.9))
    def corrected(x, xp):
        return le(xp.asarray(x), 0.9, xp)
''')


def _pytest(tmp_path, *args, name="my_claims.py", text=USER_FILE):
    f = tmp_path / name
    f.write_text(text)
    return subprocess.run([sys.executable, "-m", "pytest", str(f), "-p", "no:cacheprovider", *args],
                          capture_output=True, text=True, cwd=tmp_path, timeout=600)


def _records(out_dir):
    doc = json.loads((out_dir / "results.json").read_text())
    return doc, {r["id"]: r for r in doc["claims"]}


def test_user_file_verdicts_exit_status_and_counterexample(tmp_path):
    res = _pytest(tmp_path, "-n", "0", "--attncheck-report", str(tmp_path / "rep"))
    assert res.returncode == 1, res.stdout
    out = res.stdout
    assert "mine/fact-1/false: REFUTED" in out
    assert "counterexample" in out and "replay: attncheck check mine/fact-1/false" in out
    assert "4 passed" in out and "1 failed" in out
    _, recs = _records(tmp_path / "rep")
    assert recs["mine/fact-1/true"]["verdict"] == "HOLDS"
    assert recs["mine/fact-1/false"]["verdict"] == "REFUTED"
    assert recs["mine/fact-2/coin"]["verdict"] == "HOLDS"
    assert recs["mine/fact-3/stated"]["verdict"] == "ERRATUM"
    assert recs["mine/fact-3/stated"]["erratum"]["corrected_statement"] == "x <= 0.9 on [0, 0.9]"
    assert recs["mine/fact-3/corrected"]["verdict"] == "HOLDS"


def test_results_json_schema(tmp_path):
    _pytest(tmp_path, "-n", "0", "--attncheck-report", str(tmp_path / "rep"))
    doc, recs = _records(tmp_path / "rep")
    assert doc["schema"] == "attncheck-results/1"
    assert set(doc) == {"schema", "generated", "versions", "seeds", "claims"}
    assert doc["seeds"]["master"] == 0 and doc["versions"]["numpy"]
    keys = {"id", "paper", "label", "part", "kind", "statement", "source", "interpretation", "verdict",
            "evidence", "erratum"}
    for r in doc["claims"]:
        assert keys <= set(r)
        assert r["verdict"] in {"HOLDS", "CERTIFIED", "REFUTED", "ERRATUM", "INCONCLUSIVE", "ERROR"}
        assert r["id"] == "/".join([r["paper"], r["label"], r["part"]])
    assert (tmp_path / "rep" / "summary.md").read_text().count("mine/fact-") >= 5


def _strip(recs):
    for r in recs.values():
        r["evidence"].pop("seconds")
    return recs


def test_xdist_aggregation_matches_a_single_process(tmp_path):
    one = _pytest(tmp_path, "-n", "0", "--attncheck-report", str(tmp_path / "one"))
    two = _pytest(tmp_path, "-n", "2", "--attncheck-report", str(tmp_path / "two"))
    assert one.returncode == two.returncode == 1
    a, b = _strip(_records(tmp_path / "one")[1]), _strip(_records(tmp_path / "two")[1])
    assert sorted(a) == sorted(b) and len(a) == 5  # nothing lost, nothing counted twice
    assert a == b  # identical verdicts, counts and evidence
    assert "received twice" not in two.stdout


def test_erratum_is_a_strict_expected_failure(tmp_path):
    text = USER_FILE.replace('domain=st.floats(0, 1), erratum=', 'domain=st.floats(0, 0.5), erratum=')
    res = _pytest(tmp_path, "-n", "0", "-k", "fact-3", text=text)
    assert res.returncode == 1
    assert "an erratum is registered, but the stated claim was not refuted" in res.stdout


def test_fresh_randomness_is_recorded(tmp_path):
    res = _pytest(tmp_path, "-n", "2", "-k", "coin", "--attncheck-fresh", "--attncheck-report", str(tmp_path / "r"))
    assert res.returncode == 0, res.stdout
    doc, _ = _records(tmp_path / "r")
    seed = doc["seeds"]["master"]
    assert f"seed {seed}" in res.stdout


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


def test_readme_example_runs_as_documented(tmp_path):
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    section = readme[readme.index("## Writing your own claims"):]
    code = section[section.index("```python") + len("```python"):]
    code = code[:code.index("```")]
    res = _pytest(tmp_path, "-n", "2", "--attncheck-report", str(tmp_path / "rep"), text=code)
    assert res.returncode == 0, res.stdout
    _, recs = _records(tmp_path / "rep")
    assert {r["verdict"] for r in recs.values()} == {"HOLDS", "ERRATUM"} and len(recs) == 6
