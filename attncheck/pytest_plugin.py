"""pytest11 plugin: every Claim object in a collected module becomes one test item.

Results travel from xdist workers to the controller in each item's ``user_properties``
(serialised with the report), are keyed by claim id on the controller, summarised in
the terminal and optionally written as a report. The report is staged beside its
destination (:mod:`attncheck.run.staging`); each claim's figure is drawn where the claim ran.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import signal
import threading
import time
from pathlib import Path

import pytest

from attncheck.core.claims import ID_PATTERN, Claim, Verdict
from attncheck.core.profiles import PROFILES, get_profile
from attncheck.report import labels
from attncheck.report import writer as report
from attncheck.run import options, schedule, staging
from attncheck.run import session as run_session

_KEY = "attncheck"
_CLAIM_NODEID = re.compile(r"::(" + ID_PATTERN.pattern.strip("^$") + r")$")


def pytest_addoption(parser):
    g = parser.getgroup("attncheck", "attncheck claim verification")
    g.addoption("--attncheck-profile", default="quick", choices=sorted(PROFILES),
                help="budget profile: quick (CI default) or deep (reports)")
    g.addoption("--attncheck-seed", type=options.parse_seed, default=0, help="master seed >= 0 (default 0: reproducible)")
    g.addoption("--attncheck-scale", type=options.parse_scale, default=1.0,
                help="multiply every search budget (cases, corners, optimizer evaluations) by this factor")
    g.addoption("--attncheck-fresh", action="store_true",
                help="draw a fresh random master seed (printed and recorded in the report)")
    g.addoption("--attncheck-report", metavar="DIR", default=None,
                help="write results.json, summary.md, the HTML pages and figures to DIR")
    g.addoption("--attncheck-replace", action="store_true",
                help="let a partial report (subset, interrupted, lower profile) replace a complete one in DIR")
    g.addoption("--attncheck-order-from", metavar="RESULTS", default=None,
                help="an earlier results.json whose claim times order the run, longest first (default: the "
                     "report DIR's, else reports/results.json under the rootdir)")
    g.addoption("--attncheck-strict", action="store_true",
                help="an INCONCLUSIVE claim fails the run (by default it passes, shown as I / INCONCLUSIVE)")
    g.addoption("--attncheck-progress", choices=("auto", "on", "off"), default="auto",
                help="progress (claims done/total, elapsed, ETA, the claims running): a bar on a terminal, else a "
                     "line at every tenth of the run and once a minute; on is the same as auto; off: none")
    # internal: DIR is a staging directory owned by `attncheck report` (written into, never moved)
    g.addoption("--attncheck-staged", action="store_true", help=argparse.SUPPRESS)


def pytest_configure(config):
    config.attncheck_collected = {}  # id -> claim, every claim collected here: the claims that share alpha
    worker = getattr(config, "workerinput", None)
    if worker is not None:
        # workers re-parse the command line: take what the controller decided
        config.option.attncheck_seed = worker.get("attncheck_seed", config.option.attncheck_seed)
        config.attncheck_figures = worker.get("attncheck_figures")
        _leave_quietly_on_ctrl_c()
        return
    if config.getoption("attncheck_fresh"):
        config.option.attncheck_seed = secrets.randbelow(2**31)
    config.attncheck_figures = None
    out = config.getoption("attncheck_report")
    stage = None
    if out:
        try:  # before any claim runs: an output that cannot be written is a usage error (exit 4)
            stage = _Staged(out) if config.getoption("attncheck_staged") else \
                staging.Staging(out, replace=config.getoption("attncheck_replace"), flag="--attncheck-replace")
        except staging.OutputError as e:
            raise pytest.UsageError(f"attncheck: {e}") from None
        config.attncheck_figures = str(stage.path / "figures")
    config.pluginmanager.register(_Controller(config, stage), "attncheck-controller")


def _leave_quietly_on_ctrl_c():
    """xdist worker: Ctrl-C reaches the whole process group, and the controller reports the interruption in one
    line, so a worker leaves at once and silently (a worker that ran its session teardown would write to the
    controller's closed channel, and pluggy would print a PluggyTeardownRaisedWarning for each worker)."""
    if (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
        signal.signal(signal.SIGINT, lambda *_: os._exit(130))


class _Staged:
    """A staging directory created by the caller (`attncheck report`): write into it, never move it."""

    def __init__(self, path):
        self.path = Path(path)
        if not self.path.is_dir():
            raise staging.OutputError(f"staging directory {self.path} does not exist")
        (self.path / "figures").mkdir(exist_ok=True)

    def commit(self, status, ids):
        self.path.joinpath("RUN").write_text(json.dumps(status.to_json()) + "\n")
        return self.path, f"{len(ids)} claim records written"  # the staging path stays out of what a user reads

    def abandon(self):
        pass


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """xdist, on the controller: ship the master seed (drawn once) and the figures folder."""
    node.workerinput["attncheck_seed"] = node.config.getoption("attncheck_seed")
    node.workerinput["attncheck_figures"] = node.config.attncheck_figures


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector, name, obj):
    if isinstance(obj, Claim):
        module = getattr(collector, "module", None)
        if module is not None and obj.evaluate.__module__ != module.__name__:
            return []  # imported from elsewhere: collected where it is defined
        collector.config.attncheck_collected[obj.id] = obj
        return ClaimItem.from_parent(collector, name=obj.id, claim=obj)
    return None


def pytest_collection_modifyitems(session, config, items):
    """Claims first, longest first by an earlier report's times (:mod:`attncheck.run.schedule`: the first of
    --attncheck-order-from, the report DIR's and the rootdir's reports/ that has them), so that no long claim
    starts last on one xdist worker while the others idle; the other tests keep their order, after the claims.
    Every xdist worker reads the same file, so all collect the same order."""
    claims = [i for i in items if isinstance(i, ClaimItem)]
    if len(claims) < 2:
        return
    given = config.getoption("attncheck_order_from")
    out = config.getoption("attncheck_report")
    seconds = schedule.past_seconds(given, Path(out) / "results.json" if out and not config.getoption("attncheck_staged")
                                    else None, schedule.committed(config.rootpath))
    order = schedule.longest_first([i.claim.id for i in claims], seconds)
    items[:] = [claims[k] for k in order] + [i for i in items if not isinstance(i, ClaimItem)]


class ClaimFailed(Exception):
    """A claim's verdict fails the run (REFUTED/ERROR, or an erratum that no longer reproduces)."""


class ClaimItem(pytest.Item):
    def __init__(self, *, claim: Claim, **kw):
        super().__init__(**kw)
        self.claim = claim

    def runtest(self):
        opt = self.config.getoption
        prof = get_profile(opt("attncheck_profile"), opt("attncheck_scale"))
        rec = run_session.run_claim(self.claim, prof, opt("attncheck_seed"), run_session.n_random(self.config.attncheck_collected.values()))
        self.user_properties.append((_KEY, json.dumps(rec)))
        if self.config.attncheck_figures:  # drawn here, in parallel with the other workers' claims
            from attncheck.report import figures

            figures.claim_figure(rec, self.config.attncheck_figures)
        text = run_session.failure_text(rec, strict=self.config.getoption("attncheck_strict"))
        if text:
            raise ClaimFailed(text)
        if rec["verdict"] == Verdict.ERRATUM.value:
            pytest.xfail(f"erratum: refuted as stated; corrected claim {rec['erratum']['corrected_id']}")

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ClaimFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"claim {self.claim.id}"


def _verdict(report) -> str | None:
    """The verdict in a claim item's report (None for other tests)."""
    for key, value in report.user_properties:
        if key == _KEY:
            return json.loads(value)["verdict"]
    return None


class _Controller:
    """On the controller (or the single process): one record per claim, progress, the report."""

    def __init__(self, config, stage):
        self.config = config
        self.stage = stage
        self.records: dict[str, dict] = {}
        self.duplicates: list[str] = []
        self.total: int | None = None
        self.collect_errors = 0
        self.interrupted = False
        self.lines: list[str] = []
        self.progress = None
        self.t0 = time.perf_counter()

    # -- what is there to run
    def pytest_collection_finish(self, session):
        if not hasattr(self.config, "workerinput") and self.total is None and session.items:
            self.total = sum(isinstance(i, ClaimItem) for i in session.items)
            self._start_progress()

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node, ids):
        if self.total is None:
            self.total = sum(bool(_CLAIM_NODEID.search(i)) for i in ids)
            self._start_progress()

    def pytest_collectreport(self, report):
        if report.failed:
            self.collect_errors += 1

    def _start_progress(self):
        from attncheck.run.progress import Progress

        mode = self.config.getoption("attncheck_progress")
        tr = self.config.pluginmanager.get_plugin("terminalreporter")
        if self.total and Progress.wanted(mode, tr):
            self.progress = Progress(self.total, tr)

    # -- claims as they run
    def pytest_runtest_logstart(self, nodeid, location):
        if self.progress and _CLAIM_NODEID.search(nodeid):
            self.progress.started(_CLAIM_NODEID.search(nodeid).group(1))

    def pytest_report_teststatus(self, report, config):
        """An INCONCLUSIVE claim that passes is counted apart ("inconclusive", I), not as a pass; the progress bar
        stands in for the dots of claim items (failures are still listed)."""
        if not (_CLAIM_NODEID.search(report.nodeid) and report.when == "call" and not report.failed):
            return None
        if _verdict(report) == Verdict.INCONCLUSIVE.value:
            return "inconclusive", "" if self.progress else "I", "INCONCLUSIVE"
        if self.progress:
            return report.outcome if not hasattr(report, "wasxfail") else "xfailed", "", ""
        return None

    def pytest_runtest_logreport(self, report):
        if report.when != "call":
            return
        for key, value in report.user_properties:
            if key == _KEY:
                rec = json.loads(value)
                if rec["id"] in self.records:
                    self.duplicates.append(rec["id"])
                self.records[rec["id"]] = rec
                if self.progress:
                    self.progress.finished(rec["id"])

    def pytest_keyboard_interrupt(self, excinfo):
        self.interrupted = True
        if self.config.getoption("attncheck_staged"):
            # run by `attncheck report`, whose own line is the one an interrupted report prints: pytest's summary of
            # the interrupt (and the staging folder this run wrote to) stay unsaid, however soon this process ends
            terminal = self.config.pluginmanager.get_plugin("terminalreporter")
            if terminal is not None:
                self.config.pluginmanager.unregister(terminal)

    # -- the end
    def status(self, session, exitstatus) -> staging.Status:
        opt = self.config.option
        reasons = []
        if self.interrupted or exitstatus == pytest.ExitCode.INTERRUPTED:
            reasons.append("interrupted")
        elif session.shouldstop or session.shouldfail:
            reasons.append(f"stopped early ({session.shouldstop or session.shouldfail})")
        if getattr(opt, "keyword", "") or getattr(opt, "markexpr", "") or getattr(opt, "deselect", None) \
                or getattr(opt, "lf", False):
            reasons.append("a selection of the claims (-k/-m/--deselect/--lf)")
        if self.collect_errors:
            reasons.append(f"{self.collect_errors} collection errors")
        if self.total is not None and len(self.records) < self.total:
            reasons.append(f"{len(self.records)} of {self.total} claims ran")
        return staging.Status(not reasons, "; ".join(reasons), len(self.records),
                              self.config.getoption("attncheck_profile"))

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session, exitstatus):
        if self.progress:
            self.progress.close()
        if self.stage is None:
            return
        status = self.status(session, exitstatus)
        opt = self.config.getoption
        meta = {"profile": opt("attncheck_profile"), "seed": opt("attncheck_seed"), "scale": opt("attncheck_scale"),
                "workers": opt("numprocesses", None), "run": status.to_json(),
                "papers": run_session.papers_of(self.records.values())}
        t0 = time.perf_counter()
        try:
            report.write(self.stage.path, list(self.records.values()), meta,
                         keep_experiments_from=None if opt("attncheck_staged") else opt("attncheck_report"))
            where, line = self.stage.commit(status, set(self.records))
        except KeyboardInterrupt:
            self.stage.abandon()
            self.interrupted = True
            session.exitstatus = pytest.ExitCode.INTERRUPTED
            self.lines.append(f"attncheck: interrupted while writing the report; {opt('attncheck_report')} "
                              "left as it was")
            return
        self.lines.append(f"attncheck: {line}; report phase {time.perf_counter() - t0:.1f} s")

    def pytest_terminal_summary(self, terminalreporter):
        tr = terminalreporter
        if self.interrupted:
            done = f"after {len(self.records)}" + (f" of {self.total}" if self.total else "") + " claims"
            tr.write_line(self.lines[-1] if self.lines and "while writing" in self.lines[-1]
                          else f"attncheck: interrupted {done}" + (f"; {self.lines[-1][11:]}" if self.lines else ""))
            return
        if not self.records:
            return
        opt = self.config.getoption
        tr.section("attncheck")
        scale = opt("attncheck_scale")
        tr.write_line(f"profile {opt('attncheck_profile')}" + (f" x{scale:g}" if scale != 1.0 else "") +
                      f", seed {opt('attncheck_seed')}, "
                      f"{len(self.records)} claims, {time.perf_counter() - self.t0:.0f} s")
        for line in labels.table(sorted(self.records.values(), key=lambda r: labels.natural_key(r["id"]))):
            tr.write_line(line)
        undecided = sorted((r["id"] for r in self.records.values() if r["verdict"] == Verdict.INCONCLUSIVE.value),
                           key=labels.natural_key)
        if undecided:
            how = "they fail this run (--attncheck-strict)" if opt("attncheck_strict") else \
                "they pass, undecided; --attncheck-strict fails them"
            tr.write_line(f"INCONCLUSIVE ({how}): {', '.join(undecided)}")
        if self.duplicates:
            tr.write_line(f"WARNING: results received twice for {sorted(set(self.duplicates))}")
        for line in self.lines:
            tr.write_line(line)
