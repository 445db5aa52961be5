"""The benchmark's figures from rows made up here: its JSON keys, the growth slope and the
per-step slope. No timings are asserted."""
from __future__ import annotations

import json
import math

import pytest

from grader.app.benchmark import summarise, write_rows

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


def test_rows_are_written_slowest_over_clingo_first(tmp_path):
    rows = [row(100, 10, 0.1, exact_s=0.05), row(400, 40, 0.4, exact_s=0.01), row(100, 5, 0.2),
            {"genre": "akari", "status": "error", "error": "bad file"}]
    write_rows(str(tmp_path / "rows.jsonl"), rows)
    back = [json.loads(line) for line in open(tmp_path / "rows.jsonl")]
    assert [r.get("vs_exact") for r in back] == [40.0, 2.0, None, None]
    assert back[2]["seconds"] == 0.2 and back[3]["status"] == "error"
