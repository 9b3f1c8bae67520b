"""julistiono2024: the readings of the open phrases and settings that several claims use, written once
(docs/design.md, "Interpretation policy"), and the unchecked parts of the domain those settings leave out.
No claims are defined here."""
from attncheck.core.reading import Reason, Shared, Unchecked

PAPER = "julistiono2024"


def _shared(name: str, text: str) -> Shared:
    return Shared(f"{PAPER}/{name}", text)


# ---- ell_p geometry (Definition 1, Lemmas 12-15) ------------------------------------------------

NORM = _shared("norm", "||W||_p is the entrywise ell_p norm of all m entries (CODE: pnorm of the flattened matrix)")
#: p over the statement's range, cut at P_MAX = 64 (strategies.mirror_descent)
P_RANGE = _shared("p-range", "p over the statement's range cut at 64 (P_MAX): the values 1.1-4 of the paper and claims "
                             "file that lie in it, points just above 1 where the range starts at 1, uniform draws")
#: Lemma 12 (p >= 2): normalized by max |W_jk|, so no power leaves float64's range
P_RANGE_WIDE = _shared("p-range-wide", "p over [2, 1e300] (P_FLOAT): P_RANGE's draws in [2, 64] half the time, else "
                                       "log-uniform in [64, 1e300] (strategies.mirror_descent.wide_exponents)")
#: where the statement admits p > P_MAX: Lemma 26 (matrices with entries up to ~1e3)
P_ABOVE_MAX = Unchecked(
    "p > 64 (P_MAX)", Reason.FLOAT_RANGE,
    "the divergences' terms |W_jk|^p, entries up to ~1.5e3 (1e3 plus spreads up to 1e2 times a Gaussian), overflow "
    "float64 (1.8e308) from p ~ 97")
#: Lemmas 14-15 (x = y + delta, y, delta <= 1e3)
P_ABOVE_MAX_SCALAR = Unchecked(
    "p > 64 (P_MAX)", Reason.FLOAT_RANGE,
    "x^p with x = y + delta up to 2e3 overflows float64 (1.8e308) past p = 93, and power_differences' 24-term series "
    "is sized for p u <= 0.064 (p <= 64)")
#: Lemma 12 (p >= 2), drawn up to p = 1e300 (P_FLOAT)
P_ABOVE_FLOAT = Unchecked("p > 1e300", Reason.FLOAT_RANGE, "p is a float64, which overflows at 1.8e308")
#: Definition 1 on unit-normalized pairs
P_ABOVE_MAX_DIRECTIONAL = Unchecked(
    "p > 64 (P_MAX)", Reason.FLOAT_RANGE,
    "the float64 divergence of unit-normalized pairs loses accuracy as p grows (their entries' rounding, 1.1e-16 "
    "relative, is magnified p times in the p-th powers): drawn up to p = 1000 (2026-12-07) the deep profile refuted "
    "the identity at p = 1000, W = [[-1, -1]], V = [[-0.9, -1.1]] (relative slack -3.3e-8), where both sides agree "
    "to 60 digits in mpmath (6.929070095e-4; float64's D_psi is 6.929071011e-4): an evaluation artefact beyond the "
    "1e-9 tolerance, not a failure of the identity")
#: Lemma 13 (l1) in the unit ell_p ball
P_ABOVE_MAX_BALL = Unchecked(
    "p > 64 (P_MAX)", Reason.FLOAT_RANGE,
    "in the unit ball the terms |W_jk|^p, |W_jk - V_jk|^p fall below float64's range (1e-308) once p |log |W_jk|| > "
    "709, so at large p most pairs are ties of underflowed terms, and exact evaluation refuses their non-dyadic "
    "exponents: drawn up to p = 1000 (2026-12-07) the quick profile was INCONCLUSIVE (176 cases, 74 escalated to "
    "mpmath; the undecided case, a near-equal 1 x 3 pair with entries 1.7e-6 at p = 57.4, shows the same underflow "
    "already inside the drawn range)")
