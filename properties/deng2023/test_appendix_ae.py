"""deng2023 Appendices A, C and E: the tensor trick (Fact A.1), the equivalence formulas
(Claims C.3, C.5) and the well-formedness of Definitions C.1-C.6 on general matrices;
Lemmas E.1-E.3 and Theorem E.4 (QK^T = I_d) on the D1 datasets of Definition D.1.
Each claim part as printed; errata where a stated part is refuted and an evident
correction holds.

Shared reading of Section E (in each claim's reading; the shared ones in attncheck/papers/deng2023/readings.py): the hypotheses of
Lemma E.1 (a1 >= 1, b^2 + c^2 = 1, QK^T = I_d) hold for the whole section; Definition D.1's
b, c >= 0.1 are kept (the lemmas cite D.1; keeping them is the more lenient reading), except
in Theorem E.4, which states its own range b in (0, 0.2). V = I_d and A1 = A2 = A3
(Definition D.1); natural logarithm; indices are 0-based in the code (i0 = 1 of the paper is
column 0, i0 = d is column d - 1).

Numerics: the Section E quantities are evaluated per row class (``SelfAttentionCase.classes``:
the compressed dataset, j3 anywhere, d <= 42) or per row orbit (``SelfAttentionCase.orbits``:
any n and d), from the exact parameters through the backend ``xp``, so cases within the
float64 margin are re-evaluated in mpmath. Exponents such as n^{(1+a1)^2} are compared in
log space. The general-matrix claims call the numpy-only dense model and are float64 only.
"""
import math

import numpy as np

from attncheck import Erratum, Reading, Reason, Slack, Unchecked, claim, close, ge, le
from attncheck.numeric import enclosure
from attncheck.papers.deng2023.certification import EXACT_LAW, INDEX_COUNTS, MANY_ENTRIES, THRESHOLD
from attncheck.papers.deng2023.certification import section_e as section_e_cases
from attncheck.papers.deng2023.models import attention as dense
from attncheck.papers.deng2023.models.attention import general_matrix_scores as _matrix_scores
from attncheck.papers.deng2023.models.attention import general_tensor_form as _tensor
from attncheck.papers.deng2023.models.class_attention.section_e import c_exp, log_f_exp, log_u_exp
from attncheck.papers.deng2023.models.section_e_law import pass_probability
from attncheck.papers.deng2023.models.section_e_signs import STREAM
from attncheck.papers.deng2023.models.section_e_signs import columns as _columns
from attncheck.papers.deng2023.models.section_e_signs import inner as _inner
from attncheck.papers.deng2023.models.section_e_signs import log_n as _log_n
from attncheck.papers.deng2023.models.section_e_signs import network_sizes as _network_sizes
from attncheck.papers.deng2023.models.section_e_signs import signs as _signs
from attncheck.papers.deng2023.models.section_e_signs import sqrt_log_n as _sqrt_log_n
from attncheck.papers.deng2023.models.section_e_signs import tau as _tau
from attncheck.papers.deng2023.readings import (
    A1_E3_LARGE,
    A1_E_HUGE,
    C_LARGE,
    COUNTS_E,
    DELTA,
    DELTA_SMALL,
    EVENTUALLY,
    EXPONENTS_E,
    GENERAL,
    GENERAL_CHECK,
    LOG,
    ORBITS_E,
    POLY,
    SCALED_E,
    SECTION_E,
    SIZES_E,
    TENSOR,
    VEC,
)
from attncheck.papers.deng2023.strategies.attention import (
    A_MAX,
    FIRST,
    a_values,
    attention_inputs,
    scaled_case,
    self_attention_case,
)

RTOL = 1e-9
"""Identities and attained bounds: relative tolerance on the compared values (exponents in log
space); float64 computes them to ~1e-15 relative."""

TINY = np.finfo(float).tiny
"""Absolute floor of the general identities' tolerance, so that 0 = 0 is decided in float64."""

QK_IDENTITY = "QK^T = I_d (Section E's preamble, Lemma E.1, Theorem E.4)"
A1_DRAWN = "a1 drawn in [1, 100] (the ends, 1.2, 2, 5, 20 and between)"
SECTION_E_READINGS = (SECTION_E, SIZES_E, EXPONENTS_E, LOG)

SIZES = {"quick": [10, 10**2, 10**4, 10**6, 10**9, 10**12],
         "deep": [10, 10**2, 10**3, 10**4, 10**6, 10**9, 10**12, 10**15]}
SCALED = {"quick": [10, 10**2, 10**4, 10**6, 10**8, 10**10, 10**12],
          "deep": [10, 10**2, 10**3, 10**4, 10**6, 10**8, 10**10, 10**12, 10**15, 10**18]}


def _x(case, model):
    return case.x_matrix(model.queries.shape[1])


def _within(value, lo, hi, xp):
    """lo <= value <= hi, attained ends allowed to relative RTOL."""
    v = xp.asarray(value).ravel()
    low, high = v - lo + RTOL * abs(lo), hi + RTOL * abs(hi) - v
    return Slack(np.concatenate([low, high]), np.concatenate([xp.abs(v) + abs(lo), xp.abs(v) + abs(hi)]))


def _at_least(count, need, xp):
    """An integer count >= need (slack count - need + 1/2)."""
    return Slack(xp.asarray(np.asarray(count, float) - need + 0.5), xp.asarray(np.ones(np.shape(count))))


def _count(values, counts, keep):
    """Number of dataset indices whose class value satisfies keep (per row of values)."""
    mask = np.vectorize(bool, otypes=[bool])(keep(values))
    return mask.astype(float) @ np.asarray(counts, float)


