"""The grid every grid genre stands on: rows x columns of cells, var = r * cols + c, and one
topology (GridGraph) with one neighbour order (ORTHOGONAL)."""
from __future__ import annotations

import functools
from typing import Iterable

import attrs

from grader.core.model import Cell, Puzzle

# The four orthogonal steps (dr, dc) in reading order: north, west, east, south, so a cell's
# neighbours come in ascending index order. Techniques that stop at the first thing they find
# follow this order, so it is fixed here, once, for every grid genre.
NORTH, WEST, EAST, SOUTH = (-1, 0), (0, -1), (0, 1), (1, 0)
ORTHOGONAL = (NORTH, WEST, EAST, SOUTH)
# The same steps, the vertical ones first: the order Kuromasu has always counted its rays in.
# Its techniques stop at the first direction that gives a step, and on some puzzles reading
# order finds another step first, so the rays keep this order.
VERTICAL_FIRST = (NORTH, SOUTH, WEST, EAST)
GRAPHS_KEPT = 16         # grid sizes whose topology a process keeps (grid_graph)


@attrs.frozen(slots=False)
class GridGraph:
    """The 4-neighbour topology of a rows x cols grid; var = r * cols + c."""
    rows: int
    cols: int

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def cell(self, i: int) -> Cell:
        return Cell(*divmod(i, self.cols))

    def cells(self, items: Iterable[int]) -> list[Cell]:
        return [self.cell(i) for i in sorted(items)]

    @functools.cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """Each cell's orthogonal neighbours, in the order of ORTHOGONAL."""
        out = []
        for i in range(self.size):
            r, c = divmod(i, self.cols)
            out.append(tuple((r + dr) * self.cols + c + dc for dr, dc in ORTHOGONAL
                             if 0 <= r + dr < self.rows and 0 <= c + dc < self.cols))
        return tuple(out)

    @functools.cached_property
    def diagonal_neighbours(self) -> tuple[tuple[int, ...], ...]:
        """Each cell's neighbours corner to corner."""
        return tuple(tuple((r + dr) * self.cols + c + dc for dr in (-1, 1) for dc in (-1, 1)
                           if 0 <= r + dr < self.rows and 0 <= c + dc < self.cols)
                     for r, c in map(lambda i: divmod(i, self.cols), range(self.size)))

    @functools.cached_property
    def on_border(self) -> tuple[bool, ...]:
        """Whether each cell lies on the edge of the grid."""
        return tuple(r in (0, self.rows - 1) or c in (0, self.cols - 1)
                     for r, c in map(lambda i: divmod(i, self.cols), range(self.size)))

    @functools.cached_property
    def blocks(self) -> tuple[tuple[int, int, int, int], ...]:
        """Every 2x2 block, as its four cells (top-left first)."""
        c = self.cols
        return tuple((i, i + 1, i + c, i + c + 1) for r in range(self.rows - 1)
                     for i in range(r * c, r * c + c - 1))

    @functools.cached_property
    def blocks_of(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the indices of the 2x2 blocks it belongs to."""
        out: list[list[int]] = [[] for _ in range(self.size)]
        for k, block in enumerate(self.blocks):
            for i in block:
                out[i].append(k)
        return tuple(tuple(b) for b in out)

    def around(self, focus: Iterable[int], radius: int = 1) -> set[int]:
        """The focus cells and every cell within `radius` steps of them."""
        seen = set(focus)
        frontier = list(seen)
        for _ in range(radius):
            nxt = []
            for i in frontier:
                for n in self.neighbours[i]:
                    if n not in seen:
                        seen.add(n)
                        nxt.append(n)
            frontier = nxt
        return seen


@functools.lru_cache(maxsize=GRAPHS_KEPT)
def grid_graph(rows: int, cols: int) -> GridGraph:
    """The topology of a rows x cols grid, made once per size in a process: it reads the size
    alone, and a batch grades many boards of the same few sizes."""
    return GridGraph(rows, cols)


@attrs.frozen(kw_only=True, slots=False)
class GridPuzzle(Puzzle):
    rows: int
    cols: int

    def cell(self, i: int) -> Cell:
        """Made once per cell: a solve's explanations ask for the same cells thousands of
        times (Cell is frozen, so one object serves every caller)."""
        got = self._cells.get(i)
        if got is None:
            got = self._cells[i] = Cell(*divmod(i, self.cols))
        return got

    @functools.cached_property
    def _cells(self) -> dict[int, Cell]:
        """The Cell of each index asked so far (at most one per cell of the grid)."""
        return {}

    def index(self, r: int, c: int) -> int:
        return r * self.cols + c

    @property
    def size(self) -> int:
        return self.rows * self.cols

    @functools.cached_property
    def graph(self) -> GridGraph:
        """The grid's topology, shared by the puzzles of one size (grid_graph)."""
        return grid_graph(self.rows, self.cols)

    @functools.cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """Orthogonal neighbours of every cell (GridGraph.neighbours)."""
        return self.graph.neighbours
