"""Converters for the cell genres: bulbs, shading, mines and nonogram cells."""
from __future__ import annotations

from grader.io.native import Token
from grader.io.pzprv3.board import Board, Converted, Mark, as_text, cell_error, converter, read_cells

# Light Up's one section: numbers are walls ('-' a wall without a number), '#' a bulb, '+' no
# bulb; each item as (grid, as marked, as read when finished).
AKARI = {"#": (".", "*", "*"), "+": (".", "+", "+"), ".": (".", ".", "+"), "-": ("#", ".", "."),
         **{n: (n, ".", ".") for n in "01234"}}


def _grid_and_marks(cells: list[list[tuple[str, Mark]]]
                    ) -> tuple[list[list[str]], list[tuple[Mark, ...]]]:
    """Split the (grid item, mark) pairs of a section that holds both."""
    return [[g for g, _ in row] for row in cells], [tuple(m for _, m in row) for row in cells]


@converter("akari", "lightup", "akari")
def _akari(board: Board) -> Converted:
    def read(tok: Token) -> tuple[str, Mark] | None:
        item = AKARI.get(tok.text)
        return item and (item[0], (item[1], item[2], tok))

    cells = read_cells(board, "the cells", "'#' bulb, '+', '.', a wall 0-4 or '-'", read)
    grid, marks = _grid_and_marks(cells)
    return Converted({"genre": "akari", "grid": as_text(grid)}, tuple(marks))


def _numbers_and_shading(board: Board, unknown: str, what: str,
                         min_number: int = 0) -> tuple[list[list[str]], list[tuple[Mark, ...]]]:
    """One section of numbers ('-' a number not given) and shading ('#' shaded, '+' marked
    white), as pzprjs's decodeCellQnumAns writes it."""
    def read(tok: Token) -> tuple[str, Mark] | None:
        t = tok.text
        if t in ("#", "+", "."):
            return ".", (t, "#" if t == "#" else "+", tok)
        n = _number(t, unknown, min_number)
        return n and (n, (n, n, tok))

    return _grid_and_marks(read_cells(board, "the cells", what, read))


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


def _number(t: str, unknown: str, min_number: int) -> str | None:
    """A number item: '-' a number not given, else at least `min_number`; None for neither."""
    if t == "-":
        return unknown
    return str(int(t)) if t.isdecimal() and int(t) >= min_number else None


def _numbers(board: Board, unknown: str, min_number: int = 0) -> list[list[str]]:
    """A section of numbers, '.' for none and '-' for a number not given (decodeCellQnum)."""
    return read_cells(board, "the numbers", "a number or '.'",
                      lambda tok: "." if tok.text == "." else _number(tok.text, unknown, min_number))


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
    def read(tok: Token) -> str | None:
        t = tok.text
        if t in (".", "-"):
            return {".": ".", "-": "?"}[t]
        return t if t.isdecimal() and int(t) <= 8 else None

    grid = read_cells(board, "the revealed cells", "a number 0-8, '-' or '.'", read)
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
