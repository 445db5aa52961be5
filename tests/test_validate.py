"""grader validate and grader calibrate: rank statistics, the cut-point fit, the commands end to
end, --scale on grade, batch and report, and one-line errors for bad labels and scale files."""
from __future__ import annotations

import itertools
import json
import math
import random
import shutil

import pytest

from grader.app.cli import main
from grader.app.scale import fit_cuts, load_scale, reproduced
from grader.app.validate import Item, average_ranks, concordance, spearman, worst_inversions
from support import CORPUS, shared

AKARI = {  # file -> its own difficulty label (the YAML's `difficulty`)
    "lightup-7x7b20s2d0-grader-1.yaml": "easy", "lightup-7x7b20s2d0-grader-2.yaml": "easy",
    "lightup-7x7b20s2d1-grader-1.yaml": "tricky", "lightup-7x7b20s2d2-grader-1.yaml": "hard",
    "lightup-10x10b20s2d2-grader-2.yaml": "hard",
}


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code, out, err, *words):
    assert code == 2 and not out, (code, out, err)
    assert err.startswith("error: ") and err.count("\n") == 1, err
    for w in words:
        assert w in err, err


# --- statistics -------------------------------------------------------------------------

def test_average_ranks_share_ties():
    assert average_ranks([10, 20, 20, 30]) == [1, 2.5, 2.5, 4]
    assert average_ranks([5, 5, 5]) == [2, 2, 2]
    assert average_ranks([3, 1, 2]) == [3, 1, 2]


def test_spearman_perfect_reversed_and_ties():
    assert spearman([1, 2, 3, 4], [0, 1, 2, 3]) == pytest.approx(1)
    assert spearman([1, 5, 9, 100], [0, 1, 2, 3]) == pytest.approx(1)     # ranks, not values
    assert spearman([4, 3, 2, 1], [0, 1, 2, 3]) == pytest.approx(-1)
    # by hand: ranks x 1, 2.5, 2.5, 4 and y 1.5, 1.5, 3.5, 3.5 -> 3 / sqrt(4.5 * 4)
    assert spearman([1, 2, 2, 3], [0, 0, 1, 1]) == pytest.approx(3 / math.sqrt(18))
    assert spearman([1, 1, 1], [0, 1, 2]) is None         # no spread: undefined
    assert spearman([1], [0]) is None


def test_concordance_counts_ties_half():
    assert concordance([1, 2, 3], [0, 1, 2]) == 1
    assert concordance([3, 2, 1], [0, 1, 2]) == 0
    assert concordance([1, 1], [0, 1]) == 0.5
    # pairs across labels: (1,2) (1,3) (2,3) right, (2,2) a tie -> 3.5 / 4
    assert concordance([1, 2, 2, 3], [0, 0, 1, 1]) == 0.875
    assert concordance([1, 2], [1, 1]) is None            # one label: no pairs to compare


def test_worst_inversions_furthest_labels_first_new_puzzles_first():
    items = [Item("a", 0, 90, "5x5"), Item("b", 0, 80, "5x5"), Item("c", 1, 50, "5x5"),
             Item("d", 2, 20, "5x5"), Item("e", 2, 10, "5x5")]
    # labels two apart first, the widest gap first (a-e by 80); a-d and b-e then name a puzzle
    # already shown, so b-d; every pair one label apart names one too. Then the next worst.
    assert [(x.id, y.id) for x, y in worst_inversions(items)] == [
        ("a", "e"), ("b", "d"), ("a", "d"), ("b", "e"), ("a", "c")]
    assert [(x.id, y.id) for x, y in worst_inversions(items, 1)] == [("a", "e")]
    assert len(worst_inversions(items, 100)) == 8         # every inversion, none twice
    assert worst_inversions([Item("a", 0, 1, "?"), Item("b", 1, 2, "?")]) == []


# --- the cut-point fit ------------------------------------------------------------------

def brute_force(values, ranks, k):
    """The most labels any non-decreasing cuts reproduce (cuts at the values or above them)."""
    candidates = sorted(set(values)) + [max(values) + 1]
    return max(reproduced(c, values, ranks)
               for c in itertools.combinations_with_replacement(candidates, k - 1))


def test_fit_cuts_small_example():
    fit = fit_cuts([1, 2, 3, 4, 5, 6], [0, 0, 1, 1, 2, 2], 3)
    assert fit.cuts == (2.5, 4.5) and fit.matched == 6 and fit.agreement == 1
    fit = fit_cuts([1, 2, 3, 4, 5, 6], [0, 0, 1, 0, 1, 1], 2)    # one must be missed
    assert fit.matched == 5 and reproduced(fit.cuts, [1, 2, 3, 4, 5, 6], [0, 0, 1, 0, 1, 1]) == 5
    fit = fit_cuts([1, 1, 2], [0, 1, 1], 2)                     # equal values share a label
    assert fit.matched == 2
    fit = fit_cuts([3, 7], [0, 0], 3)                           # a label nobody has
    assert fit.matched == 2 and list(fit.cuts) == sorted(fit.cuts) and fit.cuts[0] > 7


