"""Reproductions of the papers' numerical experiments, written to reports/."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from . import deng2023_attention, deng2023_toy, goel2026_training

DESCRIPTIONS = {
    "deng2023-7.1": (
        "deng2023 Section 7.1 (Figure 3): softmax regression model",
        "Success ratio of E_success = [F_exp(A1) > 0, F_lin(A1) = 0, F_exp(A0) = 0, F_lin(A0) = 0] for "
        "n in [100, 2000] (m = log n), for m in [1, 100] at n = 1000, and (not in the paper) for the "
        "threshold tau at n = 1000. Datasets: i.i.d. uniform scores in [log n, 1.4 log n] (Definition 3.8), "
        "fresh per trial; one Rademacher network y per trial.",
    ),
    "deng2023-7.2": (
        "deng2023 Section 7.2 (Figures 4 and 5): self-attention",
        "Success ratio of E_success = [F_exp(D1) > 0, F_lin(D1) = 0, F_exp(D0) = 0, F_lin(D0) = 0] for the "
        "Definition D.1 datasets under QK^T = I_d (Figure 4) and QK^T = 1_{d x d} (Figure 5), six sweeps each "
        "(n, d, m, c, a0, a1) with the parameters Section 7.2 states; thin lines: each of the four events.",
    ),
    "goel2026-a": (
        "goel2026 Appendix A (Figures 1 and 2): Algorithm 1 vs SGD",
        "Excess population loss (closed form, Theorem 1.1) of Algorithm 1 (spectral start) vs SGD (random N(0, 1) "
        "start), and of both from the same random start with the same step size and minibatches; sweeps of n "
        "(statistical floor) and of t (geometric phase). Deep: Algorithm 1 at d = 64, n = 10^5.",
    ),
}


def _goel2026(profile: str, out: Path, seed: int, progress) -> list[dict]:
    """goel2026 Appendix A: Figures 1 and 2, sweeps of n and T."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, 2026]))
    res = goel2026_training.run(profile, rng, progress)
    title, desc = DESCRIPTIONS["goel2026-a"]
    return [{"id": "goel2026-a", "title": title, "description": desc,
             "figures": goel2026_training.figure(res, out), "notes": goel2026_training.notes(res),
             "profile": profile, "seed": seed, "data": res}]


def _deng2023(profile: str, out: Path, seed: int, progress) -> list[dict]:
    """deng2023 Section 7: Figures 3, 4 and 5."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, 71]))
    res = deng2023_toy.run(profile, rng, progress)
    fig = Path("figures") / "deng2023_figure3.png"
    deng2023_toy.figure(res, out / fig)
    title, desc = DESCRIPTIONS["deng2023-7.1"]
    tau_best = max(res["tau"], key=lambda r: r["ratio"])
    notes = [
        f"{res['trials']} trials per point; profile {profile}; seed {seed}.",
        f"The paper does not state tau; tau = {deng2023_toy.TAU} here. Best tau on the sweep: "
        f"{tau_best['x']} (ratio {tau_best['ratio']:.3f}).",
        "m = log n is rounded to the nearest integer (at least 1).",
        "Dashed: 1 - 2^-m, the probability that some column of y has +1 at the spike (F_exp(A1) > 0).",
    ]
    entries = [{"id": "deng2023-7.1", "title": title, "description": desc, "figures": [fig.as_posix()],
                "notes": notes, "profile": profile, "seed": seed, "data": res}]
    att = deng2023_attention.run(profile, rng, progress)
    title, desc = DESCRIPTIONS["deng2023-7.2"]
    entries.append({"id": "deng2023-7.2", "title": title, "description": desc,
                    "figures": deng2023_attention.figure(att, out), "notes": deng2023_attention.notes(att),
                    "profile": profile, "seed": seed, "data": att})
    return entries


#: one runner per paper: (profile, out_dir, seed, progress) -> experiment entries, each
#: {"id", "title", "description", "figures" (paths relative to out_dir), "notes",
#:  "profile", "seed", "data"}; a runner seeds its own generator from ``seed``.
RUNNERS = [_deng2023, _goel2026]


def run_all(profile: str, out_dir, seed: int = 0, progress=print) -> Path:
    """Run every experiment, write figures and experiments.json; return the JSON path."""
    out = Path(out_dir)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    entries = [e for runner in RUNNERS for e in runner(profile, out, seed, progress)]
    doc = {"experiments": entries}
    path = out / "experiments.json"
    path.write_text(json.dumps(doc, indent=1) + "\n")
    return path
