"""Where claims are looked up by default, and the command that replays one claim."""
from __future__ import annotations

import shlex
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def default_properties() -> Path:
    """./properties if present, else the properties/ folder beside the installed package."""
    here = Path.cwd() / "properties"
    return here if here.is_dir() else REPO / "properties"


def claims_file(claim) -> Path | None:
    """The file that defines a claim (None when it was not defined in a file)."""
    name = getattr(getattr(claim.evaluate, "__code__", None), "co_filename", "")
    path = Path(name)
    return path.resolve() if name and path.is_file() else None


def command(claim, profile: str, seed: int, scale: float = 1.0) -> str:
    """``attncheck check ID ...``, with ``--claims /absolute/FILE`` when the claim is not under ./properties (the
    command then replays from any directory)."""
    parts = ["attncheck", "check", claim.id, "--profile", profile]
    if scale != 1.0:
        parts += ["--scale", f"{scale:g}"]
    parts += ["--seed", str(seed)]
    f = claims_file(claim)
    defaults = {default_properties().resolve(), (REPO / "properties").resolve()}
    if f is not None and not defaults & set(f.parents):
        parts += ["--claims", str(f)]
    return " ".join(shlex.quote(p) for p in parts)
