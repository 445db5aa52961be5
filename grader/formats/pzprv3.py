"""pzprv3 board files: what puzz.link (pzprjs) writes with "File > Save": the puzzle and the
player's progress.

    pzprv3            (or pzprv3.1: a newer layout of some genres)
    lightup           the puzzle type, as in puzz.link URLs
    6                 rows (rows first, unlike URLs)
    6                 columns
    . . # . . .       the body: genre-specific sections, one line per row of cells
    ...
    info:{...}        optional: metadata and the move history, ignored

pzprjs's own test scripts write the same file on one line with `/` for each line break
(`pzprv3/lightup/6/6/. . # . . . /...`); both forms are read.

A board becomes the genre's native puzzle text and native marks text, so each genre's own
readers (`from_native`, `parse_marks`) stay the one place for its rules. Every error names
the file, the line and column of the offending item, and the problem.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Iterator

import attrs

from ..errors import InputError, Source
from ..model import Puzzle, State
from .native import Token, dump

HEADER = re.compile(r"^pzprv3(\.\d+)?$")
# Lines that end the board: metadata and history (JSON), trial snapshots, an old URL line.
BODY_END = re.compile(r"^(info:\{|history:\{|__HISTORY__|TrialData|https?://)")


def looks_like_board(text: str) -> bool:
    """A pzprv3 file: its first line is `pzprv3` (or `pzprv3.N`), alone or before a `/`."""
    first = text.lstrip("\ufeff").split("\n", 1)[0].strip()
    return bool(HEADER.match(first.split("/", 1)[0]))


def _lines(text: str) -> list[tuple[str, int, int]]:
    """(text, line, column) of every logical line; the one-line form splits at `/`."""
    physical = text.lstrip("\ufeff").splitlines()
    slashed = bool(physical) and "/" in physical[0]
    out = []
    for n, raw in enumerate(physical, 1):
        if not slashed:
            out.append((raw, n, 1))
            continue
        col = 1
        for part in raw.split("/"):
            out.append((part, n, col))
            col += len(part) + 1
    if slashed and out and out[-1][0] == "":
        out.pop()       # the trailing `/` ends the last line, it does not start another
    return out


class Board:
    """A parsed board file: header, then a cursor over the body lines."""

    def __init__(self, text: str, origin: str):
        self.src = Source(origin, text)
        lines = _lines(text)
        if not lines or not HEADER.match(lines[0][0].strip()):
            raise self.src.error("not a pzprv3 board: the first line must be 'pzprv3'", 1, 1)
        self.version = lines[0][0].strip()
        if len(lines) < 4:
            raise self.src.error("the header needs four lines: pzprv3, the puzzle type, rows "
                                 "and columns", lines[-1][1], lines[-1][2])
        self.pid = lines[1][0].strip()
        self.pid_place = lines[1][1:]
        self.rows = self._size(lines[2], "rows")
        self.cols = self._size(lines[3], "columns")
        body = []
        for item in lines[4:]:
            if BODY_END.match(item[0].strip()):
                break
            body.append(item)
        self.body = body
        self.pos = 0

    def _size(self, item: tuple[str, int, int], what: str) -> int:
        text, line, col = item
        if not text.strip().isdigit() or not 1 <= int(text) <= 200:
            raise self.src.error(f"expected the number of {what} (1-200), found '{text.strip()}'",
                                 line, col)
        return int(text)

    def error(self, message: str, tok: Token | None = None) -> InputError:
        if tok is None:
            line, col = (self.body[self.pos - 1][1:] if 0 < self.pos <= len(self.body)
                         else (self.body[-1][1:] if self.body else self.pid_place))
            return self.src.error(message, line, col)
        return self.src.error(message, tok.line, tok.col)

    @property
    def at_end(self) -> bool:
        return all(not t.strip() for t, _, _ in self.body[self.pos:])

    def line(self, what: str) -> Token:
        """The next body line as one token (a count or flags)."""
        if self.pos >= len(self.body):
            raise self.error(f"the file ends before {what}")
        text, line, col = self.body[self.pos]
        self.pos += 1
        stripped = text.strip()
        return Token(stripped, line, col + len(text) - len(text.lstrip()))

    def section(self, height: int, width: int, what: str) -> list[list[Token]] | None:
        """`height` lines of `width` space-separated items; None when the body has ended (the
        section is absent: pzprjs then keeps the defaults, as in a board saved before play)."""
        if self.at_end:
            self.pos = len(self.body)
            return None
        grid = []
        for k in range(height):
            if self.pos >= len(self.body):
                raise self.error(f"{what}: the file ends after {k} of {height} lines")
            text, line, col = self.body[self.pos]
            self.pos += 1
            toks = list(_split(text, line, col))
            if len(toks) != width:
                place = toks[width] if len(toks) > width else Token("", line, col + len(text.rstrip()))
                raise self.error(f"{what}: line {k + 1} of {height} has {len(toks)} items, "
                                 f"expected {width}", place)
            grid.append(toks)
        return grid


def _split(text: str, line: int, col0: int) -> Iterator[Token]:
    for m in re.finditer(r"\S+", text):
        yield Token(m.group(), line, col0 + m.start())


# --- what a converter produces ----------------------------------------------------------

@attrs.frozen
class Converted:
    """The genre's native puzzle document and the player's marks in its native syntax. Each
    mark is (as marked, as read when the board is finished, the file token it came from): in
    pzprjs an unmarked cell counts as unshaded (no bulb, no line) once the board is complete,
    and a mark the genre rejects is reported at its token."""
    doc: dict[str, Any]
    marks: tuple[tuple["Mark", ...], ...]
    joined: bool = False            # marks are single characters written without spaces
    finish_as_solution: bool = False    # the finished board is read as the native solution


Mark = tuple[str, str, "Token | None"]     # (as marked, as read when finished, where)
Converter = Callable[[Board], Converted]
CONVERTERS: dict[str, tuple[str, Converter]] = {}   # pid -> (genre name, converter)


def converter(genre: str, *pids: str) -> Callable[[Converter], Converter]:
    def register(fn: Converter) -> Converter:
        for pid in pids:
            CONVERTERS[pid] = (genre, fn)
        return fn
    return register


def _text(rows: list[list[str]]) -> str:
    return "\n".join(" ".join(row) for row in rows) + "\n"


def _cells(board: Board, what: str) -> list[list[Token]]:
    grid = board.section(board.rows, board.cols, what)
    return grid if grid is not None else [[Token(".", 0, 0)] * board.cols for _ in range(board.rows)]


def _cell_error(board: Board, tok: Token, r: int, c: int, expected: str) -> InputError:
    return board.error(f"unexpected '{tok.text}' for r{r + 1}c{c + 1}: expected {expected}", tok)


# --- shading and bulb genres -----------------------------------------------------------

@converter("akari", "lightup", "akari")
def _akari(board: Board) -> Converted:
    # One section: numbers are walls ('-' a wall without a number), '#' a bulb, '+' no bulb.
    grid, marks = [], []
    for r, row in enumerate(_cells(board, "the cells")):
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
                raise _cell_error(board, tok, r, c, "'#' bulb, '+', '.', a wall 0-4 or '-'")
        grid.append(g); marks.append(tuple(m))
    return Converted({"genre": "akari", "grid": _text(grid)}, tuple(marks))


def _numbers_and_shading(board: Board, unknown: str, what: str,
                         min_number: int = 0) -> tuple[list[list[str]], list[tuple[Mark, ...]]]:
    """One section of numbers ('-' a number not given) and shading ('#' shaded, '+' marked
    white), as pzprjs's decodeCellQnumAns writes it."""
    grid, marks = [], []
    for r, row in enumerate(_cells(board, "the cells")):
        g, m = [], []
        for c, tok in enumerate(row):
            t = tok.text
            if t in ("#", "+", "."):
                g.append("."); m.append((t, "#" if t == "#" else "+", tok))
            elif t == "-":
                g.append(unknown); m.append((unknown, unknown, tok))
            elif t.isdigit() and int(t) >= min_number:
                g.append(str(int(t))); m.append((str(int(t)), str(int(t)), tok))
            else:
                raise _cell_error(board, tok, r, c, what)
        grid.append(g); marks.append(tuple(m))
    return grid, marks