#: Definition 1, Lemma 26: shapes up to 6 x 6
LARGE_SHAPES = Unchecked(
    "matrices with more than 36 entries (larger than 6 x 6)", Reason.NOT_DRAWN,
    "the identities are sums of entrywise terms, so the shape enters only through the number of entries m; the "
    "draws cut m at 36 (the 6 x 6 of Lemma 12), and a larger m only lengthens the sums (tolerance relative to them)")
LEMMA_13_HYPOTHESIS = _shared("lemma-13-hypothesis", "||W||_p <= 1 and ||V||_p <= 1 (the appendix's Sub-case 1.2 "
                                                     "endpoints); L1 is scale invariant")
POWER_PAIRS = _shared("power-pairs", "x = y + delta with y in {0} u [1e-6, 1e3] (log) u [0, 100], delta in {0} u "
                                     "[1e-12, 1e3] (log) u y * [1e-12, 1e-2] (relative ties); corners of the declared "
                                     "space and a Powell search")
POWER_DIFFERENCES = _shared(
    "power-differences",
    "slack formed without cancellation (attncheck.papers.julistiono2024.models.power_differences): for delta < 1e-3 y "
    "the binomial series of the difference, factored as y^(p-2) delta^2 (Lemma 15: y^(p-2) delta), elsewhere y^a "
    "expm1(a log1p(delta/y)); float64 underflow (subnormal delta) and ties go to mpmath")

# ---- the loss, the data and one step (Lemmas 16-18, 22-25, Lemma 4) -----------------------------

LOSS = _shared("loss", "logistic ell(u) = log(1 + e^-u), averaged over samples (CODE; satisfies Assumption A)")
ATT_DATA = _shared("att-data", "n <= 6, T <= 8, d <= 10 drawn like Section 4.1 (unit-norm Gaussian x_it, z_i, v; "
                               "Y = +-1), 8 seeds")
STEP_P = _shared("step-p", "p in (1.1, 6] (att_cases: the values 1.5-4 of P_STANDARD, 6 and uniform draws)")
#: lemma-22/i's W(k) = s G, s in [1e-100, 1e100]
STEP_GEOM_SCALE = Unchecked(
    "s outside [1e-100, 1e100]", Reason.FLOAT_RANGE,
    "the terms |W_jk|^(p-1) of grad psi(W(k)) leave float64's range beyond it (docs/papers/julistiono2024.md)")
#: the step claims' W(k) = s G, s <= 30
STEP_SCALE = Unchecked(
    "||W(k)|| scale s > 30", Reason.FLOAT_RANGE,
    "one step moves W by less than e^-300 relative and the claim's slack (second order in the step) is below what "
    "240-digit arithmetic resolves; large norms are covered inside the cone (lemma-20, lemma-21, lemma-27)")
STEP_P_LOW = Unchecked("p in (1, 1.1]", Reason.NOT_DRAWN,
                       "the range is open at 1.1, the experiments' smallest exponent")
STEP_P_HIGH = Unchecked("p > 6", Reason.NOT_DRAWN, "the range is closed at 6, the end of the claims file's hint range "
                                                   "(1, 6]")
STEP_ETA = (
    Unchecked("eta in (0, 1e-12)", Reason.FLOAT_RANGE,
              "the slacks vanish to high order in eta: below 1e-12 some were undecided at 240 digits; down to 1e-12 "
              "all nine step claims decide (docs/papers/julistiono2024.md)"),
    Unchecked("eta > 1e300", Reason.FLOAT_RANGE, "eta is a float64, which overflows at 1.8e308"),
)
IDENTITY_TOLERANCE = _shared("identity-tolerance", "1e-9 of the rounding scale: the magnitudes of the terms of each "
                                                   "divergence's direct formula plus eta |<grad L|, |.|>")
LEMMA_4_GQ = _shared("lemma-4-gq", "the per-step ||grad L(W(k))||_q in place of G_q = sup ||grad L||_q (a stronger "
                                   "statement: it implies the one with G_q); the proof's route gives exactly this")

