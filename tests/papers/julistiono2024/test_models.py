"""julistiono2024 models: closed forms against torch autograd, mpmath and independent solvers."""
from pathlib import Path

import mpmath
import numpy as np
import pytest
import torch
from flint import arb
from scipy.optimize import minimize

from attncheck.core.claims import REGISTRY
from attncheck.numeric.arbfloat import ArbRun
from attncheck.numeric.devices import torch_device
from attncheck.numeric.exact import EXACT
from attncheck.numeric.interval import Undecided
from attncheck.numeric.precision import MP
from attncheck.papers.julistiono2024.data.mirror_descent import AttData, joint_toy, synthetic
from attncheck.papers.julistiono2024.models import att_svm as svm
from attncheck.papers.julistiono2024.models import cone_runs as conv
from attncheck.papers.julistiono2024.models import mirror_descent as md
from attncheck.papers.julistiono2024.models.theorem_runs import settled
from attncheck.run import loader

CLAIMS = Path(__file__).resolve().parents[3] / "properties" / "julistiono2024"


def _eq29_claim():
    """lemma-29/eq-29, from the registry (its claim file loaded as attncheck loads it)."""
    loader.load([CLAIMS])
    return REGISTRY.get("julistiono2024/lemma-29/eq-29")


@pytest.fixture(scope="module")
def data():
    return synthetic(6, 8, 10, np.random.default_rng(3))


def _torch_loss(data, W, v):
    dev = torch_device()
    X = torch.tensor(data.X, device=dev)
    z = torch.tensor(data.z, device=dev)
    Y = torch.tensor(data.Y, device=dev)
    h = torch.einsum("itd,de,ie->it", X, W, z)
    s = torch.softmax(h, dim=-1)
    out = Y * torch.einsum("it,itd,d->i", s, X, v)
    return torch.nn.functional.softplus(-out).mean()


@pytest.mark.parametrize("scale", [0.1, 1.0, 5.0])
def test_gradients_match_torch_autograd(data, scale):
    rng = np.random.default_rng(0)
    W0, v0 = scale * rng.standard_normal((10, 10)), rng.standard_normal(10)
    dev = torch_device()
    W = torch.tensor(W0, device=dev, requires_grad=True)
    v = torch.tensor(v0, device=dev, requires_grad=True)
    L = _torch_loss(data, W, v)
    L.backward()
    assert np.isclose(md.loss(data, W0, v0), L.item(), rtol=1e-13)
    for ours in (md.grad(data, W0, v0), md.grad_dense(data, W0, v0)):
        assert np.allclose(ours, W.grad.cpu().numpy(), rtol=1e-10, atol=1e-15)
    assert np.allclose(md.grad_v(data, W0, v0), v.grad.cpu().numpy(), rtol=1e-10, atol=1e-15)
    V = rng.standard_normal((10, 10))
    assert np.isclose(md.grad_inner(data, W0, V, v0), np.sum(W.grad.cpu().numpy() * V), rtol=1e-10)


def test_pairwise_gradient_keeps_its_sign_where_the_dense_form_cancels(data):
    alpha = svm.optimal_tokens(data)
    W_mm = svm.att_svm(data, alpha, 2.0).w
    W = 40.0 * W_mm  # softmax weights ~ e^-40: the dense S'(h) gamma cancels
    with mpmath.workdps(60):
        exact = md.grad_inner(data, W, W_mm, xp=MP(60))
    ours = md.grad_inner(data, W, W_mm)
    assert exact < 0 and ours < 0
    assert abs(ours - float(exact)) <= 1e-12 * abs(float(exact))
    assert abs(np.sum(md.grad(data, W) * W_mm) - float(exact)) <= 1e-8 * abs(float(exact))


def test_bregman_termwise_series_matches_mpmath():
    rng = np.random.default_rng(1)
    for p in (1.1, 1.75, 2.0, 3.0, 7.5):
        y = rng.standard_normal(50) * 10 ** rng.uniform(-3, 3, 50)
        x = y * (1 + 10 ** rng.uniform(-12, -1, 50) * rng.choice([-1, 1], 50))
        ours = md.bregman_terms(x, y, p)
        with mpmath.workdps(80):
            ref = md.bregman_terms(x, y, p, MP(80))
        assert np.all(ours >= 0)
        assert np.allclose(ours, ref.astype(float), rtol=1e-9, atol=0)


