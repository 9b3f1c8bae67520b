"""Backends, slack helpers and escalation."""
import mpmath
import numpy as np
import pytest
from planted import PLANTED

from attncheck.numeric.precision import F64, MP, Slack, all_of, both, close, ge, gt, holds, le
from attncheck.run.session import run_claim as run


def test_backends_agree_on_the_primitives():
    a = np.array([-3.0, 0.5, 700.0])
    with mpmath.workdps(40):
        mp = MP(40)
        m = mp.asarray(a)
        np.testing.assert_allclose(mp.to_float(mp.logsumexp(m)), F64.logsumexp(a), rtol=1e-15)
        np.testing.assert_allclose(mp.to_float(mp.exp(m[:2])), np.exp(a[:2]), rtol=1e-15)
        assert mp.to_float(mp.sum(m)) == pytest.approx(a.sum())
        np.testing.assert_array_equal(mp.to_float(mp.maximum(m, mp.asarray(0.0))), np.maximum(a, 0))


def test_logsumexp_never_overflows():
    assert F64.logsumexp(np.array([1e4, 1e4])) == pytest.approx(1e4 + np.log(2))
    assert F64.logsumexp(np.array([-np.inf, 0.0])) == 0.0


def test_all_of_mixes_strict_and_non_strict():
    # outcome per element: (x >= 0) and (y > 0)
    x, y = np.array([0.0, 1.0, -1.0, 1.0]), np.array([1.0, 0.0, 1.0, 2.0])
    s = all_of(ge(x, 0.0), gt(y, 0.0))
    np.testing.assert_array_equal(s.holds(), [True, False, False, True])
    d = holds(lambda xp, idx: all_of(ge(xp.asarray(x if idx is None else x[idx]), 0.0, xp),
                                     gt(xp.asarray(y if idx is None else y[idx]), 0.0, xp), xp=xp))
    np.testing.assert_array_equal(d.ok, [True, False, False, True])  # ties settled in mpmath alike
    with pytest.raises(ValueError, match="non-strict"):
        both(ge(x, 0.0), gt(y, 0.0))


def test_close_and_le_scales():
    s = close(np.array([1.0, 2.0]), np.array([1.0 + 1e-12, 2.1]), rtol=1e-9)
    np.testing.assert_array_equal(s.holds(), [True, False])
    assert le(1.0, 2.0).scale == 3.0


def test_slacks_that_no_precision_nor_exact_evaluation_decides_are_inconclusive_not_refuted():
    rec = run(PLANTED.get("planted/precision/undecidable"), "quick", seed=0)
    assert rec["verdict"] == "INCONCLUSIVE"
    assert rec["evidence"]["escalation"]["undecided"] >= 1


def test_nonfinite_slack_raises():
    from attncheck.numeric.precision import NonFinite

    with pytest.raises(NonFinite):
        holds(lambda xp, idx: Slack(np.array([np.nan]), 1.0))