def _equal(target):
    return lambda v: abs(v - target) <= RTOL * abs(target)


def _f64_only(xp):
    if not xp.native:
        raise NotImplementedError("the dense model is numpy-only: this case is within the float64 margin and "
                                  "cannot be re-evaluated in mpmath")


# ---- Fact A.1, Claims C.3, C.5: tensor form vs matrix form on general matrices -------------------



def _reading(shared, extra):
    """The claim's Reading: ``shared`` readings, and ``extra`` notes ("inputs" replaces the shared GENERAL; the
    value of "domain" may be a (note, unchecked parts) pair)."""
    notes, unchecked = dict(extra or {}), ()
    if isinstance(notes.get("domain"), tuple):
        notes["domain"], unchecked = notes["domain"]
    if "inputs" in notes:
        shared = tuple(x for x in shared if x is not GENERAL)
    return Reading(shared=shared, unchecked=unchecked, notes=notes)


def _general_claim(cid, statement, source, compare, domain=None, extra=None):
    """An identity lhs = rhs on general inputs; compare(case) -> (lhs, rhs, magnitude of the terms)."""

    @claim(cid, kind="identity", source=source, statement=statement,
           domain=attention_inputs(2.0, 1.0) if domain is None else domain,
           reading=_reading((GENERAL, VEC, TENSOR, GENERAL_CHECK), extra), certify=MANY_ENTRIES)
    def identity(case, xp):
        _f64_only(xp)
        lhs, rhs, mag = compare(case)
        return close(lhs, rhs, RTOL, RTOL * mag + TINY)

    return identity


def _fact_a1(case):
    A, x = _tensor(case)
    return dense.vec(np.exp(_matrix_scores(case)[0])), np.exp(A @ x), 0.0


fact_a_1 = _general_claim(
    "deng2023/fact-a.1/main",
    r"A_1, A_2 \in \mathbb{R}^{n \times d}, Q, K \in \mathbb{R}^{d \times d}: "
    r"\mathrm{vec}(\exp(A_1 Q K^\top A_2^\top)) = \exp(\mathsf{A}\, \mathrm{vec}(Q K^\top)), "
    r"\mathsf{A} = A_1 \otimes A_2",
    "deng2023 Appendix A, Fact A.1 (tensor trick)", _fact_a1)


def _c3_u(case):
    S, mag = _matrix_scores(case)
    return dense.u_lin(*_tensor(case)), S, mag


def _c3_alpha(case):
    S, mag = _matrix_scores(case)
    return dense.alpha_lin(*_tensor(case)), S.sum(axis=1), mag.sum(axis=1)


def _c5_u(case):
    S, _ = _matrix_scores(case)
    return dense.u_exp(*_tensor(case)), np.exp(S), 0.0


def _c5_alpha(case):
    S, _ = _matrix_scores(case)
    return dense.alpha_exp(*_tensor(case)), np.exp(S).sum(axis=1), 0.0


claim_c_3_u = _general_claim(
    "deng2023/claim-c.3/u-lin",
    r"u_{\mathrm{lin}}(\mathsf{A}, x)_{j_0} = ((A_1)_{j_0,*} Q K^\top A_2^\top)^\top",
    "deng2023 Appendix C.1, Claim C.3 (bullet 1)", _c3_u)
claim_c_3_alpha = _general_claim(
    "deng2023/claim-c.3/alpha-lin",
    r"\alpha_{\mathrm{lin}}(\mathsf{A}, x)_{j_0} = \langle ((A_1)_{j_0,*} Q K^\top A_2^\top)^\top, \mathbf{1}_n \rangle",
    "deng2023 Appendix C.1, Claim C.3 (bullet 2)", _c3_alpha)
claim_c_5_u = _general_claim(
    "deng2023/claim-c.5/u-exp",
    r"u_{\mathrm{exp}}(\mathsf{A}, x)_{j_0} = (\exp((A_1)_{j_0,*} Q K^\top A_2^\top))^\top",
    "deng2023 Appendix C.2, Claim C.5 (bullet 1)", _c5_u)
claim_c_5_alpha = _general_claim(
    "deng2023/claim-c.5/alpha-exp",
    r"\alpha_{\mathrm{exp}}(\mathsf{A}, x)_{j_0} = \langle (\exp((A_1)_{j_0,*} Q K^\top A_2)^\top)^\top, \mathbf{1}_n \rangle",
    "deng2023 Appendix C.2, Claim C.5 (bullet 2)", _c5_alpha,
    extra={"A2": "the bullet prints A_2 where bullet 1 has A_2^T; (1 x d)(d x d)(n x d) is undefined unless "
                 "n = d, so A_2 is read as A_2^T (dimension mismatch)"})


# ---- Definitions C.1-C.6: well-formedness ---------------------------------------------------------

WELL_CONDITIONED = ("f_lin = u_lin / alpha_lin is defined iff alpha_lin != 0", (
    Unchecked("rows with |alpha_lin| < 10^-3 sum_{i,k,l} |(A1)_{j0,k} (QK^T)_{k,l} (A2)_{i,l}| (the magnitude of the "
              "terms summed into alpha_lin), alpha_lin = 0 included", Reason.FLOAT_RANGE,
              "float64 cannot resolve f_lin to 1e-9 there (the numpy-only model has no mpmath route); at "
              "alpha_lin = 0 f_lin is undefined"),
    Unchecked("rows whose terms sum to less than 1e-250 in magnitude", Reason.FLOAT_RANGE,
              "float64 underflows inside the products")))


