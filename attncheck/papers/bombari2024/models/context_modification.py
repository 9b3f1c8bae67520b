"""bombari2024 Section 6 with random features: a GLM trained on RF features, then fine-tuned (6.5) or
re-trained (6.6) on (X, y), and the search over the modified word Delta of token i.

The model weights theta*, theta*_f, theta*_r are float64 (:mod:`attncheck.papers.bombari2024.models.glm`); the
search runs :func:`attncheck.papers.bombari2024.models.word_sensitivity.maximize` over Delta with
phi(X^i(Delta)) = phi(V flat(X) + V_i Delta), V_i the k x d block of token i.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from attncheck.numeric import precision
from attncheck.papers.bombari2024.models import glm
from attncheck.papers.bombari2024.models.random_features import rf_blocks_from_V, rf_features
from attncheck.papers.bombari2024.models.word_sensitivity import maximize, rf_perturbation


@dataclass
class RFTask:
    """Training set (Phi, Y), test pair (X, y), weights and the three GLM solutions."""

    X: torch.Tensor
    y: float
    V: torch.Tensor
    act: str
    Phi: np.ndarray
    Y: np.ndarray
    phi: np.ndarray
    theta0: np.ndarray
    theta_star: np.ndarray
    theta_f: np.ndarray
    theta_r: np.ndarray

    @property
    def Kr(self) -> np.ndarray:
        return glm.kernel(glm.stack(self.Phi, self.phi))

    @property
    def f_star(self) -> float:
        """f(X, theta*)."""
        return float(self.phi @ self.theta_star)


def rf_task(X, X_train, Y, y: float, V, act: str, theta0=None) -> RFTask:
    """phi = phi_RF for every sample, theta* (6.3), theta*_f (6.5), theta*_r (6.6); theta_0 = 0 by default."""
    Phi = rf_features(torch.as_tensor(X_train, device=V.device), V, act).cpu().numpy()
    phi = rf_features(X, V, act).cpu().numpy()
    Y = np.asarray(Y, float)
    theta0 = np.zeros(Phi.shape[1]) if theta0 is None else np.asarray(theta0, float)
    ts = glm.theta_star(Phi, Y, theta0, precision.F64)
    return RFTask(X, float(y), V, act, Phi, Y, phi, theta0, ts, glm.theta_f(ts, phi, y, precision.F64),
                  glm.theta_r(Phi, phi, Y, y, theta0, precision.F64))


def _perturbed_features(task: RFTask, tokens):
    """Delta (T, R, 1, d) -> phi(X^i(Delta)) (T, R, k) for i = tokens[t] (the blocks of token i cut out of V)."""
    blocks = rf_blocks_from_V(task.X, task.V, tokens)
    return rf_perturbation(blocks, [[t] for t in range(len(tokens))], task.act)[0]


@dataclass
class GapSearch:
    """Best Theorem 4/5 gap (2 - gamma)^2 - Err per token, with gamma and Err at the witness."""

    gap: np.ndarray
    gamma: np.ndarray
    err: np.ndarray
    delta: torch.Tensor


def gap_search(task: RFTask, tokens, mode: str, gen: torch.Generator, restarts: int = 4, steps: int = 60) -> GapSearch:
    """Maximise (2 - gamma(Delta))^2 - Err(X^i(Delta), theta) over ||Delta|| <= sqrt(d) with gamma(Delta) < 2.

    gamma(Delta) = |f(X^i(Delta), theta*) - f(X, theta*)| is the smallest gamma of Assumption 2
    for this Delta; theta = theta*_f (mode "f", Theorem 4) or theta*_r (mode "r", Theorem 5);
    y_Delta = -y. Iterates with gamma >= 2 are outside Assumption 2 and never count.
    """
    theta = {"f": task.theta_f, "r": task.theta_r}[mode]
    dev = task.V.device
    ts, th = torch.as_tensor(task.theta_star, device=dev), torch.as_tensor(theta, device=dev)
    feats = _perturbed_features(task, tokens)
    f0 = task.f_star

    def parts(delta):
        ph = feats(delta)
        return (ph @ ts - f0).abs(), (ph @ th + task.y) ** 2

    seen = {}  # the iterate last evaluated and its gamma: maximize asks feasible() of the iterate it just evaluated

    def objective(delta):
        gamma, err = parts(delta)
        seen.update(delta=delta, gamma=gamma.detach())
        return torch.where(gamma < 2, (2 - gamma) ** 2 - err, -gamma)

    def feasible(delta):
        """gamma(Delta) < 2 (Assumption 2), from the objective's evaluation of this iterate."""
        return (seen["gamma"] if seen.get("delta") is delta else parts(delta)[0]) < 2

    d = task.X.shape[1]
    best, wit = maximize(objective, len(tokens), 1, d, gen, restarts, steps, device=dev, feasible=feasible)
    with torch.no_grad():
        gamma, err = parts(wit[:, None])
    return GapSearch(best.cpu().numpy(), gamma[:, 0].cpu().numpy(), err[:, 0].cpu().numpy(), wit)


def alignment_search(task: RFTask, tokens, gen: torch.Generator, restarts: int = 4, steps: int = 60) -> np.ndarray:
    """sup over ||Delta|| <= sqrt(d) of |F(X, X^i(Delta)) - 1| (B.20) per token (a lower bound on the sup)."""
    p = glm.project_out(task.Phi, task.phi, precision.F64)
    pt = torch.as_tensor(p / (p @ p), device=task.V.device)
    feats = _perturbed_features(task, tokens)
    best, _ = maximize(lambda delta: (feats(delta) @ pt - 1) ** 2, len(tokens), 1, task.X.shape[1], gen,
                       restarts, steps, device=task.V.device)
    return np.sqrt(np.maximum(best.cpu().numpy(), 0.0))
