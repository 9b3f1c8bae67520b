"""deng2023's certification declarations: every deterministic claim declares a route or a reason; the
D.1 and F.1 boxes cover their structures; claims certified exactly / by sign factors, stated errata
refuted by the same routes (re-checked in mpmath)."""

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from attncheck.certify import params as cp
from attncheck.core import declarations
from attncheck.core.claims import REGISTRY
from attncheck.papers.deng2023 import certification as declare
from attncheck.run.loader import load

PROPERTIES = Path(__file__).resolve().parents[3] / "properties"
load([PROPERTIES / "deng2023"])

DETERMINISTIC = [c for c in REGISTRY if c.id.startswith("deng2023/") and c.kind.value in ("identity", "inequality")]


def test_every_deterministic_claim_declares_a_route_or_a_reason():
    assert len(DETERMINISTIC) == 174
    kinds = Counter(type(c.certify).__name__ for c in DETERMINISTIC)
    assert set(kinds) == {"Cases", "Ineligible"} and kinds["Cases"] == 143
    for c in DETERMINISTIC:
        if isinstance(c.certify, declarations.Ineligible):
            assert c.certify.reason in declarations.REASONS and c.certify.detail


def test_cross_attention_structures():
    cases = declare.cross(1, pair="distinct")
    assert [label for label, _ in cases.parts] == ["d >= 3, t >= 2, j2 != j3", "d >= 3, t = 1, j2 != j3",
                                                    "d = 2, t >= 2, j2 != j3"]
    assert len(declare.cross(0).parts) == 6
    part = cases.parts[0][1]
    assert part.box["k"] == (2.0, declare.N_MAX / 2) and part.box["a1"] == declare.F_A_RANGE["a1"]
    integer = part.case({"k": 5.0, "t": 2.0, "a0": 0.05, "a1": 2.0})  # a point: the sampled evaluator's case
    assert (integer.n, integer.d, integer.j2, integer.j3) == (10, 6, 1, 0)


def _certify(cid):
    c = REGISTRY.get(cid)
    return cp.run_cases(c.evaluate, c.certify)


@pytest.mark.parametrize("cid, route", [
    ("deng2023/lemma-d.10/part-4b", "symbolic-interval"),
    ("deng2023/lemma-d.2/part-1a", "symbolic ("),
    ("deng2023/lemma-d.6/part-4a-corrected", "symbolic-interval"),
    ("deng2023/lemma-f.2/part-4b", "symbolic ("),
    ("deng2023/lemma-f.7/part-2", "symbolic-interval"),
])
def test_claims_certified_over_every_structure(cid, route):
    out = _certify(cid)
    assert out.status == "certified" and out.certified_fraction == 1.0 and out.route.startswith(route)


@pytest.mark.parametrize("cid", ["deng2023/lemma-d.6/part-1a", "deng2023/lemma-d.14/part-4b",
                                 "deng2023/lemma-f.2/part-4a", "deng2023/lemma-f.6/part-3a"])
def test_stated_errata_are_refuted_by_the_symbolic_route(cid):
    assert REGISTRY.get(cid).erratum is not None
    out = _certify(cid)
    assert out.status == "refuted" and "re-checked in mpmath" in out.counterexample["found_by"]
    assert float(out.counterexample["slack"]) < 0


def test_a_factor_is_proved_on_the_coordinates_it_reads():
    """Lemma D.7 Part 2's sign factors do not read b (it cancels): the branch and bound splits only k, t, a, so the
    claim certifies in 144 boxes (880 when b's range was bisected as well), every structure whole."""
    out = _certify("deng2023/lemma-d.7/part-2")
    assert out.status == "certified" and out.certified_fraction == 1.0 and out.boxes == 144
    import sympy

    from attncheck.certify import symbolic
    x = sympy.Symbol("x", real=True)
    factor = sympy.exp(x) + sympy.exp(-x) - sympy.Rational(1998, 1000)  # > 0 on [-1, 1], proved after splits
    alone = symbolic.prove_factor(factor, {"x": (-1.0, 1.0)}, 1, True, (), 1000)
    wider = symbolic.prove_factor(factor, {"y": (0.0, 1.0), "x": (-1.0, 1.0), "z": (1.0, 1e6)}, 1, True, ("z",), 1000)
    assert alone.status == wider.status == "certified" and alone.boxes == wider.boxes > 1  # y, z never split


SECTION_E = [c for c in DETERMINISTIC if c.id.startswith("deng2023/lemma-e") and isinstance(c.certify, declarations.Cases)]


@pytest.mark.parametrize("n, d, a, b", [(2, 3, 1.2, 0.1), (6, 3, 2.0, 0.5), (8, 4, 1.5, 0.3), (12, 5, 20.0, 0.9),
                                        (30, 8, 1.0, 0.2), (24, 10, 3.0, 0.99)])
def test_section_e_orbits_relaxed_give_the_sampled_values(n, d, a, b):
    """At an integer point the relaxed row orbits (thin arb balls) give every slack value of the sampled
    evaluator (compressed classes, mpmath), and nothing else: one value per orbit instead of per column."""
    import mpmath
    from flint import arb

    from attncheck.numeric.interval import ARB, Ball
    from attncheck.numeric.precision import MP

    assert len(SECTION_E) == 15
    k, t = d - 2, n // (d - 2)
    for c in SECTION_E:
        if k == 1 and "part-2-rest" in c.id:  # d >= 4 only
            continue
        label, part = next((lb, p) for lb, p in c.certify.parts
                           if p.box["k"][0] <= k <= p.box["k"][1] and p.box["t"][0] <= t <= p.box["t"][1])
        sampled = part.case({"k": float(k), "t": float(t), "a": a, "b": b})
        with mpmath.workdps(40):
            exact = {mpmath.nstr(v, 20) for v in np.ravel(np.asarray(c.evaluate(sampled, MP(40)).value, dtype=object))}
        xp = ARB(128)
        with xp.context():
            relaxed = part.case({"k": Ball(arb(k)), "t": Ball(arb(t)), "a": Ball(arb(a)), "b": Ball(arb(b))})
            balls = [Ball(v).x for v in np.ravel(np.asarray(c.evaluate(relaxed, xp).value, dtype=object))]
        for x in balls:
            assert any(x.overlaps(arb(e, 1e-15 * (1 + abs(float(e))))) for e in exact), (c.id, label, x, exact)
        for e in exact:
            assert any(x.overlaps(arb(e, 1e-15 * (1 + abs(float(e))))) for x in balls), (c.id, label, e)
