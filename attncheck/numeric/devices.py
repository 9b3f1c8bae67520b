"""The torch device for model code: CPU by default, ``cuda`` on request where available.

Verdicts must not depend on the device, so every torch computation in ``models/`` takes
its device from :func:`torch_device` and runs in float64.
"""
from __future__ import annotations

import os

#: environment variable naming the default device ("cpu", "cuda", "cuda:1", or "auto")
ENV = "ATTNCHECK_DEVICE"


def torch_device(name: str | None = None):
    """``torch.device`` for ``name`` (default: $ATTNCHECK_DEVICE, else "cpu").

    "auto" picks ``cuda`` when available. Asking for ``cuda`` where there is none is an
    error naming the constraint, never a silent fall back to CPU.
    """
    import torch

    choice = (name or os.environ.get(ENV) or "cpu").strip()
    if choice == "auto":
        choice = "cuda" if torch.cuda.is_available() else "cpu"
    dev = torch.device(choice)
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"device {choice!r} requested but torch.cuda.is_available() is False; "
                         f"use 'cpu' or 'auto' (set by argument or ${ENV})")
    if dev.type not in ("cpu", "cuda"):
        raise ValueError(f"device must be 'cpu', 'cuda[:k]' or 'auto', got {choice!r}")
    return dev
