"""The pzprv3 board file itself: header, body lines with their places, and the registry of
converters that turn a puzzle type's sections into a genre's native puzzle and marks."""
from __future__ import annotations

import re
from typing import Any, Callable, Iterator, TypeVar

import attrs

from grader.core.errors import InputError, Source
from grader.io.limits import MAX_SIDE
from grader.io.native import MAX_TOKEN, Token

HEADER = re.compile(r"^pzprv3(\.\d+)?$")
T = TypeVar("T")
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
        if not text.strip().isdecimal() or len(text.strip()) > 3 or not 1 <= int(text) <= MAX_SIDE:
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
        tok = Token(stripped, line, col + len(text) - len(text.lstrip()))
        if len(stripped) > MAX_TOKEN:
            raise self.error(f"{what}: '{stripped[:MAX_TOKEN]}...' is too long", tok)
        return tok

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
            long = next((t for t in toks if len(t.text) > MAX_TOKEN), None)
            if long is not None:
                raise self.error(f"{what}: '{long.text[:MAX_TOKEN]}...' is too long for an item",
                                 long)
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


def as_text(rows: list[list[str]]) -> str:
    return "\n".join(" ".join(row) for row in rows) + "\n"


def cell_section(board: Board, what: str) -> list[list[Token]]:
    grid = board.section(board.rows, board.cols, what)
    return grid if grid is not None else [[Token(".", 0, 0)] * board.cols for _ in range(board.rows)]


def cell_error(board: Board, tok: Token, r: int, c: int, expected: str) -> InputError:
    return board.error(f"unexpected '{tok.text}' for r{r + 1}c{c + 1}: expected {expected}", tok)


def read_cells(board: Board, what: str, expected: str,
               read: Callable[[Token], T | None]) -> list[list[T]]:
    """A section of one item a cell, each turned into what the converter keeps by `read`;
    None from `read` is an item the genre does not allow, reported with `expected`."""
    grid = []
    for r, row in enumerate(cell_section(board, what)):
        g = []
        for c, tok in enumerate(row):
            item = read(tok)
            if item is None:
                raise cell_error(board, tok, r, c, expected)
            g.append(item)
        grid.append(g)
    return grid
