"""Masyu drafts for the generator (grader.core.generator): a long winding loop through cell
centres, and every pearl it allows (white where it runs straight with a turn beside, black
where it turns with straight runs on both sides). The generator takes pearls away."""
from __future__ import annotations

import random

from grader.core.generator import Draft
from grader.genres.masyu.model import MasyuPuzzle
from grader.genres.masyu.planted import valid_pearls
from grader.kernels.pearls import NONE
from grader.kernels.random_loops import directions, random_loop


def draft(rng: random.Random, rows: int, cols: int, cap: int = 5) -> Draft | None:
    if rows < 2 or cols < 2:
        return None
    links = random_loop(rng, rows, cols, winding=1.0, reach=0.6, thin=0.8)
    pearls = valid_pearls(cols, {i: set(d) for i, d in directions(cols, links).items()})

    def build(kept: frozenset[int]) -> MasyuPuzzle:
        return MasyuPuzzle(rows=rows, cols=cols, pearls=tuple(pearls[i] if i in kept else NONE
                                                              for i in range(rows * cols)))
    return Draft(tuple(sorted(pearls)), build, grid=(rows, cols))
