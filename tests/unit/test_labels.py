"""How records read: path points and ends without Python reprs, labels titled as the paper numbers them, and the
worst case of a claim that holds."""
import pytest

from attncheck.report import groups, labels


@pytest.mark.parametrize("point, text, end", [
    (1e5, "n = 1e+05", "n <= 1e+05"),
    ({"beta": 1.0, "n": 10**18}, "beta = 1, n = 1e+18", "path to beta = 1, n = 1e+18"),
    ([16, 16, 500], "(16, 16, 500)", "path to (16, 16, 500)"),
])
def test_path_points_read_without_reprs(point, text, end):
    assert labels.point_text(point) == text and labels.path_end(point) == end


@pytest.mark.parametrize("label, title", [
    ("lemma-d.4", "Lemma D.4"), ("eq-6.9", "Eq. 6.9"), ("theorem-1.1", "Theorem 1.1"), ("fact-a.1", "Fact A.1"),
    ("theorem-main", "Main theorem"), ("softmax-max", "Softmax max"), ("theorem-2", "Theorem 2"),
])
def test_labels_are_titled_as_the_paper_numbers_them(label, title):
    assert groups.label_title(label) == title


def test_the_unnumbered_main_theorem_is_a_main_theorem():
    assert groups.is_main_theorem({"label": "theorem-main"}) and not groups.is_main_theorem({"label": "theorem-d.5"})


def test_the_worst_case_over_a_path_is_the_tightest_of_its_kind():
    det = {"kind": "inequality", "evidence": {"path": [{"worst": {"relative_slack": s, "case": c}}
                                                        for s, c in ((0.3, "a"), (0.1, "b"), (0.2, "c"))]}}
    asym = {"kind": "asymptotic", "evidence": {"path": [{"worst": {"implied_constant": k, "case": c}}
                                                         for k, c in ((1.0, "a"), (3.0, "b"), (2.0, "c"))]}}
    covered = {"kind": "inequality", "evidence": {"path": [{"covered": True}]}}
    assert labels.tightest(det)["case"] == "b" and labels.tightest(asym)["case"] == "b"
    assert labels.tightest(covered) is None
