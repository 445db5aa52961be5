"""Converters for the cell genres: bulbs, shading, mines and nonogram cells."""
from __future__ import annotations

from grader.io.native import Token
from grader.io.pzprv3.board import (Board, Converted, Mark, as_text, cell_error, cell_section,
                                    converter)

@converter("akari", "lightup", "akari")
def _akari(board: Board) -> Converted:
    # One section: numbers are walls ('-' a wall without a number), '#' a bulb, '+' no bulb.
    grid, marks = [], []
    for r, row in enumerate(cell_section(board, "the cells")):
        g, m = [], []
        for c, tok in enumerate(row):
            t = tok.text
            if t in ("#", "+", "."):
                g.append(".")
                m.append(({"#": "*", "+": "+", ".": "."}[t], "*" if t == "#" else "+", tok))
            elif t == "-":
                g.append("#"); m.append((".", ".", tok))
            elif t in ("0", "1", "2", "3", "4"):
                g.append(t); m.append((".", ".", tok))
            else:
                raise cell_error(board, tok, r, c, "'#' bulb, '+', '.', a wall 0-4 or '-'")
        grid.append(g); marks.append(tuple(m))
    return Converted({"genre": "akari", "grid": as_text(grid)}, tuple(marks))


def _numbers_and_shading(board: Board, unknown: str, what: str,
                         min_number: int = 0) -> tuple[list[list[str]], list[tuple[Mark, ...]]]:
    """One section of numbers ('-' a number not given) and shading ('#' shaded, '+' marked
    white), as pzprjs's decodeCellQnumAns writes it."""
    grid, marks = [], []
    for r, row in enumerate(cell_section(board, "the cells")):
        g, m = [], []
        for c, tok in enumerate(row):
            t = tok.text
            if t in ("#", "+", "."):
                g.append("."); m.append((t, "#" if t == "#" else "+", tok))
            elif t == "-":
                g.append(unknown); m.append((unknown, unknown, tok))
            elif t.isdecimal() and int(t) >= min_number:
                g.append(str(int(t))); m.append((str(int(t)), str(int(t)), tok))
            else:
                raise cell_error(board, tok, r, c, what)
        grid.append(g); marks.append(tuple(m))
    return grid, marks


@converter("nurikabe", "nurikabe")
def _nurikabe(board: Board) -> Converted:
    grid, marks = _numbers_and_shading(board, "?", "'#', '+', '.', an island size or '-'", 1)
    return Converted({"genre": "nurikabe", "grid": as_text(grid)}, tuple(marks))


def shading_section(board: Board, mine: str = "#") -> list[tuple[Mark, ...]]:
    """The answer section of decodeCellAns: '#' shaded, '+' marked white, '.' nothing."""
    sec = board.section(board.rows, board.cols, "the shaded cells")
    marks = []
    for r in range(board.rows):
        m = []
        for c in range(board.cols):
            tok = sec[r][c] if sec else None
            t = tok.text if tok else "."
            if t not in ("#", "+", "."):
                raise cell_error(board, tok, r, c, "'#' shaded, '+' white or '.'")
            m.append((mine if t == "#" else t, mine if t == "#" else "+", tok))
        marks.append(tuple(m))
    return marks


@converter("kuromasu", "kurodoko")
def _kurodoko(board: Board) -> Converted:
    grid = _numbers(board, "?", 1)
    return Converted({"genre": "kuromasu", "grid": as_text(grid)}, tuple(shading_section(board)))


def _numbers(board: Board, unknown: str, min_number: int = 0) -> list[list[str]]:
    """A section of numbers, '.' for none and '-' for a number not given (decodeCellQnum)."""
    grid = []
    for r, row in enumerate(cell_section(board, "the numbers")):
        g = []
        for c, tok in enumerate(row):
            if tok.text == ".":
                g.append(".")
            elif tok.text == "-":
                g.append(unknown)
            elif tok.text.isdecimal() and int(tok.text) >= min_number:
                g.append(str(int(tok.text)))
            else:
                raise cell_error(board, tok, r, c, "a number or '.'")
        grid.append(g)
    return grid


