"""Shared reasoning for shading genres where shaded cells never touch and the white cells form
one connected area (Heyawake, Kuromasu).

Every cell is a variable with values WHITE (0) and SHADED (1). The puzzle offers `graph` (a
connectivity.GridGraph), `neighbours` and `cell(i)` as cached topology; the connectivity facts
are computed once per state by heuristics/common/connectivity.py.
"""
from __future__ import annotations

from typing import Iterable, Iterator, Sequence

from grader.explain import phrase_list
from grader.model import State, Violation
from grader.steps import Deduction
from heuristics.common import connectivity

WHITE, SHADED = 0, 1
B_WHITE, B_SHADED = 1 << WHITE, 1 << SHADED
FREE = B_WHITE | B_SHADED


def around(puzzle, focus: Iterable[int]) -> set[int]:
    """The focus cells and their neighbours."""
    out: set[int] = set()
    for f in focus:
        out.add(f)
        out.update(puzzle.neighbours[f])
    return out


def open_side(puzzle, state: State) -> connectivity.Side:
    """The cells that are, or may still be, white (connectivity.Side, once per state).
    White cells must all end up in one area of these."""
    return connectivity.side(puzzle.graph, state, B_WHITE)


# --- violations ---------------------------------------------------------------------------

def shading_violations(puzzle, state: State) -> list[Violation]:
    """Two shaded cells side by side; white cells that can no longer be joined."""
    return (connectivity.adjacent_shaded(puzzle.graph, state.cands, B_SHADED)
            + connectivity.disconnected(open_side(puzzle, state), "the white cells"))


# --- techniques shared by the genres -------------------------------------------------------
# Each genre registers these under its own id and wording; the reasoning lives here.

def shaded_neighbours_white(puzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Params: shaded, cells."""
    cands = state.cands
    cells = range(len(cands)) if focus is None else sorted(around(puzzle, focus))
    for i in cells:
        if cands[i] != B_SHADED:
            continue
        free = [j for j in puzzle.neighbours[i] if cands[j] & B_SHADED]
        d = Deduction.build(state, put={j: WHITE for j in free}, premises=[i],
                            params={"shaded": puzzle.cell(i), "cells": [puzzle.cell(j) for j in free]})
        if d:
            yield d


def single_exit(puzzle, state: State, focus=None) -> Iterator[Deduction]:
    """A white cell with one neighbour left that is not shaded: that neighbour is white
    (unless every white cell is already here). Params: white, exit, walls."""
    cands = state.cands
    cells = range(len(cands)) if focus is None else sorted(around(puzzle, focus))
    for i in cells:
        if cands[i] != B_WHITE:
            continue
        open_ = [j for j in puzzle.neighbours[i] if cands[j] != B_SHADED]
        if len(open_) != 1 or cands[open_[0]] != FREE:
            continue
        closed = [j for j in puzzle.neighbours[i] if cands[j] == B_SHADED]
        d = Deduction.build(state, put={open_[0]: WHITE}, premises=[i, *closed],
                            params={"white": puzzle.cell(i), "exit": puzzle.cell(open_[0]),
                                    "walls": describe_walls(puzzle, i, closed)})
        if d:
            yield d


def describe(puzzle, put: dict[int, int]) -> str:
    """'r1c3 and r1c5 are shaded and r2c4 is white': what a set of decisions says."""
    parts = []
    for value, word in ((SHADED, "shaded"), (WHITE, "white")):
        cells = [puzzle.cell(i) for i in sorted(put) if put[i] == value]
        if cells:
            parts.append(f"{phrase_list(cells)} {'is' if len(cells) == 1 else 'are'} {word}")
    return " and ".join(parts)


def describe_walls(puzzle, i: int, shaded: Sequence[int]) -> str:
    edge = 4 - len(puzzle.neighbours[i])
    parts = [f"the shaded {'cell' if len(shaded) == 1 else 'cells'} "
             f"{phrase_list(puzzle.cell(j) for j in shaded)}"] if shaded else []
    if edge:
        parts.append("the edge of the grid")
    return " and ".join(parts)


def articulation_white(puzzle, state: State, focus=None) -> Iterator[Deduction]:
    """An undecided cell whose shading would split the cells that may be white: shading it
    also whitens its neighbours, which would then lie in different pieces, so it is white.
    Params: cell, pieces, sides."""
    cands = state.cands
    for i, _ in sorted(open_side(puzzle, state).splits.items()):
        if cands[i] != FREE:
            continue
        pieces = pieces_without(puzzle, cands, i)
        d = Deduction.build(state, put={i: WHITE}, region=[p[0] for p in pieces],
                            params={"cell": puzzle.cell(i), "pieces": len(pieces),
                                    "sides": [puzzle.cell(p[0]) for p in pieces]})
        if d:
            yield d


def pieces_without(puzzle, cands: Sequence[int], cut: int) -> list[list[int]]:
    """The pieces the unshaded cells fall into when `cut` is shaded, each listed from the
    neighbour of `cut` it contains."""
    seen = {cut}
    pieces = []
    for s in puzzle.neighbours[cut]:
        if s in seen or cands[s] == B_SHADED:
            continue
        seen.add(s)
        stack, members = [s], [s]
        while stack:
            v = stack.pop()
            for u in puzzle.neighbours[v]:
                if u not in seen and cands[u] != B_SHADED:
                    seen.add(u)
                    stack.append(u)
                    members.append(u)
        pieces.append(members)
    return pieces


def cut_off(puzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Undecided cells that can no longer reach the white cells cannot be white.
    Params: cells, white."""
    side = open_side(puzzle, state)
    stranded = side.stranded
    if stranded:
        yield Deduction.build(state, put={i: SHADED for i in stranded},
                              params={"cells": [puzzle.cell(i) for i in stranded],
                                      "white": puzzle.cell(side.decided_cells[0])})
