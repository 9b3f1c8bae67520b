"""bombari2024 Section 4, He's condition (4.3) (and (C.2)): E_{rho ~ N(0, beta)}[phi(rho)^2], by a
quadrature independent of the one that finds beta (:func:`attncheck.papers.bombari2024.models.random_features.he_beta`):
Gauss-Hermite with 240 nodes in float64, mpmath quadrature at higher precision.

Moved verbatim from properties/bombari2024/test_features.py (claim eq-4.3/he-condition).
"""
import math

import numpy as np

from attncheck.papers.bombari2024.models import random_features as rf

GH_T, GH_W = np.polynomial.hermite_e.hermegauss(240)
NP_ACTS = {"relu": lambda x: np.maximum(x, 0.0), "tanh": np.tanh, "softplus": lambda x: np.logaddexp(0.0, x),
           "gelu": lambda x: x * 0.5 * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))}


def moment(act, beta, xp):
    """E_{rho ~ N(0, beta)}[phi(rho)^2]: Gauss-Hermite (240 nodes) in float64, mpmath quadrature otherwise."""
    if xp.native:
        return float(np.sum(GH_W * NP_ACTS[act](math.sqrt(beta) * GH_T) ** 2) / math.sqrt(2 * math.pi))
    return rf.second_moment(act, beta, dps=xp.dps)