def test_directional_bregman_identity_and_mirror_maps():
    rng = np.random.default_rng(2)
    for p in (1.3, 2.0, 3.5):
        W, V = rng.standard_normal((4, 4)), rng.standard_normal((4, 4))
        assert np.isclose(md.directional_bregman(V, W, p), md.directional_bregman_correlation(V, W, p), rtol=1e-10)
        assert np.allclose(md.inverse_mirror_map(md.mirror_map(W, p), p), W, rtol=1e-12)
        q = md.dual_exponent(p)
        assert np.isclose(md.lp_norm(md.mirror_map(W, p), q), md.lp_norm(W, p) ** (p - 1), rtol=1e-12)
        assert np.isclose(md.lp_norm(W, p), np.linalg.norm(W.ravel(), p), rtol=1e-13)


def test_md_step_is_gd_at_p_2_and_normalized_step_has_unit_dual_norm(data):
    rng = np.random.default_rng(4)
    W = rng.standard_normal((10, 10))
    G = md.grad(data, W)
    assert np.allclose(md.md_step(W, G, 0.3, 2.0), W - 0.3 * G, rtol=1e-14)
    p = 3.0
    W1 = md.md_step(W, G, 0.1, p, normalized=True)
    step = md.mirror_map(W, p) - md.mirror_map(W1, p)
    assert np.isclose(md.lp_norm(step, md.dual_exponent(p)), 0.1, rtol=1e-10)


def _slsqp(cons, p, shape):
    """Independent primal solve: SLSQP on min ||w||_p^p / p s.t. A w >= 1."""
    A = cons.gram_rows(np.arange(cons.m))
    res = minimize(lambda w: np.sum(np.abs(w) ** p) / p, np.linalg.lstsq(A, np.ones(cons.m), rcond=None)[0],
                   jac=lambda w: np.sign(w) * np.abs(w) ** (p - 1), method="SLSQP",
                   constraints=[{"type": "ineq", "fun": lambda w: A @ w - 1.0, "jac": lambda w: A}],
                   options={"ftol": 1e-15, "maxiter": 2000})
    assert res.success, res.message
    return res.x.reshape(shape)


@pytest.mark.parametrize("p", [2.0, 1.5, 3.0])
def test_att_svm_agrees_with_slsqp_and_certifies_itself(p):
    data = synthetic(3, 4, 4, np.random.default_rng(5))
    alpha = svm.optimal_tokens(data)
    cons = svm.AttConstraints(data, alpha)
    sol = svm.solve_min_norm(cons, p)
    assert sol.kkt <= 1e-8 and 0 <= sol.gap <= 1e-8
    ref = _slsqp(cons, p, (4, 4))
    assert np.isclose(sol.norm, md.lp_norm(ref, p), rtol=1e-6)
    assert np.allclose(sol.w, ref, atol=1e-4 * np.max(np.abs(ref)))


def test_att_svm_p2_is_the_qp_solution_by_active_set_equations():
    """p = 2: the QP solution is W = A_S^T (A_S A_S^T)^{-1} 1 on the support set (an exact linear solve)."""
    data = synthetic(6, 8, 10, np.random.default_rng(6))
    cons = svm.AttConstraints(data, svm.optimal_tokens(data))
    sol = svm.solve_min_norm(cons, 2.0)
    S = np.flatnonzero(sol.supports(1e-7))
    A_S = cons.gram_rows(S)
    lam_S = np.linalg.solve(A_S @ A_S.T, np.ones(S.size))
    assert np.all(lam_S > 0)  # dual feasible
    W_qp = (A_S.T @ lam_S).reshape(10, 10)
    assert np.all(cons.apply(W_qp) >= 1 - 1e-10)  # primal feasible: (W_qp, lam_S) satisfies the KKT system
    assert np.allclose(sol.w, W_qp, atol=1e-9)


def test_decoder_svm_and_joint_toy():
    data = joint_toy()
    alpha = np.array([0, 0])
    sol = svm.decoder_svm(data, alpha, 2.0)
    A = data.Y[:, None] * data.X[np.arange(2), alpha]
    assert np.all(A @ sol.w >= 1 - 1e-9) and sol.kkt <= 1e-8
    with pytest.raises(ValueError):
        AttData(data.X, data.z, np.array([1.0, 0.0]), data.v)


def test_cone_geometry_on_the_section_4_1_data(data):
    for p in (1.75, 2.0, 3.0):
        g = svm.cone_geometry(data, svm.optimal_tokens(data), p)
        assert g.locally_optimal()
        assert g.nu > 0 and g.support.any()
        mu = g.mu_alpha()
        assert 0 < mu and np.isclose(g.eps_mu(mu), g.nu / 4, rtol=1e-9)


