"""deng2023: the readings of the open phrases that more than one claim uses, each written once (docs/design.md,
"Interpretation policy"), and the unchecked parts of the domain those readings leave. No claims are defined here;
a claim references a :class:`Shared` reading in ``Reading.shared`` and lists the matching :class:`Unchecked`
parts in ``Reading.unchecked``. Measurements behind them are in docs/papers/deng2023.md."""
from attncheck.core.reading import Reading, Reason, Shared, Unchecked

# ---- paper-wide phrases ------------------------------------------------------------------------------------------

POLY = Shared("deng2023/poly", "'with probability 1 - delta/poly(n)' read as Pr >= 1 - delta: poly(n) = 1, the most "
                               "lenient reading")
DELTA = Shared("deng2023/delta", "delta drawn in [10^-3, 0.1) (the open interval (0, 0.1))")
DELTA_SMALL = Unchecked("delta in (0, 10^-3)", Reason.BUDGET,
                        "a claimed 1 - delta > 0.999 needs more draws than the budget (16000 per case) to decide")
LOG = Shared("deng2023/log", "log is the natural logarithm; n^e = exp(e log n)")
EVENTUALLY = Shared("deng2023/sufficiently-large-n", (
    "'for sufficiently large n' (asymptotic hypotheses o(.), omega(.), or an unspecified constant 'C sufficiently "
    "large'): the claim is refuted only if it fails at the largest n of the path and its failure rate does not "
    "fall; on a path over (beta, n) each beta is judged along n on its own; the report gives the n from which it "
    "holds"))
C_LARGE = Shared("deng2023/c-sufficiently-large", (
    "'C > 1 sufficiently large' (a constant the statement leaves open): the implied constant C*(n), the "
    "(1 - delta)-quantile of the claim's ratio maximised over datasets, is refuted only if it grows like a power "
    "of n along the path"))
M_ZERO = Shared("deng2023/m-zero", (
    "for an 'F = 0' claim, m = O(log(n/delta)) (Definition 3.7's m = C log(n/delta), C > 1) is the smallest such "
    "m, m = floor(log(n/delta)) + 1: 'F = 0' only gets likelier as m shrinks, so this is the most lenient"))
M_POSITIVE = Shared("deng2023/m-positive", (
    "for an 'F > 0' claim, m = O(log(n/delta)) is m = ceil(C log(n/delta)) with C in [2, 3]: F > 0 gets likelier "
    "as m grows, so a larger C is more lenient"))

# ---- Sections 3-5 (toy model) --------------------------------------------------------------------------------------

TOY_SCORES = Shared("deng2023/toy-scores", "Definition 3.8 scores (Ax)_i anywhere in [log n, 1.4 log n]: endpoints, "
                                           "constant, two-level and mixed patterns")
TOY_NETWORK = Shared("deng2023/toy-network", (
    "F = phi(sum_l phi_tau(<f, y_l>)), y Rademacher n x m (Definitions 3.5-3.7; Definition 3.6 prints F_exp for "
    "F_lin). F = 0 iff max_l <f, y_l> <= tau, F > 0 iff max_l <f, y_l> > tau (phi_tau >= 0): the slack is "
    "tau - max_l <f, y_l>"))
TOY_TAU = Shared("deng2023/toy-tau", (
    "tau = 1/4 for the 'F = 0' lemmas: Section 5 leaves tau open, one network serves Lemmas 5.1-5.4 and Lemma 5.2 "
    "needs tau < 1/4 (its proof concludes phi_tau(z) > 0 from z >= 1/4), so 1/4 is the most lenient tau for an "
    "'F = 0' claim"))

# ---- Appendices D and E (self-attention, Definition D.1) -----------------------------------------------------------

