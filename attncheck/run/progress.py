"""Progress of a long run on the terminal: claims done/total, current claim, elapsed, ETA (tqdm).

It writes through pytest's terminal reporter (the only stream pytest never captures): a
tqdm bar on a terminal, a plain line at every tenth of the run elsewhere (CI logs).
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
    def __init__(self, total: int, terminal):
        self.total, self.done = total, 0
        self.terminal = terminal
        self.running: list[str] = []
        self.t0 = time.perf_counter()
        self.bar = None
        self.next_line = 0.1
        if terminal.isatty:
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit="claim", file=_Terminal(terminal), dynamic_ncols=True, leave=False,
                            bar_format="{n_fmt}/{total_fmt} claims |{bar:20}| {elapsed} elapsed, ETA {remaining}"
                                       " {postfix}")

    @staticmethod
    def wanted(mode: str, terminal) -> bool:
        """"on", or "auto" on a terminal; never without pytest's terminal reporter."""
        if terminal is None or mode == "off":
            return False
        return mode == "on" or terminal.isatty

    def started(self, claim_id: str) -> None:
        self.running.append(claim_id)
        if self.bar is not None:
            self.bar.set_postfix_str(claim_id, refresh=True)

    def finished(self, claim_id: str) -> None:
        if claim_id in self.running:
            self.running.remove(claim_id)
        self.done += 1
        if self.bar is not None:
            self.bar.set_postfix_str(self.running[-1] if self.running else "", refresh=False)
            self.bar.update(1)
        elif self.done >= self.next_line * self.total or self.done == self.total:
            self.next_line = (int(10 * self.done / self.total) + 1) / 10
            if getattr(getattr(self.terminal, "_tw", None), "width_of_current_line", 0):
                self.terminal.write("\n")  # after a failure's "F" (pytest writes no newline after it)
            self.terminal.write_line(self.line())

    def line(self) -> str:
        elapsed = time.perf_counter() - self.t0
        eta = elapsed / self.done * (self.total - self.done) if self.done else float("nan")
        current = f", running {self.running[-1]}" if self.running else ""
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
