"""The default cost of a claim that declares none (engine/cost.py): a deterministic proxy, never a time."""
import gc

import numpy as np
from hypothesis import strategies as st

from attncheck import le
from attncheck.core.claims import Cost, Registry, claim
from attncheck.engine import cost
from attncheck.engine.run import run


def claims() -> Registry:
    """The claims, in a registry of their own (not at module level: pytest would collect them)."""
    reg = Registry()

    @claim("mine/cheap/sum", kind="inequality", source="test", domain=st.tuples(st.floats(0, 1), st.floats(0, 1)),
           statement="x + y <= 2", registry=reg)
    def cheap_sum(c, xp):
        return le(xp.asarray(c[0] + c[1]), 2.0, xp)

    @claim("mine/loop/sum", kind="inequality", source="test", domain=st.floats(0, 1), statement="sum <= 1e4",
           registry=reg)
    def loop_sum(x, xp):
        total = 0.0
        for _ in range(2000):  # a Python loop: thousands of line events
            total += x
        return le(xp.asarray(total), 1e4, xp)

    @claim("mine/big/norm", kind="inequality", source="test", domain=st.floats(0, 1), statement="|x 1|_max <= 1",
           registry=reg)
    def big_norm(x, xp):
        return le(xp.asarray(float(np.max(np.full((100, 100), x)))), 1.0, xp)

    @claim("mine/declared/sum", kind="inequality", source="test", domain=st.floats(0, 1), cost="expensive",
           statement="x <= 1", registry=reg)
    def declared(x, xp):
        return le(xp.asarray(x), 1.0, xp)

    return reg


REG = claims()


def test_a_cheap_claim_with_no_declared_cost_gets_the_cheap_budget():
    got, proxy = cost.choose(REG.get("mine/cheap/sum"), "quick")
    assert got is Cost.CHEAP and proxy["declared"] is False and 0 < proxy["lines"] <= cost.LINES
    rec = run(REG.get("mine/cheap/sum"), "quick", seed=0)
    assert rec["evidence"]["cost"] == "cheap" and rec["evidence"]["budget"]["examples"] == 2000
    assert rec["evidence"]["cost_proxy"]["lines"] == proxy["lines"]


def test_many_lines_or_a_large_array_keep_the_normal_budget():
    loop, proxy = cost.choose(REG.get("mine/loop/sum"), "quick")
    assert loop is Cost.NORMAL and proxy["lines"] > cost.LINES
    big, proxy = cost.choose(REG.get("mine/big/norm"), "quick")
    assert big is Cost.NORMAL and proxy["elements"] == 10_000


def test_the_proxy_is_deterministic_and_a_declared_cost_is_kept():
    assert cost.choose(REG.get("mine/cheap/sum"), "quick") == cost.choose(REG.get("mine/cheap/sum"), "quick")
    assert cost.choose(REG.get("mine/declared/sum"), "quick") == (Cost.EXPENSIVE, None)
    rec = run(REG.get("mine/declared/sum"), "quick", seed=0)
    assert rec["evidence"]["cost"] == "expensive" and "cost_proxy" not in rec["evidence"]


def _finalizer(phase, info):
    """Python code that a collection runs in the collecting thread (as garbage with finalizers would)."""
    if phase == "stop":
        info.get("collected")


def test_a_collection_during_the_trial_is_not_counted():
    quiet = cost.choose(REG.get("mine/cheap/sum"), "quick")
    threshold = gc.get_threshold()
    gc.set_threshold(1, 1, 1)  # a collection at every allocation, as under another thread's load
    gc.callbacks.append(_finalizer)
    try:
        busy = cost.choose(REG.get("mine/cheap/sum"), "quick")
    finally:
        gc.callbacks.remove(_finalizer)
        gc.set_threshold(*threshold)
    assert busy == quiet and gc.isenabled()
