"""goel2026 implementation layer: closed forms against independent computations
(torch autograd, Monte Carlo, dense formulas), the manifold and Algorithm 1."""
import numpy as np
import pytest
import torch

from attncheck.data import gaussian_regression as gr
from attncheck.models import preconditioned_gd as pgd
from attncheck.models import softmax_regression as sr


@pytest.fixture
def problem():
    return gr.random_problem(np.random.default_rng(1), 3, 5, cond=3.0, x_scale=0.6, sigma=0.2)


def _theta(rng, k, d, scale=0.4):
    return scale * rng.standard_normal((k, d)), scale * rng.standard_normal((d, d))


def test_empirical_gradients_match_autograd(problem):
    rng = np.random.default_rng(2)
    A, B = _theta(rng, problem.k, problem.d)
    x, y = gr.sample(problem, rng, 7, (3,))
    for self_term in (True, False):
        gA, gB = sr.empirical_gradients(A, B, x, y, self_term)
        At, Bt = torch.tensor(A, requires_grad=True), torch.tensor(B, requires_grad=True)
        xt, yt = torch.tensor(x), torch.tensor(y)
        s = xt @ Bt @ xt.transpose(-1, -2)
        if not self_term:
            s = s - torch.diag(torch.full((7,), torch.inf, dtype=torch.float64))
        mu = torch.softmax(s, -1) @ xt
        loss = 0.5 * ((yt - mu @ At.T) ** 2).sum(-1).mean(-1)
        loss.sum().backward()
        np.testing.assert_allclose(gA.sum(0), At.grad.numpy(), rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(gB.sum(0), Bt.grad.numpy(), rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(sr.empirical_loss(A, B, x, y, self_term), loss.detach().numpy(), rtol=1e-12)


def test_population_and_regularizer_gradients_match_autograd(problem):
    rng = np.random.default_rng(3)
    A, B = _theta(rng, problem.k, problem.d)
    At, Bt = torch.tensor(A, requires_grad=True), torch.tensor(B, requires_grad=True)
    S, M = torch.tensor(problem.Sigma), torch.tensor(problem.M)
    E = At @ S @ Bt.T - M
    G = At.T @ At - Bt.T @ S @ Bt
    F = 0.5 * torch.trace(E @ S @ E.T) + torch.trace(G @ S @ G @ S) / 8
    F.backward()
    gA, gB = sr.objective_gradients(A, B, problem)
    np.testing.assert_allclose(gA, At.grad.numpy(), rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(gB, Bt.grad.numpy(), rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(sr.objective_excess(A, B, problem), F.item(), rtol=1e-12)


def test_population_loss_closed_form_matches_ratio_of_expectations(problem):
    rng = np.random.default_rng(4)
    A, B = _theta(rng, problem.k, problem.d, 0.3)
    mc = sr.population_loss_mc(A, B, problem, rng, 40_000, 5_000)
    assert abs(mc - sr.population_loss(A, B, problem)) < 0.02 * sr.population_loss(A, B, problem)


def test_lifted_coordinates(problem):
    rng = np.random.default_rng(5)
    A, B = _theta(rng, problem.k, problem.d)
    Z = sr.lift(A, B, problem.Sigma)
    A2, B2 = sr.unlift(Z, problem.Sigma, problem.k)
    np.testing.assert_allclose(A2, A, atol=1e-12)
    np.testing.assert_allclose(B2, B, atol=1e-12)
    U, V = Z[:problem.k], Z[problem.k:]
    np.testing.assert_allclose(sr.population_loss(A, B, problem) - sr.optimal_loss(problem),
                               0.5 * np.sum((U @ V.T - problem.X) ** 2), rtol=1e-10)
    np.testing.assert_allclose(sr.regularizer(A, B, problem.Sigma), np.sum((U.T @ U - V.T @ V) ** 2) / 8,
                               rtol=1e-10)


def test_manifold_and_projection(problem):
    rng = np.random.default_rng(6)
    R, _ = np.linalg.qr(rng.standard_normal((problem.d, problem.d)))
    A, B = sr.manifold_point(problem, R)
    assert sr.objective_excess(A, B, problem) < 1e-13
    assert max(np.abs(g).max() for g in sr.objective_gradients(A, B, problem)) < 1e-12
    dA, dB = _theta(rng, problem.k, problem.d, 0.05)
    As, Bs = sr.project(A + dA, B + dB, problem)
    dist = sr.manifold_distance(A + dA, B + dB, problem)
    np.testing.assert_allclose(dist, sr.sigma_norm(A + dA - As, B + dB - Bs, problem.Sigma), rtol=1e-12)
    for _ in range(200):  # no manifold point is closer than the projection
        Q, _ = np.linalg.qr(rng.standard_normal((problem.d, problem.d)))
        Aq, Bq = sr.manifold_point(problem, Q)
        assert sr.sigma_norm(A + dA - Aq, B + dB - Bq, problem.Sigma) >= dist - 1e-12


def test_moment_sampler_matches_raw_data(problem):
    rng = np.random.default_rng(7)
    n, size = 40, 20_000
    S_hat, M_hat, _ = gr.sample_moments(problem, rng, n, size)
    x, y = gr.sample(problem, rng, n, (size,))
    S_raw, M_raw = pgd.data_moments(x, y)
    np.testing.assert_allclose(S_hat.mean(0), S_raw.mean(0), atol=0.02)
    np.testing.assert_allclose(S_hat.var(0), S_raw.var(0), rtol=0.1, atol=1e-3)
    np.testing.assert_allclose(M_hat.mean(0), M_raw.mean(0), atol=0.01)
    np.testing.assert_allclose(M_hat.var(0), M_raw.var(0), rtol=0.1, atol=1e-4)


def test_spectral_init_is_the_manifold_point_of_the_estimates(problem):
    A0, B0 = pgd.spectral_init(problem.Sigma, problem.M)
    assert sr.manifold_distance(A0, B0, problem) < 1e-12


def test_algorithm1_converges_and_balances_where_sgd_drifts(problem):
    rng = np.random.default_rng(8)
    x, y = gr.sample(problem, rng, 400)
    A, B = _theta(rng, problem.k, problem.d, 1.0)
    eta = 0.03
    ours = pgd.train(problem, x, y, A, B, eta=eta, steps=300, batch=64, rng=np.random.default_rng(0))
    sgd = pgd.train(problem, x, y, A, B, eta=eta, steps=300, method="sgd", batch=64, rng=np.random.default_rng(0))
    assert ours["excess"][-1] < 0.05 * ours["excess"][0]
    assert ours["distance"][-1] < 0.5 * sgd["distance"][-1]  # the regularizer balances the factors
