"""Budgets: ``quick`` (CI default, minutes on 2 cores) and ``deep`` (report generation).

A budget is a count of cases, never a time: the same seed gives the same cases and
verdicts on any machine. It depends on the claim's kind (deterministic or random) and
on its declared cost class (:class:`attncheck.core.claims.Cost`): a closed form that costs
microseconds gets thousands of cases per path point even in quick, a training loop a
dozen. ``scale`` multiplies every count (``--attncheck-scale``), for audits at a larger
budget.
"""
from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Budget:
    """Search budget of one path point."""

    examples: int  # Hypothesis examples
    corners: int  # corner cases of a declared Space, enumerated before any random case
    starts: int  # optimizer runs, each from one of the tightest cases seen
    evals: int  # objective evaluations per optimizer run
    crn: int = 0  # common-random-number draws per objective evaluation (random kinds)
    design: int = 0  # space-filling points of the Space (scrambled Sobol), after Hypothesis

    def scaled(self, k: float) -> Budget:
        up = lambda v: max(1, round(v * k)) if v else 0  # noqa: E731
        return Budget(up(self.examples), up(self.corners), self.starts, up(self.evals), self.crn, up(self.design))


@dataclass(frozen=True)
class Profile:
    name: str
    budgets: dict  # (group, cost) -> Budget, group "deterministic" or "random"
    mc_first: int  # Monte Carlo draws at the first look of the sequential test
    mc_budget: int  # Monte Carlo draws per confirmed case, past which it draws more only while short of its claim
    alpha: float  # suite-wide level of false refutations (family-wise, Bonferroni)
    claims: int = 500  # alpha is split over max(claims, random claims loaded): verdicts do not
    #                    depend on which files are loaded until a suite outgrows this
    scale: float = 1.0
    # screen, then confirm (attncheck.engine.screen): every case the search tries is screened on `screen` common
    # random draws; the `confirm` worst per path point are confirmed on fresh draws, up to `confirm_budget` each
    screen: int = 2_000
    confirm: int = 3
    confirm_budget: int = 128_000
    # asymptotic claims (attncheck.engine.extend): fresh re-estimates of each point's worst case, for a
    # constant that is a quantile of per-draw ratios and for one that is an Estimate (the rate form); how many
    # times more when the trend is undecided; how many points the path may be extended by; and how many times
    # more at most, at the tail points, when the rule still names a draws factor that would decide it
    asym_replicates: int = 8
    asym_rate_replicates: int = 2
    asym_more_draws: int = 4
    asym_extra_points: int = 2
    asym_max_draws: int = 16

    def budget(self, random: bool, cost: str) -> Budget:
        b = self.budgets[("random" if random else "deterministic", str(cost))]
        return b.scaled(self.scale) if self.scale != 1.0 else b

    def with_scale(self, scale: float) -> Profile:
        if not scale > 0:
            raise ValueError(f"budget scale must be > 0, got {scale!r}")
        return replace(self, scale=float(scale))


def _budgets(det: dict, rnd: dict) -> dict:
    out = {("deterministic", c): Budget(*v[:4], design=v[4]) for c, v in det.items()}
    out.update({("random", c): Budget(*v[:5], design=v[5]) for c, v in rnd.items()})
    return out


# The design (last column, claims with a declared or derived Space) is a power of two:
# scrambled Sobol points then stratify every coordinate exactly, so an interval of one
# coordinate longer than 2/design is always hit, and one of 5% about 95% of the time from
# 32 points on, wherever it lies (measured; 32 uniform points: 81%, and 59 are needed).
# A `normal` claim gets 64 in both kinds, so that an interval of 3.2% of one coordinate is
# always hit (with 32, the planted 4% interval of user-coin was missed in 2 of 20 seeds).
#                          examples corners starts evals [crn] design
PROFILES = {
    "quick": Profile("quick", _budgets(
        det={"cheap": (2000, 256, 4, 300, 256), "normal": (48, 64, 2, 100, 64), "expensive": (12, 16, 1, 30, 32)},
        rnd={"cheap": (100, 32, 2, 60, 2000, 64), "normal": (24, 16, 1, 40, 1000, 64),
             "expensive": (12, 8, 1, 20, 500, 32)}),
        mc_first=2_000, mc_budget=16_000, alpha=0.01, screen=2_000, confirm=3, confirm_budget=128_000),
    "deep": Profile("deep", _budgets(
        det={"cheap": (8000, 1024, 8, 600, 1024), "normal": (160, 128, 4, 200, 128),
             "expensive": (40, 32, 2, 60, 64)},
        rnd={"cheap": (300, 64, 4, 120, 4000, 128), "normal": (60, 32, 2, 80, 2000, 64),
             "expensive": (40, 16, 1, 40, 1000, 32)}),
        mc_first=4_000, mc_budget=64_000, alpha=0.01, screen=4_000, confirm=5, confirm_budget=512_000,
        asym_replicates=16, asym_rate_replicates=4, asym_extra_points=4, asym_max_draws=32),
}


def get_profile(name: str, scale: float = 1.0) -> Profile:
    try:
        prof = PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown profile {name!r}; choose one of {sorted(PROFILES)}") from None
    return prof.with_scale(scale) if scale != 1.0 else prof
