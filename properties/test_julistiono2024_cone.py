"""julistiono2024 Appendix A.3: the cone lemmas (19 step 1, 20, 21).

Every point W lies in the cone C_{p, mu(alpha), R}(W_mm) = {||W||_p = R, D_psi(bar W_mm, bar W) <= mu(alpha)}
(claims file 1.7), built as bar W = normalize(bar W_mm + r E) with r set by bisection so that
D_psi(bar W_mm, bar W) = u mu(alpha), u in [0, 1] (u = 1: the cone's boundary). Datasets: Section 4.1
(n = 6, T = 8, d = 10, seeds 0-3) with alpha_i = argmax_t gamma_it (locally optimal), ell_p-AttSVM
solved to KKT residual <= 1e-13 for p in {1.1, 1.5, 1.75, 2, 2.5, 3, 4}. R is given as a multiple of
||W_mm||_p along a path; once every sample's second-largest softmax weight is below e^-600 the
float64 evaluation is declared undecidable (NaN) and mpmath decides.
"""
import numpy as np

from attncheck import Choice, Int, Real, Slack, Space, claim, lt
from attncheck.models import mirror_descent as md
from attncheck.models.att_svm import cone_direction, reference_geometry
from attncheck.precision import F64
from attncheck.strategies.mirror_descent import P_STANDARD

PAPER = "julistiono2024 (arXiv 2410.14581)"
#: score gap beyond which float64 softmax weights are too small to trust (they underflow at ~745)
UNDERFLOW_GAP = 600.0


class ConeCase:
    """A cone point W with ||W||_p = R ||W_mm||_p and its geometry (repr: the parameters)."""

    def __init__(self, R, seed, p, u, w, pi=None, eta=None):
        self.R, self.seed, self.p, self.u, self.w, self.pi, self.eta = R, seed, p, u, w, pi, eta
        self.geom = reference_geometry(seed, p)
        d = self.geom.W_mm.shape[0]
        E = np.random.default_rng(w).standard_normal((d, d))
        self.Wbar = cone_direction(self.geom, u, E)
        self.W = R * self.geom.svm.norm * self.Wbar

    @property
    def data(self):
        return self.geom.data

    def __repr__(self):
        extra = "".join(f", {k}={getattr(self, k)!r}" for k in ("pi", "eta") if getattr(self, k) is not None)
        return f"ConeCase(R={self.R!r}, seed={self.seed}, p={self.p}, u={self.u!r}, w={self.w}{extra})"


def _space(R, **extra):
    return Space(build=lambda **v: ConeCase(R, **v), seed=Int(0, 3), p=Choice(P_STANDARD), u=Real(0.0, 1.0),
                 w=Int(0, 2 ** 31), **extra)


CONE = {
    "cone": "C_{p,mu,R}(W_mm) = {||W||_p >= R, D_psi(bar W_mm, bar W) <= mu} with mu = mu(alpha) of claims file 1.7 "
            "(DERIVED-UNCERTAIN: chosen so that eps_mu <= nu_alpha / 4; equation numbers (4a)/(6)/(8) could not be "
            "matched)",
    "alpha": "alpha_i = argmax_t gamma_it (unique max), hence locally optimal (Definition 3)",
    "data": "Section 4.1 datasets (n = 6, T = 8, d = 10; seeds 0-3), logistic loss, v fixed",
    "W": "W = R ||W_mm||_p normalize(bar W_mm + r E), E Gaussian, r set so that D_psi(bar W_mm, bar W) = u mu(alpha), "
         "u in [0, 1] (0: the ray of W_mm, 1: the cone's boundary)",
}


def _undecidable_in_float(case, xp):
    """True when float64 softmax weights of every sample are below e^-600 (the gradient is not representable)."""
    if xp is not F64:
        return False
    h = np.sort(md.scores(case.data, case.W), axis=-1)
    return bool(np.min(h[:, -1] - h[:, -2]) > UNDERFLOW_GAP)


NAN = Slack(np.nan, np.nan)


# ---- Lemma 19 ---------------------------------------------------------------------------------

def _eps(case):
    """eps_mu at the tightest admissible mu: the point's own D_psi(bar W_mm, bar W) (any mu in [D, mu(alpha)] is)."""
    g = case.geom
    return g.eps_mu(float(md.directional_bregman(g.W_mm, case.Wbar, g.p)))


L19 = {**CONE, "provenance": "DERIVED-UNCERTAIN (exact constants and the name of the set in (8)); the closeness "
                             "bound eps_mu of the claims file (Lemma 13, then Lemma 12 for p < 2)",
       "R": "||W||_p = ||W_mm||_p (the lemma's normalization)",
       "mu": "the tightest admissible mu = D_psi(bar W_mm, bar W) of the point (the statement is for every mu <= "
             "mu(alpha) with D <= mu)"}


