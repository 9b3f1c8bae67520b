"""Exact means of products of the sample covariance Sigma_hat = (1/n) sum_{k<=n} x_k x_k^T, x_k i.i.d.
N(0, Sigma) (goel2026 Theorem 5: the regularizer R_hat is a polynomial in Sigma_hat).

A chain Sigma_hat M_1 Sigma_hat ... M_{r-1} Sigma_hat has 2r Gaussian slots (the x_k and x_k^T of each factor).
By Isserlis' theorem, E over the x's is a sum over the perfect matchings mu of the slots whose pairs join slots
of the same sample k; summing over the index tuples (k_1, ..., k_r) compatible with mu gives n^{c(mu)}, c(mu) the
number of connected components of the graph on the r factors that mu's pairs draw. So

    E[chain] = sum_mu n^{c(mu) - r} contraction_mu,

and the matching that pairs each factor's own two slots (c = r) gives the population chain Sigma M_1 ... Sigma:
the bias E[chain] - chain(Sigma) is the sum over the other matchings, each O(n^{-1}) or smaller, formed
without cancellation.
"""
from __future__ import annotations

from functools import cache

import numpy as np


def _matchings(slots: tuple[int, ...]) -> list[list[tuple[int, int]]]:
    """Every perfect matching of ``slots`` (an even number of them)."""
    if not slots:
        return [[]]
    first, rest = slots[0], slots[1:]
    return [[(first, other)] + m for i, other in enumerate(rest) for m in _matchings(rest[:i] + rest[i + 1:])]


def _components(pairs, r: int) -> int:
    """Connected components of the graph on the r factors (slot s belongs to factor s // 2) drawn by ``pairs``."""
    parent = list(range(r))

    def root(a):
        while parent[a] != a:
            a = parent[a]
        return a

    for a, b in pairs:
        parent[root(a // 2)] = root(b // 2)
    return len({root(f) for f in range(r)})


def _m_edge(slot: int) -> tuple[int, bool, int]:
    """(t, transposed, the slot across) of the M edge at ``slot``: M_t joins slot 2t - 1 (its row index) to slot
    2t (its column index), so it is read transposed when entered at its column index."""
    t = (slot + 1) // 2
    return (t, False, slot + 1) if slot % 2 else (t, True, slot - 1)


@cache
def _terms(r: int) -> tuple[tuple[int, tuple, tuple], ...]:
    """(c(mu) - r, the open path, the closed cycles) per matching mu of a chain of r factors, the population
    matching excluded. Slot 2t is factor t's x (row index), slot 2t + 1 its x^T (column index); every slot but
    the ends 0 and 2r - 1 has one M edge and every slot one Sigma edge (its pair), so the contraction is the
    product Sigma M Sigma ... Sigma along the path from slot 0 to slot 2r - 1, times the trace of the product
    Sigma M ... Sigma M around each cycle of the other slots. Paths and cycles: tuples of (t, transposed)."""
    own = [(2 * t, 2 * t + 1) for t in range(r)]
    out = []
    for pairs in _matchings(tuple(range(2 * r))):
        if sorted(pairs) == own:
            continue
        partner = {a: b for a, b in pairs} | {b: a for a, b in pairs}
        path, slot, seen = [], partner[0], {0}
        while slot != 2 * r - 1:
            t, transposed, across = _m_edge(slot)
            path.append((t, transposed))
            seen |= {slot, across}
            slot = partner[across]
        seen.add(slot)
        cycles = []
        for first in range(1, 2 * r - 1):
            if first in seen:
                continue
            cycle, slot = [], first
            while True:
                slot = partner[slot]
                t, transposed, across = _m_edge(slot)
                cycle.append((t, transposed))
                seen |= {slot, across}
                slot = across
                if slot == first:
                    break
            cycles.append(tuple(cycle))
        out.append((_components(pairs, r) - r, tuple(path), tuple(cycles)))
    return tuple(out)


def _product(Sigma, mats, steps) -> np.ndarray:
    """Sigma M_{t1} Sigma M_{t2} ... Sigma along ``steps`` ((t, transposed) each; M_t^T where transposed)."""
    P = Sigma
    for t, transposed in steps:
        P = P @ (mats[t - 1].T if transposed else mats[t - 1]) @ Sigma
    return P


def chain_bias(Sigma: np.ndarray, mats, n: int) -> np.ndarray:
    """E[Sigma_hat M_1 Sigma_hat ... M_{r-1} Sigma_hat] - Sigma M_1 Sigma ... Sigma, exactly, for ``mats`` =
    (M_1, ..., M_{r-1}) and Sigma_hat the mean of n outer products of N(0, Sigma) vectors."""
    total = np.zeros_like(Sigma, dtype=float)
    for power, path, cycles in _terms(len(mats) + 1):
        scale = float(n) ** power
        for cycle in cycles:  # tr(Sigma M ... Sigma M): the last M closes the cycle
            t, transposed = cycle[-1]
            scale *= np.trace(_product(Sigma, mats, cycle[:-1]) @ (mats[t - 1].T if transposed else mats[t - 1]))
        total += scale * _product(Sigma, mats, path)
    return total