def _alpha_lin_away_from_zero(case):
    """|alpha_lin_{j0}| >= 10^-3 x the magnitude of its terms, for every row j0 (WELL_CONDITIONED)."""
    S, magnitude = _matrix_scores(case)
    terms = magnitude.sum(axis=1)
    return bool(np.all(terms >= 1e-250) and np.all(np.abs(S.sum(axis=1)) >= 1e-3 * terms))


LIN_INPUTS = attention_inputs(2.0, 1.0).filter(_alpha_lin_away_from_zero)
LARGE_INPUTS = attention_inputs(10.0, 2.0)
LARGE = ("A1, A2, A3 entries in [-10, 10], Q, K in [-2, 2]: scores up to 25600, where exp overflows; f_exp and "
         "c_exp are evaluated in log domain")


def _c1_normalized(case):
    f = dense.f_lin(*_tensor(case))
    return f.sum(axis=1), np.ones(len(f)), np.abs(f).sum(axis=1)


def _c1_values(case):
    A, x = _tensor(case)
    f, values = dense.f_lin_matrix(case.A1, case.A2, case.X), case.A3 @ case.V
    return dense.c_lin(A, x, case.A3, case.V), f @ values, np.abs(f) @ np.abs(values)


def _c4_normalized(case):
    return dense.f_exp(*_tensor(case)).sum(axis=1), np.ones(len(case.A1)), 1.0


def _c4_values(case):
    A, x = _tensor(case)
    f, values = dense.f_exp_matrix(case.A1, case.A2, case.X), case.A3 @ case.V
    return dense.c_exp(A, x, case.A3, case.V), f @ values, np.abs(f) @ np.abs(values)


definition_c_1_normalized = _general_claim(
    "deng2023/definition-c.1/normalized", r"\langle f_{\mathrm{lin}}(\mathsf{A}, x)_{j_0}, \mathbf{1}_n \rangle = 1",
    "deng2023 Appendix C.1, Definition C.1", _c1_normalized, LIN_INPUTS, {"domain": WELL_CONDITIONED})
definition_c_1_values = _general_claim(
    "deng2023/definition-c.1/c-equals-f-a3v",
    r"c_{\mathrm{lin}}(\mathsf{A}, x)_{j_0, i_0} = \langle f_{\mathrm{lin}}(\mathsf{A}, x)_{j_0}, (A_3 V)_{i_0} \rangle, "
    r"\text{i.e. } c_{\mathrm{lin}} = f_{\mathrm{lin}} A_3 V",
    "deng2023 Appendix C.1, Definition C.1", _c1_values, LIN_INPUTS,
    {"domain": WELL_CONDITIONED, "forms": "c_lin from the tensor form (Definition C.1) against f_lin of the matrix "
                                          "form (Claim C.3) times A3 V; (A3 V)_{i0} is column i0 of A3 V"})
definition_c_4_normalized = _general_claim(
    "deng2023/definition-c.4/normalized", r"\langle f_{\mathrm{exp}}(\mathsf{A}, x)_{j_0}, \mathbf{1}_n \rangle = 1",
    "deng2023 Appendix C.2, Definition C.4", _c4_normalized, LARGE_INPUTS, {"inputs": LARGE})
definition_c_4_values = _general_claim(
    "deng2023/definition-c.4/c-equals-f-a3v",
    r"c_{\mathrm{exp}}(\mathsf{A}, x)_{j_0, i_0} = \langle f_{\mathrm{exp}}(\mathsf{A}, x)_{j_0}, (A_3 V)_{i_0} \rangle, "
    r"\text{i.e. } c_{\mathrm{exp}} = f_{\mathrm{exp}} A_3 V",
    "deng2023 Appendix C.2, Definition C.4", _c4_values, LARGE_INPUTS,
    {"inputs": LARGE, "forms": "c_exp from the tensor form (Definition C.4) against f_exp of the matrix form "
                               "(Claim C.5) times A3 V"})


def _threshold_claim(cid, F, c_matrix, domain, source, extra):
    """F(A1, A2, A3) = 0 iff <c_{j0}, y_l> <= tau for every j0, l (phi_tau >= 0, phi(s) = s for s >= 0)."""

    @claim(cid, kind="identity", source=source, domain=domain,
           statement=r"F(A_1, A_2, A_3) = \phi(\sum_{j_0} \sum_l \phi_\tau(\langle c_{j_0}, y_l \rangle)) > 0 "
                     r"\iff \max_{j_0, l} \langle c_{j_0}, y_l \rangle > \tau",
           reading=_reading((GENERAL,), dict({"y, tau": "y Rademacher in {-1, 1}^{d x m}, m <= 3; tau in [-1, 1]",
                                              "role": "the reading 'F > 0 iff some <c_{j0}, y_l> exceeds tau' used by "
                                                      "Theorem E.4's evaluator and the Section 7.2 experiments",
                                              "check": "the sign of F agrees with the sign of max <c, y> - tau "
                                                       "(slack +1 / -1)"}, **extra)), certify=THRESHOLD)
    def threshold(case, xp):
        _f64_only(xp)
        args = (case.A1, case.A2, case.A3, case.X, case.V)
        top = np.max(c_matrix(*args) @ case.y)
        return Slack(xp.asarray(1.0 if (F(*args, case.y, case.tau) > 0) == (top > case.tau) else -1.0), 1.0)

    return threshold


definition_c_2 = _threshold_claim("deng2023/definition-c.2/zero-iff-below-tau", dense.F_lin, dense.c_lin_matrix,
                                  LIN_INPUTS, "deng2023 Appendix C.1, Definition C.2", {"domain": WELL_CONDITIONED})
