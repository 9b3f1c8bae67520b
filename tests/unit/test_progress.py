"""Progress off a terminal (CI logs): a line at every tenth of the run and, between tenths, whenever the last line is
older than `every`, naming the claims running."""
from attncheck.run.progress import Progress


class _Log:
    isatty = False

    def __init__(self):
        self.lines = []

    def write(self, text, flush=False):
        self.lines.append(text)

    def write_line(self, text):
        self.lines.append(text)


def test_a_line_at_every_tenth_and_none_between_within_the_interval():
    log = _Log()
    p = Progress(20, log, every=3600.0)
    for k in range(20):
        p.started(f"c{k}")
        p.finished(f"c{k}")
    assert [line.split(",")[0] for line in log.lines] == [f"attncheck: {k}/20 claims" for k in range(2, 21, 2)]


def test_a_line_whenever_the_last_is_older_than_the_interval_naming_the_claims_running():
    log = _Log()
    p = Progress(100, log, every=0.0)
    for cid in ("a", "b", "c", "d", "e"):
        p.started(cid)
    p.finished("a")
    assert log.lines[0].startswith("attncheck: 0/100 claims") and log.lines[0].endswith("ETA ?, running a")
    assert log.lines[-1].startswith("attncheck: 1/100 claims") and log.lines[-1].endswith("running b, c, d, 1 more")
    assert len(log.lines) == 6  # one per start and one per end: each found the last line old enough


def test_progress_is_on_unless_off_or_without_a_terminal_reporter():
    assert Progress.wanted("auto", _Log()) and Progress.wanted("on", _Log())
    assert not Progress.wanted("off", _Log()) and not Progress.wanted("auto", None)
