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
