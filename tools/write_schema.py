"""Write docs/results.schema.json, the JSON Schema of results.json generated from attncheck.core.record.

Run after changing the record: ``python tools/write_schema.py`` (tests/unit/test_record.py checks it is current).
"""
import json
from pathlib import Path

from attncheck.core.record import json_schema

PATH = Path(__file__).resolve().parents[1] / "docs" / "results.schema.json"

if __name__ == "__main__":
    PATH.write_text(json.dumps(json_schema(), indent=1) + "\n")
    print(f"wrote {PATH}")
