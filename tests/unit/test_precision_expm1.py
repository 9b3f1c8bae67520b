"""Backends: expm1 (for cancellation-free power differences x^a - y^a = y^a expm1(a log1p((x-y)/y)))."""
import mpmath
import numpy as np

from attncheck.numeric.precision import F64, MP


def test_expm1_float64_is_accurate_for_tiny_arguments():
    x = np.array([1e-300, 1e-17, 1e-8, 0.5, -0.5])
    assert np.allclose(F64.expm1(x), [float(mpmath.expm1(v)) for v in x], rtol=1e-15, atol=0)


def test_expm1_mpmath_backend_matches_mpmath():
    with mpmath.workdps(50):
        xp = MP(50)
        out = xp.expm1(xp.asarray(np.array([1e-30, 2.0])))
        x = mpmath.mpf(1e-30)
        assert abs(out[0] - (x + x ** 2 / 2)) < mpmath.mpf(10) ** -85
        assert abs(out[1] - (mpmath.e ** 2 - 1)) < mpmath.mpf(10) ** -45
