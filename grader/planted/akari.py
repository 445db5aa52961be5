"""Akari planted: random walls (none at all, or a dense maze), bulbs placed at random unlit
cells until every white cell is lit, and a random share of the walls numbered."""
from __future__ import annotations

import random

from ..genres.akari import AkariPuzzle, B_BULB, B_EMPTY, WALL, WHITE
from ..model import Meta, State
from . import Plant
from ._shapes import board_size, share


def plant(rng: random.Random) -> Plant:
    rows, cols = board_size(rng, 1, 10)
    density = rng.choice((0.0, 0.1, 0.2, 0.35, 0.6))
    board = [WALL if rng.random() < density else WHITE for _ in range(rows * cols)]
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
