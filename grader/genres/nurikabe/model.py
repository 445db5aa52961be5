"""Nurikabe: shade walls so that every island (a group of unshaded cells) holds exactly one
number, equal to its size; the walls form one connected area; no 2x2 block is all wall.

Variables: every cell, values ISLAND / WALL; numbered cells are fixed ISLAND. Var = r*cols + c.
Grid syntax: `.` an empty cell, a number an island's size, `?` a number of unknown size.
In solutions and marks `#` is a wall; in marks `+` (or `o`) is a cell marked island and `.`
is undecided; in solutions `.` is island.
"""
from __future__ import annotations

import functools
from typing import Any, Sequence

import attrs

from grader.kernels import connectivity as cn

from grader.core.errors import Source
from grader.io import puzzlink
from grader.io.native import Grid, NativeSource, bad_token
from grader.core.model import Cell, State, Violation
from grader.io import svg, text
from grader.genres import register
from grader.io.janko import cells as janko_cells, meta as janko_meta
from grader.io import board
from grader.io.marked_cells import MarkedCellsGenre, mark_tok
from grader.kernels.grid import GridPuzzle
from grader.genres.nurikabe import JANKO_NAMES, PUZZLINK_PIDS
from grader.kernels.recent import recent_of

ISLAND, WALL = 0, 1
B_ISLAND, B_WALL = 1 << ISLAND, 1 << WALL
FREE = B_ISLAND | B_WALL
NO_CLUE, UNKNOWN = 0, -2       # clue values: 0 none, -2 a `?`, n > 0 an island size


@attrs.frozen(kw_only=True, slots=False)
class NurikabePuzzle(GridPuzzle):
    clues: tuple[int, ...]      # row-major: NO_CLUE, UNKNOWN or the island size

    @functools.cached_property
    def clue_cells(self) -> tuple[int, ...]:
        return tuple(i for i, n in enumerate(self.clues) if n != NO_CLUE)

    @functools.cached_property
    def largest_clue(self) -> int:
        """The largest island size given (every cell, when a number is `?`)."""
        if any(n == UNKNOWN for n in self.clues):
            return self.rows * self.cols
        return max(self.clues, default=0)

    @functools.cached_property
    def wall_total(self) -> int | None:
        """How many walls the solution has, when every number is known."""
        if any(n == UNKNOWN for n in self.clues):
            return None
        return self.rows * self.cols - sum(self.clues)


class Islands:
    """The islands of one state: decided island groups, what each holds, how it may grow."""

    def __init__(self, puzzle: NurikabePuzzle, state: State):
        self.puzzle, self.cands = puzzle, state.cands
        self.side, self.walls = sides(puzzle, state)
        parts = self.side.decided_parts
        self.parts = parts.cells
        self.of = parts.of
        # The numbers of each part, in cell order: the numbered cells are few, the island
        # cells many, so they are looked up by their part.
        held: list[list[int]] = [[] for _ in self.parts]
        for i in puzzle.clue_cells:
            if self.of[i] >= 0:         # (a broken state may have lost a numbered cell)
                held[self.of[i]].append(i)
        self.clues: list[tuple[int, ...]] = [tuple(c) for c in held]

    @functools.cached_property
    def _numbers(self) -> list[int | None]:
        out: list[int | None] = []
        for cl in self.clues:
            n = self.puzzle.clues[cl[0]] if len(cl) == 1 else None
            out.append(None if n == UNKNOWN else n)
        return out

    def number(self, k: int) -> int | None:
        """The size island part k must reach (None: unnumbered, several numbers or `?`)."""
        return self._numbers[k]

    def numbered(self, k: int) -> bool:
        return len(self.clues[k]) == 1

    def need(self, k: int) -> int | None:
        """Cells part k still has to gain (None when unknown)."""
        return self._needs[k]

    @functools.cached_property
    def _needs(self) -> list[int | None]:
        # (asked about a million times in a long trial: one look-up each)
        return [None if n is None else n - len(p) for n, p in zip(self._numbers, self.parts)]

    def liberties(self, k: int) -> list[int]:
        return self.side.liberties(k)

    def numbered_parts(self) -> list[int]:
        return self._numbered_parts

    @functools.cached_property
    def _numbered_parts(self) -> list[int]:
        return [k for k, c in enumerate(self.clues) if len(c) == 1]

    def clue_name(self, k: int) -> str:
        """How to name island k in a sentence: "the 4 at r2c3" or "the island at r2c3"."""
        cl = self.clues[k]
        cell = self.puzzle.cell(cl[0] if cl else self.parts[k][0])
        if len(cl) == 1:
            n = self.puzzle.clues[cl[0]]
            return f"the {'?' if n == UNKNOWN else n} at {cell}"
        return f"the island at {cell}"

    @functools.cached_property
    def numbers_near(self) -> list[tuple[int, ...]]:
        """For each cell, the numbered island parts it belongs to or touches (in order)."""
        out: list[tuple[int, ...]] = [()] * len(self.cands)
        for k in self.numbered_parts():
            mine = (k,)
            for n in _with_neighbours(self.puzzle, self.parts[k]):
                had = out[n]
                out[n] = had + mine if had else mine     # parts in order: k comes last
        return out

    def blocked(self, k: int, i: int) -> bool:
        """Island part k can never take in cell i: it is or touches another numbered island."""
        near = self.numbers_near[i]
        return bool(near) and (len(near) > 1 or near[0] != k)


