"""julistiono2024 main theorem (directional convergence of ell_p-AttGD to the ell_p-AttSVM direction).

Along the Section 4.1 runs: the directional Bregman divergence D_psi_p(bar W_mm_p, bar W(k)) to the solution
for the tokens the run settles on (locally optimal, else outside the theorem) falls to a stated threshold, and
for q != p the divergence D_psi_p(bar W_mm_q, bar W(k)) does not.
Beyond the paper: the matched claim along T (tokens) and d, p on a grid in (1, 4], with the ell_p-AttSVM
solved to a KKT residual <= 1e-8 at every point (asserted).
"""

from attncheck import Choice, Int, Outside, Provenance, Reading, Reason, Slack, Space, Unchecked, all_of, claim, le, lt
from attncheck.papers.julistiono2024 import certification as cert
from attncheck.papers.julistiono2024 import readings as rd
from attncheck.papers.julistiono2024.models import mirror_descent as md
from attncheck.papers.julistiono2024.models.theorem_runs import (
    LONG_EVERY,
    LONG_STEPS,
    Scaled,
    geometry,
    long_run,
    run,
    settled,
    solution,
)

PAPER = "julistiono2024 (arXiv 2410.14581)"
P_RUN = (1.75, 2.0, 3.0)
#: the main theorem as the summary of A.2-A.5 (no statement survived)
THEOREM = Provenance("DERIVED", "summary of the main-body theorem implied by A.2-A.5 (theorem number unknown)")


SPACE = Space(seed=Int(0, 7), p=Choice(P_RUN), w=Int(0, 2 ** 31))
#: the ell_p-AttSVM's KKT residual every reference direction must reach
KKT_MAX = 1e-8


#: the stated threshold D must fall to by the end of the long run (measured runs: docs/papers/julistiono2024.md)
D_REACHED = 0.05


