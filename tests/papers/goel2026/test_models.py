"""goel2026 implementation layer: closed forms against independent computations
(torch autograd, Monte Carlo, dense formulas), the manifold and Algorithm 1."""
import numpy as np
import pytest
import torch

from attncheck.papers.goel2026.data import gaussian_regression as gr
from attncheck.papers.goel2026.models import preconditioned_gd as pgd
from attncheck.papers.goel2026.models import softmax_moments as sm
from attncheck.papers.goel2026.models import softmax_regression as sr
from attncheck.papers.goel2026.models import wishart_moments as wm


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


def _plain_and_stein(problem, n, N, seed):
    """Per-draw plain row differences (row term minus its population counterpart) and the Stein forms."""
    from attncheck.papers.goel2026.models import finite_n_bias as fb
    rng = np.random.default_rng(seed)
    A, B = 0.6 * rng.standard_normal((problem.k, problem.d)), 0.15 * rng.standard_normal((problem.d, problem.d))
    x = rng.standard_normal((N, n, problem.d)) @ np.linalg.cholesky(problem.Sigma).T
    eps = problem.sigma * rng.standard_normal((N, problem.k))
    y1 = x[:, 0] @ problem.M.T + eps
    gA, gB = sr.row_gradients(A, B, x[:, :1], y1[:, None], x)
    pA, pB = sr.population_gradients(A, B, problem)
    plain = np.concatenate([(-gA[:, 0] - pA).reshape(N, -1), (-gB[:, 0] - pB).reshape(N, -1)], axis=1)
    mu, m = sr.attend(x[:, :1], x, B)[1][:, 0], x[:, 0] @ B @ problem.Sigma
    gap = 0.5 * (np.sum((y1 - mu @ A.T) ** 2, axis=1) - np.sum((y1 - m @ A.T) ** 2, axis=1))
    D = sm.query(x[:, 0], B, x[:, 1:])
    return plain, fb.gradient_bias_draws(A, B, problem, D), gap, fb.loss_gap_draws(A, B, problem, D)


def _z(diff):
    return np.abs(diff.mean(axis=0)) / (diff.std(axis=0) / np.sqrt(len(diff)))


def test_stein_forms_have_the_plain_means(problem):
    """E grad L_n - grad L and E L_n - L: the Stein forms (finite_n_bias) against the plain row differences,
    on the same draws: every coordinate of the mean difference within 5 standard errors of 0."""
    plain, stein, gap, gap_stein = _plain_and_stein(problem, 6, 100_000, 11)
    assert np.all(_z(stein - plain) < 5) and _z((gap_stein - gap)[:, None])[0] < 5
    assert np.linalg.norm(stein.mean(axis=0)) > 10 * np.linalg.norm(stein.std(axis=0)) / np.sqrt(len(stein))


def test_stein_forms_shrink_the_spread_at_large_n(problem):
    """At n = 512 the plain row differences spread O(n^{-1/2}), the Stein forms O(1/n)."""
    plain, stein, gap, gap_stein = _plain_and_stein(problem, 512, 2000, 12)
    assert np.sum(stein.var(axis=0)) < 0.05 * np.sum(plain.var(axis=0))
    assert gap_stein.var() < 0.05 * gap.var()


def _chains(rng, d, r, n, N, Sigma):
    """(chain draws, the population chain, mats) of Sigma_hat M_1 ... M_{r-1} Sigma_hat over N Wishart draws."""
    mats = [rng.standard_normal((d, d)) for _ in range(r - 1)]
    S_hat = gr.wishart_mean(Sigma, n, rng, N)
    draws, population = S_hat, Sigma
    for M in mats:
        draws, population = draws @ M @ S_hat, population @ M @ Sigma
    return draws.reshape(N, -1), population.ravel(), mats


def _off_by_a_power(Sigma, mats, n):
    """A planted error: every bias term one power of n too large."""
    return n * wm.chain_bias(Sigma, mats, n)


def _with_population(Sigma, mats, n):
    """A planted error: the population matching counted in the bias."""
    population = Sigma
    for M in mats:
        population = population @ M @ Sigma
    return wm.chain_bias(Sigma, mats, n) + population


@pytest.mark.parametrize("r", [2, 3, 4])
def test_chain_bias_is_the_mean_of_the_wishart_chain(problem, r):
    """wishart_moments.chain_bias against 200000 Wishart draws (n = 6): every entry within 5 standard errors;
    the planted errors (a power of n off, the population term kept) are 5 standard errors off."""
    rng = np.random.default_rng(20 + r)
    draws, population, mats = _chains(rng, problem.d, r, 6, 200_000, problem.Sigma)
    se = draws.std(axis=0) / np.sqrt(len(draws))

    def z(bias):
        return np.max(np.abs(draws.mean(axis=0) - population - bias(problem.Sigma, mats, 6).ravel()) / se)

    assert z(wm.chain_bias) < 5
    assert z(_off_by_a_power) > 5 and z(_with_population) > 5