_BC = "b in [0.1, 0.9], c = 1 - b exactly in binary (the ends 0.1 / 0.9 within one ulp)"
_J3 = "j3 anywhere (first/last row, block edges)"
D1_EXACT = Shared("deng2023/d1-exact", (
    "D_1 of Definition D.1: a1 in [0.7, 100] (0.7, 1, 5, 20, 100 drawn often; Definition D.1 has no upper bound), "
    f"{_BC}, {_J3}"))
D1_GROWING = Shared("deng2023/d1-growing", (
    "D_1 of Definition D.1: a1 in [0.7, max(20, n^{1/4})] (0.7, 1, 5, 20, max(20, n^{1/4}) drawn often; "
    f"Definition D.1 has no upper bound), {_BC}, {_J3}"))
D0 = Shared("deng2023/d0", (
    f"D_0 of Definition D.1: a0 in [1e-12, 0.1) (1e-12, 1e-6, 0.099, 0.1 - 1e-9 drawn often), {_BC}, {_J3}"))
A0_TINY = Unchecked("a0 in (0, 1e-12) (D_0 of Definition D.1)", Reason.FLOAT_RANGE,
                    "the a0-dependent slacks, ~ a0 log n / n, leave 240-digit arithmetic")
SIZES_D = Shared("deng2023/sizes-d", (
    "n on the path; d - 2 any divisor of n, d = 3 and d = n + 2 included (Definition D.1 alone relates d and n: "
    "n = (d-2) t)"))
ENTRIES_D = Shared("deng2023/entries-d", (
    "every (j0, j1) of the stated position class at once: the grouped form keeps one value per class of equal "
    "entries (j3 / the other rows of j3's residue / the other residues), all are checked"))
C_ENTRIES_D = Shared("deng2023/c-entries-d", (
    "every (j0, i0) of the stated class at once; i0 in {2, ..., d-1} are the identity columns, 'the one index' is "
    "the column of j3's residue (the index the proof names)"))
PART_4B = Shared("deng2023/part-4b", (
    "Part 4b prints 'For j0 != j3' inside Part 4 (already j0 != j3): read as j1 != j3, the case Part 4a leaves "
    "(most lenient; the literal 'every j1' includes j1 = j3, where Part 4a's larger bound applies and f exceeds "
    "1/n)"))
IDENTITY_D = Shared("deng2023/identity-d", "an identity, checked to relative tolerance 1e-9 (float64 rounding of the "
                                           "computed entries)")
GROWTH_D = Shared("deng2023/growth-d", (
    "d = omega(n^0.02) and t sqrt(d) = o(n^0.99) (omega(n^{4 a0 + 0.02}), o(n^{1-2a0-0.01}) for D_0 with F_exp) "
    "admit every growth law d = n^beta, beta in (0.02, 1] (beta > 4 a0 + 0.02): the path runs over (beta, n), "
    "d - 2 the divisor of n nearest n^beta (<= n/2), each beta judged along n on its own by the 'sufficiently "
    "large n' rule (quick: beta in {0.2, 0.5, 1}, n = 10^2 .. 10^18)"))
BETA_D_SMALL = Unchecked("beta in (0.02, 0.2) (growth laws d = n^beta)", Reason.FLOAT_RANGE, (
    "the grouped evaluator counts rows in int64, so n <= 10^18, where n^beta < 4000; there the claims still fail "
    "for a reason that vanishes as d grows: their asymptotic regime lies beyond 10^18"))
A0_BETA = Shared("deng2023/a0-below-beta", (
    "a0 in (0, min(0.1, (beta - 0.02)/4)): d = n^beta = omega(n^{4 a0 + 0.02}), the hypothesis of Lemma D.8 and "
    "Theorem D.9 (Theorem 6.2 and 1.1 inherit it through D.9, the theorem they summarize for F_exp on D_0)"))
A1_GROWING = Shared("deng2023/a1-growing", (
    "a1 in [0.7, max(20, n^{1/4})]: Definition D.1 bounds a1 only below, and 'sufficiently large n' may depend on "
    "a1, so the cap grows without bound along the path (every a1 is drawn from some n on); larger a1 at a given n "
    "fails"))
