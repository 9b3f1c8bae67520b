"""bombari2024 Figures 2 and 3: word sensitivity of RF, DRF, RAF and ReLU-RAF against the context length n.

Synthetic token matrices replace the paper's BERT-Base imdb embeddings (not available
offline): rows i.i.d. N(0, I_d) rescaled to norm sqrt(d) (Assumption 1). As in the
authors' scripts the perturbed token is the first one (i = 0), with the paper's ball
||Delta|| <= sqrt(d) centred at x_0 (the scripts centre it at a noisy start). Every RF/DRF
point is a bracket: the ascent lower bound and the certified Lemma B.1 / C.2 upper bound
for token 0.
"""
from __future__ import annotations

import time

import numpy as np
import torch

from attncheck.core.agreement import from_misses
from attncheck.numeric.devices import torch_device
from attncheck.papers.bombari2024.data.token_matrices import tokens
from attncheck.papers.bombari2024.models import random_features as rf
from attncheck.papers.bombari2024.models import word_sensitivity as ws

RESTARTS, STEPS = 4, 60
#: the attention ascent: ATT_RESTARTS random starts and the four score-aligned ones (word_sensitivity.score_starts);
#: 4 random starts of 60 steps stayed at half of an independent ascent for ReLU-RAF (docs/papers/bombari2024.md,
#: 'ReLU-RAF ascent')
ATT_RESTARTS, ATT_STEPS = 16, 200

GRIDS = {
    "quick": {"trials": 1, "rf_d": [8, 16], "rf_n": [8, 16, 32], "drf_d": 4, "drf_n": [8, 16, 32],
              "drf_L": [2, 4, 8], "raf_d": [32, 64], "raf_n": [10, 25, 50], "beyond_n": [],
              "rf_beyond_d": 16, "raf_beyond_d": 768},
    "deep": {"trials": 5, "rf_d": [192, 384, 768], "rf_n": [10, 25, 50, 100], "drf_d": 16,
             "drf_n": [8, 16, 32, 64], "drf_L": [2, 4, 8], "raf_d": [192, 384, 768],
             "raf_n": [10, 20, 50, 100, 150, 200, 250], "beyond_n": [500, 1000, 2000],
             "rf_beyond_d": 192, "raf_beyond_d": 768},
}


def _X(n, d, rng, device):
    return torch.as_tensor(tokens("gaussian", n, d, rng), device=device)


def rf_point(n, d, depth, gen, rng, device, act="relu"):
    """One trial: the bracket of the RF (depth 1) or DRF word sensitivity of token 0, k = D."""
    beta = 1.0 if depth == 1 else rf.he_beta(act)
    X = _X(n, d, rng, device)
    b, = ws.rf_brackets(X, n * d, act, [[[0]]], [gen], depth=depth, beta=beta, restarts=RESTARTS, steps=STEPS,
                        upper_all=False)
    return b.lower, b.upper


def attention_point(n, d, kind, gen, rng, device):
    """One trial: the ascent lower bound of the RAF (softmax) or ReLU-RAF word sensitivity of token 0."""
    X = _X(n, d, rng, device)
    W = rf.gaussian((d, d), 1.0 / d, gen, device)
    return ws.attention_brackets([rf.raf(W, kind)], X, [[0]], [gen], ATT_RESTARTS, ATT_STEPS, aligned=True)[0].lower


def _stats(vals):
    a = np.asarray(vals, float)
    return {"mean": float(a.mean()), "std": float(a.std()), "values": a.tolist()}


def run(profile: str, rng: np.random.Generator, progress=print, device=None) -> dict:
    g = GRIDS[profile]
    dev = torch_device(device)
    gen = torch.Generator(device=dev).manual_seed(int(rng.integers(0, 2**62)))
    T = g["trials"]
    out = {"trials": T, "profile": profile, "rf": [], "drf": [], "raf": [], "relu_raf": []}
    for d in g["rf_d"]:
        for n in g["rf_n"]:
            progress(f"bombari2024 fig 2: RF d={d} n={n}")
            pts = [rf_point(n, d, 1, gen, rng, dev) for _ in range(T)]
            out["rf"].append({"d": d, "n": n, "lower": _stats([p[0] for p in pts]), "upper": _stats([p[1] for p in pts])})
    for L in g["drf_L"]:
        for n in g["drf_n"]:
            progress(f"bombari2024 fig 2: DRF L={L} n={n}")
            pts = [rf_point(n, g["drf_d"], L, gen, rng, dev) for _ in range(T)]
            out["drf"].append({"L": L, "d": g["drf_d"], "n": n, "lower": _stats([p[0] for p in pts]),
                               "upper": _stats([p[1] for p in pts])})
    for key, kind in (("raf", "softmax"), ("relu_raf", "relu")):
        for d in g["raf_d"]:
            for n in g["raf_n"]:
                progress(f"bombari2024 fig 3: {key} d={d} n={n}")
                out[key].append({"d": d, "n": n, "lower": _stats([attention_point(n, d, kind, gen, rng, dev)
                                                                   for _ in range(T)])})
    out["beyond"] = {"rf": [], "raf": []}
    for n in g["beyond_n"]:
        progress(f"bombari2024 beyond the paper: n={n}")
        t0 = time.perf_counter()
        lo, up = rf_point(n, g["rf_beyond_d"], 1, gen, rng, dev)
        out["beyond"]["rf"].append({"n": n, "d": g["rf_beyond_d"], "lower": lo, "upper": up,
                                    "seconds": time.perf_counter() - t0})
        t0 = time.perf_counter()
        lo = attention_point(n, g["raf_beyond_d"], "softmax", gen, rng, dev)
        out["beyond"]["raf"].append({"n": n, "d": g["raf_beyond_d"], "lower": lo, "seconds": time.perf_counter() - t0})
    return out


