"""Akari drafts for the generator (grader.core.generator): walls scattered at random, half-
turn symmetric when asked by the tradition (always here: published Akari are), bulbs placed at
random unlit cells until every white cell is lit, and every wall numbered with its bulbs. The
numbers are the clues the generator may take away; the walls stay."""
from __future__ import annotations

import random

from grader.core.generator import Draft
from grader.genres.akari.model import WALL, WHITE, AkariPuzzle

WALL_SHARE = (0.15, 0.25)        # of the cells: Tatham's default is 20%


def draft(rng: random.Random, rows: int, cols: int, cap: int = 5) -> Draft | None:
    n = rows * cols
    board = [WHITE] * n
    for i in rng.sample(range(n), round(n * rng.uniform(*WALL_SHARE))):
        board[i] = board[n - 1 - i] = WALL
    shell = AkariPuzzle(rows=rows, cols=cols, board=tuple(board))
    if not shell.whites:
        return None
    bulbs: set[int] = set()
    lit: set[int] = set()
    for i in rng.sample(shell.whites, len(shell.whites)):
        if i not in lit:
            bulbs.add(i)
            lit |= shell.sight[i] | {i}
    count = {i: sum(1 for j in shell.neighbours[i] if j in bulbs) for i in range(n) if board[i] == WALL}

    def build(kept: frozenset[int]) -> AkariPuzzle:
        return AkariPuzzle(rows=rows, cols=cols,
                           board=tuple(count[i] if i in kept else b for i, b in enumerate(board)))
    return Draft(tuple(sorted(count)), build, grid=(rows, cols))
