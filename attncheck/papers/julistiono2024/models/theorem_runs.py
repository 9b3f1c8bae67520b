"""julistiono2024: the main theorem's runs (main body, via Appendix A.5; Section 4.1): normalized ell_p-AttGD
(eta = 0.1) on Section 4.1 data, the run's alpha and its ell_p-AttSVM, and the fitted decay exponent of the
directional Bregman divergence D_psi(bar W_mm, bar W(k)) along the run; the matched claim's longer run and the
tokens its iterates select.

Moved verbatim from properties/julistiono2024/test_dynamics.py (the claims keep their evaluators there).
"""
from functools import cache

import numpy as np

from attncheck.papers.julistiono2024.data.mirror_descent import section_4_1
from attncheck.papers.julistiono2024.models import att_svm as svm
from attncheck.papers.julistiono2024.models import mirror_descent as md

#: Section 4.1's run length and the recording interval of the iterates
STEPS = 2000
EVERY = 20


@cache
def run(seed, p, w):
    """Section 4.1's run: normalized ell_p-AttGD from W(0) ~ N(0, 1) (seed w), iterates every EVERY steps, and alpha =
    argmax of the final softmax."""
    data = section_4_1(seed)
    W0 = np.random.default_rng(w).standard_normal((10, 10))
    Ws = md.attgd(data, W0, p, 0.1, STEPS, normalized=True, every=EVERY)
    alpha = np.argmax(md.scores(data, Ws[-1]), axis=-1)
    return data, Ws, alpha


@cache
def solution(seed, alpha, p):
    """The ell_p-AttSVM of ``section_4_1(seed)`` for the tokens alpha (a tuple), shared by the runs that select them."""
    return svm.att_svm(section_4_1(seed), np.array(alpha), p)


@cache
def geometry(seed, alpha, p):
    """The cone geometry (Sections 1.6-1.7) of ``section_4_1(seed)`` for the tokens alpha (a tuple)."""
    return svm.cone_geometry(section_4_1(seed), np.array(alpha), p)


#: the matched claim's longer run (the same W(0)): the selected tokens must be settled over its second half
LONG_STEPS = 10_000
LONG_EVERY = 100


@cache
def long_run(seed, p, w):
    """Section 4.1's run continued to LONG_STEPS steps: the data, the iterates every LONG_EVERY steps and the
    tokens each iterate selects (argmax of its softmax, per sample), shape (K, n). Its first STEPS steps are
    :func:`run`'s (the same W(0)), continued from run's last iterate."""
    data, head, _ = run(seed, p, w)
    tail = md.attgd(data, head[-1], p, 0.1, LONG_STEPS - STEPS, normalized=True, every=LONG_EVERY)
    Ws = np.concatenate([head[::LONG_EVERY // EVERY], tail[1:]])
    return data, Ws, np.array([np.argmax(md.scores(data, W), axis=-1) for W in Ws])


def settled(selected) -> np.ndarray | None:
    """The tokens selected at every recorded iterate of the run's second half, or None if they change there."""
    tail = selected[len(selected) // 2:]
    return tail[-1] if np.all(tail == tail[-1]) else None


def decay(D, every=EVERY):
    """Least-squares slope of log D(k) against log k over the last three quarters of the run."""
    k = (np.arange(len(D)) * every)[len(D) // 4:]
    y = np.log(np.maximum(D[len(D) // 4:], 1e-300))
    return float(np.polyfit(np.log(k), y, 1)[0])


@cache
def _scaled(T, d, K, seed, p):
    """Normalized ell_p-AttGD (eta = 0.1) on n = 6 samples of T tokens in R^d; the run's alpha and its ell_p-AttSVM."""
    data = section_4_1(seed, 6, T, d)
    W0 = np.random.default_rng(np.random.SeedSequence([seed, T, d])).standard_normal((d, d))
    every = K // 40
    Ws = md.attgd(data, W0, p, 0.1, K, normalized=True, every=every)
    alpha = np.argmax(md.scores(data, Ws[-1]), axis=-1)
    sol = svm.att_svm(data, alpha, p)
    D = np.array([float(md.directional_bregman(sol.w, W, p)) for W in Ws])
    return decay(D, every), sol.kkt, sol.seconds


class Scaled:
    """One (T, d, K, seed, p) run (repr: the parameters)."""

    def __init__(self, point, seed, p):
        (self.T, self.d, self.K), self.seed, self.p = point, seed, p
        self.b, self.kkt, self.seconds = _scaled(self.T, self.d, self.K, seed, p)

    def __repr__(self):
        return f"Scaled(T={self.T}, d={self.d}, K={self.K}, seed={self.seed}, p={self.p})"
