"""A verdict for a reproduced experiment: does it show what the paper says its figure shows?

The papers' figures are images (not in the extracted text); what can be compared is the
statement they illustrate. For success-ratio sweeps that statement is "the event happens
with high probability", read as a success ratio of at least ``HIGH`` at (nearly) every
point: a sweep agrees when at least ``SHARE`` of its points reach ``HIGH``.
"""
from __future__ import annotations

HIGH = 0.9
SHARE = 0.9


def success_sweeps(panels: dict[str, list[dict]], claim: str, high: float = HIGH) -> dict:
    """``{"agreement": "agrees" | "partly" | "disagrees", "details": [...]}`` over named sweeps.

    Each sweep is a list of points with a ``ratio`` and an ``x``; it agrees when at least
    ``SHARE`` of its points reach ``high``. The details give every sweep's mean and minimum
    and where it falls short.
    """
    details = [f"The paper's figure is read as: {claim} (success ratio >= {high:g} at {SHARE:.0%} of the points "
               "of a sweep or more)."]
    short = 0
    for name, points in panels.items():
        ratios = [p["ratio"] for p in points]
        below = [p["x"] for p in points if p["ratio"] < high]
        ok = len(below) <= (1 - SHARE) * len(points)
        short += not ok
        where = f"; below {high:g} at {len(below)} of {len(points)} points (x from {min(below):g} to " \
                f"{max(below):g})" if below else ""
        details.append(f"{name}: {'agrees' if ok else 'does not agree'}: mean success "
                       f"{sum(ratios) / len(ratios):.2f}, min {min(ratios):.2f}{where}")
    agreement = "agrees" if not short else ("disagrees" if short == len(panels) else "partly")
    return {"agreement": agreement, "details": details}


def from_misses(per_panel: dict[str, list[str]], claim: str) -> dict:
    """``{"agreement", "details"}`` from the readings each panel misses: agrees (no panel misses any), disagrees
    (every panel misses one), partly otherwise; one detail line per panel naming what it misses."""
    failed = [p for p, misses in per_panel.items() if misses]
    agreement = "agrees" if not failed else ("disagrees" if len(failed) == len(per_panel) else "partly")
    details = [f"The paper's figure is read as: {claim}."]
    details += [f"{p}: " + ("agrees" if not m else "does not agree: " + "; ".join(m)) for p, m in per_panel.items()]
    return {"agreement": agreement, "details": details}
