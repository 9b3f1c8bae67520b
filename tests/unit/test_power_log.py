"""``attncheck bench --power --log``: each run is appended as it ends, and a logged run is not run again."""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tools import power  # noqa: E402

SUITE = '''
from attncheck import Real, Space, claim, ge
from attncheck.core.claims import Registry

POWER = Registry()
FAMILIES = {"line": "x >= 0.5 on [0, 1] (false) vs x >= 0 (twin)"}
for which, floor in (("false", 0.5), ("twin", 0.0)):
    claim(f"power/line/{which}", source="planted", registry=POWER, space=Space(x=Real(0, 1)), cost="cheap",
          kind="inequality", statement=f"x >= {floor}")(lambda c, xp, floor=floor: ge(xp.asarray(c["x"]), xp.asarray(floor), xp))
'''


def test_a_logged_run_is_read_not_run_again(tmp_path):
    suite = tmp_path / "suite.py"
    suite.write_text(SUITE)
    log = tmp_path / "runs.jsonl"
    log.write_text(json.dumps(["power/line/false", "quick", 0, "HOLDS", None, 0.0]) + "\n")  # planted: not rerun
    rows = power.measure(suite, seeds=1, profiles=("quick",), workers=1, log=log)
    assert rows[0]["power"] == 0.0  # the logged verdict, not a fresh run (which refutes x >= 0.5)
    runs = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r[:4] for r in runs[1:]] == [["power/line/twin", "quick", 0, "HOLDS"]]
    log.unlink()
    assert power.measure(suite, seeds=1, profiles=("quick",), workers=1, log=log)[0]["power"] == 1.0
    assert len(log.read_text().splitlines()) == 2
