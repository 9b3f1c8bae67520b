"""julistiono2024 Section 4 (synthetic): ell_p-AttGD (4.1), ell_p-JointGD (4.2), and ell_p-AttSVM at larger sizes.

4.1: n = 6, T = 8, d = 10, unit-norm Gaussian data, W(0) ~ N(0, 1), normalized ell_p mirror descent with
eta = 0.1 for p in {1.75, 2, 3}; alpha = argmax of the final softmax; the directional Bregman divergence
D_psi_p(bar W_mm_q, bar W(k)) for all 9 (q, p) pairs, averaged over seeds (CODE settings of the claims file).
4.2: the fixed toy data, W and v trained jointly from 0 (normalized steps, eta = 0.1), compared with the
ell_p-AttSVM (W) and the ell_p-SVM (v) directions. The IMDb and ViT experiments need data not available
offline and are left out.
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from attncheck.papers.julistiono2024.data.mirror_descent import joint_toy, synthetic
from attncheck.papers.julistiono2024.models import att_svm as svm
from attncheck.papers.julistiono2024.models import mirror_descent as md

P_VALUES = (1.75, 2.0, 3.0)
#: every SVM solution behind a figure or a number is certified to this KKT residual (else the experiment stops)
KKT_MAX = 1e-8
STEPS = {"deep": {1.75: 1500, 2.0: 2000, 3.0: 20000}, "quick": {1.75: 1500, 2.0: 2000, 3.0: 4000}}
ETA = 0.1


def _certified(sol: svm.SVMSolution, where: str) -> svm.SVMSolution:
    """sol, after asserting its KKT residual <= KKT_MAX (a reference direction known to less is no reference)."""
    if not sol.kkt <= KKT_MAX:
        raise ArithmeticError(f"ell_p-SVM not solved to KKT <= {KKT_MAX:g} at {where}: residual {sol.kkt:.2e}")
    return sol


def _directional_curve(Wmm, Ws, p):
    return np.array([float(md.directional_bregman(Wmm, W, p)) for W in Ws])


def section_4_1(profile: str, rng, progress=print) -> dict:
    seeds = 20 if profile == "deep" else 4
    every = 50
    curves = {(q, p): [] for q in P_VALUES for p in P_VALUES}
    kkt = []
    for s in range(seeds):
        data = synthetic(6, 8, 10, rng)
        W0 = rng.standard_normal((10, 10))
        for p in P_VALUES:
            Ws = md.attgd(data, W0, p, ETA, STEPS[profile][p], normalized=True, every=every)
            alpha = np.argmax(md.scores(data, Ws[-1]), axis=-1)
            for q in P_VALUES:
                sol = _certified(svm.att_svm(data, alpha, q), f"4.1 seed {s}, p = {p}, q = {q}")
                kkt.append(sol.kkt)
                curves[(q, p)].append(_directional_curve(sol.w, Ws, p))
        progress(f"julistiono2024 4.1: seed {s + 1}/{seeds}")
    mean = {f"q={q},p={p}": np.mean(c, axis=0).tolist() for (q, p), c in curves.items()}
    final = {f"q={q},p={p}": float(np.mean([c[-1] for c in cs])) for (q, p), cs in curves.items()}
    return {"seeds": seeds, "every": every, "steps": {str(k): v for k, v in STEPS[profile].items()}, "mean": mean,
            "final": final, "max_kkt": float(max(kkt))}


def section_4_2(profile: str) -> dict:
    data = joint_toy()
    out = {}
    for p in P_VALUES:
        steps = STEPS[profile][p]
        Ws, vs = md.joint_gd(data, np.zeros((2, 2)), np.zeros(2), p, ETA, steps, normalized=True, every=10)
        W, v = Ws[-1], vs[-1]
        s = md.softmax(md.scores(data, W))
        alpha = np.argmax(s, axis=-1)
        Wmm = _certified(svm.att_svm(data, alpha, p), f"4.2 W, p = {p}")
        vmm = _certified(svm.decoder_svm(data, alpha, p), f"4.2 v, p = {p}")
        dW = _directional_curve(Wmm.w, Ws[1:], p)
        dv = _directional_curve(vmm.w, vs[1:], p)
        out[str(p)] = {"alpha": alpha.tolist(), "D_W": dW.tolist(), "D_v": dv.tolist(),
                       "final_D_W": float(dW[-1]), "final_D_v": float(dv[-1]),
                       "softmax_selected": s[np.arange(2), alpha].tolist(),
                       "logistic_prob": (1 / (1 + np.exp(-md.outputs(data, W, v)))).tolist(), "every": 10}
    return out


def svm_scaling(profile: str, rng, progress=print) -> list[dict]:
    """Beyond the paper: directional convergence of ell_p-AttGD along T (tokens) and d, p on a grid in (1, 4].

    For each (T, d) and p: normalized ell_p-AttGD (eta = 0.1) from W(0) ~ N(0, 1), alpha = argmax of the final
    softmax, ell_p-AttSVM solved with its certificate (KKT residual, duality gap, solve time), and the directional
    Bregman divergence D_psi(bar W_mm, bar W(k)) at a quarter of the run and at its end.
    """
    sizes = [(8, 10), (64, 32), (256, 64)] if profile == "deep" else [(8, 10), (32, 16)]
    ps = [1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0] if profile == "deep" else [1.5, 2.0, 3.0]
    steps = 4000 if profile == "deep" else 600
    rows = []
    for T, d in sizes:
        data = synthetic(6, T, d, rng)
        W0 = rng.standard_normal((d, d))
        for p in ps:
            Ws = md.attgd(data, W0, p, ETA, steps, normalized=True, every=steps // 4)
            alpha = np.argmax(md.scores(data, Ws[-1]), axis=-1)
            t = time.perf_counter()
            sol = svm.att_svm(data, alpha, p)
            seconds = time.perf_counter() - t
            _certified(sol, f"scaling T = {T}, d = {d}, p = {p}")
            D = _directional_curve(sol.w, Ws, p)
            rows.append({"T": T, "d": d, "p": p, "steps": steps, "seconds": seconds, "kkt": sol.kkt,
                         "gap": sol.gap, "norm": sol.norm, "D_quarter": float(D[1]), "D_final": float(D[-1])})
        progress(f"julistiono2024 convergence scaling: T={T}, d={d} done")
    return rows


def _verdict(per_p: dict[str, list[str]], claim: str) -> dict:
    """agrees (every p meets every reading) / partly / disagrees, with one line per p naming what failed."""
    failed = [p for p, misses in per_p.items() if misses]
    agreement = "agrees" if not failed else ("disagrees" if len(failed) == len(per_p) else "partly")
    details = [f"The paper's figure is read as: {claim}."]
    details += [f"p = {p}: " + ("agrees" if not m else "does not agree: " + "; ".join(m)) for p, m in per_p.items()]
    return {"agreement": agreement, "details": details}


def agreement_4_1(res41: dict) -> dict:
    """Section 4.1 (Figure: 9 (q, p) curves): for each p the matched curve q = p ends lowest and decreases."""
    per_p = {}
    for p in P_VALUES:
        final = {q: res41["final"][f"q={q},p={p}"] for q in P_VALUES}
        curve = res41["mean"][f"q={p},p={p}"]
        misses = []
        if min(final, key=final.get) != p:
            misses.append(f"the smallest final divergence is at q = {min(final, key=final.get)} "
                          f"({min(final.values()):.2e}), not at q = p ({final[p]:.2e})")
        if not curve[-1] < curve[len(curve) // 4]:
            misses.append(f"the matched divergence does not decrease over the last three quarters "
                          f"({curve[len(curve) // 4]:.2e} -> {curve[-1]:.2e})")
        per_p[str(p)] = misses
    out = _verdict(per_p, "for each p, the mean directional Bregman divergence to the ell_q-AttSVM direction goes to "
                          "0 for q = p and not for q != p, read as: the q = p curve ends lowest of the three q and "
                          "decreases over the last three quarters of the run (how far the q != p curves stay from 0 "
                          "is reported, not judged)")
    for p in P_VALUES:
        own = res41["final"][f"q={p},p={p}"]
        other = min(res41["final"][f"q={q},p={p}"] for q in P_VALUES if q != p)
        out["details"].append(f"p = {p}: final matched {own:.2e}, smallest mismatched {other:.2e} (ratio "
                              f"{other / own:.2f})")
    return out


def agreement_4_2(res42: dict) -> dict:
    """Section 4.2: W and v converge in direction to the ell_p-AttSVM / ell_p-SVM solutions, the softmax selects."""
    per_p = {}
    for p, r in res42.items():
        misses = []
        for key in ("D_W", "D_v"):
            curve = r[key]
            if not curve[-1] < curve[len(curve) // 4]:
                misses.append(f"{key} does not decrease over the last three quarters "
                              f"({curve[len(curve) // 4]:.2e} -> {curve[-1]:.2e})")
        if min(r["softmax_selected"]) < 0.9:
            misses.append(f"softmax of the selected token {min(r['softmax_selected']):.3f} < 0.9")
        per_p[p] = misses
    return _verdict(per_p, "for each p, the directional Bregman divergences of W(k) to the ell_p-AttSVM direction and "
                           "of v(k) to the ell_p-SVM direction decrease toward 0 (over the last three quarters of the "
                           "run), and the softmax concentrates on the selected token (weight >= 0.9 in every sample)")


def figures(res41: dict, res42: dict, out) -> list[str]:
    from attncheck.core.plotting import pyplot

    plt = pyplot()

    paths = []
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.6))
    for ax, p in zip(axes, P_VALUES, strict=False):
        for q in P_VALUES:
            y = np.maximum(res41["mean"][f"q={q},p={p}"], 1e-18)
            ax.semilogy(np.arange(len(y)) * res41["every"], y, label=f"q = {q}")
        ax.set_title(f"ell_p-AttGD, p = {p}")
        ax.set_xlabel("iteration")
        ax.set_ylabel("D_psi_p(bar W_mm_q, bar W(k))")
        ax.legend()
    fig.tight_layout()
    rel = "figures/julistiono2024_4_1.png"
    fig.savefig(out / rel, dpi=110)
    plt.close(fig)
    paths.append(rel)
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    for p in P_VALUES:
        r = res42[str(p)]
        for ax, key in zip(axes, ("D_W", "D_v"), strict=False):
            y = np.maximum(r[key], 1e-18)
            ax.semilogy(np.arange(1, len(y) + 1) * r["every"], y, label=f"p = {p}")
    axes[0].set_title("W: D_psi(bar W_mm, bar W(k))")
    axes[1].set_title("v: D_psi(bar v_mm, bar v(k))")
    for ax in axes:
        ax.set_xlabel("iteration")
        ax.legend()
    fig.tight_layout()
    rel = "figures/julistiono2024_4_2.png"
    fig.savefig(out / rel, dpi=110)
    plt.close(fig)
    paths.append(rel)
    return paths


DESCRIPTIONS = {
    "julistiono2024-4.1": (
        "julistiono2024 Section 4.1: ell_p-AttGD on synthetic data",
        "n = 6, T = 8, d = 10, unit-norm Gaussian tokens, W(0) ~ N(0, 1), normalized ell_p mirror descent "
        "(eta = 0.1) for p in {1.75, 2, 3}; mean directional Bregman divergence D_psi_p(bar W_mm_q, bar W(k)) "
        "for all 9 (q, p) pairs, alpha = argmax of the final softmax. IMDb and ViT (Sections 4.3-4.4) need "
        "data not available offline and are left out.",
    ),
    "julistiono2024-4.2": (
        "julistiono2024 Section 4.2: ell_p-JointGD on the toy data",
        "n = 2, T = 3, d = 2 fixed toy data, W and v from 0, normalized steps eta = 0.1; directional Bregman "
        "divergence of W to the ell_p-AttSVM and of v to the ell_p-SVM direction, selected tokens.",
    ),
}


def entries(profile: str, out: Path, seed: int, progress) -> list[dict]:
    """Section 4.1, 4.2 and the ell_p-AttSVM scaling (beyond the paper): the entries of experiments.json."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, 2024]))
    r41 = section_4_1(profile, rng, progress)
    r42 = section_4_2(profile)
    scaling = svm_scaling(profile, rng, progress)
    figs = figures(r41, r42, out)
    big = max(scaling, key=lambda r: (r["T"] * r["d"], r["seconds"]))
    entries = []
    title, desc = DESCRIPTIONS["julistiono2024-4.1"]
    notes = [f"{r41['seeds']} seeds; iterations per p: {r41['steps']}; max SVM KKT residual {r41['max_kkt']:.1e}.",
             "Final mean divergence per (q, p): " + ", ".join(f"{k}: {v:.2e}" for k, v in r41["final"].items()),
             f"Beyond the paper (ell_p-AttGD along T and d): largest (T, d) = ({big['T']}, {big['d']}), SVM solve "
             f"time {max(r['seconds'] for r in scaling if r['T'] == big['T']):.1f} s, max KKT residual "
             f"{max(r['kkt'] for r in scaling):.1e}; final D per (T, d, p): "
             + ", ".join(f"({r['T']}, {r['d']}, {r['p']}): {r['D_final']:.1e}" for r in scaling)]
    entries.append({"id": "julistiono2024-4.1", "title": title, "description": desc, "figures": [figs[0]],
                    "notes": notes, "profile": profile, "seed": seed, "data": {"4.1": r41, "svm_scaling": scaling},
                    "verdict": agreement_4_1(r41)})
    title, desc = DESCRIPTIONS["julistiono2024-4.2"]
    notes = [f"p = {p}: alpha = {r['alpha']}, final D(W) = {r['final_D_W']:.2e}, final D(v) = {r['final_D_v']:.2e}, "
             f"softmax of selected = {[round(x, 4) for x in r['softmax_selected']]}" for p, r in r42.items()]
    entries.append({"id": "julistiono2024-4.2", "title": title, "description": desc, "figures": [figs[1]],
                    "notes": notes, "profile": profile, "seed": seed, "data": r42, "verdict": agreement_4_2(r42)})
    return entries