def test_track_follows_the_update_rule(data):
    """track: the same iterates as attgd (un-normalized), N^(p-1) = ||grad psi||_q, losses as exact excesses."""
    rng = np.random.default_rng(5)
    W0, Wmm = rng.standard_normal((10, 10)), rng.standard_normal((10, 10))
    for p in (1.5, 2.0, 3.0):
        tr = md.track(data, W0, Wmm, p, 0.5, 20)
        Ws = md.attgd(data, W0, p, 0.5, 20)
        assert np.allclose(tr.N, [md.lp_norm(W, p) for W in Ws], rtol=1e-12)
        assert np.allclose(tr.Np1, tr.N ** (p - 1), rtol=1e-12)
        assert np.allclose(tr.D, [md.directional_bregman(Wmm, W, p) for W in Ws], rtol=1e-9, atol=1e-15)
        ref = np.mean(md.logistic(md.gammas(data).max(axis=1)))
        assert np.allclose(tr.L + ref, [md.loss(data, W) for W in Ws], rtol=1e-12)
        assert np.allclose(tr.dNp1[:-1], np.diff(tr.Np1), rtol=1e-8, atol=1e-14 * tr.Np1[0])
        assert np.allclose(tr.dL[:-1], -np.diff(tr.L), rtol=1e-8, atol=1e-15)
        assert np.allclose(tr.g, [np.sum(md.grad(data, W) * md.normalize(Wmm, p)) for W in Ws], rtol=1e-12)
        longer = tr.extend(data, Wmm, p, 0.5, 10)
        assert np.allclose(longer.N, md.track(data, W0, Wmm, p, 0.5, 30).N, rtol=1e-13)
        assert np.allclose(longer.head(20).dNp1, tr.dNp1, rtol=1e-13)
        assert np.array_equal(md.iterate(data, md.mirror_map(W0, p), p, 0.5, 20), tr.theta_last)


@pytest.mark.parametrize("rel", [1e-3, 1e-8, 1e-13])
def test_step_increments_have_no_cancellation(data, rel):
    """dual_norm_increment, primal_increment, loss_decrease keep ~15 digits of a step far below N's rounding."""
    rng = np.random.default_rng(8)
    for p in (1.1, 1.5, 2.0, 3.0, 4.0):
        W = 30 * rng.standard_normal((10, 10))
        W[0, 0] = 0.0  # an entry at 0 (the direct branch)
        theta = md.mirror_map(W, p)
        h = rel * rng.standard_normal((10, 10)) * np.abs(theta)
        h[0, 0] = 1e-9
        q = float(md.dual_exponent(p))
        dn, dW = md.dual_norm_increment(theta, h, q), md.primal_increment(theta, h, p)
        dL = md.loss_decrease(data, W, dW)
        with mpmath.workdps(60):
            xp = MP(60)
            th1 = xp.asarray(theta) + xp.asarray(h)
            ref_n = md.lp_norm(th1, q, xp) - md.lp_norm(theta, q, xp)
            ref_W = (md.inverse_mirror_map(th1, p, xp) - md.inverse_mirror_map(theta, p, xp)).astype(float)
            ref_L = md.loss(data, W, xp=xp) - md.loss(data, xp.asarray(W) + xp.asarray(dW), xp=xp)
            assert abs(float((dn - ref_n) / ref_n)) <= 1e-13
            assert abs(float((dL - ref_L) / ref_L)) <= 1e-13
        assert np.max(np.abs(dW - ref_W)) <= 1e-14 * np.max(np.abs(ref_W))


def test_exact_run_and_the_per_step_form_of_29():
    """lemma-29/eq-29: its float64 per-step form agrees with (29') on the run recomputed in 60 digits, to 1e-14 of its
    scale, where the float64 iterates' own differences carry errors of 1e-15 relative (R0 = 10 and 30)."""
    for args in [((10.0, 60), 0, 1.5, 0.3819660112501051, 2147483648, 1e-3), ((30.0, 60), 1, 3.0, 0.0, 0, 1.0)]:
        run = conv.Run(*args)
        fast = conv.eq29_steps(run.tr, run.eta)
        with mpmath.workdps(60):
            xp = MP(60)
            exact = run.exact(xp)
            direct = conv.eq29(exact, run.eta, xp)
            S = np.array([float(v * n) for v, n in zip(direct.value, exact.Np1[1:], strict=False)])
            assert np.allclose(exact.N.astype(float), run.tr.N, rtol=1e-13)
        assert np.max(np.abs(fast.value - S) / fast.scale) <= 1e-14


