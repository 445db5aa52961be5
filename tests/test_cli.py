"""The command line, end to end: outputs, --json, exit codes and one-line errors."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from grader.app.cli import main

HARD = "corpus/akari/lightup-7x7b20s2d2-grader-2.yaml"       # needs level 4
TRIAL = "corpus/arrows/arrows-5x5-straight-L5-s1.yaml"        # needs a trial (level 5)
TATHAM = "7x7:a2bBfBa300qB0Ba0f0bBa"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_grade_json_has_the_batch_fields_and_steps_per_level(capsys):
    code, out, _ = run(capsys, "grade", TRIAL, "--json")
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
    assert "of 10, effort about" in out and "label " in out


def test_grade_text_says_why_the_label_and_counts_many_hardest_steps(capsys, tmp_path):
    code, out, _ = run(capsys, "grade", "corpus/slitherlink/tiers/loopy-10x10t0dt-labels-1.yaml")
    assert "label expert: level 3 is hard, moved up one because the path leans on level 3" in out
    code, out, _ = run(capsys, "grade", "corpus/slitherlink/loopy-10x10t0de-grader-1.yaml")
    assert "label easy: the label of level 1" in out
    assert "hardest steps: 168 at level 1, the first is step 1" in out
    blank = tmp_path / "blank.yaml"
    blank.write_text("genre: akari\ngrid: |\n  # . .\n  . . .\n  . . #\n")
    code, out, _ = run(capsys, "grade", str(blank))
    assert "stuck, no step, label unsolved" in out and "level 0" not in out
    assert "steps per level: none" in out and "hardest steps" not in out


def test_explain_lists_every_step_with_r3c4_cells(capsys):
    code, out, _ = run(capsys, "explain", TRIAL, "--boards")
    assert code == 0
    assert "1. [L1]" in out and "[L5] A long trial" in out and out.rstrip().endswith("solved")
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
    first = rows[0]
    assert first["description"].startswith("The bulb at <bulb> lights its row and column")
    code, out, _ = run(capsys, "heuristics", "--genre", "akari")
    assert "what it finds" in out and "A satisfied wall" in out and "<wall>" in out
    code, out, _ = run(capsys, "heuristics")        # every genre: the catalogue in Markdown
    assert code == 0 and out.startswith("# Techniques by genre and level") and "| picross.glue " in out
    code, out, _ = run(capsys, "heuristics", "--json")
    rows = json.loads(out)
    assert {"akari", "numberlink"} <= {r["genre"] for r in rows}
    assert not next(r for r in rows if r["id"] == "nurikabe.island-cases")["counted"]
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


def test_a_board_with_every_bulb_and_no_other_mark_is_solved(tmp_path, capsys):
    """A player need not mark the cells that stay empty: the bulbs determine the solution."""
    puzzle = "corpus/akari/lightup-7x7b20s2d0-grader-1.yaml"
    solution = open(puzzle).read().split("solution: |\n")[1]
    marks = tmp_path / "bulbs.txt"
    marks.write_text(solution.replace("  ", ""))
    code, out, _ = run(capsys, "hint", puzzle, "--state", str(marks), "--json")
    assert code == 0 and json.loads(out)["kind"] == "solved"
    marks.write_text(solution.replace("  ", "").replace("*", ".", 1))     # one bulb missing
    code, out, _ = run(capsys, "hint", puzzle, "--state", str(marks), "--json")
    assert json.loads(out)["kind"] == "step"


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
    assert by_status["solved"]["level"] == 4


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
    proc = subprocess.run([sys.executable, "-m", "grader.app.cli", "grade", str(bad)], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"error: {bad}:4:5: unexpected '7' in grid: expected '.' for a white cell, " \
                                  "'#' for a wall or 0-4 for a numbered wall"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_benchmark_counts_solved_and_matching_puzzles(capsys, workers):
    code, out, _ = run(capsys, "benchmark", "corpus/akari", "--limit", "3", "--workers", workers, "--json",
                       "--versus-exact", "--no-startup")
    result = json.loads(out)
    (akari,) = result["genres"]
    assert code == 0 and akari["genre"] == "akari" and akari["puzzles"] == 3
    assert akari["solved"] == akari["matches"] == 3 and sum(akari["levels"].values()) == 3
    assert akari["median_s"] <= akari["p95_s"] <= akari["max_s"]
    assert 0 < akari["vs_exact_median"] <= akari["vs_exact_p90"] and akari["exact_median_s"] > 0
    assert result["startup"] is None


def test_benchmark_growth_slope_and_startup():
    from grader.app.benchmark import growth_slope, startup
    assert growth_slope([(100, 1.0), (400, 4.0), (1600, 16.0)]) == pytest.approx(1.0)
    assert growth_slope([(100, 1.0), (400, 16.0)]) == pytest.approx(2.0)
    assert growth_slope([(100, 1.0), (100, 2.0)]) is None          # one size: no slope
    start = startup(runs=1)
    assert start["grade_7x7_s"] > start["python_s"] > 0 and start["ratio"] > 1
    assert start["grade_7x7_cpu_s"] > start["python_cpu_s"] > 0 and start["cpu_ratio"] > 1


def test_grade_imports_only_what_it_needs():
    """Start-up: grading one puzzle loads its genre alone and none of the heavy modules other
    commands use (the exact solver, reports, the web server, the rule language, board files)."""
    code = ("import sys; from grader.app.cli import main; main(['grade', '7x7:a2cBlBb01c0Bb2l2c1a', "
            "'--genre', 'akari', '--no-unique']); print(' '.join(sorted(sys.modules)), file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0
    loaded = set(proc.stderr.split())
    assert not loaded & {"clingo", "tabulate", "starlette", "uvicorn", "lark", "tqdm", "grader.io.pzprv3",
                         "grader.app.scale", "grader.app.answers", "grader.dsl"}
    assert sorted(m for m in loaded if m.startswith("grader.genres.") and m.endswith(".model")) == [
        "grader.genres.akari.model"]


# --- the README's exit codes, claim by claim ------------------------------------------------

SEVERAL = "genre: akari\ngrid: |\n  . . .\n"          # three cells, one bulb: several solutions
NONE = "genre: akari\ngrid: |\n  . 4 .\n"             # a 4 with two neighbours: no solution
# Our own Numberlink board (corpus/numberlink/arukone-5x5-grader-1.yaml as numlin): the
# player drew r2c5 as a corner up and left, where the only solution goes straight down. No
# rule is broken yet, but the mark rules out the solution: a mistake for check as for hint.
NUMLIN_WRONG = ("pzprv3\nnumlin\n5\n5\n. . 1 2 . \n1 3 . . . \n4 . 5 . . \n. 5 6 3 . \n. 4 . 6 2 \n"
                "0 0 0 0 \n0 0 0 1 \n0 0 0 0 \n0 0 0 0 \n0 0 0 0 \n"
                "0 0 0 0 1 \n0 0 0 0 0 \n0 0 0 0 0 \n0 0 0 0 0 \n")


def puzzle_file(tmp_path, text: str, name: str = "p.yaml") -> str:
    f = tmp_path / name
    f.write_text(text)
    return str(f)


@pytest.mark.parametrize("argv", [["grade", HARD], ["solve", HARD], ["explain", HARD], ["check", HARD],
                                  ["report", HARD], ["hint", HARD]])
def test_exit_0_when_done(capsys, argv):
    assert run(capsys, *argv)[0] == 0


@pytest.mark.parametrize("command", ["grade", "solve", "explain", "check", "report"])
@pytest.mark.parametrize("text", [SEVERAL, NONE], ids=["several", "none"])
def test_exit_1_for_no_or_several_solutions(tmp_path, capsys, command, text):
    code, out, err = run(capsys, command, puzzle_file(tmp_path, text))
    assert code == 1 and out and not err


def test_exit_1_when_the_techniques_get_stuck_contradict_or_run_out_of_budget(tmp_path, capsys):
    code, out, _ = run(capsys, "grade", puzzle_file(tmp_path, SEVERAL))
    assert code == 1 and "stuck" in out
    code, out, _ = run(capsys, "grade", puzzle_file(tmp_path, NONE))
    assert code == 1 and "contradiction" in out
    for command in ("grade", "explain", "report"):
        code, out, _ = run(capsys, command, HARD, "--max-steps", "2")
        assert code == 1 and "budget" in out, command


def test_exit_1_when_a_hint_or_check_finds_a_mistake(tmp_path, capsys):
    board = puzzle_file(tmp_path, NUMLIN_WRONG, "board.txt")
    code, out, _ = run(capsys, "hint", board)
    assert code == 1 and out.strip() == "Something in row 2 is not right."      # the first stage
    code, out, _ = run(capsys, "hint", board, "--stage", "answer")
    assert code == 1 and out.startswith("The mark at r2c5 is wrong: r2c5 ")
    code, out, _ = run(capsys, "check", board, "--json")
    assert code == 1 and json.loads(out)["board"] == {"status": "mistake", "broken": [], "wrong": ["r2c5"]}


def test_exit_1_when_hint_finds_no_next_step(tmp_path, capsys):
    # two solutions (bulbs on either diagonal) and no technique tells them apart
    code, out, _ = run(capsys, "hint", puzzle_file(tmp_path, "genre: akari\ngrid: |\n  . .\n  . .\n"), "--json")
    assert code == 1 and json.loads(out)["kind"] == "stuck"


@pytest.mark.parametrize("argv, fragment", [
    ([], "the following arguments are required: command"),
    (["grade"], "grader grade: the following arguments are required: puzzle"),
    (["solve", HARD, "--format", "pdf"], "argument --format: invalid choice: 'pdf'"),
    (["grade", HARD, "--max-seconds", "soon"], "invalid float value: 'soon'"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    (["grade", HARD, "--no-such-option"], "unrecognized arguments: --no-such-option"),
    (["report"], "give either a PUZZLE or --corpus RESULTS"),
])
def test_usage_errors_are_one_line_and_exit_2(capsys, argv, fragment):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.startswith("error: ") and fragment in err, err
    assert err.count("\n") == 1 and "usage:" not in err


def test_report_corpus_refuses_a_file_without_batch_rows(tmp_path, capsys):
    empty = puzzle_file(tmp_path, "", "rows.jsonl")
    code, out, err = run(capsys, "report", "--corpus", empty)
    assert code == 2 and out == "" and "holds no batch rows" in err and err.count("\n") == 1


def test_exit_3_for_an_internal_error_in_one_line(capsys, monkeypatch):
    from grader.core import analysis

    def broken(*args, **kwargs):
        raise RuntimeError("a bug of ours")

    monkeypatch.setattr(analysis, "analyse", broken)
    code, out, err = run(capsys, "grade", HARD)
    assert code == 3 and err == "internal error: RuntimeError: a bug of ours (set GRADER_DEBUG=1 for details)\n"


# --- every command takes --json, and prints JSON with it ------------------------------------

def json_commands(tmp_path) -> list[list[str]]:
    marks = puzzle_file(tmp_path, "\n".join(["* . . . . . .", *[". " * 7] * 6]), "marks.txt")
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "p.yaml").write_text(open(HARD).read())
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"id": "p", "genre": "akari", "status": "solved", "level": 2, "label": "medium", '
                    '"seconds": 0.1}\n')
    labels = tmp_path / "labels.jsonl"
    labels.write_text('{"labels": ["easy", "hard"]}\n{"puzzle": "folder/p.yaml", "label": "hard"}\n')
    house = str(tmp_path / "house.yaml")
    return [["grade", HARD], ["solve", HARD], ["explain", HARD], ["hint", HARD],
            ["hint", HARD, "--state", marks], ["hint", HARD, "--why", "r4c4"], ["check", HARD],
            ["render", HARD], ["batch", str(folder), "--no-unique"], ["report", HARD],
            ["report", "--corpus", str(rows)], ["genres"], ["heuristics", "--genre", "akari"],
            ["benchmark", str(folder), "--no-unique"],
            ["generate", "--genre", "arrows", "--size", "4x4", "--attempts", "3"],
            ["validate", str(labels), "--workers", "1", "--no-unique"],
            ["calibrate", str(labels), "-o", house, "--workers", "1", "--no-unique"]]


def test_every_command_is_covered_by_the_json_test(tmp_path):
    from grader.app.cli import build_parser
    commands = next(a for a in build_parser()._actions if a.dest == "command").choices
    printing = {name for name, sub in commands.items()      # all but the server (grader play)
                if any("--json" in a.option_strings for a in sub._actions)}
    assert set(commands) - printing == {"play"}
    assert printing == {argv[0] for argv in json_commands(tmp_path)}


def test_every_command_prints_json_with_json(tmp_path, capsys):
    for argv in json_commands(tmp_path):
        code, out, err = run(capsys, *argv, "--json")
        assert code in (0, 1), (argv, err)
        lines = out.splitlines()
        assert lines, argv
        for line in lines if argv[0] == "batch" else [out]:
            json.loads(line)                                # raises on Markdown or text


def test_report_json_carries_the_grade_and_the_report(capsys):
    code, out, _ = run(capsys, "report", TRIAL, "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "solved" and data["level"] == 5
    assert data["format"] == "md" and data["report"].startswith("# ")


def test_max_seconds_help_says_what_it_bounds(capsys):
    with pytest.raises(SystemExit):
        main(["grade", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "deadline" in text and "the last step can run over it" in text and "time budget" not in text


def test_check_and_hint_agree_on_every_pzprjs_board(tmp_path, capsys):
    """check's 'mistake' is hint's 'mistake' or 'contradiction', on each board of pzprjs's
    checker (branches and crossings of Numberlink lines among them)."""
    from grader.io import pzprv3
    from support import shared
    extract = json.loads(shared("pzprjs/pzprjs_testscript_extract.json").read_text(encoding="utf-8"))
    compared = 0
    for pid, entry in extract["genres"].items():
        if pid not in pzprv3.CONVERTERS:
            continue
        for n, item in enumerate(entry["failcheck"]):
            if pzprv3.Board(item["board"], pid).at_end:
                continue        # the header alone: nothing played to judge (and many solutions)
            board = puzzle_file(tmp_path, item["board"], f"{pid}-{n}.txt")
            code, out, _ = run(capsys, "check", board, "--json")
            if code == 2 or "board" not in json.loads(out):
                continue                                  # a variant we refuse, or no board to judge
            hint_code, hint_out, _ = run(capsys, "hint", board, "--json")
            checked = json.loads(out)["board"]["status"] == "mistake"
            hinted = json.loads(hint_out)["kind"] in ("mistake", "contradiction")
            assert checked == hinted, (pid, item["failcode"], out, hint_out)
            if checked:
                assert code == hint_code == 1, (pid, item["failcode"])
            compared += 1
    assert compared >= 60
