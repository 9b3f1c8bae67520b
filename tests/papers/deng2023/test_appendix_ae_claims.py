"""Tests of the helpers behind properties/deng2023/test_appendix_ae.py (deng2023 Appendices A, C, E):
the class and orbit views of the D1 datasets against the shared dense and structured models,
the mpmath path, the random-sign reductions of Lemma E.3 / Theorem E.4, the strategies, and the
claims' wiring (ids, errata)."""
from __future__ import annotations

import math
from pathlib import Path

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings

from attncheck import F64, MP
from attncheck.core.claims import REGISTRY, Verdict
from attncheck.papers.deng2023.models import attention as dense
from attncheck.papers.deng2023.models import section_e_signs as signs
from attncheck.papers.deng2023.models.class_attention import rows as structured
from attncheck.papers.deng2023.models.class_attention import section_e as class_model
from attncheck.papers.deng2023.strategies.attention import (
    SelfAttentionCase,
    a_values,
    attention_inputs,
    scaled_case,
    self_attention_case,
)
from attncheck.run import loader

CLAIM_FILE = Path(__file__).resolve().parents[3] / "properties" / "deng2023" / "test_appendix_ae.py"
AE_CLAIMS = loader.load([CLAIM_FILE])


def case(n, d, a=1.5, b=0.3, j3=0, bc="sum_of_squares", X="identity", **kw):
    c = 1.0 - b if bc == "sum" else math.sqrt(1.0 - b * b)
    return SelfAttentionCase(n, d, a, b, c, j3, bc, X, **kw)


SMALL = [case(2, 3), case(6, 3, j3=5), case(8, 4, j3=3), case(12, 5, a=1.0, b=0.9, j3=7), case(12, 6, X="ones", j3=11),
         case(30, 8, a=0.7, b=0.2, bc="sum", X="ones", j3=13), case(4, 6, a=20.0, j3=2)]


# ---- class view vs the shared structured model; mpmath path ------------------------------------------

