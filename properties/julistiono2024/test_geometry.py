"""julistiono2024 Appendix A.2: ell_p geometry (Definition 1, Lemmas 12-15, 26).

No lemma statement survived the extraction of the appendix; the statements checked are the
reconstructions of docs/papers/julistiono2024.md, each with its provenance tag
(CODE / DERIVED / DERIVED-UNCERTAIN / MISSING) in its reading. Scalar lemmas are
checked with p from just above 1 to 64 (larger p unchecked: float64 overflow), x = y and zeros; differences of
nearly equal powers are formed as y^a expm1(a log1p((x-y)/y)), so float64 is accurate and
ties (relative slack below 1e-11) go to mpmath.
"""
import numpy as np
from hypothesis import strategies as st

from attncheck import Provenance, Reading, Real, Slack, Space, all_of, claim, le
from attncheck.core.declarations import OwnSpace
from attncheck.papers.julistiono2024 import certification as cert
from attncheck.papers.julistiono2024 import readings as rd
from attncheck.papers.julistiono2024.models import mirror_descent as md
from attncheck.papers.julistiono2024.models import power_differences as pd
from attncheck.papers.julistiono2024.strategies.mirror_descent import (
    P_FLOAT,
    P_MAX,
    exponents,
    matrices,
    matrix_pairs,
    power_pairs,
    wide_exponents,
)

PAPER = "julistiono2024 (arXiv 2410.14581)"


# ---- Definition 1 / Section 1.3 identities ---------------------------------------------------

@claim(
    "julistiono2024/definition-1/directional-form", kind="identity", source=f"{PAPER}, Definition 1 and Section 4.1 "
    "(claims file 1.3)", cost="normal",
    statement=r"\|\bar W^{mm}\|_p=\|\bar W\|_p=1:\ D_\psi(\bar W^{mm},\bar W)=1-\langle\nabla\psi(W),\bar W^{mm}\rangle/\|W\|_p^{p-1}",
    domain=exponents(1.0, P_MAX, open_lo=True).flatmap(
        lambda p: st.tuples(st.just(p), matrix_pairs(p, 6))).map(
        lambda c: (c[0], *c[1])).filter(lambda c: np.any(c[1]) and np.any(c[2])),
    certify=cert.MATRICES,
    reading=Reading(
        provenance=Provenance("DERIVED", "the second form; the first is CODE: bregman_correlation in the authors' "
                                         "code"),
        shared=(rd.NORM,),
        unchecked=(rd.P_ABOVE_MAX_DIRECTIONAL, rd.LARGE_SHAPES),
        notes={"evaluation": "<grad psi(W), .>/||W||^(p-1) = <grad psi(W/||W||), .> (homogeneity), so tiny W do not "
                             "underflow",
               "tolerance": "1e-9 relative to the magnitude of the terms of D_psi's direct formula (about 2)",
               "p": "p in (1, 64] (exponents(1, P_MAX): the values 1.1-4, points just above 1, uniform draws)",
               "shapes": "pairs of any shape up to 6 x 6"}),
)
def directional_form(case, xp):
    p, Wmm, W = case
    lhs = md.directional_bregman(Wmm, W, p, xp)
    corr = md.directional_bregman_correlation(Wmm, W, p, xp)
    scale = md.bregman_scale(md.normalize(Wmm, p, xp), md.normalize(W, p, xp), p, xp)
    return Slack(1e-9 * scale - xp.abs(lhs - corr), scale)


# ---- Lemma 12 ---------------------------------------------------------------------------------