@converter("nurikabe", "nurikabe")
def _nurikabe(board: Board) -> Converted:
    grid, marks = _numbers_and_shading(board, "?", "'#', '+', '.', an island size or '-'", 1)
    return Converted({"genre": "nurikabe", "grid": _text(grid)}, tuple(marks))


def _shading_section(board: Board, mine: str = "#") -> list[tuple[Mark, ...]]:
    """The answer section of decodeCellAns: '#' shaded, '+' marked white, '.' nothing."""
    sec = board.section(board.rows, board.cols, "the shaded cells")
    marks = []
    for r in range(board.rows):
        m = []
        for c in range(board.cols):
            tok = sec[r][c] if sec else None
            t = tok.text if tok else "."
            if t not in ("#", "+", "."):
                raise _cell_error(board, tok, r, c, "'#' shaded, '+' white or '.'")
            m.append((mine if t == "#" else t, mine if t == "#" else "+", tok))
        marks.append(tuple(m))
    return marks


@converter("kuromasu", "kurodoko")
def _kurodoko(board: Board) -> Converted:
    grid = _numbers(board, "?", 1)
    return Converted({"genre": "kuromasu", "grid": _text(grid)}, tuple(_shading_section(board)))


def _numbers(board: Board, unknown: str, min_number: int = 0) -> list[list[str]]:
    """A section of numbers, '.' for none and '-' for a number not given (decodeCellQnum)."""
    grid = []
    for r, row in enumerate(_cells(board, "the numbers")):
        g = []
        for c, tok in enumerate(row):
            if tok.text == ".":
                g.append(".")
            elif tok.text == "-":
                g.append(unknown)
            elif tok.text.isdigit() and int(tok.text) >= min_number:
                g.append(str(int(tok.text)))
            else:
                raise _cell_error(board, tok, r, c, "a number or '.'")
        grid.append(g)
    return grid


