"""Akari (Light Up): place bulbs so every white cell is lit, no bulb sees another, and each
numbered wall touches exactly that many bulbs.

Variables: every cell, values EMPTY / BULB; walls are fixed EMPTY. Var = r * cols + c.
Grid syntax: `.` white, `#` wall, `0`-`4` numbered wall; in solutions and marks also
`*` bulb and `+` (or `-`) a cell marked empty.
"""
from __future__ import annotations

import functools
import weakref
from typing import Any, Iterator, Sequence

import attrs

from grader.core.errors import Source
from grader.io import puzzlink, tatham
from grader.core.genre import TATHAM
from grader.io.native import Grid, NativeSource, bad_token
from grader.core.model import Cell, Meta, State, Violation
from grader.io import svg
from grader.genres import register
from grader.io.janko import cells as janko_cells, meta as janko_meta
from grader.io import board
from grader.io.marked_cells import MarkedCellsGenre, mark_tok
from grader.kernels.grid import GridPuzzle
from grader.kernels.recent import recent_of
from grader.kernels.tally import tally
from grader.genres.akari import ALIASES, JANKO_NAMES, PUZZLINK_PIDS

EMPTY, BULB = 0, 1
WHITE, WALL = -1, -2          # board values; 0..4 are numbered walls
NUMBERED_WALLS = {str(n): n for n in range(5)}
JANKO_TOKENS = {"-": WHITE, "x": WALL, **NUMBERED_WALLS}
B_EMPTY, B_BULB = 1 << EMPTY, 1 << BULB
# the recent states whose lighters a state's Lighting starts from (see Lighting.lighters)
WIDER_LIGHTERS = 4


@attrs.frozen(kw_only=True, slots=False)
class AkariPuzzle(GridPuzzle):
    board: tuple[int, ...]    # WHITE, WALL or the number on a wall, row-major

    def is_white(self, i: int) -> bool:
        return self.board[i] == WHITE

    @functools.cached_property
    def whites(self) -> tuple[int, ...]:
        return tuple(i for i, b in enumerate(self.board) if b == WHITE)

    @functools.cached_property
    def numbered(self) -> tuple[int, ...]:
        return tuple(i for i, b in enumerate(self.board) if b >= 0)

    @functools.cached_property
    def white_neighbours(self) -> tuple[tuple[int, ...], ...]:
        board = self.board
        return tuple([tuple([n for n in ns if board[n] == WHITE]) for ns in self.neighbours])

    @functools.cached_property
    def walls_next_to(self) -> tuple[tuple[int, ...], ...]:
        """Numbered walls beside each cell."""
        board = self.board
        return tuple([tuple([n for n in ns if board[n] >= 0]) for ns in self.neighbours])

    @functools.cached_property
    def lanes(self) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
        """For each white cell, its row segment and column segment (walls end them)."""
        row_seg: dict[int, tuple[int, ...]] = {}
        col_seg: dict[int, tuple[int, ...]] = {}
        for step, seg_of, outer, inner in ((1, row_seg, self.rows, self.cols),
                                           (self.cols, col_seg, self.cols, self.rows)):
            for a in range(outer):
                run: list[int] = []
                for b in range(inner + 1):
                    i = (a * self.cols + b) if step == 1 else (b * self.cols + a)
                    if b < inner and self.board[i] == WHITE:
                        run.append(i)
                    else:
                        seg = tuple(run)            # one tuple shared by its cells
                        for j in run:
                            seg_of[j] = seg
                        run = []
        return tuple((row_seg.get(i, ()), col_seg.get(i, ())) for i in range(len(self.board)))

    @functools.cached_property
    def walls_in_sight(self) -> tuple[frozenset[int], ...]:
        """Numbered walls beside each white cell or a cell it sees."""
        by_lane: dict[int, frozenset[int]] = {}        # by id: the cells of a lane share it
        none: frozenset[int] = frozenset()
        out = []
        for pair in self.lanes:
            walls = none
            for lane in pair:
                got = by_lane.get(id(lane))
                if got is None:
                    got = by_lane[id(lane)] = frozenset(w for j in lane for w in self.walls_next_to[j])
                walls = walls | got if walls else got
            out.append(walls)
        return tuple(out)

    @functools.cached_property
    def sight(self) -> Sight:
        """White cells a bulb at each white cell lights, not counting itself."""
        return Sight(self.lanes)

    def around(self, focus: frozenset[int]) -> set[int]:
        """White cells whose light or lighters may change when `focus` changes."""
        out: set[int] = set()
        for f in focus:
            if self.board[f] == WHITE:
                out.add(f)
                out |= self.sight[f]
        return out


