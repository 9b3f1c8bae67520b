"""A fifth paper is two folders: a package found by the registry (here through ATTNCHECK_PAPERS) and its claims.
It is listed, its claims run and are reported under its title, and its experiments run and are reported."""
import json
import os
import subprocess
import sys
import textwrap

PACKAGE = {
    "__init__.py": '''
        from attncheck.core.paper import Paper

        PAPER = Paper(key="throwaway2099", title="A Throwaway Paper on Softmax", arxiv="2099.00001",
                      experiments="experiments")
        ''',
    "models.py": '''
        import numpy as np


        def softmax_max(x, xp):
            """Eq. (1): the largest softmax weight, exp(max x - logsumexp x)."""
            m = np.max(x)
            return 1 / xp.sum(xp.exp(xp.asarray(x) - m))
        ''',
    "experiments.py": '''
        DESCRIPTIONS = {"throwaway2099-fig1": ("Figure 1", "the largest weight of a constant vector")}


        def entries(profile, out, seed, progress):
            progress("throwaway2099: Figure 1")
            return [{"id": "throwaway2099-fig1", "title": "Figure 1", "description": "1/n at constant scores",
                     "figures": [], "notes": [], "profile": profile, "seed": seed, "data": {"n": [2, 4]},
                     "verdict": {"agreement": "agrees", "details": ["exact"]}}]
        ''',
}
CLAIMS = '''
    from hypothesis import strategies as st

    from attncheck import Reading, claim, ge
    from attncheck.papers.throwaway2099.models import softmax_max


    @claim("throwaway2099/lemma-1/main", kind="inequality", source="throwaway2099 Lemma 1",
           statement=r"\\max_i \\mathrm{softmax}(x)_i \\ge 1/n",
           domain=st.lists(st.floats(-50, 50), min_size=1, max_size=8),
           reading=Reading(notes={"n": "every length 1..8"}))
    def lemma_1(x, xp):
        return ge(softmax_max(x, xp), 1 / xp.asarray(float(len(x))), xp)
    '''


def _run(*args, env, cwd):
    return subprocess.run([sys.executable, "-m", "attncheck", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=600)


def test_a_throwaway_paper_is_listed_run_and_reported(tmp_path):
    pkg = tmp_path / "papers" / "throwaway2099"
    pkg.mkdir(parents=True)
    for name, text in PACKAGE.items():
        (pkg / name).write_text(textwrap.dedent(text))
    claims = tmp_path / "properties" / "throwaway2099"
    claims.mkdir(parents=True)
    (claims / "test_lemmas.py").write_text(textwrap.dedent(CLAIMS))
    env = dict(os.environ, ATTNCHECK_PAPERS=str(tmp_path / "papers"))

    listed = _run("list", env=env, cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "throwaway2099/lemma-1/main" in listed.stdout
    assert "throwaway2099: 1 claims; A Throwaway Paper on Softmax (arXiv 2099.00001)" in listed.stdout

    out = tmp_path / "reports"
    exp = _run("experiments", "--paper", "throwaway2099", "--out", str(out), env=env, cwd=tmp_path)
    assert exp.returncode == 0, exp.stderr
    assert [x["id"] for x in json.loads((out / "experiments.json").read_text())["experiments"]] == \
        ["throwaway2099-fig1"]

    # the claim at a tenth of its budget: it holds at any budget, and this test checks the paper's registration
    rep = _run("report", "--profile", "quick", "--scale", "0.1", "--skip-experiments", "-n", "1", "--out", str(out),
               env=env, cwd=tmp_path)
    assert rep.returncode == 0, rep.stdout + rep.stderr
    doc = json.loads((out / "results.json").read_text())
    assert [(r["id"], r["verdict"]) for r in doc["claims"]] == [("throwaway2099/lemma-1/main", "HOLDS")]
    assert doc["papers"]["throwaway2099"]["title"] == "A Throwaway Paper on Softmax"
    page = (out / "throwaway2099.html").read_text()
    assert "A Throwaway Paper on Softmax (arXiv 2099.00001)" in page and "Figure 1" in page
    assert "throwaway2099" in (out / "index.html").read_text()
