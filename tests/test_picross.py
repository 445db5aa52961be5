"""Picross: each technique fires where it should (with what it finds) and not elsewhere; every
deduction agrees with the unique solution on real puzzles; the formats read what FORMATS.md
says and bad input gives one line."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from grader.core.engine import Solver
from grader.core.errors import InputError, Source
from grader.io.read import load
from grader.genres import get
from grader.genres.picross.model import PicrossPuzzle
from grader.core.registry import REGISTRY
from grader.core.model import State
from grader.core.steps import Status
from support import (CORPUS, assert_corpus_solves, assert_each_finds_only_truths, assert_sound_from_partial_states,
                     assert_puzzles_solved_soundly, decided_by, fires, found, janko, marks, native, reference)

PICROSS = get("picross")


def puzzle(rows: str, columns: str):
    block = lambda text: "".join(f"  {line}\n" for line in text.split("/"))  # noqa: E731
    return native(f"genre: picross\nrows: |\n{block(rows)}columns: |\n{block(columns)}")


# A 6x6 puzzle with a unique solution that line logic alone cannot finish.
DEEP = PicrossPuzzle(rows=6, cols=6, row_clues=((1,), (2, 3), (2, 1), (), (4,), (1, 1)),
                     col_clues=((1, 1), (2, 1), (1, 1), (1, 1), (1, 1), (3, 1)))


# --- level 1 -------------------------------------------------------------------------------

def test_broken_line():
    p = puzzle("3/0/1", "1 1/1/1")
    s = marks(p, "# + #\n. . .\n. . .")
    assert [d.params["line"] for d in fires("picross.broken-line", p, s)] == ["row 1"]
    assert fires("picross.broken-line", p) == []


def test_empty_line():
    p = puzzle("3/0/1", "1 1/1/1")
    assert found("picross.empty-line", p) == {"r2c1": "is empty", "r2c2": "is empty", "r2c3": "is empty"}
    assert found("picross.empty-line", puzzle("1/1", "1/1")) == {}


def test_one_way():
    p = puzzle("2 2/1/0", "2/1/0/1/1")
    assert found("picross.one-way", p) == {"r1c1": "is filled", "r1c2": "is filled", "r1c3": "is empty",
                                           "r1c4": "is filled", "r1c5": "is filled"}
    # one decided cell leaves the 1 of column 2 only one place
    s = marks(p, ". # . . .\n. . . . .\n. . . . .")
    assert found("picross.one-way", p, s)["r2c2"] == "is empty"
    assert found("picross.one-way", puzzle("1/1", "1/1")) == {}


# --- level 2 -------------------------------------------------------------------------------

def row_puzzle(clue: str, cols: int):
    """A one-row puzzle of `cols` cells: its columns hold what the row's clue draws left-packed."""
    from grader.kernels.lines import fill_of
    sizes = [int(x) for x in clue.split()]
    starts, at = [], 0
    for size in sizes:
        starts.append(at)
        at += size + 1
    drawn = fill_of(cols, sizes, starts)
    return puzzle(clue, "/".join("1" if m == 2 else "0" for m in drawn))


def in_row(hid: str, p, s=None) -> dict[str, str]:
    """What a technique decides in row 1 (the columns of a one-row puzzle are trivial)."""
    s = s or p.genre.initial_state(p)
    return decided_by([d for d in fires(hid, p, s) if d.params["line"] == "row 1"], p, s)


def test_simple_boxes():
    p = row_puzzle("8", 10)
    assert in_row("picross.simple-boxes", p) == {f"r1c{c}": "is filled" for c in range(3, 9)}
    d = [d for d in fires("picross.simple-boxes", p) if d.params["line"] == "row 1"][0]
    assert (d.params["need"], d.params["room"], d.params["spare"], d.params["blocks"]) == (
        "8 cells", 10, "2 cells", "the 8")
    # crossed cells at an end shorten the room: a 3 in the last four cells of five
    p = row_puzzle("3", 5)
    assert in_row("picross.simple-boxes", p, marks(p, "+ . . . .")) == {"r1c3": "is filled", "r1c4": "is filled"}
    # must not fire: no block longer than the room to spare
    assert in_row("picross.simple-boxes", row_puzzle("1 1", 5)) == {}
    # nor read a mark inside the line (that is pushing past it, level 3)
    p = row_puzzle("3", 7)
    s = marks(p, ". + . . . . .")
    assert in_row("picross.simple-boxes", p, s) == {}
    assert in_row("picross.block-overlap", p, s) == {"r1c1": "is empty", "r1c5": "is filled"}


