"""Akari planted: random walls (none at all, a sprinkling, a dense maze, pillars on a lattice,
every cell but one or every cell), bulbs placed at random unlit cells until every white cell is
lit, and a random share of the walls numbered."""
from __future__ import annotations

import random

from grader.genres.akari.model import AkariPuzzle, B_BULB, B_EMPTY, WALL, WHITE
from grader.core.model import Meta, State
from grader.core.genre import Plant
from grader.kernels.random_shapes import board_size, share


def plant(rng: random.Random) -> Plant:
    rows, cols = board_size(rng, 1, 10)
    board = walls(rng, rows, cols)
    shell = AkariPuzzle(rows=rows, cols=cols, board=tuple(board))
    bulbs: set[int] = set()
    lit: set[int] = set()
    whites = list(shell.whites)
    rng.shuffle(whites)
    for i in whites:
        if i not in lit:
            bulbs.add(i)
            lit |= shell.sight[i] | {i}
    keep = share(rng)
    for i, b in enumerate(board):
        if b == WALL and rng.random() < keep:
            board[i] = sum(1 for n in shell.neighbours[i] if n in bulbs)
    puzzle = AkariPuzzle(rows=rows, cols=cols, board=tuple(board), meta=Meta(origin="planted"))
    return Plant(puzzle, State(tuple(B_BULB if i in bulbs else B_EMPTY for i in range(rows * cols))))


def walls(rng: random.Random, rows: int, cols: int) -> list[int]:
    """The board's walls (WALL) and white cells (WHITE)."""
    n = rows * cols
    pick = rng.random()
    if pick < 0.05:                                   # no white cell at all
        return [WALL] * n
    if pick < 0.12:                                   # a single white cell
        board = [WALL] * n
        board[rng.randrange(n)] = WHITE
        return board
    if pick < 0.22:                                   # pillars on a lattice, maybe a few more
        dr, dc = rng.randint(0, 1), rng.randint(0, 1)
        extra = rng.choice((0.0, 0.1))
        return [WALL if (r % 2 == dr and c % 2 == dc) or rng.random() < extra else WHITE
                for r in range(rows) for c in range(cols)]
    density = rng.choice((0.0, 0.1, 0.2, 0.35, 0.6, 0.85))
    return [WALL if rng.random() < density else WHITE for _ in range(n)]
