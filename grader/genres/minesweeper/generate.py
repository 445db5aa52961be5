"""Minesweeper drafts for the generator (grader.core.generator): a static puzzle, as in
puzzle books. Mines on a fifth of the cells (Tatham's Mines has about that density), every safe
cell revealed with its number, and the mine total given. The generator hides numbers: a hidden
safe cell is one the solver must find."""
from __future__ import annotations

import random

from grader.core.generator import Draft
from grader.genres.minesweeper.model import UNKNOWN, MinesPuzzle

MINE_SHARE = (0.15, 0.22)


def draft(rng: random.Random, rows: int, cols: int, cap: int = 5) -> Draft | None:
    size = rows * cols
    mines = set(rng.sample(range(size), round(size * rng.uniform(*MINE_SHARE))))
    around = MinesPuzzle(rows=rows, cols=cols, board=(UNKNOWN,) * size).surrounding
    counts = {i: sum(1 for j in around[i] if j in mines) for i in range(size) if i not in mines}

    def build(kept: frozenset[int]) -> MinesPuzzle:
        return MinesPuzzle(rows=rows, cols=cols, total=len(mines),
                           board=tuple(counts[i] if i in kept else UNKNOWN for i in range(size)))
    return Draft(tuple(sorted(counts)), build, grid=(rows, cols))
