"""Boards for people (`Genre.render_board`): the whole puzzle drawn in a Unicode grid that
lines up in a monospace terminal. Every character used is one column wide (box drawing,
blocks, arrows, the middle dot; no emoji), and every cell of a board is as wide as the others.

The marks, the same in every genre:
  ·  undecided (a cell, or a loop cell nothing is known of)
  ×  decided empty in a partial state: no bulb, no mine, white, a crossed-out edge or cell;
     in a complete state (a solution) these are left blank, so the answer reads as drawn
  █  a shaded (filled) cell; a shaded number keeps its number between blocks: █3█
  ▓  a block given by the puzzle (an Akari wall, ▓2▓ a numbered one; a Yajilin cell blocked
     without a clue; a void Minesweeper cell)
  ●  an Akari bulb, a Minesweeper mine
  (5)  a Hitori number marked unshaded while the board is unfinished
  +  a Yajilin cell known to be on the loop before any of its lines is
  2→ ←1  Yajilin clues; Arrows boxes show the arrow above the number
  (3)  a Hashiwokakero island
  ○ ●  Masyu white and black pearls
  ─ │ ┌ ┐ └ ┘  lines through cell centres (Masyu, Yajilin, Numberlink) or along the edges
     between dots (Slitherlink); ═ ║ double bridges (Hashiwokakero)
  !  a cell or edge with no candidate left (a contradiction)

grader/io/text.py stays the native grid syntax (marks files, native solutions, round trips).
"""
from __future__ import annotations

import unicodedata
from typing import Callable, Sequence

import attrs

UNDECIDED = "·"
EMPTY = "×"
SHADE = "█"
BLOCK = "▓"
BROKEN = "!"

# Light box-drawing characters by the arms they have: north 1, east 2, south 4, west 8.
N_, E_, S_, W_ = 1, 2, 4, 8
BOX = {0: " ", N_: "╵", E_: "╶", S_: "╷", W_: "╴", N_ | S_: "│", E_ | W_: "─",
       N_ | E_: "└", E_ | S_: "┌", S_ | W_: "┐", N_ | W_: "┘",
       N_ | E_ | S_: "├", N_ | S_ | W_: "┤", E_ | S_ | W_: "┬", N_ | E_ | W_: "┴",
       N_ | E_ | S_ | W_: "┼"}