@pytest.mark.parametrize("c", SMALL, ids=repr)
def test_class_view_equals_structured_model(c):
    data, X, model = c.params().compressed(), c.x_matrix(c.d), c.classes()
    np.testing.assert_allclose(class_model.log_u_exp(model, X, F64), structured.log_u_exp(data, X), rtol=1e-13)
    np.testing.assert_allclose(class_model.log_f_exp(model, X, F64), structured.log_f_exp(data, X), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(class_model.c_exp(model, X, F64), structured.c_exp(data, X, np.eye(c.d)), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("c", SMALL[:4], ids=repr)
def test_mpmath_path_agrees_with_float64(c):
    model, X = c.classes(), c.x_matrix(c.d)
    with mpmath.workdps(40):
        high = MP(40).to_float(class_model.c_exp(model, X, MP(40)))
    np.testing.assert_allclose(high, class_model.c_exp(model, X, F64), rtol=1e-13, atol=1e-15)


# ---- orbit view vs dense, every position of j3 -------------------------------------------------------

def orbit_of(c, j0):
    k = c.k
    return 0 if j0 == c.j3 else (1 if j0 % k == c.j3 % k else 2)


def group_sums(c, sigma, own):
    """(sigma_1, sigma at j3's residue, sigma at residue own, sum over the other residues, sigma_d)."""
    k, r3 = c.k, c.j3 % c.k
    rest = [r for r in range(k) if r not in (r3, own)]
    return np.array([sigma[0], sigma[1 + r3], sigma[1 + own] if own != r3 else 0.0,
                     sum(sigma[1 + r] for r in rest), sigma[-1]])


def other_residue(c, j0):
    return j0 % c.k if j0 % c.k != c.j3 % c.k else (c.j3 + 1) % c.k


@pytest.mark.parametrize("n, d", [(2, 3), (6, 3), (4, 4), (8, 4), (6, 5), (12, 6), (10, 7)])
@pytest.mark.parametrize("X", ["identity", "ones"])
def test_orbit_inner_products_equal_dense_for_every_j3_and_row(n, d, X):
    rng = np.random.default_rng(n * d)
    for j3 in range(n):
        c = case(n, d, a=1.3, b=0.4, j3=j3, X=X)
        A1, A2, A3 = c.params().dense()
        full = dense.c_exp_matrix(A1, A2, A3, c.x_matrix(d), np.eye(d))
        orbit = class_model.c_exp(c.orbits(), c.x_matrix(5), F64)
        sigma = rng.choice([-1.0, 1.0], size=d)
        for j0 in range(n):
            sums = group_sums(c, sigma, other_residue(c, j0) if c.k >= 2 else c.j3 % c.k)
            assert sums @ orbit[orbit_of(c, j0)] == pytest.approx(full[j0] @ sigma, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("n, d", [(4, 4), (12, 6), (20, 7)])
def test_class_view_is_the_same_for_every_j3(n, d):
    """With (d-2) | n every position of j3 gives the same multiset of values (what the orbit view assumes)."""
    def signature(c):
        model = c.classes()
        c_rows = class_model.c_exp(model, c.x_matrix(d), F64)
        per_row = np.repeat(np.sort(c_rows, axis=1), model.query_counts, axis=0)
        return np.round(per_row[np.lexsort(per_row.T[::-1])], 12)
    first = signature(case(n, d, j3=0))
    for j3 in range(1, n):
        np.testing.assert_array_equal(signature(case(n, d, j3=j3)), first)


# ---- Lemma E.3 / Theorem E.4 reductions ----------------------------------------------------------------

@pytest.mark.parametrize("n, d, j3", [(2, 3, 1), (6, 4, 5), (12, 5, 0), (12, 6, 7), (20, 7, 19)])
def test_firing_columns_equal_the_dense_network(n, d, j3):
    c = case(n, d, a=1.0, b=0.15, j3=j3)
    A1, A2, A3 = c.params().dense()
    full = dense.c_exp_matrix(A1, A2, A3, np.eye(d), np.eye(d))
    tau = (c.c + 0.1) * math.sqrt(math.log(n))
    y = np.random.default_rng(d).choice([-1.0, 1.0], size=(600, d))
    own = other_residue(c, j3) if c.k >= 2 else c.j3 % c.k
    fires = signs.fires(c, np.stack([group_sums(c, column, own) for column in y]))
    np.testing.assert_array_equal(fires, (full @ y.T).max(axis=0) > tau)
    networks = y.reshape(200, 3, d).transpose(0, 2, 1)
    positive = structured.F_exp(c.params().compressed(), np.eye(d), np.eye(d), networks, tau) > 0
    np.testing.assert_array_equal(positive, fires.reshape(200, 3).any(axis=1))


def test_network_sizes_are_the_gaps_between_firing_columns():
    c = case(10**6, 12, a=1.2, b=0.15)
    S = signs.columns(c, np.random.default_rng(0), 5000)
    fires = signs.fires(c, S)
    sizes = signs.network_sizes(c, S, 5000)
    assert sizes.min() >= 1 and sizes.sum() == np.flatnonzero(fires)[4999] + 1
    assert abs(sizes.mean() - 1 / fires.mean()) < 0.1
    with pytest.raises(ValueError, match="raise STREAM"):
        signs.network_sizes(c, S[:100], 5000)


def test_sign_groups_have_the_right_sizes_and_distribution():
    c = case(10**9, 12, a=1.2, b=0.2)
    S = signs.signs(c, np.random.default_rng(0), 20000)
    assert S.shape == (20000, 5)
    assert set(np.unique(S[:, [0, 1, 2, 4]])) == {-1, 1}
    assert np.all(np.abs(S[:, 3]) <= 8) and np.all((S[:, 3] - 8) % 2 == 0)
    assert abs(S[:, 3].var() - 8) < 0.3


def test_lemma_e_3_part_1_needs_a1_at_least_1():
    """The finding behind the claims' a1 >= 1 note (docs/papers/deng2023.md): with Definition D.1's a1 = 0.7 the pass rate vanishes."""
    c = case(999603, 1319, a=0.7, b=0.1, j3=0)
    rate = np.mean(REGISTRY.get("deng2023/lemma-e.3/part-1").evaluate(c, signs.signs(c, np.random.default_rng(1), 20000), F64).value >= 0)
    assert rate < 0.01
    c = case(999603, 1319, a=1.0, b=0.1, j3=0)
    rate = np.mean(REGISTRY.get("deng2023/lemma-e.3/part-1").evaluate(c, signs.signs(c, np.random.default_rng(1), 20000), F64).value >= 0)
    assert rate > 0.12


# ---- errata: the refutations do not depend on the reading of the dataset constraint ------------------

@pytest.mark.parametrize("bc, b", [("sum_of_squares", 0.1), ("sum", 0.2)])
@pytest.mark.parametrize("cid", ["deng2023/lemma-e.2/part-4", "deng2023/lemma-e.2/part-5"])
def test_lemma_e2_parts_4_5_fail_with_ones_and_hold_with_identity(cid, bc, b):
    """The claim's check on the case's own QK^T (its evaluator reads X from the case)."""
    for X, holds in (("ones", False), ("identity", True)):
        c = case(10**6, 12, a=1.2, b=b, bc=bc, X=X, j3=5)
        slack = REGISTRY.get(cid).evaluate(c, F64)
        assert bool(np.all(slack.value >= 0)) is holds


def test_lemma_e1_part_1a_exponent():
    c = case(2, 3, a=1.2, b=0.1)
    log_u = class_model.log_u_exp(c.classes(), np.eye(3), F64)[0, 0]
    assert log_u == pytest.approx(2.44 * math.log(2), rel=1e-14)
    assert log_u != pytest.approx((1 + 1.2) ** 2 * math.log(2), rel=0.1)


# ---- strategies ---------------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(self_attention_case(a_values(1.0), "sum_of_squares", "ones", n_max=10**6, k_min=2))
def test_self_attention_case_is_valid(c):
    params = c.params()
    assert params.n % (c.d - 2) == 0 and 2 <= c.n <= 10**6 and c.d >= 4 and 0 <= c.j3 < c.n
    assert abs(c.b ** 2 + c.c ** 2 - 1) < 1e-12 and min(c.b, c.c) >= 0.1 - 1e-12 and c.a >= 1


@settings(max_examples=60, deadline=None)
@given(self_attention_case(a_values(0.7), "sum", "ones", n_max=100))
def test_self_attention_case_sum_reading_is_valid(c):
    assert c.params().n <= 100 and abs(c.b + c.c - 1) < 1e-12 and min(c.b, c.c) >= 0.1


@pytest.mark.parametrize("N", [10, 100, 10**4, 10**9, 10**15])
@settings(max_examples=30, deadline=None)
@given(data=__import__("hypothesis").strategies.data())
def test_scaled_case_meets_the_scaling_hypotheses(N, data):
    c = data.draw(scaled_case(N, a_values(1.0), (0.1, 0.7), j0=("same-residue", "other-residue")))
    c.params()
    assert c.n <= N and c.n % c.k == 0 and c.d <= c.n and c.t >= 2
    assert 2 * c.b ** 2 + 0.02 < c.gamma <= 1 and 0.1 <= c.b < 0.7
    assert c.j0 in ("same-residue", "other-residue") and (c.j0 == "same-residue" or c.k >= 2)


@settings(max_examples=30, deadline=None)
@given(attention_inputs(2.0, 1.0))
def test_general_inputs_keep_exp_finite(inputs):
    assert inputs.A1.shape == inputs.A2.shape == inputs.A3.shape and inputs.Q.shape == inputs.V.shape
    assert np.all(np.abs(inputs.A1 @ inputs.X @ inputs.A2.T) <= 256) and set(np.unique(inputs.y)) <= {-1.0, 1.0}


# ---- wiring ---------------------------------------------------------------------------------------------

ERRATA = ["deng2023/lemma-e.1/part-1a", "deng2023/lemma-e.1/part-4-t-1-indices",
          "deng2023/lemma-e.1/part-4-n-t-indices", "deng2023/lemma-e.2/part-4", "deng2023/lemma-e.2/part-5"]


def test_errata_point_to_registered_corrected_claims():
    mine = AE_CLAIMS
    assert len(mine) == 37
    assert sorted(c.id for c in mine if c.erratum) == sorted(ERRATA)
    for cid in ERRATA:
        corrected = REGISTRY.get(REGISTRY.get(cid).erratum.corrected_id)
        assert corrected.id == cid + "-corrected" and corrected.erratum is None


@pytest.mark.parametrize("cid", ["deng2023/lemma-e.1/part-1a", "deng2023/lemma-e.2/part-4"])
def test_stated_claims_are_refuted_and_corrected_hold(cid):
    """The corrected claims hold and are certified on their boxes (certification runs in quick too)."""
    from attncheck.run.session import run_claim as run
    assert run(REGISTRY.get(cid), "quick")["verdict"] == Verdict.ERRATUM.value
    assert run(REGISTRY.get(cid + "-corrected"), "quick")["verdict"] == Verdict.CERTIFIED.value
