"""bombari2024 draws whose feature vector vanishes (relu with small k, every unit of a layer off): the ratios they
enter are +inf, ranked last by the engine's quantile, never NaN, a division error or a negative ratio."""
import math

import pytest

from attncheck.papers.bombari2024.models import draws, glm
from attncheck.papers.bombari2024.models.draws import rf_draws
from attncheck.papers.bombari2024.strategies.token_matrices import TokenCase, WSCase


def test_vanished_features_make_the_lower_ratio_infinite_and_keep_the_sup():
    """relu with k = 4 at depth 3 (rho = 1/16 of D = 64): where phi_L(X) = 0 the ascent's ratio (3.4) is +inf,
    never NaN, and the witness's numerator ||phi_L(X') - phi_L(X)|| (Bracket.sup) stays finite; elsewhere
    lower * base_norm is the sup."""
    case = WSCase(TokenCase("gaussian", 8, 8, 0, 0.0), "relu", 1 / 16, 3)
    brackets = rf_draws(case, list(range(40)), depth=3)
    vanished = [b for b in brackets if b.base_norm == 0]
    assert 0 < len(vanished) < len(brackets)
    assert all(math.isinf(b.lower) and b.lower > 0 and math.isfinite(b.sup) for b in vanished)
    assert all(b.lower * b.base_norm == pytest.approx(b.sup, rel=1e-12) for b in brackets if b.base_norm > 0)


@pytest.mark.parametrize(("lam", "want"), [(0.0, math.inf), (-1e-17, math.inf), (2.0, 4.0)])
def test_a_singular_kernel_is_an_infinite_lemma_b2_draw(monkeypatch, lam, want):
    """k / lambda_min(K_r) is +inf where K_r is singular in float64 (a vanished feature vector), never a division
    error nor a negative ratio."""
    monkeypatch.setattr(glm, "lambda_min", lambda K: lam)
    case = WSCase(TokenCase("gaussian", 16, 4, 0, 0.0), "relu", 1 / 8, 1)
    assert case.k == 8 and draws.kr_ratio(case, 0) == want