@converter("hitori", "hitori")
def _hitori(board: Board) -> Converted:
    grid = _numbers(board, ".")
    return Converted({"genre": "hitori", "grid": _text(grid)}, tuple(_shading_section(board)))


@converter("heyawake", "heyawake", "heyawacky")
def _heyawake(board: Board) -> Converted:
    rooms = [["0"] * board.cols for _ in range(board.rows)]
    if not board.at_end:
        count = board.line("the number of rooms")
        if not count.text.isdigit():
            raise board.error(f"expected the number of rooms, found '{count.text}'", count)
        sec = board.section(board.rows, board.cols, "the rooms")
        for r, row in enumerate(sec or []):
            for c, tok in enumerate(row):
                if not tok.text.isdigit() or int(tok.text) >= int(count.text):
                    raise _cell_error(board, tok, r, c, f"a room number below {count.text}")
                rooms[r][c] = tok.text
    grid = _numbers(board, ".")      # '-' (a room whose count is not given) is no count
    return Converted({"genre": "heyawake", "rooms": _text(rooms), "grid": _text(grid)},
                     tuple(_shading_section(board)))


@converter("minesweeper", "mines")
def _mines(board: Board) -> Converted:
    grid = []
    for r, row in enumerate(_cells(board, "the revealed cells")):
        g = []
        for c, tok in enumerate(row):
            t = tok.text
            if t == ".":
                g.append(".")
            elif t == "-":
                g.append("?")
            elif t.isdigit() and int(t) <= 8:
                g.append(t)
            else:
                raise _cell_error(board, tok, r, c, "a number 0-8, '-' or '.'")
        grid.append(g)
    marks = _shading_section(board, mine="*")
    # A revealed cell is safe already: its mark stays '.'.
    marks = [tuple(mark if grid[r][c] == "." else (".", ".", mark[2]) for c, mark in enumerate(row))
             for r, row in enumerate(marks)]
    return Converted({"genre": "minesweeper", "grid": _text(grid)}, tuple(marks))


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
            if not n.isdigit() or int(n) == 0:
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
                raise _cell_error(board, tok, r, c, "'#' filled, '+' empty or '.'")
            m.append((tok.text, "#" if tok.text == "#" else "+", tok))
        marks.append(tuple(m))
    return Converted({"genre": "picross", "rows": "\n".join(rows) + "\n",
                      "columns": "\n".join(cols) + "\n"}, tuple(marks))


