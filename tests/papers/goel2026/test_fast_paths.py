"""goel2026: the faster implementations of issue 28 (item 1) against the plain ones they replace, each with a
planted error that the comparison catches."""
import mpmath
import numpy as np
import pytest

from attncheck.papers.goel2026.data import gaussian_regression as gr
from attncheck.papers.goel2026.models import integrability as im
from attncheck.papers.goel2026.models import preconditioned_gd as pgd
from attncheck.papers.goel2026.models import softmax_regression as sr


def _plain_spectral_init(S_hat, M_hat):
    """Algorithm 1, step 2, as first written: two eigendecompositions of Sigma_hat."""
    return sr.unlift(sr.base_of(M_hat @ gr.sym_sqrt(S_hat)), S_hat, M_hat.shape[-2])


def _moments():
    problem = gr.random_problem(np.random.default_rng(3), 3, 5, cond=8.0, x_scale=0.4, spread=0.1, sigma=1.0)
    S_hat, M_hat, _ = gr.sample_moments(problem, np.random.default_rng(4), 50, 200)
    return problem, S_hat, M_hat


def test_sym_powers_are_the_sym_sqrt_arrays():
    _, S_hat, _ = _moments()
    for p, got in zip((0.5, -0.5, 1.0), gr.sym_powers(S_hat, 0.5, -0.5, 1.0), strict=True):
        assert np.array_equal(got, gr.sym_sqrt(S_hat, p))  # to the bit: the same eigh, the same products


def test_spectral_init_is_the_plain_one_to_the_bit():
    problem, S_hat, M_hat = _moments()
    A0, B0 = pgd.spectral_init(S_hat, M_hat)
    A1, B1 = _plain_spectral_init(S_hat, M_hat)
    assert np.array_equal(A0, A1) and np.array_equal(B0, B1)
    assert np.array_equal(sr.manifold_distance(A0, B0, problem), sr.manifold_distance(A1, B1, problem))


def test_spectral_init_comparison_catches_a_planted_error():
    """Planted: Sigma_hat^{1/2} in place of Sigma_hat^{-1/2} on one side of B_0 (a plausible slip)."""
    problem, S_hat, M_hat = _moments()
    Sh, Si = gr.sym_powers(S_hat, 0.5, -0.5)
    Z0 = sr.base_of(M_hat @ Sh)
    k = M_hat.shape[-2]
    B_bad = Si @ Z0[..., k:, :] @ Sh
    _, B1 = _plain_spectral_init(S_hat, M_hat)
    assert not np.allclose(B_bad, B1, rtol=1e-6, atol=0)


def _level_Q(seed, a, b, gap, dps):
    C0 = np.random.default_rng([seed, 7]).standard_normal((2, 2))
    if np.linalg.eigvalsh(C0 + C0.T)[-1] <= 0:
        C0 = -C0

    class XP:
        precise = True

    XP.dps = dps
    return im.level_Q(C0, a, b, gap, XP)


CASES = [(0, 5.4, 3.7, 1e-9), (1, 0.3, 0.0, 1e-14), (2, 0.0, 2.0, 1e-7), (3, 8.0, 8.0, 1e-15), (4, 1.0, 0.5, 0.3),
         (5, 2.0, 0.1, 1e-3)]


@pytest.mark.parametrize("seed, a, b, gap", CASES)
def test_eigen_angle_quadrature_is_the_direct_one(seed, a, b, gap):
    """Lemma 7's mpmath left side: the eigen-angle form over half a period against the direct full period, both
    against the closed form det(I - 2Q)^{-1/2} far inside the claim's relative 1e-9."""
    with mpmath.workdps(30):
        Q = _level_Q(seed, a, b, gap, 30)
        fast, plain = im._angular_mean_mp(Q), im._angular_mean_mp_direct(Q)
        det = (1 - 2 * Q[0][0]) * (1 - 2 * Q[1][1]) - 4 * Q[0][1] ** 2
        assert abs(fast / plain - 1) < 1e-16
        assert abs(fast * mpmath.sqrt(det) - 1) < 1e-16


def test_eigen_angle_quadrature_comparison_catches_a_planted_error():
    """Planted: the eigen-angle integrand with 2r sin^2 in place of 4r sin^2 (cos 2psi = 1 - 2 sin^2 psi, the factor
    2 dropped): far off the direct quadrature."""
    with mpmath.workdps(30):
        Q = _level_Q(0, 5.4, 3.7, 1e-3, 30)
        t = (Q[0][0] + Q[1][1]) / 2
        r = mpmath.sqrt((Q[0][0] - Q[1][1]) ** 2 / 4 + Q[0][1] ** 2)
        g = 1 - 2 * t - 2 * r
        bad = 2 * mpmath.quad(lambda psi: 1 / (g + 2 * r * mpmath.sin(psi) ** 2), [0, mpmath.pi / 2]) / mpmath.pi
        assert abs(bad / im._angular_mean_mp_direct(Q) - 1) > 1e-3
