"""Slitherlink drafts for the generator (grader.core.generator): a loop drawn as the boundary
of a random region of two to three fifths of the squares, and every square's count of loop
edges as its clue. The generator takes clues away (in half-turn pairs with --symmetric, as
published Slitherlinks often are)."""
from __future__ import annotations

import random

from grader.core.generator import Draft
from grader.genres.slitherlink.model import SlitherPuzzle
from grader.kernels.tilings import region_loop, square


def draft(rng: random.Random, rows: int, cols: int, cap: int = 5) -> Draft | None:
    t = square(rows, cols)
    loop = region_loop(t, rng)
    counts = [sum(e in loop for e in es) for es in t.faces]

    def build(kept: frozenset[int]) -> SlitherPuzzle:
        return SlitherPuzzle(rows=rows, cols=cols, clues=tuple(n if k in kept else None for k, n in enumerate(counts)))
    return Draft(tuple(range(rows * cols)), build, grid=(rows, cols), exact_first=4)
