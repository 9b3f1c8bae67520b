"""A claim that kills every process evaluating it, for the Dask fault tests (not collected).

Needs ATTNCHECK_TEST_KILL_DIR (a scratch folder): each worker it kills leaves a file there.
"""
import os
from pathlib import Path

from hypothesis import strategies as st

from attncheck import claim

KILL_DIR = Path(os.environ["ATTNCHECK_TEST_KILL_DIR"])


@claim("killer/crash/always", kind="inequality", statement="|x| >= 0, killing every worker", source="planted",
       domain=st.floats(-1, 1))
def always(x, xp):
    (KILL_DIR / f"killed-{os.getpid()}").write_text("")
    os._exit(17)