@claim(
    "julistiono2024/theorem-main/matched", kind="inequality", source=f"{PAPER}, main theorem (via Appendix A.5, "
    "Lemmas 28-30) and Section 4.1", cost="expensive", refutable=False,
    statement=r"D_{\psi}(\bar W^{mm}_\alpha,\bar W(k))\to0\ \ (k\to\infty)",
    space=SPACE,
    certify=cert.THEOREM_RUNS,
    reading=Reading(
        provenance=THEOREM, shared=(rd.THEOREM_SETTING,),
        unchecked=(Unchecked("the limit D(k) -> 0 itself", Reason.BEYOND_PATH,
                             f"a run of {LONG_STEPS} steps shows D falling to {D_REACHED}, not to 0; a run that "
                             "does not reach it is a one-sided witness's failure (INCONCLUSIVE), never a refutation"),
                   Unchecked(f"k > {LONG_STEPS}", Reason.BUDGET, f"the runs are {LONG_STEPS} iterations long"),
                   Unchecked("p in (1, 1.75)", Reason.BEYOND_PATH,
                             f"convergence slows as p -> 1: at p = 1.1 the runs of {LONG_STEPS} steps end at D = 0.31 "
                             f"to 0.60 (the 6 locally optimal of seeds 0-7, w = 0; 2026-12-07), far above "
                             f"{D_REACHED}"),
                   Unchecked("p > 3 and p between 1.75, 2, 3", Reason.BUDGET,
                             "each exponent adds long runs per seed and w: at p = 4 the 8 runs of seeds 0-7 (w = 0) "
                             "took 10.9 s and ended at D = 0.012-0.036 (7 locally optimal; 2026-12-07), against "
                             "32.7 s committed for the claim's 3 exponents (deep budget)")),
        notes={"check": f"the run is continued to k = {LONG_STEPS} (iterates every {LONG_EVERY} steps). Its selected "
                        f"tokens alpha (argmax of each softmax) must be one and the same over k in [{LONG_STEPS // 2}, "
                        f"{LONG_STEPS}] and locally optimal (Definition 3: every support token scores below "
                        "alpha's); otherwise the case is outside the theorem's hypotheses (counted apart, not a pass). "
                        f"For that alpha's ell_p-AttSVM (KKT residual <= {KKT_MAX:g}, else ERROR), "
                        f"D(k = {LONG_STEPS}) <= {D_REACHED} and D({LONG_STEPS}) < D({LONG_STEPS // 2}) (still "
                        "falling over the tail)"}),
)
def theorem_matched(v, xp):
    _, Ws, selected = long_run(v["seed"], v["p"], v["w"])
    alpha = settled(selected)
    if alpha is None:
        raise Outside(f"the selected tokens change over k in [{LONG_STEPS // 2}, {LONG_STEPS}]: no fixed alpha")
    geom = geometry(v["seed"], tuple(alpha.tolist()), v["p"])
    if not geom.locally_optimal():
        raise Outside(f"the settled tokens {alpha.tolist()} are not locally optimal (Definition 3)")
    if not geom.svm.kkt <= KKT_MAX:  # the reference direction is not known to 1e-8: nothing can be concluded
        raise ArithmeticError(f"ell_p-AttSVM not solved to KKT <= {KKT_MAX:g}: residual {geom.svm.kkt:.2e}")
    mid, end = (float(md.directional_bregman(geom.W_mm, W, v["p"])) for W in (Ws[len(Ws) // 2], Ws[-1]))
    return all_of(le(end, D_REACHED), lt(end, mid))


@claim(
    "julistiono2024/theorem-main/mismatched", kind="inequality", source=f"{PAPER}, Section 4.1 (Figure: mismatched "
    "(q, p) pairs)", cost="expensive",
    statement=r"q\ne p:\ D_{\psi_p}(\bar W^{mm}_q,\bar W(k))\not\to0",
    space=SPACE,
    certify=cert.THEOREM_RUNS,
    reading=Reading(provenance=THEOREM, shared=(rd.THEOREM_SETTING,),
                    notes={"q": "both q in {1.75, 2, 3} other than p, with the run's alpha",
                    "check": "the limit D_psi_p(bar W_mm_q, bar W_mm_p) is positive and the divergence at k = 2000 "
                             "is at least half of it (the iterates' direction approaches bar W_mm_p, so "
                             "D_psi_p(bar W_mm_q, bar W(k)) approaches this positive limit)"}),
)
def theorem_mismatched(v, xp):
    _, Ws, alpha = run(v["seed"], v["p"], v["w"])
    p = v["p"]
    Wp = solution(v["seed"], tuple(alpha.tolist()), p).w
    out = []
    for q in P_RUN:
        if q == p:
            continue
        Wq = solution(v["seed"], tuple(alpha.tolist()), q).w
        limit = float(md.directional_bregman(Wq, Wp, p))
        final = float(md.directional_bregman(Wq, Ws[-1], p))
        out.append(min(limit, final - limit / 2) / max(limit, 1e-300))
    return Slack(min(out), 1.0, strict=True)


# ---- beyond the paper: along T, d and p --------------------------------------------------------

P_GRID = (1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0)
#: path points (T, d, iterations); deep reaches T = 256, d = 64
TD_PATH = {"quick": [(8, 10, 500), (16, 16, 500)], "deep": [(8, 10, 1000), (64, 32, 1000), (256, 64, 1000)]}


@claim(
    "julistiono2024/theorem-main/scaling", kind="inequality", source=f"{PAPER}, main theorem; beyond the paper "
    "(issue 8: along T and d, p on a grid in (1, 4])", cost="expensive",
    statement=r"D_{\psi}(\bar W^{mm}_\alpha,\bar W(k))\to0\ \text{along }T\le256,\ d\le64,\ p\in(1,4]",
    space=lambda point: Space(build=lambda **v: Scaled(point, **v), seed=Int(0, 1), p=Choice(P_GRID)),
    path=TD_PATH,
    certify=cert.THEOREM_RUNS,
    reading=Reading(
        provenance=THEOREM,
        unchecked=(Unchecked("p in (1, 1.25) (below the grid)", Reason.BUDGET,
                             "runs slow down as p -> 1: at p = 1.1 the deep path's 6 runs (seeds 0-1) took 43 s "
                             "(16-18 s each at (T, d) = (256, 64)), more than the committed 35.3 s for the 8 grid "
                             "values together, with b = -0.0030 to -0.0039 (negative) and KKT <= 1.5e-13 (2026-12-07); "
                             "nearer 1 the solver fails (p = 1.001 raises in all 12 Section 4.1 solves, 1.01 fails 4, "
                             "docs/papers/julistiono2024.md)"),),
        notes={"setting": "n = 6 samples, T tokens in R^d (Section 4.1's distribution), W(0) ~ N(0, 1), normalized "
                          "ell_p mirror descent, eta = 0.1, K = 500 (deep: 1000) iterations, alpha = argmax of the "
                          "final softmax; seeds 0-1",
               "path": "(T, d) in {(8, 10), (16, 16)} (deep: (8, 10), (64, 32), (256, 64)); every path point counts",
               "p": "the grid {1.25, 1.5, 1.75, 2, 2.5, 3, 3.5, 4} in (1, 4]",
               "check": "the fitted exponent of D(k) ~ k^b over the last three quarters of the run is negative "
                        "(strict); the ell_p-AttSVM's KKT residual (primal infeasibility, complementarity, dual "
                        "infeasibility) must be <= 1e-8 at every point, else the case stops with an error (ERROR "
                        "verdict: the solver, not the theorem, failed)"}),
)
def theorem_scaling(run, xp):
    if not run.kkt <= KKT_MAX:  # the reference direction is not known to 1e-8: nothing can be concluded (ERROR)
        raise ArithmeticError(f"ell_p-AttSVM not solved to KKT <= {KKT_MAX:g} at {run!r}: residual {run.kkt:.2e}")
    return Slack(-run.b, 1.0, strict=True)
