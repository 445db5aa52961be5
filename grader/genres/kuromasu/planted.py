"""Kuromasu planted: a random shading (none, one cell, as many as fit, or anything between), and
white cells numbered with the count of white cells they see, themselves included: all of
them, a random share or none. Now and then a numbered cell shows '?' (white, no count)."""
from __future__ import annotations

import random

from grader.genres.kuromasu.model import B_SHADED, B_WHITE, NO_CLUE, UNKNOWN, KuromasuPuzzle
from grader.core.model import Meta, State
from grader.core.genre import Plant
from grader.kernels.random_shapes import board_size, share
from grader.kernels.sparse_shading import sparse_shading


def plant(rng: random.Random) -> Plant:
    rows, cols = board_size(rng, 1, 10)
    shaded = sparse_shading(rng, rows, cols)
    shell = KuromasuPuzzle(rows=rows, cols=cols, clues=(NO_CLUE,) * (rows * cols))
    keep = share(rng)
    unknown = rng.choice((0.0, 0.0, 0.0, 0.2))
    clues = []
    for i in range(rows * cols):
        if i in shaded or rng.random() >= keep:
            clues.append(NO_CLUE)
        elif rng.random() < unknown:
            clues.append(UNKNOWN)
        else:
            clues.append(1 + sum(seen(ray, shaded) for ray in shell.rays[i]))
    puzzle = KuromasuPuzzle(rows=rows, cols=cols, clues=tuple(clues), meta=Meta(origin="planted"))
    return Plant(puzzle, State(tuple(B_SHADED if i in shaded else B_WHITE for i in range(rows * cols))))


def seen(ray, shaded: set[int]) -> int:
    """White cells along a ray up to the first shaded one."""
    n = 0
    for j in ray:
        if j in shaded:
            break
        n += 1
    return n
