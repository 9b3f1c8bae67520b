"""Run one claim and decide its verdict; see ``INTERNALS.md`` beside this file.

Stages: :mod:`.search` (corners, Hypothesis, optimizer) drives :mod:`.checks` (one
check per kind) at each path point; :mod:`.verdict` turns the points into a verdict;
:mod:`.run` ties them together and writes the results.json record.
"""
from attncheck.engine.checks import case_rng, take
from attncheck.engine.run import alpha_per_test, record, run

__all__ = ["run", "record", "case_rng", "take", "alpha_per_test"]
