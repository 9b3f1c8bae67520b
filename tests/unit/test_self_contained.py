"""Nothing in the repository cites a file outside it (the design notes and the papers live in docs/)."""
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = ("shared/papers", "../shared", "DESIGN.md")


def test_no_file_cites_a_path_outside_the_repository():
    files = subprocess.run(["git", "ls-files", "*.py", "*.md", "*.toml", "*.txt", ".ci/*"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split()
    hits = [f"{f}: {word}" for f in files if f != "tests/unit/test_self_contained.py"
            for word in OUTSIDE if word in (ROOT / f).read_text(errors="replace")]
    assert not hits, "\n".join(hits)
