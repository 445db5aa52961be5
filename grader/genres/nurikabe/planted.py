"""Nurikabe planted: a random connected wall with no 2x2 block (none at all, a single cell,
a few cells, or grown until no cell can join it), every white area an island numbered with
its size in a random cell of it (now and then a `?`). Boards with no island at all (a thin
all-wall board) and one island covering the board are both valid and both planted."""
from __future__ import annotations

import random

from grader.genres.nurikabe.model import B_ISLAND, B_WALL, NO_CLUE, UNKNOWN, NurikabePuzzle
from grader.core.model import Meta, State
from grader.core.genre import Plant
from grader.kernels.connectivity import components
from grader.kernels.grid import GridGraph
from grader.kernels.random_shapes import board_size

# Many planted boards have several solutions, and level 5 searches them long: fewer in CI.
CI_EXAMPLES = 60


def plant(rng: random.Random) -> Plant:
    few = rng.random() < 0.3
    rows, cols = board_size(rng, 1, 10)
    while few and rows * cols > FEW_WALLS_MOST:     # one big island: many solutions, slow to try
        rows, cols = board_size(rng, 1, 10)
    size = rows * cols
    wall = grow_wall(rng, rows, cols, few_walls(rng) if few else wall_target(rng, size))
    islands = components(GridGraph(rows, cols), [i not in wall for i in range(size)]).cells
    # Every number a `?` makes many solutions: only on small boards, where they are quick to try.
    unknown = rng.choice((0.0, 0.0, 0.0, 0.1, 1.0)) if size <= FEW_WALLS_MOST else 0.0
    clues = [NO_CLUE] * size
    for island in islands:
        i = rng.choice(island)
        clues[i] = UNKNOWN if rng.random() < unknown else len(island)
    puzzle = NurikabePuzzle(rows=rows, cols=cols, clues=tuple(clues), meta=Meta(origin="planted"))
    return Plant(puzzle, State(tuple(B_WALL if i in wall else B_ISLAND for i in range(size))))


# Boards with only a few walls are kept this small: their big islands have many shapes.
FEW_WALLS_MOST = 12


def few_walls(rng: random.Random) -> int:
    """No wall, a single wall cell, or a few."""
    return rng.choice((0, 1, 1, 2, 3, 4))


def wall_target(rng: random.Random, size: int) -> int:
    """How many wall cells to aim for: most of the board, or as many as fit. (Larger boards
    stop nearer the full wall: islands of ten cells and more there are slow to try.)"""
    if rng.random() < 0.4:
        return int(size * rng.uniform(0.6 if size <= 30 else 0.85, 1.0))
    return size


def grow_wall(rng: random.Random, rows: int, cols: int, target: int) -> set[int]:
    """A connected wall of up to `target` cells with no 2x2 block, grown a random cell at a time."""
    wall: set[int] = set()
    if not target:
        return wall
    wall.add(rng.randrange(rows * cols))
    nbrs = GridGraph(rows, cols).neighbours
    while len(wall) < target:
        frontier = sorted({n for i in wall for n in nbrs[i]} - wall)
        open_ = [i for i in frontier if not closes_block(rows, cols, wall, i)]
        if not open_:
            break
        wall.add(rng.choice(open_))
    return wall


def closes_block(rows: int, cols: int, wall: set[int], i: int) -> bool:
    """Whether adding cell i to the wall makes a 2x2 block of wall."""
    r, c = divmod(i, cols)
    for r0 in (r - 1, r):
        for c0 in (c - 1, c):
            if 0 <= r0 < rows - 1 and 0 <= c0 < cols - 1:
                block = {r0 * cols + c0, r0 * cols + c0 + 1, (r0 + 1) * cols + c0, (r0 + 1) * cols + c0 + 1}
                if block - {i} <= wall:
                    return True
    return False
