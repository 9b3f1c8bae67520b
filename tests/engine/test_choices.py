"""The design over a strategy's choices (engine/choices.py): the design stage of claims with no Space."""
import numpy as np
from hypothesis import strategies as st

from attncheck.engine.choices import cases


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
