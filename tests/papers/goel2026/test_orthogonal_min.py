"""goel2026 Lemma 1's audit: the minimiser over O(d) (om.nearest_on_orbit) finds the known minima, and Lemma 1's
claims, evaluated at its point, refute planted false variants (a wrong minimiser, a wrong minimum value, the wrong
determinant component, a wrong manifold base)."""
from pathlib import Path

import numpy as np
import pytest

from attncheck import F64
from attncheck.core.claims import REGISTRY
from attncheck.papers.goel2026.data import gaussian_regression as gr
from attncheck.papers.goel2026.models import orthogonal_min as om
from attncheck.papers.goel2026.models import softmax_regression as sr
from attncheck.papers.goel2026.strategies import softmax_regression as ss
from attncheck.run import loader

loader.load([Path(__file__).resolve().parents[3] / "properties" / "goel2026" / "test_population.py"])
PART_1, PSD, PART_2 = (REGISTRY.get(f"goel2026/lemma-1/{p}") for p in ("part-1", "part-1-psd", "part-2"))


def _problem(seed, d):
    rng = np.random.default_rng(seed)
    return gr.random_problem(rng, d, d + seed % 3, cond=4.0, x_scale=0.8, spread=0.2, sigma=0.1)


def _value(Z0, Z, R):
    return float(np.sum((Z - Z0 @ R) ** 2))


def _min_slack(claim, case):
    return float(np.min(claim.evaluate(case, F64).value))


@pytest.mark.parametrize("d", range(1, 7))
@pytest.mark.parametrize("det", (1.0, -1.0))
def test_it_finds_a_planted_orbit_point(d, det):
    """Z = Z_0 R_true, R_true in the det component named: the minimum is 0, at R_true (unique: Z_0 has rank d)."""
    rng = np.random.default_rng(d)
    Z0 = sr.manifold_base(_problem(d, d))
    R_true = ss.random_orthogonal(rng, d)
    R_true[:, 0] *= det * np.sign(np.linalg.det(R_true))
    R, f, g, _ = om.nearest_on_orbit(Z0, Z0 @ R_true, rng)
    assert f <= 1e-12 * np.sum(Z0 * Z0) and g <= 1e-10 * np.sum(Z0 * Z0)
    np.testing.assert_allclose(R, R_true, atol=1e-7)


@pytest.mark.parametrize("seed", range(12))
def test_it_finds_the_procrustes_minimum(seed):
    """Far from the orbit, where the closed form is known (Procrustes): the same value, both components searched."""
    rng = np.random.default_rng([seed, 1])
    d = 1 + seed % 6
    Z0 = sr.manifold_base(_problem(seed, d))
    Z = Z0 @ ss.random_orthogonal(rng, d) + (1 + seed % 3) * rng.standard_normal(Z0.shape)
    R, f, g, by_det = om.nearest_on_orbit(Z0, Z, rng)
    closed = _value(Z0, Z, sr.procrustes_rotation(Z0, Z))
    assert abs(f - closed) <= 1e-12 * np.sum(Z * Z)
    np.testing.assert_allclose(R, sr.procrustes_rotation(Z0, Z), atol=1e-6)
    assert min(by_det) == f


def _far_case(seed, d):
    """A Lemma 1 case far from the manifold (||H||_Sigma = 300 rho, plus 0.1 rho Gaussian)."""
    return PART_1.space.case(dict(d=d, extra=seed % 3, cond=3.0, x_scale=0.7, spread=0.3, sigma=0.1, seed=seed,
                                  r=1.0, radial=0.0, scale=300.0, noise=0.1))


def test_a_wrong_minimiser_is_refuted():
    """Planted: 'P_M(theta) = Z_0 Q P^T' (the Procrustes factors transposed) and 'P_M(theta) = Z_0' (R = I).
    On every far case the minimiser reaches a lower value than the planted point, so the planted statement fails."""
    for seed in range(6):
        case = _far_case(seed, 3 + seed % 3)
        Z0 = sr.manifold_base(case.problem)
        P, _, Qt = np.linalg.svd(Z0.T @ case.Z)
        for planted in (Qt.T @ P.T, np.eye(case.problem.d)):
            assert _value(Z0, case.Z, planted) > np.sum((case.Z - case.Z_proj) ** 2) + 1e-6 * np.sum(case.Z ** 2)


def test_a_wrong_minimum_value_is_refuted():
    """Planted: 'min_R ||Z - Z_0 R||_F^2 = ||Z||_F^2 - ||Z_0||_F^2' (Pythagoras, as if Z - Z_0 R* were always normal
    to Z_0 R*): the minimiser's value differs on far cases, where the radial part of H is not along Z_0 R*."""
    misses = 0
    for seed in range(6):
        case = _far_case(seed, 2 + seed % 4)
        Z0 = sr.manifold_base(case.problem)
        f = np.sum((case.Z - case.Z_proj) ** 2)
        misses += abs(f - (np.sum(case.Z ** 2) - np.sum(Z0 ** 2))) > 1e-6 * np.sum(case.Z ** 2)
    assert misses == 6


def test_the_det_plus_one_component_alone_is_refuted(monkeypatch):
    """Planted: 'theta* lies in the SO(d) component' (starts in SO(d) only). Where Procrustes' R* has det -1 the
    claim lemma-1/part-1-psd then fails: the SO(d) minimiser is a critical point, Z^T Z* symmetric, not PSD."""
    plain = om.starts
    found = []
    for seed in range(40):
        case = _far_case(seed, 2 + seed % 3)
        if np.linalg.det(sr.procrustes_rotation(sr.manifold_base(case.problem), case.Z)) > 0:
            continue
        assert _min_slack(PSD, case) >= 0 and _min_slack(PART_1, case) >= 0  # the full search: holds
        monkeypatch.setattr(om, "starts", lambda rng, d, k: plain(rng, d, 2 * k)[:2 * k])  # det +1 only
        found.append(_min_slack(PSD, _far_case(seed, 2 + seed % 3)))
        monkeypatch.setattr(om, "starts", plain)
    assert len(found) >= 5 and max(found) < 0


def test_a_wrong_manifold_base_is_refuted(monkeypatch):
    """Planted: a base with V's sign flipped, [U D^{1/2}; -V D^{1/2}]: same singular values, but not on M
    (U V^T = -X). lemma-1/part-2 refutes it through its F = F* check."""
    case_values = dict(d=3, extra=1, cond=3.0, x_scale=0.7, spread=0.3, sigma=0.1, seed=4, r=0.5, radial=0.2,
                       scale=10.0, noise=0.0)
    assert _min_slack(PART_2, PART_2.space.case(case_values)) >= 0
    plain = sr.manifold_base

    def flipped(problem):
        Z0 = plain(problem)
        return np.concatenate([Z0[:problem.k], -Z0[problem.k:]])

    monkeypatch.setattr(sr, "manifold_base", flipped)
    assert _min_slack(PART_2, PART_2.space.case(case_values)) < 0
