"""matplotlib figures for reports (Agg backend, no display needed)."""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def claim_figure_path(out_dir: Path, claim_id: str) -> Path:
    return Path(out_dir) / (claim_id.replace("/", "_") + ".png")


def claim_figures(claims: list[dict], out_dir: Path) -> None:
    """One figure per claim with a scaling path: pass rate (or implied constant) vs n."""
    for r in claims:
        path = r["evidence"].get("path")
        if not path or not all(p.get("worst") for p in path):
            continue
        n = [p["point"] for p in path]
        fig, ax = plt.subplots(figsize=(5.5, 3.4))
        if r["kind"] == "asymptotic":
            ax.loglog(n, [p["worst"]["implied_constant"] for p in path], "o-", label="implied constant C*(n)")
            ax.set_ylabel("max over cases of C*(n)")
        elif r["kind"] in ("identity", "inequality"):
            slack = [p["worst"]["relative_slack"] for p in path]
            ax.plot(n, slack, "o-", label="smallest relative slack")
            ax.axhline(0.0, color="k", lw=1, ls="--")
            ax.set_xscale("log")
            ax.set_yscale("symlog", linthresh=1e-12)
            ax.set_ylabel("relative slack (>= 0 holds)")
        else:
            rate = [p["worst"]["pass_rate"] for p in path]
            lo = [p["worst"]["pass_rate"] - p["worst"]["ci95"][0] for p in path]
            hi = [p["worst"]["ci95"][1] - p["worst"]["pass_rate"] for p in path]
            ax.errorbar(n, rate, yerr=[lo, hi], fmt="o-", capsize=3, label="min pass rate (95% CI)")
            ax.plot(n, [p["worst"]["claimed"] for p in path], "k--", lw=1, label="claimed (worst case)")
            ax.set_xscale("log")
            ax.set_ylabel("pass rate")
            bad = [(p["point"], p["worst"]["pass_rate"]) for p in path if p["refuted"]]
            if bad:
                ax.plot(*zip(*bad), "rx", ms=10, label="refuted at this n")
        ax.set_xlabel("n")
        ax.set_title(f"{r['id']}: {r['verdict']}", fontsize=9)
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(claim_figure_path(out_dir, r["id"]), dpi=110)
        plt.close(fig)