class Sight(dict[int, frozenset[int]]):
    """Lines of sight, made per cell on first use: on a large open board they hold rows plus
    columns for every cell (a 200x200 board: 16 million entries), which no solve within its
    budget ever looks at in full. A dict, so a cell asked again (hundreds of thousands of
    times a solve) is a plain lookup; `__missing__` makes a cell's on its first ask."""

    def __init__(self, lanes: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]):
        super().__init__()
        self._lanes = lanes
        self._in_order: dict[int, tuple[int, ...]] = {}
        self._sorted: dict[int, tuple[int, ...]] = {}

    def __missing__(self, i: int) -> frozenset[int]:
        a, b = self._lanes[i]
        got = self[i] = frozenset(a + b) - {i}
        return got

    def lines(self, i: int) -> Iterator[int]:
        """The same cells as sight[i], read off its row and column without making the set."""
        for lane in self._lanes[i]:
            for j in lane:
                if j != i:
                    yield j

    def cell_and_lines(self, i: int) -> tuple[int, ...]:
        """(i, *lines(i)), made once per cell: for the hot loops that read the same cells often."""
        got = self._in_order.get(i)
        if got is None:
            got = self._in_order[i] = (i, *self.lines(i))
        return got

    def in_board_order(self, i: int) -> tuple[int, ...]:
        """sorted(sight[i]), made once per cell."""
        got = self._sorted.get(i)
        if got is None:
            got = self._sorted[i] = tuple(sorted(self[i]))
        return got


class Lighting:
    """Derived from a state once: bulbs, lit cells, and which cells could still light a cell.

    Whole-board facts are computed on first use; `is_lit` answers one cell from its lines of
    sight, so techniques that look only near a change never pay for the whole board."""

    def __init__(self, puzzle: AkariPuzzle, state: State):
        # the state by a weak reference: it keeps this in its memo, and a cycle would be left
        # for the collector to free (every state of a solve)
        self.puzzle, self.state, self.cands = puzzle, weakref.ref(state), state.cands
        # cell -> lighters(cell), for the cells asked so far (a hot loop reads it directly), and
        # the same of a few recent states this one narrows, newest first
        self.known_lighters: dict[int, tuple[int, ...]]
        self.known_lighters, *self.wider = recent_of(puzzle, "akari.lighters", limit=len(state.cands)).get(
            state, lambda: ({},), lambda old, _, changed: ({}, *old[:WIDER_LIGHTERS]))

    @functools.cached_property
    def bulbs(self) -> list[int]:
        return [i for i in self.puzzle.whites if self.cands[i] == B_BULB]

    @functools.cached_property
    def lit(self) -> frozenset[int]:
        """Updated from a recent state's: a narrower state only adds the sight of new bulbs."""
        puzzle, cands = self.puzzle, self.cands

        def full() -> frozenset[int]:
            lit = set(self.bulbs)
            for b in self.bulbs:
                lit |= puzzle.sight[b]
            return frozenset(lit)

        def update(old: frozenset[int], before: tuple[int, ...], changed: list[int]) -> frozenset[int] | None:
            if any(before[b] == B_BULB and not cands[b] for b in changed):
                return None         # a bulb emptied (a broken state) took its light with it
            new = [b for b in changed if cands[b] == B_BULB]
            return old.union(new, *(puzzle.sight[b] for b in new)) if new else old

        state = self.state()
        return full() if state is None else recent_of(puzzle, "akari.lit", limit=len(cands)).get(state, full, update)

    def is_lit(self, i: int) -> bool:
        if "lit" in self.__dict__:
            return i in self.lit
        c = self.cands
        return c[i] == B_BULB or any(c[j] == B_BULB for j in self.puzzle.sight.lines(i))

    def lighters(self, i: int) -> tuple[int, ...]:
        """Undecided cells that could light cell i (itself included), in board order; made once
        per cell (the ways around walls ask for the same cells again and again)."""
        got = self.known_lighters.get(i)
        if got is None:
            got = self._lighters_from_wider(i)
            if got is None:
                got = self._lighters_afresh(i)
            self.known_lighters[i] = got
        return got

    def _lighters_afresh(self, i: int) -> tuple[int, ...]:
        c = self.cands
        out = [j for j in self.puzzle.sight.lines(i) if c[j] == B_EMPTY | B_BULB]
        if c[i] == B_EMPTY | B_BULB:
            out.append(i)
        return tuple(sorted(out))

    def _lighters_from_wider(self, i: int) -> tuple[int, ...] | None:
        """Cell i's lighters in a recent wider state, less those decided since (a decided
        cell never becomes free again); None when none of them asked."""
        for known in self.wider:
            before = known.get(i)
            if before is not None:
                c = self.cands
                still = [j for j in before if c[j] == B_EMPTY | B_BULB]
                return before if len(still) == len(before) else tuple(still)
        return None


