"""Samplers that replay a draw they have made: the same arguments and generator state give the same array.

The engine screens every case of a path point on its common random numbers (:mod:`attncheck.engine.screen`): each
call starts a generator in the same state, so cases that a sampler reads through the same few numbers (the network
theorems' column widths and m) draw the same array again and again. :func:`replayed` keeps the last draws by
(arguments, generator state): a repeat returns the kept array (read-only) and leaves the generator in the state the
draw left it in, so that what follows is the same as if it had drawn again.
"""
from __future__ import annotations

import functools
import inspect
from collections import OrderedDict

import numpy as np

KEEP = 8
"""Draws kept per sampler (a screen's draws are at most a few MiB each)."""


def replayed(sampler):
    """``sampler(..., rng, ...)``, whose result depends only on its other arguments and ``rng``'s state, with its last
    :data:`KEEP` draws replayed (module docstring). The result is read-only, a kept one as well as a fresh one."""
    signature = inspect.signature(sampler)
    kept: OrderedDict = OrderedDict()

    @functools.wraps(sampler)
    def wrapper(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        rng = bound.arguments["rng"]
        key = (_state(rng),) + tuple(_hashable(v) for name, v in bound.arguments.items() if name != "rng")
        if key in kept:
            kept.move_to_end(key)
            out, after = kept[key]
            rng.bit_generator.state = after
            return out
        out = sampler(*args, **kwargs)
        out.flags.writeable = False
        kept[key] = (out, rng.bit_generator.state)
        if len(kept) > KEEP:
            kept.popitem(last=False)
        return out

    wrapper.kept = kept
    return wrapper


def _state(rng: np.random.Generator):
    return repr(rng.bit_generator.state)


def _hashable(value):
    if isinstance(value, np.ndarray):
        return value.dtype.str, value.shape, value.tobytes()
    if isinstance(value, list | tuple):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, type):
        return np.dtype(value).str
    return value
