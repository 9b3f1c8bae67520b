"""Report directories that are never half-written: stage beside, move into place when done.

A report is written into a fresh directory next to its destination, with a ``PARTIAL``
marker, and moved into place only at the end. A partial report (a subset of the claims,
an interrupted run, a lower profile) never replaces a complete one unless asked: it goes
to ``<dest>-partial`` instead.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

MARKER = "PARTIAL"
PROFILE_RANK = {"quick": 0, "deep": 1}


class OutputError(Exception):
    """The report's destination cannot be written (raised before any claim runs)."""


def check_writable_file(path) -> None:
    """Fail now if ``path`` (a file to write later) cannot be created."""
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise OutputError(f"cannot write {p}: it is a directory")
    if not parent.is_dir():
        raise OutputError(f"cannot write {p}: no such directory {parent}")
    if not os.access(parent, os.W_OK):
        raise OutputError(f"cannot write {p}: directory {parent} is not writable")


@dataclass
class Status:
    """What a run produced: complete, or partial and why."""

    complete: bool
    reason: str = ""
    claims: int = 0
    profile: str | None = None

    def to_json(self) -> dict:
        return {"complete": self.complete, "reason": self.reason or None}


def existing(dest) -> dict | None:
    """The complete report at ``dest`` (its results.json), or None if none is there."""
    d = Path(dest)
    if (d / MARKER).exists() or not (d / "results.json").is_file():
        return None
    try:
        doc = json.loads((d / "results.json").read_text())
    except (OSError, ValueError):
        return None
    return doc if doc.get("run", {}).get("complete", True) else None


def refusal(dest, status: Status, ids: set[str]) -> str | None:
    """Why this run may not replace the report at ``dest`` (None: it may)."""
    old = existing(dest)
    if old is None:
        return None
    if not status.complete:
        return f"this run is partial ({status.reason})"
    dropped = {c["id"] for c in old.get("claims", [])} - ids
    if dropped:
        return f"this run lacks {len(dropped)} of its {len(old.get('claims', []))} claims"
    old_prof = old.get("seeds", {}).get("profile")
    if PROFILE_RANK.get(status.profile, 0) < PROFILE_RANK.get(old_prof, 0):
        return f"this run's profile {status.profile} is below its profile {old_prof}"
    return None


class Staging:
    """A temporary report directory beside ``dest``, moved into place by :meth:`commit`."""

    def __init__(self, dest, replace: bool = False, copy_from_dest: bool = False, flag: str = "--replace"):
        self.dest = Path(dest)
        self.replace, self.flag = replace, flag
        parent = self.dest.parent
        try:
            if parent.exists() and not parent.is_dir():
                raise OutputError(f"cannot write the report to {self.dest}: {parent} is not a directory")
            if self.dest.exists() and not self.dest.is_dir():
                raise OutputError(f"cannot write the report to {self.dest}: it is not a directory")
            parent.mkdir(parents=True, exist_ok=True)
            self.path = Path(tempfile.mkdtemp(prefix=f".{self.dest.name}.", suffix=".tmp", dir=parent))
            self.path.chmod(0o755)
            (self.path / MARKER).write_text("being written\n")
            if copy_from_dest and self.dest.is_dir():
                shutil.copytree(self.dest, self.path, dirs_exist_ok=True,
                                ignore=shutil.ignore_patterns(MARKER))
            (self.path / "figures").mkdir(exist_ok=True)
        except OSError as e:
            raise OutputError(f"cannot write the report to {self.dest}: {e.strerror or e}") from None

    def mark(self, status: Status) -> None:
        """Leave the PARTIAL marker (with its reason) on a partial report; drop it on a complete one."""
        marker = self.path / MARKER
        if status.complete:
            marker.unlink(missing_ok=True)
        else:
            marker.write_text(f"partial report: {status.reason}\n")

    def commit(self, status: Status, ids: set[str]) -> tuple[Path, str]:
        """Move the staged report into place; return (where it went, one line saying so)."""
        self.mark(status)
        why = None if self.replace else refusal(self.dest, status, ids)
        target = self.dest.with_name(self.dest.name + "-partial") if why else self.dest
        swap(self.path, target)
        if why:
            return target, (f"{self.dest} holds a complete report and {why}: kept it, wrote this one to {target} "
                            f"(pass {self.flag} to replace it)")
        state = "complete" if status.complete else f"PARTIAL: {status.reason}"
        return target, f"report written to {target} ({state})"

    def abandon(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


def swap(new: Path, target: Path) -> None:
    """Put directory ``new`` at ``target``, replacing what was there in two renames."""
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{os.getpid()}")
        shutil.rmtree(old, ignore_errors=True)
        target.rename(old)
    new.rename(target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
