"""deng2023 Section 7: the runner that writes the entries of Figures 3, 4 and 5 in experiments.json."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from attncheck.core.agreement import success_sweeps
from attncheck.papers.deng2023.experiments import attention as deng2023_attention
from attncheck.papers.deng2023.experiments import toy as deng2023_toy

#: what the paper says its experiment figures show (Section 7: "the robustness of our theoretical results")
_DENG2023_CLAIM = "E_success happens with high probability"

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
}


def entries(profile: str, out: Path, seed: int, progress) -> list[dict]:
    """Section 7: Figures 3, 4 and 5: the entries of experiments.json."""
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
                "notes": notes, "profile": profile, "seed": seed, "data": res,
                "verdict": success_sweeps({"n sweep": res["n"], "m sweep": res["m"]}, _DENG2023_CLAIM)}]
    att = deng2023_attention.run(profile, rng, progress)
    title, desc = DESCRIPTIONS["deng2023-7.2"]
    entries.append({"id": "deng2023-7.2", "title": title, "description": desc,
                    "figures": deng2023_attention.figure(att, out), "notes": deng2023_attention.notes(att),
                    "profile": profile, "seed": seed, "data": att,
                    "verdict": success_sweeps({f"Figure {fig[-1]} ({name})": points for fig in ("figure4", "figure5")
                                               for name, points in att[fig]["panels"].items()}, _DENG2023_CLAIM)})
    return entries