NEAR_KEPT = 50000       # island parts whose cells with their neighbours are kept per puzzle


def _with_neighbours(puzzle: NurikabePuzzle, part: tuple[int, ...]) -> frozenset[int]:
    """The cells of an island part and their neighbours (a part lasts many states)."""
    memo = puzzle.memo("_nurikabe_part_near", NEAR_KEPT)
    found = memo.get(part)
    if found is None:
        found = memo[part] = frozenset(puzzle.graph.around(part, 1))
    return found


def sides(puzzle: NurikabePuzzle, state: State) -> tuple[cn.Side, cn.Side]:
    """The island and the wall Side of a state (cn.side, shared through the state's memo),
    updated from a recent state's where there is one: a trial's fill moves a few cells at a
    time, and finding the components afresh each time was most of a big board's solve."""
    keys = ("connectivity.side", B_ISLAND), ("connectivity.side", B_WALL)
    memo = state.memo
    if keys[0] not in memo or keys[1] not in memo:
        def full() -> tuple[cn.Side, cn.Side]:
            return cn.Side(puzzle.graph, state.cands, B_ISLAND), cn.Side(puzzle.graph, state.cands, B_WALL)

        def update(old: tuple[cn.Side, cn.Side], _: tuple[int, ...], changed: list[int]):
            isle, wall = (s.narrowed(state.cands, changed) for s in old)
            return None if isle is None or wall is None else (isle, wall)
        for key, s in zip(keys, recent_of(puzzle, "nurikabe.sides").get(state, full, update)):
            memo.setdefault(key, s)
    return memo[keys[0]], memo[keys[1]]


def islands(puzzle: NurikabePuzzle, state: State) -> Islands:
    return state.derived("nurikabe.islands", lambda: Islands(puzzle, state))


def janko_clue(t: str) -> int | None:
    """A janko problem token's clue: '-' none, '?' unknown, or an island size."""
    if t.isdecimal():
        return int(t) if int(t) > 0 else None
    return {"-": NO_CLUE, "?": UNKNOWN}.get(t)


