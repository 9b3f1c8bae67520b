"""The README stays short and its verdict tables are the committed report's."""
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tools.readme import with_tables  # noqa: E402


def test_readme_is_short_and_its_tables_are_the_committed_reports():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.encode()) < 8000
    doc = json.loads((ROOT / "reports" / "results.json").read_text())
    assert with_tables(readme, doc) == readme, "README tables are stale: run python tools/readme.py"


def test_readme_lists_the_xp_functions_of_the_numeric_interface():
    from attncheck.numeric.backend import FUNCTIONS

    readme = (ROOT / "README.md").read_text()
    listed = readme[readme.index("`xp` provides"):readme.index("there is no")]
    assert re.findall(r"`(\w+)`", listed)[1:] == list(FUNCTIONS)