NETWORK_D = Shared("deng2023/network-d", (
    "F = phi(sum_{j0} sum_l phi_tau(<c_{j0}, y_l>)) (Definitions C.2, C.6; C.6's y in R^{n x m} read as R^{d x m}: "
    "c_{j0} is in R^d): F > 0 iff max_{j0,l} <c_{j0}, y_l> > tau and F = 0 otherwise (phi_tau >= 0), so the slack "
    "is that maximum against tau"))
Y_RADEMACHER_D = Shared("deng2023/y-rademacher-d", "y_l i.i.d. Rademacher in {-1, +1}^d (Definition 3.7's "
                                                   "distribution; Section D leaves it open)")
X_THEOREM_D = Shared("deng2023/x-v-theorems-d", (
    "x = 1_{d^2} (QK^T = 1_{d x d}), V = I_d: the network of the lemmas the proof cites (Appendix D is the "
    "QK^T = 1_{d x d} section); Theorems D.9, D.13, D.17 omit x and V"))
M_NETWORK_D = Shared("deng2023/m-network", (
    "m = ceil(10 log(n/delta)) for every event: one network must make F_exp fire (C = 10 as in Theorem D.5); the "
    "'F = 0' events then hold a fortiori for every smaller m"))

SECTION_E = Shared("deng2023/section-e", (
    "Section E: b^2 + c^2 = 1 (Lemma E.1, Theorem E.4), a1 >= 1 (Lemma E.1); Definition D.1's b, c >= 0.1 kept "
    "(b in [0.1, sqrt(0.99)]); V = I_d, A1 = A2 = A3"))
SIZES_E = Shared("deng2023/sizes-e", (
    "n = (d-2) t up to the path point: d - 2 in [1, n] (d = 3, 4 included; uniform in [1, 40] on the row "
    "classes, log-uniform in [41, n] on the row orbits, SelfAttentionCase.model), t = 1, the largest t and "
    "anything between; j3 at the first row, the second (another residue), row d - 2 (j3's residue again), the last row, "
    "anywhere; a1 in [1, 10^20] (no upper bound: 1.2, 2, 5, 20, 100, 10^20, uniform up to 100, log-uniform "
    "above)"))
A1_E_HUGE = Unchecked("a1 > 10^20 (Section E)", Reason.BUDGET, (
    "beyond it the certificates over a1 stop closing in their 600 boxes, so the certified claims would be sampled "
    "only (measured: docs/papers/deng2023.md)"))
A1_E3_LARGE = Unchecked("a1 > 100 (Lemma E.3)", Reason.BEYOND_PATH, (
    "its 'sufficiently large n' grows with a1: a row j0 != j3 has c_exp's first coordinate a1 f_{j0,j3}, about "
    "a1 / n, so the sign of sigma_1 decides once a1 exceeds about n sqrt(log n); measured 2026-12-07 (quick): "
    "a1 = 1e150 at the path's end n = 10^40 (d - 2 = 5e39, b = 0.7, j0 of another residue) gives Pr = 0.75 "
    "against 1 - delta = 0.9 for Part 2; a1 <= 100 is drawn"))
EXPONENTS_E = Shared("deng2023/exponents-e", (
    "u_exp = n^e compared as log u_exp = e log n to relative 1e-9 (bounds that are attained, e.g. u_exp = n^{c^2} "
    "at the lower end of [n^{c^2}, n^{b^2+c^2}], are equalities)"))
COUNTS_E = Shared("deng2023/counts-e", (
    "'There t-1 indices equal/<= X' read as 'at least t-1 indices' (the most lenient reading); an integer count "
    ">= need is checked as count - need + 1/2 > 0"))