def _slope(n, v) -> float:
    """Least-squares slope of log v against log n."""
    return float(np.polyfit(np.log(n), np.log(np.maximum(v, 1e-300)), 1)[0])


def _decreasing(n, v) -> list[str]:
    """What a series misses of 'decreases along n': a negative log-log slope and a last value below the first."""
    misses = []
    if _slope(n, v) >= 0:
        misses.append(f"log-log slope {_slope(n, v):+.2f} >= 0")
    if v[-1] >= v[0]:
        misses.append(f"S at n = {n[-1]} ({v[-1]:.3g}) is not below S at n = {n[0]} ({v[0]:.3g})")
    return misses


def _series(rows, **match):
    rows = [r for r in rows if all(r[k] == v for k, v in match.items())]
    return [r["n"] for r in rows], [r["lower"]["mean"] for r in rows]


#: "in general smaller": the share of (d, n) points where ReLU-RAF is below RAF
GENERAL = 0.75

READING = ("RF: for every d, S_RF decreases as n grows (Figure 2 left, 'regardless of the embedding dimension'); "
           "DRF: for every L, S_DRF decreases with n (Figure 2 right); RAF: S_RAF stays larger than 1 at every n "
           "(Figure 3 left, 'even for large values of n'); ReLU-RAF: S decreases with n and is in general smaller "
           f"than S_RAF (Figure 3 right), 'in general' read as at {GENERAL:.0%} of the (d, n) points or more. "
           "'Decreases' is read as a negative log-log slope of the mean ascent estimate and a last value below the "
           "first; the estimates are lower bounds of the sup (3.4) (RF/DRF also carry certified upper bounds). "
           "Beyond the paper: the same readings on the RF (d fixed) and RAF (d = 768) series extended to n = 2000")


def agreement(res: dict) -> dict:
    """Figures 2-3 against what the paper's text says they show (READING), per panel series."""
    per, info = {}, []
    for d in sorted({r["d"] for r in res["rf"]}):
        n, v = _series(res["rf"], d=d)
        per[f"RF d={d}"] = _decreasing(n, v)
        up = [r["upper"]["mean"] for r in res["rf"] if r["d"] == d]
        info.append(f"RF d={d}: fitted exponent of S along n {_slope(n, v):+.2f} (ascent), {_slope(n, up):+.2f} "
                    "(certified upper bound); Theorem 1: -1/2 or below")
    for L in sorted({r["L"] for r in res["drf"]}):
        per[f"DRF L={L}"] = _decreasing(*_series(res["drf"], L=L))
    for d in sorted({r["d"] for r in res["raf"]}):
        n, v = _series(res["raf"], d=d)
        low = [f"n = {a} ({b:.3g})" for a, b in zip(n, v, strict=False) if b < 1]
        per[f"RAF d={d}"] = [f"S below 1 at {', '.join(low)}"] if low else []
    for d in sorted({r["d"] for r in res["relu_raf"]}):
        n, v = _series(res["relu_raf"], d=d)
        misses = _decreasing(n, v)
        raf = dict(zip(*_series(res["raf"], d=d), strict=False))
        below = [b < raf[a] for a, b in zip(n, v, strict=False) if a in raf]
        if below and sum(below) < GENERAL * len(below):
            misses.append(f"below S_RAF at only {sum(below)} of {len(below)} points")
        per[f"ReLU-RAF d={d}"] = misses
    beyond = res.get("beyond", {})
    if beyond.get("rf"):
        d = beyond["rf"][0]["d"]
        n, v = _series(res["rf"], d=d)
        per[f"RF beyond the paper, d={d}"] = _decreasing(n + [r["n"] for r in beyond["rf"]],
                                                          v + [r["lower"] for r in beyond["rf"]])
    if beyond.get("raf"):
        low = [f"n = {r['n']} ({r['lower']:.3g})" for r in beyond["raf"] if r["lower"] < 1]
        per[f"RAF beyond the paper, d={beyond['raf'][0]['d']}"] = [f"S below 1 at {', '.join(low)}"] if low else []
    out = from_misses(per, READING)
    out["details"] += info
    return out


