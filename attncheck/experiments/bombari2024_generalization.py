"""bombari2024 Figure 4: test error (6.7) on (X^1(Delta), -y) against the smallest gamma of Assumption 2,
for the fine-tuned (6.5) and re-trained (6.6) GLM on RF, RAF and ReLU-RAF features.

Synthetic data replace the BERT-Base imdb embeddings (not available offline), following the
authors' synthetic convention: rows i.i.d. N(0, I_d) rescaled to norm sqrt(d), labels
y = sign(<flat X, u>) with u ~ N(0, I_D / D). Delta (token 0, ||Delta|| <= sqrt d) is found
either by minimising the losses (6.16) (circles) or the test error itself (crosses).
theta_0 = 0. Every point is one simulation with fresh data and weights.
"""
from __future__ import annotations

import numpy as np
import torch

from .. import precision
from ..data.token_matrices import iid_samples
from ..devices import torch_device
from ..models import glm
from ..models import random_features as rf
from ..models.word_sensitivity import maximize

RESTARTS, STEPS = 4, 60
GRIDS = {
    "quick": {"d": 16, "n_raf": [8, 16], "n_rf": 8, "N": [20, 60, 100], "trials": 1},
    "deep": {"d": 768, "n_raf": [40, 120], "n_rf": 40, "N": [100, 700, 1300], "trials": 10},
}


def _feature_map(model: str, n: int, d: int, gen, dev):
    """X (..., n, d) -> flat features (..., p)."""
    if model == "rf":
        V = rf.gaussian((n * d, n * d), 1.0 / (n * d), gen, dev)
        return lambda X: rf.rf_features(X, V, "relu")
    att = rf.raf(rf.gaussian((d, d), 1.0 / d, gen, dev), "softmax" if model == "raf" else "relu")
    return lambda X: att(X).flatten(-2)


def simulation(model: str, n: int, d: int, N: int, gen, rng, dev) -> list[dict]:
    """One simulation: both training modes x both Delta searches; returns (mode, search, gamma, err) rows."""
    D = n * d
    u = rng.standard_normal(D) / np.sqrt(D)
    Xs = iid_samples("gaussian", N + 1, n, d, rng)
    ys = np.sign(Xs.reshape(N + 1, -1) @ u)
    ys[ys == 0] = 1.0
    feat = _feature_map(model, n, d, gen, dev)
    with torch.no_grad():
        F_all = torch.cat([feat(torch.as_tensor(Xs[s:s + 100], device=dev)) for s in range(0, N + 1, 100)]).cpu().numpy()
    Phi, phi, Y, y = F_all[:N], F_all[N], ys[:N], float(ys[N])
    xp = precision.F64
    theta0 = np.zeros(Phi.shape[1])
    ts = glm.theta_star(Phi, Y, theta0, xp)
    thetas = {"fine-tuned": glm.theta_f(ts, phi, y, xp), "re-trained": glm.theta_r(Phi, phi, Y, y, theta0, xp)}
    p = glm.project_out(Phi, phi, xp)
    X = torch.as_tensor(Xs[N], device=dev)
    T = lambda a: torch.as_tensor(a, device=dev)  # noqa: E731
    ts_t, phi_t, p_t = T(ts), T(phi), T(p / (p @ p))
    f0 = float(phi @ ts)

    def perturbed(delta):  # (1, R, 1, d) -> features (1, R, p)
        Xp = X.expand(*delta.shape[:2], n, d).clone()
        Xp[:, :, 0, :] = Xp[:, :, 0, :] + delta[:, :, 0, :]
        return feat(Xp)

    rows = []
    for mode, theta in thetas.items():
        th = T(theta)
        losses = {
            "loss (6.16)": (lambda dl: -((perturbed(dl) @ phi_t) / (phi_t @ phi_t) + 1) ** 2) if mode == "fine-tuned"
            else (lambda dl: -((perturbed(dl) @ p_t) + 1) ** 2),
            "test error": lambda dl, th=th: -((perturbed(dl) @ th) + y) ** 2,
        }
        for search, obj in losses.items():
            _, wit = maximize(obj, 1, 1, d, gen, RESTARTS, STEPS, device=dev)
            with torch.no_grad():
                ph = perturbed(wit[:, None])[0, 0]
                gamma = float((ph @ ts_t - f0).abs())
                err = float((ph @ th + y) ** 2)
            rows.append({"model": model, "n": n, "N": N, "mode": mode, "search": search, "gamma": gamma, "err": err,
                         "bound": (2 - gamma) ** 2 if gamma < 2 else None})
    return rows


def run(profile: str, rng: np.random.Generator, progress=print, device=None) -> dict:
    g = GRIDS[profile]
    dev = torch_device(device)
    gen = torch.Generator(device=dev).manual_seed(int(rng.integers(0, 2**62)))
    panels = [("rf", g["n_rf"])] + [("raf", n) for n in g["n_raf"]] + [("relu_raf", g["n_raf"][-1])]
    rows = []
    for model, n in panels:
        for N in g["N"]:
            progress(f"bombari2024 fig 4: {model} n={n} N={N}")
            for _ in range(g["trials"]):
                rows += simulation(model, n, g["d"], N, gen, rng, dev)
    below = {}
    for r in rows:
        key = f"{r['model']} n={r['n']} {r['mode']}"
        hit = r["bound"] is not None and r["err"] < r["bound"]
        below[key] = below.get(key, 0) + int(hit)
    return {"d": g["d"], "trials": g["trials"], "panels": [f"{m} n={n}" for m, n in panels], "rows": rows,
            "below_bound": below}


def figure(res: dict, out_dir) -> str:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from pathlib import Path

    panels = res["panels"]
    fig, ax = plt.subplots(2, len(panels), figsize=(3.2 * len(panels), 6), sharex=True, sharey=True)
    colors = dict(zip(sorted({r["N"] for r in res["rows"]}), ["tab:blue", "tab:orange", "tab:green"]))
    g = np.linspace(0, 2, 50)
    for j, name in enumerate(panels):
        model, n = name.split(" n=")
        for i, mode in enumerate(("fine-tuned", "re-trained")):
            a = ax[i, j]
            for r in res["rows"]:
                if r["model"] == model and r["n"] == int(n) and r["mode"] == mode:
                    a.scatter(r["gamma"], r["err"], c=colors[r["N"]], marker="o" if r["search"] != "test error" else "x", s=18)
            a.plot(g, (2 - g) ** 2, "k--", lw=1)
            a.set_title(f"{name}, {mode}", fontsize=8)
            a.set_xlim(0, 2.2)
    for N, c in colors.items():
        ax[0, 0].scatter([], [], c=c, label=f"N={N}")
    ax[0, 0].legend(fontsize=7)
    for a in ax[-1]:
        a.set_xlabel("gamma (smallest for Assumption 2)")
    for a in ax[:, 0]:
        a.set_ylabel("Err (6.7)")
    fig.suptitle(f"Figure 4 on synthetic tokens (d = {res['d']}), not BERT-Base imdb; o: losses (6.16), x: test error; "
                 "dashed: (2 - gamma)^2", fontsize=9)
    p = Path("figures") / "bombari2024_figure4.png"
    fig.tight_layout()
    fig.savefig(Path(out_dir) / p, dpi=120)
    plt.close(fig)
    return p.as_posix()
