"""Budgets: ``quick`` (CI default, minutes on 2 cores) and ``deep`` (report generation)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Profile:
    name: str
    examples: int  # Hypothesis examples per scaling-path point
    mc_first: int  # Monte Carlo draws at the first look of the sequential test
    mc_budget: int  # Monte Carlo draws per case at most
    alpha: float  # suite-wide level of false refutations (family-wise, Bonferroni)
    claims: int = 500  # alpha is split over max(claims, random claims loaded): verdicts do not
    #                    depend on which files are loaded until a suite outgrows this


PROFILES = {
    "quick": Profile("quick", examples=12, mc_first=2_000, mc_budget=16_000, alpha=0.01),
    "deep": Profile("deep", examples=40, mc_first=4_000, mc_budget=64_000, alpha=0.01),
}


def get_profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown profile {name!r}; choose one of {sorted(PROFILES)}") from None
