"""The benchmark's figures from rows made up here: its JSON keys, the growth slope and the
per-step slope, and tools/tatham/versus.py's summary and skip. No timings are asserted."""
from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

from grader.app.benchmark import summarise

ROOT = Path(__file__).resolve().parents[1]

GENRE_KEYS = {"genre", "puzzles", "solved", "solve_rate", "matches", "with_given_solution", "errors", "status",
              "levels", "level5_share", "median_difficulty", "median_effort", "median_s", "p95_s", "max_s",
              "puzzles_per_s", "slope", "slope_per_step"}
EXACT_KEYS = {"vs_exact_median", "vs_exact_p90", "exact_median_s"}


def row(cells: int, steps: int, seconds: float, **extra) -> dict:
    return {"genre": "akari", "status": "solved", "level": 2, "cells": cells, "steps": steps,
            "seconds": seconds, "difficulty": 3.0, "effort": 1.0, **extra}


def test_a_genre_has_exactly_its_keys_and_the_exact_ones_only_when_timed():
    (plain,) = summarise([row(100, 10, 0.1), row(400, 40, 0.4)], wall=1.0)
    assert set(plain) == GENRE_KEYS
    (timed,) = summarise([row(100, 10, 0.1, exact_s=0.05), row(400, 40, 0.4, exact_s=0.1)], wall=1.0)
    assert set(timed) == GENRE_KEYS | EXACT_KEYS and timed["vs_exact_median"] == pytest.approx(3.0)


def test_steps_that_grow_with_the_board_at_a_fixed_cost_each_give_a_flat_per_step_slope():
    # steps in proportion to the cells, each costing 1 ms: time is linear, a step costs the same
    (s,) = summarise([row(c, c // 10, c / 10_000) for c in (100, 400, 1600)], wall=1.0)
    assert s["slope"] == pytest.approx(1.0) and s["slope_per_step"] == pytest.approx(0.0)


def test_steps_that_rescan_the_board_give_a_per_step_slope_of_one():
    # the same steps, each costing time in proportion to the cells: quadratic, 1 per step
    (s,) = summarise([row(c, c // 10, (c // 10) * c * 1e-6) for c in (100, 400, 1600)], wall=1.0)
    assert s["slope"] == pytest.approx(2.0) and s["slope_per_step"] == pytest.approx(1.0)


def test_no_slopes_from_one_size_or_from_unsolved_and_stepless_rows():
    rows = [row(100, 10, 0.1), row(100, 20, 0.3), row(400, 0, 0.2),
            {**row(1600, 40, 9.0), "status": "stuck"}]
    (s,) = summarise(rows, wall=1.0)
    assert s["slope"] == pytest.approx(math.log(0.2 / math.sqrt(0.1 * 0.3)) / math.log(4), abs=0.01)
    assert s["slope_per_step"] is None          # the only rows with steps are all 100 cells
    assert s["solved"] == 3 and s["status"] == {"solved": 3, "stuck": 1}


# --- tools/tatham/versus.py ------------------------------------------------------------------

def versus():
    spec = importlib.util.spec_from_file_location("tatham_versus", ROOT / "tools" / "tatham" / "versus.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_versus_tatham_skips_with_a_message_where_his_solvers_are_not_built(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GRADER_TATHAM_BIN", str(tmp_path))
    assert versus().main(["--game", "bridges", "--count", "1"]) == 0
    out, err = capsys.readouterr()
    assert out == "" and "versus-tatham skipped" in err
    assert f"{tmp_path}/bridges-solve is not built: run tools/tatham/build.sh" in err


def test_versus_tatham_summary_takes_ratios_puzzle_by_puzzle_over_puzzles_both_solved():
    v = versus()
    made = {"game": "pattern", "status": "solved", "steps": 20, "his_program": "patternsolver", "his_program_s": 0.004}
    rows = [{**made, "our_s": 0.02, "his_s": 1e-5}, {**made, "our_s": 0.06, "his_s": 2e-5, "steps": 30},
            {**made, "status": "stuck", "our_s": 9.0, "his_s": 1e-5},
            {**made, "our_s": 0.01, "his_error": "unsolved: no solution"}]
    (s,) = v.summarise(rows)
    assert (s["game"], s["genre"], s["puzzles"], s["we_solved"], s["he_solved"]) == ("pattern", "picross", 4, 3, 3)
    assert s["ratio_median"] == 2500 and s["ratio_p90"] == 3000       # 2000 and 3000: both solved
    assert s["program_ratio_median"] == 10.0 and s["his_program"] == "patternsolver"
    assert s["our_median_steps"] == 25 and s["our_median_s"] == pytest.approx(0.04)
    assert "| pattern " in v.table([s]) and "not met" in v.table([s])
