"""Kuromasu (Kurodoko; Simon Tatham's Range): shade cells so that shaded cells never touch side
by side, the white cells form one connected area, numbered cells stay white, and each number
counts the white cells it sees along its row and column up to a shaded cell or the edge,
itself included.

Variables: every cell, values WHITE / SHADED (grader.kernels.shading). Var = r * cols + c.
Grid syntax: `.` a cell, a number a clue, `?` a clue of unknown value (white, no count); in
solutions and marks `#` shaded and `+` white.
"""
from __future__ import annotations

import functools
from typing import Any, Sequence

import attrs

from grader.core.errors import Source
from grader.io import puzzlink, tatham
from grader.core.genre import PUZZLINK, TATHAM, CannotWrite
from grader.io.native import Grid, NativeSource
from grader.core.model import Cell, Meta, State, Violation
from grader.genres import register
from grader.io.janko import cells as janko_cells, meta as janko_meta
from grader.io import board
from grader.io.marked_cells import ShadingGenre, mark_tok, shaded_grid_svg
from grader.kernels.grid import VERTICAL_FIRST, GridPuzzle
from grader.kernels.shading import B_SHADED, B_WHITE, shading_violations
from grader.genres.kuromasu import ALIASES, JANKO_NAMES, PUZZLINK_PIDS

NO_CLUE, UNKNOWN = -1, -2
DIRECTIONS = VERTICAL_FIRST
DIRECTION_NAMES = ("up", "down", "to the left", "to the right")


@attrs.frozen(kw_only=True, slots=False)
class KuromasuPuzzle(GridPuzzle):
    clues: tuple[int, ...]      # per cell: the number, NO_CLUE, or UNKNOWN ('?')

    @functools.cached_property
    def numbered(self) -> tuple[int, ...]:
        return tuple(i for i, n in enumerate(self.clues) if n > 0)

    @functools.cached_property
    def rays(self) -> Rays:
        """Per cell, the cells in each direction (up, down, left, right), nearest first."""
        return Rays(self.rows, self.cols)

    @functools.cached_property
    def seen_by(self) -> tuple[tuple[int, ...], ...]:
        """Per cell, the numbered cells in its row and column."""
        out: list[list[int]] = [[] for _ in self.clues]
        for k in self.numbered:
            for ray in self.rays[k]:
                for j in ray:
                    out[j].append(k)
        return tuple(tuple(sorted(v)) for v in out)

    @functools.cached_property
    def seen_at(self) -> tuple[tuple[tuple[int, int, int], ...], ...]:
        """Per cell, (number, direction, place on the number's ray) for each number of
        seen_by: where the cell lies in the view of each number in its row and column."""
        out: list[list[tuple[int, int, int]]] = [[] for _ in self.clues]
        for k in self.numbered:
            for d, ray in enumerate(self.rays[k]):
                for at, j in enumerate(ray):
                    out[j].append((k, d, at))
        return tuple(tuple(sorted(v)) for v in out)


class Rays(dict[int, tuple[tuple[int, ...], ...]]):
    """Each cell's four rays, made on first use: the techniques read only the numbers' rays,
    and all of them on a 200x200 board would hold 16 million entries. A dict filled by
    __missing__, so reading a ray made before is no Python call (legal() reads them a million
    times on a big board)."""

    def __init__(self, rows: int, cols: int):
        super().__init__()
        self.rows, self.cols = rows, cols

    def __missing__(self, i: int) -> tuple[tuple[int, ...], ...]:
        if not 0 <= i < self.rows * self.cols:
            raise IndexError(i)
        r, c = divmod(i, self.cols)
        rays = []
        for dr, dc in DIRECTIONS:
            ray, r2, c2 = [], r + dr, c + dc
            while 0 <= r2 < self.rows and 0 <= c2 < self.cols:
                ray.append(r2 * self.cols + c2)
                r2, c2 = r2 + dr, c2 + dc
            rays.append(tuple(ray))
        got = self[i] = tuple(rays)
        return got


def reach(cands: Sequence[int], ray: Sequence[int]) -> tuple[int, int]:
    """(fewest, most) cells a clue can see along one ray: the white cells up to the first cell
    that is not white, and the cells up to the first shaded one."""
    lo = 0
    while lo < len(ray) and cands[ray[lo]] == B_WHITE:
        lo += 1
    hi = lo
    while hi < len(ray) and cands[ray[hi]] != B_SHADED:
        hi += 1
    return lo, hi


