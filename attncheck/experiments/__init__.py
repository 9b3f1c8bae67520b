"""Reproductions of the papers' numerical experiments, written to reports/.

Each paper's runner lives in its own module (``entries``) beside its ``DESCRIPTIONS``.
"""
from __future__ import annotations

import json
from pathlib import Path

from . import bombari2024_figures, deng2023_section7, goel2026_training, julistiono2024_synthetic

_PAPERS = (deng2023_section7, bombari2024_figures, julistiono2024_synthetic, goel2026_training)

#: experiment id -> (title, description), every paper's
DESCRIPTIONS = {key: value for mod in _PAPERS for key, value in mod.DESCRIPTIONS.items()}

#: one runner per paper: (profile, out_dir, seed, progress) -> experiment entries, each
#: {"id", "title", "description", "figures" (paths relative to out_dir), "notes",
#:  "profile", "seed", "data", "verdict"}; a runner seeds its own generator from ``seed``;
#: "verdict" ({"agreement": "agrees" | "partly" | "disagrees", "details": [...]}, see
#: :mod:`.agreement`) says whether the reproduction shows what the paper's figure shows.
RUNNERS = [mod.entries for mod in _PAPERS]


def run_all(profile: str, out_dir, seed: int = 0, progress=print, runners=None) -> Path:
    """Run every experiment (of ``runners``, default RUNNERS), write figures and experiments.json; return the JSON path."""
    out = Path(out_dir)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    entries = [e for runner in (RUNNERS if runners is None else runners) for e in runner(profile, out, seed, progress)]
    doc = {"experiments": entries}
    path = out / "experiments.json"
    path.write_text(json.dumps(doc, indent=1) + "\n")
    return path
