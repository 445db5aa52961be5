"""Japanese Arrows drafts for the generator (grader.core.generator): a random arrow field
(arrows that would point straight off the grid are mostly turned inwards, so few cells are a
trivial 0), filled by the exact solver with a random valid set of numbers (random decisions
from the generator's seed); every cell's number is a given the generator may take away."""
from __future__ import annotations

import functools
import random

import attrs

from grader.core import exact
from grader.core.generator import Draft, Maker
from grader.genres.arrows.model import ArrowsPuzzle

STRAIGHT = ((0, -1), (-1, 0), (0, 1), (1, 0))
DIAGONAL = STRAIGHT + ((-1, -1), (-1, 1), (1, 1), (1, -1))
KINDS = ("straight", "diagonal")


def arrow_field(rows: int, cols: int, kind: str, rng: random.Random) -> tuple[tuple[int, int], ...]:
    dirs = DIAGONAL if kind == "diagonal" else STRAIGHT
    out = []
    for r in range(rows):
        for c in range(cols):
            inside = [d for d in dirs if 0 <= r + d[0] < rows and 0 <= c + d[1] < cols]
            d = rng.choice(dirs)
            if d not in inside and rng.random() < 0.8:
                d = rng.choice(inside)
            out.append(d)
    return tuple(out)


def draft(rng: random.Random, rows: int, cols: int, cap: int = 5, kind: str = "straight") -> Draft | None:
    n = rows * cols
    base = ArrowsPuzzle(rows=rows, cols=cols, dirs=arrow_field(rows, cols, kind, rng), givens=(None,) * n)
    filling = exact.random_solution(base, rng.randrange(1 << 30))
    if filling is None:
        return None
    values = tuple(m.bit_length() - 1 for m in filling.cands)

    def build(kept: frozenset[int]) -> ArrowsPuzzle:
        return attrs.evolve(base, givens=tuple(v if i in kept else None for i, v in enumerate(values)))
    return Draft(tuple(range(n)), build, grid=(rows, cols))


def maker(kind: str = "straight") -> Maker:
    """Drafts of one arrow kind (the command's --arrows)."""
    return functools.partial(draft, kind=kind)
