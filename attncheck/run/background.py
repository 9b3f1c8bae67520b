"""The experiments of ``attncheck report`` (xdist path) in a child process while the claims run.

The claims' workers and the experiments then share the cores: a deep report's experiments
(37 min on one core, bombari2024's figures 30 of them) no longer run alone after the claims.
The child writes into a scratch folder of its own, whose experiments :meth:`Experiments.finish`
carries into the report; its output goes to a log, shown after the claims; it ignores Ctrl-C from
its start (through the interpreter's startup and imports), and the parent stops it
(:meth:`Experiments.stop`) on an interruption or a failed run.
"""
from __future__ import annotations

import multiprocessing
import os
import shutil
import signal
import tempfile
import threading
from pathlib import Path

from attncheck.report import writer as report


def _child(profile: str, scratch: str, seed: int, runners) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with open(Path(scratch) / "log", "w") as f:
        os.dup2(f.fileno(), 1)
        os.dup2(f.fileno(), 2)
        from attncheck.run import experiments

        experiments.run_all(profile, Path(scratch) / "out", seed, progress=lambda m: print(m, flush=True),
                            runners=runners)


class Experiments:
    """``experiments.run_all(profile, ..., seed)`` started now in a spawned child; :meth:`finish` waits for it.
    ``runners``: every paper's (None), found by the child: the parent does not import the papers' experiments (torch
    among them), which a spawned child imports again to unpickle them."""

    def __init__(self, profile: str, seed: int, runners=None):
        self.scratch = Path(tempfile.mkdtemp(prefix="attncheck-experiments-"))
        self.proc = multiprocessing.get_context("spawn").Process(
            target=_child, args=(profile, str(self.scratch), seed, runners), daemon=True)
        # An ignored SIGINT survives fork and exec (a blocked one does not: spawn resets the mask), so the child
        # ignores Ctrl-C before its interpreter starts; the parent ignores it only while it forks.
        main = threading.current_thread() is threading.main_thread()  # only the main thread may set handlers
        handler = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            self.proc.start()
        finally:
            if main:
                signal.signal(signal.SIGINT, handler)

    def finish(self, out_dir, progress=print) -> None:
        """Wait for the child, pass its output on and carry experiments.json and its figures into ``out_dir``;
        RuntimeError (with the output's tail) if it failed."""
        if self.proc.is_alive():
            progress("attncheck: the claims are done; waiting for the experiments that run beside them")
        self.proc.join()
        log = self.scratch / "log"
        text = log.read_text() if log.is_file() else ""
        if self.proc.exitcode != 0:
            self.stop()
            raise RuntimeError(f"the experiments failed (exit status {self.proc.exitcode}); their output ends:\n"
                               + "\n".join(text.splitlines()[-40:]))
        if text:
            progress(text.rstrip("\n"))
        report.keep_experiments(self.scratch / "out", Path(out_dir))
        self.stop()

    def stop(self) -> None:
        """End the child if it still runs and remove its scratch folder (an interrupted or failed report)."""
        if self.proc.is_alive():
            self.proc.terminate()
        self.proc.join()
        shutil.rmtree(self.scratch, ignore_errors=True)
