"""Boards for people (Genre.render_board, grader/io/board.py): every clue shows, every line of a
board is as wide as the others with no wide character, and a solved loop is drawn with
box-drawing strokes. render_text stays the native grid syntax (tested in each genre's tests)."""
from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter

import pytest

from grader.app.cli import main
from grader.core import exact
from grader.io.board import display_width
from grader.io.read import load
from grader.kernels.pearls import BLACK, WHITE

from support import CORPUS

PUZZLES = {
    "akari": ["lightup-7x7b20s2d2-grader-1.yaml", "lightup-10x10b20s2d0-grader-1.yaml"],
    "arrows": ["arrows-4x4-straight-L1-s1.yaml", "arrows-6x6-diagonal-L4-s1.yaml"],
    "hashiwokakero": ["grown-7x7-grader-2.yaml", "bridges-10x10i30e10m2d0-grader-1.yaml"],
    "heyawake": ["heyawake-6x6-1-2.yaml", "heyawake-10x10-21-1.yaml"],
    "hitori": ["singles-8x8de-grader-4.yaml", "singles-10x10de-grader-1.yaml"],
    "kuromasu": ["range-7x7-grader-1.yaml", "range-10x10-grader-1.yaml"],
    "masyu": ["pearl-6x6de-grader-4.yaml", "pearl-10x10de-grader-1.yaml"],
    "minesweeper": ["mines-9x9n10-grader-2.yaml"],
    "numberlink": ["arukone-5x5-grader-1.yaml"],
    "nurikabe": ["nurikabe-7x7-grader-2.yaml", "nurikabe-10x10-grader-1.yaml"],
    "picross": ["pattern-5x5-grader-2.yaml", "pattern-10x10-grader-1.yaml"],
    "slitherlink": ["loopy-7x7t0dh-tiers-1.yaml", "loopy-10x10t0de-grader-1.yaml"],
    "yajilin": ["yajilin-6x6-grader-1.yaml"],
}
CASES = [(g, f) for g, files in PUZZLES.items() for f in files]
LOOPS = {"masyu", "yajilin", "numberlink", "slitherlink"}
CORNERS = set("┌┐└┘")


def solved(puzzle):
    state = puzzle.genre.solution_state(puzzle)
    if state is None:
        result = exact.solve(puzzle, seconds=120)
        assert result.solutions, puzzle.meta.origin
        state = result.solutions[0]
    return state


def numbers(text: str) -> Counter:
    return Counter(int(n) for n in re.findall(r"\d+", text))


def clue_numbers(puzzle) -> Counter:
    """The numbers a person must see on the board, per genre."""
    g = puzzle.genre.name
    if g == "akari":
        return Counter(b for b in puzzle.board if b >= 0)
    if g == "arrows":
        return Counter(v for v in puzzle.givens if v is not None)
    if g == "hashiwokakero":
        return Counter(puzzle.board[i] for i in puzzle.islands)
    if g == "heyawake":
        return Counter(n for n, cell in zip(puzzle.clues, puzzle.clue_cells) if cell >= 0)
    if g == "hitori":
        return Counter(n for n in puzzle.numbers if n)
    if g == "kuromasu":
        return Counter(n for n in puzzle.clues if n >= 0)
    if g == "nurikabe":
        return Counter(n for n in puzzle.clues if n > 0)
    if g == "slitherlink":
        return Counter(n for n in puzzle.clues if n is not None)
    if g == "minesweeper":
        return Counter(b for b in puzzle.board if b >= 0)
    if g == "numberlink":
        return Counter(int(puzzle.name(lab)) for lab in puzzle.labels if lab)
    if g == "picross":
        return Counter(n for clue in (*puzzle.row_clues, *puzzle.col_clues) for n in (clue or (0,)))
    if g == "yajilin":
        return Counter(c.n for c in puzzle.clues if c is not None and c.n is not None)
    return Counter()


def check_shape(board: str) -> None:
    lines = board.split("\n")
    assert len(lines) > 1
    for ch in board:
        assert unicodedata.east_asian_width(ch) not in ("W", "F"), f"wide character {ch!r}"
    widths = {display_width(line) for line in lines}
    assert len(widths) == 1, f"rows of different widths {sorted(widths)}:\n{board}"


@pytest.mark.parametrize("genre, name", CASES)
def test_every_clue_shows_unsolved_and_solved(genre, name):
    puzzle = load(str(CORPUS / genre / name))
    g = puzzle.genre
    assert g.name == genre
    want = clue_numbers(puzzle)
    assert want or genre == "masyu"
    before = g.render_board(puzzle)
    after = g.render_board(puzzle, solved(puzzle))
    for board in (before, after):
        check_shape(board)
        assert board != g.render_text(puzzle) and "!" not in board
    if genre == "arrows":                   # unsolved: the givens; solved: every cell's number
        assert numbers(before) == want
        assert sum(numbers(after).values()) == puzzle.rows * puzzle.cols
    elif genre == "minesweeper":
        assert numbers(before) == want == numbers(after)
        assert after.count("●") == len(puzzle.solution) and "·" not in after
    else:
        assert numbers(before) == want == numbers(after), (before, after)
    assert "·" not in after or genre == "slitherlink"      # slitherlink's dots are the vertices
    if genre in LOOPS:
        assert "─" in after and "│" in after
        # a closed loop turns every way; Numberlink's paths turn somewhere
        assert CORNERS <= set(after) if genre != "numberlink" else CORNERS & set(after)
        assert not CORNERS & set(before)
    if genre in ("heyawake", "hitori", "kuromasu", "nurikabe", "picross"):
        assert "█" in after and "█" not in before
    if genre == "akari":
        assert after.count("●") == len(puzzle.solution)


