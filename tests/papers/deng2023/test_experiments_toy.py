"""Smoke tests of the Section 7.1 reproduction (small grids, few trials)."""
import numpy as np

from attncheck.papers.deng2023.experiments import toy as e


def test_success_is_one_boolean_per_trial_and_follows_the_theory():
    rng = np.random.default_rng(0)
    s = e.success(300, 12, 120, rng)
    assert s.shape == (120,) and s.dtype == bool
    assert s.mean() > 0.9  # 1 - 2^-12 up to the D0 failures at tau = 1/4
    assert not e.success(300, 12, 60, rng, tau=0.0).any()  # F_exp(A0) > 0 whenever some <f, y_l> > 0
    assert not e.success(300, 12, 60, rng, tau=1.5).any()  # tau above 2 f_j - 1: F_exp(A1) = 0


def test_m_is_rounded_log_n():
    assert e.m_of(1000) == 7 and e.m_of(2) == 1
