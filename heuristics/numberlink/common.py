"""Helpers shared by the Numberlink techniques: where to look, and joins on or off."""
from __future__ import annotations

from typing import Iterable

from grader.genres.numberlink.model import WITH_SIDE, WITHOUT_SIDE, NumberlinkPuzzle
from grader.kernels.cell_shapes import OPPOSITE, SIDES
from grader.core.model import State
from grader.core.steps import Deduction

GENRE = "numberlink"


def cells_near(puzzle: NumberlinkPuzzle, focus: frozenset[int] | None) -> Iterable[int]:
    if focus is None:
        return range(puzzle.rows * puzzle.cols)
    around = puzzle.around
    out = set()
    for f in focus:
        out.update(around[f])
    return sorted(out)


def phrase(items: list[str]) -> str:
    from grader.core.explain import phrase_list
    return phrase_list(items)


def the(puzzle: NumberlinkPuzzle, labels: Iterable[int]) -> list[str]:
    return [f"the {puzzle.name(lab)}s" for lab in sorted(labels)]


def min_mask(sides: int) -> int:
    """Values whose shape uses none of `sides`."""
    out = -1
    for d in SIDES:
        if d & sides:
            out &= WITHOUT_SIDE[d]
    return out


def join_on(state: State, i: int, d: int, j: int, **why) -> Deduction | None:
    """The line runs between i and its neighbour j on side d."""
    return _join(state, i, WITHOUT_SIDE[d], j, WITHOUT_SIDE[OPPOSITE[d]], **why)


def join_off(state: State, i: int, d: int, j: int, **why) -> Deduction | None:
    """No line runs between i and its neighbour j on side d."""
    return _join(state, i, WITH_SIDE[d], j, WITH_SIDE[OPPOSITE[d]], **why)


def _join(state: State, i: int, drop_i: int, j: int, drop_j: int, *, params, premises=(), cells=(),
          region=()) -> Deduction | None:
    """Removes drop_i from cell i and drop_j from its neighbour j, when that is new (the same
    as Deduction.build, made directly: the fills of trials settle joins by the thousand)."""
    a, b = state.cands[i] & drop_i, state.cands[j] & drop_j
    if not (a or b):
        return None
    removals = tuple(r for r in (((i, a), (j, b)) if i < j else ((j, b), (i, a))) if r[1])
    return Deduction(removals, params, tuple(premises), tuple(cells), tuple(region))