definition_c_6 = _threshold_claim(
    "deng2023/definition-c.6/zero-iff-below-tau", dense.F_exp, dense.c_exp_matrix, attention_inputs(2.0, 1.0),
    "deng2023 Appendix C.2, Definition C.6",
    {"y": "Definition C.6 prints y in R^{n x m}, but y_l is paired with c_exp_{j0} in R^d: y in R^{d x m} as in "
          "Definition C.2"})


# ---- Lemma E.1: u_exp and f_exp on D1 with QK^T = I_d ---------------------------------------------

def _section_e_claim(cid, statement, source, check, *, kind="inequality", X="identity", x_note=QK_IDENTITY,
                     a=a_values(1.0), a_range=(1.0, A_MAX), k_min=1, erratum=None, extra=None,  # noqa: B008
                     counts=False):
    """A deterministic Section E claim: check(case, model, xp) -> Slack, on the compressed row classes
    (certified on the row orbits with k, t relaxed, a in ``a_range``: the range ``a`` draws); ``counts``: the claim
    counts indices (COUNTS_E, certified by INDEX_COUNTS)."""

    @claim(cid, kind=kind, source=source, statement=statement, erratum=erratum, path=SIZES,
           domain=lambda N: self_attention_case(a, "sum_of_squares", X, n_max=N, k_min=k_min, k_max=None),
           reading=Reading(shared=SECTION_E_READINGS + ((COUNTS_E,) if counts else ()), unchecked=(A1_E_HUGE,),
                           notes=dict({"QK^T": x_note}, **(extra or {}))),
           certify=INDEX_COUNTS if counts else section_e_cases(X, a_range, k_min))
    def section_e(case, xp):
        return check(case, case.model(), xp)

    return section_e


def _e1_1a(exponent):
    def check(case, model, xp):
        return close(log_u_exp(model, _x(case, model), xp)[0, 0], exponent(case) * _log_n(case, xp), RTOL, xp=xp)
    return check


lemma_e_1_part_1a_corrected = _section_e_claim(
    "deng2023/lemma-e.1/part-1a-corrected",
    r"j_0 = j_1 = j_3: u_{\mathrm{exp}}(\mathsf{A}, x)_{j_0, j_1} = n^{a_1^2 + b^2 + c^2} = n^{1 + a_1^2}",
    "deng2023 Appendix E.1.1, Lemma E.1 Part 1a, corrected to its own proof (exp((a1^2 + b^2 + c^2) log n))",
    _e1_1a(lambda c: 1.0 + c.a ** 2), kind="identity")
lemma_e_1_part_1a = _section_e_claim(
    "deng2023/lemma-e.1/part-1a", r"j_0 = j_1 = j_3: u_{\mathrm{exp}}(\mathsf{A}, x)_{j_0, j_1} = n^{(1 + a_1)^2}",
    "deng2023 Appendix E.1.1, Lemma E.1 Part 1a", _e1_1a(lambda c: (1.0 + c.a) ** 2), kind="identity",
    erratum=Erratum("deng2023/lemma-e.1/part-1a-corrected",
                    "With QK^T = I_d the score of (j3, j3) is <A1_{j3}, A2_{j3}> = (a1^2 + b^2 + c^2) log n = "
                    "(1 + a1^2) log n, as the proof's own first line computes; (1 + a1)^2 is Lemma D.2 Part 1a "
                    "(QK^T = 1_{d x d}, b + c = 1). E.g. n = 2, d = 3, a1 = 1.2, b = 0.1: log u_exp = 2.44 log 2 = "
                    "1.691, the statement's (1 + a1)^2 log n = 3.355; n = 10^6, d = 12: 33.71 against 66.87; the "
                    "corrected exponent matches to 1e-15."))


def _range(rows, cols):
    """u_exp in [n^{c^2}, n^{b^2 + c^2}] on the given (query, key) classes."""
    def check(case, model, xp):
        L = _log_n(case, xp)
        return _within(log_u_exp(model, _x(case, model), xp)[rows][:, cols], case.c ** 2 * L,
                       (case.b ** 2 + case.c ** 2) * L, xp)
    return check


def _counts_equal(rows, cols, exponent, need):
    """At least need(case) indices j1 in cols with u_exp = n^{exponent(case)}, for each j0 in rows."""
    def check(case, model, xp):
        log_u = log_u_exp(model, _x(case, model), xp)[rows][:, cols]
        target = exponent(case) * _log_n(case, xp)
        return _at_least(_count(log_u, model.key_counts[cols], _equal(target)), need(case), xp)
    return check


J3, NOT_J3 = [0], slice(1, None)
ALL = slice(None)
B2C2, C2 = (lambda c: c.b ** 2 + c.c ** 2), (lambda c: c.c ** 2)
T_MINUS_1, N_MINUS_T = (lambda c: c.t - 1), (lambda c: c.n - c.t)
PART_2_COUNT = ("rows j0 != j3 have exactly t indices (the residue of j0, j0 and possibly j3 included) with "
                "u_exp = n^{b^2+c^2}; the printed t - 1 is copied from Part 1b: under the 'exactly' reading this "
                "sub-bullet fails, under the lenient 'at least' reading it holds")

lemma_e_1_part_1b = _section_e_claim(
    "deng2023/lemma-e.1/part-1b",
    r"j_0 = j_3, j_1 \ne j_3: u_{\mathrm{exp}}(\mathsf{A}, x)_{j_0, j_1} \in [n^{c^2}, n^{b^2 + c^2}]",
    "deng2023 Appendix E.1.1, Lemma E.1 Part 1b", _range(J3, NOT_J3))
