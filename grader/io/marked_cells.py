"""Grid genres whose answer is a set of marked cells (bulbs, shaded cells, walls, mines): the
conversions between that set, a state, the exact solver's atoms and the answer formats, and
the board drawing the shading genres share."""
from __future__ import annotations

from typing import Any, Callable, ClassVar, Sequence

import attrs

from grader.core.errors import Source
from grader.core.genre import Genre
from grader.core.model import Cell, State
from grader.io import board, svg, text
from grader.io.janko import grid as janko_grid
from grader.io.native import (Grid, NativeSource, expect_size, grid_text, meta_to_native,
                              parse_marks_grid)
from grader.kernels.grid import GridPuzzle
from grader.kernels.shading import SHADED, WHITE


class MarkedCellsGenre(Genre):
    """A genre whose answer is the set of cells holding value MARKED (the other value being
    UNMARKED): `puzzle.solution` is that frozenset of cell indices, and the exact solver shows
    one atom `<marked_atom>(R,C)` per marked cell (0-based)."""
    MARKED: ClassVar[int]
    UNMARKED: ClassVar[int]
    marked_atom: ClassVar[str]          # e.g. "bulb", "black", "wall", "mine"
    marked_key: ClassVar[str]           # the JSON answer key, e.g. "bulbs"

    @property
    def blank(self) -> int:             # a finished board need not mark the unmarked value
        return self.UNMARKED

    # --- variables -----------------------------------------------------------------------
    def given_unmarked(self, puzzle: GridPuzzle, i: int) -> bool:
        """Whether cell i is UNMARKED from the start (a clue cell, a wall); none by default."""
        return False

    def initial_state(self, puzzle: GridPuzzle) -> State:
        """Every cell open to both values, but for those `given_unmarked`."""
        off = 1 << self.UNMARKED
        free = off | 1 << self.MARKED
        return State(tuple(off if self.given_unmarked(puzzle, i) else free for i in range(puzzle.size)))

    def _states(self, puzzle: GridPuzzle, marked: Any) -> State:
        on, off = 1 << self.MARKED, 1 << self.UNMARKED
        return State(tuple(on if i in marked else off for i in range(puzzle.size)))

    def solution_state(self, puzzle: GridPuzzle) -> State | None:
        return None if puzzle.solution is None else self._states(puzzle, puzzle.solution)

    def marked(self, puzzle: GridPuzzle, state: State) -> list[int]:
        on = 1 << self.MARKED
        return [i for i, m in enumerate(state.cands) if m == on]

    def solution_from_state(self, puzzle: GridPuzzle, state: State) -> frozenset[int]:
        return frozenset(self.marked(puzzle, state))

    def state_from_model(self, puzzle: GridPuzzle, atoms: Sequence[Any]) -> State:
        return self._states(puzzle, {puzzle.index(a.arguments[0].number, a.arguments[1].number)
                                     for a in atoms if a.name == self.marked_atom})

    def answer_json(self, puzzle: GridPuzzle, state: State) -> Any:
        return {self.marked_key: [str(puzzle.cell(i)) for i in self.marked(puzzle, state)]}

    def answer_asp(self, puzzle: GridPuzzle, state: State) -> str:
        return "\n".join(f"{self.marked_atom}({i // puzzle.cols},{i % puzzle.cols})."
                         for i in self.marked(puzzle, state))

    # --- the native grid syntax: one glyph a cell ----------------------------------------
    def glyph(self, puzzle: GridPuzzle, i: int, state: State | None, solution: bool = False) -> str:
        """How cell i is written: its clue, or its mark in `state` as a player's marks file
        writes it, or (`solution`) as a `solution:` grid writes it."""
        raise NotImplementedError

    def read_grid(self, puzzle: GridPuzzle, grid: Grid, src: Source, marks: bool) -> State:
        """A grid of glyphs read back: a player's marks (`marks`), or a `solution:` grid."""
        raise NotImplementedError

    def glyph_rows(self, puzzle: GridPuzzle, state: State | None, solution: bool = False) -> list[list[str]]:
        return [[self.glyph(puzzle, puzzle.index(r, c), state, solution) for c in range(puzzle.cols)]
                for r in range(puzzle.rows)]

    def native_fields(self, puzzle: GridPuzzle) -> dict[str, Any]:
        """What a native file holds besides the grid and the solution (rooms, a mine count)."""
        return {}

    def to_native(self, puzzle: GridPuzzle) -> dict[str, Any]:
        doc: dict[str, Any] = {"genre": self.name, **meta_to_native(puzzle.meta), **self.native_fields(puzzle),
                               "grid": grid_text(self.glyph_rows(puzzle, None))}
        sol = self.solution_state(puzzle)
        if sol is not None:
            doc["solution"] = grid_text(self.glyph_rows(puzzle, sol, solution=True))
        return doc

    def parse_marks(self, puzzle: GridPuzzle, text_: str, src: Source) -> State:
        return self.read_grid(puzzle, parse_marks_grid(text_, src, puzzle.rows, puzzle.cols), src, marks=True)

    def render_text(self, puzzle: GridPuzzle, state: State | None = None) -> str:
        return text.grid(self.glyph_rows(puzzle, state))

    # --- the board for people (grader.io.board) -----------------------------------------
    def board_tok(self, puzzle: GridPuzzle, i: int, state: State | None, complete: bool) -> board.Tok:
        """What cell i shows on the board: its clue, or its mark (see grader.io.board)."""
        raise NotImplementedError

    def board_cells(self, puzzle: GridPuzzle, state: State | None) -> list[list[board.Tok]]:
        complete = state is not None and state.complete
        return [[self.board_tok(puzzle, puzzle.index(r, c), state, complete) for c in range(puzzle.cols)]
                for r in range(puzzle.rows)]

    def render_board(self, puzzle: GridPuzzle, state: State | None = None) -> str:
        return board.framed(self.board_cells(puzzle, state))

    def with_native_solution(self, puzzle: GridPuzzle, grid: Grid, src: NativeSource) -> GridPuzzle:
        """The puzzle with the optional `solution:` grid of a native file."""
        if "solution" not in src.doc:
            return puzzle
        sol = src.grid("solution")
        expect_size(grid, sol, src)
        return attrs.evolve(puzzle, solution=self.solution_from_state(puzzle, self.read_grid(puzzle, sol, src, marks=False)))

    def janko_solution(self, data: dict[str, Any], src: Source, rows: int, cols: int,
                       mark: str = "x", can_hold: Sequence[bool] | None = None) -> frozenset[int] | None:
        """The marked cells of a janko record's optional 'solution' grid (`mark` per cell),
        only those where `can_hold` is true when it is given (the grid marks walls too)."""
        solution = janko_grid(data, "solution", src, (rows, cols))
        if solution is None:
            return None
        return frozenset(r * cols + c for r, row in enumerate(solution) for c, t in enumerate(row)
                         if t == mark and (can_hold is None or can_hold[r * cols + c]))


