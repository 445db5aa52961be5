"""Japanese Arrows: every cell holds an arrow; its number is how many distinct numbers appear
among the arrows it points at in a straight line, out to the edge (an arrow pointing straight
off the grid holds 0). Some numbers are given.

Variables: every cell, values 0..n-1 with n = max(rows, cols); var = r * cols + c. The arrow
directions are part of the puzzle and never change.
Native grid syntax: one token per cell, an arrow then a digit or `.`: `↓. →1 ↗3`.
Text files: the boxed grid of yazudo.app (FORMATS.md §5), `| ↓. | →1 |` between `+----+` lines.
The techniques are the rules of rules/arrows.yaml, compiled by grader.dsl (heuristics/arrows.py).
"""
from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from grader.core.errors import Source
from grader.io.read import read_text
from grader.io.limits import MAX_SIDE
from grader.io.native import (Grid, NativeSource, Token, expect_size, grid_text, meta_to_native,
                              parse_grid_text, plain_yaml)
from grader.core.model import Cell, Meta, Puzzle, State, Violation, bit, single_value
from grader.io import board, svg, text
from grader.genres import register
from grader.core.genre import Genre
from grader.genres.arrows import ALIASES

# Arrow glyphs and their (drow, dcol), FORMATS.md §5.
ARROWS: dict[str, tuple[int, int]] = {
    "←": (0, -1), "↑": (-1, 0), "→": (0, 1), "↓": (1, 0),
    "↖": (-1, -1), "↗": (-1, 1), "↘": (1, 1), "↙": (1, -1),
}
GLYPH = {d: g for g, d in ARROWS.items()}
DIRECTION_NAMES = {(0, -1): "W", (-1, 0): "N", (0, 1): "E", (1, 0): "S",
                   (-1, -1): "NW", (-1, 1): "NE", (1, 1): "SE", (1, -1): "SW"}
MAX_SIDE = 10                    # numbers are single digits, so at most 0..9
LABELS = ("Easy", "Normal", "Hard", "Devious")


@attrs.frozen(kw_only=True, slots=False)
class ArrowsPuzzle(Puzzle):
    rows: int
    cols: int
    dirs: tuple[tuple[int, int], ...]     # (drow, dcol) per cell, row-major
    givens: tuple[int | None, ...]        # the given number per cell, or None

    @property
    def n(self) -> int:
        """How many values a cell may take: 0..n-1."""
        return max(self.rows, self.cols)

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def cell(self, i: int) -> Cell:
        return Cell(*divmod(i, self.cols))

    @functools.cached_property
    def kind(self) -> str:
        return "diagonal" if any(dr and dc for dr, dc in self.dirs) else "straight"

    def _walk(self, i: int, dr: int, dc: int) -> tuple[int, ...]:
        r, c = divmod(i, self.cols)
        out = []
        r, c = r + dr, c + dc
        while 0 <= r < self.rows and 0 <= c < self.cols:
            out.append(r * self.cols + c)
            r, c = r + dr, c + dc
        return tuple(out)

    @functools.cached_property
    def rays(self) -> tuple[tuple[int, ...], ...]:
        """The cells each arrow points at, nearest first."""
        return tuple(self._walk(i, *d) for i, d in enumerate(self.dirs))

    @functools.cached_property
    def ray_sets(self) -> tuple[frozenset[int], ...]:
        return tuple(frozenset(r) for r in self.rays)

    @functools.cached_property
    def behind_counts(self) -> tuple[int, ...]:
        """Cells of the grid behind each arrow, on its line."""
        return tuple(len(self._walk(i, -d[0], -d[1])) for i, d in enumerate(self.dirs))

    @functools.cached_property
    def watchers(self) -> tuple[tuple[int, ...], ...]:
        """The arrows pointing at each cell."""
        out: list[list[int]] = [[] for _ in range(self.size)]
        for i, ray in enumerate(self.rays):
            for j in ray:
                out[j].append(i)
        return tuple(tuple(w) for w in out)


def seen_values(puzzle: ArrowsPuzzle, cands: Sequence[int], p: int) -> int:
    """The mask of numbers already decided in the cells p points at."""
    mask = 0
    for q in puzzle.rays[p]:
        m = cands[q]
        if m and not m & (m - 1):
            mask |= m
    return mask


