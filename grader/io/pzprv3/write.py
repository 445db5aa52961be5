"""Write a puzzle and a player's marks as a pzprv3 board file, the inverse of the readers in
cells.py, for the cell genres whose marks are one shaded/white choice per cell (Light Up,
Nurikabe, Kurodoko, Hitori, Heyawake, Minesweeper): what "copy as pzprv3" gives a player to
take the board to puzz.link. The line genres, Nonograms and Arrows are not written yet."""
from __future__ import annotations

from grader.core.errors import InputError
from grader.core.model import Puzzle, State

PIDS = {"akari": "lightup", "nurikabe": "nurikabe", "kuromasu": "kurodoko", "hitori": "hitori",
        "heyawake": "heyawake", "minesweeper": "mines"}
PLACED, WHITE = 2, 1          # value 1 (bulb, wall, shaded, mine) alone; value 0 alone


def supported(genre: str) -> bool:
    return genre in PIDS


def write(puzzle: Puzzle, state: State | None = None) -> str:
    """The board file; InputError for a genre not written yet."""
    genre = puzzle.genre
    if genre.name not in PIDS:
        raise InputError(genre.name, "pzprv3 board files are written for "
                         + ", ".join(sorted(PIDS)) + " only, not yet for this genre")
    state = state or genre.initial_state(puzzle)
    doc = genre.to_native(puzzle)
    grid = [line.split() for line in doc["grid"].splitlines() if line.strip()]
    rows, cols = len(grid), len(grid[0])

    def mark(r: int, c: int, placed: str = "#") -> str:
        m = state.cands[genre.cell_var(puzzle, r, c)]
        return placed if m == PLACED else "+" if m == WHITE else "."

    start = genre.initial_state(puzzle).cands

    def shading(placed: str = "#") -> list[list[str]]:
        """Every cell the player decides (a Hitori number, a Heyawake room's clue cell too)."""
        def fixed(r: int, c: int) -> bool:
            m = start[genre.cell_var(puzzle, r, c)]
            return not m & (m - 1)
        return [["." if fixed(r, c) else mark(r, c, placed) for c in range(cols)] for r in range(rows)]

    def numbers(unknown: str = "-") -> list[list[str]]:
        return [[unknown if t == "?" else t if t.isdecimal() else "." for t in row] for row in grid]

    name = genre.name
    if name == "akari":
        sections = [[["-" if t == "#" else t if t.isdecimal() else mark(r, c) for c, t in enumerate(row)]
                     for r, row in enumerate(grid)]]
    elif name == "nurikabe":
        sections = [[["-" if t == "?" else t if t.isdecimal() else mark(r, c) for c, t in enumerate(row)]
                     for r, row in enumerate(grid)]]
    elif name in ("kuromasu", "hitori"):
        sections = [numbers(), shading()]
    elif name == "heyawake":
        labels: dict[str, str] = {}
        rooms = [[labels.setdefault(t, str(len(labels))) for t in line.split()]
                 for line in doc["rooms"].splitlines() if line.strip()]
        sections = [[[str(len(labels))]], rooms, numbers(), shading()]
    else:   # minesweeper: the revealed cells, then the mines ('+' a cell marked safe)
        revealed = [["-" if t == "?" else t if t.isdecimal() else "." for t in row] for row in grid]
        sections = [revealed, shading()]
    body = "".join("".join(" ".join(row) + " \n" for row in section) for section in sections)
    return f"pzprv3\n{PIDS[name]}\n{rows}\n{cols}\n{body}"