# ---- the cone (Lemmas 19-21, 27-30) --------------------------------------------------------------

CONE = _shared("cone", "C_{p,mu,R}(W_mm) = {||W||_p >= R, D_psi(bar W_mm, bar W) <= mu} with mu = mu(alpha) of claims "
                       "file 1.7 (DERIVED-UNCERTAIN: chosen so that eps_mu <= nu_alpha / 4; equation numbers "
                       "(4a)/(6)/(8) could not be matched)")
ALPHA = _shared("alpha", "alpha_i = argmax_t gamma_it (unique max), hence locally optimal (Definition 3); the only "
                         "alpha drawn (reference_geometry fixes it)")
CONE_DATA = _shared("cone-data", "Section 4.1 datasets (n = 6, T = 8, d = 10; seeds 0-7, CONE_SEEDS), logistic loss, v "
                                 "fixed")
#: the datasets the cone, run and geometry-step claims do not draw
OTHER_SHAPES = Unchecked(
    "datasets of other shapes than Section 4.1's (n, T, d) = (6, 8, 10), the corners n = 1, T = 2, d = 1 included",
    Reason.NOT_DRAWN,
    "the ell_p-AttSVM solve fails or is uncertified on some (docs/papers/julistiono2024.md)")
CONE_P = _shared("cone-p", "p in {1.1, 1.5, 1.75, 2, 2.5, 3, 4} (P_STANDARD; one ell_p-AttSVM solve per (seed, p), "
                           "cached)")
CONE_POINT = _shared(
    "cone-point",
    "W = R ||W_mm||_p normalize(bar W_mm + r E), E Gaussian, r set so that D_psi(bar W_mm, bar W) = u mu(alpha), u in "
    "[0, 1] (0: the ray of W_mm, 1: the cone's boundary). E is only Gaussian (one draw per seed w) and never searched")
LEMMA_19_MU = _shared("lemma-19-mu", "||W||_p = ||W_mm||_p (the lemma's normalization); mu is the tightest "
                                     "admissible mu = D_psi(bar W_mm, bar W) of the point (the statement is for every "
                                     "mu <= mu(alpha) with D <= mu)")
LEMMA_19_EXACT = _shared(
    "lemma-19-exact",
    "W - W_mm = ||W_mm||_p (bar W - bar W_mm) and D_psi(bar W_mm, bar W) from the same unit directions (exact at u = 0, "
    "where W = W_mm and every slack is exactly 0: decided as an equality in float64 and mpmath); (x_alpha - x_t)^T W "
    "z_i = m_it + (x_alpha - x_t)^T (W - W_mm) z_i with m_it the certified solution's margins (KKT residual <= 1e-13): "
    "support margins are exactly 1 (the definition of T_i, tolerance 1e-9 on the computed margins) and nu_alpha = min "
    "of the non-support m_it - 1, so the solver's own rounding is not charged to the lemma")
#: the cone claims' alpha (test_cone.py draws sel)
ALPHA_LOCAL = _shared(
    "alpha-local",
    "sel = 0: alpha_i = argmax_t gamma_it; sel in {1, 2}: a locally optimal alpha (Definition 3) that is not the "
    "argmax, from att_svm.locally_optimal_selections (argmax with one alpha_i moved to its sample's second-largest "
    "gamma, kept when gamma_{i alpha_i} > gamma_it on T_i of its own ell_p-AttSVM and bar T_i is non-empty): 50 of "
    "the 56 (seed, p) have one, 33 two; seeds 1 and 4 at p in {1.5, 1.75, 2} have none of this form and draw the "
    "argmax (2026-12-07)")
#: the cone claims' setting (with p in P_STANDARD; the long runs draw their own p)
CONE_SETTING = (CONE, ALPHA_LOCAL, CONE_DATA, CONE_P, CONE_POINT)
#: the runs' setting (alpha = argmax only)
CONE_SETTING_ARGMAX = (CONE, ALPHA, CONE_DATA, CONE_P, CONE_POINT)
#: the selections the runs (Lemmas 28-30) do not draw: every alpha but the argmax (this covers ALPHA_OTHER)
ALPHA_ARGMAX_ONLY = Unchecked(
    "alpha locally optimal but not the argmax (the single swaps the cone claims draw and every other selection)",
    Reason.NOT_DRAWN, "the runs start from sel = 0 (argmax)")
