"""Every filling of a small group of cells: the free cells of one 2x2 block, each filling
checked against the rules (level 4) or filled in with easier techniques (level 5).
"""
from __future__ import annotations

import itertools
from typing import Iterator

from grader.genres import nurikabe as rules
from grader.genres.nurikabe import B_ISLAND, B_WALL, FREE, ISLAND, WALL, NurikabePuzzle
from grader.heuristic import heuristic
from grader.model import State
from grader.probing import branch_deduction
from grader.steps import Deduction
from heuristics.common import connectivity as cn

from .common import FILL_LEVEL, GENRE

MAX_GROUPS = 30            # blocks tried per call
CHECK_CELLS = 4000         # each filling is a whole-board rule check: board cells x checks per call
BRANCH_STEPS = 12          # steps per branch at level 5: 2^n branches, so only a quick look
TRIAL_GROUPS = 12          # blocks tried at level 5


def groups(puzzle: NurikabePuzzle, state: State, focus, sizes: range) -> list[list[int]]:
    """The free cells of 2x2 blocks (near the focus), fewest free cells first."""
    g = puzzle.graph
    blocks = range(len(g.blocks)) if focus is None else sorted(cn.blocks_near(g, focus))
    found = []
    for k in blocks:
        free = [i for i in g.blocks[k] if state.cands[i] == FREE]
        if len(free) in sizes:
            found.append(free)
    found.sort(key=len)
    return found[:MAX_GROUPS]


def fillings(state: State, cells: list[int]) -> Iterator[tuple[str, State]]:
    """Every way to fill the cells: (the values in order, the filled state)."""
    for values in itertools.product((ISLAND, WALL), repeat=len(cells)):
        cands = list(state.cands)
        for i, v in zip(cells, values):
            cands[i] = B_ISLAND if v == ISLAND else B_WALL
        yield values, State(tuple(cands))


def _name(puzzle: NurikabePuzzle, cells: list[int], values) -> str:
    return ", ".join(f"{puzzle.cell(i)} {'island' if v == ISLAND else 'wall'}" for i, v in zip(cells, values))


@heuristic(id="nurikabe.group-fillings", name="Every filling of a 2x2 block", genre=GENRE, level=4,
           order=20,
           template="Of the {total} ways to fill {cells}, only {left} break no rule at once "
                    "({broken}); in all of them {verdict}.",
           nudge="Try every way to fill {cells}.",
           catalogue="* for a group of (connected?) cells of size n>=2: assume in turn all 2^n "
                     "combinations. do a non-deep check for illegal scenarios: 2x2 walls, "
                     "disconnected walls, enclosed islands with wrong size, 0 or 2 numbers")
def group_fillings(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    check = rules.GENRE.violations
    budget = max(16, CHECK_CELLS // len(state.cands))
    for cells in groups(puzzle, state, focus, range(2, 5)):
        budget -= 2 ** len(cells)
        if budget < 0:
            return
        live, broken = [], []
        for values, filled in fillings(state, cells):
            bad = check(puzzle, filled)
            (broken if bad else live).append((values, bad[0].message if bad else ""))
        if not broken or not live:
            continue
        put = {}
        for n, i in enumerate(cells):
            seen = {values[n] for values, _ in live}
            if len(seen) == 1:
                put[i] = seen.pop()
        if put:
            yield Deduction.build(state, put=put, region=cells, params={
                "cells": puzzle.graph.cells(cells), "total": 2 ** len(cells), "left": len(live),
                "broken": f"with {_name(puzzle, cells, broken[0][0])}, {broken[0][1]}",
                "verdict": " and ".join(f"{puzzle.cell(i)} {'is island' if put[i] == ISLAND else 'is a wall'}"
                                        for i in sorted(put))})
            return


@heuristic(id="nurikabe.group-trials", name="Try every filling of a 2x2 block", genre=GENRE,
           level=5, order=93,
           template="Trying all {total} ways to fill {cells}: {outcome}.",
           nudge="Try every way to fill {cells}.",
           catalogue="* for a group of (connected?) cells of size n>=2: assume in turn all 2^n "
                     "combinations of filling in these cells ... solve greedily ... if, for the "
                     "non-contradictory subset, some cell gets filled in the same way for every "
                     "combination, then it must be filled in like that")
def group_trials(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for cells in groups(puzzle, state, None, range(2, 4))[:TRIAL_GROUPS]:
        assumptions = [(_name(puzzle, cells, values), filled, cells)
                       for values, filled in fillings(state, cells)]
        d = branch_deduction(puzzle, state, assumptions, max_level=FILL_LEVEL, max_steps=BRANCH_STEPS)
        if d is not None:
            d.params.update({"cells": puzzle.graph.cells(cells),     # type: ignore[attr-defined]
                             "total": len(assumptions)})
            yield d
            return
