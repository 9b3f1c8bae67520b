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


def test_case_data_gives_the_case_as_json_data():
    """`case_data` beside the `case` repr: dataclasses by field with their type, arrays as lists, numbers as
    numbers, an mpf as its decimal string; None past the limit (the cut repr remains)."""
    import dataclasses
    import enum

    import mpmath
    import numpy as np

    from attncheck.core.record import case_data

    class Act(enum.Enum):
        RELU = "relu"

    @dataclasses.dataclass
    class Case:
        n: int
        z: np.ndarray
        scale: object
        act: Act

    got = case_data(Case(3, np.array([[1.5, 2.0]]), mpmath.mpf("0.25"), Act.RELU))
    assert got == {"type": "Case", "n": 3, "z": [[1.5, 2.0]], "scale": "0.25", "act": "relu"}
    assert json.loads(json.dumps(got)) == got
    assert case_data({"x": np.float64(1.0), "k": (np.int64(2), float("inf"))}) == {"x": 1.0, "k": [2, "inf"]}
    assert case_data(np.zeros(5000)) is None