def display_width(s: str) -> int:
    """Columns a string takes in a terminal: wide (W, F) characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s
               if not unicodedata.combining(ch))


@attrs.frozen
class Tok:
    """What a cell shows: its text, and what pads it (a space, or █ for a shaded cell)."""
    text: str = ""
    fill: str = " "
    wrap: str = ""      # two characters in place of the pads: "(5)" a number marked white


SHADED_TOK = Tok("", SHADE)
BLOCK_TOK = Tok("", BLOCK)


def _cell(tok: Tok, k: int) -> str:
    """A cell k + 2 columns wide: the text right-aligned in k columns, one pad each side."""
    if tok.wrap:
        return (tok.wrap[0] + tok.text + tok.wrap[1]).rjust(k + 2)
    return tok.fill + tok.text.rjust(k, tok.fill) + tok.fill


def cell_width(cells: Sequence[Sequence[Tok]]) -> int:
    return max((len(t.text) for row in cells for t in row), default=1) or 1


def framed(cells: Sequence[Sequence[Tok]], k: int | None = None) -> str:
    """A grid of cells in a light frame, without lines between cells (shaded cells side by
    side make one black bar)."""
    k = cell_width(cells) if k is None else k
    cols = len(cells[0]) if cells else 0
    inner = cols * (k + 2)
    lines = ["┌" + "─" * inner + "┐"]
    lines += ["│" + "".join(_cell(t, k) for t in row) + "│" for row in cells]
    lines.append("└" + "─" * inner + "┘")
    return "\n".join(lines)


def with_rooms(cells: Sequence[Sequence[Tok]], room_of: Sequence[int]) -> str:
    """A grid of cells with lines only where rooms meet (and around the board): cells of one
    room share one open area."""
    k = cell_width(cells)
    rows, cols = len(cells), len(cells[0]) if cells else 0

    def room(r: int, c: int) -> int:
        return room_of[r * cols + c] if 0 <= r < rows and 0 <= c < cols else -1

    def vwall(r: int, c: int) -> bool:    # the line left of cell (r, c), 0 <= c <= cols
        return 0 <= r < rows and room(r, c - 1) != room(r, c)

    def hwall(r: int, c: int) -> bool:    # the line above cell (r, c), 0 <= r <= rows
        return 0 <= c < cols and room(r - 1, c) != room(r, c)

    out = []
    for r in range(rows + 1):
        line = []
        for c in range(cols + 1):         # the corner above-left of cell (r, c), then its top
            arms = ((N_ if vwall(r - 1, c) else 0) | (S_ if vwall(r, c) else 0)
                    | (W_ if hwall(r, c - 1) else 0) | (E_ if hwall(r, c) else 0))
            line.append(BOX[arms])
            if c < cols:
                line.append(("─" if hwall(r, c) else " ") * (k + 2))
        out.append("".join(line))
        if r < rows:
            line = []
            for c in range(cols + 1):
                line.append("│" if vwall(r, c) else " ")
                if c < cols:
                    line.append(_cell(cells[r][c], k))
            out.append("".join(line))
    return "\n".join(out)


class Canvas:
    """Characters on a grid of rows x columns positions, for boards drawn with lines."""

    def __init__(self, height: int, width: int):
        self.rows = [[" "] * width for _ in range(height)]

    def put(self, y: int, x: int, s: str) -> None:
        for k, ch in enumerate(s):
            if 0 <= y < len(self.rows) and 0 <= x + k < len(self.rows[y]):
                self.rows[y][x + k] = ch

    def text(self) -> str:
        return "\n".join("".join(row) for row in self.rows)


# --- lines through cell centres (Masyu, Yajilin, Numberlink) ------------------------------
# A cell's centre sits at column 4c + 1 of row 2r; the three columns after it carry the line
# to the east neighbour (× in the middle one when crossed out), and row 2r + 1 carries the
# line to the south neighbour (× when crossed out). Centres show a stroke (┌ ─ ...), a clue,
# or · when nothing is known.
PITCH_X, PITCH_Y = 4, 2

LINE, CROSS, OPEN_EDGE, NO_EDGE = "line", "cross", "open", "none"


def centre_lines(rows: int, cols: int, edge: Callable[[int, str], str],
                 centre: Callable[[int, int], str | None], shaded: Callable[[int], str | None],
                 complete: bool, quiet: Callable[[int], bool] | None = None) -> str:
    """edge(i, d) for d in 'e', 's': LINE, CROSS, OPEN_EDGE or NO_EDGE (a broken one: '!');
    centre(i, arms) what the cell shows (None: the stroke of its arms, or · without any);
    shaded(i): a fill for the whole cell (█ or ▓) or None; quiet(i): no crosses are drawn
    beside cell i (a clue or shaded cell, where no line goes anyway; default: shaded)."""
    if quiet is None:
        quiet = lambda i: bool(shaded(i))    # noqa: E731
    cv = Canvas(PITCH_Y * rows - 1, PITCH_X * cols + 1)
    arms = [0] * (rows * cols)
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        if c + 1 < cols and edge(i, "e") == LINE:
            arms[i] |= E_
            arms[i + 1] |= W_
        if r + 1 < rows and edge(i, "s") == LINE:
            arms[i] |= S_
            arms[i + cols] |= N_
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        y, x = PITCH_Y * r, PITCH_X * c + 1
        fill = shaded(i)
        if fill:
            cv.put(y, x - 1, fill * 3)
        else:
            shown = centre(i, arms[i])
            cv.put(y, x, shown if shown is not None else (BOX[arms[i]] if arms[i] else UNDECIDED))
        for d, dy, dx in (("e", 0, 1), ("s", 1, 0)):
            if (d == "e" and c + 1 >= cols) or (d == "s" and r + 1 >= rows):
                continue
            e = edge(i, d)
            if e == LINE:
                cv.put(y + dy, x + dx, "───" if d == "e" else "│")
                if d == "e" and len(centre(i, arms[i]) or "") > 1 and not fill:
                    cv.put(y, x, centre(i, arms[i]) or "")
            elif e == CROSS and not complete and not quiet(i) and not quiet(i + (1 if d == "e" else cols)):
                cv.put(y + dy, x + 2 * dx, EMPTY)     # (beside a shaded or given block: no cross)
            elif e == NO_EDGE:
                cv.put(y + dy, x + 2 * dx, BROKEN)
    return cv.text()
