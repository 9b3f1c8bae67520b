"""core.domains: interval strategies and the strategy cache of factories called once per draw."""
from hypothesis import strategies as st

from attncheck.core.domains import cached_strategy, in_interval, integers_with
from attncheck.engine import choices


def _values(strategy, n=64):
    return [repr(v) for v in choices.cases(strategy, n, 0)]


def test_the_same_arguments_give_the_same_strategy_object():
    assert in_interval(0.1, 0.9) is in_interval(0.1, 0.9)
    assert in_interval(0.1, 0.9) is not in_interval(0.1, 0.8)


def test_arguments_equal_under_eq_but_not_the_same_value_are_kept_apart():
    ends = cached_strategy(lambda lo, hi: st.sampled_from([lo, hi]))
    assert ends(0, 1) is not ends(0.0, 1.0)
    assert _values(ends(0, 1), 8) != _values(ends(0.0, 1.0), 8)  # ints stay ints
    assert _values(ends(-0.0, 1.0), 8) != _values(ends(0.0, 1.0), 8)  # the sign of zero is kept


def test_a_cached_composite_draws_what_the_uncached_one_draws():
    def pair(draw, lo, hi):
        return draw(st.floats(lo, hi)), draw(st.integers(0, 9))

    plain = st.composite(pair)
    cached = cached_strategy(st.composite(pair))

    @st.composite
    def outer(draw, factory):
        return [draw(factory(0.0, float(k))) for k in range(1, 4)]

    assert cached(0.0, 1.0) is cached(0.0, 1.0)
    assert _values(outer(cached)) == _values(outer(plain))


def test_integers_with_draws_its_special_values_first_and_stays_in_range():
    s = integers_with((9, 0), 0, 9)
    assert s is integers_with((9, 0), 0, 9)
    values = [int(v) for v in _values(s, 32)]
    assert {0, 9} <= set(values) and all(0 <= v <= 9 for v in values)
