"""deng2023 Section 7.1: success ratio of E_success for the toy model (Figure 3).

E_success := F_exp(A1) > 0 and F_lin(A1) = 0 and F_exp(A0) = 0 and F_lin(A0) = 0, for
A0 in D0, A1 in D1 with i.i.d. uniform scores in [log n, 1.4 log n] and one network
(one Rademacher y in {-1, +1}^{n x m}) per trial. The networks are the literal dense
Definitions 3.5/3.6 (:func:`attncheck.papers.deng2023.models.toy.F_exp`), batched over trials.
"""
from __future__ import annotations

import math

import numpy as np

from attncheck.papers.deng2023.data import toy as data
from attncheck.papers.deng2023.models import toy
from attncheck.stats import clopper_pearson

TAU = 0.25  # the paper leaves tau open; 1/4 as in the claims of Lemmas 5.1-5.4
CHUNK = 50  # trials per vectorised batch (bounds memory at n = 2000)


def m_of(n: int) -> int:
    """Section 7.1 sets m = log n; m must be an integer: round(log n), at least 1."""
    return max(1, round(math.log(n)))


def _scores(n: int, trials: int, label: int, rng) -> np.ndarray:
    return np.stack([data.uniform(n, rng, label).dense() for _ in range(trials)])


def success(n: int, m: int, trials: int, rng, tau: float = TAU) -> np.ndarray:
    """Boolean E_success per trial."""
    out = []
    x = np.ones(1)
    for start in range(0, trials, CHUNK):
        t = min(CHUNK, trials - start)
        A0, A1 = (_scores(n, t, lab, rng)[..., None] for lab in (0, 1))
        y = rng.integers(0, 2, size=(t, n, m), dtype=np.int8).astype(float)
        y *= 2.0
        y -= 1.0
        out.append((toy.F_exp(A1, x, y, tau) > 0) & (toy.F_lin(A1, x, y, tau) == 0)
                   & (toy.F_exp(A0, x, y, tau) == 0) & (toy.F_lin(A0, x, y, tau) == 0))
    return np.concatenate(out)


def _sweep(values, run, trials):
    rows = []
    for v in values:
        k = int(run(v).sum())
        lo, hi = clopper_pearson(k, trials, 0.05)
        rows.append({"x": v, "successes": k, "trials": trials, "ratio": k / trials, "ci95": [lo, hi]})
    return rows


def run(profile: str, rng: np.random.Generator, progress=print) -> dict:
    """All Section 7.1 sweeps; deep = the paper's grid with 1000 trials per point."""
    deep = profile == "deep"
    trials = 1000 if deep else 100
    ns = list(range(100, 2001, 10 if deep else 100))
    ms = list(range(1, 101, 1 if deep else 9))
    taus = [round(v, 3) for v in np.linspace(0.0, 1.2, 41 if deep else 13)]
    progress(f"deng2023 7.1: vs n ({len(ns)} points x {trials} trials)")
    by_n = _sweep(ns, lambda n: success(n, m_of(n), trials, rng), trials)
    progress(f"deng2023 7.1: vs m ({len(ms)} points)")
    by_m = _sweep(ms, lambda m: success(1000, m, trials, rng), trials)
    progress(f"deng2023 7.1: vs tau ({len(taus)} points, n = 1000, m = {m_of(1000)})")
    by_tau = _sweep(taus, lambda t: success(1000, m_of(1000), trials, rng, tau=t), trials)
    return {"n": by_n, "m": by_m, "tau": by_tau, "trials": trials}


def figure(res: dict, path) -> None:
    from attncheck.core.plotting import pyplot

    plt = pyplot()

    fig, axes = plt.subplots(1, 3, figsize=(13, 3.6))
    for ax, key, label, pred in (
        (axes[0], "n", "n (m = round(log n))", lambda rows: [1 - 2.0 ** -m_of(r["x"]) for r in rows]),
        (axes[1], "m", "m (n = 1000)", lambda rows: [1 - 2.0 ** -r["x"] for r in rows]),
        (axes[2], "tau", "tau (n = 1000, m = 7)", None),
    ):
        rows = res[key]
        x = [r["x"] for r in rows]
        ratio = [r["ratio"] for r in rows]
        ax.fill_between(x, [r["ci95"][0] for r in rows], [r["ci95"][1] for r in rows], alpha=0.3)
        ax.plot(x, ratio, ".-", label="success ratio (95% CI)")
        if pred:
            ax.plot(x, pred(rows), "k--", lw=1, label="1 - 2^-m")
        ax.set_xlabel(label)
        ax.set_ylim(-0.02, 1.02)
        ax.legend(fontsize=7)
    axes[0].set_ylabel("ratio of E_success")
    fig.suptitle(f"deng2023 Figure 3 reproduced ({res['trials']} trials per point, tau = {TAU} unless swept)",
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