def test_fit_cuts_is_optimal_and_monotone():
    rng = random.Random(0)
    for _ in range(150):
        k = rng.randint(2, 4)
        n = rng.randint(1, 8)
        values = [rng.randint(0, 6) for _ in range(n)]
        ranks = [rng.randrange(k) for _ in range(n)]
        fit = fit_cuts(values, ranks, k)
        assert len(fit.cuts) == k - 1 and list(fit.cuts) == sorted(fit.cuts)
        assert reproduced(fit.cuts, values, ranks) == fit.matched == brute_force(values, ranks, k)


# --- the commands on the repository's own corpus ---------------------------------------

@pytest.fixture
def akari_labels(tmp_path):
    """labels/akari.jsonl with five Akari puzzles in puzzles/ (found through the labels file's
    parent folder), one line without a label (the puzzle's own) and one missing file."""
    (tmp_path / "puzzles").mkdir()
    (tmp_path / "labels").mkdir()
    lines = [{"labels": ["easy", "tricky", "hard"]}]
    for i, (name, label) in enumerate(AKARI.items()):
        shutil.copy(CORPUS / "akari" / name, tmp_path / "puzzles" / name)
        lines.append({"puzzle": f"puzzles/{name}"} if i == 0 else {"puzzle": f"puzzles/{name}", "label": label})
    lines.append({"puzzle": "puzzles/missing.yaml", "label": "hard"})
    path = tmp_path / "labels" / "akari.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def test_validate_end_to_end(capsys, akari_labels):
    code, out, err = run(capsys, "validate", akari_labels, "--json", "--workers", "2")
    assert code == 0, err
    data = json.loads(out)
    assert data["puzzles"] == 6 and data["graded"] == 5 and data["not_graded"] == 1
    assert data["field"] == "difficulty" or (data["field"] == "score" and "difficulty" in data["note"])
    assert data["failures"][0]["id"] == "puzzles/missing.yaml" and "no such file" in data["failures"][0]["why"]
    whole, *sizes = data["groups"]
    assert whole["set"] == "akari.jsonl" and whole["count"] == 5
    assert [g["set"] for g in sizes] == ["7x7", "10x10"] and [g["count"] for g in sizes] == [4, 1]
    assert -1 <= whole["rho"] <= 1 and 0 <= whole["concordance"] <= 1
    assert {k: v["count"] for k, v in whole["labels"].items()} == {"easy": 2, "tricky": 1, "hard": 2}
    assert len(whole["worst_inversions"]) <= 2

    code, out, _ = run(capsys, "validate", akari_labels, "--field", "level", "--workers", "2")
    assert code == 0
    assert "field 'level'" in out and "rho" in out and "concordance" in out
    assert "not graded or not solved (1)" in out and "puzzles/missing.yaml" in out


def test_validate_inline_boards_take_the_genre_from_the_file_name(capsys, tmp_path):
    import yaml
    lines = []
    for name, label in (("singles-8x8de-grader-1.yaml", "easy"), ("singles-10x10dk-grader-1.yaml", "hard")):
        doc = yaml.safe_load((CORPUS / "hitori" / name).read_text())
        board = [[int(x) for x in row.split()] for row in doc["grid"].splitlines()]
        lines.append({"id": name, "board": board, "label": label})
    path = tmp_path / "hitori-sample.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    code, out, err = run(capsys, "validate", path, "--labels", "easy,hard", "--field", "score",
                         "--json", "--workers", "1")
    assert code == 0, err
    data = json.loads(out)
    assert data["graded"] == 2 and [g["set"] for g in data["groups"]] == ["hitori-sample.jsonl", "8x8", "10x10"]


def test_calibrate_round_trip_and_scale_on_grade_batch_report(capsys, akari_labels, tmp_path):
    scale_file = tmp_path / "house.yaml"
    code, out, err = run(capsys, "calibrate", akari_labels, "-o", scale_file, "--field", "score",
                         "--workers", "2")
    assert code == 0, err
    assert "reproduces" in out
    scale = load_scale(str(scale_file))
    assert scale.field == "score" and scale.labels == ("easy", "tricky", "hard")
    assert len(scale.cuts) == 2 and scale.cuts[0] <= scale.cuts[1] and 0 < scale.agreement <= 1

    puzzle = tmp_path / "puzzles" / "lightup-7x7b20s2d2-grader-1.yaml"
    code, out, _ = run(capsys, "grade", puzzle, "--scale", scale_file, "--json")
    row = json.loads(out)
    assert code == 0 and row["house_label"] == scale.label_for(row["score"])
    code, out, _ = run(capsys, "grade", puzzle, "--scale", scale_file)
    assert f"house label: {row['house_label']}" in out
    code, out, _ = run(capsys, "batch", tmp_path / "puzzles", "--scale", scale_file, "--workers", "1")
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 0 and all(r["house_label"] == scale.label_for(r["score"]) for r in rows)
    code, out, _ = run(capsys, "report", puzzle, "--scale", scale_file, "--json")
    assert json.loads(out)["house_label"] == row["house_label"] and "House label" in json.loads(out)["report"]


