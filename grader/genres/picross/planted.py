"""Picross planted: random pictures (often all empty, all full, a checkerboard, or rows and
columns left empty or filled whole), on boards down to 1xN; every line's clue is derived from
the picture, and sometimes a few cells are given."""
from __future__ import annotations

import random

from grader.genres.picross.model import B_EMPTY, B_FILLED, EMPTY, FILLED, PicrossPuzzle, clues_of
from grader.core.model import Meta, State
from grader.core.genre import Plant
from grader.kernels.random_shapes import board_size


def picture(rng: random.Random, rows: int, cols: int) -> set[int]:
    size = rows * cols
    pick = rng.random()
    if pick < 0.08:
        return set()
    if pick < 0.16:
        return set(range(size))
    if pick < 0.24:                                  # a checkerboard, either phase
        phase = rng.randint(0, 1)
        return {i for i in range(size) if (i // cols + i % cols + phase) % 2}
    density = rng.choice((0.1, 0.3, 0.5, 0.7, 0.9))
    filled = {i for i in range(size) if rng.random() < density}
    for _ in range(rng.choice((0, 0, 1, 2, 4))):     # whole lines empty or full
        fill = rng.random() < 0.5
        if rng.random() < 0.5:
            r = rng.randrange(rows)
            line = range(r * cols, (r + 1) * cols)
        else:
            c = rng.randrange(cols)
            line = range(c, size, cols)
        filled = filled | set(line) if fill else filled - set(line)
    return filled


def plant(rng: random.Random) -> Plant:
    rows, cols = board_size(rng, 1, 10)
    filled = picture(rng, rows, cols)
    row_clues, col_clues = clues_of(rows, cols, frozenset(filled))
    givens: tuple[tuple[int, int], ...] = ()
    if rng.random() < 0.1:
        share = rng.random() * 0.3
        givens = tuple((i, FILLED if i in filled else EMPTY) for i in range(rows * cols) if rng.random() < share)
    puzzle = PicrossPuzzle(rows=rows, cols=cols, row_clues=row_clues, col_clues=col_clues, givens=givens,
                           meta=Meta(origin="planted"))
    return Plant(puzzle, State(tuple(B_FILLED if i in filled else B_EMPTY for i in range(rows * cols))))
