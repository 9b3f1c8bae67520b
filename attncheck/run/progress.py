"""Progress of a long run on the terminal: claims done/total, current claim, elapsed, ETA (tqdm).

It writes through pytest's terminal reporter (the only stream pytest never captures): a
tqdm bar on a terminal; elsewhere (CI logs) a plain line at every tenth of the run and, when a claim starts or
ends, whenever the last line is a minute old, naming the claims running.
"""
from __future__ import annotations

import time


class _Terminal:
    """The file-like object tqdm writes to: pytest's terminal reporter."""

    def __init__(self, terminal):
        self.terminal = terminal

    def write(self, text: str) -> None:
        self.terminal.write(text, flush=True)

    def flush(self) -> None:
        pass


class Progress:
    #: seconds after which a plain line is due at the next claim that starts or ends (off a terminal)
    EVERY = 60.0

    def __init__(self, total: int, terminal, every: float = EVERY):
        self.total, self.done = total, 0
        self.every = every
        self.terminal = terminal
        self.running: list[str] = []
        self.t0 = time.perf_counter()
        self.bar = None
        self.next_line = 0.1
        self.last_line = self.t0
        if terminal.isatty:
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit="claim", file=_Terminal(terminal), dynamic_ncols=True, leave=False,
                            bar_format="{n_fmt}/{total_fmt} claims |{bar:20}| {elapsed} elapsed, ETA {remaining}"
                                       " {postfix}")

    @staticmethod
    def wanted(mode: str, terminal) -> bool:
        """"on" or "auto" (a bar on a terminal, lines elsewhere); never "off" or without pytest's terminal
        reporter."""
        return terminal is not None and mode != "off"

    def started(self, claim_id: str) -> None:
        self.running.append(claim_id)
        if self.bar is not None:
            self.bar.set_postfix_str(claim_id, refresh=True)
        elif time.perf_counter() - self.last_line >= self.every:
            self._write_line()

    def finished(self, claim_id: str) -> None:
        if claim_id in self.running:
            self.running.remove(claim_id)
        self.done += 1
        if self.bar is not None:
            self.bar.set_postfix_str(self.running[-1] if self.running else "", refresh=False)
            self.bar.update(1)
        elif (self.done >= self.next_line * self.total or self.done == self.total
              or time.perf_counter() - self.last_line >= self.every):
            self.next_line = (int(10 * self.done / self.total) + 1) / 10
            self._write_line()

    def _write_line(self) -> None:
        if getattr(getattr(self.terminal, "_tw", None), "width_of_current_line", 0):
            self.terminal.write("\n")  # after a failure's "F" or a test's dot (pytest writes no newline after them)
        self.terminal.write_line(self.line())
        self.last_line = time.perf_counter()

    def line(self) -> str:
        elapsed = time.perf_counter() - self.t0
        eta = elapsed / self.done * (self.total - self.done) if self.done else float("nan")
        shown = self.running[:3] + ([f"{len(self.running) - 3} more"] if len(self.running) > 3 else [])
        current = f", running {', '.join(shown)}" if self.running else ""
        return (f"attncheck: {self.done}/{self.total} claims, {_clock(elapsed)} elapsed, "
                f"ETA {_clock(eta)}{current}")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def _clock(seconds: float) -> str:
    if seconds != seconds:
        return "?"
    m, s = divmod(int(round(seconds)), 60)
    return f"{m}:{s:02d}"