ORBITS_E = Shared("deng2023/orbits-e", (
    "evaluated on the row orbits (SelfAttentionCase.orbits): with (d-2) | n the dataset is invariant under "
    "permuting the identity columns and the rows within a residue, so <c_exp(j0), sigma> depends on sigma only "
    "through sigma_1, sigma_d, the signs at j3's and j0's residue columns and the sum of the other d - 4 (exact "
    "group sums of Rademacher signs); any position of j3 is equivalent (tested)"))
SCALED_E = Shared("deng2023/scaled-path-e", (
    "scaling path N -> n = (d-2) t <= N with d - 2 = N // t, t = max(2, round(N^(1-gamma))), gamma drawn in "
    "(2 b^2 + 0.02, 1]: a realisation of d = omega(n^{2b^2+0.02}), t sqrt(d) = o(n^{1-b^2-0.01}) (Lemma E.3) and "
    "d in [omega(n^{2b^2+0.02}), n] (Theorem E.4); a1 and b fixed while n grows"))

# ---- Appendices A and C (general matrices) -------------------------------------------------------------------------

GENERAL = Shared("deng2023/general-inputs", (
    "general signed matrices: n in [1, 5], d in [1, 4] (n = 1, d = 1 included), A1, A2, A3 entries in [-2, 2], Q, "
    "K in [-1, 1], V in [-1, 1]; so |A1 Q K^T A2^T| <= 4 d^3 = 256 and exp stays finite"))
VEC = Shared("deng2023/vec", (
    "vec is row-major (vec(M)[i cols + j] = M[i, j]) and A1 (x) A2 is the paper's Kronecker product (numpy.kron); "
    "with the column-major vec the tensor trick reads vec(A2 X A1^T) instead and fails"))
TENSOR = Shared("deng2023/tensor-form", "block j0 of A = A1 (x) A2 is rows j0 n .. j0 n + n - 1 (Definitions C.1, "
                                        "C.4); x = vec(QK^T)")
GENERAL_CHECK = Shared("deng2023/general-identity-check", (
    "|lhs - rhs| <= 1e-9 (max(|lhs|, |rhs|) + magnitude of the summed terms) + 2^-1022; float64 is exact to "
    "~1e-13 of it (numpy-only model: float64 only; a case within the float64 margin would be an ERROR, none occurs)"))

# ---- Appendix F (cross-attention, Definition F.1) ------------------------------------------------------------------

DEFINITION_F1 = Shared("deng2023/definition-f1", (
    "Definition F.1 as read by attncheck/data/attention.py: columns 2..d of A1 are log n and of A2 = A3 the "
    "stacked I_{d-1} ('second to d-1 columns' contradicts I_{d-1} and n = (d-1)t); A1 has a log n at row j2 of "
    "column 1, A2 has e_{j3} as column 1"))
EVALUATION_F = Shared("deng2023/evaluation-f", (
    "x = vec(QK^T) = vec(I_d), V = I_d; exact reduced evaluation (attncheck/models/class_attention/"
    "definition_f1.py: 2 query x 3 key classes x 3 column groups, n and d only as counts)"))
INDICES_F = Shared("deng2023/special-indices-f", (
    "j2, j3 anywhere in [n]: equal or distinct, first or last row, any residue of j3 mod (d-1); every row j0, key "
    "j1 and column i0 of the stated case is checked"))
A0_F = Shared("deng2023/a0-f", (
    "a0 drawn in [1e-200, 0.1 - 1.4e-17] (the float64 below 0.1), log-uniform and uniform: the open interval "
    "(0, 0.1) approached from both ends"))
A0_F_ENDS = Unchecked("a0 in (0, 1e-200) and a0 in (0.1 - 1.4e-17, 0.1)", Reason.FLOAT_RANGE, (
    "no float64 lies in (0.1 - 1.4e-17, 0.1); below 1e-200 the tight bounds' relative slack, ~ a0 log n / n, "
    "leaves 240-digit arithmetic (docs/papers/deng2023.md)"))
