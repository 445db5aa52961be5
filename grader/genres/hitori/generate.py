"""Hitori drafts for the generator (grader.core.generator), as Simon Tatham's Singles makes
them: a random Latin square, a random shading (none side by side, the unshaded cells in one
area), and every shaded cell given a number that an unshaded cell of its row or column holds.
No clue can be taken away without changing the puzzle's nature, so each draft is graded as it
is; one that grades too easy has shaded cells renumbered with another twin, and the generator
draws again until one hits the target.

Level 1 has no way to shade a cell but three equal numbers in a row (the ends shaded), and a
unique Hitori leaves no unshaded cell that could be shaded as well, so a level-1 draft is
built from such triples: their ends shaded until every unshaded cell touches a shaded one."""
from __future__ import annotations

import random

from grader.core.generator import Draft
from grader.genres.hitori.model import HitoriPuzzle
from grader.genres.hitori.planted import line_cells
from grader.kernels.grid import GridGraph
from grader.kernels.sparse_shading import can_shade, one_area, shading_of_share

SHADED_SHARE = (0.25, 0.32)


def latin_square(rng: random.Random, n: int) -> list[list[int]]:
    rows, cols, symbols = (rng.sample(range(n), n) for _ in range(3))
    return [[symbols[(rows[r] + cols[c]) % n] + 1 for c in range(n)] for r in range(n)]


def draft(rng: random.Random, rows: int, cols: int, cap: int = 5) -> Draft | None:
    if cap == 1:
        return triples_draft(rng, rows, cols)
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


def triples(rng: random.Random, rows: int, cols: int) -> tuple[dict[int, int], set[int]] | None:
    """Shaded cells in pairs two apart along a line, each mapped to the unshaded middle of its
    pair, until every unshaded cell but a middle touches a shaded cell or no pair can reach it;
    with those left over (None unless each is a cut cell of the unshaded area, which no second
    solution could shade)."""
    g = GridGraph(rows, cols)
    middle_of: dict[int, int] = {}
    left: set[int] = set()
    while True:
        covered = set(middle_of) | set(middle_of.values()) | {j for i in middle_of for j in g.neighbours[i]}
        open_cells = [i for i in range(rows * cols) if i not in covered | left]
        if not open_cells:
            break
        x = open_cells[0]              # row by row: holes left behind are rarer
        options = [pair for e in (x, *g.neighbours[x]) for pair in _pairs_at(e, rows, cols)
                   if _fits(g, middle_of, *pair)]
        if not options:
            left.add(x)
            continue
        a, b = rng.choice(options)
        middle_of[a] = middle_of[b] = (a + b) // 2
    left -= {j for i in middle_of for j in g.neighbours[i]}
    if not all(not one_area(g.neighbours, set(middle_of) | {x}) for x in left):
        return None
    return middle_of, left


def _pairs_at(e: int, rows: int, cols: int) -> list[tuple[int, int]]:
    """The pairs of cells two apart in a row or column with e as one of them."""
    r, c = divmod(e, cols)
    return [(e, (r + dr) * cols + c + dc) for dr, dc in ((0, 2), (2, 0), (0, -2), (-2, 0))
            if 0 <= r + dr < rows and 0 <= c + dc < cols]


def _fits(g: GridGraph, middle_of: dict[int, int], a: int, b: int) -> bool:
    shaded = set(middle_of)
    return ((a + b) // 2 not in shaded and not {a, b} & (shaded | set(middle_of.values()))
            and can_shade(g.neighbours, shaded, a) and can_shade(g.neighbours, shaded | {a}, b))


def triples_draft(rng: random.Random, rows: int, cols: int) -> Draft | None:
    """A level-1 draft: a Latin square whose shaded cells, all ends of triples, take the number
    of their pair's middle. Every cell follows from a triple or a shaded neighbour, or is a cut
    cell whose number has no twin (a unique puzzle never shades such a number)."""
    found = triples(rng, rows, cols)
    if found is None:
        return None
    middle_of, left = found
    for _ in range(20):
        square = latin_square(rng, max(rows, cols))
        numbers = [square[r][c] for r in range(rows) for c in range(cols)]
        for i, mid in middle_of.items():
            numbers[i] = numbers[mid]
        if all(numbers[x] not in {numbers[j] for j in line_cells(rows, cols, *divmod(x, cols))} for x in left):
            puzzle = HitoriPuzzle(rows=rows, cols=cols, numbers=tuple(numbers))
            return Draft((), lambda kept: puzzle, grid=(rows, cols))
    return None
