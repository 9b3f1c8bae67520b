"""core.draws.replayed: a repeated draw returns what a fresh draw would, and leaves the generator where it would."""
import numpy as np
import pytest

from attncheck.core import draws


def _normals(k, rng, shape, scale=1.0):
    return scale * rng.normal(size=tuple(shape) + (len(k),))


def _replaying():
    return draws.replayed(_normals)


def test_a_repeat_is_the_fresh_draw_and_the_generator_ends_where_a_fresh_draw_leaves_it():
    sampler = _replaying()
    first = sampler(np.array([1, 3]), np.random.default_rng(5), (4, 2))
    rng = np.random.default_rng(5)
    again = sampler(np.array([1, 3]), rng, (4, 2))
    fresh_rng = np.random.default_rng(5)
    fresh = _normals(np.array([1, 3]), fresh_rng, (4, 2))
    assert again is first
    assert np.array_equal(again, fresh)
    assert rng.random() == fresh_rng.random()


def test_other_arguments_or_another_state_draw_anew():
    sampler = _replaying()
    base = sampler((1, 3), np.random.default_rng(5), (4, 2))
    for k, seed, shape in [((1, 4), 5, (4, 2)), ((1, 3), 6, (4, 2)), ((1, 3), 5, (4, 3))]:
        out = sampler(k, np.random.default_rng(seed), shape)
        assert out is not base and np.array_equal(out, _normals(k, np.random.default_rng(seed), shape))
    assert not np.array_equal(sampler((1, 3), np.random.default_rng(5), (4, 2), scale=2.0), base)


def test_draws_are_read_only_and_only_the_last_are_kept():
    sampler = _replaying()
    out = sampler((1,), np.random.default_rng(0), (3,))
    with pytest.raises(ValueError):
        out[0] = 1.0
    for seed in range(1, draws.KEEP + 1):
        sampler((1,), np.random.default_rng(seed), (3,))
    assert len(sampler.kept) == draws.KEEP
    assert sampler((1,), np.random.default_rng(0), (3,)) is not out
