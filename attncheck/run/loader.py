"""The one importer of claim files: by path, so that equal stems in two folders both load."""
from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

from attncheck.core.claims import REGISTRY, Claim
from attncheck.run.replay import default_properties

SKIPPED = ("__init__.py", "conftest.py")


class LoadError(Exception):
    """A claims file or folder that is missing or does not import (an input error, exit status 2)."""


def module_name(path: Path) -> str:
    """The module name of a claims file: unique per resolved path."""
    return "attncheck_claims." + re.sub(r"\W", "_", str(path.resolve()).lstrip("/"))


def files(targets: list[Path]) -> list[Path]:
    """Every claims file of the targets (a .py file, or the .py files of a folder and its subfolders)."""
    out = []
    for target in targets:
        if not target.exists():
            raise LoadError(f"no such claims file or folder: {target}")
        found = sorted(target.rglob("*.py")) if target.is_dir() else [target]
        out += [f for f in found if f.name not in SKIPPED]
    return out


def load(paths: list[str | Path] | None = None) -> list[Claim]:
    """Import the claim files (default: ./properties, else the package's own) into the registry; return the
    claims they define, in id order."""
    targets = [Path(p) for p in paths] if paths else [default_properties()]
    defined = set()
    for f in files(targets):
        name = module_name(f)
        if name not in sys.modules:
            spec = importlib.util.spec_from_file_location(name, f)
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            try:
                spec.loader.exec_module(module)
            except SyntaxError as e:
                del sys.modules[name]
                raise LoadError(f"cannot load claims file {f}: syntax error at line {e.lineno}: {e.msg}") from None
            except Exception as e:  # a claims file that does not import is an input error, not a crash
                del sys.modules[name]
                raise LoadError(f"cannot load claims file {f}: {type(e).__name__}: {e}") from None
        defined |= {c.id for c in REGISTRY if _defined_in(c, f)}
    return [c for c in REGISTRY if c.id in defined]


def _defined_in(claim: Claim, path: Path) -> bool:
    code = getattr(claim.evaluate, "__code__", None)
    return code is not None and Path(code.co_filename).resolve() == path.resolve()