lemma_e_1_part_1b_t = _section_e_claim(
    "deng2023/lemma-e.1/part-1b-t-1-indices",
    r"j_0 = j_3: \text{there are } t - 1 \text{ indices } j_1 \ne j_3 \text{ with } "
    r"u_{\mathrm{exp}}(\mathsf{A}, x)_{j_0, j_1} = n^{b^2 + c^2}",
    "deng2023 Appendix E.1.1, Lemma E.1 Part 1b (first sub-bullet)", _counts_equal(J3, NOT_J3, B2C2, T_MINUS_1),
    counts=True)
lemma_e_1_part_1b_nt = _section_e_claim(
    "deng2023/lemma-e.1/part-1b-n-t-indices",
    r"j_0 = j_3: \text{there are } n - t \text{ indices } j_1 \ne j_3 \text{ with } "
    r"u_{\mathrm{exp}}(\mathsf{A}, x)_{j_0, j_1} = n^{c^2}",
    "deng2023 Appendix E.1.1, Lemma E.1 Part 1b (second sub-bullet)", _counts_equal(J3, NOT_J3, C2, N_MINUS_T),
    counts=True)
lemma_e_1_part_2 = _section_e_claim(
    "deng2023/lemma-e.1/part-2",
    r"j_0 \ne j_3, \forall j_1 \in [n]: u_{\mathrm{exp}}(\mathsf{A}, x)_{j_0, j_1} \in [n^{c^2}, n^{b^2 + c^2}]",
    "deng2023 Appendix E.1.1, Lemma E.1 Part 2", _range(NOT_J3, ALL))
lemma_e_1_part_2_t = _section_e_claim(
    "deng2023/lemma-e.1/part-2-t-1-indices",
    r"j_0 \ne j_3: \text{there are } t - 1 \text{ indices } j_1 \text{ with } "
    r"u_{\mathrm{exp}}(\mathsf{A}, x)_{j_0, j_1} = n^{b^2 + c^2}",
    "deng2023 Appendix E.1.1, Lemma E.1 Part 2 (first sub-bullet)", _counts_equal(NOT_J3, ALL, B2C2, T_MINUS_1),
    counts=True, extra={"exact count": PART_2_COUNT})
lemma_e_1_part_2_nt = _section_e_claim(
    "deng2023/lemma-e.1/part-2-n-t-indices",
    r"j_0 \ne j_3: \text{there are } n - t \text{ indices } j_1 \text{ with } "
    r"u_{\mathrm{exp}}(\mathsf{A}, x)_{j_0, j_1} = n^{c^2}",
    "deng2023 Appendix E.1.1, Lemma E.1 Part 2 (second sub-bullet)", _counts_equal(NOT_J3, ALL, C2, N_MINUS_T),
    counts=True)


def _e1_3a(case, model, xp):
    return ge(log_f_exp(model, _x(case, model), xp)[0, 0], xp.log(xp.asarray(0.5)), xp)


def _e1_3b(case, model, xp):
    return le(log_f_exp(model, _x(case, model), xp)[0, 1:], -(1.0 - case.b ** 2) * _log_n(case, xp), xp)


lemma_e_1_part_3a = _section_e_claim(
    "deng2023/lemma-e.1/part-3a",
    r"j_0 = j_1 = j_3: f_{\mathrm{exp}}(\mathsf{A}, x)_{j_0, j_1} \ge 1/2 \text{ (if } a_1 > 1)",
    "deng2023 Appendix E.1.1, Lemma E.1 Part 3a", _e1_3a, a=a_values(1.0, exclude_lo=True),
    a_range=(math.nextafter(1.0, 2.0), A_MAX),
    extra={"a1": "a1 in (1, 100] (the part's own condition a1 > 1), values just above 1 included; for d = 3 the "
                 "slack is ~1/(2n) in log f_exp: near-ties are decided in mpmath"})
lemma_e_1_part_3b = _section_e_claim(
    "deng2023/lemma-e.1/part-3b",
    r"j_0 = j_3, j_1 \ne j_3: f_{\mathrm{exp}}(\mathsf{A}, x)_{j_0, j_1} \le 1/n^{1 - b^2}",
    "deng2023 Appendix E.1.1, Lemma E.1 Part 3b", _e1_3b)


def _counts_below(log_of, exponent, need):
    """For each j0 != j3: at least need(case) indices j1 with log_of(...) <= exponent(case) log n."""
    def check(case, model, xp):
        values = log_of(model, _x(case, model), xp)[NOT_J3]
        bound = exponent(case) * _log_n(case, xp)
        return _at_least(_count(values, model.key_counts, lambda v: v <= bound), need(case), xp)
    return check


PART_4 = ("Part 4 states the two bounds for u_exp(A, x)_{j0, j1}; its proof (Parts 4a, 4b) and its use in Lemma "
          "E.2 Part 5 are about f_exp")


def _part_4_statement(u, count_tex, bound_tex):
    return (rf"j_0 \ne j_3: \text{{there are {count_tex} indices }} j_1 \text{{ with }} "
            rf"{u}(\mathsf{{A}}, x)_{{j_0, j_1}} \le {bound_tex}")