def test_chain_bias_of_two_factors_is_the_textbook_formula(problem):
    """E[Sigma_hat M Sigma_hat] = Sigma M Sigma + (Sigma M^T Sigma + tr(M Sigma) Sigma) / n."""
    M = np.random.default_rng(3).standard_normal((problem.d, problem.d))
    S = problem.Sigma
    for n in (1, 7, 10**6):
        np.testing.assert_allclose(wm.chain_bias(S, [M], n), (S @ M.T @ S + np.trace(M @ S) * S) / n,
                                   rtol=1e-12, atol=1e-15)


def test_regularizer_bias_is_the_mean_of_grad_r_hat_minus_grad_r(problem):
    """finite_n_bias.regularizer_bias (exact) against the plain grad R_hat - grad R over 400000 datasets
    (n = 7): every coordinate within 5 standard errors."""
    from attncheck.papers.goel2026.models import finite_n_bias as fb
    rng = np.random.default_rng(13)
    A, B = _theta(rng, problem.k, problem.d)
    n, N = 7, 400_000
    S_hat = gr.wishart_mean(problem.Sigma, n, rng, N)
    gA, gB = sr.regularizer_gradients(A, B, S_hat)
    rA, rB = sr.regularizer_gradients(A, B, problem.Sigma)
    plain = np.concatenate([(gA - rA).reshape(N, -1), (gB - rB).reshape(N, -1)], axis=1)
    assert np.all(_z(plain - fb.regularizer_bias(A, B, problem.Sigma, n)) < 5)
    assert np.any(_z(plain - n * fb.regularizer_bias(A, B, problem.Sigma, n)) > 5)