def clue_range(puzzle: KuromasuPuzzle, cands: Sequence[int], k: int) -> tuple[list[int], list[int]]:
    los, his = [], []
    for ray in puzzle.rays[k]:
        lo, hi = reach(cands, ray)
        los.append(lo)
        his.append(hi)
    return los, his


class Kuromasu(ShadingGenre):
    name = "kuromasu"
    title = "Kuromasu (Kurodoko, Range)"
    aliases = ALIASES
    puzzle_type = KuromasuPuzzle
    puzzlink_pids = PUZZLINK_PIDS
    janko_names = JANKO_NAMES
    has_tatham = True

    # --- variables and rules -----------------------------------------------------------
    def given_unmarked(self, puzzle: KuromasuPuzzle, i: int) -> bool:
        return puzzle.clues[i] != NO_CLUE        # a numbered cell is white

    def violations(self, puzzle: KuromasuPuzzle, state: State) -> list[Violation]:
        out = shading_violations(puzzle, state)
        cands = state.cands
        for k in puzzle.numbered:
            n = puzzle.clues[k]
            if cands[k] != B_WHITE:
                out.append(Violation(f"the numbered cell {puzzle.cell(k)} is shaded", (puzzle.cell(k),)))
                continue
            los, his = clue_range(puzzle, cands, k)
            if 1 + sum(los) > n:
                out.append(Violation(f"the {n} at {puzzle.cell(k)} already sees {1 + sum(los)} cells",
                                     (puzzle.cell(k),)))
            elif 1 + sum(his) < n:
                out.append(Violation(f"the {n} at {puzzle.cell(k)} can see at most {1 + sum(his)} cells",
                                     (puzzle.cell(k),)))
        return out

    def check_clues(self, rows: int, cols: int, clues: Sequence[int], src: Source, where) -> None:
        most = rows + cols - 1
        for i, n in enumerate(clues):
            if n == 0 or n > most:
                line, col, part = where(i)
                raise src.error(f"the {n} at {Cell(*divmod(i, cols))} cannot be seen: a number "
                                f"here is 1 to {most}", line, col, part)

    # --- formats -----------------------------------------------------------------------
    def _clues(self, grid: Grid, src: Source) -> list[int]:
        out = []
        for _, _, tok in grid.cells():
            t = tok.text
            if t in (".", "-", "+"):
                out.append(NO_CLUE)
            elif t == "?":
                out.append(UNKNOWN)
            elif t.isdecimal():
                out.append(int(t))
            else:
                raise src.error(f"unexpected '{t}' in grid: expected '.', '?' or a number", tok.line, tok.col)
        return out

    def read_grid(self, puzzle: KuromasuPuzzle, grid: Grid, src: Source, marks: bool) -> State:
        cands = list(self.initial_state(puzzle).cands)
        for r, c, tok in grid.cells():
            i = r * puzzle.cols + c
            t = tok.text
            if puzzle.clues[i] != NO_CLUE:
                if t in ("#", "x", "X"):
                    raise src.error(f"{Cell(r, c)} holds a number and cannot be shaded", tok.line, tok.col)
                continue
            if t in ("#", "x", "X"):
                cands[i] = B_SHADED
            elif t in ("+", "-", "o") or (t == "." and not marks):
                cands[i] = B_WHITE
            elif t != ".":
                raise src.error(f"unexpected '{t}' in {grid.key}: expected '#' shaded, '+' white or '.'",
                                tok.line, tok.col)
        return State(tuple(cands))

    def from_native(self, doc: dict[str, Any], src: NativeSource) -> KuromasuPuzzle:
        grid = src.grid("grid")
        clues = self._clues(grid, src)
        toks = [tok for _, _, tok in grid.cells()]
        self.check_clues(grid.height, grid.width, clues, src, lambda i: (toks[i].line, toks[i].col, None))
        puzzle = KuromasuPuzzle(rows=grid.height, cols=grid.width, clues=tuple(clues), meta=src.meta())
        return self.with_native_solution(puzzle, grid, src)

    def from_janko(self, data: dict[str, Any], src: Source) -> KuromasuPuzzle:
        rows, cols, clues = janko_cells(data, src, lambda t: int(t) if t.isdecimal() else {"-": NO_CLUE}.get(t),
                                        ": expected '-' or a number")
        self.check_clues(rows, cols, clues, src, lambda i: (None, None, "problem"))
        return KuromasuPuzzle(rows=rows, cols=cols, clues=tuple(clues),
                              solution=self.janko_solution(data, src, rows, cols), meta=janko_meta(data, src))

    def from_puzzlink(self, url: puzzlink.PuzzLink) -> KuromasuPuzzle:
        values, _ = puzzlink.decode_number16(url)
        self.check_clues(url.rows, url.cols, [v for v in values], url.src, lambda i: (None, None, "body"))
        return KuromasuPuzzle(rows=url.rows, cols=url.cols, clues=tuple(values), meta=url.meta)

    def from_tatham(self, params: str, desc: str, src: Source) -> KuromasuPuzzle:
        w, h, _ = tatham.parse_size(params, src)
        clues: list[int] = []
        k = 0
        while k < len(desc):
            ch = desc[k]
            run = tatham.run_length(ch)
            if run is not None:
                clues.extend([NO_CLUE] * run)
                k += 1
            elif ch.isdecimal():
                j = k
                while j < len(desc) and desc[j].isdecimal():
                    j += 1
                if j - k > 6:
                    raise src.error(f"the number at character {k + 1} is too long", part="description")
                clues.append(int(desc[k:j]))
                k = j
            elif ch == "_":
                k += 1
            else:
                raise src.error(f"unexpected '{ch}' at character {k + 1} of the description",
                                part="description")
        if len(clues) != w * h:
            raise src.error(f"the description covers {len(clues)} cells, {w}x{h} needs {w * h}",
                            part="description")
        self.check_clues(h, w, clues, src, lambda i: (None, None, "description"))
        return KuromasuPuzzle(rows=h, cols=w, clues=tuple(clues),
                              meta=Meta(origin=src.origin, source="Simon Tatham's Range"))

    # --- writers -----------------------------------------------------------------------
    def to_puzzlink(self, puzzle: KuromasuPuzzle) -> str:
        """Number16 (NO_CLUE and UNKNOWN are its 'none' and '?')."""
        with self.writing(puzzle, PUZZLINK):
            return puzzlink.url_of(self.puzzlink_pids[0], puzzle.cols, puzzle.rows,
                                   puzzlink.encode_number16(puzzle.clues))

    def to_tatham(self, puzzle: KuromasuPuzzle) -> str:
        """Range: clues in decimal, `_` between two clues side by side."""
        with self.writing(puzzle, TATHAM):
            params = tatham.size_params(puzzle.cols, puzzle.rows, "Range")
            if UNKNOWN in puzzle.clues:
                raise CannotWrite(f"{puzzle.cell(puzzle.clues.index(UNKNOWN))} holds a '?': Range has no unknown clues")
            return tatham.game_id(params, tatham.encode_cells(puzzle.clues, NO_CLUE, str, between="_"))

    # --- rendering ---------------------------------------------------------------------
    def glyph(self, puzzle: KuromasuPuzzle, i: int, state: State | None, solution: bool = False) -> str:
        n = puzzle.clues[i]
        if n != NO_CLUE:
            return "?" if n == UNKNOWN else str(n)
        m = None if state is None else state.cands[i]
        return {B_SHADED: "#", B_WHITE: "." if solution else "+", 0: "!"}.get(m, ".")

    def board_tok(self, puzzle: KuromasuPuzzle, i: int, state: State | None, complete: bool) -> board.Tok:
        n = puzzle.clues[i]
        if n != NO_CLUE:
            return board.Tok("?" if n == UNKNOWN else str(n))
        return mark_tok(None if state is None else state.cands[i], B_SHADED, B_WHITE, complete)

    def render_svg(self, puzzle: KuromasuPuzzle, state: State | None = None,
                   highlights: Sequence[tuple[str, Sequence[int | Cell]]] = ()) -> str:
        return shaded_grid_svg(puzzle, state, highlights, B_SHADED, B_WHITE, clue_of=lambda i: (
            None if puzzle.clues[i] == NO_CLUE else puzzle.clues[i]))

    # --- exact solver ------------------------------------------------------------------
    def asp_facts(self, puzzle: KuromasuPuzzle) -> str:
        out = [f"rows({puzzle.rows}). cols({puzzle.cols})."]
        for i, n in enumerate(puzzle.clues):
            r, c = divmod(i, puzzle.cols)
            out.append(f"cell({r},{c}).")
            if n != NO_CLUE:
                out.append(f"number({r},{c}).")
            if n > 0:
                out.append(f"clue({r},{c},{n}).")
        return "\n".join(out)


GENRE = register(Kuromasu())
