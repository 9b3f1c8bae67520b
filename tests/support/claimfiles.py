"""The repository's claim files, loaded as `attncheck` loads them (by path), for tests of their helpers."""
import sys
from pathlib import Path

from attncheck.run import loader

PROPERTIES = Path(__file__).resolve().parents[2] / "properties"


def module(paper: str, stem: str):
    """properties/<paper>/<stem>.py, loaded (its claims registered) and returned as a module."""
    path = PROPERTIES / paper / f"{stem}.py"
    loader.load([path])
    return sys.modules[loader.module_name(path)]