class Nurikabe(MarkedCellsGenre):
    name = "nurikabe"
    title = "Nurikabe"
    puzzle_type = NurikabePuzzle
    value_phrases = (("is island", "is wall"), ("is wall", "is island"))
    puzzlink_pids = PUZZLINK_PIDS
    janko_names = JANKO_NAMES
    MARKED, UNMARKED, marked_atom, marked_key = WALL, ISLAND, "wall", "walls"

    # --- variables and rules -----------------------------------------------------------
    def given_unmarked(self, puzzle: NurikabePuzzle, i: int) -> bool:
        return puzzle.clues[i] != NO_CLUE        # a numbered cell is island

    def violations(self, puzzle: NurikabePuzzle, state: State) -> list[Violation]:
        g, cands = puzzle.graph, state.cands
        out = cn.pools(g, cands, B_WALL, "walls")
        isl = islands(puzzle, state)
        out += cn.disconnected(isl.walls, "the walls")
        room = isl.side.possible_parts
        for k, part in enumerate(isl.parts):
            if len(isl.clues[k]) > 1:
                out.append(Violation(f"the island at {g.cell(part[0])} holds {len(isl.clues[k])} numbers",
                                     tuple(g.cells(isl.clues[k]))))
                continue
            n = isl.number(k)
            if n is not None and len(part) > n:
                out.append(Violation(f"{isl.clue_name(k)} has grown to {len(part)} cells", (g.cell(part[0]),)))
            elif (not isl.clues[k] or (n is not None and len(part) < n)) and \
                    len(room.cells[room.of[part[0]]]) == len(part):     # no liberty: walled in
                out.append(Violation(f"the island at {g.cell(part[0])} is walled in without a number"
                                     if not isl.clues[k] else
                                     f"{isl.clue_name(k)} is walled in at {len(part)} cells", (g.cell(part[0]),)))
        total = puzzle.wall_total
        if total is not None:
            walls, possible = len(isl.walls.decided_cells), sum(isl.walls.possible)
            if walls > total:
                out.append(Violation(f"there are {walls} walls, more than the {total} the numbers leave"))
            elif possible < total:
                out.append(Violation(f"only {possible} cells can still be walls, fewer than the {total} "
                                     "the numbers leave"))
        for k in isl.numbered_parts():
            n = isl.number(k)
            if n is not None and len(room.cells[room.of[isl.parts[k][0]]]) < n:
                out.append(Violation(f"{isl.clue_name(k)} has no room to grow to {n} cells",
                                     tuple(g.cells(isl.clues[k]))))
        numbered_rooms = {room.of[i] for i in puzzle.clue_cells}
        for r, part in enumerate(room.cells):
            if r not in numbered_rooms:
                stuck = [i for i in part if cands[i] == B_ISLAND]
                if stuck:
                    out.append(Violation(f"the island at {g.cell(stuck[0])} can never reach a number",
                                         (g.cell(stuck[0]),)))
        return out

    # --- formats -----------------------------------------------------------------------
    def _clues(self, grid: Grid, src: Source) -> tuple[int, ...]:
        out = []
        for _, _, tok in grid.cells():
            t = tok.text
            if t in (".", "-"):
                out.append(NO_CLUE)
            elif t == "?":
                out.append(UNKNOWN)
            elif t.isdecimal() and int(t) > 0:
                out.append(int(t))
            else:
                raise bad_token(src, tok, "'.' for an empty cell, an island size from 1 or '?'")
        return tuple(out)

    def read_grid(self, puzzle: NurikabePuzzle, grid: Grid, src: Source, marks: bool) -> State:
        cands = []
        for r, c, tok in grid.cells():
            i = r * puzzle.cols + c
            t = tok.text
            clue = puzzle.clues[i]
            if clue != NO_CLUE:
                shown = "?" if clue == UNKNOWN else str(clue)
                if t != shown and not (clue == UNKNOWN and t.isdecimal()):
                    raise src.error(f"{Cell(r, c)} holds the number {'?' if clue == UNKNOWN else clue} "
                                    f"in the puzzle but '{t}' here", tok.line, tok.col)
                cands.append(B_ISLAND)
            elif t in ("#", "x", "X"):
                cands.append(B_WALL)
            elif t in ("+", "o", "O", "-"):
                cands.append(B_ISLAND)
            elif t == ".":
                cands.append(FREE if marks else B_ISLAND)
            else:
                raise bad_token(src, tok, "'#' for a wall, '+' for an island cell or '.'")
        return State(tuple(cands))

    def from_native(self, doc: dict[str, Any], src: NativeSource) -> NurikabePuzzle:
        grid = src.grid("grid")
        puzzle = NurikabePuzzle(rows=grid.height, cols=grid.width, clues=self._clues(grid, src),
                                meta=src.meta())
        return self.with_native_solution(puzzle, grid, src)

    def glyph(self, puzzle: NurikabePuzzle, i: int, state: State | None, solution: bool = False) -> str:
        n = puzzle.clues[i]
        if n != NO_CLUE:
            return "?" if n == UNKNOWN else str(n)
        if state is None:
            return "."
        m = state.cands[i]
        if m == B_WALL:
            return "#"
        if m == B_ISLAND:
            return "." if solution else "+"
        return "!" if m == 0 else "."

    def board_tok(self, puzzle: NurikabePuzzle, i: int, state: State | None, complete: bool) -> board.Tok:
        n = puzzle.clues[i]
        if n != NO_CLUE:
            return board.Tok("?" if n == UNKNOWN else str(n))
        return mark_tok(None if state is None else state.cands[i], B_WALL, B_ISLAND, complete)

    def from_janko(self, data: dict[str, Any], src: Source) -> NurikabePuzzle:
        rows, cols, clues = janko_cells(data, src, janko_clue)
        return NurikabePuzzle(rows=rows, cols=cols, clues=tuple(clues),
                              solution=self.janko_solution(data, src, rows, cols), meta=janko_meta(data, src))

    def from_puzzlink(self, url: puzzlink.PuzzLink) -> NurikabePuzzle:
        values, _ = puzzlink.decode_number16(url)
        clues = []
        for k, v in enumerate(values):
            if v == 0:
                raise url.error(f"island size 0 at {Cell(*divmod(k, url.cols))}")
            clues.append(UNKNOWN if v == -2 else NO_CLUE if v == -1 else v)
        return NurikabePuzzle(rows=url.rows, cols=url.cols, clues=tuple(clues), meta=url.meta)

    # --- writers -----------------------------------------------------------------------
    def to_puzzlink(self, puzzle: NurikabePuzzle) -> str:
        values = [puzzlink.NO_VALUE if n == NO_CLUE else puzzlink.UNKNOWN_VALUE if n == UNKNOWN else n
                  for n in puzzle.clues]
        return puzzlink.url_of(self.puzzlink_pids[0], puzzle.cols, puzzle.rows, puzzlink.encode_number16(values))

    # --- rendering ---------------------------------------------------------------------
    def answer_text(self, puzzle: NurikabePuzzle, state: State) -> str:
        return text.grid(self.glyph_rows(puzzle, state, solution=True))

    def render_svg(self, puzzle: NurikabePuzzle, state: State | None = None,
                   highlights: Sequence[tuple[str, Sequence[int | Cell]]] = ()) -> str:
        canvas = svg.Canvas(puzzle.rows, puzzle.cols)
        for i, n in enumerate(puzzle.clues):
            cell = puzzle.cell(i)
            m = state.cands[i] if state is not None else FREE
            if n != NO_CLUE:
                canvas.text(cell, "?" if n == UNKNOWN else str(n))
            elif m == B_WALL:
                canvas.fill(cell, "#222")
            elif m == B_ISLAND:
                canvas.dot(cell)
        for role, items in highlights:
            canvas.highlight([i if isinstance(i, Cell) else puzzle.cell(i) for i in items], role)
        return canvas.to_svg()

    # --- exact solver ------------------------------------------------------------------
    def asp_facts(self, puzzle: NurikabePuzzle) -> str:
        out = [f"cols({puzzle.cols}).", f"cells({puzzle.rows * puzzle.cols})."]
        for i, n in enumerate(puzzle.clues):
            r, c = divmod(i, puzzle.cols)
            out.append(f"cell({r},{c}).")
            if n != NO_CLUE:
                out.append(f"clue({r},{c},{n if n > 0 else -1}).")
        return "\n".join(out)


GENRE = register(Nurikabe())