def lighting(puzzle: AkariPuzzle, state: State) -> Lighting:
    return state.derived("akari.lighting", lambda: Lighting(puzzle, state))


def wall_counts(puzzle: AkariPuzzle, state: State, w: int) -> tuple[int, list[int]]:
    """Bulbs beside a numbered wall, and its undecided neighbours."""
    return tally(state.cands, puzzle.white_neighbours[w], B_BULB, B_EMPTY | B_BULB)


class Akari(MarkedCellsGenre):
    name = "akari"
    title = "Akari (Light Up)"
    aliases = ALIASES
    puzzle_type = AkariPuzzle
    value_phrases = (("is empty", "is not empty"), ("holds a bulb", "holds no bulb"))
    puzzlink_pids = PUZZLINK_PIDS
    janko_names = JANKO_NAMES
    has_tatham = True
    MARKED, UNMARKED, marked_atom, marked_key = BULB, EMPTY, "bulb", "bulbs"

    # --- variables and rules -----------------------------------------------------------
    def given_unmarked(self, puzzle: AkariPuzzle, i: int) -> bool:
        return puzzle.board[i] != WHITE          # a wall holds no bulb

    def violations(self, puzzle: AkariPuzzle, state: State) -> list[Violation]:
        out = []
        light = lighting(puzzle, state)
        for b in light.bulbs:
            for other in puzzle.sight[b]:
                if other > b and state.cands[other] == B_BULB:
                    out.append(Violation(f"the bulbs at {puzzle.cell(b)} and {puzzle.cell(other)} light each other",
                                         (puzzle.cell(b), puzzle.cell(other))))
        for w in puzzle.numbered:
            n = puzzle.board[w]
            bulbs, free = wall_counts(puzzle, state, w)
            if bulbs > n:
                out.append(Violation(f"the {n} at {puzzle.cell(w)} touches {bulbs} bulbs", (puzzle.cell(w),)))
            elif bulbs + len(free) < n:
                out.append(Violation(f"the {n} at {puzzle.cell(w)} can no longer get {n} bulbs",
                                     (puzzle.cell(w),)))
        cands, lit, free = state.cands, light.lit, B_EMPTY | B_BULB
        for i in puzzle.whites:
            # no lighters: neither i nor anything it sees could still hold a bulb
            if (i not in lit and cands[i] != free
                    and not any(cands[j] == free for j in puzzle.sight.lines(i))):
                out.append(Violation(f"no bulb can light {puzzle.cell(i)} any more", (puzzle.cell(i),)))
        return out

    # --- formats -----------------------------------------------------------------------
    def _board_from_grid(self, grid: Grid, src: Source) -> tuple[int, ...]:
        board = []
        for _, _, tok in grid.cells():
            t = tok.text
            if t in (".", "-", "+", "*"):
                board.append(WHITE)
            elif t in ("#", "x", "X", "B"):
                board.append(WALL)
            elif t in "01234" and len(t) == 1:
                board.append(int(t))
            else:
                raise bad_token(src, tok, "'.' for a white cell, '#' for a wall or 0-4 for a numbered wall")
        return tuple(board)

    def read_grid(self, puzzle: AkariPuzzle, grid: Grid, src: Source, marks: bool) -> State:
        cands = list(self.initial_state(puzzle).cands)
        for r, c, tok in grid.cells():
            i = r * puzzle.cols + c
            t = tok.text
            if puzzle.board[i] != WHITE:
                if t not in ("#", "x", "X", "B", ".", str(puzzle.board[i])) and not (t == "-" and not marks):
                    raise src.error(f"{Cell(r, c)} is a wall in the puzzle but '{t}' here", tok.line, tok.col)
                continue
            if t in ("*", "o", "O"):
                cands[i] = B_BULB
            elif t in ("+", "-", "x") or (t == "." and not marks):
                cands[i] = B_EMPTY
            elif t != ".":
                raise bad_token(src, tok, "'*' for a bulb, '+' for no bulb or '.'")
        return State(tuple(cands))

    def from_native(self, doc: dict[str, Any], src: NativeSource) -> AkariPuzzle:
        grid = src.grid("grid")
        board = self._board_from_grid(grid, src)
        puzzle = AkariPuzzle(rows=grid.height, cols=grid.width, board=board, meta=src.meta())
        return self.with_native_solution(puzzle, grid, src)

    def glyph(self, puzzle: AkariPuzzle, i: int, state: State | None, solution: bool = False) -> str:
        b = puzzle.board[i]
        if b == WALL:
            return "#"
        if b >= 0:
            return str(b)
        if state is None:
            return "."
        m = state.cands[i]
        return {B_BULB: "*", B_EMPTY: "." if solution else "+", 0: "!"}.get(m, ".")

    def board_tok(self, puzzle: AkariPuzzle, i: int, state: State | None, complete: bool) -> board.Tok:
        """Walls ▓ (a numbered wall ▓2▓), bulbs ●, cells without a bulb × (blank when solved)."""
        b = puzzle.board[i]
        if b == WALL:
            return board.BLOCK_TOK
        if b >= 0:
            return board.Tok(str(b), board.BLOCK)
        return mark_tok(None if state is None else state.cands[i], B_BULB, B_EMPTY, complete, board.Tok("●"))

    def from_janko(self, data: dict[str, Any], src: Source) -> AkariPuzzle:
        rows, cols, board = janko_cells(data, src, JANKO_TOKENS.get)
        bulbs = self.janko_solution(data, src, rows, cols, "o", [b == WHITE for b in board])
        return AkariPuzzle(rows=rows, cols=cols, board=tuple(board), solution=bulbs, meta=janko_meta(data, src))

    def from_puzzlink(self, url: puzzlink.PuzzLink) -> AkariPuzzle:
        values = puzzlink.decode_4cell(url, dot_value=WALL)
        board = tuple(WHITE if v == -1 else v for v in values)
        return AkariPuzzle(rows=url.rows, cols=url.cols, board=board, meta=url.meta)

    def from_tatham(self, params: str, desc: str, src: Source) -> AkariPuzzle:
        w, h, _ = tatham.parse_size(params, src)
        board = tatham.cells(desc, src, w, h, WHITE, {"B": WALL, **NUMBERED_WALLS}.get)
        return AkariPuzzle(rows=h, cols=w, board=tuple(board),
                           meta=Meta(origin=src.origin, source="Simon Tatham's Light Up", label=None))

    # --- writers -----------------------------------------------------------------------
    def to_puzzlink(self, puzzle: AkariPuzzle) -> str:
        """4Cell: a wall without a number is '.'."""
        values = [puzzlink.NO_VALUE if b == WHITE else puzzlink.UNKNOWN_VALUE if b == WALL else b
                  for b in puzzle.board]
        return puzzlink.url_of(self.puzzlink_pids[0], puzzle.cols, puzzle.rows, puzzlink.encode_4cell(values))

    def to_tatham(self, puzzle: AkariPuzzle) -> str:
        with self.writing(puzzle, TATHAM):
            params = tatham.size_params(puzzle.cols, puzzle.rows, "Light Up", minimum=2)
            desc = tatham.encode_cells(puzzle.board, WHITE, lambda b: "B" if b == WALL else str(b))
            return tatham.game_id(params, desc)

    # --- rendering ---------------------------------------------------------------------
    def render_svg(self, puzzle: AkariPuzzle, state: State | None = None,
                   highlights: Sequence[tuple[str, Sequence[int | Cell]]] = ()) -> str:
        canvas = svg.Canvas(puzzle.rows, puzzle.cols)
        lit = lighting(puzzle, state).lit if state is not None else set()
        for i, b in enumerate(puzzle.board):
            cell = puzzle.cell(i)
            if b != WHITE:
                canvas.fill(cell, "#222")
                if b >= 0:
                    canvas.text(cell, str(b), "#fff")
                continue
            if i in lit:
                canvas.fill(cell, "#fff3b0")
            if state is not None:
                if state.cands[i] == B_BULB:
                    canvas.circle(cell, 0.3, "#ffd600", "#8a6d00")
                elif state.cands[i] == B_EMPTY and i not in lit:
                    canvas.dot(cell)
        for role, items in highlights:
            canvas.highlight([i if isinstance(i, Cell) else puzzle.cell(i) for i in items], role)
        return canvas.to_svg()

    # --- exact solver ------------------------------------------------------------------
    def asp_facts(self, puzzle: AkariPuzzle) -> str:
        out = []
        for i, b in enumerate(puzzle.board):
            r, c = divmod(i, puzzle.cols)
            if b == WHITE:
                out.append(f"white({r},{c}).")
            else:
                out.append(f"wall({r},{c}).")
                if b >= 0:
                    out.append(f"clue({r},{c},{b}).")
        return "\n".join(out)



GENRE = register(Akari())