def test_the_exact_run_on_arb_balls_is_the_mpmath_run():
    """Run.exact computes on arb balls (ArbRun) the run md.track computes in MP(dps): every column within 1e-55 of
    its scale at 60 digits (R0 = 30 ||W_mm||_p, where (29') is decided at 60 digits; and R0 = 3 at u > 0)."""
    for args in [((30.0, 40), 3, 2.5, 0.0, 0, 1e-3), ((3.0, 40), 0, 1.5, 0.4, 5, 1.0)]:
        run = conv.Run(*args)
        with mpmath.workdps(60):
            xp = MP(60)
            fast = run.exact(xp)
            ref = md.track(run.case.data, run.case.W, run.geom.W_mm, run.p, run.eta, 40, xp=xp)
            for name, a, b in zip(md.Track._fields[:-1], fast, ref, strict=False):
                scale = max(1, max(abs(v) for v in b[:-1]))
                assert max(abs(x - y) for x, y in zip(a[:-1], b[:-1], strict=True)) <= 1e-55 * scale, name


def test_a_sign_the_balls_do_not_decide_is_never_taken():
    """The mirror map branches on sign(theta): on a ball that straddles 0 (ArbRun) it raises instead of taking 0."""
    with ArbRun(30).context() as xp:
        assert list(md._sign(np.array([arb(2), arb(-1), arb(0)], dtype=object), xp)) == [1, -1, 0]
        with pytest.raises(Undecided):
            md.mirror_map(np.array([arb(0, 1e-40)], dtype=object), 2.5, xp)
        with pytest.raises(Undecided):
            md._nonzero(arb(1e-45, 1e-40), xp)


def test_runs_from_the_max_margin_ray_are_shared_across_w():
    """At u = 0 a cone point is R ||W_mm||_p bar W_mm whatever w, so the runs (float64 and exact) are computed once for
    every w; at u > 0, w picks another start and another run."""
    a, b = conv.Run((30.0, 40), 1, 2.5, 0.0, 0, 1e-3), conv.Run((30.0, 40), 1, 2.5, 0.0, 77, 1e-3)
    assert np.array_equal(a.case.W, b.case.W) and (a.case.w, b.case.w) == (0, 77)
    with mpmath.workdps(30):
        assert a.exact(MP(30)) is b.exact(MP(30))
    fresh = md.track(b.case.data, b.case.W, b.geom.W_mm, 2.5, 1e-3, 40)
    assert np.array_equal(fresh.N, b.tr.N) and np.array_equal(fresh.D, b.tr.D)
    c, e = conv.Run((30.0, 40), 1, 2.5, 0.5, 0, 1e-3), conv.Run((30.0, 40), 1, 2.5, 0.5, 77, 1e-3)
    assert not np.array_equal(c.case.W, e.case.W) and not np.array_equal(c.tr.D, e.tr.D)


def test_loss_excess_has_no_cancellation(data):
    """At a large scale the excess over the selected tokens' loss (far below L's rounding) keeps 12 digits."""
    W = 1e2 * np.random.default_rng(1).standard_normal((10, 10))
    with mpmath.workdps(200):
        xp = MP(200)
        exact = md.loss(data, W, xp=xp) - xp.sum(md.logistic(md.gammas(data, xp=xp)[np.arange(6), np.argmax(
            md.scores(data, W), axis=-1)], xp)) / 6
    anchor = np.argmax(md.scores(data, W), axis=-1)
    assert float(exact) != 0.0
    assert abs(md.loss_excess(data, W, anchor) - float(exact)) <= 1e-12 * abs(float(exact))


def test_primal_dual_polish_reaches_kkt_for_p_above_2():
    """p = 4, n = 6, T = 16, d = 16: the dual Newton polish stalls (|U|^(q-1) at U = 0); the primal-dual one does not."""
    data = synthetic(6, 16, 16, np.random.default_rng(7))
    alpha = np.argmax(md.gammas(data), axis=1)
    sol = svm.att_svm(data, alpha, 4.0)
    assert sol.kkt <= 1e-8 and sol.gap <= 1e-8


def test_experiment_agreement_verdicts():
    """4.1 / 4.2 agreement: the paper's reading agrees; a planted mismatch (or a non-decreasing curve) does not."""
    from attncheck.papers.julistiono2024.experiments import synthetic as ex

    P = ex.P_VALUES
    res = {"final": {f"q={q},p={p}": 0.01 if q == p else 0.05 for q in P for p in P},
           "mean": {f"q={q},p={p}": [1.0, 0.5, 0.2, 0.1, 0.01] for q in P for p in P}}
    assert ex.agreement_4_1(res)["agreement"] == "agrees"
    res["final"]["q=2.0,p=3.0"] = 0.001
    assert ex.agreement_4_1(res)["agreement"] == "partly"
    for p in P:
        res["mean"][f"q={p},p={p}"] = [1.0, 0.1, 0.2, 0.3, 0.4]
    assert ex.agreement_4_1(res)["agreement"] == "disagrees"
    good = {"D_W": [1.0, 0.5, 0.1, 0.01], "D_v": [1.0, 0.4, 0.1, 0.02], "softmax_selected": [0.99, 0.95]}
    assert ex.agreement_4_2({str(p): good for p in P})["agreement"] == "agrees"
    flat = dict(good, softmax_selected=[0.99, 0.5])
    assert ex.agreement_4_2({"1.75": good, "2.0": flat, "3.0": flat})["agreement"] == "partly"