@converter("hitori", "hitori")
def _hitori(board: Board) -> Converted:
    grid = _numbers(board, ".")
    return Converted({"genre": "hitori", "grid": as_text(grid)}, tuple(shading_section(board)))


@converter("heyawake", "heyawake", "heyawacky")
def _heyawake(board: Board) -> Converted:
    rooms = [["0"] * board.cols for _ in range(board.rows)]
    if not board.at_end:
        count = board.line("the number of rooms")
        if not count.text.isdecimal():
            raise board.error(f"expected the number of rooms, found '{count.text}'", count)
        sec = board.section(board.rows, board.cols, "the rooms")
        for r, row in enumerate(sec or []):
            for c, tok in enumerate(row):
                if not tok.text.isdecimal() or int(tok.text) >= int(count.text):
                    raise cell_error(board, tok, r, c, f"a room number below {count.text}")
                rooms[r][c] = tok.text
    grid = _numbers(board, ".")      # '-' (a room whose count is not given) is no count
    return Converted({"genre": "heyawake", "rooms": as_text(rooms), "grid": as_text(grid)},
                     tuple(shading_section(board)))


@converter("minesweeper", "mines")
def _mines(board: Board) -> Converted:
    grid = []
    for r, row in enumerate(cell_section(board, "the revealed cells")):
        g = []
        for c, tok in enumerate(row):
            t = tok.text
            if t == ".":
                g.append(".")
            elif t == "-":
                g.append("?")
            elif t.isdecimal() and int(t) <= 8:
                g.append(t)
            else:
                raise cell_error(board, tok, r, c, "a number 0-8, '-' or '.'")
        grid.append(g)
    marks = shading_section(board, mine="*")
    # A revealed cell is safe already: its mark stays '.'.
    marks = [tuple(mark if grid[r][c] == "." else (".", ".", mark[2]) for c, mark in enumerate(row))
             for r, row in enumerate(marks)]
    return Converted({"genre": "minesweeper", "grid": as_text(grid)}, tuple(marks))


@converter("picross", "nonogram")
def _nonogram(board: Board) -> Converted:
    # One block: the column clues in the top (rows+1)//2 lines, the row clues in the first
    # (cols+1)//2 items of each cell line; clues are right- and bottom-aligned, '.' pads.
    clue_lines, clue_items = (board.rows + 1) // 2, (board.cols + 1) // 2
    sec = board.section(clue_lines + board.rows, clue_items + board.cols, "the clues and cells")
    if sec is None:
        raise board.error("the file has no clues")

    def clue(toks: list[Token]) -> str:
        nums = []
        for tok in toks:
            n = tok.text.removeprefix("c")      # 'c': the player greyed the number out
            if tok.text == ".":
                continue
            if not n.isdecimal() or int(n) == 0:
                raise board.error(f"unexpected '{tok.text}' in a clue: expected a block length", tok)
            nums.append(str(int(n)))
        return " ".join(nums) or "0"

    for k in range(clue_lines):
        for tok in sec[k][:clue_items]:
            if tok.text != ".":
                raise board.error(f"unexpected '{tok.text}' in the corner: expected '.'", tok)
    cols = [clue([sec[k][clue_items + c] for k in range(clue_lines)]) for c in range(board.cols)]
    rows, marks = [], []
    for r in range(board.rows):
        line = sec[clue_lines + r]
        rows.append(clue(line[:clue_items]))
        m = []
        for c, tok in enumerate(line[clue_items:]):
            if tok.text not in ("#", "+", "."):
                raise cell_error(board, tok, r, c, "'#' filled, '+' empty or '.'")
            m.append((tok.text, "#" if tok.text == "#" else "+", tok))
        marks.append(tuple(m))
    return Converted({"genre": "picross", "rows": "\n".join(rows) + "\n",
                      "columns": "\n".join(cols) + "\n"}, tuple(marks))