# --- line genres ---------------------------------------------------------------------------

def _value(board: Board, tok: Token, most: int) -> int:
    """A border of decodeBorderLine: 0 nothing, 1..most lines (bridges), -1 a cross."""
    t = tok.text
    if t.lstrip("-").isdigit() and -1 <= int(t) <= most:
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
    grid = []
    for r, row in enumerate(_cells(board, "the pearls")):
        g = []
        for c, tok in enumerate(row):
            if tok.text not in glyphs:
                raise _cell_error(board, tok, r, c, "'1' white pearl, '2' black pearl or '.'")
            g.append(glyphs[tok.text])
        grid.append(g)
    east, south = _cell_borders(board)
    marks = []
    for r in range(board.rows):
        m = []
        for c in range(board.cols):
            t = _loop_token(_sides(board, east, south, r, c))
            m.append((t, "-" if t == "." else t, None))
        marks.append(tuple(m))
    return Converted({"genre": "masyu", "grid": _text(grid)}, tuple(marks), finish_as_solution=True)


@converter("yajilin", "yajilin", "yajirin")
def _yajilin(board: Board) -> Converted:
    _flags(board)
    arrows = {"0": "", "1": "n", "2": "s", "3": "w", "4": "e"}
    grid = []
    for r, row in enumerate(_cells(board, "the clues")):
        g = []
        for c, tok in enumerate(row):
            t = tok.text
            if t in (".", "#"):
                g.append(t); continue
            d, _, n = t.partition(",")
            if d not in arrows or not (n.isdigit() or n == "-"):
                raise _cell_error(board, tok, r, c, "'.', '#' or a clue such as '2,3' (arrow, number)")
            if not arrows[d] and n != "-":
                raise board.error(f"the clue {n} at r{r + 1}c{c + 1} has no arrow (pzprjs calls "
                                  "that a mistake in the puzzle)", tok)
            g.append("#" if n == "-" else f"{int(n)}{arrows[d]}")   # no number: a blocked cell
        grid.append(g)
    shading = _shading_section(board, mine="x")
    east, south = _cell_borders(board)
    marks = []
    for r in range(board.rows):
        m = []
        for c in range(board.cols):
            shaded, tok = shading[r][c][0], shading[r][c][2]
            sides = _sides(board, east, south, r, c)
            if grid[r][c] != ".":
                t = "-"
            elif shaded == "x" and not any(v > 0 for v in sides.values()):
                t = "x"
            else:   # a line through a shaded cell (a mistake) keeps the line
                t = _loop_token(sides)
                if t == "-" or (t == "." and shaded == "+"):
                    t = "+"     # not shaded, so on the loop
            m.append((t, t, tok))
        marks.append(tuple(m))
    return Converted({"genre": "yajilin", "grid": _text(grid)}, tuple(marks), finish_as_solution=True)


LINK_GLYPHS = {"ns": "┃", "ew": "━", "ne": "┗", "es": "┏", "sw": "┓", "nw": "┛"}