def _part_4_claims(suffix, exponent, need, bound_tex, count_tex, sub_bullet, example):
    """Part 4 as printed (u_exp) with its erratum, and corrected to f_exp."""
    corrected = _section_e_claim(
        f"deng2023/lemma-e.1/part-4-{suffix}-corrected", _part_4_statement(r"f_{\mathrm{exp}}", count_tex, bound_tex),
        f"deng2023 Appendix E.1.1, Lemma E.1 Part 4 ({sub_bullet}), corrected to f_exp as in its proof",
        _counts_below(log_f_exp, exponent, need), counts=True, extra={"part 4": PART_4})
    stated = _section_e_claim(
        f"deng2023/lemma-e.1/part-4-{suffix}", _part_4_statement(r"u_{\mathrm{exp}}", count_tex, bound_tex),
        f"deng2023 Appendix E.1.1, Lemma E.1 Part 4 ({sub_bullet})", _counts_below(log_u_exp, exponent, need),
        counts=True, extra={"part 4": PART_4},
        erratum=Erratum(corrected.id,
                        "Part 4 bounds u_exp(A, x)_{j0,j1}, but u_exp >= n^{c^2} >= 1 > " + bound_tex
                        + f" for every j1, so no index qualifies once {count_tex} >= 1; e.g. {example}. Its proof "
                        "(Parts 4a, 4b) bounds f_exp, and for f_exp the bounds hold: f_exp = n / (t n + (n - t) "
                        "n^{c^2}) <= 1/n^{1-b^2} on the t indices of j0's residue and n^{c^2} / (t n + (n - t) "
                        "n^{c^2}) <= 1/n on the other n - t."))
    return stated, corrected


lemma_e_1_part_4_t, lemma_e_1_part_4_t_corrected = _part_4_claims(
    "t-1-indices", lambda c: -(1.0 - c.b ** 2), T_MINUS_1, "1/n^{1 - b^2}", "t - 1", "first sub-bullet",
    "n = 2, d = 3 (t = 2), a1 = 1.2, b = 0.1: u_exp >= 2^{0.99} at every j1, the bound is 2^{-0.99}")
lemma_e_1_part_4_nt, lemma_e_1_part_4_nt_corrected = _part_4_claims(
    "n-t-indices", lambda c: -1.0, N_MINUS_T, "1/n", "n - t", "second sub-bullet",
    "n = 2, d = 4 (n - t = 1), a1 = 1.2, b = 0.1: u_exp >= 2^{0.99} at every j1, the bound is 1/2")


# ---- Lemma E.2: c_exp on D1 ------------------------------------------------------------------------

E2_X = ("QK^T = 1_{d x d} as printed in Lemma E.2 (copied from Lemma D.3; Section E's preamble sets QK^T = I_d). "
        "The refuted parts fail for b + c = 1 (Definition D.1 literally) as well as for b^2 + c^2 = 1")
E2_CORRECTED_X = ("QK^T = I_d, the choice of Section E (Lemma E.1, Theorem E.4), as the proof's citations of "
                  "Lemma E.1 need")


def _c(case, model, xp):
    return c_exp(model, _x(case, model), xp)


def _e2_1(case, model, xp):
    return ge(_c(case, model, xp)[0, FIRST], 0.5 * case.a * _sqrt_log_n(case, xp), xp)


def _e2_2_one(case, model, xp):
    return ge(_c(case, model, xp)[0, model.r3], 0.5 * case.b * _sqrt_log_n(case, xp), xp)


def _other_identity_columns(model):
    return model.identity[model.identity != model.r3]


def _sparse_bound(case, xp, coefficient):
    """t / n^{1 - b^2} * coefficient * sqrt(log n)."""
    return case.t * xp.exp(-(1.0 - case.b ** 2) * _log_n(case, xp)) * coefficient * _sqrt_log_n(case, xp)


def _e2_2_rest(case, model, xp):
    return le(_c(case, model, xp)[0, _other_identity_columns(model)], _sparse_bound(case, xp, case.b), xp)


def _e2_last(rows):
    def check(case, model, xp):
        return close(_c(case, model, xp)[rows, -1], case.c * _sqrt_log_n(case, xp), RTOL, xp=xp)
    return check


def _e2_4(case, model, xp):
    bound = xp.exp(-(1.0 - case.b ** 2) * _log_n(case, xp)) * case.a * _sqrt_log_n(case, xp)
    return le(_c(case, model, xp)[NOT_J3, FIRST], bound, xp)


def _e2_5(case, model, xp):
    return le(_c(case, model, xp)[NOT_J3][:, model.identity].ravel(), _sparse_bound(case, xp, case.b), xp)


def _e2_claim(part, statement, check, where, *, X="ones", x_note=E2_X, extra=None, **kw):
    return _section_e_claim(f"deng2023/lemma-e.2/{part}", statement, f"deng2023 Appendix E.1.2, Lemma E.2 {where}",
                            check, X=X, x_note=x_note, extra=extra, **kw)


def _e2_erratum_pair(part, statement, check, where, finding):
    corrected = _e2_claim(f"{part}-corrected", statement.replace(r"\mathbf{1}_{d \times d}", "I_d"), check,
                          f"{where}, corrected to QK^T = I_d", X="identity", x_note=E2_CORRECTED_X)
    stated = _e2_claim(part, statement, check, where, erratum=Erratum(corrected.id, finding))
    return stated, corrected


lemma_e_2_part_1 = _e2_claim(
    "part-1",
    r"QK^\top = \mathbf{1}_{d \times d}, V = I_d: c_{\mathrm{exp}}(\mathsf{A}, x)_{j_3, 1} \ge \frac{1}{2} a_1 \sqrt{\log n}",
    _e2_1, "Part 1")
