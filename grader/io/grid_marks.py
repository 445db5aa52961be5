"""Genres whose player's marks and native `solution:` are one grid of tokens, in the syntax of
the puzzle's own grid (Masyu, Yajilin, Hashiwokakero, Numberlink): the genre reads such a
grid with `read_grid`, and this mixin does the rest."""
from __future__ import annotations

from typing import Any

import attrs

from grader.core.errors import Source
from grader.core.model import Puzzle, State
from grader.io.native import Grid, NativeSource, expect_size, parse_marks_grid


class GridMarks:
    """A mixin for a Genre: parse_marks and the optional native solution from `read_grid`."""

    def read_grid(self, puzzle: Any, grid: Grid, src: Source, marks: bool) -> State:
        """A grid of tokens read back: a player's marks (`marks`), or a `solution:` grid."""
        raise NotImplementedError

    def parse_marks(self, puzzle: Any, text_: str, src: Source) -> State:
        return self.read_grid(puzzle, parse_marks_grid(text_, src, puzzle.rows, puzzle.cols), src, marks=True)

    def native_solution(self, puzzle: Any, grid: Grid, src: NativeSource) -> State | None:
        """The state a native file's optional `solution:` grid shows (the size of `grid`)."""
        if "solution" not in src.doc:
            return None
        sol = src.grid("solution")
        expect_size(grid, sol, src)
        return self.read_grid(puzzle, sol, src, marks=False)

    def with_native_solution(self, puzzle: Puzzle, grid: Grid, src: NativeSource) -> Puzzle:
        """The puzzle with the optional `solution:` grid of a native file."""
        state = self.native_solution(puzzle, grid, src)
        if state is None:
            return puzzle
        return attrs.evolve(puzzle, solution=self.solution_from_state(puzzle, state))  # type: ignore[attr-defined]
