"""A claim that kills the process evaluating it once, for the Dask fault tests (not collected).

Needs ATTNCHECK_TEST_KILL_DIR (a scratch folder): ``killer/crash/once`` kills its worker on its
first evaluation only (a marker file in that folder remembers it), then holds.
"""
import os
from pathlib import Path

from hypothesis import strategies as st

from attncheck import claim, ge

KILL_DIR = Path(os.environ["ATTNCHECK_TEST_KILL_DIR"])


@claim("killer/crash/once", kind="inequality", statement="|x| >= 0, after killing one worker", source="planted",
       domain=st.floats(-1, 1))
def once(x, xp):
    marker = KILL_DIR / "killed-once"
    if not marker.exists():
        marker.write_text(str(os.getpid()))
        os._exit(17)
    return ge(abs(xp.asarray(x)), 0.0, xp)
