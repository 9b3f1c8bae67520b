"""attncheck.report.plain: statements read as text on a terminal, and every committed statement's macros are known."""
import json
import re
from pathlib import Path

import pytest

from attncheck.report.plain import plain

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("tex, text", [
    (r"x \le 0.9 \text{ on } [0, 1]", "x ≤ 0.9 on [0, 1]"),
    (r"e^{(a+b)/2} \le \tfrac12\left(e^a + e^b\right)", "e^((a+b)/2) ≤ (1/2)(e^a + e^b)"),
    (r"X_i \text{ independent in } [a_i, b_i]", "X_i independent in [a_i, b_i]"),
    (r"\|W^\top x\|_2 \le \sqrt{n}\, \frac{\delta}{2}", "‖Wᵀ x‖_2 ≤ √n δ/2"),
    (r"\mathbb{E}[x_ix_i^\top] \not\in \mathbb{R}", "E[x_i x_iᵀ] ∉ ℝ"),
    (r"\Pr[F_{\exp} = 0] \ge 1 - \delta/\mathrm{poly}(n)", "Pr[F_exp = 0] ≥ 1 - δ/poly(n)"),
    (r"\unknownmacro{x}", r"\unknownmacrox"),  # kept as written, never dropped
])
def test_statements_read_as_text(tex, text):
    assert plain(tex) == text


def test_every_committed_statement_renders_without_a_macro_left():
    doc = json.loads((ROOT / "reports" / "results.json").read_text())
    texts = [r["statement"] for r in doc["claims"]]
    texts += [r["erratum"]["corrected_statement"] for r in doc["claims"]
              if r.get("erratum") and r["erratum"].get("corrected_statement")]
    left = {t: plain(t) for t in texts if re.search(r"\\[A-Za-z]", plain(t))}
    assert not left, f"{len(left)} statements keep a macro: {list(left.items())[:3]}"


def test_erratum_notes_read_as_text_words_kept():
    from attncheck.report.plain import note

    assert note("f_{j2,j3} >= n^{1+a}/(n^{1+a}+n^2), f_exp != 1/n, a1 -> 1, sigma = +1, sqrt(log n)") == \
        "f_(j2,j3) ≥ n^(1+a)/(n^(1+a)+n^2), f_exp ≠ 1/n, a1 → 1, σ = +1, √(log n)"
    assert note("c_lin = t/n") == "c_lin = t/n"  # a word after _ stays one


def test_no_statement_sets_a_word_in_math_italics():
    """Every claim's statement and every erratum's corrected statement, as the pages render them: a word in a
    statement is \\text{...} or \\mathrm{...}, never a run of italic letters (statement= is LaTeX)."""
    from attncheck.core.claims import REGISTRY
    from attncheck.report.html import italic_words, math
    from attncheck.run import loader

    loader.load([ROOT / "properties"])
    texts = {c.id: c.statement for c in REGISTRY}
    assert len(texts) > 300
    found = {cid: italic_words(math(t)) for cid, t in texts.items() if italic_words(math(t))}
    assert not found, f"{len(found)} statements set words in math italics: {list(found.items())[:5]}"
    assert italic_words(math(r"X_i independent in [a, b]")) == ["independentin"]  # the detector finds them
    assert italic_words(math(r"X_i \text{ independent in } [a, b], F_{\mathrm{exp}}, QK^\top")) == []