def _lemma_12(p_lo, p_hi, part, statement, p_open_lo=False):
    @claim(
        f"julistiono2024/lemma-12/{part}", kind="inequality", source=f"{PAPER}, Appendix A.2, Lemma 12", cost="normal",
        statement=statement,
        domain=st.tuples(wide_exponents(p_lo, p_hi) if p_hi > P_MAX else exponents(p_lo, p_hi, open_lo=p_open_lo),
                         matrices(6)),
        certify=cert.MATRICES,
        reading=Reading(
            provenance=Provenance("DERIVED", "high confidence"),
            shared=(rd.NORM, rd.P_RANGE_WIDE if p_hi > P_MAX else rd.P_RANGE),
            unchecked=(rd.P_ABOVE_FLOAT,) if p_hi == P_FLOAT else (),
            notes={"evaluation": "both sides divided by max|W_jk| (and the m-side by m^(1/2)) so the equality cases are "
                                 "exact ties: ||W||_p <= ||W||_2 and the power means (sum a^2 / m)^(1/2) <= (sum a^p / "
                                 "m)^(1/p), a = |W| / max|W| (an equivalent form of the statement)",
                   "m": "m = number of entries (d^2 for d x d); the side-length reading d^(1/2-1/p) is false for "
                        "all-ones matrices (claims file, Lemma 12 pitfall)",
                   "domain": "any shape up to 6 x 6; entries 1e-6..1e3 in magnitude with signs, zeros, one-hot and "
                             "constant matrices (the two equality cases)"}),
    )
    def lemma_12(case, xp):
        p, W = case
        a = xp.abs(xp.asarray(W))
        top = np.max(a)
        if top == 0:  # W = 0: every side is 0
            return le(0.0 * top, 0.0 * top, xp)
        a, pp, m = a / top, xp.asarray(p), float(W.size)
        sum_p, sum_2 = xp.sum(a ** pp), xp.sum(a * a)
        big, small = (sum_p / m) ** (1 / pp), (sum_2 / m) ** 0.5  # power means M_p, M_2 (M_p >= M_2 iff p >= 2)
        lp, l2 = sum_p ** (1 / pp), sum_2 ** 0.5
        if p >= 2:
            return all_of(le(lp, l2, xp), le(small, big, xp), xp=xp)
        return all_of(le(big, small, xp), le(l2, lp, xp), xp=xp)

    return lemma_12


lemma_12_ge2 = _lemma_12(2.0, P_FLOAT, "p-ge-2", r"p\ge2:\ \|W\|_p\le\|\mathrm{vec}(W)\|_2\le m^{1/2-1/p}\|W\|_p")
lemma_12_le2 = _lemma_12(1.0, 2.0, "p-le-2", r"1<p\le2:\ m^{1/2-1/p}\|W\|_p\le\|\mathrm{vec}(W)\|_2\le\|W\|_p",
                         p_open_lo=True)


# ---- Lemma 13 ---------------------------------------------------------------------------------

L13 = Provenance("DERIVED", "statement form high confidence; the paper's constants may differ: 1/(p 2^p) and (p-1)/2 "
                            "are the derived ones, below the sharp values of the claims file's table")
L13_SHARED = (rd.LEMMA_13_HYPOTHESIS, rd.NORM)


def _bregman_ge(W, V, p, rhs, xp):
    """Slack of D_psi(W, V) >= rhs, with the rounding scale of D_psi's direct formula (its terms are ~|W|^p)."""
    D, r = md.bregman(W, V, p, xp), rhs(W, V, p, xp)
    return Slack(D - r, md.bregman_scale(W, V, p, xp) + xp.abs(r))


def _lemma_13_matrix(part, p_lo, p_hi, open_ends, statement, rhs):
    @claim(
        f"julistiono2024/lemma-13/{part}", kind="inequality", source=f"{PAPER}, Appendix A.2, Lemma 13", cost="normal",
        statement=statement,
        domain=(wide_exponents(p_lo, p_hi) if p_hi > P_MAX else
                exponents(p_lo, p_hi, open_lo=open_ends[0], open_hi=open_ends[1])).flatmap(
            lambda p: st.tuples(st.just(p), matrix_pairs(p, unit_ball=True))),
        certify=cert.MATRICES,
        reading=Reading(provenance=L13, shared=L13_SHARED + (rd.P_RANGE,),
                        unchecked=(rd.P_ABOVE_MAX_BALL,) if p_hi == P_MAX else (),
                        notes={"domain": "pairs in the unit ell_p ball (radius 1 drawn often), shapes up to 4 x 4: "
                                         "independent, equal (0 >= 0), near-equal down to 1e-12 relative, "
                                         "sign-flipped, one zero"}),
    )
    def lemma_13(case, xp):
        p, (W, V) = case
        return _bregman_ge(W, V, p, rhs, xp)

    return lemma_13


def _l1_rhs(W, V, p, xp):
    p = xp.asarray(p)
    return xp.sum(xp.abs(xp.asarray(W) - xp.asarray(V)) ** p) / (p * 2 ** p)