def test_full_block():
    p = row_puzzle("1 3", 7)
    s = marks(p, ". . # # # . .")
    assert in_row("picross.full-block", p, s) == {"r1c2": "is empty", "r1c6": "is empty"}
    assert fires("picross.full-block", p, s)[0].params["run"] == "r1c3-r1c5"
    # must not fire: the run is shorter than the longest block
    assert in_row("picross.full-block", p, marks(p, ". . # # . . .")) == {}


def test_glue():
    p = row_puzzle("3 1", 8)
    # a filled cell second from the left end: the 3 covers it and reaches r1c3
    assert in_row("picross.glue", p, marks(p, ". # . . . . . .")) == {"r1c3": "is filled"}
    # at the end itself the 3 is complete, and the crossed cell at the end counts as the edge
    assert in_row("picross.glue", p, marks(p, "+ # . . . . . .")) == {"r1c3": "is filled", "r1c4": "is filled",
                                                                    "r1c5": "is empty"}
    # four cells in: the 3 starts at r1c2 at the earliest, so r1c1 is empty
    d = fires("picross.glue", p, marks(p, ". . . # . . . ."))[0]
    assert decided_by([d], p, marks(p, ". . . # . . . .")) == {"r1c1": "is empty"}
    assert (d.params["cell"], d.params["end"], d.params["which"], d.params["size"]) == ("r1c4", "left", "first", 3)
    # from the right end, the 1 is complete at the edge
    assert in_row("picross.glue", p, marks(p, ". . . . . . . #")) == {"r1c7": "is empty"}
    # must not fire: the filled cell is out of reach of the end's block (it may be the 1's)
    assert in_row("picross.glue", p, marks(p, ". . . . . # . .")) == {}


def test_lone_block():
    p = row_puzzle("4", 9)
    s = marks(p, ". . . # . # . . .")
    assert in_row("picross.lone-block", p, s) == {"r1c1": "is empty", "r1c2": "is empty", "r1c5": "is filled",
                                                "r1c8": "is empty", "r1c9": "is empty"}
    assert fires("picross.lone-block", p, s)[0].params["cells"] == "r1c4 and r1c6"
    # must not fire: no filled cell yet, or more than one block
    assert in_row("picross.lone-block", p) == {}
    q = row_puzzle("1 2", 9)
    assert in_row("picross.lone-block", q, marks(q, ". . . # . . . . .")) == {}


# --- level 3 -------------------------------------------------------------------------------

def test_block_overlap():
    p = puzzle("4", "1/1/1/1/0")
    assert found("picross.block-overlap", p) == {"r1c1": "is filled", "r1c2": "is filled", "r1c3": "is filled",
                                                 "r1c4": "is filled"}
    d = fires("picross.block-overlap", p)[0]
    assert "the 4 covers the same cells" in d.params["reason"]
    p1 = puzzle("1", "1/0/0")
    assert found("picross.block-overlap", puzzle("1/1", "1/1")) == {}
    assert found("picross.block-overlap", p1, marks(p1, "# . .")) == {"r1c2": "is empty", "r1c3": "is empty"}


# --- level 4 -------------------------------------------------------------------------------

def test_line_solver_beats_block_overlap():
    # "1 1" with a filled middle cell: whichever block it is, both neighbours are empty.
    p = PicrossPuzzle(rows=1, cols=6, row_clues=((1, 1),), col_clues=((),) * 6)
    s = State((1, 3, 3, 2, 3, 3))

    def in_row(hid):
        return decided_by([d for d in fires(hid, p, s) if d.params["line"] == "row 1"], p, s)
    assert in_row("picross.block-overlap") == {}
    assert in_row("picross.line-solver") == {"r1c3": "is empty", "r1c5": "is empty"}
    assert found("picross.line-solver", puzzle("1 1", "1/0/1")) == {"r1c1": "is filled", "r1c2": "is empty",
                                                                    "r1c3": "is filled"}
    assert found("picross.line-solver", puzzle("1/1", "1/1")) == {}


