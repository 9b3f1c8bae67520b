"""Toy experiment runners for the background-experiments tests (importable by a spawned child)."""
import os
import time


def entry(profile, seed, **extra):
    return {"id": f"toy-{seed}", "title": "toy", "description": "a planted experiment", "figures": [], "notes": [],
            "profile": profile, "seed": seed, "data": {}, "verdict": {"agreement": "agrees", "details": []}, **extra}


def drawing(profile, out, seed, progress):
    """Writes one figure and says so; records its process and start time."""
    started = time.time()
    progress("toy: drawing")
    (out / "figures" / "toy.png").write_bytes(b"png")
    return [entry(profile, seed, figures=["figures/toy.png"], pid=os.getpid(), started=started)]


def failing(profile, out, seed, progress):
    progress("toy: about to fail")
    raise ValueError("planted failure")


def sleeping(profile, out, seed, progress):
    time.sleep(600)
    return []


def threads(profile, out, seed, progress):
    """Records the thread pools it runs with: threadpoolctl's (BLAS, OpenMP), the environment and torch's
    intra-op pool (torch is imported here, after the runner started, where installed)."""
    import importlib.util

    import numpy  # noqa: F401  (its BLAS is loaded: the pools are never an empty list)
    from threadpoolctl import threadpool_info

    torch = None
    if importlib.util.find_spec("torch") is not None:
        import torch
    data = {"pools": sorted({f"{p['internal_api']}:{p['num_threads']}" for p in threadpool_info()}),
            "env": {k: os.environ.get(k) for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")},
            "torch": None if torch is None else torch.get_num_threads()}
    return [entry(profile, seed, id="threads", data=data, pid=os.getpid())]


def assert_one_thread(e):
    """The entry of :func:`threads` saw every pool, the environment and torch at one thread."""
    import importlib.util

    d = e["data"]
    assert d["pools"] and all(p.endswith(":1") for p in d["pools"]), d["pools"]
    assert d["env"] == {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}, d["env"]
    assert d["torch"] == (1 if importlib.util.find_spec("torch") is not None else None), d["torch"]
