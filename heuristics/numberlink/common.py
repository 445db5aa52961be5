"""Helpers shared by the Numberlink techniques: where to look, and joins on or off."""
from __future__ import annotations

from typing import Iterable

from grader.genres.numberlink import (
    OPPOSITE,
    SIDES,
    WITH_SIDE,
    WITHOUT_SIDE,
    NumberlinkPuzzle,
)
from grader.model import State
from grader.steps import Deduction

GENRE = "numberlink"


def cells_near(puzzle: NumberlinkPuzzle, focus: frozenset[int] | None) -> Iterable[int]:
    if focus is None:
        return range(puzzle.rows * puzzle.cols)
    out = set(focus)
    for f in focus:
        out.update(puzzle.neighbour[f].values())
    return sorted(out)


def phrase(items: list[str]) -> str:
    from grader.explain import phrase_list
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
    return Deduction.build(state, keep={i: WITH_SIDE[d], j: WITH_SIDE[OPPOSITE[d]]}, **why)


def join_off(state: State, i: int, d: int, j: int, **why) -> Deduction | None:
    """No line runs between i and its neighbour j on side d."""
    return Deduction.build(state, keep={i: WITHOUT_SIDE[d], j: WITHOUT_SIDE[OPPOSITE[d]]}, **why)