class ShadingGenre(MarkedCellsGenre):
    """A genre that shades cells and leaves the others white (Heyawake, Kuromasu): its values,
    their phrases and its answer atoms."""
    value_phrases = (("is white", "is not white"), ("is shaded", "is not shaded"))
    MARKED, UNMARKED, marked_atom, marked_key = SHADED, WHITE, "shaded", "shaded"


def shaded_grid_svg(puzzle: GridPuzzle, state: State | None, highlights: Sequence[tuple[str, Sequence[Any]]],
                    shaded: int, white: int, clue_of: Callable[[int], int | None],
                    border: Callable[[int, int], bool] | None = None) -> str:
    """A shading genre's board: shaded cells black, white cells dotted, clue numbers (a
    negative clue shows as '?'), and thick lines where `border(a, b)` says two cells part."""
    canvas = svg.Canvas(puzzle.rows, puzzle.cols)
    for i in range(puzzle.size):
        cell = puzzle.cell(i)
        m = None if state is None else state.cands[i]
        n = clue_of(i)
        if m == shaded:
            canvas.fill(cell, "#222")
        elif m == white and n is None:
            canvas.dot(cell)
        if n is not None:
            canvas.text(cell, "?" if n < 0 else str(n), "#fff" if m == shaded else "#000")
    if border is not None:
        s, m0 = canvas.cell, canvas.margin
        for i in range(puzzle.size):
            r, c = divmod(i, puzzle.cols)
            if c + 1 < puzzle.cols and border(i, i + 1):
                x = m0 + (c + 1) * s
                canvas.line(x, m0 + r * s, x, m0 + (r + 1) * s, width=3)
            if r + 1 < puzzle.rows and border(i, i + puzzle.cols):
                y = m0 + (r + 1) * s
                canvas.line(m0 + c * s, y, m0 + (c + 1) * s, y, width=3)
        w, h = puzzle.cols * s, puzzle.rows * s
        for x1, y1, x2, y2 in ((0, 0, w, 0), (0, h, w, h), (0, 0, 0, h), (w, 0, w, h)):
            canvas.line(m0 + x1, m0 + y1, m0 + x2, m0 + y2, width=3)
    for role, items in highlights:
        canvas.highlight([i if isinstance(i, Cell) else puzzle.cell(i) for i in items], role)
    return canvas.to_svg()


def mark_tok(m: int | None, marked: int, unmarked: int, complete: bool,
             marked_tok: board.Tok = board.SHADED_TOK) -> board.Tok:
    """A cell without a clue: `marked_tok` when decided MARKED, × (blank in a complete state)
    when decided UNMARKED, ! without candidates, · when undecided or without a state."""
    if m == marked:
        return marked_tok
    if m == unmarked:
        return board.Tok("" if complete else board.EMPTY)
    if m == 0:
        return board.Tok(board.BROKEN)
    return board.Tok(board.UNDECIDED)


def number_tok(text_: str, m: int | None, marked: int) -> board.Tok:
    """A clue cell: its number, between blocks when the cell is shaded (█3█)."""
    return board.Tok(text_, board.SHADE) if m == marked else board.Tok(text_)