def cost(n: int, d: int, model: str, seed: int = 0, device=None) -> dict:
    """Wall time of one WS estimate of token 0 (one draw of the weights, 4 restarts, 60 steps)."""
    dev = torch_device(device)
    gen = torch.Generator(device=dev).manual_seed(seed)
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    if model == "rf":
        lo, up = rf_point(n, d, 1, gen, rng, dev)
    else:
        lo, up = attention_point(n, d, "softmax", gen, rng, dev), None
    return {"model": model, "n": n, "d": d, "seconds": time.perf_counter() - t0, "lower": lo, "upper": up}


def figures(res: dict, out_dir) -> list:
    """Figure 2 (RF, DRF) and Figure 3 (RAF, ReLU-RAF) as PNG files; returns their paths relative to out_dir."""
    from pathlib import Path

    from attncheck.core.plotting import pyplot

    plt = pyplot()

    paths = []
    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    for d in sorted({r["d"] for r in res["rf"]}):
        rows = [r for r in res["rf"] if r["d"] == d]
        n = [r["n"] for r in rows]
        lo = np.array([r["lower"]["mean"] for r in rows])
        sd = np.array([r["lower"]["std"] for r in rows])
        line, = ax[0].plot(n, lo, "--o", label=f"d={d} lower (ascent)")
        ax[0].fill_between(n, lo - sd, lo + sd, alpha=0.2, color=line.get_color())
        ax[0].plot(n, [r["upper"]["mean"] for r in rows], ":", color=line.get_color(), label=f"d={d} certified upper")
    ax[0].set(xlabel="n", ylabel="S_RF (token 0)", title="RF (Figure 2 left)")
    for L in sorted({r["L"] for r in res["drf"]}):
        rows = [r for r in res["drf"] if r["L"] == L]
        n = [r["n"] for r in rows]
        lo = np.array([r["lower"]["mean"] for r in rows])
        sd = np.array([r["lower"]["std"] for r in rows])
        line, = ax[1].plot(n, lo, "-o", label=f"L={L} lower")
        ax[1].fill_between(n, lo - sd, lo + sd, alpha=0.2, color=line.get_color())
    ax[1].set(xlabel="n", ylabel="S_DRF (token 0)", title=f"DRF, d={res['drf'][0]['d'] if res['drf'] else '-'} (Figure 2 right)")
    for a in ax:
        a.legend(fontsize=7)
    fig.suptitle("Synthetic tokens (normalized Gaussian rows), not BERT-Base imdb embeddings", fontsize=9)
    p = Path("figures") / "bombari2024_figure2.png"
    fig.tight_layout()
    fig.savefig(Path(out_dir) / p, dpi=120)
    plt.close(fig)
    paths.append(p.as_posix())

    fig, ax = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for a, key, title in ((ax[0], "raf", "RAF (Figure 3 left)"), (ax[1], "relu_raf", "ReLU-RAF (Figure 3 right)")):
        for d in sorted({r["d"] for r in res[key]}):
            rows = [r for r in res[key] if r["d"] == d]
            n = [r["n"] for r in rows]
            lo = np.array([r["lower"]["mean"] for r in rows])
            sd = np.array([r["lower"]["std"] for r in rows])
            line, = a.plot(n, lo, "-o", label=f"d={d} lower (ascent)")
            a.fill_between(n, lo - sd, lo + sd, alpha=0.2, color=line.get_color())
        if key == "raf" and res["beyond"]["raf"]:
            b = res["beyond"]["raf"]
            a.plot([r["n"] for r in b], [r["lower"] for r in b], "k*", label=f"beyond the paper, d={b[0]['d']}")
        a.set(xlabel="n", title=title)
        a.legend(fontsize=7)
    ax[0].set_ylabel("word sensitivity (token 0)")
    fig.suptitle("Synthetic tokens (normalized Gaussian rows), not BERT-Base imdb embeddings", fontsize=9)
    p = Path("figures") / "bombari2024_figure3.png"
    fig.tight_layout()
    fig.savefig(Path(out_dir) / p, dpi=120)
    plt.close(fig)
    paths.append(p.as_posix())
    return paths