@claim(
    "julistiono2024/lemma-19/closeness", kind="inequality", source=f"{PAPER}, Appendix A.3, Lemma 19 (step 1)",
    statement=r"D_\psi(\bar W^{mm},\bar W)\le\mu\ \Rightarrow\ \|\bar W-\bar W^{mm}\|_p\le\varepsilon_\mu/(A_q\|W^{mm}\|_p)",
    space=_space(1.0), interpretation=L19, cost="normal",
)
def lemma_19_closeness(case, xp):
    g = case.geom
    dist = float(md.lp_norm(case.Wbar - md.normalize(g.W_mm, g.p), g.p))
    bound = _eps(case) / (g.A_q * g.svm.norm)
    return Slack(bound - dist, bound + dist)


# ---- Lemma 20 ---------------------------------------------------------------------------------

R_PATH = {"quick": [1.0, 10.0, 100.0, 1e3, 1e4], "deep": [1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1e3, 3e3, 1e4, 1e5]}
R_NOTE = ("R_mu exists but its formula is unknown: judged at the end of the path R / ||W_mm||_p in {1, 10, 100, 1e3, "
          "1e4} (deep: up to 1e5), 'holds from R' reported; float64 softmax underflows from R ~ 1e3, mpmath there")


def _inner_mm(case, xp):
    return md.grad_inner(case.data, case.W, case.geom.W_mm, xp=xp)


@claim(
    "julistiono2024/lemma-20/main", kind="inequality", source=f"{PAPER}, Appendix A.3, Lemma 20",
    statement=r"W\in\mathcal C_{p,\mu,R_\mu}(W^{mm}):\ \langle\nabla\mathcal L(W),W^{mm}\rangle<0",
    space=lambda R: _space(R), path=R_PATH, eventually=True, cost="expensive",
    interpretation={**CONE, "provenance": "DERIVED-UNCERTAIN (qualitative claim certain, R_mu formula unknown)",
                    "R": R_NOTE, "evaluation": "pairwise form of <grad L, W_mm> (no cancellation at large R)"},
)
def lemma_20(case, xp):
    if _undecidable_in_float(case, xp):
        return NAN
    return lt(_inner_mm(case, xp), 0.0, xp)


@claim(
    "julistiono2024/lemma-20/companion", kind="inequality", source=f"{PAPER}, Appendix A.3, Lemma 20 (companion used by "
    "Lemma 22)", statement=r"W\in\mathcal C_{p,\mu,R_\mu}(W^{mm}):\ \langle\nabla\mathcal L(W),W\rangle<0",
    space=lambda R: _space(R), path=R_PATH, eventually=True, cost="expensive",
    interpretation={**CONE, "provenance": "DERIVED (observed companion in the claims file; it makes ||W(k)||_p "
                                          "increase via Lemma 22 (ii))", "R": R_NOTE},
)
def lemma_20_companion(case, xp):
    if _undecidable_in_float(case, xp):
        return NAN
    return lt(md.grad_inner(case.data, case.W, case.W, xp=xp), 0.0, xp)


# ---- Lemma 21 ---------------------------------------------------------------------------------

def _pi_emp(case, xp):
    """pi_emp(W) = <grad L, bar W> / <grad L, bar W_mm> - 1 (both negative in the cone)."""
    g = case.geom
    num = md.grad_inner(case.data, case.W, case.Wbar, xp=xp)
    den = _inner_mm(case, xp) / g.svm.norm
    return num / den - 1


@claim(
    "julistiono2024/lemma-21/main", kind="inequality", source=f"{PAPER}, Appendix A.3, Lemma 21",
    statement=r"\forall\pi>0\ \exists R_\pi:\ W\in\mathcal C_{p,\mu,R_\pi}(W^{mm})\Rightarrow"
              r"\langle\nabla\mathcal L(W),W/\|W\|_p\rangle\ge(1+\pi)\langle\nabla\mathcal L(W),W^{mm}/\|W^{mm}\|_p\rangle",
    space=lambda R: _space(R, pi=Real(1e-4, 1.0, log=True)), path=R_PATH, eventually=True, cost="expensive",
    interpretation={**CONE, "provenance": "DERIVED-UNCERTAIN (R_pi formula unknown)",
                    "pi": "pi drawn in [1e-4, 1] (log scale); the statement's 'every pi > 0' is checked for these",
                    "R": R_NOTE, "form": "equivalently pi_emp(W) = <grad L, bar W>/<grad L, bar W_mm> - 1 <= pi"},
)
def lemma_21(case, xp):
    if _undecidable_in_float(case, xp):
        return NAN
    pe = _pi_emp(case, xp)
    return Slack(case.pi - pe, case.pi + 1 + xp.abs(pe + 1))
