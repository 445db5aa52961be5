"""Japanese Arrows planted: a random arrow field (straight, diagonal or mixed; sometimes every
arrow one way, or as many as possible pointing off the grid), numbers found by settling each
arrow on the count its line shows until nothing changes (a settled field is a solution),
and a random share of the numbers given."""
from __future__ import annotations

import random

from grader.genres.arrows.model import ARROWS, ArrowsPuzzle
from grader.core.model import Meta, State, bit
from grader.core.genre import Plant
from grader.kernels.random_shapes import board_size, share

STRAIGHT = ((0, -1), (-1, 0), (0, 1), (1, 0))
DIAGONAL = ((-1, -1), (-1, 1), (1, 1), (1, -1))
EVERY = tuple(ARROWS.values())
SWEEPS = 30          # settling sweeps before a field is given up for another
CI_EXAMPLES = 100    # a 10x10 field with few numbers takes a while at level 5


def plant(rng: random.Random) -> Plant:
    rows, cols = board_size(rng, 1, 10)
    while True:
        dirs = _field(rng, rows, cols)
        shell = ArrowsPuzzle(rows=rows, cols=cols, dirs=dirs, givens=(None,) * (rows * cols))
        values = _settle(rng, shell)
        if values is not None:
            break
    keep = share(rng)
    givens = tuple(v if rng.random() < keep else None for v in values)
    puzzle = ArrowsPuzzle(rows=rows, cols=cols, dirs=dirs, givens=givens, meta=Meta(origin="planted"))
    return Plant(puzzle, State(tuple(bit(v) for v in values)))


def _field(rng: random.Random, rows: int, cols: int) -> tuple[tuple[int, int], ...]:
    choices = rng.choice((STRAIGHT, DIAGONAL, EVERY))
    style = rng.random()
    if style < 0.15:                                   # every arrow the same way
        d = rng.choice(choices)
        return ((d,) * (rows * cols))
    off = 0.0 if style < 0.6 else rng.choice((0.3, 0.9))   # how often an arrow leaves the grid at once
    out = []
    for r in range(rows):
        for c in range(cols):
            outward = [d for d in choices if not (0 <= r + d[0] < rows and 0 <= c + d[1] < cols)]
            if outward and rng.random() < off:
                out.append(rng.choice(outward))
            else:
                out.append(rng.choice(choices))
    return tuple(out)


def _settle(rng: random.Random, puzzle: ArrowsPuzzle) -> tuple[int, ...] | None:
    """Numbers from random ones, each arrow in turn set to the count of different numbers it
    sees, until a sweep changes nothing (then every arrow holds its count), or None."""
    n = puzzle.size
    values = [rng.randrange(len(ray) + 1) for ray in puzzle.rays]
    order = list(range(n))
    for _ in range(SWEEPS):
        rng.shuffle(order)
        changed = False
        for p in order:
            count = len({values[q] for q in puzzle.rays[p]})
            if values[p] != count:
                values[p] = count
                changed = True
        if not changed:
            return tuple(values)
    return None