def test_picross_clues_beside_and_above():
    puzzle = load(str(CORPUS / "picross" / "pattern-10x10-grader-1.yaml"))
    lines = puzzle.genre.render_board(puzzle).split("\n")
    top = max(len(c) for c in puzzle.col_clues)
    body = lines[top + 1:top + 1 + puzzle.rows]
    for clue, line in zip(puzzle.row_clues, body):
        assert line.split("│")[0].split() == [str(n) for n in clue or (0,)]
    w = lines[top].index("┌")                   # where the frame starts
    cw = (len(lines[top]) - w - 2) // puzzle.cols
    for c, clue in enumerate(puzzle.col_clues):
        column = [line[w + 1 + c * cw: w + 1 + (c + 1) * cw].strip() for line in lines[:top]]
        assert [int(t) for t in column if t] == list(clue or (0,))


def test_heyawake_rooms_are_drawn():
    puzzle = load(str(CORPUS / "heyawake" / "heyawake-6x6-1-2.yaml"))
    lines = puzzle.genre.render_board(puzzle).split("\n")
    assert len(lines) == 2 * puzzle.rows + 1
    pitch = (len(lines[0]) - 1) // puzzle.cols
    for r in range(puzzle.rows):
        for c in range(1, puzzle.cols):
            i = r * puzzle.cols + c
            wall = puzzle.room_of[i] != puzzle.room_of[i - 1]
            assert (lines[2 * r + 1][c * pitch] == "│") == wall
    for r in range(1, puzzle.rows):
        for c in range(puzzle.cols):
            i = r * puzzle.cols + c
            wall = puzzle.room_of[i] != puzzle.room_of[i - puzzle.cols]
            assert (lines[2 * r][c * pitch + 2] == "─") == wall


def test_masyu_pearls_and_the_loop():
    puzzle = load(str(CORPUS / "masyu" / "pearl-6x6de-grader-4.yaml"))
    g = puzzle.genre
    for board in (g.render_board(puzzle), g.render_board(puzzle, solved(puzzle))):
        assert board.count("●") == puzzle.pearls.count(BLACK)
        assert board.count("○") == puzzle.pearls.count(WHITE)


def test_partial_boards_mark_undecided_and_empty():
    """Half the solution's values forgotten: undecided · and decided-empty × both show."""
    from grader.core.model import State
    for genre, name in (("akari", "lightup-7x7b20s2d2-grader-1.yaml"), ("slitherlink", "loopy-7x7t0dh-tiers-1.yaml"),
                        ("nurikabe", "nurikabe-7x7-grader-2.yaml"), ("masyu", "pearl-6x6de-grader-4.yaml"),
                        ("picross", "pattern-10x10-grader-1.yaml"), ("kuromasu", "range-7x7-grader-1.yaml")):
        puzzle = load(str(CORPUS / genre / name))
        g = puzzle.genre
        start, done = g.initial_state(puzzle), solved(puzzle)
        half = State(tuple(s if v % 3 else i for v, (s, i) in enumerate(zip(done.cands, start.cands))))
        board = g.render_board(puzzle, half)
        check_shape(board)
        assert "×" in board and "·" in board, (genre, board)


def test_a_graph_without_a_grid_keeps_render_text():
    path = next((CORPUS / "slitherlink-graph").glob("*.lp"))
    puzzle = load(str(path))
    g = puzzle.genre
    assert g.render_board(puzzle) == g.render_text(puzzle)


def test_cli_prints_the_board_and_json_keeps_the_grid(capsys):
    path = str(CORPUS / "picross" / "pattern-5x5-grader-2.yaml")
    puzzle = load(path)
    assert main(["render", path]) == 0
    assert capsys.readouterr().out.rstrip("\n") == puzzle.genre.render_board(puzzle)
    assert main(["render", path, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["board"] == puzzle.genre.render_text(puzzle)
    assert main(["solve", path]) == 0
    out = capsys.readouterr().out
    assert "█" in out and out.rstrip("\n") == puzzle.genre.render_board(puzzle, solved(puzzle))
    assert main(["solve", path, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["solution"] == puzzle.genre.answer_json(puzzle, solved(puzzle))
    assert main(["explain", path, "--boards"]) == 0
    assert "┌" in capsys.readouterr().out
    assert main(["hint", path, "--stage", "answer"]) == 0
    assert "┌" in capsys.readouterr().out


def svg_numbers(svg: str) -> Counter:
    return Counter(int(n) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg) for n in re.findall(r"\d+", t))


@pytest.mark.parametrize("genre, name", CASES)
def test_every_clue_shows_in_the_svg(genre, name):
    """The SVG of the puzzle and of its solution: every clue as text, a solved loop as lines
    and no crossed-out marks on a finished board (a solution reads as drawn)."""
    puzzle = load(str(CORPUS / genre / name))
    g = puzzle.genre
    want = clue_numbers(puzzle)
    before = g.render_svg(puzzle, g.initial_state(puzzle))
    after = g.render_svg(puzzle, solved(puzzle))
    for svg in (before, after):
        assert svg.startswith("<svg") and svg.endswith("</svg>")
    if genre == "arrows":                   # solved: every cell's number
        assert svg_numbers(before) == want
        assert sum(svg_numbers(after).values()) == puzzle.rows * puzzle.cols
    else:
        if genre == "minesweeper":          # a revealed 0 is an empty opened cell, as in the game
            del want[0]
        assert svg_numbers(before) == want == svg_numbers(after), genre
    if genre == "masyu":
        assert before.count("<circle") == after.count("<circle") == sum(p in (BLACK, WHITE) for p in puzzle.pearls)
    if genre in LOOPS:
        assert after.count("<line") > before.count("<line")
        assert "#c62828" not in after           # the × of a crossed-out edge