#: the selections the cone claims (sel in {0, 1, 2}) do not draw
ALPHA_OTHER = Unchecked("alpha locally optimal other than argmax-with-one-swap-to-the-second-largest gamma",
                        Reason.NOT_DRAWN,
                        "only the n single swaps to the second-largest gamma_it are searched")
DIRECTIONS_OTHER = Unchecked("directions E other than Gaussian (sparse, one-hot, Hoelder-extremal)", Reason.NOT_DRAWN,
                             "one Gaussian E per seed w, never searched (measure zero)")
CONE_UNCHECKED = (ALPHA_OTHER, OTHER_SHAPES, DIRECTIONS_OTHER)
#: the runs' alpha, dataset and direction parts (alpha: one part, ALPHA_ARGMAX_ONLY)
RUN_DATA_UNCHECKED = (ALPHA_ARGMAX_ONLY, OTHER_SHAPES, DIRECTIONS_OTHER)
CONE_P_OFF = Unchecked(
    "p off P_STANDARD: p in (1, 1.1), p > 4 and p between its values", Reason.NOT_DRAWN,
    "off the grid the ell_p-AttSVM solve is uncertified at some p (docs/papers/julistiono2024.md)")
R_MU_PATH = _shared("r-mu-path", "R_mu (R_pi) exists but its formula is unknown: judged at the end of the path R / ||W_mm||_p "
                           "in {1, 10, 100, 1e3, 1e4} (deep: up to 1e5), 'holds from R' reported; float64 softmax "
                           "underflows from R ~ 1e3, mpmath there")
#: lemma-27/main (one step): eta down to strategies.ETA_WIDE[0]
ETA_SMALL_STEP = _shared("eta-small-step", "'eta small' read as eta in [1e-12, 1] (log scale)")
ETA_BELOW_STEP = Unchecked(
    "eta in (0, 1e-12)", Reason.FLOAT_RANGE,
    "below 1e-12 a case was undecided at 240 digits (docs/papers/julistiono2024.md)")
#: the runs (Lemmas 28-30): eta down to test_convergence.ETA_RUN_LO = 1e-4
ETA_SMALL = _shared("eta-small", "'eta small' read as eta in [1e-4, 1] (log scale)")
ETA_BELOW = Unchecked(
    "eta in (0, 1e-4)", Reason.BUDGET,
    "below 1e-4 the escalations to mpmath cost too much (measured on lemma-29/eq-29; "
    "docs/papers/julistiono2024.md)")
#: lemma-28/main draws mu = m mu(alpha), m in [test_convergence.MU_LO, 1]
MU_BELOW = Unchecked(
    "mu in (0, 0.01 mu(alpha))", Reason.NOT_DRAWN,
    "R grows like mu^(-1/p) and bar D barely moves at large R: the check tends to bar D_0 <= mu "
    "(docs/papers/julistiono2024.md)")
PI_DRAWN = _shared("pi-drawn", "pi drawn in [1e-4, 1] (log scale)")

# ---- runs from the cone (Lemmas 28-30) ------------------------------------------------------------

RUN = _shared("run", "W(0) the cone point W above with R = R0 (so W(0) is in the thin cone C_{p, u mu(alpha), R0}), "
                     "then K un-normalized ell_p-AttGD steps (the lemmas' update; the experiments normalize), iterates "
                     "in float64")
RUN_R0 = _shared("run-r0", "R0 / ||W_mm||_p in {1, 3, 10} with K = 60 steps (deep: {1, 3, 10, 30}, K = 2000); the "
                           "lemma needs R0 >= R_pi, whose formula is unknown, so the claim is judged at the largest R0 "
                           "(eventually)")