def test_experiments_assert_the_svm_certificate():
    """Every SVM behind the Section 4 experiments must be certified to KKT <= 1e-8; a planted worse one stops them."""
    from attncheck.papers.julistiono2024.experiments import synthetic as ex

    data = synthetic(3, 4, 4, np.random.default_rng(5))
    sol = svm.att_svm(data, svm.optimal_tokens(data), 2.0)
    assert ex._certified(sol, "here") is sol
    with pytest.raises(ArithmeticError, match="KKT"):
        ex._certified(svm.SVMSolution(sol.w, sol.lam, sol.margins, 2.0, kkt=1e-6, gap=0.0, seconds=0.0), "planted")


@pytest.mark.parametrize("p", [1.1, 1.5, 2.0, 3.0, 4.5])
def test_mirror_map_and_svm_dual_gradient_match_torch_autograd(p):
    """The two other closed-form gradients: grad psi = sign(W)|W|^(p-1) (Definition 1) and the smooth dual's gradient
    A w(lam) - 1 with w = sign(U)|U|^(q-1), U = A^T lam (Section 1.5), against torch autograd (float64)."""
    dev = torch_device()
    rng = np.random.default_rng(9)
    W0 = rng.standard_normal((5, 5)) * 10 ** rng.uniform(-2, 2, (5, 5))
    W = torch.tensor(W0, device=dev, requires_grad=True)
    (W.abs() ** p).sum().div(p).backward()
    assert np.allclose(md.mirror_map(W0, p), W.grad.cpu().numpy(), rtol=1e-12, atol=0)
    data = synthetic(3, 4, 4, np.random.default_rng(5))
    cons = svm.AttConstraints(data, svm.optimal_tokens(data))
    lam0 = rng.uniform(0.1, 1.0, cons.m)
    neg_g, grad = svm._dual(cons, p)(lam0)
    q = float(md.dual_exponent(p))
    A = torch.tensor(cons.gram_rows(np.arange(cons.m)), device=dev)
    lam = torch.tensor(lam0, device=dev, requires_grad=True)
    g = lam.sum() - ((A.T @ lam).abs() ** q).sum() / q
    g.backward()
    assert np.isclose(-neg_g, g.item(), rtol=1e-12)
    assert np.allclose(-np.asarray(grad), lam.grad.cpu().numpy(), rtol=1e-10, atol=1e-12)


def test_the_rounding_scale_of_a_divergence_rounded_below_zero_is_real():
    """Deep profile, lemma-29/eq-29 at Run(R=30, K=2000, seed=0, p=1.1, u=0, w=0, eta=1e-3): the mpmath D of a run on
    the max-margin direction rounded to -5.9e-31, and sqrt made the slack's scale complex (ERROR)."""
    from types import SimpleNamespace

    with mpmath.workdps(30):
        D = np.array([mpmath.mpf("-5.9e-31"), mpmath.mpf("0.25"), mpmath.mpf("-1e-40")], dtype=object)
        scale = conv.d_rounding(SimpleNamespace(D=D), MP(30))
        assert all(isinstance(s, mpmath.mpf) for s in scale)
        assert abs(scale[0] - (mpmath.sqrt(mpmath.mpf("0.25")) + mpmath.sqrt(mpmath.mpf("5.9e-31")) + 1)) < 1e-25


def test_a_thirty_digit_run_does_not_decide_what_sixty_digits_reverse():
    """Deep profile, lemma-29/eq-29 at Run(R=30, seed=0, p=1.1, u=0, w=0, eta=1e-3) was REFUTED at a relative slack
    of -6.6e-16, decided at 30 digits: the mpmath D = 1 - <theta, bar W_mm>/||theta||_q errs by ~1e-30 absolute, and
    its scale was sqrt(D) ~ 0. At 60 and 100 digits every slack of the run is positive (+8e-19 relative at k = 1).
    The first 100 steps carry 88 of the false negatives. Its mirror image (the slack negated: false by exactly as
    much as the claim holds) must still be refuted at every step: the larger scale costs precision, not power."""
    from attncheck.numeric.precision import Slack, holds

    eq29 = _eq29_claim()
    run = conv.Run((30.0, 100), 0, 1.1, 0.0, 0, 1e-3)
    decided = holds(lambda xp, idx: eq29.evaluate(run, xp), margin=eq29.margin)
    assert decided.ok.all() and not decided.undecided.any()
    assert (decided.rel > 0).all()

    def mirror(xp, idx):
        s = eq29.evaluate(run, xp)
        return Slack(-np.asarray(s.value), s.scale)

    planted = holds(mirror, margin=eq29.margin)
    assert not planted.ok.any() and not planted.undecided.any()


