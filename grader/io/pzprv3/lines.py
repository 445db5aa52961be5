"""Converters for the line genres: loops, Numberlink lines and bridges between cell centres,
and Slitherlink's lines between dots."""
from __future__ import annotations

from typing import Any, Callable

from grader.io.native import Token
from grader.io.pzprv3.board import (Board, Converted, Mark, as_text, cell_error, cell_section, converter,
                                    read_cells)
from grader.io.pzprv3.cells import shading_section

def _value(board: Board, tok: Token, most: int) -> int:
    """A border of decodeBorderLine: 0 nothing, 1..most lines (bridges), -1 a cross."""
    t = tok.text
    if t.lstrip("-").isdecimal() and -1 <= int(t) <= most:
        return int(t)
    raise board.error(f"unexpected '{t}' for a line: expected 0, -1 (a cross) or 1"
                      + (f"-{most}" if most > 1 else ""), tok)


def _flags(board: Board, known: tuple[str, ...] = ()) -> list[str]:
    """An optional flags line (a variant) before the cells: a lone word where cells belong."""
    if board.at_end:
        return []
    text, line, col = board.body[board.pos]
    words = text.split()
    if len(words) == 1 and words[0].replace(",", "").isalpha() and (board.cols > 1 or words[0] != "."):
        tok = board.line("the flags")
        flags = [f for f in tok.text.split(",") if f]
        for f in flags:
            if f not in known:
                raise board.error(f"the variant flag '{f}' of {board.pid} is not supported", tok)
        return flags
    return []


def _cell_borders(board: Board, most: int = 1) -> tuple[list[list[int]], list[list[int]]]:
    """Lines between cell centres (pzprjs hasborder 1): `east[r][c]` joins r,c to r,c+1 and
    `south[r][c]` joins r,c to r+1,c."""
    east = board.section(board.rows, board.cols - 1, "the lines across columns") if board.cols > 1 else None
    south = board.section(board.rows - 1, board.cols, "the lines across rows") if board.rows > 1 else None
    return ([[_value(board, t, most) for t in row] for row in east] if east
            else [[0] * (board.cols - 1) for _ in range(board.rows)],
            [[_value(board, t, most) for t in row] for row in south] if south
            else [[0] * board.cols for _ in range(board.rows - 1)])


def _sides(board: Board, east: list[list[int]], south: list[list[int]], r: int, c: int) -> dict[str, int]:
    """The borders of cell r,c by direction (n e s w); the grid's edge is left out."""
    out = {}
    if r > 0:
        out["n"] = south[r - 1][c]
    if c < board.cols - 1:
        out["e"] = east[r][c]
    if r < board.rows - 1:
        out["s"] = south[r][c]
    if c > 0:
        out["w"] = east[r][c - 1]
    return out


def _cell_marks(board: Board, mark: Callable[[int, int, dict[str, int]], Mark],
                most: int = 1) -> tuple[tuple[Mark, ...], ...]:
    """The player's lines between cell centres as one mark a cell: `mark(r, c, its sides)`."""
    east, south = _cell_borders(board, most)
    return tuple(tuple(mark(r, c, _sides(board, east, south, r, c)) for c in range(board.cols))
                 for r in range(board.rows))


def _loop_token(sides: dict[str, int]) -> str:
    """A cell's lines as a direction token (`ns`, `e`), `-` when every side is crossed, else
    `.`; three or four lines (a wrong board) are left to the neighbours to say."""
    lines = "".join(d for d in "nesw" if sides.get(d, 0) > 0)
    if 1 <= len(lines) <= 2:
        return lines
    if not lines and all(v < 0 for v in sides.values()):
        return "-"
    return "."


@converter("masyu", "mashu", "masyu", "pearl")
def _mashu(board: Board) -> Converted:
    _flags(board)
    glyphs = {".": ".", "1": "W", "2": "B"}
    grid = read_cells(board, "the pearls", "'1' white pearl, '2' black pearl or '.'",
                      lambda tok: glyphs.get(tok.text))

    def mark(r: int, c: int, sides: dict[str, int]) -> Mark:
        t = _loop_token(sides)
        return t, "-" if t == "." else t, None

    return Converted({"genre": "masyu", "grid": as_text(grid)}, _cell_marks(board, mark),
                     finish_as_solution=True)


