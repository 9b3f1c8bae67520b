"""Statistics: exact binomial intervals, sequential decisions, multiplicity, trend fits.

Every probability the suite reports comes from here, so the functions are small and
exact: Clopper-Pearson bounds from the beta distribution, a sequential test whose
looks are Bonferroni-split, a t test of Monte Carlo means (expectation claims), and an
OLS power-law fit with a t-interval.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attncheck.core import lazy
from attncheck.core.claims import check_probability

_st = lazy.module("scipy.stats")  # imported at the first test or fit


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


def quantile(values, q: float) -> float:
    """numpy's (linear) q-quantile of per-draw values that may be +inf (a draw where the ratio is unbounded, e.g.
    a denominator that vanishes in that draw): +inf where the interpolation puts weight on an infinite draw,
    else the quantile of the finite draws at their ranks among all (the infinite ones rank last). No draws, or
    NaN or -inf among them, raise ValueError: they order nothing."""
    x = np.sort(np.asarray(values, float).ravel())
    if x.size == 0:
        raise ValueError("quantile needs at least one draw, got none")
    if np.isnan(x).any() or np.isneginf(x).any():
        bad = int(np.isnan(x).sum() + np.isneginf(x).sum())
        raise ValueError(f"quantile needs draws that are finite or +inf, got {bad} of {x.size} draws NaN or -inf")
    h = (x.size - 1) * q
    if np.isposinf(x[int(np.ceil(h))]):
        return float("inf")
    return float(np.quantile(np.where(np.isposinf(x), x[np.isfinite(x)].max(), x), q))


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


#: one-sided level of the interval that decides an expectation HOLDS' strength ("confirmed")
CONFIRM_ALPHA = 0.05


@dataclass(frozen=True)
class MeanDecision:
    """One look of :func:`mean_test`, per coordinate (1-d arrays), and its state.

    ``lower``/``upper``: the multiplicity-adjusted bounds of the mean, each one-sided at the look's level split
    over the coordinates (and the two sides for ``==``): ``<=`` is refuted when ``lower`` exceeds the tie band
    and holds early when ``upper`` lies below it (``>=`` mirrored); ``confirm``: the one-sided ``CONFIRM_ALPHA``
    bound on the claimed side (upper for ``<=``, lower for ``>=``; NaN for ``==``).
    """

    state: str  # "refute", "holds" or "continue"
    relation: str
    mean: np.ndarray
    se: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    tie: np.ndarray
    confirm: np.ndarray
    coordinate: int  # the coordinate closest to (or farthest past) refutation

    @property
    def confirmed(self) -> bool:
        """Every coordinate's one-sided 95% bound lies on the claimed side of 0, ties within the band included
        (never for ``==``)."""
        if self.relation == "==":
            return False
        return bool(np.all(self.confirm <= self.tie) if self.relation == "<=" else np.all(self.confirm >= -self.tie))


def mean_test(values, relation: str, alpha: float, tie=0.0) -> MeanDecision:
    """Decide ``E[V] {relation} 0`` per coordinate from i.i.d. draws ``values`` (n, m) at level ``alpha``.

    The CLT (Student t) test of each coordinate's mean, Bonferroni-split over the m coordinates (and the
    two sides of ``==``): refuted when the (1 - alpha/m) one-sided bound of some mean lies on the wrong
    side of the band [-tie, tie] (``tie``: the float64 rounding of an exact tie, per coordinate, >= 0).
    ``<=``/``>=`` hold early ("holds": the sequential test may stop) when every interval lies wholly on
    the claimed side of the band; ``==`` never does. A coordinate whose draws are all equal (sample
    variance 0, so se = 0) is decided deterministically by the same rule: refuted iff its common value
    lies past the band on the wrong side. The t interval is exact for Gaussian draws and asymptotically
    valid for any finite variance (the studentised mean self-normalises heavy tails); per-look levels
    of a sequential test come from the caller (:func:`looks`, :func:`bonferroni`).
    """
    _check_alpha(alpha)
    if relation not in ("<=", ">=", "=="):
        raise ValueError(f"relation must be '<=', '>=' or '==', got {relation!r}")
    v = np.asarray(values, float)
    v = v.reshape(len(v), -1)
    n, m = v.shape
    if n < 2:
        raise ValueError(f"need at least 2 draws to estimate a mean's standard error, got {n}")
    tie = np.broadcast_to(np.abs(np.asarray(tie, float)), (m,))
    mean = v.mean(axis=0)
    sd = v.std(axis=0, ddof=1)
    const = np.all(v == v[:1], axis=0)  # all draws equal: the mean is that value (no rounding noise)
    mean[const], sd[const] = v[0, const], 0.0
    se = sd / np.sqrt(n)
    crit = float(_st.t.ppf(1.0 - alpha / (m * (2 if relation == "==" else 1)), n - 1))
    c95 = float(_st.t.ppf(1.0 - CONFIRM_ALPHA, n - 1))
    lower, upper = mean - crit * se, mean + crit * se
    if relation == "<=":
        wrong, right, confirm = lower - tie, -upper - tie, mean + c95 * se
    elif relation == ">=":
        wrong, right, confirm = -upper - tie, lower - tie, mean - c95 * se
    else:
        wrong, right, confirm = np.maximum(lower, -upper) - tie, np.full(m, -np.inf), np.full(m, np.nan)
    state = "refute" if np.any(wrong > 0) else "holds" if np.all(right > 0) else "continue"
    return MeanDecision(state, relation, mean, se, lower, upper, tie, confirm, int(np.argmax(wrong)))


# ---- screen, then confirm (issue 27): the screen's ranking and the confirmation's stopping rule -------------

#: the screen's level: unadjusted and one-sided, so a case short of its claim is a *suspect* with high power; the
#: screen spends no alpha (only the confirmation on fresh draws decides), so this level needs no correction
SCREEN_ALPHA = 0.05


def screen_score(k: int, n: int, p: float, relation: str, alpha: float = SCREEN_ALPHA) -> float:
    """How far the screening draws (k successes of n) clear "Pr {relation} p" at the liberal level ``alpha``:
    for ``>=`` the one-sided (1 - alpha) upper bound minus p, for ``==`` the distance from p to the nearer end of
    the two-sided (1 - 2 alpha) interval (negative when p lies outside). Lower is more suspect; negative is
    significant at ``alpha``. The bound, not the rate, ranks cases, so cases of different p and draws compare."""
    if relation == ">=":
        return cp_upper(k, n, alpha) - p
    if relation == "==":
        lo, hi = clopper_pearson(k, n, 2 * alpha)
        return min(hi - p, p - lo)
    raise ValueError(f"relation must be '>=' or '==', got {relation!r}")


def off_claim(k: int, n: int, p: float, relation: str) -> bool:
    """The estimate k/n sits on the failing side of the claim: below p for ``>=``; for ``==`` more than one
    standard error sqrt(p (1 - p) / n) away from p. The confirmation draws more while this holds."""
    if relation == ">=":
        return k / n < p
    return abs(k / n - p) > np.sqrt(p * (1.0 - p) / n)


# ---- "eventually" with a floor (issue 27 item 4) ------------------------------------------------------------

@dataclass(frozen=True)
class FloorFit:
    """f(n) = floor + scale * n**slope (floor >= 0, slope <= 0) fitted by binomial maximum likelihood, with the
    one-sided (1 - alpha) profile-likelihood lower bound of the floor."""

    floor: float
    floor_lower: float
    scale: float
    slope: float
    points: int
    deviance: float  # binomial deviance at the maximum (goodness of fit), on points - 3 degrees of freedom

    def fits(self, alpha: float) -> bool:
        """The model describes the points: at least one degree of freedom, and its deviance not significant at
        ``alpha`` (chi-square). A path that it does not describe (steps, regimes) cannot be extrapolated by it."""
        dof = self.points - 3
        return dof >= 1 and float(_st.chi2.sf(self.deviance, dof)) >= alpha

    def reaches(self, level: float) -> float:
        """log10 of the n at which the fitted rate falls to ``level`` (inf when it never does)."""
        if level <= self.floor or self.slope >= 0.0 or self.scale <= 0.0:
            return float("inf")
        return float(np.log10((level - self.floor) / self.scale) / self.slope)


#: slopes tried by the floor fit: 0 and -1e-3 ... -3 (geometric), fine enough that the profile misses its maximum
#: by far less than the chi-square cut (measured on the planted families)
_SLOPES = np.concatenate([[0.0], -np.geomspace(1e-3, 3.0, 240)])


def _profile(floor: float, x, k, m) -> tuple[float, float, float]:
    """max over (scale >= 0, slope in _SLOPES) of the binomial log-likelihood at a fixed floor: (loglik, scale,
    slope). For a fixed slope the log-likelihood is concave in the scale (the rate is affine in it): Newton's
    method, every slope at once, kept inside 0 < rate < 1."""
    g = np.exp(np.outer(_SLOPES, x))  # (slopes, points): n**slope
    top = (1.0 - 1e-12 - floor) / g.max(axis=1)
    low = np.where(floor > 0, 0.0, 1e-300)
    w = np.sum(g * g * m, axis=1)
    a = np.clip(np.sum(g * (k - floor * m), axis=1) / w, low, top)  # least squares start
    for _ in range(60):
        f = np.clip(floor + a[:, None] * g, 1e-300, 1.0 - 1e-15)
        d1 = np.sum(g * (k / f - (m - k) / (1.0 - f)), axis=1)
        d2 = -np.sum(g * g * (k / f**2 + (m - k) / (1.0 - f) ** 2), axis=1)
        step = np.clip(a - d1 / d2, np.maximum(low, a / 10), np.minimum(top, a * 10 + 1e-12))
        if np.allclose(step, a, rtol=1e-12, atol=0.0):
            break
        a = step
    f = np.clip(floor + a[:, None] * g, 1e-300, 1.0 - 1e-15)
    ll = np.sum(k * np.log(f) + (m - k) * np.log1p(-f), axis=1)
    j = int(np.argmax(ll))
    return float(ll[j]), float(a[j]), float(_SLOPES[j])


def fit_binomial_floor(n, failures, draws, level: float, alpha: float = 0.01, grid: int = 80) -> FloorFit:
    """Fit failures / draws to floor + scale * n**slope by binomial maximum likelihood (every point, zeros
    included), the floor profiled on a grid over [0, the largest observed rate], refined over [0, level].
    ``floor_lower`` is the smallest floor of the grid whose profile likelihood lies within the chi-square(1)
    quantile at 1 - 2 alpha of the maximum (a one-sided bound at level alpha; 0 when the floor-free power law is
    within it): ``floor_lower > level`` rejects every floor up to ``level`` at level alpha."""
    from scipy.stats import chi2

    n, k, m = (np.asarray(v, float) for v in (n, failures, draws))
    if not (n.shape == k.shape == m.shape) or n.size < 3 or np.any(n <= 0) or np.any(k < 0) or np.any(k > m):
        raise ValueError("need at least 3 (n > 0, 0 <= failures <= draws) triples of equal length")
    x = np.log(n)
    floors = np.union1d(np.linspace(0.0, float(np.max(k / m)), grid), np.linspace(0.0, level, grid // 4 + 1))
    prof = [_profile(f0, x, k, m) for f0 in floors]
    i = int(np.argmax([p[0] for p in prof]))
    cut = prof[i][0] - chi2.ppf(1.0 - 2.0 * alpha, 1) / 2.0
    lower = next(float(f0) for f0, p in zip(floors, prof, strict=True) if p[0] >= cut)
    with np.errstate(divide="ignore", invalid="ignore"):  # the saturated model: log-likelihood at f = k / m
        r = k / m
        saturated = float(np.sum(np.where(k > 0, k * np.log(r), 0.0) + np.where(k < m, (m - k) * np.log1p(-r), 0.0)))
    return FloorFit(float(floors[i]), lower, prof[i][1], prof[i][2], int(n.size), max(2.0 * (saturated - prof[i][0]), 0.0))


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