# --- level 5 -------------------------------------------------------------------------------

def line_logic():
    return [h for h in REGISTRY.for_genre("picross", 4) if h.id != "picross.what-if"]


def test_what_if():
    # DEEP: line logic gets stuck; if r5c1 were filled, the 4 of row 5 would fit one way
    # (r5c1-r5c4), columns 1 and 2 then leave r6c1 and r6c2 empty, and the 1 1 of row 6 no
    # longer fits in r6c5-r6c6
    stuck = Solver(DEEP, heuristics=line_logic()).solve()
    assert stuck.status is Status.STUCK
    assert found("picross.what-if", DEEP, stuck.final) == {"r5c1": "is empty"}
    d = fires("picross.what-if", DEEP, stuck.final)[0]
    assert d.params["assumption"] == "r5c1 is filled"
    assert d.params["path"] == ("the simple line rules then settle more of row 5, column 1 and column 2 "
                                "in turn, and ")
    assert d.params["contradiction"] == "row 6 can no longer show its clue 1 1"
    assert d.params["steps"] == 4 == len(d.detail[0].trace.steps)
    assert_each_finds_only_truths(DEEP, stuck.final, reference(DEEP), ("picross.what-if",))
    assert Solver(DEEP, max_level=4).solve().status is Status.SOLVED
    # no contradiction to meet where every assumption is part of some solution
    assert fires("picross.what-if", puzzle("1/1", "1/1")) == []
    assert fires("picross.what-if", puzzle("1/1/1/1", "1/1/1/1")) == []


def test_deep_puzzle_level_5_is_sound():
    stuck = Solver(DEEP, heuristics=line_logic()).solve()
    assert_each_finds_only_truths(DEEP, stuck.final, reference(DEEP),
                                  ("picross.trial-and-error", "picross.line-cases"))
    assert Solver(DEEP).solve().status is Status.SOLVED


def test_level_5_finds_nothing_without_a_unique_answer():
    p = puzzle("1/1", "1/1")              # two diagonal solutions
    assert fires("picross.trial-and-error", p) == []
    assert fires("picross.line-cases", p) == []


# --- soundness on real puzzles --------------------------------------------------------------

def test_sound_on_janko_sample():
    assert_puzzles_solved_soundly(janko("picross", 6, seed=3, max_cells=225))


def test_every_heuristic_sound_from_random_partial_states():
    assert_sound_from_partial_states(janko("picross", 3, seed=5, max_cells=100) + [DEEP],
                                     REGISTRY.for_genre("picross", 4), random.Random(11),
                                     (0.1, 0.3, 0.6), rounds=4)


def test_tatham_corpus_solves():
    assert_corpus_solves("picross", most=6)


# --- formats -------------------------------------------------------------------------------

def test_tatham_example():
    p = load("5x5:2/1.2/1/3/3/2/1.2/2/3/2", "picross")
    assert p.col_clues == ((2,), (1, 2), (1,), (3,), (3,))
    assert p.row_clues == ((2,), (1, 2), (2,), (3,), (2,))
    sol = reference(p)
    assert PICROSS.render_text(p, sol).replace("+", ".").replace(" ", "").splitlines() == [
        "...##", ".#.##", "...##", "###..", "##..."]


def test_tatham_preset_cells():
    p = load("5x5:2/1.2/1/3/3/2/1.2/2/3/2,dA", "picross")
    assert p.givens == ((3, 1), (4, 0)) or p.givens == ((3, 0), (4, 1))


def test_puzzlink_example():
    p = load("https://puzz.link/p?nonogram/6/6/12g1111h11112j12g11g21j11g3h")
    assert p.col_clues == ((2, 1), (1, 1, 1), (1,), (1, 1, 1), (2, 1), ())
    assert p.row_clues == ((2, 1), (1, 1), (1, 2), (), (1, 1), (3,))
    sol = reference(p)
    assert PICROSS.render_text(p, sol).replace("+", ".").replace(" ", "").splitlines() == [
        "##.#..", "#...#.", ".#.##.", "......", "#...#.", ".###.."]


