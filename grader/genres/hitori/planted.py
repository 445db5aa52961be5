"""Hitori planted: a random shading (none, one cell, as many as fit, or anything between), the
unshaded cells numbered with no repeat in a row or column, and each shaded cell given a number
that repeats an unshaded one in its row or column (the rules do not ask it: sometimes a shaded
cell keeps a number of its own, or no number). Some unshaded cells may have no number."""
from __future__ import annotations

import random

from grader.genres.hitori.model import B_BLACK, B_WHITE, NO_NUMBER, HitoriPuzzle
from grader.core.model import Meta, State
from grader.core.genre import Plant
from grader.kernels.random_shapes import board_size
from grader.kernels.sparse_shading import sparse_shading

LOOSE_CELLS = 16        # the most cells of a board with few shaded cells or loose numbers
CI_EXAMPLES = 150       # most planted puzzles have many solutions: the solve ends trying every cell


def plant(rng: random.Random) -> Plant:
    rows, cols = board_size(rng, 1, 10)
    # A large board with few shaded cells or loose numbers has a great many solutions, and
    # the solve tries every cell before it stops: such boards stay small.
    large = rows * cols > LOOSE_CELLS
    shaded = sparse_shading(rng, rows, cols, dense=large)
    numbers = unshaded_numbers(rng, rows, cols, shaded)
    blank = 0.0 if large else rng.choice((0.0, 0.0, 0.0, 0.1, 0.5))
    lone = 0.0 if large else rng.choice((0.0, 0.0, 0.1, 0.5))
    for i in sorted(shaded):
        r, c = divmod(i, cols)
        seen = [numbers[j] for j in line_cells(rows, cols, r, c) if j not in shaded and numbers[j] != NO_NUMBER]
        roll = rng.random()
        if roll < blank:
            numbers[i] = NO_NUMBER
        elif seen and roll >= blank + lone:
            numbers[i] = rng.choice(seen)
        else:
            numbers[i] = rng.randint(1, max(rows, cols) + 2)
    for i in range(rows * cols):
        if i not in shaded and rng.random() < blank:
            numbers[i] = NO_NUMBER
    puzzle = HitoriPuzzle(rows=rows, cols=cols, numbers=tuple(numbers), meta=Meta(origin="planted"))
    return Plant(puzzle, State(tuple(B_BLACK if i in shaded else B_WHITE for i in range(rows * cols))))


def line_cells(rows: int, cols: int, r: int, c: int) -> list[int]:
    """The other cells of r's row and c's column."""
    return ([r * cols + k for k in range(cols) if k != c]
            + [k * cols + c for k in range(rows) if k != r])


def unshaded_numbers(rng: random.Random, rows: int, cols: int, shaded: set[int]) -> list[int]:
    """Numbers for the unshaded cells, none repeated in a row or column among them; few
    distinct values (as tight as a Latin square allows) or a few more."""
    top = max(rows, cols) + rng.choice((0, 0, 1, 3))
    while True:
        numbers = [NO_NUMBER] * (rows * cols)
        ok = True
        for i in range(rows * cols):
            if i in shaded:
                continue
            r, c = divmod(i, cols)
            used = {numbers[j] for j in line_cells(rows, cols, r, c)}
            free = [v for v in range(1, top + 1) if v not in used]
            if not free:
                ok = False
                break
            numbers[i] = rng.choice(free)
        if ok:
            return numbers
        top += 1
