"""The results record (results.json), a public contract: its types, its JSON Schema and its validation.

Writers build records through :class:`ClaimRecord` and :class:`Results`; readers (the report, ``attncheck
diff``, a user's scripts) may rely on what :func:`json_schema` states. Evidence has common fields every claim
carries (:class:`Evidence`) and kind-specific ones (a path, a counterexample, a certification, ...), listed in
:data:`EVIDENCE_FIELDS`; ``docs/results-schema.md`` documents each.
"""
from __future__ import annotations

import dataclasses
import enum
import json
import math
import types
import typing
from dataclasses import dataclass, field
from typing import Any

from attncheck.core.claims import Kind, Verdict
from attncheck.core.reading import Reason

SCHEMA = "attncheck-results/2"  # /2: "reading" (structured) replaced "interpretation" (free-form)


def case_data(case: Any, limit: int = 4000) -> Any:
    """A case as JSON data (what a script reads, beside the ``case`` repr a person reads): dataclasses as
    {"type": name, field: value, ...}, arrays and tuples as lists, numpy and mpmath numbers as numbers (an mpf as
    its decimal string, a non-finite float as its repr); anything else as its repr. None where the JSON text would
    pass ``limit`` characters (the repr, cut, remains)."""
    def conv(x):
        if x is None or isinstance(x, (bool, int, str)):
            return x
        if isinstance(x, float):
            return x if math.isfinite(x) else repr(x)
        if dataclasses.is_dataclass(x) and not isinstance(x, type):
            return {"type": type(x).__name__, **{f.name: conv(getattr(x, f.name)) for f in dataclasses.fields(x)}}
        if isinstance(x, dict):
            return {str(k): conv(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [conv(v) for v in x]
        if hasattr(x, "tolist"):  # numpy arrays and scalars, torch tensors
            return conv(x.tolist())
        if type(x).__module__.startswith("mpmath"):
            return str(x)
        if isinstance(x, enum.Enum):
            return conv(x.value)
        return repr(x)

    out = conv(case)
    return out if len(json.dumps(out)) <= limit else None


@dataclass
class Budget:
    examples: int
    corners: int
    optimizer_starts: int
    optimizer_evals: int
    design: int
    scale: float | None = None  # only when the run scaled every budget (--scale)


@dataclass
class Escalation:
    """Float64 evaluations, how many went to mpmath, and how many no precision decided."""

    evaluated: int
    escalated: int
    undecided: int
    sign_flips: int
    max_dps: int
    exact: int = 0  # decided by exact evaluation after the last precision
    constants: int = 0  # violations that were the rounding of the evaluator's float constants


@dataclass
class Evidence:
    """The fields every claim's evidence carries."""

    profile: str
    seed: int
    seconds: float
    cost: str
    budget: Budget
    cases: int
    escalation: Escalation
    replay: str


#: kind-specific evidence fields, beside :class:`Evidence`'s (name -> JSON type or types)
EVIDENCE_FIELDS: dict[str, str | tuple[str, ...]] = {
    "path": "array", "series": "array", "worst": ("object", "null"), "refuted": ("boolean", "null"),
    "stages": ("object", "null"), "draws": "integer", "certification": "object", "counterexample": "object",
    "failing_case": "object", "error": "string", "traceback": "string", "reason": "string", "would_refute": "string",
    "strength": "string", "holds_from": ("object", "number", "integer", "array"),
    "implied_constant_max": ("number", "string"), "growth_exponent": ("number", "string"),
    "growth_exponent_ci": "array", "exact": "string", "growth_level": "number", "growth_over": "array", "resolution": "number",
    "tends_to": "number", "last_step_exponent": ("number", "string"), "last_step_exponent_ci": "array",
    "exactly_zero": "string",
    "estimates": "array", "curvature": "object", "limit": ("number", "string"), "limit_se": ("number", "string"),
    "limit_model": "string", "limit_fit_a": ("number", "string"), "limit_g": "number", "decide_with": "object",
    "extended": "object",
    "failure_trend": "object", "per_L": "array", "rate_across_L": ("number", "string"), "rate_across_L_ci95": "array",
    "alpha_per_test": "number", "alpha_per_claim": "number", "confirmation": "object", "suspects": "integer",
    "confirmed": "array", "undecided": "integer", "undecided_cases": "array", "float_constants": "object",
    "outside": "integer", "outside_case": "object", "cost_proxy": "object",
}


@dataclass
class Provenance:
    tag: str
    note: str


@dataclass
class UncheckedPart:
    part: str
    reason: str  # one of attncheck.core.reading.Reason's values
    why: str


@dataclass
class ReadingRecord:
    provenance: Provenance | None
    unchecked: list[UncheckedPart]
    shared: dict[str, str]
    notes: dict[str, str]


@dataclass
class ErratumRecord:
    corrected_id: str
    corrected_statement: str | None
    note: str


@dataclass
class Replication:
    seeds: list[int]
    verdicts: list[str]
    shares: dict[str, float]
    flips: bool


@dataclass
class ClaimRecord:
    id: str
    paper: str
    label: str
    part: str
    kind: str
    relation: str | None
    statement: str
    source: str
    reading: ReadingRecord
    verdict: str
    evidence: Evidence
    erratum: ErratumRecord | None
    replication: Replication | None = None  # `attncheck report --seeds K` only


@dataclass
class RunStatus:
    complete: bool
    reason: str | None


@dataclass
class Seeds:
    master: int | None
    profile: str | None
    derivation: str
    replicates: list[int] | None = None


@dataclass
class PaperRecord:
    title: str
    arxiv: str | None
    provenance_tags: list[str]


@dataclass
class Results:
    schema: str
    generated: str
    versions: dict[str, str | None]
    constraints: dict[str, Any] | None
    run: RunStatus
    seeds: Seeds
    papers: dict[str, PaperRecord]
    claims: list[ClaimRecord] = field(default_factory=list)


#: closed vocabularies, checked by the schema
ENUMS = {(ClaimRecord, "kind"): [k.value for k in Kind], (ClaimRecord, "verdict"): [v.value for v in Verdict],
         (Results, "schema"): [SCHEMA], (UncheckedPart, "reason"): [r.value for r in Reason]}


_JSON = {str: "string", int: "integer", float: "number", bool: "boolean", type(None): "null"}


def _schema_of(tp, defs: dict) -> dict:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [_schema_of(a, defs) for a in typing.get_args(tp)]}
    if origin is list:
        return {"type": "array", "items": _schema_of(typing.get_args(tp)[0], defs)}
    if origin is dict:
        return {"type": "object", "additionalProperties": _schema_of(typing.get_args(tp)[1], defs)}
    if tp is Any:
        return {}
    if tp is float:
        return {"type": ["number", "string"]}  # non-finite floats are written as strings ('inf', 'nan')
    if tp in _JSON:
        return {"type": _JSON[tp]}
    if dataclasses.is_dataclass(tp):
        name = tp.__name__
        if name not in defs:
            defs[name] = {}  # placeholder: recursion
            hints = typing.get_type_hints(tp)
            props, required = {}, []
            for f in dataclasses.fields(tp):
                props[f.name] = _schema_of(hints[f.name], defs)
                enum = ENUMS.get((tp, f.name))
                if enum:
                    props[f.name]["enum"] = enum
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                    required.append(f.name)
            if tp is Evidence:
                props.update({k: {"type": list(v) if isinstance(v, tuple) else v} for k, v in EVIDENCE_FIELDS.items()})
            defs[name] = {"type": "object", "properties": props, "required": required, "additionalProperties": False}
        return {"$ref": f"#/$defs/{name}"}
    raise TypeError(f"no JSON Schema for {tp!r}")


def json_schema() -> dict:
    """The JSON Schema (draft 2020-12) of results.json, generated from :class:`Results`."""
    defs: dict = {}
    root = _schema_of(Results, defs)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA,
            "title": "attncheck results", **root, "$defs": defs}


def validate(doc: dict) -> None:
    """Raise ``jsonschema.ValidationError`` where ``doc`` departs from the schema (needs the dev extra)."""
    import jsonschema

    jsonschema.validate(doc, json_schema(), cls=jsonschema.Draft202012Validator)
