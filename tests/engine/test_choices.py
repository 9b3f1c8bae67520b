"""Corners and the design over a strategy's choices (engine/choices.py): the stages of claims with no Space."""
import itertools
import random

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st
from hypothesis.control import BuildContext
from hypothesis.errors import StopTest, UnsatisfiedAssumption
from hypothesis.internal.conjecture.data import ConjectureData

from attncheck.engine import choices
from attncheck.engine.choices import DIMENSIONS, cases, corner_rows, corners


@st.composite
def width_and_x(draw):
    return draw(st.integers(1, 4)), draw(st.floats(0, 1))


def test_a_composite_strategys_choices_are_stratified():
    got = list(cases(width_and_x(), 32, seed=5))
    assert len(got) == 32
    assert sorted(int(x * 32) for _, x in got) == list(range(32))  # one x in each [k/32, (k+1)/32)
    assert sorted(k for k, _ in got) == [k for k in range(1, 5) for _ in range(8)]


def test_the_same_seed_gives_the_same_cases():
    assert list(cases(width_and_x(), 16, seed=1)) == list(cases(width_and_x(), 16, seed=1))
    assert list(cases(width_and_x(), 16, seed=1)) != list(cases(width_and_x(), 16, seed=2))


def test_flatmap_and_one_of_draw_their_whole_domain():
    flat = list(cases(st.integers(2, 9).flatmap(lambda k: st.tuples(st.just(k), st.floats(0, k))), 64, seed=0))
    assert all(0 <= x <= k for k, x in flat) and {k for k, _ in flat} == set(range(2, 10))
    either = list(cases(st.one_of(st.floats(0, 1), st.floats(10, 11)), 64, seed=0))
    assert sum(x >= 10 for x in either) == 32 and all(0 <= x <= 1 or 10 <= x <= 11 for x in either)


def test_rejected_rows_are_left_out_and_kept_rows_obey_the_filter():
    kept = list(cases(st.tuples(st.floats(0, 1), st.floats(0, 1)).filter(lambda t: t[0] + t[1] <= 1), 64, seed=0))
    assert 0 < len(kept) <= 64 and all(x + y <= 1 for x, y in kept)
    assert list(cases(st.floats(0, 1).filter(lambda x: False), 8, seed=0)) == []


def test_choices_past_the_design_and_unbounded_ones_still_draw_valid_values():
    many = list(cases(st.lists(st.floats(-1, 1), min_size=40, max_size=40).map(np.array), 8, seed=0))
    assert all(v.shape == (40,) and np.all(np.abs(v) <= 1) for v in many)
    free = list(cases(st.tuples(st.floats(allow_nan=False), st.integers(), st.booleans(), st.text()), 8, seed=0))
    assert len(free) == 8 and all(isinstance(t[3], str) for t in free)


def test_corners_put_every_bounded_draw_at_its_ends_and_just_inside():
    got = list(corners(width_and_x(), 64, seed=0))
    assert got[:2] == [(1, 0.0), (4, 1.0)]  # all low, all high
    assert (2, 1e-9) in got and (3, 1 - 1e-9) in got  # all just inside
    assert {(k, x) for k, x in got if x in (0.0, 1.0)} == {(k, x) for k in (1, 4) for x in (0.0, 1.0)}  # vertices
    assert len(got) == len(set(got))  # a row repeating an earlier row's choices is skipped


def test_the_corner_rows_cover_every_pair_of_choices_at_their_ends():
    rows = [levels for levels, _ in itertools.islice(corner_rows(0), 18)]
    ends = [r for r in rows if set(r.tolist()) <= {0, 1}]
    for i, j in itertools.combinations(range(DIMENSIONS), 2):
        assert {(r[i], r[j]) for r in ends} == {(0, 0), (0, 1), (1, 0), (1, 1)}


def test_corners_reach_a_mixed_vertex_of_four_choices():
    four = st.tuples(st.integers(0, 9), st.integers(0, 9), st.integers(0, 9), st.floats(-1, 1))
    got = list(corners(four, 64, seed=3))
    assert {tuple(t) for t in got} >= {(a, b, c, x) for a in (0, 9) for b in (0, 9) for c in (0, 9) for x in (-1, 1)}


def test_corners_of_one_of_flatmap_and_filter_stay_in_the_domain():
    either = list(corners(st.one_of(st.floats(0, 1), st.floats(10, 11)), 16, seed=0))
    assert {0.0, 1.0, 10.0, 11.0} <= set(either) and all(0 <= x <= 1 or 10 <= x <= 11 for x in either)
    flat = list(corners(st.integers(2, 9).flatmap(lambda k: st.tuples(st.just(k), st.floats(0, k))), 16, seed=0))
    assert {(2, 0.0), (9, 9.0), (2, 2.0), (9, 0.0)} <= set(flat) and all(0 <= x <= k for k, x in flat)
    tri = list(corners(st.tuples(st.floats(0, 1), st.floats(0, 1)).filter(lambda t: t[0] + t[1] <= 1), 16, seed=0))
    assert (0.0, 0.0) in tri and (1.0, 0.0) in tri and (1.0, 1.0) not in tri and all(x + y <= 1 for x, y in tri)


def _hypothesis_own(strategy, provider, kw, rnd):
    """The reference: one row drawn through Hypothesis' own ConjectureData (spans, nodes and observer kept)."""
    data = ConjectureData(random=rnd, provider=provider, provider_kw=kw)
    try:
        with BuildContext(data, wrapped_test=None):
            return data.draw(strategy), tuple(data.provider.answered)
    except (StopTest, UnsatisfiedAssumption):
        return None


@st.composite
def _mixed(draw):
    k = draw(st.integers(0, 4))
    xs = draw(st.lists(st.floats(-1, 1), min_size=k, max_size=k + 2, unique=True))
    tag = draw(st.one_of(st.sampled_from(["a", "b"]), st.text(max_size=3), st.just(None)))
    assume(k != 3 or tag != "b")
    return k, xs, tag, draw(st.floats(allow_nan=True)), draw(st.integers(0, 9).flatmap(lambda m: st.integers(m, 20)))


_REPLAYED = [_mixed(), st.lists(st.integers(0, 10**6), min_size=3000), st.nothing(),
             st.integers(0, 50).filter(lambda v: v % 7 == 3), st.tuples(st.booleans(), st.floats(0, 1)).map(sorted)]


def _rows(n):
    corner = choices.corner_rows(5)
    for i in range(n):
        levels, rel = next(corner)
        yield choices.CornerProvider, {"levels": levels, "rel": rel}, i
    for i, u in enumerate(choices.design_rows(n, 5)):
        yield choices.DesignProvider, {"u": u}, n + i


def _same_rows(draw_row) -> bool:
    for strategy in _REPLAYED:
        checked = {}
        for provider, kw, i in _rows(32):
            ours = draw_row(strategy, provider, kw, random.Random(i), checked)
            ref = _hypothesis_own(strategy, provider, kw, random.Random(i))
            if repr(ours) != repr(ref):
                return False
    return True


def test_the_lean_row_draws_what_hypothesis_draws_rejects_what_it_rejects_and_overruns_where_it_does():
    # values, answered choices, rejections (assume, filter, an empty strategy) and overruns (3000 integers)
    assert _same_rows(choices._draw)


def test_the_row_comparison_catches_a_replay_without_the_overrun_bound(monkeypatch):
    # planted: a replay whose choices take no room never overruns, so it draws the 3000-integer list that
    # Hypothesis rejects
    monkeypatch.setattr(choices, "choices_size", lambda values: 0)
    assert not _same_rows(choices._draw)