def test_the_settled_tokens_are_those_of_the_whole_second_half_or_none():
    stable = np.array([[0, 1], [2, 1], [2, 3], [2, 3], [2, 3]])
    assert settled(stable).tolist() == [2, 3]
    assert settled(np.array([[2, 3], [2, 3], [2, 3], [2, 1], [2, 3]])) is None  # a change inside the second half


@pytest.mark.parametrize("xp", [MP, EXACT()], ids=["mpmath", "exact"])
def test_scores_and_gammas_in_every_object_backend_equal_float64_at_float_inputs(xp):
    """The mpmath backend reads the tokens as mpf (cached per dataset); the exact backend its own numbers (an mpf
    token there fails: mpf * Ex is undefined). Both give the float64 values at these inputs."""
    toy = joint_toy()
    data = AttData(toy.X, toy.z, toy.Y, np.array([1.0, -0.5]))
    W = np.array([[1.5, -2.0], [0.25, 3.0]])
    h, g = md.scores(data, W, xp), md.gammas(data, None, xp)
    for got, want in ((h, md.scores(data, W)), (g, md.gammas(data))):
        value = np.vectorize(lambda v: float(getattr(v, "e", v)))  # an exact value's number is its .e
        assert np.allclose(value(got).astype(float), want, rtol=1e-12, atol=1e-12)


def _same_track(a, b):
    """Every field of two Tracks equal bit for bit (NaN where NaN)."""
    return all(np.array_equal(x, y, equal_nan=True) for x, y in zip(a, b, strict=True))


def test_stacked_track_is_the_plain_loop_bit_for_bit(data):
    """track in float64 (the run first, then every iterate's quantities on the stacked iterates) equals the plain
    per-step loop bit for bit: W(0) from 1 to 30 times W_mm's scale, p from 1.1 to 4, a continued run, an anchor
    other than the default, a W(0) with exact zeros, and W(0), W_mm stored transposed (Fortran order: the plain loop
    sums such an iterate in its own memory order). An off-by-one in k and a step one ulp off are caught."""
    rng = np.random.default_rng(11)
    for p, R, eta, order in [(1.1, 1.0, 1.0, "C"), (1.5, 30.0, 1e-3, "F"), (2.0, 3.0, 0.3, "C"),
                             (3.0, 10.0, 1e-3, "F"), (4.0, 1.0, 1.0, "C")]:
        Wmm = np.asarray(rng.standard_normal((10, 10)), order=order)
        W0 = np.asarray(R * rng.standard_normal((10, 10)), order=order)
        W0[rng.random((10, 10)) < 0.2] = 0.0
        for kw in ({}, {"anchor": np.zeros(6, dtype=int)}):
            plain = md.track(data, W0, Wmm, p, eta, 25, plain=True, **kw)
            stacked = md.track(data, W0, Wmm, p, eta, 25, **kw)
            assert _same_track(plain, stacked)
        theta0 = plain.theta_last
        assert _same_track(md.track(data, None, Wmm, p, eta, 7, theta0=theta0, plain=True),
                           md.track(data, None, Wmm, p, eta, 7, theta0=theta0))
        # planted errors: the per-iterate quantities one step late, and a step size one ulp off
        late = md.Track(*(np.concatenate([a[:1], a[:-1]]) for a in stacked[:-1]), stacked.theta_last)
        assert not _same_track(plain, late)
        assert not _same_track(plain, md.track(data, W0, Wmm, p, np.nextafter(eta, 2.0), 25))


def _plain_attgd(data, W0, p, eta, steps, normalized, every):
    """ell_p-AttGD written from the plain forms (grad, mirror_map, lp_norm, inverse_mirror_map), step by step."""
    W, out = np.array(W0, dtype=float), [np.array(W0, dtype=float)]
    q = md.dual_exponent(p)
    for k in range(1, steps + 1):
        G = md.grad(data, W)
        if normalized:
            G = G / (md.lp_norm(G, q) + md.EPS)
        W = np.where(G == 0, W, md.inverse_mirror_map(md.mirror_map(W, p) - eta * G, p))
        if k % every == 0:
            out.append(W)
    return np.stack(out)