@pytest.mark.parametrize("text, words", [
    (None, ["cannot read the scale file"]),
    ("field: [", ["not valid YAML"]),
    ("- 1\n- 2\n", ["YAML mapping"]),
    ("field: score\nlabels: [a, b]\n", ["missing 'cuts'"]),
    ("field: score\nlabels: [a, b, c]\ncuts: [1]\n", ["3 labels need 2 cuts"]),
    ("field: score\nlabels: [a, b, c]\ncuts: [5, 1]\n", ["must not decrease"]),
    ("field: score\nlabels: [a, b]\ncuts: [x]\n", ["list of numbers"]),
    ("field: score\nlabels: [a, a]\ncuts: [1]\n", ["twice"]),
])
def test_bad_scale_file_is_one_line_exit_2(capsys, tmp_path, text, words):
    path = tmp_path / "scale.yaml"
    if text is not None:
        path.write_text(text)
    code, out, err = run(capsys, "grade", CORPUS / "akari" / "lightup-7x7b20s2d0-grader-1.yaml",
                         "--scale", path)
    one_line_error(code, out, err, str(path), *words)


def test_a_scale_for_a_field_the_grade_lacks_is_one_line_exit_2(capsys, tmp_path):
    path = tmp_path / "scale.yaml"
    path.write_text("field: no_such_figure\nlabels: [a, b]\ncuts: [1]\n")
    code, out, err = run(capsys, "grade", CORPUS / "akari" / "lightup-7x7b20s2d0-grader-1.yaml",
                         "--scale", path)
    one_line_error(code, out, err, str(path), "no_such_figure")


@pytest.mark.parametrize("lines, extra, words", [
    ([{"puzzle": "x.yaml", "label": "easy"}], [], ["no label order", "--labels"]),
    ([{"labels": ["easy", "hard"]}, {"puzzle": "x.yaml", "label": "medium"}], [], ["'medium'", ":2"]),
    ([{"labels": ["easy", "hard"]}, "not json"], [], ["not a JSON line", ":2"]),
    ([{"labels": ["easy", "hard"]}, {"label": "easy"}], [], ["'puzzle'", "'board'"]),
    ([{"board": [[1, 2], [2, 1]], "label": "easy"}], ["--labels", "easy,hard"], ["needs its genre"]),
    ([{"puzzle": "x.yaml", "label": "easy"}], ["--labels", "easy,easy"], ["named twice"]),
    ([{"labels": ["easy", "hard"]}], [], ["holds no puzzles"]),
])
def test_bad_labels_file_is_one_line_exit_2(capsys, tmp_path, lines, extra, words):
    path = tmp_path / "labels.jsonl"
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))
    code, out, err = run(capsys, "validate", path, *extra)
    one_line_error(code, out, err, *words)


def test_missing_labels_file_and_unknown_field(capsys, tmp_path, akari_labels):
    code, out, err = run(capsys, "validate", tmp_path / "nope.jsonl", "--labels", "a,b")
    one_line_error(code, out, err, "nope.jsonl", "no such labels file")
    code, out, err = run(capsys, "calibrate", tmp_path / "nope.jsonl", "--labels", "a,b")
    assert code == 2 and "-o" in err                        # calibrate needs its output
    code, out, err = run(capsys, "validate", akari_labels, "--field", "scroe", "--workers", "2")
    one_line_error(code, out, err, "--field", "scroe")


# --- the evaluation corpus --------------------------------------------------------------

def test_validate_arrows_labels_of_the_evaluation_corpus(capsys):
    path = shared("labels/arrows.jsonl")
    code, out, err = run(capsys, "validate", path, "--labels", "Easy,Normal,Hard,Devious",
                         "--field", "score", "--json", "--workers", "2")
    assert code == 0, err
    data = json.loads(out)
    assert data["puzzles"] == 23 and data["graded"] + data["not_graded"] == 23
    assert data["graded"] >= 20 and len(data["failures"]) == data["not_graded"]
    assert data["groups"][0]["rho"] > 0          # harder labels do score higher on the whole
