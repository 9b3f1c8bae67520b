"""Tests of attncheck itself, in tiers: unit/, engine/ (planted false claims and true twins), integration/
(whole runs: CLI, plugin, Dask, report pages), papers/ (each paper's models and claims). Shared planted suites
and fixtures live in support/."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "support"))
