"""goel2026: Lemmas 4, 5 and Theorem 2 are covariant under X -> tX (Z -> t^{1/2} Z): the relative slack of a case
does not change with sigma_1(X), which is why 'sigma_1(X) outside [0.01, 10]' adds no new case there."""
from pathlib import Path

import numpy as np
import pytest

from attncheck import F64
from attncheck.core.claims import REGISTRY
from attncheck.run import loader

loader.load([Path(__file__).resolve().parents[3] / "properties" / "goel2026" / "test_statistics.py"])
BASE = dict(d=3, extra=1, cond=3.0, spread=0.4, sigma=0.1, seed=11, r=0.7, radial=0.3, k_frac=0.8)
CASES = {
    "lemma-4/part-1": dict(BASE, e_frac=3.0, adv=0.7),
    "lemma-4/part-2": dict(BASE, e_frac=3.0, adv=0.7),
    "theorem-2/main": dict(BASE, e_frac=0.9, T=150, push=0.6),
    "theorem-2/distance": dict(BASE, e_frac=0.9, T=150, push=0.6),
    "lemma-5/main": dict(d=3, extra=1, cond=3.0, spread=0.4, sigma=0.1, seed=11, s_pert=0.3, eps_frac=0.6),
}


@pytest.mark.parametrize("cid", sorted(CASES))
def test_the_relative_slack_does_not_depend_on_sigma_1(cid):
    claim = REGISTRY.get(f"goel2026/{cid}")
    rel = []
    for x_scale in (0.02, 0.5, 8.0):
        s = claim.evaluate(claim.space.case(dict(CASES[cid], x_scale=x_scale)), F64)
        rel.append(np.asarray(s.value, float) / np.asarray(s.scale, float))
    assert np.min(rel[1]) > 0
    np.testing.assert_allclose(rel[0], rel[1], rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(rel[2], rel[1], rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("cid", ["lemma-3/main", "lemma-3/rate"])
def test_lemma_3_is_covariant_under_x_and_noise_scaling(cid):
    """(X, sigma) -> (tX, t sigma) maps (Sigma_hat, M_hat) to (Sigma_hat, t M_hat) draw by draw: Lemma 3's slack is
    unchanged and sqrt(n) dist scales by t^{1/2}, which is why 'noise sigma > 1' adds no new case there."""
    claim, n, t = REGISTRY.get(f"goel2026/{cid}"), 10**5, 4.0
    base = dict(d=3, extra=1, cond=3.0, spread=0.4, seed=11, delta=0.05)
    out = []
    for x_scale, sigma in ((0.5, 0.25), (0.5 * t, 0.25 * t)):
        case = claim.space(n).case(dict(base, x_scale=x_scale, sigma=sigma))
        s = claim.evaluate(case, claim.sample(case, np.random.default_rng(5), 64), F64)
        out.append(np.asarray(s.value, float) if cid == "lemma-3/main" else np.asarray(s, float))
    expected = out[0] if cid == "lemma-3/main" else np.sqrt(t) * out[0]
    assert np.ptp(out[0]) > 0
    np.testing.assert_allclose(out[1], expected, rtol=1e-7, atol=1e-12 * np.abs(expected).max())
