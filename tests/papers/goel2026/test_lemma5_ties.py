"""goel2026 Lemma 5 where the singular values of X_hat tie (spread = 1): the SVD is not unique, so the claim's right
side must use the very U, D, V of theta_0. Once it took them from a second SVD of a copy of X_hat equal to rounding;
on one machine that SVD picked other bases, and the optimizer's case below was a false refutation (relative slack
-0.068; 1.153 >= 0.847 with theta_0's own bases)."""
from pathlib import Path

import numpy as np
import pytest

from attncheck import F64
from attncheck.core.claims import REGISTRY
from attncheck.papers.goel2026.models import preconditioned_gd as pgd
from attncheck.run import loader

loader.load([Path(__file__).resolve().parents[3] / "properties" / "goel2026" / "test_statistics.py"])
LEMMA_5 = REGISTRY.get("goel2026/lemma-5/main")
#: the case the deep search found on an AMD EPYC machine (2026-12-07): four tied singular values, X_hat = X
TIED = dict(cond=5.798579527354991, d=4, extra=2, sigma=0.0, x_scale=1.957925070952828, spread=1.0, seed=0,
            s_pert=0.4789485225959972, eps_frac=0.0)


def _slack(case):
    return float(np.min(LEMMA_5.evaluate(case, F64).value))


def _rotated(R):
    """spectral_factors with the tied bases turned by R: U R, D, (V R)^T is an SVD of the same X_hat."""
    plain = pgd.spectral_factors

    def factors(S_hat, M_hat):
        U, D, Vt, Si = plain(S_hat, M_hat)
        assert np.allclose(D, D[0], rtol=1e-12)  # tied: every rotation of the bases is an SVD
        return U @ R, D, (Vt.T @ R).T, Si
    return factors


def _orthogonal(seed, d):
    q, r = np.linalg.qr(np.random.default_rng(seed).standard_normal((d, d)))
    return q * np.sign(np.diag(r))


def test_the_tied_case_holds():
    assert _slack(LEMMA_5.space.case(TIED)) >= 0


@pytest.mark.parametrize("seed", range(8))
def test_it_holds_whichever_svd_theta_0_is_built_from(monkeypatch, seed):
    monkeypatch.setattr(pgd, "spectral_factors", _rotated(_orthogonal(seed, 4)))
    assert _slack(LEMMA_5.space.case(TIED)) >= 0


def test_the_right_side_from_other_bases_than_theta_0s_can_fail(monkeypatch):
    """The planted defect: theta_0 from one SVD, the right side from another. Some pair of rotations breaks the
    inequality, so a check that pairs two SVDs can refute the claim where it holds."""
    case = LEMMA_5.space.case(TIED)
    init, plain = pgd.spectral_init, pgd.spectral_factors
    slacks = []
    for seed in range(8):
        monkeypatch.setattr(pgd, "spectral_init", lambda S, M, factors=None: init(S, M, plain(S, M)))  # theta_0's SVD
        monkeypatch.setattr(pgd, "spectral_factors", _rotated(_orthogonal(seed, 4)))  # the right side's
        slacks.append(_slack(case))
    assert min(slacks) < 0
