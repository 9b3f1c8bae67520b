"""goel2026 Lemma 7 (lemma-7/main) needs its hypothesis a, b >= 0: with a < 0 the sufficient condition
2 a tau + 2 b tau^2 < 1 holds while lambda_max(2a sym(C) + 2b C C^T) exceeds 1, and the claim's evaluator says so."""
from pathlib import Path

import numpy as np

from attncheck import F64
from attncheck.core.claims import REGISTRY
from attncheck.run import loader

loader.load([Path(__file__).resolve().parents[3] / "properties" / "goel2026" / "test_softmax.py"])
LEMMA_7 = REGISTRY.get("goel2026/lemma-7/main")
VALUES = dict(d=3, extra=1, cond=3.0, x_scale=1.0, spread=0.5, sigma=0.1, seed=5, r=0.3, radial=0.0, u=0.5, w=0.9)


def _slack(case):
    return float(np.min(LEMMA_7.evaluate(case, F64).value))


def test_it_holds_with_a_and_b_nonnegative():
    assert _slack(LEMMA_7.space.case(VALUES)) > 0


def test_a_negative_a_breaks_it():
    case = LEMMA_7.space.case(VALUES)
    b = 50.0 / case.tau ** 2
    case.extra.update(a=-b * case.tau, b=b)  # 2 a tau + 2 b tau^2 = 0 < 1
    assert 2 * case.a * case.tau + 2 * case.b * case.tau ** 2 < 1
    assert _slack(case) < 0