@pytest.mark.parametrize("normalized", [True, False])
def test_attgd_is_the_plain_update_bit_for_bit(data, normalized):
    """attgd (Gradient, MirrorStep: the reductions called directly, one finiteness test of the scores, where() only
    where a gradient entry is 0) equals the update written from the plain forms bit for bit, also with gradient
    entries exactly 0 (a query coordinate 0 in every sample); one step too many or too few is caught."""
    rng = np.random.default_rng(12)
    z0 = data.z.copy()
    z0[:, 3] = 0.0  # grad L(W)[:, 3] = 0 exactly: those entries of W stay as they are
    for d in (data, AttData(data.X, z0, data.Y, data.v)):
        for p in (1.25, 2.0, 3.0):
            W0 = rng.standard_normal((10, 10))
            ref = _plain_attgd(d, W0, p, 0.1, 60, normalized, 10)
            assert np.array_equal(md.attgd(d, W0, p, 0.1, 60, normalized=normalized, every=10), ref)
            for planted in (59, 61):  # an off-by-one in the number of steps
                assert not np.array_equal(md.attgd(d, W0, p, 0.1, planted, normalized=normalized)[-1], ref[-1])
    assert np.any(ref[-1][:, 3] != 0) and np.array_equal(ref[-1][:, 3], ref[0][:, 3])


def test_fused_attgd_is_the_step_by_step_loop_bit_for_bit(monkeypatch):
    """attgd's fused run (_FusedRun: Gradient's and MirrorStep's operations into buffers held for the run) equals the
    step-by-step Gradient/MirrorStep loop (plain=True) bit for bit on the main theorem's runs (Section 4.1 data,
    normalized, eta = 0.1, p in {1.75, 2, 3}) and on un-normalized runs with p in {1.25, 4}, continued from a recorded
    iterate as theorem_runs.long_run does; a W(0) in Fortran order (plain loop) and scores that overflow (softmax's
    log-domain path inside the fused run) agree too. Planted: the scores summed in another order (a batched matmul
    instead of einsum) are caught."""
    from attncheck.papers.julistiono2024.data.mirror_descent import section_4_1

    for seed, p, normalized in [(0, 1.75, True), (1, 2.0, True), (2, 3.0, True), (3, 1.25, False), (4, 4.0, False)]:
        data = section_4_1(seed)
        W0 = np.random.default_rng(seed).standard_normal((10, 10))
        ref = md.attgd(data, W0, p, 0.1, 300, normalized=normalized, every=20, plain=True)
        fused = md.attgd(data, W0, p, 0.1, 300, normalized=normalized, every=20)
        assert fused.tobytes() == ref.tobytes()
        more = md.attgd(data, ref[-1], p, 0.1, 200, normalized=normalized, every=50)
        assert more.tobytes() == md.attgd(data, ref[-1], p, 0.1, 200, normalized=normalized, every=50,
                                          plain=True).tobytes()
    F = np.asfortranarray(W0)
    assert np.array_equal(md.attgd(data, F, 2.0, 0.1, 30, normalized=True, every=10),
                          md.attgd(data, F, 2.0, 0.1, 30, normalized=True, every=10, plain=True))
    with np.errstate(all="ignore"):
        huge = 1e306 * W0
        assert np.array_equal(md.attgd(data, huge, 3.0, 0.1, 3), md.attgd(data, huge, 3.0, 0.1, 3, plain=True),
                              equal_nan=True)
    data = section_4_1(0)
    ref = md.attgd(data, W0, 1.75, 0.1, 100, normalized=True, every=100, plain=True)
    real = md._einsum

    def planted(spec, *ops, out):  # the scores by a batched matmul: the same products, summed in BLAS's order
        if spec != "itd,id->it":
            return real(spec, *ops, out=out)
        out[...] = np.matmul(ops[0], ops[1][:, :, None])[..., 0]
        return out

    monkeypatch.setattr(md, "_einsum", planted)
    assert not np.array_equal(md.attgd(data, W0, 1.75, 0.1, 100, normalized=True, every=100), ref)


