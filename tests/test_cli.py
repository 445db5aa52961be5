"""The command line, end to end: outputs, --json, exit codes and one-line errors."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from grader.cli import main

HARD = "corpus/akari/lightup-7x7b20s2d2-grader-2.yaml"
TATHAM = "7x7:a2bBfBa300qB0Ba0f0bBa"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_grade_json_has_the_batch_fields_and_steps_per_level(capsys):
    code, out, _ = run(capsys, "grade", HARD, "--json")
    row = json.loads(out)
    assert code == 0
    for key in ("id", "genre", "status", "level", "score", "label", "unique", "matches_given_solution",
                "seconds", "steps_per_level", "bottlenecks"):
        assert key in row
    assert row["status"] == "solved" and row["unique"] is True and row["matches_given_solution"] is True
    assert row["level"] == 5


def test_grade_text_and_tatham_ids(capsys):
    code, out, _ = run(capsys, "grade", "--genre", "akari", TATHAM)
    assert code == 0 and "solved, level" in out and "steps per level" in out


def test_explain_lists_every_step_with_r3c4_cells(capsys):
    code, out, _ = run(capsys, "explain", HARD, "--boards")
    assert code == 0
    assert "1. [L1]" in out and "[L5] Trial and error" in out and out.rstrip().endswith("solved")
    code, out, _ = run(capsys, "explain", HARD, "--json")
    steps = json.loads(out)["steps"]
    assert all({"step", "level", "technique", "text", "board"} <= s.keys() for s in steps)


def test_solve_check_render_genres_heuristics(capsys):
    assert run(capsys, "solve", HARD)[0] == 0
    code, out, _ = run(capsys, "solve", HARD, "--json")
    assert json.loads(out)["solution"]["bulbs"]
    code, out, _ = run(capsys, "check", HARD, "--json")
    assert code == 0 and json.loads(out)["solutions"] == "unique"
    code, out, _ = run(capsys, "render", HARD, "--format", "svg")
    assert code == 0 and out.startswith("<svg")
    code, out, _ = run(capsys, "heuristics", "--genre", "akari", "--json")
    rows = json.loads(out)
    assert [r["level"] for r in rows] == sorted(r["level"] for r in rows)
    assert {r["level"] for r in rows} == {1, 2, 3, 4, 5}
    code, out, _ = run(capsys, "genres", "--json")
    assert "akari" in {r["genre"] for r in json.loads(out)}


def test_check_shows_two_differing_solutions(tmp_path, capsys):
    f = tmp_path / "two.yaml"
    f.write_text("genre: akari\ngrid: |\n  . . .\n")
    code, out, _ = run(capsys, "check", str(f), "--json")
    data = json.loads(out)
    assert code == 1 and data["solutions"] == "several" and data["differ_at"]
    assert data["examples"][0] != data["examples"][1]


def test_hint_stages_and_mistakes(tmp_path, capsys):
    marks = tmp_path / "marks.txt"
    marks.write_text("\n".join(["* . . . . . .", *[". " * 7] * 6]))
    code, out, _ = run(capsys, "hint", HARD, "--state", str(marks), "--json")
    data = json.loads(out)
    assert code == 1 and data["kind"] == "mistake"
    code, out, _ = run(capsys, "hint", HARD, "--stage", "answer")
    assert code == 0 and "Answer:" in out
    code, out, _ = run(capsys, "hint", HARD, "--why", "r4c4")
    assert code == 0 and "[L" in out


def test_batch_writes_one_row_per_puzzle_and_error_rows(tmp_path, capsys):
    (tmp_path / "good.yaml").write_text(open(HARD).read())
    (tmp_path / "bad.yaml").write_text("genre: akari\ngrid: |\n  . Q\n")
    (tmp_path / "notes.docx").write_bytes(b"PK\x03\x04")
    (tmp_path / "make.py").write_text("print('a generator script, not a puzzle')\n")
    out_file = tmp_path / "rows.jsonl"
    assert run(capsys, "batch", str(tmp_path), "-o", str(out_file))[0] == 0
    rows = [json.loads(l) for l in out_file.read_text().splitlines()]
    assert len(rows) == 3
    errors = " ".join(r["error"] for r in rows if r["status"] == "error")
    assert "bad.yaml:3:5" in errors and "notes.docx" in errors and "make.py" not in errors
    by_status = {r["status"]: r for r in rows}
    assert by_status["solved"]["level"] == 5


@pytest.mark.parametrize("argv, fragment", [
    (["grade", "nosuch.yaml"], "nosuch.yaml: no such file"),
    (["grade", "7x7:a2bBfBa300qB0Ba0f0bBa"], "add --genre"),
    (["hint", HARD, "--why", "r99c1"], "outside the 7x7 grid"),
    (["heuristics", "--genre", "chess"], "unknown genre"),
])
def test_bad_input_is_one_line_and_exit_code_2(capsys, argv, fragment):
    code, out, err = run(capsys, *argv)
    assert code == 2 and fragment in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("problem, fragment", [
    ('[["-", null], ["-", "-"]]', "'problem' has null at r1c2"),
    ('[3, ["-", "-"]]', "'problem' is not a grid"),
])
def test_a_damaged_janko_grid_is_one_line_and_exit_code_2(tmp_path, capsys, problem, fragment):
    record = tmp_path / "akari.jsonl"
    record.write_text('{"file": "/Akari/001.a.x-janko", "data": {"rows": 2, "cols": 2, '
                      f'"problem": {problem}}}}}\n')
    code, _, err = run(capsys, "grade", str(record))
    assert code == 2 and f"akari.jsonl:1 (problem): {fragment}" in err and err.count("\n") == 1


def test_no_traceback_from_the_real_console_script(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("genre: akari\ngrid: |\n  . . .\n  . 7 .\n")
    proc = subprocess.run([sys.executable, "-m", "grader.cli", "grade", str(bad)], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"error: {bad}:4:5: unexpected '7' in grid: expected '.' for a white cell, " \
                                  "'#' for a wall or 0-4 for a numbered wall"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_benchmark_counts_solved_and_matching_puzzles(capsys, workers):
    code, out, _ = run(capsys, "benchmark", "corpus/akari", "--limit", "3", "--workers", workers, "--json")
    (akari,) = json.loads(out)["genres"]
    assert code == 0 and akari["genre"] == "akari" and akari["puzzles"] == 3
    assert akari["solved"] == akari["matches"] == 3 and sum(akari["levels"].values()) == 3
    assert akari["median_s"] <= akari["p95_s"] <= akari["max_s"]