@converter("numberlink", "numlin", "numberlink", "arukone")
def _numlin(board: Board) -> Converted:
    flags = _flags(board, ("passallcell", "dontpassallcell"))
    cover = board.pid == "arukone" and "dontpassallcell" not in flags
    grid = []
    for r, row in enumerate(_cells(board, "the numbers")):
        g = []
        for c, tok in enumerate(row):
            t = tok.text
            if t == ".":
                g.append(".")
            elif t.isdigit():
                g.append(str(int(t)))
            elif len(t) == 1 and "A" <= t <= "Z":
                g.append(str(ord(t) - ord("A") + 1))    # arukone shows 1, 2, 3 as A, B, C
            else:
                raise _cell_error(board, tok, r, c, "a number, a letter or '.'")
        grid.append(g)
    east, south = _cell_borders(board)
    marks = []
    for r in range(board.rows):
        m = []
        for c in range(board.cols):
            if grid[r][c] != ".":
                m.append((grid[r][c], grid[r][c], None)); continue
            sides = _sides(board, east, south, r, c)
            lines = "".join(d for d in "nesw" if sides.get(d, 0) > 0)
            if lines in LINK_GLYPHS:
                t = LINK_GLYPHS[lines]
            elif not lines and all(v < 0 for v in sides.values()):
                t = "x"
            else:
                t = "."
            m.append((t, "x" if t == "." and not lines else t, None))
        marks.append(tuple(m))
    doc: dict[str, Any] = {"genre": "numberlink", "grid": _text(grid)}
    if cover:
        doc["cover"] = True
    return Converted(doc, tuple(marks), finish_as_solution=True)


@converter("hashiwokakero", "hashikake", "hashi", "bridges")
def _hashikake(board: Board) -> Converted:
    grid = []
    for r, row in enumerate(_cells(board, "the islands")):
        g = []
        for c, tok in enumerate(row):
            t = tok.text
            if t == ".":
                g.append(".")
            elif t.isdigit() and 1 <= int(t) <= 8:
                g.append(t)
            else:
                raise _cell_error(board, tok, r, c, "an island 1-8 or '.' (every island needs its number)")
        grid.append(g)
    east, south = _cell_borders(board, most=2)
    marks = []
    for r in range(board.rows):
        m = []
        for c in range(board.cols):
            if grid[r][c] != ".":
                m.append((grid[r][c], grid[r][c], None)); continue
            sides = _sides(board, east, south, r, c)
            across = max(sides.get("e", 0), sides.get("w", 0))
            down = max(sides.get("n", 0), sides.get("s", 0))
            # pzprjs marks every border a bridge crosses; a cross (-1) names one border and
            # has no glyph of its own, so it is left out (an 'x' would forbid both directions)
            t = "-=" [across - 1] if across > 0 else "|H"[down - 1] if down > 0 else "."
            m.append((t, t, None))
        marks.append(tuple(m))
    return Converted({"genre": "hashiwokakero", "grid": _text(grid)}, tuple(marks),
                     finish_as_solution=True)


@converter("slitherlink", "slither", "slitherlink")
def _slither(board: Board) -> Converted:
    _flags(board)
    grid = []
    for r, row in enumerate(_cells(board, "the numbers")):
        g = []
        for c, tok in enumerate(row):
            t = tok.text
            if t in (".", "-"):
                g.append(".")       # '-' (a number not given) says nothing
            elif t in ("0", "1", "2", "3", "4"):
                g.append(t)
            else:
                raise _cell_error(board, tok, r, c, "a number 0-4 or '.'")
        grid.append(g)
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
    return Converted({"genre": "slitherlink", "grid": _text(grid)},
                     tuple(tuple(row) for row in draw), joined=True)


# --- reading ----------------------------------------------------------------------------

@attrs.frozen
class Read:
    puzzle: Puzzle
    marks: State                    # what the player marked (or the solution it completes)
    finished: State | None = None   # the board with unmarked cells empty, when that is complete

    def verdict(self) -> tuple[str, list[str]]:
        """'solved', 'mistake' (with the rules the marks already break) or 'unfinished'. Unlike
        pzprjs's check, a board still being played is unfinished, not wrong: only what the
        player marked can be a mistake."""
        from ..genres import genre_of
        broken = [v.message for v in genre_of(self.puzzle).violations(self.puzzle, self.marks)]
        if broken:
            return "mistake", broken
        return ("solved" if self.marks.complete else "unfinished"), []


def _convert(board: Board) -> tuple[str, Converted]:
    if board.pid not in CONVERTERS:
        known = ", ".join(sorted(CONVERTERS))
        raise board.src.error(f"puzzle type '{board.pid}' is not supported in board files "
                              f"(supported: {known})", *board.pid_place)
    genre, fn = CONVERTERS[board.pid]
    return genre, fn(board)


