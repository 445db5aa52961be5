"""Small helpers shared by the Nurikabe techniques: where to look, how to name things.
"""
from __future__ import annotations

from typing import Iterable, Iterator

from grader.genres.nurikabe.model import UNKNOWN, WALL, Islands, NurikabePuzzle

GENRE = "nurikabe"

# Level-5 hypotheses: each case is filled in with techniques up to FILL_LEVEL; a quick look
# (few steps) at the most promising cases first, then a longer look at fewer of them.
FILL_LEVEL = 3
PASSES = ((12, 40), (150, 12))     # (steps per branch, cases tried)


def near(puzzle: NurikabePuzzle, focus: frozenset[int] | None, radius: int = 1) -> Iterable[int]:
    if focus is None:
        return range(len(puzzle.clues))
    return sorted(puzzle.graph.around(focus, radius))


def around(puzzle: NurikabePuzzle, cells) -> set[int]:
    """The cells and their neighbours."""
    return puzzle.graph.around(cells, 1)


def parts_near(isl: Islands, focus: frozenset[int] | None) -> list[int]:
    """Island parts that touch or hold a focus cell."""
    if focus is None:
        return list(range(len(isl.parts)))
    cells = isl.puzzle.graph.around(focus, 1)
    return sorted({isl.of[i] for i in cells if isl.of[i] >= 0})


def verdict(cells, value: int) -> str:
    """"it is a wall" / "they are walls" / "it is island" / "they are island"."""
    one = len(cells) == 1
    if value == WALL:
        return "it is a wall" if one else "they are walls"
    return "it is island" if one else "they are island"


def cells_of(puzzle: NurikabePuzzle, items: Iterable[int]) -> list:
    return puzzle.graph.cells(items)


def clue_text(puzzle: NurikabePuzzle, i: int) -> str:
    n = puzzle.clues[i]
    return f"the {'?' if n == UNKNOWN else n} at {puzzle.cell(i)}"



def members(size: int, cells) -> list[bool]:
    """A set of cells as a list of booleans by cell (for the connectivity helpers, which read
    it cell by cell: a list is quicker to read than a set)."""
    out = [False] * size
    for i in cells:
        out[i] = True
    return out


def passes(cases: list) -> Iterator[tuple[int, object]]:
    """(steps per branch, case) for the quick pass, then the long one (see PASSES)."""
    for steps, count in PASSES:
        for case in cases[:count]:
            yield steps, case
