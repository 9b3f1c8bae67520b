"""goel2026 Theorem 2's long runs and adversarial errors (ld.adversarial_error, theorem-2/long-run): the error
direction -Kbar H K is the worst for its norm, and a planted false bound (rate 2 gamma, no error floor) is refuted
only by runs past 300 steps with that direction."""
from pathlib import Path

import numpy as np
import pytest

from attncheck import F64
from attncheck.core.claims import REGISTRY
from attncheck.papers.goel2026.models import lifted_dynamics as ld
from attncheck.run import loader

loader.load([Path(__file__).resolve().parents[3] / "properties" / "goel2026" / "test_statistics.py"])
LONG = REGISTRY.get("goel2026/theorem-2/long-run")


@pytest.mark.parametrize("seed", range(4))
def test_the_adversarial_error_minimises_the_inner_product(seed):
    rng = np.random.default_rng(seed)
    k, d = 4, 3
    H = rng.standard_normal((k + d, d))
    E = rng.standard_normal((d, d))
    K = np.eye(d) + 0.1 * (E + E.T)
    e = ld.adversarial_error(H, K, k)
    step = ld.preconditioned_step(np.zeros_like(H), np.zeros_like(H), e, K, k)  # Kbar e K (no gradient at Z = 0)
    best = np.sum(step * H)
    assert abs(np.linalg.norm(e) - 1) < 1e-12
    for _ in range(500):
        u = rng.standard_normal(H.shape)
        u /= np.linalg.norm(u)
        assert np.sum(ld.preconditioned_step(np.zeros_like(H), np.zeros_like(H), u, K, k) * H) >= best


def _case(t_frac, push):
    return LONG.space.case(dict(d=3, extra=1, cond=3.0, x_scale=1.0, spread=0.5, sigma=0.1, seed=3, r=1.0, radial=0.0,
                                k_frac=1.0, e_frac=1.0, t_frac=t_frac, push=push))


def _phi(case, T):
    return ld.algorithm1_lifted(case.problem, case.Z_star, case.H, case.K, case.eta, case.E, T,
                                case.values["push"], case.values["seed"])[:2]


def test_the_long_adversarial_run_holds_and_refutes_a_planted_bound():
    """Planted: Phi_T <= (1 - 2 gamma)^T Phi_0 (twice the rate, no error floor). It holds for T <= 300 and for random
    errors, and fails at T = 3/gamma with the adversarial direction, where the stated bound still holds."""
    case = _case(1.0, 1.0)
    assert case.T > 3000 and float(np.min(LONG.evaluate(case, F64).value)) >= 0
    phi0, phiT = _phi(case, case.T)
    assert phiT > (1 - 2 * case.gamma) ** case.T * phi0
    assert _phi(case, 300)[1] <= (1 - 2 * case.gamma) ** 300 * phi0
    calm = _case(1.0, 0.0)
    assert _phi(calm, calm.T)[1] <= (1 - 2 * calm.gamma) ** calm.T * phi0


def test_the_long_run_claim_can_fail():
    """The claim's evaluator on the planted bound above (gamma doubled, c_e = 0: no error floor)."""
    case = _case(1.0, 1.0)
    case.extra.update(gamma=2 * case.gamma, c_e=0.0)
    assert float(np.min(LONG.evaluate(case, F64).value)) < 0