@pytest.mark.parametrize("per_draw", [False, True])
def test_query_moments_match_the_dense_softmax(per_draw):
    """softmax_moments.query and QueryDraws.cov (batched products, self-term included) against the softmax
    of the n scores x_j^T B^T x_i written out per draw, and draw_keys against z L^T on the same stream (both
    also chunked: the same values to the bit)."""
    rng = np.random.default_rng(21)
    d, n, size = 3, 7, 5
    G = rng.standard_normal((d, d))
    Sigma, B = G @ G.T + np.eye(d), 0.5 * rng.standard_normal((d, d))
    keys = sm.draw_keys(Sigma, np.random.default_rng(4), n, size)
    z = np.random.default_rng(4).standard_normal((size, n - 1, d))
    np.testing.assert_allclose(keys, z @ np.linalg.cholesky(Sigma).T, rtol=1e-13, atol=1e-13)
    np.testing.assert_array_equal(sm.draw_keys(Sigma, np.random.default_rng(4), n, size, rows=4), keys)  # chunked
    x = rng.standard_normal((size, d)) if per_draw else rng.standard_normal(d)
    D = sm.query(x, B, keys)
    np.testing.assert_array_equal(D.cov(rows=1), D.cov())  # one draw per chunk
    for s in range(size):
        xi = x[s] if per_draw else x
        X = np.vstack([xi, keys[s]])  # all n keys, the query's own first
        w = np.exp(X @ B.T @ xi - np.max(X @ B.T @ xi))
        p = w / w.sum()
        mu = p @ X
        C = (X - mu).T @ (p[:, None] * (X - mu))
        np.testing.assert_allclose([D.p_self[s], *D.p_other[s]], p, rtol=1e-12)
        np.testing.assert_allclose(D.mu[s], mu, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(D.cov()[s], C, rtol=1e-11, atol=1e-13)


@pytest.mark.parametrize("query", ["one", "per_draw", "zero"])
def test_score_draws_have_the_law_of_the_keys_softmax(query):
    """softmax_moments.score_draws (scores and one residual per draw) against query over the keys themselves:
    the means of p_ii, sum_j p_ij^2, mu_i, mu_i mu_i^T and C_i (its conditional mean given the scores) agree
    within 5 standard errors of their difference (2 x 200000 draws; a residual of the wrong covariance moves
    E[mu mu^T] by hundreds), and x_i = 0 (no score direction) draws uniform weights."""
    rng = np.random.default_rng(8)
    d, n, size = 3, 5, 200_000
    G = rng.standard_normal((d, d))
    Sigma, B = G @ G.T + 0.5 * np.eye(d), 0.6 * rng.standard_normal((d, d))
    x = {"one": rng.standard_normal(d), "per_draw": rng.standard_normal((size, d)), "zero": np.zeros(d)}[query]
    by_keys = sm.query(x, B, sm.draw_keys(Sigma, np.random.default_rng(1), n, size))
    by_scores = sm.score_draws(x, B, Sigma, np.random.default_rng(2), n, size)

    def stats(D, C):
        return np.column_stack([D.p_self, np.sum(D.p_other ** 2, axis=1), D.mu,
                                (D.mu[:, :, None] * D.mu[:, None, :]).reshape(size, -1), C.reshape(size, -1)])

    a, b = stats(by_keys, by_keys.cov()), stats(by_scores, by_scores.cond_cov())
    se = np.sqrt(a.var(axis=0) / size + b.var(axis=0) / size)
    assert np.all(np.abs(a.mean(axis=0) - b.mean(axis=0)) <= 5 * se + 1e-15)
    if query == "zero":
        np.testing.assert_allclose(by_scores.p_other, 1 / n)
    with pytest.raises(ValueError, match="needs the keys"):
        by_scores.cov()


def test_conditional_means_given_the_scores():
    """ScoreDraws.mu_bar, cond_mumu, gap_outer, cond_cov and tilted_cov against mu_i, mu_i mu_i^T,
    (mu_i - m)(mu_i - m)^T, C_i and (mu_i - m)^T K C_i of explicit keys x_j = a z_j + r_j, the scores z fixed
    (one draw) and the residuals r_j ~ N(0, Sigma - a a^T) drawn 100000 times: every entry within 5 standard
    errors."""
    rng = np.random.default_rng(3)
    d, n, reps = 3, 6, 100_000
    G = rng.standard_normal((d, d))
    Sigma, B, x = G @ G.T + 0.5 * np.eye(d), 0.1 * rng.standard_normal((d, d)), rng.standard_normal(d)  # spread weights
    D = sm.score_draws(x, B, Sigma, np.random.default_rng(5), n, 1)
    u = B.T @ x
    z = (np.random.default_rng(5).standard_normal((1, n - 1)))[0]  # score_draws' own first draw: the z of D
    r = rng.multivariate_normal(np.zeros(d), Sigma - np.outer(D.a[0], D.a[0]), size=(reps, n - 1))
    keys = D.a[0] * z[None, :, None] + r
    np.testing.assert_allclose(keys[0] @ u, np.sqrt(u @ Sigma @ u) * z, rtol=1e-6)  # the scores are D's (up to the
    # rounding of the singular residual law)
    Q = sm.query(x, B, keys)
    m = Sigma @ B.T @ x
    K = G.T @ G  # symmetric, as A^T A
    for draws, mean in [(Q.mu, D.mu_bar), (Q.mu[:, :, None] * Q.mu[:, None, :], D.cond_mumu()),
                        (Q.gap_outer(m), D.gap_outer(m)), (Q.cov(), D.cond_cov()), (Q.tilted_cov(K, m), D.tilted_cov(K, m))]:
        v = draws.reshape(reps, -1)
        assert np.all(np.abs(v.mean(axis=0) - mean[0].ravel()) <= 5 * v.std(axis=0) / np.sqrt(reps))


def test_row_terms_from_the_scores_are_their_means_over_the_residuals():
    """finite_n_bias.loss_gap_draws and gradient_bias_draws from the scores against the same over explicit keys
    x_j = a z_j + r_j, the query and the scores fixed and the residuals drawn 100000 times: within 5 standard
    errors."""
    from attncheck.papers.goel2026.models import finite_n_bias as fb
    rng = np.random.default_rng(11)
    d, k, n, reps = 3, 3, 6, 100_000
    G = rng.standard_normal((d, d))
    problem = gr.Problem(G @ G.T + 0.5 * np.eye(d), rng.standard_normal((k, d)), 0.1)
    A, B, x = 0.5 * rng.standard_normal((k, d)), 0.1 * rng.standard_normal((d, d)), rng.standard_normal((1, d))
    D = sm.score_draws(x, B, problem.Sigma, np.random.default_rng(5), n, 1)
    z = np.random.default_rng(5).standard_normal((1, n - 1))[0]
    r = rng.multivariate_normal(np.zeros(d), problem.Sigma - np.outer(D.a[0], D.a[0]), size=(reps, n - 1))
    Q = sm.query(np.repeat(x, reps, axis=0), B, D.a[0] * z[None, :, None] + r)
    for terms in (fb.loss_gap_draws, fb.gradient_bias_draws):
        v = terms(A, B, problem, Q).reshape(reps, -1)
        assert np.all(np.abs(v.mean(axis=0) - terms(A, B, problem, D).reshape(-1)) <= 5 * v.std(axis=0) / np.sqrt(reps))


def _half_gap_sq(D, D2) -> np.ndarray:
    """The reference estimator of E_i tr Var_{-i}(mu_i) from two independent key sets at one query (a former
    claim's): per draw 1/2 ||mu_bar - mu_bar'||^2 + 1/2 (sum_j p_ij^2 + sum_j p_ij'^2) tr Sigma_perp, whose mean is
    the quantity exactly."""
    gap = D.mu_bar - D2.mu_bar
    return 0.5 * np.sum(gap * gap, axis=1) + 0.5 * (D.p2 + D2.p2) * np.trace(D.perp, axis1=1, axis2=2)


def _half_gap_sq_without_residuals(D, D2):
    """A planted error: 1/2 ||mu_bar - mu_bar'||^2 alone (the residual keys' share dropped)."""
    gap = D.mu_bar - D2.mu_bar
    return 0.5 * np.sum(gap * gap, axis=1)


def test_half_gap_sq_is_the_trace_of_the_variance_of_mu():
    """_half_gap_sq over score draws of two independent key sets at one query x_i against
    tr Var_{-i}(mu_i) from the keys themselves (the trace of the sample covariance of mu over 200000 key sets):
    within 5 standard errors (the error of a sum of variances: its batch means over 20 batches); the planted error
    without the residuals' share is 5 standard errors off."""
    rng = np.random.default_rng(17)
    d, n, N = 3, 8, 200_000
    G = rng.standard_normal((d, d))
    Sigma, B, x = G @ G.T + 0.5 * np.eye(d), 0.3 * rng.standard_normal((d, d)), rng.standard_normal(d)
    mu = sm.query(x, B, sm.draw_keys(Sigma, rng, n, N)).mu
    batches = [np.trace(np.cov(part.T)) for part in np.split(mu, 20)]
    truth, se_truth = np.mean(batches), np.std(batches, ddof=1) / np.sqrt(20)
    D, D2 = (sm.score_draws(x, B, Sigma, rng, n, N) for _ in range(2))

    def z(values):
        return abs(values.mean() - truth) / np.hypot(values.std() / np.sqrt(N), se_truth)

    assert z(_half_gap_sq(D, D2)) < 5
    assert z(_half_gap_sq_without_residuals(D, D2)) > 5


def _mumu_gap_without_the_outer_term(D, m, m_row):
    """A planted error: g m^T + m g^T alone."""
    g = D.p_self[:, None] * (D.x_i - m_row) - D.p2[:, None] * m_row
    return g[:, :, None] * m[..., None, :] + m[..., :, None] * g[:, None, :]


def test_stein_forms_per_draw_query_have_the_plain_means():
    """stein_forms.mumu_gap and cov_gap with one query x_i ~ N(0, Sigma) per draw (the x_i-integrated Lemmas 16 and
    21) against mu mu^T - m m^T and C_i - Sigma of the same keys: their differences have mean 0 within 5 standard
    errors (200000 draws, n = 8); the planted error without (mu - m)(mu - m)^T is 5 standard errors off."""
    from attncheck.papers.goel2026.models import stein_forms as sf
    rng = np.random.default_rng(23)
    d, n, N = 3, 8, 200_000
    G = rng.standard_normal((d, d))
    Sigma, B = G @ G.T + 0.5 * np.eye(d), 0.3 * rng.standard_normal((d, d))
    x = rng.standard_normal((N, d)) @ np.linalg.cholesky(Sigma).T
    Q = sm.query(x, B, sm.draw_keys(Sigma, rng, n, N))
    m = x @ B @ Sigma
    plain_mumu = Q.mu[:, :, None] * Q.mu[:, None, :] - m[:, :, None] * m[:, None, :]
    assert np.all(_z((sf.mumu_gap(Q, m, m) - plain_mumu).reshape(N, -1)) < 5)
    assert np.any(_z((_mumu_gap_without_the_outer_term(Q, m, m) - plain_mumu).reshape(N, -1)) > 5)
    assert np.all(_z((sf.cov_gap(Q, m, m, Sigma) - (Q.cov() - Sigma)).reshape(N, -1)) < 5)


@pytest.mark.parametrize("tau", [1.0, 2.0])
def test_wide_queries_weights_give_the_gaussian_means(tau):
    """softmax_moments.wide_queries: E[w f(x)] = E_{N(0, Sigma)} f for f = x x^T (Sigma) and f = exp(x^T K x / 2)
    with K small enough (its closed form det(I - Sigma K)^{-1/2}), within 5 standard errors over 400000 draws; weights
    of the wrong exponent (tau^2 + 1 for tau^2 - 1) fail where tau > 1."""
    rng = np.random.default_rng(31)
    d, N = 3, 400_000
    G = rng.standard_normal((d, d))
    Sigma = G @ G.T / d + 0.5 * np.eye(d)
    K = 0.1 * np.linalg.inv(Sigma)
    x, w = sm.wide_queries(Sigma, rng, N, tau)
    exact = [Sigma.ravel(), np.linalg.det(np.eye(d) - Sigma @ K) ** -0.5]
    u2 = np.einsum("sa,ab,sb->s", x, np.linalg.inv(Sigma), x) / tau ** 2
    wrong = tau ** d * np.exp(-0.5 * (tau * tau + 1) * u2)
    for f, target in zip([(x[:, :, None] * x[:, None, :]).reshape(N, -1),
                          np.exp(0.5 * np.einsum("sa,ab,sb->s", x, K, x))[:, None]], exact, strict=True):
        assert np.all(_z(w[:, None] * f - target) < 5)
        if tau > 1:
            assert np.any(_z(wrong[:, None] * f - target) > 5)


def test_weighted_rows_weight_one_factor_of_a_pair():
    from attncheck.papers.goel2026.models import stein_forms as sf
    a, b, w = np.ones((4, 2)), np.full((4, 2), 3.0), np.arange(4.0)
    wa, wb = sf.weighted((a, b), w)
    np.testing.assert_array_equal(wa, w[:, None] * a)
    np.testing.assert_array_equal(wb, b)
    np.testing.assert_array_equal(sf.weighted(np.ones((4, 2, 2)), w), w[:, None, None] * np.ones((4, 2, 2)))


def test_row_draws_from_the_wider_queries_keep_the_mean(problem):
    """finite_n_bias.row_draws with tau = 2 (weighted queries) against tau = 1: the loss gap's means agree within 5
    standard errors (100000 draws each, n = 8); the same wide queries without their weights do not."""
    from attncheck.papers.goel2026.models import finite_n_bias as fb
    rng = np.random.default_rng(41)
    A, B = _theta(rng, problem.k, problem.d, scale=0.8)
    plain, wide = (fb.row_draws(fb.loss_gap_draws, A, B, problem, 8, rng, 100_000, tau) for tau in (1.0, 2.0))

    def unweighted(A, B, problem, D):  # the planted error: the weights divided back out
        x = D.x_i
        u2 = np.einsum("sa,ab,sb->s", x, np.linalg.inv(problem.Sigma), x) / 4
        return fb.loss_gap_draws(A, B, problem, D) / (2.0 ** problem.d * np.exp(-1.5 * u2))

    bare = fb.row_draws(unweighted, A, B, problem, 8, rng, 100_000, 2.0)

    def z(a, b):
        return abs(a.mean() - b.mean()) / np.hypot(a.std() / np.sqrt(len(a)), b.std() / np.sqrt(len(b)))

    assert z(plain, wide) < 5
    assert z(plain, bare) > 5


def _tilt_problem(rng, d=3, c=0.5):
    """Sigma and B = Sigma^{-1/2} C Sigma^{-1/2} with ||C||_op = c (lemma-17/rate's domain end at c = 0.5)."""
    G = rng.standard_normal((d, d))
    Sigma = G @ G.T / d + 0.5 * np.eye(d)
    lam, U = np.linalg.eigh(Sigma)
    Si = U @ np.diag(lam ** -0.5) @ U.T
    C = rng.standard_normal((d, d))
    return Sigma, Si @ (c * C / np.linalg.norm(C, 2)) @ Si


def test_tilted_queries_weights_give_the_gaussian_means():
    """softmax_moments.tilted_queries: E[w f(x)] = E_{N(0, Sigma)} f for f = x x^T (Sigma), f = 1 and f = e^{q(x)/2}
    (Lemma 7's closed form det(I - G)^{-1/2}, G = L^T B Sigma B^T L), within 5 standard errors over 400000 draws, at
    ||C||_op = 0.5; weights without the determinant, or with e^{+q} for e^{-q}, fail for one f at least;
    ||C||_op >= 2^{-1/2} is refused."""
    rng = np.random.default_rng(43)
    d, N = 3, 400_000
    Sigma, B = _tilt_problem(rng, d)
    x, w = sm.tilted_queries(Sigma, B, rng, N)
    q = np.einsum("sa,ab,sb->s", x @ B, Sigma, x @ B)
    L = np.linalg.cholesky(Sigma)
    G = L.T @ B @ Sigma @ B.T @ L
    fs = [(x[:, :, None] * x[:, None, :]).reshape(N, -1), np.ones((N, 1)), np.exp(q / 2)[:, None]]
    exact = [Sigma.ravel(), 1.0, np.linalg.det(np.eye(d) - G) ** -0.5]
    no_det = np.exp(-q)
    wrong_sign = np.exp(q) / np.sqrt(np.linalg.det(np.eye(d) - 2 * G))
    for weights, right in ((w, True), (no_det, False), (wrong_sign, False)):
        z = np.concatenate([_z(weights[:, None] * f - target) for f, target in zip(fs, exact, strict=True)])
        assert np.all(z < 5) if right else np.any(z > 5)
    with pytest.raises(ValueError):
        sm.tilted_queries(Sigma, B / 0.5 * 0.71, rng, 10)


def _query_cv_ungated_mean(x, B, Sigma, n):
    """A planted error: query_cv with k the mean of |m|^2 under the e^q tilt, not the gated e^{(1 - gamma) q} one."""
    from attncheck.papers.goel2026.models import stein_forms as sf
    L = np.linalg.cholesky(Sigma)
    K = Sigma @ B.T @ L
    k = np.trace(K @ np.linalg.solve(np.eye(len(L)) - 2 * K.T @ B.T @ L, K.T))
    m = x @ B @ Sigma
    q = np.sum((x @ B) * m, axis=1)
    return np.exp((1 - sf.QUERY_GATE / np.log(n)) * q) * (np.sum(m * m, axis=1) - k)


@pytest.mark.parametrize("n", [8, 1024])
def test_query_cv_has_mean_zero_over_the_gaussian_queries(n):
    """stein_forms.query_cv: mean 0 within 5 standard errors over 10^6 plain queries x ~ N(0, Sigma) (||C||_op = 0.4,
    where its variance is finite) and over 10^6 tilted queries with their weights (||C||_op = 0.5, as lemma-17/rate);
    the planted error (k of the ungated tilt) is 5 standard errors off in both."""
    from attncheck.papers.goel2026.models import stein_forms as sf
    rng = np.random.default_rng(59)
    N = 1_000_000
    Sigma, B = _tilt_problem(rng, 3, 0.4)
    x = rng.standard_normal((N, 3)) @ np.linalg.cholesky(Sigma).T
    assert _z(sf.query_cv(x, B, Sigma, n)[:, None])[0] < 5
    assert _z(_query_cv_ungated_mean(x, B, Sigma, n)[:, None])[0] > 5
    B = B / 0.4 * 0.5
    x, w = sm.tilted_queries(Sigma, B, rng, N)
    assert _z((w * sf.query_cv(x, B, Sigma, n))[:, None])[0] < 5
    assert _z((w * _query_cv_ungated_mean(x, B, Sigma, n))[:, None])[0] > 5


def _n_tr_var_by_score_quadrature(x, B, Sigma, n, self_term=True):
    """An independent n tr Var_{-i}(mu_i) for n = 2, 3: a tensor Gauss-Hermite grid over the n - 1 standardized scores,
    with E[mu_i | the scores] = p_ii x_i + a sum_j p_ij z_j and the residual keys' sum_j p_ij^2 (tr Sigma - |a|^2)."""
    z, w = np.polynomial.hermite_e.hermegauss(160 if n == 2 else 90)
    w = w / np.sqrt(2 * np.pi)
    u = B.T @ x
    m = Sigma @ u
    sigma = np.sqrt(u @ m)
    a = m / sigma
    Z = np.stack(np.meshgrid(*[z] * (n - 1), indexing="ij"), -1).reshape(-1, n - 1)
    W = np.prod(np.stack(np.meshgrid(*[w] * (n - 1), indexing="ij"), -1).reshape(-1, n - 1), axis=1)
    scores = np.concatenate([np.full((len(Z), 1), x @ B @ x if self_term else -np.inf), sigma * Z], 1)
    p = np.exp(scores - scores.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    mu = p[:, :1] * x + np.sum(p[:, 1:] * Z, axis=1)[:, None] * a
    mean = W @ mu
    return n * (W @ np.sum(mu * mu, axis=1) - mean @ mean + W @ np.sum(p[:, 1:] ** 2, axis=1) * (np.trace(Sigma) - a @ a))


def _n_tr_var_without_self(x, B, Sigma, n):
    """A planted error: laplace_moments.n_tr_var without the self-term (e_0 = 0: the n - 1 other keys alone)."""
    from attncheck.papers.goel2026.models import laplace_moments as lm
    s, sigma, DD, Da, aa, perp = lm.tilt_parts(x, B, Sigma)
    EA, EY, EAA, EAY, EYY, P2 = lm.scalar_moments(np.full_like(s, -np.inf), sigma, n).T
    return n * (aa * (EYY - EY * EY) + perp * P2)


def _n_tr_var_with_n_keys(x, B, Sigma, n):
    """A planted error: n other keys instead of n - 1 (the self-term besides)."""
    from attncheck.papers.goel2026.models import laplace_moments as lm
    return lm.n_tr_var(x, B, Sigma, n + 1) * n / (n + 1)


@pytest.mark.parametrize("n", [2, 3])
def test_n_tr_var_matches_quadrature_over_the_scores(n):
    """laplace_moments.n_tr_var against a tensor Gauss-Hermite grid over the scores (n = 2, 3; 6 queries from
    tilted_queries at ||C||_op = 0.3, d = 3): relative 1e-8; both planted errors (no self-term, n other keys) are
    1e-3 off at least; at B = 0 every weight is 1/n and n tr Var = (n - 1) tr Sigma / n."""
    from attncheck.papers.goel2026.models import laplace_moments as lm
    rng = np.random.default_rng(67)
    Sigma, B = _tilt_problem(rng, 3, 0.3)
    x, _ = sm.tilted_queries(Sigma, B, rng, 6)
    ref = np.array([_n_tr_var_by_score_quadrature(xi, B, Sigma, n) for xi in x])
    np.testing.assert_allclose(lm.n_tr_var(x, B, Sigma, n), ref, rtol=1e-8)
    for planted in (_n_tr_var_without_self, _n_tr_var_with_n_keys):
        assert np.all(np.abs(planted(x, B, Sigma, n) / ref - 1) > 1e-3)
    no_self = np.array([_n_tr_var_by_score_quadrature(xi, B, Sigma, n, self_term=False) for xi in x])
    np.testing.assert_allclose(_n_tr_var_without_self(x, B, Sigma, n), no_self, rtol=1e-8)
    np.testing.assert_allclose(lm.n_tr_var(x, 0 * B, Sigma, n), (n - 1) * np.trace(Sigma) / n, rtol=1e-10)


@pytest.mark.parametrize("n", [4, 16, 64])
def test_n_tr_var_matches_monte_carlo_over_the_keys(n):
    """laplace_moments.n_tr_var against n times the sample variance of mu_i over 100000 drawn key sets
    (softmax_moments.query; score_draws at n = 64), at 3 queries from tilted_queries at ||C||_op = 0.5, d = 3: within 5
    standard errors at each; at n = 4 and 16 each planted error (no self-term, n other keys) 5 standard errors off at
    one query at least."""
    from attncheck.papers.goel2026.models import laplace_moments as lm
    rng = np.random.default_rng(71)
    Sigma, B = _tilt_problem(rng, 3)
    x, _ = sm.tilted_queries(Sigma, B, rng, 3)
    N, z = 100_000, []
    for xi in x:
        mu = (sm.score_draws(xi, B, Sigma, rng, n, N) if n == 64
              else sm.query(xi, B, sm.draw_keys(Sigma, rng, n, N))).mu
        sq = n * np.sum((mu - mu.mean(axis=0)) ** 2, axis=1) * N / (N - 1)
        z.append([abs(sq.mean() - f(xi[None], B, Sigma, n)[0]) / (sq.std() / np.sqrt(N))
                  for f in (lm.n_tr_var, _n_tr_var_without_self, _n_tr_var_with_n_keys)])
    z = np.array(z)
    assert np.all(z[:, 0] < 5)
    if n < 64:
        assert np.all(z[:, 1:].max(axis=0) > 5)


def test_n_tr_var_has_the_mean_of_half_gap_sq():
    """laplace_moments.n_tr_var / n against _half_gap_sq (an unbiased two-key-set estimator) on the same
    10000 queries from tilted_queries (||C||_op = 0.5, d = 3, n = 16), importance-weighted: the mean difference within
    5 standard errors of 0, and so is tr_var_cv's (less query_cv / n, of mean 0); the planted n other keys, or n_tr_var
    over n - 1, 5 standard errors off."""
    from attncheck.papers.goel2026.models import laplace_moments as lm
    rng = np.random.default_rng(73)
    n, N = 16, 10_000
    Sigma, B = _tilt_problem(rng, 3)
    x, w = sm.tilted_queries(Sigma, B, rng, N)
    D, D2 = (sm.score_draws(x, B, Sigma, rng, n, N) for _ in range(2))
    old = w * _half_gap_sq(D, D2)
    exact = w * lm.n_tr_var(x, B, Sigma, n) / n
    assert _z((exact - old)[:, None])[0] < 5
    assert _z((w * _n_tr_var_with_n_keys(x, B, Sigma, n) / n - old)[:, None])[0] > 5
    assert _z((exact * n / (n - 1) - old)[:, None])[0] > 5
    assert _z((w * lm.tr_var_cv(x, B, Sigma, n) - old)[:, None])[0] < 5


def test_laplace_quadrature_steps_are_converged(monkeypatch):
    """laplace_moments.scalar_moments: halving both trapezoid steps, and widening the ranges, moves none of the six
    moments by more than 1e-8 relative, for sigma in [0.05, 3.5], s in [-10, 14], n in {64, 4096, 262144} (the tilts
    lemma-17/rate's queries reach: q = sigma^2 <= 12)."""
    from attncheck.papers.goel2026.models import laplace_moments as lm
    S, G = (v.ravel() for v in np.meshgrid([-10.0, -3, 0, 2, 6, 14], [0.05, 0.7, 1.5, 2.5, 3.5]))
    for n in (64, 4096, 262144):
        base = lm.scalar_moments(S, G, n)
        with monkeypatch.context() as mp:
            for name, factor in (("H_V", 0.5), ("Z_STEP", 0.5), ("V_MIN", 1.5), ("Z_HALF", 1.4), ("LOG_TINY", 1.5)):
                mp.setattr(lm, name, getattr(lm, name) * factor)
            fine = lm.scalar_moments(S, G, n)
        np.testing.assert_allclose(base, fine, rtol=1e-8)


def _without_cubic_moments(bias_moments):
    """A planted error: the 1/S^3 moments of laplace_moments.bias_moments dropped (delta delta^T K delta -> 0)."""
    def planted(s, sigma, n):
        c = bias_moments(s, sigma, n)
        c[:, 10:] = 0
        return c
    return planted


def _without_self_term(bias_moments):
    """A planted error: laplace_moments.bias_moments without the self-term (e_0 = 0: the n - 1 other keys alone)."""
    return lambda s, sigma, n: bias_moments(np.full_like(s, -np.inf), sigma, n)


@pytest.mark.parametrize("n", [3, 8, 16])
def test_gradient_bias_given_queries_is_the_mean_over_the_keys(n, monkeypatch):
    """finite_n_bias.gradient_bias_given_queries (exact over the n - 1 other keys) against the mean of
    gradient_bias_draws over 100000 drawn key sets (softmax_moments.query: the keys themselves, C_i and all) at 3
    queries: every coordinate within 5 standard errors; the planted errors (n other keys; the cubic moments dropped)
    more than 5 off at every query."""
    from attncheck.papers.goel2026.models import finite_n_bias as fb
    from attncheck.papers.goel2026.models import laplace_moments as lm
    rng = np.random.default_rng(11)
    d, k, reps = 3, 3, 100_000
    G = rng.standard_normal((d, d))
    problem = gr.Problem(G @ G.T / d + 0.5 * np.eye(d), rng.standard_normal((k, d)), 0.1)
    A, B = 0.5 * rng.standard_normal((k, d)), 0.15 * rng.standard_normal((d, d))
    x = 1.5 * rng.standard_normal((3, d))
    Q = sm.query(np.repeat(x, reps, axis=0), B, sm.draw_keys(problem.Sigma, rng, n, 3 * reps))
    v = fb.gradient_bias_draws(A, B, problem, Q).reshape(3, reps, -1)
    mean, se = v.mean(axis=1), v.std(axis=1) / np.sqrt(reps)

    def z(exact):
        return np.abs((mean - exact) / se).max(axis=1)
    assert np.all(z(fb.gradient_bias_given_queries(A, B, problem, x, n)) < 5)
    assert np.all(z(fb.gradient_bias_given_queries(A, B, problem, x, n + 1)) > 5)
    monkeypatch.setattr(lm, "bias_moments", _without_cubic_moments(lm.bias_moments))
    assert np.all(z(fb.gradient_bias_given_queries(A, B, problem, x, n)) > 5)


def test_gradient_bias_given_queries_has_the_mean_of_the_score_draws(monkeypatch):
    """At n = 256 (a norm-rate claim's first point: theta a tube point of its space), 10000 wide queries
    (importance-weighted), each with one draw of its keys' scores: finite_n_bias.gradient_bias_draws less
    gradient_bias_given_queries has mean 0 within 5 standard errors in every coordinate; the planted error without the
    self-term is more than 5 off in one at least."""
    from attncheck.papers.goel2026.models import finite_n_bias as fb
    from attncheck.papers.goel2026.models import laplace_moments as lm
    from attncheck.papers.goel2026.models import stein_forms as sf
    from attncheck.papers.goel2026.strategies import softmax_regression as ss
    n, size, rng = 256, 10_000, np.random.default_rng(5)
    case = ss.make_tube_case(lambda k: k["rho"], seed=8388607, x_scale=0.121, cond=1.72, extra=0, sigma=0.05,
                             spread=1.0, r=1.0, radial=1.0, d=3)
    A, B = sr.unlift(case.Z_star + case.H, case.problem.Sigma, case.problem.k)
    x, w = sm.wide_queries(case.problem.Sigma, rng, size, 2.0)
    mc = sf.weighted(fb.gradient_bias_draws(A, B, case.problem, sm.score_draws(x, B, case.problem.Sigma, rng, n, size)),
                     w)
    assert np.all(_z(mc - sf.weighted(fb.gradient_bias_given_queries(A, B, case.problem, x, n), w)) < 5)
    monkeypatch.setattr(lm, "bias_moments", _without_self_term(lm.bias_moments))
    assert np.max(_z(mc - sf.weighted(fb.gradient_bias_given_queries(A, B, case.problem, x, n), w))) > 5


def test_bias_moments_quadrature_steps_are_converged(monkeypatch):
    """laplace_moments.bias_moments: halving both trapezoid steps, and widening the ranges, moves none of the sixteen
    moments by more than 1e-7 relative (or 1e-12 / n absolute: E A is O(1/n)), for sigma in [0.05, 5], s in [-10, 20], n in
    {64, 4096, 262144, 4194304} (the tilts the norm-rate claims' wide queries reach; their deep path's end); the first
    six are scalar_moments' (1e-8)."""
    from attncheck.papers.goel2026.models import laplace_moments as lm
    S, G = (v.ravel() for v in np.meshgrid([-10.0, -3, 0, 2, 6, 14, 20], [0.05, 0.7, 1.5, 2.5, 3.5, 5.0]))
    for n in (64, 4096, 262144, 4194304):
        base = lm.bias_moments(S, G, n)
        with monkeypatch.context() as mp:
            for name, factor in (("H_V", 0.5), ("Z_STEP", 0.5), ("V_MIN", 1.5), ("Z_HALF", 1.4), ("LOG_TINY", 1.5)):
                mp.setattr(lm, name, getattr(lm, name) * factor)
            fine = lm.bias_moments(S, G, n)
        np.testing.assert_allclose(base, fine, rtol=1e-7, atol=1e-12 / n)
        np.testing.assert_allclose(base[:, :6], lm.scalar_moments(S, G, n), rtol=1e-8)
