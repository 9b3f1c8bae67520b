"""results.json is a typed, schema-versioned contract: the schema is generated from attncheck.core.record, the
committed docs/results.schema.json is that schema, the committed report validates, and a departure fails."""
import copy
import json
from pathlib import Path

import jsonschema
import pytest

from attncheck.core import record

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = json.loads((ROOT / "reports" / "results.json").read_text())


def test_the_schema_is_valid_and_the_committed_copy_is_current():
    schema = record.json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert json.loads((ROOT / "docs" / "results.schema.json").read_text()) == schema, \
        "docs/results.schema.json is stale: run python tools/write_schema.py"


def test_the_committed_report_validates():
    record.validate(COMMITTED)
    assert COMMITTED["schema"] == record.SCHEMA


def _broken(edit):
    doc = copy.deepcopy(COMMITTED)
    edit(doc)
    return doc


@pytest.mark.parametrize("what, edit", [
    ("an unknown verdict", lambda d: d["claims"][0].update(verdict="MAYBE")),
    ("an unknown kind", lambda d: d["claims"][0].update(kind="conjecture")),
    ("a missing replay command", lambda d: d["claims"][0]["evidence"].pop("replay")),
    ("an undocumented evidence field", lambda d: d["claims"][0]["evidence"].update(path_n=3)),
    ("an unchecked part without a reason", lambda d: d["claims"][0]["reading"]["unchecked"].append({"part": "x"})),
    ("an unknown reason", lambda d: d["claims"][0]["reading"]["unchecked"].append(
        {"part": "x", "reason": "too hard", "why": ""})),
    ("a free-form interpretation", lambda d: d["claims"][0].update(interpretation={})),
    ("an older schema", lambda d: d.update(schema="attncheck-results/1")),
])
def test_a_departure_from_the_schema_fails(what, edit):
    with pytest.raises(jsonschema.ValidationError):
        record.validate(_broken(edit))
