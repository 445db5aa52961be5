"""Small helpers shared by the Slitherlink technique modules."""
from __future__ import annotations

from typing import Iterable

from grader.genres.slitherlink import SlitherPuzzle

GENRE = "slitherlink"


def cells_near(puzzle: SlitherPuzzle, focus: frozenset[int] | None, clued_only: bool = True
               ) -> Iterable[int]:
    """Cells with an edge in `focus` (every cell when focus is None)."""
    if focus is None:
        return puzzle.clued if clued_only else range(len(puzzle.cells))
    out = {k for e in focus for k in puzzle.cells_of_edge[e]}
    if clued_only:
        out = {k for k in out if puzzle.clues[k] is not None}
    return sorted(out)


def lines_word(n: int) -> str:
    return "1 line" if n == 1 else f"{n} lines"


def is_are(items) -> str:
    """'is' for one item, 'are' for several (for "{edges} {are} crossed")."""
    return "is" if len(items) == 1 else "are"


def carry(items) -> str:
    return "carries" if len(items) == 1 else "carry"
