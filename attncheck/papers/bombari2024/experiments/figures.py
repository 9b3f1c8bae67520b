"""bombari2024 Figures 2, 3 and 4: the runner that writes their entries of experiments.json."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from attncheck.papers.bombari2024.experiments import generalization as bombari2024_generalization
from attncheck.papers.bombari2024.experiments import ws as bombari2024_ws

DESCRIPTIONS = {
    "bombari2024-ws": (
        "bombari2024 Figures 2 and 3: word sensitivity against the context length n",
        "RF for several d and DRF for L in {2, 4, 8} (Figure 2), RAF and ReLU-RAF (Figure 3), perturbing token 0 "
        "as the paper does. Synthetic token matrices (rows i.i.d. N(0, I_d) rescaled to norm sqrt(d)) replace the "
        "paper's BERT-Base imdb embeddings, which cannot be downloaded here. RF/DRF points are brackets: ascent "
        "lower bound and certified Lemma B.1 / C.2 upper bound.",
    ),
    "bombari2024-generalization": (
        "bombari2024 Figure 4: test error against gamma for fine-tuned and re-trained RF, RAF, ReLU-RAF",
        "Err (6.7) on (X^1(Delta), -y) against the smallest gamma of Assumption 2, N in {100, 700, 1300}; Delta from "
        "the losses (6.16) (circles) or the test error (crosses). Synthetic data (normalized Gaussian rows, labels "
        "sign(<flat X, u>)) replace the BERT-Base imdb embeddings.",
    ),
}


def entries(profile: str, out: Path, seed: int, progress) -> list[dict]:
    """Figures 2, 3 and 4 (synthetic token matrices): the entries of experiments.json."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, 2024]))
    entries = []
    res = bombari2024_ws.run(profile, rng, progress)
    title, desc = DESCRIPTIONS["bombari2024-ws"]
    g = bombari2024_ws.GRIDS[profile]
    notes = [f"{res['trials']} trials per point (one draw of the weights and of X each); profile {profile}; seed {seed}.",
             "Synthetic tokens, not BERT-Base imdb: the curves are not the paper's numbers, only its setting.",
             f"DRF at d = {g['drf_d']} (the paper's d = 768 needs k = D up to 61440, D x D layers of 30 GB each; the "
             "certified upper bound needs the operator norm of every k x k layer, O(k^3)).",
             "RF/DRF: lower = projected gradient ascent (4 restarts, 60 steps), upper = certified bound of token 0."]
    for r in res["beyond"]["rf"] + res["beyond"]["raf"]:
        notes.append(f"beyond the paper: n = {r['n']}, d = {r['d']}: lower {r['lower']:.4g}"
                     + (f", certified upper {r['upper']:.4g}" if r.get("upper") is not None else "")
                     + f" ({r['seconds']:.1f} s)")
    entries.append({"id": "bombari2024-ws", "title": title, "description": desc,
                    "figures": bombari2024_ws.figures(res, out), "notes": notes, "profile": profile, "seed": seed,
                    "data": res, "verdict": bombari2024_ws.agreement(res)})
    gen = bombari2024_generalization.run(profile, rng, progress)
    title, desc = DESCRIPTIONS["bombari2024-generalization"]
    notes = [f"{gen['trials']} trials per panel; d = {gen['d']}; theta_0 = 0; profile {profile}; seed {seed}.",
             f"One trial draws the weights, {max(gen['N']) + 1} samples and the test sample once; N in {gen['N']} "
             "uses the first N samples (nested), so each point has the law of an independent simulation and the "
             "points of one trial are dependent across N.",
             "Synthetic data, not BERT-Base imdb.",
             "Points below (2 - gamma)^2 per panel and mode: " + ", ".join(f"{k}: {v}" for k, v in gen["below_bound"].items())]
    entries.append({"id": "bombari2024-generalization", "title": title, "description": desc,
                    "figures": [bombari2024_generalization.figure(gen, out)], "notes": notes, "profile": profile,
                    "seed": seed, "data": gen, "verdict": bombari2024_generalization.agreement(gen)})
    return entries
