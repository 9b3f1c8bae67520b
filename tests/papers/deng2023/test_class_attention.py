"""Tests of attncheck.papers.deng2023.models.class_attention: the evaluator on random row classes against
the dense model (attncheck.papers.deng2023.models.attention) at small n, and its dataset modules against
the four evaluators it replaces, over Hypothesis-drawn parameters."""
from __future__ import annotations

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attncheck.numeric.precision import F64, MP
from attncheck.papers.deng2023.models import attention as dense
from attncheck.papers.deng2023.models import class_attention as core

RTOL = 1e-11


def _composition(rng, n: int, parts: int) -> np.ndarray:
    """n as a sum of ``parts`` positive integers."""
    cuts = np.sort(rng.choice(np.arange(1, n), size=parts - 1, replace=False))
    return np.diff(np.concatenate([[0], cuts, [n]]))


@st.composite
def classes(draw):
    """Random distinct query and key rows with counts, and the dense matrices they expand to."""
    seed = draw(st.integers(0, 2**32 - 1))
    p, q, d = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 4))
    rng = np.random.default_rng(seed)
    Q, K, W = rng.normal(size=(p, d)), rng.normal(size=(q, d)), rng.normal(size=(q, d))
    n = draw(st.integers(max(p, q), 8))
    qc, kc = _composition(rng, n, p), _composition(rng, n, q)
    X = rng.normal(size=(d, d))
    return Q, qc, K, kc, W, X


@given(classes(), st.sampled_from(["array", "identity", "ones"]))
@settings(max_examples=60, deadline=None)
def test_core_equals_dense_on_expanded_rows(case, kind):
    Q, qc, K, kc, W, Xr = case
    d = Q.shape[1]
    X = {"array": Xr, "identity": np.eye(d), "ones": np.ones((d, d))}[kind]
    A1, A2, A3 = np.repeat(Q, qc, axis=0), np.repeat(K, kc, axis=0), np.repeat(W, kc, axis=0)
    qi, ki = np.repeat(np.arange(len(qc)), qc), np.repeat(np.arange(len(kc)), kc)
    S = core.scores(Q, K, X if kind == "array" else kind, np.ones(d), F64)
    Sd = dense.u_lin_matrix(A1, A2, X)
    np.testing.assert_allclose(S[qi][:, ki], Sd, rtol=RTOL, atol=1e-12)
    np.testing.assert_allclose(core.f(S, kc, F64, True)[qi][:, ki], dense.f_exp_matrix(A1, A2, X), rtol=RTOL)
    np.testing.assert_allclose(core.log_f_exp(S, kc, F64)[qi][:, ki], dense.log_f_exp_matrix(A1, A2, X),
                               rtol=RTOL, atol=1e-12)
    np.testing.assert_allclose(core.log_alpha_exp(S, kc, F64)[qi], dense.log_alpha_exp_matrix(A1, A2, X),
                               rtol=RTOL, atol=1e-12)
    V = np.eye(d)
    np.testing.assert_allclose(core.c_parts(S, W, kc, np.ones(d), F64, True).c[qi],
                               dense.c_exp_matrix(A1, A2, A3, X, V), rtol=1e-9, atol=1e-12)
    alpha = dense.alpha_lin_matrix(A1, A2, X)
    if np.min(np.abs(alpha)) > 1e-3 * np.max(np.abs(Sd)) * len(A2) and np.min(np.abs(core.row_max(S, F64))) > 1e-3:
        np.testing.assert_allclose(core.alpha_lin(S, kc, F64)[qi], alpha, rtol=1e-9)
        np.testing.assert_allclose(core.f(S, kc, F64, False)[qi][:, ki], dense.f_lin_matrix(A1, A2, X),
                                   rtol=1e-8, atol=1e-12)


@given(classes())
@settings(max_examples=20, deadline=None)
def test_core_mpmath_agrees_with_float64(case):
    Q, qc, K, kc, W, X = case
    d = Q.shape[1]
    with mpmath.workdps(40):
        xp = MP(40)
        S = core.scores(xp.asarray(Q), xp.asarray(K), X, np.ones(d), xp)
        c = core.c_parts(S, xp.asarray(W), kc, np.ones(d), xp, True).c
        lf = core.log_f_exp(S, kc, xp)
    S64 = core.scores(Q, K, X, np.ones(d), F64)
    np.testing.assert_allclose(c.astype(float), core.c_parts(S64, W, kc, np.ones(d), F64, True).c, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(lf.astype(float), core.log_f_exp(S64, kc, F64), rtol=1e-9, atol=1e-12)


def test_core_rejects_unknown_x():
    with pytest.raises(ValueError, match="X must be one of"):
        core.scores(np.ones((1, 2)), np.ones((1, 2)), "diag", np.ones(2), F64)


def test_tight_cases_are_exact_in_both_backends():
    """Equal scores: f = 1/n and c = 1 on a column every row holds, exactly."""
    n = 10**15
    for xp in (F64, MP(30)):
        with mpmath.workdps(30):
            S = xp.asarray(np.full((1, 2), 3.7))
            counts = np.array([n - 7, 7])
            f = core.f(S, counts, xp, True)
            assert f[0, 0] == f[0, 1] == 1 / xp.asarray(float(n))
            c = core.c_parts(S, xp.asarray(np.ones((2, 1))), counts, np.ones(1), xp, False).c
            assert c[0, 0] == 1
