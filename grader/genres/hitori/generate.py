"""Hitori drafts for the generator (grader.core.generator), as Simon Tatham's Singles makes
them: a random Latin square, a random shading (none side by side, the unshaded cells in one
area), and every shaded cell given a number that an unshaded cell of its row or column holds.
No clue can be taken away without changing the puzzle's nature, so each draft is graded as it
is; one that grades too easy has shaded cells renumbered with another twin, and the generator
draws again until one hits the target."""
from __future__ import annotations

import random

from grader.core.generator import Draft
from grader.genres.hitori.model import HitoriPuzzle
from grader.genres.hitori.planted import line_cells
from grader.kernels.sparse_shading import shading_of_share

SHADED_SHARE = (0.25, 0.32)


def latin_square(rng: random.Random, n: int) -> list[list[int]]:
    rows, cols, symbols = (rng.sample(range(n), n) for _ in range(3))
    return [[symbols[(rows[r] + cols[c]) % n] + 1 for c in range(n)] for r in range(n)]


def draft(rng: random.Random, rows: int, cols: int) -> Draft | None:
    n = max(rows, cols)
    square = latin_square(rng, n)
    numbers = [square[r][c] for r in range(rows) for c in range(cols)]
    shaded = shading_of_share(rng, rows, cols, rng.uniform(*SHADED_SHARE))
    twins = {i: sorted({numbers[j] for j in line_cells(rows, cols, *divmod(i, cols)) if j not in shaded})
             for i in shaded}
    if not all(twins.values()):
        return None
    for i in sorted(shaded):
        numbers[i] = rng.choice(twins[i])
    return numbered(rows, cols, tuple(numbers), twins)


def numbered(rows: int, cols: int, numbers: tuple[int, ...], twins: dict[int, list[int]]) -> Draft:
    """The draft of one numbering; a tweak gives a shaded cell another twin's number."""
    puzzle = HitoriPuzzle(rows=rows, cols=cols, numbers=numbers)

    def tweak(rng: random.Random) -> Draft | None:
        i = rng.choice(sorted(twins))
        other = [n for n in twins[i] if n != numbers[i]]
        if not other:
            return None
        return numbered(rows, cols, numbers[:i] + (rng.choice(other),) + numbers[i + 1:], twins)
    return Draft((), lambda kept: puzzle, grid=(rows, cols), tweak=tweak)
