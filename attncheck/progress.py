"""Progress of a long run on the terminal: claims done/total, current claim, elapsed, ETA (tqdm)."""
from __future__ import annotations

import sys
import time


class Progress:
    """A tqdm bar on stderr, or a plain line every 10% when stderr is not a terminal."""

    def __init__(self, total: int, terminal=None):
        self.total, self.done = total, 0
        self.running: list[str] = []
        self.t0 = time.perf_counter()
        self.bar = None
        self.next_line = 0.1
        if sys.stderr.isatty():
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit="claim", file=sys.stderr, dynamic_ncols=True, leave=False,
                            bar_format="{n_fmt}/{total_fmt} claims |{bar:20}| {elapsed} elapsed, ETA {remaining}"
                                       " {postfix}")

    @staticmethod
    def wanted(mode: str, terminal) -> bool:
        if mode == "off":
            return False
        return mode == "on" or sys.stderr.isatty()

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
            print(self.line(), file=sys.stderr, flush=True)

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
