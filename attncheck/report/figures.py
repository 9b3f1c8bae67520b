"""matplotlib figures of claims along their scaling paths (Agg backend, no display needed).

One figure per claim with a scaling path, drawn from its results.json record alone, so
it can be drawn wherever the claim ran (an xdist worker) as soon as it has run.
"""
from __future__ import annotations

import math
from pathlib import Path


def claim_figure_name(claim_id: str) -> str:
    """The figure's file name, relative to the report's figures/ folder."""
    return claim_id.replace("/", "_") + ".png"


def claim_figure_path(out_dir: Path, claim_id: str) -> Path:
    return Path(out_dir) / claim_figure_name(claim_id)


def _n(point) -> float:
    if isinstance(point, dict):
        return float(point["n"])
    if isinstance(point, (list, tuple)):
        return float(point[0])
    return float(point)


def series(path: list[dict]) -> list[tuple[str, list[dict]]]:
    """The path split into one series per value of its other parameters ("beta = 0.2", "L = 4"), in path order; one
    unnamed series for a path in n alone (or in unnamed coordinates)."""
    out: dict[str, list[dict]] = {}
    for p in path:
        pt = p["point"]
        name = ", ".join(f"{k} = {v:g}" if isinstance(v, (int, float)) else f"{k} = {v}"
                         for k, v in pt.items() if k != "n") if isinstance(pt, dict) else ""
        out.setdefault(name, []).append(p)
    return list(out.items())


def _label(base: str, name: str) -> str:
    return f"{base}, {name}" if name else base


def symlog_ticks(values: list[float], linthresh: float, per_side: int = 4) -> list[float]:
    """At most ``per_side`` decades on each side of zero (and zero), spread over the data.

    A symlog axis from -1 to 1 with linthresh 1e-12 would otherwise label 25 decades.
    """
    ticks = [0.0]
    for sign in (1, -1):
        mags = [abs(v) for v in values if v * sign > 0 and abs(v) >= linthresh]
        if not mags:
            continue
        lo, hi = math.floor(math.log10(linthresh)), math.ceil(math.log10(max(mags)))
        lo = max(lo, math.floor(math.log10(min(mags))))
        step = max(1, math.ceil((hi - lo) / max(per_side - 1, 1)))
        ticks += [sign * 10.0 ** e for e in range(hi, lo - 1, -step)]
    return sorted(set(ticks))


def _deterministic(ax, r: dict, path: list[dict]) -> None:
    """Slacks all positive: a log axis, which shows them wherever they lie; else a symlog axis around 0, with
    margins so that no point sits on the frame."""
    slack = [p["worst"]["relative_slack"] for p in path]
    for name, part in series(path):
        ax.plot([_n(p["point"]) for p in part], [p["worst"]["relative_slack"] for p in part], "o-",
                label=_label("smallest relative slack", name))
    ax.set_xscale("log")
    if min(slack) > 0:
        ax.set_yscale("log")
        ax.set_ylabel("relative slack (> 0 holds)")
    else:
        linthresh = 1e-12
        ax.axhline(0.0, color="k", lw=1, ls="--")
        ax.set_yscale("symlog", linthresh=linthresh)
        from matplotlib.ticker import FixedLocator, NullLocator

        ticks = symlog_ticks(slack, linthresh)
        ax.yaxis.set_major_locator(FixedLocator(ticks))
        ax.yaxis.set_minor_locator(NullLocator())
        ax.set_yticklabels(["0" if t == 0 else f"{t:.0e}".replace("e+00", "").replace("e-0", "e-").replace("e+0", "e")
                            for t in ticks], fontsize=7)
        ax.margins(y=0.12)
        ax.set_ylabel("relative slack (>= 0 holds)")
    bad = [(_n(p["point"]), p["worst"]["relative_slack"]) for p in path if p["refuted"]]
    if bad:
        ax.plot(*zip(*bad, strict=False), "rx", ms=10, mew=2, label="a case fails at this n")


def _probabilistic(ax, path: list[dict]) -> None:
    """The worst pass rate with the interval the verdict used: multiplicity-adjusted (the suite's alpha), wider than
    a plain 95% interval; the claimed level dashed, in each series' colour."""
    several = len(series(path)) > 1
    for name, part in series(path):
        w = [p["worst"] for p in part]
        n = [_n(p["point"]) for p in part]
        bounds = [x.get("decision_bounds") or x["ci95"] for x in w]
        lo = [x["pass_rate"] - b[0] for x, b in zip(w, bounds, strict=True)]
        hi = [b[1] - x["pass_rate"] for x, b in zip(w, bounds, strict=True)]
        bars = ax.errorbar(n, [x["pass_rate"] for x in w], yerr=[lo, hi], fmt="o-", capsize=3,
                           label=name or "worst pass rate")
        ax.plot(n, [x["claimed"] for x in w], "--", lw=1, color=bars[0].get_color() if several else "k",
                label=None if several else "claimed")
    ax.set_xscale("log")
    ax.set_ylabel("worst pass rate\n(bars: the verdict's adjusted interval)" + ("; dashed: claimed" if several else ""),
                  fontsize=8)
    bad = [(_n(p["point"]), p["worst"]["pass_rate"]) for p in path if p["refuted"]]
    if bad:
        ax.plot(*zip(*bad, strict=False), "rx", ms=10, mew=2, label="a case fails at this n")


def _expectation(ax, path: list[dict]) -> None:
    for name, part in series(path):
        ax.plot([_n(p["point"]) for p in part], [p["worst"]["score"] for p in part], "o-",
                label=_label("worst standardised margin (mean / se)", name))
    ax.axhline(0.0, color="k", ls="--", lw=1, label="E = 0 (wrong side below)")
    ax.set_xscale("log")
    ax.set_ylabel("standardised margin")
    bad = [(_n(p["point"]), p["worst"]["score"]) for p in path if p["refuted"]]
    if bad:
        ax.plot(*zip(*bad, strict=False), "rx", ms=10, mew=2, label="a case fails at this n")


def claim_figure(r: dict, out_dir) -> Path | None:
    """Draw the figure of one record into ``out_dir``; None when the claim has no path."""
    path = r["evidence"].get("path")
    if not path or not all(p.get("worst") for p in path):
        return None
    from attncheck.core.plotting import pyplot  # matplotlib only where a figure is drawn

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(5.5, 3.4))
    if r["kind"] == "asymptotic":
        for name, part in series(path):
            ax.loglog([_n(p["point"]) for p in part], [p["worst"]["implied_constant"] for p in part], "o-",
                      label=_label("implied constant C*(n)", name))
        ax.set_ylabel("max over cases of C*(n)")
    elif r["kind"] in ("identity", "inequality"):
        _deterministic(ax, r, path)
    elif r["kind"] == "expectation":
        _expectation(ax, path)
    else:
        _probabilistic(ax, path)
    if "holds_from" in r["evidence"]:
        ax.axvline(_n(r["evidence"]["holds_from"]), color="g", lw=1, ls=":", label="holds from here on")
    ax.set_xlabel("path point (first coordinate)" if isinstance(path[0]["point"], (list, tuple)) else "n")
    ax.set_title(f"{r['id']}: {r['verdict']}", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    target = claim_figure_path(out_dir, r["id"])
    fig.savefig(target, dpi=110)
    plt.close(fig)
    return target


def claim_figures(claims: list[dict], out_dir, skip_existing: bool = False) -> None:
    """Draw every record's figure (those already drawn, e.g. by xdist workers, kept if asked)."""
    for r in claims:
        if skip_existing and claim_figure_path(out_dir, r["id"]).exists():
            continue
        claim_figure(r, out_dir)