A1_F = Shared("deng2023/a1-f", (
    "a1 drawn in [1 + 2^-52, 10^300] (the float64 after 1; 1 + 1e-12, 2, 20, 1000, 10^300 included; a1 - 1 "
    "log-uniform over the range, a1 uniform on [1, 20]); a1 > 1 is unbounded above"))
A1_F_LARGE = Unchecked("a1 > 10^300", Reason.FLOAT_RANGE, (
    "the scores a1 log n overflow float64 from a1 ~ 5e306 (log n <= 35 on the path); 10^300 keeps a margin"))
A1_F_NEAR_1 = Unchecked("a1 in (1, 1 + 2^-52)", Reason.FLOAT_RANGE, (
    "no float64 lies there (the dataset's a1 is a float64); 1 + 2^-52, the next float64 after 1, is drawn"))
SIZES_F = Shared("deng2023/sizes-f", (
    "n = (d-1)t with d-1 any divisor of n, d = 2 and t = 1 (d = n+1) included; no asymptotic hypothesis, so the "
    "claim must hold at every n of the path"))
GROWTH_F = Shared("deng2023/growth-f", (
    "d = omega(n^0.02) and t sqrt(d) = o(n^0.99) (omega(n^{2 a0 + 0.02}) for D0 with F_exp) admit every growth law "
    "d = n^beta, beta in (0.02, 1]: the path runs over (beta, n), d - 1 the divisor of n nearest n^beta (d <= n), "
    "each beta judged along n on its own by the 'sufficiently large n' rule (quick: beta in {0.1, 0.25, 1}, n = "
    "10^2 .. 10^18)"))
BETA_F_SMALL = Unchecked("beta in (0.02, 0.1) (growth laws d = n^beta)", Reason.FLOAT_RANGE, (
    "the reduced evaluator counts rows in int64, so n <= 10^18, where n^beta <= 63: the claims' regime for these "
    "beta lies beyond 10^18"))
SIGMA_F = Shared("deng2023/sigma-f", "sigma uniform on {-1,+1}^d, drawn as exact group sums over column 1, the "
                                     "column of j3 and the other d-2 columns")
ROWS_F = Shared("deng2023/sign-rows-f", "j0 is drawn among the rows of the stated case (j2, j3, their neighbours, "
                                        "first, last), one probability per row")
NETWORK_F = Shared("deng2023/network-f", (
    "F = phi(sum_{j0} sum_l phi_tau(<c(A,x)_{j0}, y_l>)) with the index j0, missing in print, restored; F = 0 iff "
    "max_{j0,l} <c_{j0}, y_l> <= tau, F > 0 iff it exceeds tau (phi_tau >= 0, every row class has count >= 1)"))
Y_F = Shared("deng2023/y-f", (
    "y in {-1,+1}^{d x m} i.i.d. Rademacher (Definition 3.7; Definition C.2 has y in R^{d x m}, Definition C.6's "
    "R^{n x m} cannot pair with c_{j0} in R^d), drawn as exact group sums"))
LOG_SPACE = Shared("deng2023/log-space", "u_exp and f_exp are compared in log space")


def structured(items: dict) -> Reading:
    """A claim's :class:`Reading` from its readings by topic: a str value is a note of the claim's own; a
    :class:`Shared` reading, or a tuple of Shared readings and the :class:`Unchecked` parts they leave, is
    referenced. A later key overrides an earlier one as in any dict, so a claim replaces a shared reading by a note
    of its own under the same key."""
    notes, shared, unchecked = {}, [], []
    for key, value in items.items():
        if isinstance(value, str):
            notes[key] = value
            continue
        for x in value if isinstance(value, tuple) else (value,):
            out = shared if isinstance(x, Shared) else unchecked
            if x not in out:
                out.append(x)
    return Reading(shared=tuple(shared), unchecked=tuple(unchecked), notes=notes)