def test_bregman_to_a_fixed_point_is_bregman_bit_for_bit(monkeypatch):
    """BregmanTo (bregman and normalize in float64 with the fixed point's terms formed once; cone_direction's
    bisection) equals bregman and normalize bit for bit: p in {1.1, 1.5, 2, 3, 4, 6} (1.5 and 2 take numpy's sqrt and
    square fast paths), pairs far apart, near-equal (the series branch), with exact zeros and sign changes; and
    cone_direction's points equal those of the plain calls. Planted: the leading series coefficient binom(p, 2) one ulp high is caught."""
    from attncheck.papers.julistiono2024.models.att_svm import cone_direction, reference_geometry

    rng = np.random.default_rng(21)
    for p in (1.1, 1.5, 2.0, 3.0, 4.0, 6.0):
        x = md.normalize(rng.standard_normal((10, 10)), p)
        x[rng.random((10, 10)) < 0.1] = 0.0
        to_x = md.BregmanTo(x, p)
        for rel in (1.0, 1e-2, 1e-4, 1e-9, 0.0):
            y = x * (1 + rel * rng.standard_normal((10, 10)))
            y[0, 0], y[1, 1] = 0.0, -y[1, 1]
            assert to_x(y).tobytes() == md.bregman(x, y, p).tobytes()
            assert to_x.normalize(y).tobytes() == md.normalize(y, p).tobytes()
    for p in (1.5, 2.0, 4.0):
        geom = reference_geometry(0, p)
        for u in (1e-9, 0.5, 1.0):
            E = np.random.default_rng(3).standard_normal((10, 10))
            assert cone_direction(geom, u, E).tobytes() == cone_direction(geom, u, E, plain=True).tobytes()
    x = md.normalize(rng.standard_normal((10, 10)), 3.0)
    y = x * (1 + 1e-5 * rng.standard_normal((10, 10)))
    ref, real = md.bregman(x, y, 3.0), md._binomials(3.0)
    monkeypatch.setattr(md, "_binomials", lambda p: np.concatenate([real[:1], [np.nextafter(real[1], np.inf)], real[2:]]))
    assert md.BregmanTo(x, 3.0)(y) != ref


def test_locally_optimal_selections_match_an_independent_check_of_definition_3():
    """locally_optimal_selections (the cone claims' sel >= 1) returns exactly the single swaps alpha_i -> second-largest
    gamma that are locally optimal (Definition 3: gamma_{i alpha_i} > gamma_it on the support T_i of their own
    ell_p-AttSVM) with bar T_i non-empty, each checked here from the solution's margins and gamma_it = Y_i v^T x_it
    directly; each differs from the argmax at one sample, and reference_geometry falls back to the argmax where there
    is none (seed 1, p = 2)."""
    from attncheck.papers.julistiono2024.data.mirror_descent import section_4_1

    for seed, p in ((0, 1.5), (0, 4.0), (1, 2.0), (3, 2.0)):
        data = section_4_1(seed)
        X, z = np.asarray(data.X), np.asarray(data.z)
        g = np.asarray(data.Y)[:, None] * (X @ np.asarray(data.v))
        top = np.argmax(g, axis=1)
        expected = []
        for i in range(len(top)):
            alpha = top.copy()
            alpha[i] = np.argsort(-g[i])[1]
            W = svm.att_svm(data, alpha, p).w
            a_x = X[np.arange(len(alpha)), alpha]
            margins = np.einsum("nd,de,ne->n", a_x, W, z)[:, None] - np.einsum("ntd,de,ne->nt", X, W, z)
            other = np.arange(X.shape[1])[None] != alpha[:, None]
            assert np.all(margins[other] >= 1 - 1e-9)
            support = other & (np.abs(margins - 1) <= 1e-9)
            if np.all(g[np.arange(len(alpha)), alpha][:, None].repeat(X.shape[1], 1)[support] > g[support]) \
                    and (other & ~support).any():
                expected.append(alpha)
        found = svm.locally_optimal_selections(data, p, limit=len(top))
        assert [f.alpha.tolist() for f in found] == [a.tolist() for a in expected]
        assert all(np.sum(f.alpha != top) == 1 for f in found)
        if not found:
            assert svm.reference_geometry(seed, p, 1).alpha.tolist() == top.tolist()
    assert svm.locally_optimal_selections(section_4_1(0), 1.5)  # the drawn case exists where the claims use it
    assert not svm.locally_optimal_selections(section_4_1(1), 2.0)


def test_stated_run_scales_mu_and_starts_inside_the_thin_cone():
    """Lemma 28's constants for mu = m mu(alpha): mu scales with m, R grows as m falls, W(0) sits at D = u f mu."""
    g = svm.reference_geometry(0, 2.0)
    full, part = conv.StatedRun(3, 0, 2.0, 0.5, 0.7, 1, 1e-3), conv.StatedRun(3, 0, 2.0, 0.5, 0.7, 1, 1e-3, m=0.1)
    assert full.mu == g.mu_alpha() and np.isclose(part.mu, 0.1 * g.mu_alpha(), rtol=1e-15)
    assert part.R > full.R
    D0 = float(md.directional_bregman(g.W_mm, part.case.W, 2.0))
    assert D0 <= 0.7 * 0.5 * part.mu * (1 + 1e-9) and D0 >= 0.5 * 0.7 * 0.5 * part.mu
