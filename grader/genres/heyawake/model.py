"""Heyawake: shade cells so that shaded cells never touch side by side, the white cells form
one connected area, a numbered room holds exactly that many shaded cells, and no straight run
of white cells crosses two room borders.

Variables: every cell, values WHITE / SHADED (grader.kernels.shading). Var = r * cols + c.
A clue cell may be shaded. Native files carry the room grid:

    genre: heyawake
    rooms: |            # one opaque label per cell; a label is one room
      a a b b
    grid: |             # `.` or the room's number, in any cell of its room
      2 . 1 .
    solution: |         # `#` shaded; `.`, `+` or a number white
      # . # .
"""
from __future__ import annotations

import functools
import operator
import sys
from typing import Any, Sequence

import attrs

from grader.core.errors import Source
from grader.io import puzzlink
from grader.core.genre import PUZZLINK, CannotWrite
from grader.io.janko import grid as janko_grid, meta as janko_meta, size as janko_size
from grader.io.native import Grid, NativeSource, expect_size, grid_text
from grader.core.model import Cell, Meta, State, Violation
from grader.genres import register
from grader.io import board
from grader.io.marked_cells import ShadingGenre, mark_tok, number_tok, shaded_grid_svg
from grader.kernels.grid import GridPuzzle
from grader.kernels.shading import B_SHADED, B_WHITE, FREE, shading_violations
from grader.kernels.shading import nearby_violations as nearby_shading_violations
from grader.kernels.tally import tally
from grader.genres.heyawake import ALIASES, JANKO_NAMES, PUZZLINK_PIDS

NO_CLUE = -1


