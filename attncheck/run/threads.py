"""One thread per process for the numerical libraries, for claims and experiments in every front end.

The processes of a run (xdist workers, Dask workers, the experiments' child) already share the cores; a
BLAS, OpenMP or torch pool that spreads over every core in each of them oversubscribes the machine (sys time
was a quarter of the CPU in a Dask deep run, issue 28) and makes a claim's numbers depend on the pool's size.
"""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager

from threadpoolctl import threadpool_limits

#: read when a library loads (OpenBLAS, MKL, an OpenMP runtime) or first sizes its pool (torch)
ENV = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


@contextmanager
def one_thread():
    """BLAS and OpenMP pools at one thread (threadpoolctl, for the libraries already loaded), the environment
    variables at 1 (for those loaded inside), torch's intra-op pool at one thread (if torch is loaded, else when
    it loads: it reads OMP_NUM_THREADS); the environment and a loaded torch's setting are restored after (a torch
    first loaded inside keeps its one thread)."""
    before = {k: os.environ.get(k) for k in ENV}
    torch = sys.modules.get("torch")
    torch_before = torch.get_num_threads() if torch is not None else None
    os.environ.update(dict.fromkeys(ENV, "1"))
    try:
        with threadpool_limits(limits=1):
            if torch is not None:
                torch.set_num_threads(1)
            yield
    finally:
        if torch is not None:
            torch.set_num_threads(torch_before)
        for k, v in before.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
