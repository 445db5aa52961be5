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


Mark = tuple[str, str, "Token | None"]
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
    marks = [tuple((".", ".", tok) if grid[r][c] != "." else mark for c, (mark, (_, _, tok))
                   in enumerate(zip(row, row))) for r, row in enumerate(marks)]
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
            if tok.text == ".":
                continue
            if not tok.text.isdigit() or int(tok.text) == 0:
                raise board.error(f"unexpected '{tok.text}' in a clue: expected a block length", tok)
            nums.append(tok.text)
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


# --- reading ----------------------------------------------------------------------------

@attrs.frozen
class Read:
    puzzle: Puzzle
    marks: State


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


def _parse_marks(board: Board, puzzle: Puzzle, conv: Converted, finished: bool) -> State:
    from ..genres import genre_of
    k = 1 if finished else 0
    width = max(len(m[k]) for row in conv.marks for m in row) + 1
    text = "\n".join("".join(m[k].ljust(width) for m in row).rstrip() for row in conv.marks) + "\n"
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
    return marked == finished and marked not in (".", "+", "?") and not marked[0].isdigit()


def _marks(board: Board, puzzle: Puzzle, conv: Converted) -> State:
    """The marks as a state; a board pzprjs would accept as solved, where unmarked cells count
    as unshaded or empty, reads as that finished solution."""
    from ..genres import genre_of
    state = _parse_marks(board, puzzle, conv, finished=False)
    if state.complete or not any(_placed(m) for row in conv.marks for m in row):
        return state        # pzprjs too calls a board without anything placed unfinished
    try:
        done = _parse_marks(board, puzzle, conv, finished=True)
    except InputError:
        return state
    if done.complete and not genre_of(puzzle).violations(puzzle, done):
        return done
    return state


def read(text: str, origin: str) -> Read:
    """The puzzle and the player's marks of a board file."""
    board = Board(text, origin)
    _, conv = _convert(board)
    puzzle = _puzzle(board, conv)
    return Read(puzzle, _marks(board, puzzle, conv))


def load(text: str, origin: str) -> Puzzle:
    return read(text, origin).puzzle


def marks_for(puzzle: Puzzle, text: str, origin: str) -> State:
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
    return _marks(board, puzzle, conv)