@converter("yajilin", "yajilin", "yajirin")
def _yajilin(board: Board) -> Converted:
    _flags(board)
    arrows = {"0": "", "1": "n", "2": "s", "3": "w", "4": "e"}
    grid = []
    for r, row in enumerate(cell_section(board, "the clues")):
        g = []
        for c, tok in enumerate(row):
            t = tok.text
            if t in (".", "#"):
                g.append(t); continue
            d, _, n = t.partition(",")
            if d not in arrows or not (n.isdecimal() or n == "-"):
                raise cell_error(board, tok, r, c, "'.', '#' or a clue such as '2,3' (arrow, number)")
            if not arrows[d] and n != "-":
                raise board.error(f"the clue {n} at r{r + 1}c{c + 1} has no arrow (pzprjs calls "
                                  "that a mistake in the puzzle)", tok)
            g.append("#" if n == "-" else f"{int(n)}{arrows[d]}")   # no number: a blocked cell
        grid.append(g)
    shading = shading_section(board, mine="x")

    def mark(r: int, c: int, sides: dict[str, int]) -> Mark:
        shaded, tok = shading[r][c][0], shading[r][c][2]
        if grid[r][c] != ".":
            t = "-"
        elif shaded == "x" and not any(v > 0 for v in sides.values()):
            t = "x"
        else:   # a line through a shaded cell (a mistake) keeps the line
            t = _loop_token(sides)
            if t == "-" or (t == "." and shaded == "+"):
                t = "+"     # not shaded, so on the loop
        return t, t, tok

    return Converted({"genre": "yajilin", "grid": as_text(grid)}, _cell_marks(board, mark),
                     finish_as_solution=True)


LINK_GLYPHS = {"ns": "┃", "ew": "━", "ne": "┗", "es": "┏", "sw": "┓", "nw": "┛"}


@converter("numberlink", "numlin", "numberlink", "arukone")
def _numlin(board: Board) -> Converted:
    flags = _flags(board, ("passallcell", "dontpassallcell"))
    cover = board.pid == "arukone" and "dontpassallcell" not in flags

    def read(tok: Token) -> str | None:
        t = tok.text
        if t == ".":
            return "."
        if t.isdecimal():
            return str(int(t))
        if len(t) == 1 and "A" <= t <= "Z":
            return str(ord(t) - ord("A") + 1)    # arukone shows 1, 2, 3 as A, B, C
        return None

    grid = read_cells(board, "the numbers", "a number, a letter or '.'", read)

    def mark(r: int, c: int, sides: dict[str, int]) -> Mark:
        if grid[r][c] != ".":
            return grid[r][c], grid[r][c], None
        lines = "".join(d for d in "nesw" if sides.get(d, 0) > 0)
        if lines in LINK_GLYPHS:
            t = LINK_GLYPHS[lines]
        elif not lines and all(v < 0 for v in sides.values()):
            t = "x"
        else:
            t = "."
        return t, "x" if t == "." and not lines else t, None

    doc: dict[str, Any] = {"genre": "numberlink", "grid": as_text(grid)}
    if cover:
        doc["cover"] = True
    return Converted(doc, _cell_marks(board, mark), finish_as_solution=True)


@converter("hashiwokakero", "hashikake", "hashi", "bridges")
def _hashikake(board: Board) -> Converted:
    grid = read_cells(board, "the islands", "an island 1-8 or '.' (every island needs its number)",
                      lambda tok: tok.text if tok.text == "." or tok.text.isdecimal()
                      and 1 <= int(tok.text) <= 8 else None)

    def mark(r: int, c: int, sides: dict[str, int]) -> Mark:
        if grid[r][c] != ".":
            return grid[r][c], grid[r][c], None
        across = max(sides.get("e", 0), sides.get("w", 0))
        down = max(sides.get("n", 0), sides.get("s", 0))
        # pzprjs marks every border a bridge crosses; a cross (-1) names one border and
        # has no glyph of its own, so it is left out (an 'x' would forbid both directions)
        t = "-=" [across - 1] if across > 0 else "|H"[down - 1] if down > 0 else "."
        return t, t, None

    return Converted({"genre": "hashiwokakero", "grid": as_text(grid)}, _cell_marks(board, mark, most=2),
                     finish_as_solution=True)


@converter("slitherlink", "slither", "slitherlink")
def _slither(board: Board) -> Converted:
    _flags(board)
    # '-' (a number not given) says nothing
    glyphs = {".": ".", "-": ".", **{n: n for n in "01234"}}
    grid = read_cells(board, "the numbers", "a number 0-4 or '.'", lambda tok: glyphs.get(tok.text))
    if board.version != "pzprv3":
        board.section(board.rows, board.cols, "the cell colours")    # the player's shading
    H, W = board.rows, board.cols
    down = board.section(H, W + 1, "the lines between dots of a column")
    across = board.section(H + 1, W, "the lines between dots of a row")
    draw = [[(" ", " ", None)] * (2 * W + 1) for _ in range(2 * H + 1)]
    for y in range(0, 2 * H + 1, 2):
        for x in range(0, 2 * W + 1, 2):
            draw[y][x] = ("+", "+", None)
    for y, x, sec, i, j, glyph in (
            [(2 * i + 1, 2 * j, down, i, j, "|") for i in range(H) for j in range(W + 1)]
            + [(2 * i, 2 * j + 1, across, i, j, "-") for i in range(H + 1) for j in range(W)]):
        tok = sec[i][j] if sec else None
        v = _value(board, tok, 1) if tok else 0
        t = glyph if v > 0 else "x" if v < 0 else "."
        draw[y][x] = (t, "x" if t == "." else t, tok)
    return Converted({"genre": "slitherlink", "grid": as_text(grid)},
                     tuple(tuple(row) for row in draw), joined=True)
