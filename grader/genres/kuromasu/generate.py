"""Kuromasu drafts for the generator (grader.core.generator): a random shading of a fifth to
a quarter of the cells (none side by side, the white cells in one area), and every white cell
numbered with the count of white cells it sees. The generator takes numbers away."""
from __future__ import annotations

import random

from grader.core.generator import Draft
from grader.genres.kuromasu.model import NO_CLUE, KuromasuPuzzle
from grader.genres.kuromasu.planted import seen
from grader.kernels.sparse_shading import shading_of_share

SHADED_SHARE = (0.2, 0.25)


def draft(rng: random.Random, rows: int, cols: int, cap: int = 5) -> Draft | None:
    shaded = shading_of_share(rng, rows, cols, rng.uniform(*SHADED_SHARE))
    shell = KuromasuPuzzle(rows=rows, cols=cols, clues=(NO_CLUE,) * (rows * cols))
    counts = {i: 1 + sum(seen(ray, shaded) for ray in shell.rays[i])
              for i in range(rows * cols) if i not in shaded}

    def build(kept: frozenset[int]) -> KuromasuPuzzle:
        return KuromasuPuzzle(rows=rows, cols=cols, clues=tuple(counts[i] if i in kept else NO_CLUE
                                                                for i in range(rows * cols)))
    return Draft(tuple(sorted(counts)), build, grid=(rows, cols))