def check_cell(puzzle: ArrowsPuzzle, cands: Sequence[int], p: int) -> str | None:
    """Why the decided arrow at p cannot hold its number any more, or None."""
    v = single_value(cands[p])
    if v is None:
        return None
    seen = seen_values(puzzle, cands, p).bit_count()
    free = sum(1 for q in puzzle.rays[p] if cands[q] & (cands[q] - 1))
    if seen > v:
        return f"the {v} at {puzzle.cell(p)} already sees {seen} different numbers"
    if seen + free < v:
        return f"the {v} at {puzzle.cell(p)} can no longer see {v} different numbers"
    return None


def _cell_token(tok: str) -> tuple[tuple[int, int], int | None] | None:
    if len(tok) != 2 or tok[0] not in ARROWS or not (tok[1] == "." or tok[1] in "0123456789"):
        return None
    return ARROWS[tok[0]], None if tok[1] == "." else int(tok[1])


class Arrows(Genre):
    name = "arrows"
    title = "Japanese Arrows"
    aliases = ALIASES
    puzzle_type = ArrowsPuzzle
    value_phrases = tuple((f"holds {v}", f"cannot hold {v}") for v in range(MAX_SIDE))
    file_suffixes = (".txt",)

    # --- variables and rules -----------------------------------------------------------
    def initial_state(self, puzzle: ArrowsPuzzle) -> State:
        full = (1 << puzzle.n) - 1
        return State(tuple(full if g is None else bit(g) for g in puzzle.givens))

    def violations(self, puzzle: ArrowsPuzzle, state: State) -> list[Violation]:
        out = []
        for p in range(puzzle.size):
            why = check_cell(puzzle, state.cands, p)
            if why:
                out.append(Violation(why, (puzzle.cell(p),), (p,)))
        return out

    def solution_state(self, puzzle: ArrowsPuzzle) -> State | None:
        if puzzle.solution is None:
            return None
        return State(tuple(bit(v) for v in puzzle.solution))

    def solution_from_state(self, puzzle: ArrowsPuzzle, state: State) -> tuple[int, ...]:
        return tuple(single_value(m) for m in state.cands)  # type: ignore[misc]

    # --- formats -----------------------------------------------------------------------
    def _read_grid(self, grid: Grid, src: Source) -> tuple[list[tuple[int, int]], list[int | None]]:
        dirs, nums = [], []
        for _, _, tok in grid.cells():
            cell = _cell_token(tok.text)
            if cell is None:
                raise src.error(f"unexpected '{tok.text}' in grid: expected an arrow "
                                f"({' '.join(ARROWS)}) then a digit or '.'", tok.line, tok.col)
            dirs.append(cell[0])
            nums.append(cell[1])
        return dirs, nums

    def _make(self, grid: Grid, dirs: list, nums: list, solution: list | None,
              meta: Meta, src: Source) -> ArrowsPuzzle:
        rows, cols = grid.height, grid.width
        first = grid.rows[0][0]
        if max(rows, cols) > MAX_SIDE:
            raise src.error(f"the grid is {rows}x{cols}; numbers are single digits, so at most "
                            f"{MAX_SIDE}x{MAX_SIDE}", first.line, first.col)
        n = max(rows, cols)
        for (r, c, tok), v in zip(grid.cells(), nums):
            if v is not None and v >= n:
                raise src.error(f"{Cell(r, c)} holds {v}, but a {rows}x{cols} grid allows 0..{n - 1}",
                                tok.line, tok.col)
        sol = None
        if solution is not None:
            if any(v is None for v in solution):
                raise src.error("the solution leaves a cell without a number", first.line, first.col)
            sol = tuple(solution)
        return ArrowsPuzzle(rows=rows, cols=cols, dirs=tuple(dirs), givens=tuple(nums),
                            solution=sol, meta=meta)

    def from_native(self, doc: dict[str, Any], src: NativeSource) -> ArrowsPuzzle:
        grid = src.grid("grid")
        dirs, nums = self._read_grid(grid, src)
        solution = None
        if "solution" in doc:
            sol = src.grid("solution")
            expect_size(grid, sol, src)
            sdirs, solution = self._read_grid(sol, src)
            self._same_arrows(dirs, nums, sdirs, solution, sol, src)
        return self._make(grid, dirs, nums, solution, src.meta(), src)

    def _same_arrows(self, dirs, nums, sdirs, snums, grid: Grid, src: Source) -> None:
        for (r, c, tok), d, g, sd, s in zip(grid.cells(), dirs, nums, sdirs, snums):
            if d != sd:
                raise src.error(f"{Cell(r, c)} points {DIRECTION_NAMES[sd]} in the solution but "
                                f"{DIRECTION_NAMES[d]} in the puzzle", tok.line, tok.col)
            if g is not None and s != g:
                raise src.error(f"{Cell(r, c)} holds {s} in the solution but the given {g}",
                                tok.line, tok.col)

    def to_native(self, puzzle: ArrowsPuzzle) -> dict[str, Any]:
        doc: dict[str, Any] = {"genre": self.name, **meta_to_native(puzzle.meta), "arrows": puzzle.kind,
                               "grid": grid_text(self._rows(puzzle, puzzle.givens))}
        if puzzle.solution is not None:
            doc["solution"] = grid_text(self._rows(puzzle, puzzle.solution))
        return doc

    def _rows(self, puzzle: ArrowsPuzzle, nums: Sequence[int | None]) -> list[list[str]]:
        return [[GLYPH[puzzle.dirs[r * puzzle.cols + c]] + ("." if nums[r * puzzle.cols + c] is None
                                                            else str(nums[r * puzzle.cols + c]))
                 for c in range(puzzle.cols)] for r in range(puzzle.rows)]

    def sniff(self, text_: str) -> bool:
        head = text_.lstrip()[:400]
        return head.startswith("+-") or (head.startswith("|") and any(a in head for a in ARROWS))

    def _boxed(self, text_: str, src: Source) -> Grid:
        rows: list[tuple[Token, ...]] = []
        borders: list[tuple[str, int, int]] = []    # (border line, its line number, rows above it)
        for k, raw in enumerate(text_.splitlines(), start=1):
            line = raw.strip()
            if not line:
                continue
            start = raw.index(line[0]) + 1
            if line.startswith("+"):
                borders.append((line, k, len(rows)))
                continue
            if len(rows) >= MAX_SIDE:
                raise src.error(f"more than {MAX_SIDE} rows: the largest board read is "
                                f"{MAX_SIDE}x{MAX_SIDE}", k, start)
            if not (line.startswith("|") and line.endswith("|")) or len(line) < 2:
                raise src.error("a row must start and end with '|'", k, start)
            cells, col = [], start + 1
            for part in line[1:-1].split("|"):
                token = part.strip()
                lead = len(part) - len(part.lstrip())
                at = col + lead
                if _cell_token(token) is None:
                    raise src.error(f"cell '{token}' must be an arrow ({' '.join(ARROWS)}) "
                                    "then a digit or '.'", k, at)
                cells.append(Token(token, k, at))
                col += len(part) + 1
            if rows and len(cells) != len(rows[0]):
                raise src.error(f"this row has {len(cells)} cells, the first row has {len(rows[0])}",
                                k, start)
            rows.append(tuple(cells))
        if not rows:
            raise src.error("no grid rows (expected lines like '| ↓. | →1 |')", 1, 1)
        if borders:
            self._check_borders(borders, rows, src)
        return Grid(tuple(rows), "grid")

    @staticmethod
    def _check_borders(borders: list[tuple[str, int, int]], rows: list[tuple[Token, ...]],
                       src: Source) -> None:
        """A boxed grid has a border line above, between and below its rows, each as wide as
        the rows: without that, a file cut short after a row or inside a border line would
        read as a smaller puzzle."""
        width = len(rows[0])
        expected = "+" + "----+" * width
        for line, k, above in borders:
            if line.count("+") != width + 1 or not line.endswith("+") or set(line) - {"+", "-"}:
                raise src.error(f"border line '{line[:40]}' does not fit a row of {width} cells "
                                f"(expected '{expected[:40]}')", k, 1)
        counts = [above for _, _, above in borders]
        if counts != list(range(len(rows) + 1)):
            missing = next((n for n in range(len(rows) + 1) if n not in counts), len(rows))
            if missing == len(rows):
                last = rows[-1][-1]
                raise src.error("the grid ends without its bottom border line: the file looks "
                                "cut short", last.line, last.col)
            where = rows[missing][0] if missing < len(rows) else rows[-1][0]
            raise src.error("every row needs a border line above and below it (or none at all)",
                            where.line, where.col)

    @staticmethod
    def _check_size(size: Any, grid: Grid, src: Source) -> None:
        """metadata.yaml's `size` (e.g. 5x5, all of them square): a puzzle.txt cut short at a
        border line reads as fewer rows, which only the size shows."""
        m = re.fullmatch(r"\s*(\d+)\s*x\s*(\d+)\s*", str(size)) if size is not None else None
        if m and (int(m.group(1)), int(m.group(2))) not in ((grid.height, grid.width),
                                                             (grid.width, grid.height)):
            raise src.error(f"size is {m.group(1)}x{m.group(2)} but the puzzle has {grid.height} "
                            f"rows of {grid.width} cells: is puzzle.txt cut short?")

    def from_text(self, text_: str, src: Source) -> ArrowsPuzzle:
        grid = self._boxed(text_, src)
        solution, label, path = None, None, Path(src.origin)
        if path.name == "puzzle.txt" and grid.height != grid.width and text_.lstrip().startswith("+"):
            # yazudo.app's boxed puzzles are all square (FORMATS.md §5): a file cut short at a
            # border line would otherwise read as a smaller puzzle
            last = grid.rows[-1][0]
            raise src.error(f"the grid has {grid.height} rows of {grid.width} cells: a yazudo.app "
                            "puzzle is square, so the file looks cut short", last.line, last.col)
        dirs, nums = self._read_grid(grid, src)
        sol_path = path.with_name("solution.txt")
        if path.name == "puzzle.txt" and sol_path.is_file():
            sol_src = Source(str(sol_path))
            sol_grid = self._boxed(read_text(sol_path), sol_src)
            if (sol_grid.height, sol_grid.width) != (grid.height, grid.width):
                raise sol_src.error(f"the solution is {sol_grid.height}x{sol_grid.width} but the "
                                    f"puzzle is {grid.height}x{grid.width}", 1, 1)
            sdirs, solution = self._read_grid(sol_grid, sol_src)
            self._same_arrows(dirs, nums, sdirs, solution, sol_grid, sol_src)
        meta_path = path.with_name("metadata.yaml")
        if path.name == "puzzle.txt" and meta_path.is_file():
            meta_doc = plain_yaml(read_text(meta_path), str(meta_path))
            meta_doc = meta_doc if isinstance(meta_doc, dict) else {}
            label = meta_doc.get("difficulty")
            self._check_size(meta_doc.get("size"), grid, Source(str(meta_path)))
        meta = Meta(origin=src.origin, label=None if label is None else str(label),
                    source="yazudo.app" if path.name == "puzzle.txt" else None)
        return self._make(grid, dirs, nums, solution, meta, src)

    def parse_marks(self, puzzle: ArrowsPuzzle, text_: str, src: Source) -> State:
        grid = self._boxed(text_, src) if self.sniff(text_) else parse_grid_text(text_, src, "marks")
        if (grid.height, grid.width) != (puzzle.rows, puzzle.cols):
            raise src.error(f"marks are {grid.height}x{grid.width} but the puzzle is "
                            f"{puzzle.rows}x{puzzle.cols}", 1, 1)
        dirs, nums = self._read_grid(grid, src)
        cands = list(self.initial_state(puzzle).cands)
        for (r, c, tok), d, v in zip(grid.cells(), dirs, nums):
            i = r * puzzle.cols + c
            if d != puzzle.dirs[i]:
                raise src.error(f"{Cell(r, c)} points {DIRECTION_NAMES[d]} here but "
                                f"{DIRECTION_NAMES[puzzle.dirs[i]]} in the puzzle", tok.line, tok.col)
            if v is not None:
                if v >= puzzle.n:
                    raise src.error(f"{Cell(r, c)}: {v} is more than a {puzzle.rows}x{puzzle.cols} "
                                    "grid allows", tok.line, tok.col)
                cands[i] &= bit(v)
        return State(tuple(cands))

    # --- rendering ---------------------------------------------------------------------
    def _glyph(self, puzzle: ArrowsPuzzle, i: int, state: State | None) -> str:
        if state is None:
            v = puzzle.givens[i]
            return GLYPH[puzzle.dirs[i]] + ("." if v is None else str(v))
        m = state.cands[i]
        v = single_value(m)
        return GLYPH[puzzle.dirs[i]] + (str(v) if v is not None else "!" if m == 0 else ".")

    def render_text(self, puzzle: ArrowsPuzzle, state: State | None = None) -> str:
        return text.grid([[self._glyph(puzzle, r * puzzle.cols + c, state) for c in range(puzzle.cols)]
                          for r in range(puzzle.rows)])

    def render_board(self, puzzle: ArrowsPuzzle, state: State | None = None) -> str:
        """Boxes, each with its arrow centred on the first line and its number (given or
        found; · while open) on the second."""
        rule = "───"
        lines = ["┌" + "┬".join([rule] * puzzle.cols) + "┐"]
        for r in range(puzzle.rows):
            arrows, numbers = [], []
            for c in range(puzzle.cols):
                i = r * puzzle.cols + c
                arrows.append(f" {GLYPH[puzzle.dirs[i]]} ")
                v = puzzle.givens[i]
                if state is not None and v is None:
                    m = state.cands[i]
                    v = single_value(m)
                    numbers.append(f" {v if v is not None else board.BROKEN if m == 0 else board.UNDECIDED} ")
                else:
                    numbers.append(f" {board.UNDECIDED if v is None else v} ")
            lines.append("│" + "│".join(arrows) + "│")
            lines.append("│" + "│".join(numbers) + "│")
            lines.append(("├" + "┼".join([rule] * puzzle.cols) + "┤") if r + 1 < puzzle.rows
                         else ("└" + "┴".join([rule] * puzzle.cols) + "┘"))
        return "\n".join(lines)

    def answer_text(self, puzzle: ArrowsPuzzle, state: State) -> str:
        """The boxed grid of solution.txt."""
        border = "+" + "----+" * puzzle.cols
        lines = [border]
        for r in range(puzzle.rows):
            lines.append("| " + " | ".join(self._glyph(puzzle, r * puzzle.cols + c, state)
                                           for c in range(puzzle.cols)) + " |")
            lines.append(border)
        return "\n".join(lines)

    def answer_json(self, puzzle: ArrowsPuzzle, state: State) -> Any:
        return [[single_value(state.cands[r * puzzle.cols + c]) for c in range(puzzle.cols)]
                for r in range(puzzle.rows)]

    def answer_asp(self, puzzle: ArrowsPuzzle, state: State) -> str:
        return "\n".join(f"val({i // puzzle.cols},{i % puzzle.cols},{single_value(m)})."
                         for i, m in enumerate(state.cands))

    def render_svg(self, puzzle: ArrowsPuzzle, state: State | None = None,
                   highlights: Sequence[tuple[str, Sequence[int | Cell]]] = ()) -> str:
        canvas = svg.Canvas(puzzle.rows, puzzle.cols)
        for i in range(puzzle.size):
            cell = puzzle.cell(i)
            x, y = canvas.centre(cell)
            dr, dc = puzzle.dirs[i]
            # the arrow whole and clear in the upper half of its own cell, the number below it,
            # so no arrow reads as pointing at its neighbour's
            canvas.arrow(x, y - canvas.cell * 0.2, dc, dr, 0.42, "#333", 2.2)
            given = puzzle.givens[i]
            v = given if state is None or given is not None else single_value(state.cands[i])
            if v is not None:
                canvas.text(cell, str(v), "#000" if given is not None else "#1565c0", size=0.4, dy=0.22)
        for role, items in highlights:
            canvas.highlight([i if isinstance(i, Cell) else puzzle.cell(i) for i in items], role)
        return canvas.to_svg()

    # --- exact solver ------------------------------------------------------------------
    def asp_facts(self, puzzle: ArrowsPuzzle) -> str:
        out = [f"size({puzzle.n})."]
        for i, ((dr, dc), g) in enumerate(zip(puzzle.dirs, puzzle.givens)):
            r, c = divmod(i, puzzle.cols)
            out.append(f"cell({r},{c}). dir({r},{c},{dr},{dc}).")
            if g is not None:
                out.append(f"given({r},{c},{g}).")
        return "\n".join(out)

    def state_from_model(self, puzzle: ArrowsPuzzle, atoms: Sequence[Any]) -> State:
        cands = [0] * puzzle.size
        for a in atoms:
            if a.name == "val":
                r, c, v = (x.number for x in a.arguments)
                cands[r * puzzle.cols + c] = bit(v)
        return State(tuple(cands))


GENRE = register(Arrows())
