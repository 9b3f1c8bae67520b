"""deng2023 Sections 3-4 model layer: dense definitions vs structured evaluators, builders."""
import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attncheck.numeric.precision import MP
from attncheck.papers.deng2023.data import toy as data
from attncheck.papers.deng2023.models import toy
from attncheck.papers.deng2023.strategies.toy import toy_scores


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 40).flatmap(lambda n: st.tuples(st.just(n), st.sampled_from([0, 1]))).flatmap(
    lambda nl: toy_scores(*nl)), st.integers(0, 2**31))
def test_structured_equals_dense(s, seed):
    rng = np.random.default_rng(seed)
    A, x = data.dense_pair(s, d=4, rng=rng)
    for dense, grouped in ((toy.f_lin, toy.f_lin_grouped), (toy.f_exp, toy.f_exp_grouped)):
        np.testing.assert_allclose(np.repeat(grouped(s), s.k), dense(A, x), rtol=1e-12)
    # the same sign vectors, summarised by groups, give the same inner products
    sigma = rng.choice([-1.0, 1.0], size=(50, s.n, 3))
    group = np.repeat(np.arange(s.k.size), s.k)
    S = np.stack([sigma[:, group == g, :].sum(axis=1) for g in range(s.k.size)], axis=-1)
    for dense, grouped, F in ((toy.f_lin, toy.f_lin_grouped, toy.F_lin), (toy.f_exp, toy.f_exp_grouped, toy.F_exp)):
        inner = toy.grouped_inner(grouped(s), S)
        np.testing.assert_allclose(inner, np.einsum("n,bnm->bm", dense(A, x), sigma), rtol=1e-10, atol=1e-12)
        # F = 0 iff max_l <f, y_l> <= tau: the slack used by the Lemma 5.x claims
        for tau in (0.0, 0.1, 0.25):
            top = inner.max(axis=-1)
            clear = np.abs(top - tau) > 1e-12  # exact ties are the precision module's business
            np.testing.assert_array_equal((F(A, x, sigma, tau) == 0)[clear], (top <= tau)[clear])


def test_f_exp_is_log_domain_safe_at_huge_n():
    n = 10**15
    s = data.d1(n, [1.4 * np.log(n), np.log(n)], [10**6, n - 1 - 10**6])
    f = toy.f_exp_grouped(s)
    assert np.all(np.isfinite(f)) and abs(float(f @ s.k) - 1) < 1e-12
    with mpmath.workdps(50):
        fm = toy.f_exp_grouped(s, MP(50))
        assert abs(float(fm[0]) - f[0]) < 1e-13


def test_spike_dominates_in_d1():
    s = data.d1(2, [1.4 * np.log(2)], [1])
    f = toy.f_exp_grouped(s)
    assert f[0] > 0.85  # 16 / (16 + 2^1.4)


@pytest.mark.parametrize("call, message", [
    (lambda: data.d0(1, [0.0], [1]), "n must be an integer >= 2"),
    (lambda: data.d0(10, [0.5], [10]), r"\[log n, 1.4 log n\]"),
    (lambda: data.d0(10, [2.5], [9]), "must sum to n=10"),
    (lambda: data.d1(10, [2.5], [10]), "must sum to n - 1 = 9"),
    (lambda: data.uniform(10, np.random.default_rng(0), 2), "label must be 0"),
    (lambda: toy.GroupedScores([1.0], [0]), "integers >= 1"),
    (lambda: toy.GroupedScores([np.inf], [1]), "finite"),
])
def test_builders_reject_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_builders_never_clip():
    lo, hi = data.score_interval(100)
    s = data.d0(100, [lo, hi], [50, 50])
    assert s.z.tolist() == [lo, hi]
    with pytest.raises(ValueError):
        data.d0(100, [np.nextafter(hi, np.inf)], [100])


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 12).flatmap(lambda n: st.tuples(st.just(n), st.sampled_from([0, 1]))).flatmap(
    lambda nl: st.tuples(st.just(nl), toy_scores(*nl))))
def test_toy_scores_are_valid_for_every_small_n(args):
    (n, label), s = args
    assert s.n == n and np.all(s.k >= 1)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 12).flatmap(lambda n: toy_scores(n, 1)))
def test_adversarial_sign_vector_is_the_minimum_over_every_sign_vector(s):
    """Lemma 4.2 Part 2's min over all 2^n sign vectors equals the closed form w - R (brute force)."""
    import itertools

    f = np.repeat(toy.f_exp_grouped(s), s.k)
    brute = min(abs(float(np.dot(f, sig))) for sig in itertools.product((-1.0, 1.0), repeat=len(f)))
    closed = float(toy.min_abs_signed_sum(toy.f_exp_grouped(s), s.k, np))
    assert closed == pytest.approx(brute, rel=1e-12, abs=1e-15)
    mp_ = MP(50)
    mp = toy.min_abs_signed_sum(toy.f_exp_grouped(s, mp_), s.k, mp_)
    assert float(mp) == pytest.approx(closed, rel=1e-12)


def test_adversarial_sign_vector_needs_a_dominant_spike():
    with pytest.raises(NotImplementedError, match="does not outweigh"):
        toy.min_abs_signed_sum(np.array([0.3, 0.35]), np.array([1, 2]), np)
    with pytest.raises(ValueError, match="single weight"):
        toy.min_abs_signed_sum(np.array([0.5, 0.5]), np.array([2, 0]), np)
