"""Minesweeper planted: random mines (often none at all, or every unknown cell but one), a
random share of the safe cells revealed with their numbers (some as `?`, some void), and the
`mines:` total given or not."""
from __future__ import annotations

import random

from grader.genres.minesweeper.model import B_MINE, B_SAFE, QUESTION, UNKNOWN, VOID, MinesPuzzle
from grader.core.model import Meta, State
from grader.core.genre import Plant
from grader.kernels.random_shapes import board_size, share


def plant(rng: random.Random) -> Plant:
    rows, cols = board_size(rng, 1, 10)
    size = rows * cols
    cells = list(range(size))
    rng.shuffle(cells)
    pick = rng.random()
    if pick < 0.15:                                  # no mines at all
        count = 0
    elif pick < 0.3:                                 # every cell but one
        count = size - 1
    elif pick < 0.4:                                 # a single mine
        count = min(1, size)
    else:
        count = round(size * rng.choice((0.1, 0.2, 0.35, 0.5, 0.8)))
    mines = set(cells[:count])
    surrounding = MinesPuzzle(rows=rows, cols=cols, board=(UNKNOWN,) * size).surrounding
    keep, void, question = share(rng), rng.choice((0.0, 0.0, 0.1, 0.3)), rng.choice((0.0, 0.0, 0.2))
    board = []
    for i in range(size):
        if i in mines or rng.random() >= keep:
            board.append(UNKNOWN)
        elif rng.random() < void:
            board.append(VOID)
        elif rng.random() < question:
            board.append(QUESTION)
        else:
            board.append(sum(1 for n in surrounding[i] if n in mines))
    total = len(mines) if rng.random() < 0.5 else None
    puzzle = MinesPuzzle(rows=rows, cols=cols, board=tuple(board), total=total, meta=Meta(origin="planted"))
    return Plant(puzzle, State(tuple(B_MINE if i in mines else B_SAFE for i in range(size))))
