"""Statistics: exact binomial intervals, sequential decisions, multiplicity, trend fits.

Every probability the suite reports comes from here, so the functions are small and
exact: Clopper-Pearson bounds from the beta distribution, a sequential test whose
looks are Bonferroni-split, and an OLS power-law fit with a t-interval.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats as _st

from attncheck.core.claims import check_probability


def _check_alpha(alpha: float) -> None:
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"significance level alpha must lie in (0, 1), got {alpha!r}")


def _check_counts(k: int, n: int) -> None:
    if n < 1 or not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n and n >= 1, got k={k}, n={n}")


def cp_upper(k: int, n: int, alpha: float) -> float:
    """One-sided (1 - alpha) Clopper-Pearson upper bound on a binomial proportion."""
    _check_counts(k, n)
    _check_alpha(alpha)
    return 1.0 if k == n else float(_st.beta.ppf(1.0 - alpha, k + 1, n - k))


def cp_lower(k: int, n: int, alpha: float) -> float:
    """One-sided (1 - alpha) Clopper-Pearson lower bound on a binomial proportion."""
    _check_counts(k, n)
    _check_alpha(alpha)
    return 0.0 if k == 0 else float(_st.beta.ppf(alpha, k, n - k + 1))


def clopper_pearson(k: int, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """Two-sided (1 - alpha) exact interval for a binomial proportion."""
    return cp_lower(k, n, alpha / 2), cp_upper(k, n, alpha / 2)


@dataclass(frozen=True)
class Decision:
    """Outcome of one look of the sequential test."""

    state: str  # "refute", "holds" or "continue"
    lower: float
    upper: float


def decide(k: int, n: int, p: float, relation: str, alpha: float) -> Decision:
    """Decide "Pr[success] {relation} p" from k of n at per-look level alpha.

    ``>=`` is refuted when the upper bound falls below p and confirmed when the lower
    bound reaches p. ``==`` is refuted when p leaves the two-sided interval; it can
    never be confirmed early (equality is not decidable from finite samples).
    """
    check_probability(p)
    if relation == ">=":
        lo, hi = cp_lower(k, n, alpha), cp_upper(k, n, alpha)
        if hi < p:
            return Decision("refute", lo, hi)
        if lo >= p and p < 1.0:
            return Decision("holds", lo, hi)
        return Decision("continue", lo, hi)
    if relation == "==":
        lo, hi = clopper_pearson(k, n, alpha)
        return Decision("refute" if not lo <= p <= hi else "continue", lo, hi)
    raise ValueError(f"relation must be '>=' or '==', got {relation!r}")


def looks(first: int, budget: int) -> list[int]:
    """Cumulative sample sizes of the sequential test: first, 2*first, ... up to budget."""
    if first < 1 or budget < first:
        raise ValueError(f"need 1 <= first <= budget, got first={first}, budget={budget}")
    sizes = [first]
    while sizes[-1] < budget:
        sizes.append(min(2 * sizes[-1], budget))
    return sizes


def bonferroni(alpha: float, m: int) -> float:
    """Per-test level that keeps the family-wise error of m tests at most alpha."""
    _check_alpha(alpha)
    if m < 1:
        raise ValueError(f"number of tests must be >= 1, got {m}")
    return alpha / m


@dataclass(frozen=True)
class PowerFit:
    """y ~ a * n**slope fitted by OLS on logs, with a (1 - alpha) t-interval."""

    slope: float
    lower: float
    upper: float
    points: int


def fit_power_law(n, y, alpha: float = 0.05) -> PowerFit:
    """Fit log y = log a + slope * log n; the interval is exact under Gaussian noise."""
    n, y = np.asarray(n, float), np.asarray(y, float)
    if n.shape != y.shape or n.size < 3:
        raise ValueError("need at least 3 (n, y) pairs of equal length to fit a power law")
    if np.any(n <= 0) or np.any(y <= 0):
        raise ValueError("power-law fit needs positive n and y")
    x, z = np.log(n), np.log(y)
    res = _st.linregress(x, z)
    if res.stderr == 0.0:
        return PowerFit(float(res.slope), float(res.slope), float(res.slope), n.size)
    half = _st.t.ppf(1 - alpha / 2, n.size - 2) * res.stderr
    return PowerFit(float(res.slope), float(res.slope - half), float(res.slope + half), n.size)


def fit_binomial_power_law(n, failures, draws, alpha: float = 0.05) -> PowerFit:
    """Fit a failure rate f = failures / draws to a * n**slope by weighted least squares on logs.

    The variance of log f is the binomial one, (1 - f) / (f draws) (delta method), so the
    normal interval of the slope is calibrated by the draws behind each point, not by the
    scatter of a handful of points (which can be small by chance and make a flat rate look
    significantly sloped). Needs 0 < failures < draws at 3 points or more.
    """
    n, k, m = (np.asarray(v, float) for v in (n, failures, draws))
    if not (n.shape == k.shape == m.shape) or n.size < 3:
        raise ValueError("need at least 3 (n, failures, draws) triples of equal length")
    if np.any(n <= 0) or np.any(k <= 0) or np.any(k >= m):
        raise ValueError("binomial power-law fit needs n > 0 and 0 < failures < draws")
    f = k / m
    x, z, w = np.log(n), np.log(f), f * m / (1.0 - f)
    xm = np.sum(w * x) / np.sum(w)
    sxx = np.sum(w * (x - xm) ** 2)
    if sxx == 0.0:
        raise ValueError("binomial power-law fit needs at least two distinct n")
    slope = float(np.sum(w * (x - xm) * (z - np.sum(w * z) / np.sum(w))) / sxx)
    half = float(_st.norm.ppf(1 - alpha / 2) / np.sqrt(sxx))
    return PowerFit(slope, slope - half, slope + half, n.size)



def mean_se(draws) -> tuple:
    """Mean and standard error (ddof = 1) of Monte Carlo draws over the first axis."""
    v = np.asarray(draws, float)
    return v.mean(axis=0), v.std(axis=0, ddof=1) / np.sqrt(v.shape[0])


@dataclass(frozen=True)
class MeanTest:
    """A Monte Carlo mean test written as ``lhs <= rhs`` (element-wise): accepted where it holds."""

    lhs: object
    rhs: object

    @property
    def accepted(self) -> bool:
        return bool(np.all(np.asarray(self.lhs) <= np.asarray(self.rhs)))


def mean_within(mean, stderr, bound=None, *, k: float = 5.0, scale=None) -> MeanTest:
    """Decide a Monte Carlo mean by the normal approximation at ``k`` standard errors.

    - ``bound`` None, an identity ``E v = 0`` (two-sided, per coordinate): accepted iff
      ``|mean| <= k * stderr + 1e-300`` (the 1e-300 lets an exact 0 with stderr 0 pass);
    - ``bound`` a number, an inequality ``E v <= bound`` (one-sided): accepted iff
      ``mean - (k * stderr + 1e-9 * |scale|) <= bound``, ``scale`` defaulting to ``bound``
      (1e-9 of it absorbs float64 rounding of an exact tie).

    At k = 5 a true statement is rejected with probability about 5.7e-7 per coordinate
    (two-sided; 2.9e-7 one-sided) when the mean is normal. This level is not inside the
    suite's alpha accounting yet: nothing splits it across cases, coordinates or claims
    (the next issue makes Monte Carlo mean tests an engine kind). Returns the two sides,
    so that a claim hands the same numbers to its slack.
    """
    if bound is None:
        return MeanTest(np.abs(mean), k * stderr + 1e-300)
    tol = k * stderr + 1e-9 * abs(bound if scale is None else scale)
    return MeanTest(mean - tol, bound)


# ---- asymptotic claims: trends of an implied constant measured with standard errors ---------------------


@dataclass(frozen=True)
class WeightedFit:
    """Weighted least squares y ~ X beta with known standard errors of y.

    ``coef`` and ``se``: the coefficients and their standard errors, the latter multiplied by
    the Birge ratio sqrt(chi2 / dof) when that exceeds 1 (scatter beyond the stated errors:
    the search found a different worst case at each point, or the errors are understated);
    ``chi2`` and ``dof``: the goodness of fit before that scaling."""

    coef: np.ndarray
    se: np.ndarray
    chi2: float
    dof: int

    @property
    def birge(self) -> float:
        return float(np.sqrt(self.chi2 / self.dof)) if self.dof > 0 else 1.0


def _floor_se(y: np.ndarray, se: np.ndarray) -> np.ndarray:
    """Standard errors floored at float64 resolution of the values (an exact value is weighted, not infinite)."""
    scale = float(np.max(np.abs(y))) if y.size else 0.0
    return np.maximum(se, 1e-12 * scale + 1e-300)


def weighted_fit(X, y, se) -> WeightedFit:
    """Weighted least squares of ``y`` on the columns of ``X`` (rows: observations), weights 1/se^2."""
    X, y = np.atleast_2d(np.asarray(X, float)), np.asarray(y, float)
    se = _floor_se(y, np.asarray(se, float))
    if X.shape[0] != y.size or y.size < X.shape[1]:
        raise ValueError(f"weighted_fit needs at least {X.shape[1]} observations, got {y.size}")
    A, b = X / se[:, None], y / se
    q, r = np.linalg.qr(A)
    coef = np.linalg.solve(r, q.T @ b)
    r_inv = np.linalg.inv(r)  # cov = (A^T A)^-1 = r^-1 r^-T: its diagonal is the row norms of r^-1, >= 0
    chi2 = float(np.sum((A @ coef - b) ** 2))
    dof = y.size - X.shape[1]
    inflate = max(1.0, chi2 / dof) if dof > 0 else 1.0
    return WeightedFit(coef, np.sqrt(np.sum(r_inv ** 2, axis=1) * inflate), chi2, dof)


def line_fit(x, y, se) -> WeightedFit:
    """y ~ a + b x by :func:`weighted_fit` (coef = [a, b])."""
    x = np.asarray(x, float)
    return weighted_fit(np.column_stack([np.ones_like(x), x]), y, se)


def second_difference(u, y, se) -> tuple[float, float]:
    """(d, se of d) for three points: d = slope(u2 -> u3) - slope(u1 -> u2) with the points ordered by
    decreasing u (slopes taken toward smaller u, so d > 0 when y is convex in u and falls in u faster
    toward small u); its error from independent errors of y."""
    u, y, se = (np.asarray(v, float) for v in (u, y, se))
    if u.size != 3 or not (u[0] > u[1] > u[2]):
        raise ValueError("second_difference needs three points with decreasing u")
    w = np.array([1 / (u[0] - u[1]), -1 / (u[1] - u[2]) - 1 / (u[0] - u[1]), 1 / (u[1] - u[2])])
    # slope(2 -> 3) = (y3 - y2) / (u2 - u3), slope(1 -> 2) = (y2 - y1) / (u1 - u2)
    return float(w @ y), float(np.sqrt(np.sum((w * se) ** 2)))


def z_one_sided(alpha: float) -> float:
    """The one-sided normal quantile of level alpha."""
    _check_alpha(alpha)
    return float(_st.norm.ppf(1.0 - alpha))
