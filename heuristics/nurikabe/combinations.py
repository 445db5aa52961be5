"""Every filling of a small group of cells: the free cells of one 2x2 block, each filling
checked against the rules (level 4) or filled in with easier techniques (level 5).
"""
from __future__ import annotations

import itertools
from typing import Iterator

from grader.genres.nurikabe.model import (B_ISLAND, B_WALL, FREE, ISLAND, NO_CLUE, WALL,
                                          NurikabePuzzle)
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.probing import branch_deduction
from grader.core.steps import Deduction
from grader.kernels import connectivity as cn

from heuristics.common.focus import near_then_the_rest
from heuristics.nurikabe.common import FILL_LEVEL, GENRE

MAX_GROUPS = 30            # blocks tried per call
BRANCH_STEPS = 12          # steps per branch at level 5: 2^n branches, so only a quick look
TRIAL_GROUPS = 12          # blocks tried at level 5
FILL_SIZES = range(2, 5)   # free cells of a block whose every filling level 4 checks


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
        yield values, filled_with(state, cells, values)


def filled_with(state: State, cells, values) -> State:
    """The state with each of the cells set to its value."""
    cands = list(state.cands)
    for i, v in zip(cells, values):
        cands[i] = B_ISLAND if v == ISLAND else B_WALL
    return State(tuple(cands))


def in_pairs(count: int) -> list[int]:
    """0 .. count - 1, each followed by its mirror (count - 1 - it): for fillings in
    itertools.product order, a filling then its opposite, which gives every cell both values
    at once when both break no rule."""
    return [j for first in range(count // 2) for j in (first, count - 1 - first)]


def _name(puzzle: NurikabePuzzle, cells: list[int], values) -> str:
    return ", ".join(f"{puzzle.cell(i)} {'island' if v == ISLAND else 'wall'}" for i, v in zip(cells, values))


def broken_near(puzzle: NurikabePuzzle, state: State, filled: State, cells: list[int]) -> str | None:
    """A rule that filling `cells` of `state` (giving `filled`) breaks, looking only at what the
    filling can change: 2x2 blocks and islands at the cells, the walls still meeting, areas the
    new walls close off, the count of walls. (The rest of the board is as it was.)"""
    g, cands = puzzle.graph, filled.cands
    nbrs = g.neighbours
    for q in sorted({q for i in cells for q in g.blocks_of[i]}):
        block = g.blocks[q]
        if all(cands[i] == B_WALL for i in block):
            return f"the walls at {g.cell(block[0])}-{g.cell(block[3])} form a 2x2 block"
    islands_ = [i for i in cells if cands[i] == B_ISLAND]
    walls = [i for i in cells if cands[i] == B_WALL]
    why = _island_broken(puzzle, cands, {n for i in cells for n in (i, *nbrs[i]) if cands[n] == B_ISLAND})
    if why:
        return why
    before = cn.side(g, state, B_WALL)
    total = puzzle.wall_total
    if total is not None and (len(before.decided_cells) + len(walls) > total
                              or sum(before.possible) - len(islands_) < total):
        return f"the walls would not number {total}"
    if len(before.hosts) == 1:
        of, host = before.possible_parts.of, before.hosts[0]
        marked = set(before.decided_cells) | set(walls)
        if any(of[w] != host for w in walls) or (islands_ and cn.splits_marked(
                g, before.possible, set(islands_), [n for i in islands_ for n in nbrs[i] if of[n] == host],
                marked, len(marked))):
            return "the walls could no longer connect"
    if walls:
        room = cn.side(g, state, B_ISLAND).possible
        for piece in cn.pieces_cut_off(g, room, set(walls), [n for w in walls for n in nbrs[w]]):
            clues = [i for i in piece if puzzle.clues[i] != NO_CLUE]
            if not clues and any(cands[i] == B_ISLAND for i in piece):
                return f"the island at {g.cell(piece[0])} would be shut off from every number"
            if len(clues) == 1 and puzzle.clues[clues[0]] > len(piece):
                return f"the {puzzle.clues[clues[0]]} at {g.cell(clues[0])} would have no room"
    return None


def _island_broken(puzzle: NurikabePuzzle, cands, starts: set[int]) -> str | None:
    """A decided island through `starts` with two numbers, too many cells, or walled in short."""
    g, nbrs = puzzle.graph, puzzle.graph.neighbours
    seen: set[int] = set()
    for s in sorted(starts):
        if s in seen:
            continue
        part, stack, free = [s], [s], False
        seen.add(s)
        while stack:
            i = stack.pop()
            for n in nbrs[i]:
                if cands[n] == B_ISLAND and n not in seen:
                    seen.add(n)
                    part.append(n)
                    stack.append(n)
                elif cands[n] == FREE:
                    free = True
        clues = [i for i in part if puzzle.clues[i] != NO_CLUE]
        n = puzzle.clues[clues[0]] if len(clues) == 1 else None
        if len(clues) > 1:
            return f"the island at {g.cell(s)} would hold two numbers"
        if n is not None and n > 0 and len(part) > n:
            return f"the {n} at {g.cell(clues[0])} would grow to {len(part)} cells"
        if not free and (not clues or (n is not None and 0 < n != len(part))):
            return f"the island at {g.cell(s)} would be walled in"
    return None


def _groups_to_fill(puzzle: NurikabePuzzle, state: State, focus) -> list[tuple[int, ...]]:
    """The groups near the focus, then those a look at the whole board takes: a filling's
    check reads whole islands, the count of walls and the walls' and islands' areas, so a
    change anywhere can break a filling of a group far from it."""
    near = [tuple(cells) for cells in groups(puzzle, state, focus, FILL_SIZES)]
    if focus is None:
        return near
    return near_then_the_rest(near, (tuple(cells) for cells in groups(puzzle, state, None, FILL_SIZES)))


def _checked_fillings(puzzle: NurikabePuzzle, state: State, cells: tuple[int, ...]
                      ) -> tuple[list, list] | None:
    """(the fillings that break no rule, those that do with the rule), in order; None as soon
    as those that break none give every cell both values: then no cell can be settled, and
    the fillings left need no check. Checked a filling and its opposite first, which most
    often settles that at once (the answer does not depend on the order)."""
    every = list(itertools.product((ISLAND, WALL), repeat=len(cells)))
    found: list[str | None] = [None] * len(every)
    seen: list[set[int]] = [set() for _ in cells]
    for j in in_pairs(len(every)):
        values = every[j]
        found[j] = bad = broken_near(puzzle, state, filled_with(state, cells, values), cells)
        if bad:
            continue
        for n, v in enumerate(values):
            seen[n].add(v)
        if all(len(s) == 2 for s in seen):
            return None
    return ([(values, "") for values, bad in zip(every, found) if not bad],
            [(values, bad) for values, bad in zip(every, found) if bad])


@heuristic(id="nurikabe.group-fillings", genre=GENRE)
def group_fillings(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for cells in _groups_to_fill(puzzle, state, focus):
        checked = _checked_fillings(puzzle, state, cells)
        if checked is None:
            continue
        live, broken = checked
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


@heuristic(id="nurikabe.group-trials", genre=GENRE)
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
