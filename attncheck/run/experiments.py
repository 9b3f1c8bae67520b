"""Reproductions of the papers' numerical experiments, written to reports/.

Each paper names its runner module in its ``PAPER`` record (:mod:`attncheck.papers`): ``entries`` beside
its ``DESCRIPTIONS``.
"""
from __future__ import annotations

import json
from pathlib import Path

from attncheck import papers
from attncheck.run import threads


def _modules(keys=None) -> list:
    known = papers.registry()
    chosen = known.values() if keys is None else [known[k] for k in keys]
    return [m for m in map(papers.experiments_module, chosen) if m is not None]


def descriptions() -> dict:
    """experiment id -> (title, description), every paper's."""
    return {key: value for mod in _modules() for key, value in mod.DESCRIPTIONS.items()}


def all_runners(keys=None) -> list:
    """One runner per paper: (profile, out_dir, seed, progress) -> experiment entries, each
    {"id", "title", "description", "figures" (paths relative to out_dir), "notes", "profile", "seed", "data",
    "verdict"}; a runner seeds its own generator from ``seed``; "verdict" ({"agreement": "agrees" | "partly" |
    "disagrees", "details": [...]}, see :mod:`attncheck.core.agreement`) says whether the reproduction shows
    what the paper's figure shows. ``keys``: only these papers' (default: every registered paper's)."""
    return [mod.entries for mod in _modules(keys)]


def run_all(profile: str, out_dir, seed: int = 0, progress=print, runners=None, keep=()) -> Path:
    """Run every experiment (of ``runners``, default every paper's), write figures and experiments.json (after the
    entries in ``keep``, other papers' entries carried over); return the JSON path."""
    out = Path(out_dir)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    entries = [e for runner in (all_runners() if runners is None else runners) for e in run(runner, profile, out, seed, progress)]
    return write(out, [*keep, *entries])


def run(runner, profile: str, out_dir, seed: int, progress) -> list[dict]:
    """One runner's entries, with the thread limits of the claims (:func:`attncheck.run.threads.one_thread`), in
    every front end (in process, the report's child, a Dask task)."""
    with threads.one_thread():
        return runner(profile, Path(out_dir), seed, progress)


def write(out_dir, entries: list[dict]) -> Path:
    """experiments.json of these entries (the one writer of the file); return its path."""
    path = Path(out_dir) / "experiments.json"
    path.write_text(json.dumps({"experiments": entries}, indent=1) + "\n")
    return path
