"""Write the README's verdict tables ("What it found") from reports/results.json.

Run after regenerating the committed report: ``python tools/readme.py`` (tests/unit/test_readme.py checks them).
"""
import json
from pathlib import Path

from attncheck.report.md import verdict_tables

ROOT = Path(__file__).resolve().parents[1]
BEGIN, END = "<!-- verdicts:begin -->\n", "<!-- verdicts:end -->"


def with_tables(readme: str, doc: dict) -> str:
    head, rest = readme.split(BEGIN)
    return head + BEGIN + verdict_tables(doc) + END + rest.split(END, 1)[1]


if __name__ == "__main__":
    path = ROOT / "README.md"
    path.write_text(with_tables(path.read_text(), json.loads((ROOT / "reports" / "results.json").read_text())))
    print(f"wrote the verdict tables of {path}")
