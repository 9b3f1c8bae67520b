"""Section E's drawn ranges (attncheck.papers.deng2023.strategies.attention): a1 up to A_MAX and d - 2 beyond the
row classes' CLASSES_K_MAX, where SelfAttentionCase.model switches to the row orbits."""
from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import find, given, settings

from attncheck import F64
from attncheck.papers.deng2023.models.class_attention import section_e as class_model
from attncheck.papers.deng2023.strategies.attention import (
    A_MAX,
    CLASSES_K_MAX,
    SelfAttentionCase,
    a_values,
    self_attention_case,
)


def _case(n, d, X, a=3.0, b=0.3, j3=0):
    return SelfAttentionCase(n, d, a, b, math.sqrt(1.0 - b * b), j3, "sum_of_squares", X)


def test_a_values_reach_a_max_and_the_decades_between():
    assert find(a_values(1.0), lambda a: a == A_MAX) == A_MAX
    assert 1e8 < find(a_values(1.0), lambda a: 1e8 < a < 1e16) < 1e16
    assert find(a_values(1.0, 100.0), lambda a: a == 100.0) == 100.0


@settings(max_examples=200, deadline=None)
@given(a_values(1.0))
def test_a_values_stay_in_range(a):
    assert 1.0 <= a <= A_MAX


def test_large_widths_are_drawn_up_to_n_max():
    strategy = self_attention_case(a_values(1.0), "sum_of_squares", "identity", n_max=10**12, k_max=None)
    big = find(strategy, lambda c: c.k > 10**9)
    assert big.n <= 10**12 and big.n % big.k == 0
    assert find(strategy, lambda c: c.k == 10**12).t == 1
    assert find(strategy, lambda c: c.k <= CLASSES_K_MAX).k >= 1
    default = self_attention_case(a_values(1.0), "sum_of_squares", "identity", n_max=10**12)
    with pytest.raises(Exception):  # noqa: B017 - hypothesis' NoSuchExample: the default stays at d - 2 <= 40
        find(default, lambda c: c.k > CLASSES_K_MAX)


def _profile(model, X, row):
    """The multiset {log u_exp: key rows} of one query row."""
    values = class_model.log_u_exp(model, X, F64)[row]
    out = Counter()
    for v, m in zip(np.asarray(values, dtype=float), np.asarray(model.key_counts), strict=True):
        out[round(float(v), 9)] += int(m)
    return out


@pytest.mark.parametrize("X", ["identity", "ones"])
@pytest.mark.parametrize("k, t", [(41, 1), (41, 2), (45, 3)])
def test_orbits_give_the_class_values_beyond_the_class_range(X, k, t):
    """At d - 2 just above CLASSES_K_MAX both views are computable: every orbit row has the key profile of
    the class rows it stands for (j3; j3's residue; another residue)."""
    n = k * t
    c = _case(n, k + 2, X, j3=n - 1)
    assert c.model().queries.shape[1] == 5
    classes, orbits = c.classes(), c.orbits()
    class_profiles = [_profile(classes, c.x_matrix(classes.queries.shape[1]), r)
                      for r in range(classes.queries.shape[0])]
    for r in range(orbits.queries.shape[0]):
        if orbits.query_counts[r] == 0:
            continue
        assert _profile(orbits, c.x_matrix(5), r) in class_profiles
    assert _case(40 * t, 42, X).model().queries.shape[1] == 42