def _l2_rhs(W, V, p, xp):
    return (xp.asarray(p) - 1) / 2 * xp.sum((xp.asarray(W) - xp.asarray(V)) ** 2)


lemma_13_l1 = _lemma_13_matrix("l1", 2.0, P_MAX, (False, False),
                               r"p\ge2,\ \|W\|_p,\|V\|_p\le1:\ D_\psi(W,V)\ge\frac1{p2^p}\|W-V\|_p^p", _l1_rhs)
lemma_13_l2 = _lemma_13_matrix("l2", 1.0, 2.0, (True, True),
                               r"1<p<2,\ \|W\|_p,\|V\|_p\le1:\ D_\psi(W,V)\ge\frac{p-1}2\|\mathrm{vec}(W-V)\|_2^2",
                               _l2_rhs)


def _lemma_13_scalar(part, p, statement, rhs):
    @claim(
        f"julistiono2024/lemma-13/{part}", kind="inequality", source=f"{PAPER}, Appendix A.2, Lemma 13 (scalar term (11))",
        cost="normal", statement=statement, space=Space(x=Real(-1.0, 1.0), y=Real(-1.0, 1.0), p=p),
        certify=OwnSpace(),
        reading=Reading(provenance=L13, shared=L13_SHARED,
                        notes={"part": "the 1 x 1 case: the scalar term d_p(x, y) the proof reduces to, with the "
                                       "corners x, y in {-1, 0, 1}, just-inside points and a Powell search for the "
                                       "tightest (x, y, p)"}),
    )
    def lemma_13_s(v, xp):
        return _bregman_ge(np.array([[v["x"]]]), np.array([[v["y"]]]), v["p"], rhs, xp)

    return lemma_13_s


lemma_13_l1_scalar = _lemma_13_scalar("l1-scalar", Real(2.0, P_MAX),
                                      r"p\ge2,\ x,y\in[-1,1]:\ d_p(x,y)\ge\frac{|x-y|^p}{p2^p}", _l1_rhs)
lemma_13_l2_scalar = _lemma_13_scalar("l2-scalar", Real(1.0, 2.0, open_lo=True, open_hi=True),
                                      r"1<p<2,\ x,y\in[-1,1]:\ d_p(x,y)\ge\frac{p-1}2(x-y)^2", _l2_rhs)


# ---- Lemmas 14 and 15 -------------------------------------------------------------------------

#: the scalar lemmas' draws and their evaluation without cancellation (attncheck.papers.julistiono2024.readings)
SCALAR = (rd.POWER_PAIRS, rd.P_RANGE, rd.POWER_DIFFERENCES)
POWER_SPACE = Space(y=Real(0.0, 1e3), delta=Real(0.0, 1e3), p=Real(1.0, P_MAX, open_lo=True))


def _both(slacks, xp):
    """Conjunction of two (value, scale) slacks, each taken relative to its own scale (scales far below 1e-300,
    which all_of's floor would swamp, occur at subnormal delta and are exact in mpmath)."""
    rel = [v / sc if sc != 0 else v for v, sc in slacks]
    return all_of(*(Slack(r, 1.0 + 0.0 * r) for r in rel), xp=xp)


@claim(
    "julistiono2024/lemma-14/form-a", kind="inequality", source=f"{PAPER}, Appendix A.2, Lemma 14", cost="normal",
    statement=r"x\ge y\ge0,\ p>1:\ p\,y^{p-1}(x-y)\le x^p-y^p\le p\,x^{p-1}(x-y)",
    domain=power_pairs(), space=POWER_SPACE, certify=OwnSpace(profiles=("quick", "deep")),
    reading=Reading(provenance=Provenance("DERIVED", "two candidate forms, both true; form (A) is the mean-value "
                                                     "sandwich"),
                    shared=SCALAR, unchecked=(rd.P_ABOVE_MAX_SCALAR,)),
)
def lemma_14_a(v, xp):
    return _both(pd.lemma_14a(v["y"], v["delta"], v["p"], xp), xp)


