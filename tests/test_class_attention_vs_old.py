"""class_attention against the four evaluators it replaces (deleted with them)."""
from __future__ import annotations

import mpmath
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from attncheck.data.attention import CrossAttentionParams, SelfAttentionParams
from attncheck.models import attention_structured as old_rows
from attncheck.models import class_model as old_e
from attncheck.models import cross_attention_claims as old_f1
from attncheck.models import self_attention_claims as old_d1
from attncheck.models.class_attention import definition_d1, definition_f1, rows, section_e
from attncheck.precision import F64, MP
from attncheck.strategies.attention import SelfAttentionCase

RTOL = 1e-10


def assert_close(new, old, err_msg=""):
    """Equal to float64 rounding: relative 1e-10, absolute 1e-12 of the largest entry (log f_exp
    near 0 is a difference of terms of the size of the scores)."""
    atol = 1e-12 * max(1.0, float(np.max(np.abs(old))))
    np.testing.assert_allclose(new, old, rtol=RTOL, atol=atol, err_msg=err_msg)
BACKENDS = st.sampled_from(["f64", "mp"])


def _run(backend, fn):
    if backend == "f64":
        return np.asarray(fn(F64), dtype=float)
    with mpmath.workdps(30):
        return np.asarray(fn(MP(30)), dtype=object).astype(float)


@st.composite
def d1_params(draw, n_max=10**15):
    k = draw(st.integers(1, 1000))
    t = draw(st.integers(max(1, -(-2 // k)), max(1, n_max // k)))
    n = k * t
    b, label = draw(st.floats(0.1, 0.9)), draw(st.integers(0, 1))
    a = draw(st.floats(0.001, 0.099) if label == 0 else st.floats(0.7, 20.0))
    return SelfAttentionParams(n, k + 2, a, b, 1 - b, draw(st.integers(0, n - 1)), label)


@given(d1_params(), st.sampled_from(["ones", "identity"]), BACKENDS)
@settings(max_examples=80, deadline=None)
def test_definition_d1_equals_self_attention_claims(p, X, backend):
    g_new, g_old = definition_d1.Grouped(p), old_d1.Grouped(p)
    for name in ("u_lin", "alpha_lin", "f_lin", "log_alpha_exp", "log_f_exp", "f_exp", "c_lin", "c_exp"):
        new = _run(backend, lambda xp: getattr(definition_d1, name)(g_new, X, xp))
        old = _run(backend, lambda xp: getattr(old_d1, name)(g_old, X, xp))
        assert_close(new, old, name)


@st.composite
def f1_params(draw):
    d = draw(st.integers(2, 1000))
    t = draw(st.integers(max(1, -(-2 // (d - 1))), 10**15 // (d - 1)))
    return t * (d - 1), d, draw(st.floats(0.0, 20.0))


@given(f1_params(), st.booleans(), BACKENDS)
@settings(max_examples=80, deadline=None)
def test_definition_f1_equals_cross_attention_claims(params, softmax, backend):
    n, d, a = params
    np.testing.assert_array_equal(_run(backend, lambda xp: definition_f1.scores(n, a, xp)),
                                  _run(backend, lambda xp: old_f1.scores(n, a, xp)))
    np.testing.assert_array_equal(_run(backend, lambda xp: definition_f1.f(n, d, a, xp, softmax)),
                                  _run(backend, lambda xp: old_f1.f(n, d, a, xp, softmax)))
    new = _run(backend, lambda xp: definition_f1.c_parts(n, d, a, xp, softmax).c)
    old = _run(backend, lambda xp: old_f1.c_parts(n, d, a, xp, softmax).c)
    groups = [0, 1, 2] if d >= 3 else [0, 1]
    assert_close(new[:, groups], old[:, groups])


@given(d1_params(n_max=10**12), st.floats(0.01, 0.99), st.sampled_from(["ones", "identity"]), st.booleans(),
       BACKENDS)
@settings(max_examples=60, deadline=None)
def test_section_e_equals_class_model(p, b, X, orbit, backend):
    case = SelfAttentionCase(p.n, p.d, p.a if p.label else 0.7 + p.a, b, float(np.sqrt(1 - b * b)), p.j3, "sum_of_squares", X)
    if not orbit and p.d > 40:
        return
    model = case.orbits() if orbit else case.classes()
    Xm = case.x_matrix(model.queries.shape[1])
    new_model = section_e.ClassModel(*(getattr(model, f) for f in model.__dataclass_fields__))
    for name in ("log_u_exp", "log_f_exp", "c_exp"):
        new = _run(backend, lambda xp: getattr(section_e, name)(new_model, Xm, xp))
        old = _run(backend, lambda xp: getattr(old_e, name)(model, Xm, xp))
        assert_close(new, old, name)


@given(st.integers(0, 2**32 - 1), st.booleans(), st.integers(3, 8), st.integers(2, 4))
@settings(max_examples=40, deadline=None)
def test_rows_equals_attention_structured(seed, cross, d, t):
    rng = np.random.default_rng(seed)
    if cross:
        n = (d - 1) * t
        p = CrossAttentionParams(n, d, float(rng.uniform(1.01, 3)), int(rng.integers(n)), int(rng.integers(n)), 1)
    else:
        n = (d - 2) * t
        p = SelfAttentionParams(n, d, float(rng.uniform(0.7, 3)), 0.25, 0.75, int(rng.integers(n)), 1)
    data = p.compressed()
    X, V = rng.normal(size=(d, d)), rng.normal(size=(d, d))
    y = rng.choice([-1.0, 1.0], size=(3, d, 4))
    for name in ("u_lin", "f_lin", "log_u_exp", "log_alpha_exp", "log_f_exp", "f_exp"):
        np.testing.assert_allclose(getattr(rows, name)(data, X), getattr(old_rows, name)(data, X), rtol=1e-9,
                                   atol=1e-12, err_msg=name)
    for name in ("c_lin", "c_exp"):
        np.testing.assert_allclose(getattr(rows, name)(data, X, V), getattr(old_rows, name)(data, X, V),
                                   rtol=1e-8, atol=1e-10, err_msg=name)
    for name in ("F_lin", "F_exp"):
        np.testing.assert_allclose(getattr(rows, name)(data, X, V, y, 0.5), getattr(old_rows, name)(data, X, V, y, 0.5),
                                   rtol=1e-8, atol=1e-10, err_msg=name)