def test_non_format(tmp_path: Path):
    # the example of nonogram-db FORMAT.md
    text = ('catalogue "webpbn.com #1"\ntitle "Demo Puzzle from Front Page"\nby "Jan Wolter"\n'
            "license CC-BY-3.0\nwidth 5\nheight 10\n\nrows\n2\n2,1\n1,1\n3\n1,1\n1,1\n2\n1,1\n1,2\n2\n\n"
            "columns\n2,1\n2,1,3\n7\n1,3\n2,1\n\n"
            'goal "01100011010010101110101001010000110010100101111000"\n')
    f = tmp_path / "demo.non"
    f.write_text(text)
    p = load(str(f))
    assert (p.rows, p.cols) == (10, 5) and p.row_clues[1] == (2, 1) and p.col_clues[2] == (7,)
    assert p.meta.title == "Demo Puzzle from Front Page" and len(p.solution) == 23
    assert Solver(p).solve().status is Status.SOLVED


def test_native_round_trip_and_goal():
    from grader.io.native import dump
    p = load(str(sorted((CORPUS / "picross").glob("*.yaml"))[0]))
    again = native(dump(PICROSS.to_native(p)))
    assert (again.row_clues, again.col_clues, again.solution) == (p.row_clues, p.col_clues, p.solution)
    goal = native("genre: picross\nrows:\n  - '1'\n  - 0\ncolumns: [1, '-']\ngoal: |\n  # .\n  . .\n")
    assert goal.solution == frozenset({0})
    lists = native("genre: picross\nrows: [[1, 1], []]\ncolumns: [[1], [], [1]]\n")
    assert lists.row_clues == ((1, 1), ()) and lists.col_clues == ((1,), (), (1,))


def test_janko_records():
    from grader.io.read import from_record
    from grader.io.janko import Record
    src = Source("t.jsonl:1")
    p = from_record(Record("nonograms/1", "Nonograms",
                           {"rows": 2, "cols": 3, "solution": [["x", "x", "-"], ["-", "-", "x"]]}, src))
    assert p.row_clues == ((2,), (1,)) and p.col_clues == ((1,), (1,), (1,))
    q = from_record(Record("nonograms/2", "Nonograms",
                           {"size": 2, "rlabels": [["1"], ["2"]], "clabels": [["2"], ["1"]]}, src))
    assert q.row_clues == ((1,), (2,)) and q.solution is None


# --- bad input -----------------------------------------------------------------------------

@pytest.mark.parametrize("text, message", [
    ("genre: picross\nrows: |\n  2\n  4\ncolumns: |\n  1\n  1\n  1\n", "row 2: the clue 4 needs 4 cells"),
    ("genre: picross\nrows: |\n  1\n  1\ncolumns: |\n  1\n  2\n", "row clues fill 2 cells but the column clues fill 3"),
    ("genre: picross\nrows: |\n  1\n  x\ncolumns: |\n  1\n  0\n", "'x' in 'rows' is not a clue"),
    ("genre: picross\nrows: |\n  1\ncolumns: |\n  1\nsolution: |\n  . \n", "does not show the clues"),
])
def test_bad_native(text, message):
    with pytest.raises(InputError) as exc:
        native(text, "bad.yaml")
    assert message in str(exc.value) and str(exc.value).startswith("bad.yaml")


def test_bad_native_points_at_the_clue():
    with pytest.raises(InputError) as exc:
        native("genre: picross\nrows: |\n  2\n  4\ncolumns: |\n  1\n  1\n  1\n", "bad.yaml")
    assert (exc.value.line, exc.value.column) == (4, 3)


@pytest.mark.parametrize("spec, message", [
    ("3x2:1/1/1/4/1", "row 1: the clue 4 needs 4 cells"),
    ("2x2:1/1/1", "3 sections"),
    ("2x2:1/1/1/2", "row clues fill 3 cells but the column clues fill 2"),
    ("https://puzz.link/p?nonogram/2/2/1!", "unexpected '!'"),
])
def test_bad_ids_and_urls(spec, message):
    with pytest.raises(InputError) as exc:
        load(spec, "picross")
    assert message in str(exc.value)


def test_non_colour_puzzles_are_refused(tmp_path: Path):
    f = tmp_path / "colour.non"
    f.write_text("width 2\nheight 1\nrows\n1a,1b\ncolumns\n1a\n1b\n")
    with pytest.raises(InputError, match="colour nonogram"):
        load(str(f))


