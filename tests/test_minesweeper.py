"""Minesweeper: each technique fires where it should (with what it finds) and not elsewhere;
every deduction agrees with the unique solution on real puzzles; the formats (Tatham Mines
unmasking and opening included) read what FORMATS.md says and bad input gives one line."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from grader.core.engine import Solver
from grader.core.errors import InputError, Source
from grader.io.read import from_record, load
from grader.io.janko import Record
from grader.genres import get
from grader.genres.minesweeper.model import UNKNOWN, MinesPuzzle, decode_layout
from grader.io.tatham import unmask_bitmap as unmask
from grader.core.registry import REGISTRY
from grader.core.steps import Status
from support import (CORPUS, assert_corpus_solves, assert_each_finds_only_truths, assert_sound_from_partial_states,
                     assert_puzzles_solved_soundly, cyclic_garbage_of_solve, decided_by, fires, found, janko, native, reference)
from support import marks as read_marks

MINES = get("minesweeper")


def puzzle(grid: str, total: int | None = None):
    head = "genre: minesweeper\n" + (f"mines: {total}\n" if total is not None else "")
    return native(head + "grid: |\n" + "".join(f"  {row}\n" for row in grid.strip().split("/")))


def marks(p, grid: str):
    """Marks written with "/" between rows, like the puzzles here."""
    return read_marks(p, grid.replace("/", "\n"))


# Unique, but levels 1 and 2 get stuck on it (found by a random search).
DEEP = puzzle(". . 2 . 1/. 2 . . ./. . 4 . 3/2 . . 3 .")


# --- level 1 -------------------------------------------------------------------------------

def test_broken_number():
    p = puzzle(". 1 ./. . .")
    assert fires("minesweeper.broken-number", p, marks(p, "* 1 */. . ."))[0].params["problem"] == \
        "already touches 2 mines"
    assert fires("minesweeper.broken-number", p) == []


def test_number_satisfied():
    p = puzzle(". 1 ./. . .")
    assert found("minesweeper.number-satisfied", p, marks(p, "* 1 ./. . .")) == {
        "r1c3": "is safe", "r2c1": "is safe", "r2c2": "is safe", "r2c3": "is safe"}
    assert found("minesweeper.number-satisfied", p) == {}
    assert set(found("minesweeper.number-satisfied", puzzle("0 ./. ."))) == {"r1c2", "r2c1", "r2c2"}


def test_number_needs_all():
    assert found("minesweeper.number-needs-all", puzzle("3 ./. .")) == {
        "r1c2": "holds a mine", "r2c1": "holds a mine", "r2c2": "holds a mine"}
    assert found("minesweeper.number-needs-all", puzzle("2 ./. .")) == {}


def test_mine_count():
    p = puzzle("1 . ./. . .", total=1)
    s = marks(p, "1 * ./. . .")
    assert found("minesweeper.no-mines-left", p, s) == {"r1c3": "is safe", "r2c1": "is safe",
                                                        "r2c2": "is safe", "r2c3": "is safe"}
    assert found("minesweeper.no-mines-left", p) == {}
    full = puzzle("? . ./. . .", total=5)
    assert len(found("minesweeper.all-left-are-mines", full)) == 5
    assert found("minesweeper.all-left-are-mines", p) == {}
    assert found("minesweeper.no-mines-left", puzzle("1 ./. .")) == {}     # no total given


# --- level 2 -------------------------------------------------------------------------------

def test_subset():
    p = puzzle(". . ./1 1 1")
    assert found("minesweeper.subset", p) == {"r1c1": "is safe", "r1c3": "is safe"}
    assert found("minesweeper.subset", puzzle(". ./1 1")) == {}


def test_overlap():
    p = puzzle(". . . ./? 1 2 ?")
    assert found("minesweeper.overlap", p) == {"r1c1": "is safe", "r1c4": "holds a mine"}
    assert found("minesweeper.overlap", puzzle(". . . ./? 1 1 ?")) == {}


def test_combinations():
    p = puzzle(". . ./1 1 1")
    assert found("minesweeper.combinations", p) == {"r1c1": "is safe", "r1c2": "holds a mine", "r1c3": "is safe"}
    assert found("minesweeper.combinations", puzzle(". ./1 1")) == {}


def test_remembered_combinations_match_fresh_ones():
    """legal_combinations is remembered with the candidates it read: in every state of a solve
    (and of random narrowings of them) it answers as a fresh computation does."""
    from heuristics.minesweeper import _legal_combinations, legal_combinations
    from grader.genres.minesweeper.model import number_counts
    rng = random.Random(7)
    for p in janko("minesweeper", 3, seed=5, max_cells=100) + [DEEP]:
        states = [s for _, s, _ in Solver(p).solve().states()]
        states += [s.remove([(v, s.cands[v] & -s.cands[v])]) for s in states for v in
                   rng.sample(range(len(s.cands)), 3) if s.cands[v] & (s.cands[v] - 1)]
        for state in states:
            for i in p.numbers:
                mines, free = number_counts(p, state, i)
                need = p.board[i] - mines
                if free and 0 < need < len(free):
                    assert legal_combinations(p, state, i, need, free) == \
                        _legal_combinations(p, state, i, need, free)


# --- level 4 -------------------------------------------------------------------------------

def test_mine_count_regions():
    p = puzzle("1 . . ./. . . .", total=1)
    assert found("minesweeper.mine-count-regions", p) == {
        "r1c3": "is safe", "r1c4": "is safe", "r2c3": "is safe", "r2c4": "is safe"}
    assert found("minesweeper.mine-count-regions", puzzle("1 . . ./. . . .", total=2)) == {}
    assert found("minesweeper.mine-count-regions", puzzle("1 . . ./. . . .")) == {}


# --- level 5 -------------------------------------------------------------------------------

def test_area_search():
    stuck = Solver(DEEP, max_level=2).solve()
    assert stuck.status is Status.STUCK
    # + . 2 + 1 / + 2 . . . / . . 4 * 3 / 2 . * 3 *: the area around the 2 at r1c3 settles
    got = fires("minesweeper.area-search", DEEP, stuck.final)
    assert str(got[0].params["cell"]) == "r1c3"
    assert decided_by(got[:1], DEEP, stuck.final) == {
        "r1c2": "holds a mine", "r2c3": "is safe", "r2c4": "holds a mine", "r2c5": "is safe",
        "r3c1": "holds a mine", "r3c2": "is safe", "r4c2": "holds a mine"}
    solution = reference(DEEP)
    assert all(not mask & solution.cands[v] for d in got for v, mask in d.removals)
    assert found("minesweeper.area-search", puzzle(". ./1 1")) == {}


def test_level_5_where_easier_levels_stop():
    # DEEP needs a search over an area (level 3); from where levels 1-2 stop, following each
    # way around a number (or each value of a cell) must find something, and only true things.
    stuck = Solver(DEEP, max_level=2).solve()
    assert_each_finds_only_truths(DEEP, stuck.final, reference(DEEP),
                                  ("minesweeper.number-cases", "minesweeper.trial-and-error"))
    assert Solver(DEEP).solve().status is Status.SOLVED


def test_level_5_finds_nothing_without_a_unique_answer():
    p = puzzle(". ./1 1")                  # the mine may be either cell
    assert fires("minesweeper.number-cases", p) == []
    assert fires("minesweeper.trial-and-error", p) == []


# --- soundness on real puzzles --------------------------------------------------------------

def test_sound_on_janko_sample():
    assert_puzzles_solved_soundly(janko("minesweeper", 8, seed=2, max_cells=100))


def test_every_heuristic_sound_from_random_partial_states():
    assert_sound_from_partial_states(janko("minesweeper", 4, seed=9, max_cells=100) + [DEEP],
                                     REGISTRY.for_genre("minesweeper", 4), random.Random(4),
                                     (0.1, 0.3, 0.6), rounds=4)


def test_tatham_corpus_solves():
    assert_corpus_solves("minesweeper")


# --- Simon Tatham's Mines --------------------------------------------------------------------

def test_unmask_test_vector():
    # FORMATS.md: the 28-bit 1234567 masks to 07FA650
    data = bytearray(bytes.fromhex("07FA6500"))
    assert unmask(data, 28).hex() == "12345670"


def test_tatham_example_layout_and_opening():
    layout = decode_layout(6, 6, "b2f9ec1b1", True, Source("<id>"))
    assert [i for i, m in enumerate(layout) if m] == [3, 11, 12, 15, 17, 19, 30]
    p = load("6x6:5,4,mb2f9ec1b1", "minesweeper")
    assert p.total == 7 and p.solution == frozenset({3, 11, 12, 15, 17, 19, 30})
    # the opening of FORMATS.md is revealed, and more only where our techniques proved it safe
    opening = {(3, 2): 2, (3, 3): 1, (3, 4): 2, (3, 5): 1, (4, 1): 2, (4, 2): 1, (4, 3): 0, (5, 1): 1}
    for (r, c), n in opening.items():
        assert p.board[r * 6 + c] == n
    assert Solver(p).solve().status is Status.SOLVED
    assert reference(p) == MINES.solution_state(p)


@pytest.mark.parametrize("spec, message", [
    ("6x6:r6,u,abcdef", "cannot be imported"),
    ("6x6:mb2f9ec1b1", "no first click"),
    ("6x6:9,4,mb2f9ec1b1", "outside"),
    ("6x6:5,4,mb2f9", "hex digits"),
    ("6x6n8:5,4,mb2f9ec1b1", "the params say 8 mines but the layout has 7"),
    ("6x6:0,2,u101950020", "is a mine"),
])
def test_bad_tatham(spec, message):
    with pytest.raises(InputError) as exc:
        load(spec, "minesweeper")
    assert message in str(exc.value)


# --- other formats ---------------------------------------------------------------------------

def test_puzzlink_example():
    p = load("https://puzz.link/p?mines/5/5/g2m13l13g0j")
    assert MINES.render_text(p).replace(" ", "").splitlines() == [".2...", "....1", "3....", "..13.", "0...."]
    sol = reference(p)
    assert MINES.render_text(p, sol).replace("+", ".").replace(" ", "").splitlines() == [
        ".2...", "**..1", "3*..*", "..13*", "0...*"]


def test_janko_record_with_void_and_total():
    src = Source("t.jsonl:1")
    rec = {"rows": 2, "cols": 3, "mines": 1, "problem": [["1", "-", "x"], ["1", "1", "1"]],
           "solution": [["-", "x", "-"], ["-", "-", "."]]}
    p = from_record(Record("minesweeper/1", "Minesweeper", rec, src))
    assert p.total == 1 and p.board[2] != UNKNOWN and p.solution == frozenset({1})
    assert reference(p) == MINES.solution_state(p)


def test_native_round_trip():
    from grader.io.native import dump
    p = load(str(sorted((CORPUS / "minesweeper").glob("*.yaml"))[0]))
    again = native(dump(MINES.to_native(p)))
    assert (again.board, again.total, again.solution) == (p.board, p.total, p.solution)


def test_shared_grid_plumbing_counts_all_eight_cells_around():
    p = puzzle("1 . ./. 3 ./. . .")
    assert p.cell(p.index(2, 1)) == p.cell(7) and str(p.cell(7)) == "r3c2"
    assert sorted(p.surrounding[0]) == [1, 3, 4] and len(p.surrounding[4]) == 8
    assert sorted(p.neighbours[4]) == [1, 3, 5, 7]           # GridPuzzle's: orthogonal only
    solved = MINES.state_from_model(p, [])
    assert MINES.answer_json(p, solved) == {"mines": []} and MINES.answer_asp(p, solved) == ""



def test_surrounding_cells_in_reading_order_made_once_per_size():
    from grader.genres.minesweeper.model import surrounding_cells
    rows, cols = 3, 4
    want = tuple(tuple(r2 * cols + c2 for r2 in (r - 1, r, r + 1) for c2 in (c - 1, c, c + 1)
                       if (r2, c2) != (r, c) and 0 <= r2 < rows and 0 <= c2 < cols)
                 for r in range(rows) for c in range(cols))
    assert surrounding_cells(rows, cols) == want
    assert surrounding_cells(rows, cols) is surrounding_cells(rows, cols)

@pytest.mark.parametrize("text, message, where", [
    ("genre: minesweeper\ngrid: |\n  . 9\n", "9 is not a Minesweeper number", (3, 5)),
    ("genre: minesweeper\ngrid: |\n  . z\n", "unexpected 'z'", (3, 5)),
    ("genre: minesweeper\nmines: 5\ngrid: |\n  . 1\n", "5 mines do not fit in 1 unknown cells", (2, None)),
    ("genre: minesweeper\nmines: lots\ngrid: |\n  . 1\n", "'mines' must be a whole number", (2, None)),
])
def test_bad_native(text, message, where):
    with pytest.raises(InputError) as exc:
        native(text, "bad.yaml")
    assert message in str(exc.value)
    assert (exc.value.line, exc.value.column) == where


def test_bad_janko_and_puzzlink():
    src = Source("t.jsonl:1")
    with pytest.raises(InputError, match="above 8"):
        from_record(Record("minesweeper/1", "Minesweeper", {"size": 1, "problem": [["9"]]}, src))
    with pytest.raises(InputError, match="above 8"):
        load("https://puzz.link/p?mines/2/1/9g")


def test_cli_bad_input_exit_2(tmp_path: Path, capsys):
    f = tmp_path / "bad.yaml"
    f.write_text("genre: minesweeper\ngrid: |\n  . 9\n")
    from grader.app.cli import main
    assert main(["grade", str(f)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "bad.yaml:3:5" in err


def test_render_and_violations():
    p = load("https://puzz.link/p?mines/5/5/g2m13l13g0j")
    sol = reference(p)
    assert "hl-target" in MINES.render_svg(p, sol, [("target", [0])])
    assert MINES.violations(p, sol) == []
    assert MINES.answer_asp(p, sol).splitlines()[0] == "mine(1,0)."
    s = marks(p, "* 2 * . ./* . . . 1/3 . . . ./. . 1 3 ./0 . . . .")
    assert any("the 2 at r1c2 touches 3 mines" in v.message for v in MINES.violations(p, s))
    assert isinstance(p, MinesPuzzle)


@pytest.mark.parametrize("text, answer", [
    ("mines: 0\ngrid: |\n  . . .\n", "+ + +"),                   # no mines at all
    ("mines: 3\ngrid: |\n  . .\n  . 3\n", "* *\n* 3"),          # every covered cell a mine
])
def test_degenerate_boards_solve(text, answer):
    p = native("genre: minesweeper\n" + text)
    trace = Solver(p, assume_unique=False).solve()
    assert trace.status is Status.SOLVED and get("minesweeper").render_text(p, trace.final) == answer


def test_a_solve_leaves_no_cycles():
    """A solve's area searches are freed as soon as they end (a search that calls itself as a
    closure is a cycle, left to the collector)."""
    first, p = janko("minesweeper", 2, seed=1, max_cells=100)
    assert cyclic_garbage_of_solve(p, warm_up=first) == 0