lemma_e_2_part_2_one = _e2_claim(
    "part-2-one",
    r"QK^\top = \mathbf{1}_{d \times d}, V = I_d: \text{for one } i_0 \in \{2, \dots, d-1\}: "
    r"c_{\mathrm{exp}}(\mathsf{A}, x)_{j_3, i_0} \ge \frac{1}{2} b \sqrt{\log n}",
    _e2_2_one, "Part 2 (first sub-bullet)",
    extra={"the one i0": "the column of j3's residue (the proof: '(A3 V)_{i0}'s j3 coordinate is 1'); 'only one' "
                         "read as 'at least one' (lenient)"})
lemma_e_2_part_2_rest = _e2_claim(
    "part-2-rest",
    r"QK^\top = \mathbf{1}_{d \times d}, V = I_d: \text{for the rest of } i_0 \in \{2, \dots, d-1\}: "
    r"c_{\mathrm{exp}}(\mathsf{A}, x)_{j_3, i_0} \le \frac{t}{n^{1 - b^2}} b \sqrt{\log n}",
    _e2_2_rest, "Part 2 (second sub-bullet)", k_min=2,
    extra={"the rest": "the identity columns other than j3's residue; d >= 4 (for d = 3 there is no other i0)"})
lemma_e_2_part_3 = _e2_claim(
    "part-3", r"QK^\top = \mathbf{1}_{d \times d}, V = I_d: c_{\mathrm{exp}}(\mathsf{A}, x)_{j_3, d} = c \sqrt{\log n}",
    _e2_last(J3), "Part 3", kind="identity")
lemma_e_2_part_6 = _e2_claim(
    "part-6",
    r"QK^\top = \mathbf{1}_{d \times d}, V = I_d, j_0 \ne j_3: c_{\mathrm{exp}}(\mathsf{A}, x)_{j_0, d} = c \sqrt{\log n}",
    _e2_last(NOT_J3), "Part 6", kind="identity")
lemma_e_2_part_4, lemma_e_2_part_4_corrected = _e2_erratum_pair(
    "part-4",
    r"QK^\top = \mathbf{1}_{d \times d}, V = I_d, j_0 \ne j_3: "
    r"c_{\mathrm{exp}}(\mathsf{A}, x)_{j_0, 1} \le \frac{1}{n^{1 - b^2}} a_1 \sqrt{\log n}",
    _e2_4, "Part 4",
    "With QK^T = 1_{d x d} the score of (j0, j3) exceeds that of (j0, j1 != j3) by (b + c) a1 log n, so "
    "f_exp(j0, j3) = n^{(b+c) a1} / (n^{(b+c) a1} + n - 1) >= 1/2 for a1 >= 1 and c_exp(j0, 1) = f_exp(j0, j3) a1 "
    "sqrt(log n) is not O(n^{-(1-b^2)}); e.g. n = 2, d = 3, a1 = 1.2, b = 0.1: c_exp(j0, 1) = 0.712 against the "
    "bound 0.503; n = 10^6, d = 12: 4.40 against 5.1e-6 (with Definition D.1's b + c = 1, b = 0.2: 4.20 against "
    "7.8e-6). The proof cites Lemma E.1 (QK^T = I_d), under which f_exp(j0, j3) <= n^{b^2 - 1} and the part holds "
    "(n = 10^6, d = 12: 5.05e-6 <= 5.12e-6).")
lemma_e_2_part_5, lemma_e_2_part_5_corrected = _e2_erratum_pair(
    "part-5",
    r"QK^\top = \mathbf{1}_{d \times d}, V = I_d, j_0 \ne j_3, i_0 \in \{2, \dots, d-1\}: "
    r"c_{\mathrm{exp}}(\mathsf{A}, x)_{j_0, i_0} \le \frac{t}{n^{1 - b^2}} b \sqrt{\log n}",
    _e2_5, "Part 5",
    "With QK^T = 1_{d x d} row j0 != j3 puts weight f_exp(j0, j3) >= 1/2 (a1 >= 1) on j3, so the column of j3's "
    "residue gets c_exp >= b sqrt(log n) / 2, above t b sqrt(log n) / n^{1-b^2} = b sqrt(log n) n^{b^2} / (d - 2) as "
    "soon as d - 2 > 2 n^{b^2}; e.g. n = 2, d = 4, a1 = 1.2, b = 0.1: 0.0594 against 0.0419; n = 10^6, d = 12: "
    "0.367 against 0.0427 (b + c = 1, b = 0.2: 0.704 against 0.129). The proof's bound f_exp(j0, j1) <= "
    "1/n^{1-b^2} is Lemma E.1 Part 4 (QK^T = I_d), under which the part holds (n = 10^6, d = 12: 0.0421).")


# ---- Lemma E.3 and Theorem E.4: random signs on the row orbits -------------------------------------

TAU = "tau = (c + 0.1) sqrt(log n), the threshold of Lemma E.3 (and Theorem E.4)"


E3_SHARED = (SECTION_E, ORBITS_E, SCALED_E, LOG, EVENTUALLY)
E3_COMMON = {"QK^T": QK_IDENTITY, "tau": TAU,
             "n": "'t sqrt(d) = o(...)' makes the part asymptotic",
             "a1": "a1 >= 1 (Lemma E.1): the lemma cites Definition D.1, whose a1 >= 0.7 admits a1 in [0.7, 1), "
                   "where f_exp(j3, j3) -> 0 and Part 1 fails for large n (measured: docs/papers/deng2023.md); "
                   "Section E's a1 >= 1 is the admissible (lenient) reading; " + A1_DRAWN,
             "b": "b in (0.1, 0.7): Definition D.1's b >= 0.1, and 2 b^2 + 0.02 < 1 for d <= n"}
