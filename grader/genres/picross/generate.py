"""Picross drafts for the generator (grader.core.generator), as Simon Tatham's Pattern makes
them: random cells filled at about half density, then smoothed a few times (a cell follows
most of its neighbours) so the picture has shapes rather than noise; the clues are the runs.
A smoothed picture is seldom harder than level 3 (none of 160 drafts at 15x15), so a target of
level 4 or more draws a picture without smoothing (about one in ten grades at level 4).
Each draft is graded as it is; one that grades too easy is tweaked a cell at a time, and the
generator draws again until one hits the target."""
from __future__ import annotations

import random

from grader.core.generator import Draft
from grader.genres.picross.model import PicrossPuzzle, clues_of

DENSITY = (0.45, 0.6)
SMOOTHING = (1, 3)
HARD = 4                    # targets from this level draw noise: no smoothing, density below
HARD_DENSITY = (0.4, 0.6)


def picture(rng: random.Random, rows: int, cols: int, density: tuple[float, float] = DENSITY,
            smoothing: tuple[int, int] = SMOOTHING) -> frozenset[int]:
    filled = {i for i in range(rows * cols) if rng.random() < rng.uniform(*density)}
    for _ in range(rng.randint(*smoothing)):
        nxt = set()
        for i in range(rows * cols):
            r, c = divmod(i, cols)
            around = [(r + dr) * cols + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                      if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols]
            on = sum(j in filled for j in around)
            if on * 2 > len(around) or (on * 2 == len(around) and i in filled):
                nxt.add(i)
        filled = nxt
    return frozenset(filled)


def draft(rng: random.Random, rows: int, cols: int, cap: int = 5) -> Draft | None:
    if cap >= HARD:
        return drawn(picture(rng, rows, cols, HARD_DENSITY, (0, 0)), rows, cols)
    return drawn(picture(rng, rows, cols), rows, cols)


def drawn(filled: frozenset[int], rows: int, cols: int) -> Draft:
    """The draft of one picture; a tweak flips one of its cells."""
    row_clues, col_clues = clues_of(rows, cols, filled)
    puzzle = PicrossPuzzle(rows=rows, cols=cols, row_clues=row_clues, col_clues=col_clues)
    return Draft((), lambda kept: puzzle, grid=(rows, cols),
                 tweak=lambda rng: drawn(filled ^ {rng.randrange(rows * cols)}, rows, cols))