def test_cli_bad_input_exit_2(tmp_path: Path, capsys):
    f = tmp_path / "bad.non"
    f.write_text("width 2\nheight 2\nrows\n3\n1\ncolumns\n1\n1\n")
    from grader.app.cli import main
    assert main(["grade", str(f)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "row 1" in err


def test_render():
    p = load("5x5:2/1.2/1/3/3/2/1.2/2/3/2", "picross")
    svg = PICROSS.render_svg(p, reference(p), [("target", [0])])
    assert svg.startswith("<svg") and "hl-target" in svg
    assert PICROSS.violations(p, reference(p)) == []
    assert PICROSS.answer_asp(p, reference(p)).splitlines()[0] == "filled(0,3)."
    s = marks(p, "# # # # #\n. . . . .\n. . . . .\n. . . . .\n. . . . .")
    assert "row 1" in PICROSS.violations(p, s)[0].message


@pytest.mark.parametrize("text, answer", [
    ("rows: |\n  0\n  0\ncolumns: |\n  0\n", "+\n+"),          # an empty picture, 2x1
    ("rows: |\n  1\ncolumns: |\n  1\n", "#"),                   # one cell, full
])
def test_degenerate_boards_solve(text, answer):
    p = native("genre: picross\n" + text)
    trace = Solver(p, assume_unique=False).solve()
    assert trace.status is Status.SOLVED and get("picross").render_text(p, trace.final) == answer


def test_simple_narrowing_is_what_the_simple_rules_of_the_full_line_solver_narrow():
    # the what-if screen reads block starts only, as bit sets; the simple rules read off a
    # whole Line (one way when the line is settled, else block overlap) must leave the same
    from grader.kernels.lines import E, F, Line, cell_bits
    from heuristics.picross import overlap_allowed, simple_narrowing
    rng = random.Random(5)
    for _ in range(400):
        n = rng.randint(1, 12)
        clue = tuple(rng.randint(1, 4) for _ in range(rng.randint(0, 4)))
        now = tuple(rng.choice((E | F, E | F, E | F, E, F)) for _ in range(n))
        line = Line(now, clue)
        if not line.solvable:
            assert simple_narrowing(*cell_bits(now), n, clue) is None
            continue
        if not clue:
            allowed = [E] * n
        elif line.settled:
            allowed = line.kept
        else:
            allowed = overlap_allowed([line.span(j) for j in range(len(clue))], clue, n)[0]
        assert simple_narrowing(*cell_bits(now), n, clue) == cell_bits([m & a for m, a in zip(now, allowed)])


def test_what_if_screen_reads_every_line_its_answer_depends_on():
    # a screen is kept with the lines it read and reused while they hold: narrowing lines it
    # did not read (toward the solution) must leave its answer the same
    from grader.kernels.lines import cell_bits
    from grader.genres.picross.model import EMPTY, FILLED
    from heuristics.picross import CHAIN_STEPS, chain_screen, line_cands
    rng = random.Random(7)
    for p in janko("picross", 4, seed=2, max_cells=225) + [DEEP]:
        answer, full = reference(p).cands, p.genre.initial_state(p).cands
        for keep in (0.2, 0.4, 0.6):
            cands = [m if rng.random() < keep else f for m, f in zip(answer, full)]
            state = State(tuple(cands))
            bits = [cell_bits(line_cands(p, state, line)) for line in range(len(p.lines))]
            for var in (v for v in range(len(answer)) if bin(cands[v]).count("1") > 1):
                for value in (EMPTY, FILLED):
                    n, read = chain_screen(p, bits, var, value, CHAIN_STEPS)
                    unread = [v for v in range(len(answer)) if bin(cands[v]).count("1") > 1 and v != var
                              and not read & set(p.lines_of[v])]
                    narrowed = list(cands)
                    for v in unread:
                        narrowed[v] = answer[v]
                    later = State(tuple(narrowed))
                    later_bits = [cell_bits(line_cands(p, later, line)) for line in range(len(p.lines))]
                    assert chain_screen(p, later_bits, var, value, CHAIN_STEPS)[0] == n, (p, var, value)