@claim(
    "julistiono2024/lemma-14/form-b", kind="inequality", source=f"{PAPER}, Appendix A.2, Lemma 14", cost="normal",
    statement=r"x\ge y\ge0,\ p>1:\ y(x^{p-1}-y^{p-1})\le\tfrac{p-1}p(x^p-y^p)\le x(x^{p-1}-y^{p-1})",
    domain=power_pairs(), space=POWER_SPACE, certify=OwnSpace(profiles=("quick", "deep")),
    reading=Reading(provenance=Provenance("DERIVED", "two candidate forms, both true; form (B) is the one Lemma 27's "
                                                     "proof uses with x = ||W(k+1)||_p, y = ||W(k)||_p"),
                    shared=SCALAR, unchecked=(rd.P_ABOVE_MAX_SCALAR,)),
)
def lemma_14_b(v, xp):
    return _both(pd.lemma_14b(v["y"], v["delta"], v["p"], xp), xp)


def _lemma_15(part, p_range, statement, grow):
    @claim(
        f"julistiono2024/lemma-15/{part}", kind="inequality", source=f"{PAPER}, Appendix A.2, Lemma 15", cost="normal",
        statement=statement, domain=power_pairs(p_range.lo, p_range.hi, p_range.open_lo),
        space=Space(y=Real(0.0, 1e3), delta=Real(0.0, 1e3), p=p_range), certify=OwnSpace(profiles=("quick", "deep")),
        reading=Reading(provenance=Provenance("DERIVED", "high confidence"), shared=SCALAR,
                        unchecked=(rd.P_ABOVE_MAX_SCALAR,) if p_range.hi == P_MAX else (),
                        notes={"symmetry": "|x^(p-1) - y^(p-1)| and |x - y| are symmetric in (x, y): x >= y is no "
                                           "loss"}),
    )
    def lemma_15(v, xp):
        value, scale = pd.lemma_15(v["y"], v["delta"], v["p"], xp)
        return Slack(value if grow else -value, scale)

    return lemma_15


lemma_15_ge2 = _lemma_15("p-ge-2", Real(2.0, P_MAX), r"p\ge2,\ x,y\ge0:\ |x^{p-1}-y^{p-1}|\ge|x-y|^{p-1}", True)
lemma_15_le2 = _lemma_15("p-le-2", Real(1.0, 2.0, open_lo=True), r"1<p\le2,\ x,y\ge0:\ |x^{p-1}-y^{p-1}|\le|x-y|^{p-1}",
                         False)


# ---- Lemma 26 ---------------------------------------------------------------------------------

@st.composite
def _triples(draw):
    p = draw(exponents(1.0, P_MAX, open_lo=True))
    W = draw(matrices(6))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 31)))
    Y, Z = (W + 10.0 ** draw(st.floats(-8.0, 2.0)) * rng.standard_normal(W.shape) for _ in range(2))
    return p, W, Y, Z


@claim(
    "julistiono2024/lemma-26/main", kind="identity", source=f"{PAPER}, Appendix A.5, Lemma 26", cost="normal",
    statement=r"D_\psi(x,y)=D_\psi(x,z)+D_\psi(z,y)-\langle\nabla\psi(y)-\nabla\psi(z),x-z\rangle",
    domain=_triples(),
    certify=cert.MATRICES,
    reading=Reading(
        provenance=Provenance("DERIVED", "exact, standard three-point identity"),
        unchecked=(rd.P_ABOVE_MAX, rd.LARGE_SHAPES),
        notes={"domain": "same-shape triples up to 6 x 6 around matrices of any scale, spreads 1e-8..1e2, p in (1, 64]",
               "tolerance": "1e-9 relative to the rounding scale: the magnitudes of the terms of the direct formulas of "
                            "the three divergences and of grad psi(y), grad psi(z) times |x - z|"}),
)
def lemma_26(case, xp):
    p, x, y, z = case
    a, b, c = md.bregman(x, y, p, xp), md.bregman(x, z, p, xp), md.bregman(z, y, p, xp)
    inner = xp.sum((md.mirror_map(y, p, xp) - md.mirror_map(z, p, xp)) * (xp.asarray(x) - xp.asarray(z)))
    x, y, z = (xp.asarray(m) for m in (x, y, z))
    rounding = (md.bregman_scale(x, y, p, xp) + md.bregman_scale(x, z, p, xp) + md.bregman_scale(z, y, p, xp)
                + xp.sum((xp.abs(md.mirror_map(y, p, xp)) + xp.abs(md.mirror_map(z, p, xp))) * xp.abs(x - z)))
    return Slack(1e-9 * rounding - xp.abs(a - (b + c - inner)), rounding)

