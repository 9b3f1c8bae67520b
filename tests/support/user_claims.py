"""A user's own claims file, outside the repository, as the integration tests write it."""
import textwrap

USER_FILE = textwrap.dedent('''
    import numpy as np
    from hypothesis import strategies as st
    from attncheck import Erratum, Reading, claim, ge, le, lt

    @claim("mine/fact-1/true", kind="inequality", statement="x^2 >= 0", source="user",
           domain=st.floats(-1e3, 1e3))
    def square_nonnegative(x, xp):
        x = xp.asarray(x)
        return ge(x * x, 0.0 * x, xp)

    @claim("mine/fact-1/false", kind="inequality", statement="x <= 1/2 on [0, 1]", source="user",
           domain=st.floats(0, 1))
    def half(x, xp):
        return le(xp.asarray(x), 0.5, xp)

    @claim("mine/fact-2/coin", kind="probabilistic", statement="Pr[heads] >= 0.5", source="user",
           domain=st.just(0.5), sample=lambda c, rng, size: rng.random(size), probability=0.5)
    def coin(p, u, xp):
        return lt(xp.asarray(u), p, xp)

    @claim("mine/fact-3/stated", kind="inequality", statement="x <= 0.9 on [0, 1]", source="user",
           domain=st.floats(0, 1), erratum=Erratum("mine/fact-3/corrected", "holds on [0, 0.9] only"))
    def stated(x, xp):
        return le(xp.asarray(x), 0.9, xp)

    @claim("mine/fact-3/corrected", kind="inequality", statement="x <= 0.9 on [0, 0.9]", source="user",
           domain=st.floats(0, 0.9))
    def corrected(x, xp):
        return le(xp.asarray(x), 0.9, xp)
''')


def default_sigint():
    """Popen preexec_fn: SIGINT as a terminal gives it (a run launched in the background of a non-interactive shell
    inherits SIGINT ignored, and Ctrl-C would then reach no process under test)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


SLOW_FILE = USER_FILE + textwrap.dedent('''
    import os
    import time

    @claim("mine/fact-9/slow", kind="inequality", statement="slow", source="user", domain=st.just(1.0))
    def slow(x, xp):
        open(os.environ["SLOW_CLAIM_STARTED"], "w").close()
        time.sleep(60)
        return le(xp.asarray(x), 2.0, xp)
''')


def interrupt_when_slow_claim_runs(proc, started, timeout=600):
    """Send SIGINT to ``proc``'s process group once the slow claim of SLOW_FILE has written ``started`` (so every
    worker is up and past its imports, however loaded the machine), then a second more."""
    import os
    import signal
    import time

    t0 = time.monotonic()
    while not started.exists():
        assert proc.poll() is None and time.monotonic() - t0 < timeout, "the slow claim never started"
        time.sleep(0.2)
    time.sleep(1)
    os.killpg(proc.pid, signal.SIGINT)