@attrs.frozen(kw_only=True, slots=False)
class HeyawakePuzzle(GridPuzzle):
    room_of: tuple[int, ...]        # room index of every cell; rooms numbered by first cell
    clues: tuple[int, ...]          # per room: its number, or NO_CLUE
    clue_cells: tuple[int, ...]     # per room: the cell showing the number, or -1

    @functools.cached_property
    def rooms(self) -> tuple[tuple[int, ...], ...]:
        out: list[list[int]] = [[] for _ in self.clues]
        for i, k in enumerate(self.room_of):
            out[k].append(i)
        return tuple(tuple(r) for r in out)

    @functools.cached_property
    def numbered(self) -> tuple[int, ...]:
        return tuple(k for k, n in enumerate(self.clues) if n >= 0)

    @functools.cached_property
    def shape(self) -> tuple[tuple[int, int, int, int] | None, ...]:
        """Per room (top, left, height, width) when it is a full rectangle, else None."""
        out = []
        for cells in self.rooms:
            rs = [i // self.cols for i in cells]
            cs = [i % self.cols for i in cells]
            h, w = max(rs) - min(rs) + 1, max(cs) - min(cs) + 1
            out.append((min(rs), min(cs), h, w) if h * w == len(cells) else None)
        return tuple(out)

    @functools.cached_property
    def room_neighbours(self) -> tuple[tuple[int, ...], ...]:
        """Per room, the rooms that share a border with it."""
        out: list[set[int]] = [set() for _ in self.clues]
        for i, k in enumerate(self.room_of):
            for j in self.neighbours[i]:
                if self.room_of[j] != k:
                    out[k].add(self.room_of[j])
        return tuple(tuple(sorted(s)) for s in out)

    @functools.cached_property
    def lines(self) -> tuple[tuple[tuple[int, ...], tuple[bool, ...]], ...]:
        """Every row, then every column, with the room borders between consecutive cells."""
        out = []
        for line in [tuple(range(r * self.cols, (r + 1) * self.cols)) for r in range(self.rows)] + \
                [tuple(range(c, self.rows * self.cols, self.cols)) for c in range(self.cols)]:
            out.append((line, tuple(self.room_of[a] != self.room_of[b] for a, b in zip(line, line[1:]))))
        return tuple(out)

    def lines_of(self, i: int) -> tuple[int, int]:
        """The indices in `lines` of the row and the column through cell i."""
        return i // self.cols, self.rows + i % self.cols

    def border(self, a: int, b: int) -> bool:
        return self.room_of[a] != self.room_of[b]

    def room_cell(self, k: int) -> Cell:
        """Where a room is named in sentences: its clue cell, else its first cell."""
        i = self.clue_cells[k] if self.clue_cells[k] >= 0 else self.rooms[k][0]
        return self.cell(i)


def white_runs(puzzle: HeyawakePuzzle, cands: Sequence[int], k: int,
               extra: frozenset[int] = frozenset()) -> list[tuple[int, int, int]]:
    """The maximal runs of white cells (and cells in `extra`, taken as white) in line k:
    (first position, last position, borders crossed)."""
    line, borders = puzzle.lines[k]
    out = []
    start = -1
    crossed = 0
    for t, i in enumerate(line):
        if cands[i] == B_WHITE or i in extra:
            if start < 0:
                start, crossed = t, 0
            else:
                crossed += borders[t - 1]
        elif start >= 0:
            out.append((start, t - 1, crossed))
            start = -1
    if start >= 0:
        out.append((start, len(line) - 1, crossed))
    return out


def line_pattern(puzzle: HeyawakePuzzle, cands: Sequence[int], k: int) -> tuple[int, ...]:
    """The candidates of line k's cells, in order."""
    return line_getters(puzzle)[k](cands)


def line_getters(puzzle: HeyawakePuzzle) -> list:
    """Per line, a getter of line_pattern (for loops that read many lines)."""
    return puzzle.once("_heyawake_line_getters", lambda: [
        operator.itemgetter(*line) if len(line) > 1 else (lambda c, i=line[0]: (c[i],)) for line, _ in puzzle.lines])


CROSSING_KEPT = 50000       # line patterns whose verdict crossing_lines keeps per puzzle


def crossing_lines(puzzle: HeyawakePuzzle, cands: Sequence[int]) -> list[int]:
    """The lines holding a run of white cells across two room borders, in order. A line's
    verdict reads only its own cells, so it is kept per pattern: the fills of trials ask at
    every state they end in, and most lines look as they did in many states before."""
    memo = puzzle.memo("_heyawake_crossing", CROSSING_KEPT)
    out = []
    for k, pattern_of in enumerate(line_getters(puzzle)):
        key = (k, pattern_of(cands))
        crossed = memo.get(key)
        if crossed is None:
            crossed = memo[key] = any(c >= 2 for _, _, c in white_runs(puzzle, cands, k))
        if crossed:
            out.append(k)
    return out


def room_counts(puzzle: HeyawakePuzzle, cands: Sequence[int], k: int) -> tuple[int, list[int]]:
    """Shaded cells of a room, and its undecided cells."""
    return tally(cands, puzzle.rooms[k], B_SHADED, FREE)


def room_violations(puzzle: HeyawakePuzzle, state: State) -> list[Violation]:
    """A room with too many shaded cells or too few left; white cells straight across two
    room borders."""
    out = []
    cands = state.cands
    for k in puzzle.numbered:
        n = puzzle.clues[k]
        shaded, free = room_counts(puzzle, cands, k)
        if shaded > n:
            out.append(Violation(f"the room of the {n} at {puzzle.room_cell(k)} holds {shaded} shaded cells",
                                 (puzzle.room_cell(k),)))
        elif shaded + len(free) < n:
            out.append(Violation(f"the room of the {n} at {puzzle.room_cell(k)} can no longer hold "
                                 f"{n} shaded cells", (puzzle.room_cell(k),)))
    for k in crossing_lines(puzzle, cands):
        line = puzzle.lines[k][0]
        for first, last, crossed in white_runs(puzzle, cands, k):
            if crossed >= 2:
                out.append(Violation(f"the white cells {puzzle.cell(line[first])} to {puzzle.cell(line[last])} "
                                     "cross two room borders in a straight line",
                                     (puzzle.cell(line[first]), puzzle.cell(line[last]))))
    return out


def nearby_violations(puzzle: HeyawakePuzzle, state: State) -> list[Violation]:
    """The rules a reader checks without surveying the white area as a whole."""
    return nearby_shading_violations(puzzle, state) + room_violations(puzzle, state)


def room_label(i: int) -> str:
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return alphabet[i] if i < len(alphabet) else f"r{i}"


class Heyawake(ShadingGenre):
    name = "heyawake"
    title = "Heyawake"
    aliases = ALIASES
    puzzle_type = HeyawakePuzzle
    puzzlink_pids = PUZZLINK_PIDS
    janko_names = JANKO_NAMES

    # --- rules -------------------------------------------------------------------------

    def violations(self, puzzle: HeyawakePuzzle, state: State) -> list[Violation]:
        return shading_violations(puzzle, state) + room_violations(puzzle, state)

    # --- building a puzzle ---------------------------------------------------------------
    def build(self, rows: int, cols: int, labels: Sequence[Any], numbers: dict[int, int],
              src: Source, meta: Meta, where=None) -> HeyawakePuzzle:
        """A puzzle from one room label per cell and {cell: number}. `where(cell)` gives the
        (line, column, part) of a cell for errors."""
        where = where or (lambda i: (None, None, None))
        index: dict[Any, int] = {}
        room_of = []
        for lab in labels:
            room_of.append(index.setdefault(lab, len(index)))
        clues = [NO_CLUE] * len(index)
        clue_cells = [-1] * len(index)
        sizes = [0] * len(index)
        for k in room_of:
            sizes[k] += 1
        for i, n in sorted(numbers.items()):
            k = room_of[i]
            line, col, part = where(i)
            if clues[k] >= 0 and clues[k] != n:
                raise src.error(f"the room of {Cell(*divmod(i, cols))} already has the number {clues[k]} "
                                f"at {Cell(*divmod(clue_cells[k], cols))}, not {n}", line, col, part)
            if n > sizes[k]:
                raise src.error(f"the {n} at {Cell(*divmod(i, cols))} is larger than its room "
                                f"({sizes[k]} cells)", line, col, part)
            if clues[k] < 0:
                clues[k], clue_cells[k] = n, i
        return HeyawakePuzzle(rows=rows, cols=cols, room_of=tuple(room_of), clues=tuple(clues),
                              clue_cells=tuple(clue_cells), meta=meta)

    # --- formats -----------------------------------------------------------------------
    def _numbers(self, grid: Grid, src: Source) -> dict[int, int]:
        out = {}
        for r, c, tok in grid.cells():
            t = tok.text
            if t in (".", "-", "+", "#"):
                continue
            if not t.isdecimal():
                raise src.error(f"unexpected '{t}' in grid: expected '.' or a room's number",
                                tok.line, tok.col)
            out[r * grid.width + c] = int(t)
        return out

    def read_grid(self, puzzle: HeyawakePuzzle, grid: Grid, src: Source, marks: bool) -> State:
        cands = []
        for _, _, tok in grid.cells():
            t = tok.text
            if t in ("#", "x", "X"):
                cands.append(B_SHADED)
            elif t in ("+", "-", "o") or (not marks and (t == "." or t.isdecimal())):
                cands.append(B_WHITE)
            elif t == "." or t.isdecimal():
                cands.append(FREE)
            else:
                raise src.error(f"unexpected '{t}' in {grid.key}: expected '#' shaded, '+' white or '.'",
                                tok.line, tok.col)
        return State(tuple(cands))

    def from_native(self, doc: dict[str, Any], src: NativeSource) -> HeyawakePuzzle:
        grid = src.grid("grid")
        rooms = src.grid("rooms")
        expect_size(grid, rooms, src)
        numbers = self._numbers(grid, src)
        toks = {r * grid.width + c: tok for r, c, tok in grid.cells()}
        puzzle = self.build(grid.height, grid.width, [t.text for _, _, t in rooms.cells()], numbers, src,
                            src.meta(), lambda i: (toks[i].line, toks[i].col, None))
        self._warn_split_rooms(puzzle)
        return self.with_native_solution(puzzle, grid, src)

    def _warn_split_rooms(self, puzzle: HeyawakePuzzle) -> None:
        """A label over cells that do not touch is still one room (FORMATS.md 4.2); say so."""
        for k, cells in enumerate(puzzle.rooms):
            seen, stack = {cells[0]}, [cells[0]]
            while stack:
                v = stack.pop()
                for u in puzzle.neighbours[v]:
                    if u not in seen and puzzle.room_of[u] == k:
                        seen.add(u)
                        stack.append(u)
            if len(seen) != len(cells):
                print(f"{puzzle.meta.origin}: warning: the room at {puzzle.cell(cells[0])} is not "
                      "connected; it is read as one room", file=sys.stderr)

    def from_janko(self, data: dict[str, Any], src: Source) -> HeyawakePuzzle:
        rows, cols = janko_size(data, src)
        areas = janko_grid(data, "areas", src, (rows, cols))
        if areas is None:
            raise src.error("record has no 'areas' (the room grid)", part="areas")
        problem = janko_grid(data, "problem", src, (rows, cols))
        numbers = {}
        for r, row in enumerate(problem or []):
            for c, t in enumerate(row):
                if t == "-":
                    continue
                if not t.isdecimal():
                    raise src.error(f"unexpected '{t}' at {Cell(r, c)}: expected '-' or a number",
                                    part="problem")
                numbers[r * cols + c] = int(t)
        puzzle = self.build(rows, cols, [t for row in areas for t in row], numbers, src, janko_meta(data, src),
                            lambda i: (None, None, "problem"))
        return attrs.evolve(puzzle, solution=self.janko_solution(data, src, rows, cols))

    def from_puzzlink(self, url: puzzlink.PuzzLink) -> HeyawakePuzzle:
        rows, cols = url.rows, url.cols
        labels, used = decode_border(url)
        count = max(labels) + 1
        values, pos = puzzlink.decode_number16(url, count=count, body=url.body[used:])
        puzzlink.expect_end(url, used + pos, count, count, "rooms")
        numbers = {}
        for k, v in enumerate(values):
            if v >= 0:
                cells = [i for i, lab in enumerate(labels) if lab == k]
                top = min(cells, key=lambda i: (i % cols, i // cols))
                numbers[top] = v
        return self.build(rows, cols, labels, numbers, url.src,
                          url.meta, lambda i: (None, None, "body"))

    # --- writers -----------------------------------------------------------------------
    def to_puzzlink(self, puzzle: HeyawakePuzzle) -> str:
        """Border walls between rooms, then RoomNumber16: each room's number, rooms in the order
        of their first cell (the reader shows it in the room's top cell)."""
        with self.writing(puzzle, PUZZLINK):
            for cells in puzzle.rooms:
                if not _connected(cells, puzzle.cols):
                    raise CannotWrite(f"the room of {puzzle.cell(cells[0])} is in several pieces; "
                                      "puzz.link rooms are areas closed by walls")
            by_first_cell = sorted(range(len(puzzle.rooms)), key=lambda k: puzzle.rooms[k][0])
            body = (puzzlink.encode_border(puzzle.room_of, puzzle.cols, puzzle.rows)
                    + puzzlink.encode_number16([puzzle.clues[k] for k in by_first_cell]))
            return puzzlink.url_of(self.puzzlink_pids[0], puzzle.cols, puzzle.rows, body)

    # --- rendering ---------------------------------------------------------------------
    def native_fields(self, puzzle: HeyawakePuzzle) -> dict[str, Any]:
        return {"rooms": grid_text([[room_label(puzzle.room_of[puzzle.index(r, c)]) for c in range(puzzle.cols)]
                                    for r in range(puzzle.rows)])}

    def glyph(self, puzzle: HeyawakePuzzle, i: int, state: State | None, solution: bool = False) -> str:
        m = None if state is None else state.cands[i]
        if solution:
            return "#" if m == B_SHADED else "."
        if m == B_SHADED:
            return "#"
        if m == 0:
            return "!"
        k = puzzle.room_of[i]
        if puzzle.clue_cells[k] == i:
            return str(puzzle.clues[k])
        return "+" if m == B_WHITE else "."

    def board_tok(self, puzzle: HeyawakePuzzle, i: int, state: State | None, complete: bool) -> board.Tok:
        m = None if state is None else state.cands[i]
        k = puzzle.room_of[i]
        if puzzle.clue_cells[k] == i:
            return number_tok(str(puzzle.clues[k]), m, B_SHADED)
        return mark_tok(m, B_SHADED, B_WHITE, complete)

    def render_board(self, puzzle: HeyawakePuzzle, state: State | None = None) -> str:
        """Rooms drawn with lines, each room's number in its cell, shaded cells █."""
        return board.with_rooms(self.board_cells(puzzle, state), puzzle.room_of)

    def render_svg(self, puzzle: HeyawakePuzzle, state: State | None = None,
                   highlights: Sequence[tuple[str, Sequence[int | Cell]]] = ()) -> str:
        return shaded_grid_svg(puzzle, state, highlights, B_SHADED, B_WHITE, clue_of=lambda i: (
            puzzle.clues[puzzle.room_of[i]] if puzzle.clue_cells[puzzle.room_of[i]] == i else None),
            border=puzzle.border)

    # --- exact solver ------------------------------------------------------------------
    def asp_facts(self, puzzle: HeyawakePuzzle) -> str:
        out = [f"rows({puzzle.rows}). cols({puzzle.cols})."]
        for i, k in enumerate(puzzle.room_of):
            r, c = divmod(i, puzzle.cols)
            out.append(f"room({r},{c},{k}).")
        for k in puzzle.numbered:
            out.append(f"clue({k},{puzzle.clues[k]}).")
        return "\n".join(out)


def decode_border(url: puzzlink.PuzzLink) -> tuple[list[int], int]:
    """Room index of every cell from a Border field, and how many body characters it used."""
    rows, cols, body = url.rows, url.cols, url.body
    nv, nh = (cols - 1) * rows, cols * (rows - 1)
    need = -(-nv // 5) + -(-nh // 5)
    if len(body) < need:
        raise url.error(f"the room borders need {need} characters, the URL has {len(body)}")
    bits = []
    for pos, ch in enumerate(body[:need]):
        try:
            v = int(ch, 32)
        except ValueError:
            raise url.error(f"'{ch}' at character {pos + 1} is not a room-border digit (0-9, a-v)") from None
        bits.append(v)
    vbits = [(bits[k // 5] >> (4 - k % 5)) & 1 for k in range(nv)]
    off = -(-nv // 5)
    hbits = [(bits[off + k // 5] >> (4 - k % 5)) & 1 for k in range(nh)]
    labels = [-1] * (rows * cols)
    n = 0
    for s in range(rows * cols):
        if labels[s] >= 0:
            continue
        labels[s] = n
        stack = [s]
        while stack:
            v = stack.pop()
            r, c = divmod(v, cols)
            steps = []
            if c + 1 < cols and not vbits[r * (cols - 1) + c]:
                steps.append(v + 1)
            if c > 0 and not vbits[r * (cols - 1) + c - 1]:
                steps.append(v - 1)
            if r + 1 < rows and not hbits[r * cols + c]:
                steps.append(v + cols)
            if r > 0 and not hbits[(r - 1) * cols + c]:
                steps.append(v - cols)
            for u in steps:
                if labels[u] < 0:
                    labels[u] = n
                    stack.append(u)
        n += 1
    return labels, need


def _connected(cells: Sequence[int], cols: int) -> bool:
    """Whether cells (row-major indices) form one piece, side by side."""
    todo, seen = [cells[0]], {cells[0]}
    members = set(cells)
    while todo:
        i = todo.pop()
        r, c = divmod(i, cols)
        for j, ok in ((i - cols, True), (i + cols, True), (i - 1, c > 0), (i + 1, c + 1 < cols)):
            if ok and j in members and j not in seen:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(members)


GENRE = register(Heyawake())