PI_EMP = _shared("pi-emp", "pi_s = max(0, pi_emp(W(s))) with pi_emp = <grad L, bar W> / <grad L, bar W_mm> - 1 (the "
                           "smallest pi for which Lemma 21's conclusion holds at W(s), as in the claims file's check of "
                           "Lemma 27)")
RUN_HORIZON = Unchecked("k > K (the statement's 'every k')", Reason.BEYOND_PATH,
                        "cut at the path's horizon K = 60 steps (quick) and K = 2000 (deep)")
RUN_SETTING = CONE_SETTING_ARGMAX + (RUN, ETA_SMALL, RUN_R0, PI_EMP)
RUN_UNCHECKED = RUN_DATA_UNCHECKED + (CONE_P_OFF, ETA_BELOW, RUN_HORIZON)
#: lemma-29/eq-29 keeps eta in [1e-3, 1] (its escalations grow as eta falls)
ETA_SMALL_EQ29 = _shared("eta-small-eq29", "'eta small' read as eta in [1e-3, 1] (log scale)")
ETA_BELOW_EQ29 = Unchecked(
    "eta in (0, 1e-3)", Reason.BUDGET,
    "(29') is second order in the step; its mpmath escalations grow as eta falls and the deep cost below 1e-3 "
    "could not be measured (docs/papers/julistiono2024.md)")
RUN_SETTING_EQ29 = CONE_SETTING_ARGMAX + (RUN, ETA_SMALL_EQ29, RUN_R0, PI_EMP)
RUN_UNCHECKED_EQ29 = RUN_DATA_UNCHECKED + (CONE_P_OFF, ETA_BELOW_EQ29, RUN_HORIZON)

LONG_RUN = _shared(
    "long-run",
    "W(0) the cone point at R0 = ||W_mm||_p, u = 0.5, w = 0, eta = 1 (un-normalized), p in P_STANDARD (the "
    "cone claims' exponents), datasets seeds 0-7; K along the path: quick 2000-8000 steps, deep 1000-64000; one case "
    "per p: the ratio is the largest over the eight datasets (the worst run's constant)")
LONG_TRANSIENT = _shared(
    "long-run-transient",
    "from R0 = ||W_mm||_p bar D first rises (outside Lemma 28's cone); the largest ratio of lemma-29/rate peaks at K ~ "
    "2000-4000 steps and then falls, so its quick path starts at K = 2000 (docs/papers/julistiono2024.md)")
LONG_SETTING = (CONE, ALPHA, CONE_DATA, CONE_POINT, LONG_RUN, LONG_TRANSIENT)
LONG_UNCHECKED = RUN_DATA_UNCHECKED + (
    CONE_P_OFF,
    Unchecked("eta != 1, in particular every eta < 1 that 'eta small' admits", Reason.NOT_DRAWN,
              "one run per (seed, p), at eta = 1"),
    Unchecked("starts other than u = 0.5, w = 0", Reason.NOT_DRAWN, "one run per (seed, p)"),
    Unchecked("the admissible start of Lemma 28 (||W(0)||_p >= R with R >= R_pi)", Reason.NOT_DRAWN,
              "W(0) has ||W(0)||_p = ||W_mm||_p, below Lemma 28's R for most of its constants (3.6 to 3.0e9 ||W_mm||_p "
              "in lemma-28/main): these runs start outside Lemma 28's hypothesis"),
    Unchecked("K >= 1e5 steps (the claims file's horizon)", Reason.BEYOND_PATH, "the path ends at 64000 steps (deep)"),
)

# ---- the main theorem --------------------------------------------------------------------------------

THEOREM_SETTING = _shared(
    "theorem-setting",
    "CODE experiment setting of Section 4.1: n = 6, T = 8, d = 10 (seeds 0-7), W(0) ~ N(0, 1), normalized ell_p mirror "
    "descent, eta = 0.1, 2000 iterations; alpha = argmax of the final softmax (the lemmas analyse un-normalized steps "
    "with a fixed alpha: claims file section 3, item 10)")