def _puzzle(board: Board, conv: Converted) -> Puzzle:
    from . import load_native
    try:
        return load_native(dump(conv.doc), board.src.origin)
    except InputError as exc:
        # The genre rejects the puzzle itself (say, a number too big for its room).
        raise board.src.error(exc.message, *board.pid_place) from None


def _marks_text(conv: Converted, finished: bool) -> tuple[str, int]:
    """The marks as native text, and the width of one mark in it (to map errors back)."""
    k = 1 if finished else 0
    if conv.joined:
        return "\n".join("".join(m[k] for m in row) for row in conv.marks) + "\n", 1
    width = max(len(m[k]) for row in conv.marks for m in row) + 1
    return "\n".join("".join(m[k].ljust(width) for m in row).rstrip() for row in conv.marks) + "\n", width


def _parse_marks(board: Board, puzzle: Puzzle, conv: Converted, finished: bool) -> State:
    from ..genres import genre_of
    text, width = _marks_text(conv, finished)
    try:
        return genre_of(puzzle).parse_marks(puzzle, text, Source(board.src.origin, text))
    except InputError as exc:
        tok = None
        if exc.line is not None and 1 <= exc.line <= len(conv.marks):
            row = conv.marks[exc.line - 1]
            tok = row[min(((exc.column or 1) - 1) // width, len(row) - 1)][2]
        if tok is not None and tok.line:
            raise board.src.error(exc.message, tok.line, tok.col) from None
        raise board.src.error(exc.message, *board.pid_place) from None


def _placed(mark: Mark) -> bool:
    """A shaded cell, a bulb, a mine or a line: something the player put there (not a clue)."""
    marked, finished, _ = mark
    return marked == finished and marked not in (".", "+", "?", " ") and not marked[0].isdigit()


def _marks(board: Board, puzzle: Puzzle, conv: Converted) -> tuple[State, State | None]:
    """The marks as a state, and the board as pzprjs judges it, where unmarked cells count as
    unshaded or empty (None when that is no complete board, or nothing was placed). A finished
    board that breaks no rule reads as that solution."""
    from ..genres import genre_of
    state = _parse_marks(board, puzzle, conv, finished=False)
    if state.complete:
        return state, state
    if not any(_placed(m) for row in conv.marks for m in row):
        return state, None      # pzprjs too calls a board without anything placed unfinished
    try:
        if conv.finish_as_solution:
            # marks cannot say "this endpoint's line leaves east" or "exactly one bridge";
            # the genre's solution reader can
            from . import load_native
            solved = load_native(dump({**conv.doc, "solution": _marks_text(conv, True)[0]}),
                                 board.src.origin)
            done = genre_of(puzzle).solution_state(solved)
        else:
            done = _parse_marks(board, puzzle, conv, finished=True)
    except InputError:
        return state, None
    if done is None or not done.complete:
        return state, None
    return (state if genre_of(puzzle).violations(puzzle, done) else done), done


def read(text: str, origin: str) -> Read:
    """The puzzle and the player's marks of a board file."""
    board = Board(text, origin)
    _, conv = _convert(board)
    puzzle = _puzzle(board, conv)
    return Read(puzzle, *_marks(board, puzzle, conv))


def load(text: str, origin: str) -> Puzzle:
    return read(text, origin).puzzle


def marks_for(puzzle: Puzzle, text: str, origin: str) -> Read:
    """A board file given as the player's marks for a puzzle read elsewhere (a URL): the board's
    puzzle must be the same puzzle."""
    from ..genres import genre_of
    board = Board(text, origin)
    genre, conv = _convert(board)
    g = genre_of(puzzle)
    if genre != g.name:
        raise board.src.error(f"this board is a {genre} puzzle, not {g.name}", *board.pid_place)
    own = _puzzle(board, conv)
    if g.render_text(own) != g.render_text(puzzle):
        raise board.src.error("the board holds a different puzzle from the one given", 1, 1)
    return Read(puzzle, *_marks(board, puzzle, conv))