E3_A = a_values(1.0, 100.0)
E3_B = (0.1, 0.7)
E3_DELTA_SMALL = Unchecked("delta in (0, 10^-3)", Reason.NOT_DRAWN,
                           "the exact law needs no draws, but a smaller delta holds only from a larger n (the failure "
                           "rate at the domain's corner is 2^-(d-1)): delta = 10^-12 from about n = 10^40, this path's "
                           "end; the strategy draws delta >= 10^-3 as for the other parts")
E3_EXACT_PATH = {profile: sorted(set(points) | {10**18, 10**24, 10**30, 10**40}) for profile, points in SCALED.items()}
"""Lemma E.3 Part 2 by its exact law: SCALED and beyond int64, where the failure rate falls below 10^-3
(docs/papers/deng2023.md, Investigations)."""


@claim(
    "deng2023/lemma-e.3/part-1", kind="probabilistic", source="deng2023 Appendix E.1.3, Lemma E.3 Part 1",
    statement=r"j_0 = j_3: \Pr_\sigma[\langle c_{\mathrm{exp}}(\mathsf{A}, x)_{j_0}, \sigma \rangle \ge (c + 0.1)\sqrt{\log n}] "
              r"\ge 1/10",
    domain=lambda N: scaled_case(N, E3_A, E3_B), sample=_signs, probability=0.1, path=SCALED, eventually=True,
    reading=Reading(shared=E3_SHARED, unchecked=(A1_E3_LARGE,), notes=dict(E3_COMMON, sigma="sigma uniform in {-1, 1}^d")),
)
def lemma_e_3_part_1(case, S, xp):
    return ge(_inner(case, S, xp), _tau(case, xp), xp)


@claim(
    "deng2023/lemma-e.3/part-2", kind="inequality", source="deng2023 Appendix E.1.3, Lemma E.3 Part 2",
    statement=r"j_0 \ne j_3: \Pr_\sigma[\langle c_{\mathrm{exp}}(\mathsf{A}, x)_{j_0}, \sigma \rangle < (c + 0.1)\sqrt{\log n}] "
              r"\ge 1 - \delta/\mathrm{poly}(n)",
    domain=lambda N: scaled_case(N, E3_A, E3_B, j0=("same-residue", "other-residue"), with_delta=True),
    path=E3_EXACT_PATH, eventually=True, cost="normal", certify=EXACT_LAW,
    reading=Reading(shared=E3_SHARED + (POLY, DELTA), unchecked=(A1_E3_LARGE, E3_DELTA_SMALL),
                    notes=dict(E3_COMMON, sigma="sigma uniform in {-1, 1}^d",
                               j0="both orbits of j0 != j3: a row of j3's residue and a row of another residue")),
)
def lemma_e_3_part_2(case, xp):
    """Pr_sigma[... < tau] + delta >= 1 from the exact law, decided where its enclosure excludes the tie."""
    return enclosure.ge(lambda prec: (pass_probability(case, prec) + case.delta, 1), xp)


@claim(
    "deng2023/theorem-e.4/main", kind="asymptotic", source="deng2023 Appendix E.1.4, Theorem E.4",
    statement=r"a_1 \ge 1, b^2 + c^2 = 1, b \in (0, 0.2), d \in [\omega(n^{2b^2 + 0.02}), n], "
              r"\tau = (c + 0.1)\sqrt{\log n}, m = O(\log(n/\delta)), QK^\top = I_d, A \in \mathcal{D}_1: "
              r"F_{\mathrm{exp}}(A_1, A_2, A_3) > 0 "
              r"\text{ w.p. } 1 - \delta/\mathrm{poly}(n)",
    domain=lambda N: scaled_case(N, a_values(1.0), (0.0, 0.2), with_delta=True),
    sample=_columns, probability=lambda c: 1.0 - c.delta, path=SCALED,
    reading=Reading(shared=(C_LARGE, POLY, DELTA, ORBITS_E, SCALED_E, LOG), unchecked=(DELTA_SMALL, A1_E_HUGE), notes={
        "m": "'m = O(log(n/delta))' with an unspecified constant: C*(n) is the (1 - delta)-quantile of "
             "m*/log(n/delta), m* the smallest number of columns of y for which F_exp > 0",
        "F_exp > 0": "F_exp = phi(sum_{j0, l} phi_tau(<c_exp(j0), y_l>)) > 0 iff some <c_exp(j0), y_l> > tau "
                     "(Definition C.6; claim definition-c.6/zero-iff-below-tau); the maximum over j0 is taken over "
                     "the three row orbits, the best row of another residue chosen exactly",
        "y": "y Rademacher in {-1, 1}^{d x m} (Definition C.6 prints n x m; y_l pairs with c_exp(j0) in R^d)",
        "b": "b in (0, 0.2) as printed, so b in (0, 0.1), which Definition D.1 (b >= 0.1) excludes, is included; "
             "with b^2 + c^2 = 1, c in (0.98, 1) (docs/papers/deng2023.md)",
        "delta": "1 - delta is the quantile level",
        "networks": f"one i.i.d. stream of {STREAM} x draws columns, cut after each firing column: successive "
                    "networks' m* are i.i.d. with the law of separate networks; too few firing columns is an ERROR",
        "setting": "Section E: b^2 + c^2 = 1 (Lemma E.1, Theorem E.4), a1 >= 1 (Lemma E.1); b in (0, 0.2) as "
                   "stated; V = I_d, A1 = A2 = A3", "QK^T": QK_IDENTITY,
        "tau": TAU, "a1": A1_DRAWN,
    }),
)
def theorem_e_4(case, S, xp):
    return _network_sizes(case, S, len(S) // STREAM) / math.log(case.n / case.delta)
