"""The scripts of tools/ that measure and check us against other programs: Tatham's solvers
(tools/tatham) and pzpr.js (tools/pzprjs). What needs no other program is tested here, on rows
and answers made up; the programs themselves are not needed, and no timings are asserted."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def script(path: str):
    """A tools/ script as a module (they are scripts, not packages; they import their neighbours)."""
    folder = str((ROOT / path).parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(Path(path).stem + "_under_test", ROOT / path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def versus():
    return script("tools/tatham/versus.py")


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


# --- tools/tatham/check_ids.py ----------------------------------------------------------------

def test_our_loop_edges_land_where_loopys_text_board_draws_them():
    check = script("tools/tatham/check_ids.py")
    assert check.loop_edge("the top of r1c1") == ("h", 0, 0)
    assert check.loop_edge("the bottom of r6c2") == ("h", 6, 1)
    assert check.loop_edge("r1c2|r2c2") == ("h", 1, 1)        # below r1c2
    assert check.loop_edge("the left of r3c1") == ("v", 2, 0)
    assert check.loop_edge("r1c4|r1c5") == ("v", 0, 4)        # right of r1c4
    # Loopy's board of a 1x1 loop round one cell: dots and edges, then the cell row
    assert check.his_answer("loopy", "", [" - ", "|3|", " - "]) == \
        {check.loop_edge(n) for n in ("the top of r1c1", "the bottom of r1c1", "the left of r1c1", "the right of r1c1")}


def test_his_moves_read_as_our_cells():
    check = script("tools/tatham/check_ids.py")
    assert check.his_answer("lightup", "S;L0,2;I1,3;L9,9", []) == {"r3c1", "r10c10"}   # x,y; I is no light
    assert check.his_answer("range", "SW,1,1B,2,3", []) == {"r3c4"}                   # row,column
    assert check.his_answer("bridges", "S;N0,0,3,0;L0,0,0,2,1;L3,0,3,2,0", []) == {("r1c1", "r3c1", 1)}
    assert check.his_answer("pattern", "S0110", []) == {1, 2}


def test_our_answers_as_his_moves():
    check = script("tools/tatham/check_ids.py")
    # a loop round the four cells of a 2x2 Pearl: R 1, U 2, L 4, D 8
    loop = {((0, 0), (0, 1)), ((1, 0), (1, 1)), ((0, 0), (1, 0)), ((0, 1), (1, 1))}
    assert check.his_move("pearl", loop, 2, 2) == "R9,0,0;R12,1,0;R3,0,1;R6,1,1"
    assert check.his_move("pattern", {0, 3}, 2, 2) == "E0,0,2,2\nF0,0,1,1\nF1,1,1,1"
    assert check.his_move("range", {"r1c2"}, 2, 2) == "B,0,1"
    assert check.his_move("loopy", set(), 2, 2) is None


def test_a_solver_that_stops_short_is_told_apart_from_one_that_disagrees():
    check = script("tools/tatham/check_ids.py")
    assert check.compare({1, 2}, {1, 2}) == "same solution"
    assert check.compare({1}, {1, 2}).startswith("his solver stops short: 1 of our 2")
    assert check.compare({1, 3}, {1, 2}).startswith("differ")


# --- tools/pzprjs/check.py ---------------------------------------------------------------------

def test_our_answers_as_pzpr_board_coordinates():
    pz = script("tools/pzprjs/check.py")
    assert pz.cell_xy("r1c1") == (1, 1) and pz.cell_xy("r3c4") == (7, 5)
    assert pz.answer("akari", {"bulbs": ["r2c3"]}) == {"cells": [(5, 3)]}
    assert pz.answer("hashiwokakero", {"bridges": [{"from": "r1c1", "to": "r1c4", "count": 2}]}) == \
        {"lines": [[1, 1, 7, 1, 2]]}
    assert pz.answer("slitherlink", {"links": ["the top of r1c1", "the left of r1c1"]}) == \
        {"lines": [[1, 0, 1, 0, 1], [0, 1, 0, 1, 1]]}
    assert pz.answer("numberlink", {"paths": {"1": ["r1c1", "r1c2", "r2c2"]}}) == \
        {"lines": [[2, 1, 2, 1, 1], [3, 2, 3, 2, 1]]}
    # a loop round four cells, a shaded cell and a clue cell: e and s draw each link once
    assert pz.answer("yajilin", ["se sw x", "ne nw -"]) == \
        {"cells": [(5, 1)], "lines": [[2, 1, 2, 1, 1], [1, 2, 1, 2, 1], [3, 2, 3, 2, 1], [2, 3, 2, 3, 1]]}


def test_pzpr_writing_the_same_clues_differently_still_counts_as_the_same():
    pz = script("tools/pzprjs/check.py")
    url = "https://puzz.link/p?lightup/6/6/..g.h.j.an0.j.h70."
    assert pz.same_clues(url, "http://pzv.jp/p.html?akari/6/6/..g.h.j.an0.j.h70./") == "same clues"
    assert pz.same_clues(url, "http://pzv.jp/p.html?akari/6/6/..g.h.j.an0.j.h71./").startswith("clues differ")


def test_a_token_npms_pzpr_does_not_read_is_not_checkable_rather_than_wrong():
    pz = script("tools/pzprjs/check.py")
    assert pz.unreadable("yajilin", "https://puzz.link/p?yajilin/10/10/+c+g20e").startswith("not checkable")
    assert pz.unreadable("yajilin", "https://puzz.link/p?yajilin/5/5/m32j10") is None
    assert pz.unreadable("akari", "https://puzz.link/p?lightup/6/6/..g.h.j.an0.j.h70.") is None
