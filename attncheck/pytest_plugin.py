"""pytest11 plugin: every Claim object in a collected module becomes one test item.

Results travel from xdist workers to the controller in each item's ``user_properties``
(serialised with the report), are keyed by claim id on the controller, summarised in
the terminal and optionally written to ``reports/``.
"""
from __future__ import annotations

import json
import secrets

import pytest
from threadpoolctl import threadpool_limits

from . import engine, report
from .claims import REGISTRY, Claim, Verdict
from .profiles import PROFILES, get_profile

_KEY = "attncheck"


def pytest_addoption(parser):
    g = parser.getgroup("attncheck", "attncheck claim verification")
    g.addoption("--attncheck-profile", default="quick", choices=sorted(PROFILES),
                help="budget profile: quick (CI default) or deep (reports)")
    g.addoption("--attncheck-seed", type=_seed, default=0, help="master seed >= 0 (default 0: reproducible)")
    g.addoption("--attncheck-scale", type=_scale, default=1.0,
                help="multiply every search budget (cases, corners, optimizer evaluations) by this factor")
    g.addoption("--attncheck-fresh", action="store_true",
                help="draw a fresh random master seed (printed and recorded in the report)")
    g.addoption("--attncheck-report", metavar="DIR", default=None,
                help="write results.json, summary.md and figures to DIR")


def _seed(text: str) -> int:
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed must be an integer >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"seed must be an integer >= 0, got {value}")
    return value


def _scale(text: str) -> float:
    import argparse

    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0:
        raise argparse.ArgumentTypeError(f"budget scale must be a number > 0, got {text!r}")
    return value


def pytest_configure(config):
    if config.getoption("attncheck_fresh") and not hasattr(config, "workerinput"):
        # chosen once on the controller; xdist ships the option values to the workers
        config.option.attncheck_seed = secrets.randbelow(2**31)
    if not hasattr(config, "workerinput"):
        config.pluginmanager.register(_Aggregator(config), "attncheck-aggregator")


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector, name, obj):
    if isinstance(obj, Claim):
        module = getattr(collector, "module", None)
        if module is not None and obj.evaluate.__module__ != module.__name__:
            return []  # imported from elsewhere: collected where it is defined
        return ClaimItem.from_parent(collector, name=obj.id, claim=obj)
    return None


class ClaimFailed(Exception):
    """A claim's verdict fails the run (REFUTED/ERROR, or an erratum that no longer reproduces)."""


def failure_text(rec: dict) -> str | None:
    """Why this record fails the run, or None if it does not."""
    verdict, erratum = rec["verdict"], rec["erratum"]
    if erratum is not None:
        if verdict == Verdict.ERRATUM.value:
            return None
        return (f"{rec['id']}: an erratum is registered, but the stated claim was not refuted "
                f"(verdict {verdict}); the expected failure is strict\n{report.detail(rec)}")
    if verdict in (Verdict.REFUTED.value, Verdict.ERROR.value):
        return f"{rec['id']}: {verdict}\n{report.detail(rec)}"
    return None


class ClaimItem(pytest.Item):
    def __init__(self, *, claim: Claim, **kw):
        super().__init__(**kw)
        self.claim = claim

    def runtest(self):
        opt = self.config.getoption
        n_random = sum(c.kind.random for c in REGISTRY) or 1
        with threadpool_limits(limits=1):
            prof = get_profile(opt("attncheck_profile"), opt("attncheck_scale"))
            rec = engine.run(self.claim, prof, opt("attncheck_seed"), n_random)
        self.user_properties.append((_KEY, json.dumps(rec)))
        text = failure_text(rec)
        if text:
            raise ClaimFailed(text)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ClaimFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"claim {self.claim.id}"


class _Aggregator:
    """Collects one record per claim on the controller (or the single process)."""

    def __init__(self, config):
        self.config = config
        self.records: dict[str, dict] = {}
        self.duplicates: list[str] = []

    def pytest_runtest_logreport(self, report):
        if report.when != "call":
            return
        for key, value in report.user_properties:
            if key == _KEY:
                rec = json.loads(value)
                if rec["id"] in self.records:
                    self.duplicates.append(rec["id"])
                self.records[rec["id"]] = rec

    def pytest_terminal_summary(self, terminalreporter):
        if not self.records:
            return
        tr = terminalreporter
        opt = self.config.getoption
        tr.section("attncheck")
        scale = opt("attncheck_scale")
        tr.write_line(f"profile {opt('attncheck_profile')}" + (f" x{scale:g}" if scale != 1.0 else "") +
                      f", seed {opt('attncheck_seed')}, "
                      f"{len(self.records)} claims")
        for line in report.table(sorted(self.records.values(), key=lambda r: r["id"])):
            tr.write_line(line)
        if self.duplicates:
            tr.write_line(f"WARNING: results received twice for {sorted(set(self.duplicates))}")
        out = opt("attncheck_report")
        if out:
            meta = {"profile": opt("attncheck_profile"), "seed": opt("attncheck_seed"), "scale": opt("attncheck_scale"),
                    "workers": opt("numprocesses", None)}
            path = report.write(out, list(self.records.values()), meta)
            tr.write_line(f"attncheck report written to {path}")
