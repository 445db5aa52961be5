"""How far islands can grow (levels 3 and 4): unreachable cells, an island's bottleneck
(island articulation points), room for exactly the island, one cell short, and growth or
walls that would starve an island.
"""
from __future__ import annotations

import bisect
from typing import Callable, Iterator

from grader.genres.nurikabe.model import FREE, ISLAND, WALL, Islands, NurikabePuzzle, islands
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.steps import Deduction
from grader.kernels import connectivity as cn

from heuristics.nurikabe.common import GENRE, cells_of, members, parts_near, verdict
from heuristics.nurikabe.reach import islands_to_check, kept_with_reach, reach, reach_index, reaches


# --- level 3 ------------------------------------------------------------------------------

def growing(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[tuple[Islands, int, dict[int, int], int]]:
    """The islands near `focus` that still need cells: (the islands, the island, the cells
    within its reach, how many it still needs)."""
    isl = islands(puzzle, state)
    all_reach = reaches(puzzle, state)
    for k in islands_to_check(puzzle, state, focus):
        need = isl.need(k)
        if need:
            yield isl, k, all_reach[k], need


@heuristic(id="nurikabe.one-short", genre=GENRE)
def one_short(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    nbrs = puzzle.graph.neighbours
    for k in parts_near(isl, focus):
        if isl.need(k) != 1:
            continue
        options = isl.liberties(k)
        if len(options) < 2:
            continue
        common = set(nbrs[options[0]])
        for o in options[1:]:
            common &= set(nbrs[o])
        hits = sorted(x for x in common if state.cands[x] == FREE and x not in options)
        if hits:
            yield Deduction.build(state, put={x: WALL for x in hits}, premises=isl.parts[k],
                                  region=options, params={
                                      "island": isl.clue_name(k), "options": cells_of(puzzle, options),
                                      "cell": ", ".join(map(str, cells_of(puzzle, hits)))})


@heuristic(id="nurikabe.unreachable", genre=GENRE)
def unreachable(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    covered: set[int] = set()
    for dist in reaches(puzzle, state).values():
        covered.update(dist)
    lost = [i for i, m in enumerate(state.cands) if m == FREE and i not in covered]
    if lost:
        yield Deduction.build(state, put={i: WALL for i in lost},
                              params={"cells": cells_of(puzzle, lost), "verdict": verdict(lost, WALL)})


@heuristic(id="nurikabe.island-articulation", genre=GENRE)
def island_articulation(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for isl, k, dist, need in growing(puzzle, state, focus):
        own = len(isl.parts[k])
        for v, joined in cut_sizes_of_reach(puzzle, isl, k, dist):
            left = joined - own
            if state.cands[v] == FREE and left < need:
                yield Deduction.build(state, put={v: ISLAND}, premises=isl.parts[k], region=sorted(dist),
                                      params={"island": isl.clue_name(k), "need": need,
                                              "cell": puzzle.cell(v), "left": left})
                return



def cut_sizes_of_reach(puzzle: NurikabePuzzle, isl: Islands, k: int, dist: dict[int, int]) -> list[tuple[int, int]]:
    """cn.cut_sizes of island k's reach from the island, in cell order: it reads only the
    reach's cells and the island, so it is worked out once for each reach (the reaches of
    islands far from a change live on through many states and trial fills)."""
    return kept_with_reach(puzzle, "_nurikabe_reach_cuts", dist, lambda: sorted(cn.cut_sizes(
        puzzle.graph, members(len(isl.cands), dist), isl.parts[k][0]).items()))


@heuristic(id="nurikabe.exact-growth", genre=GENRE)
def exact_growth(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for isl, k, dist, need in growing(puzzle, state, focus):
        extra = [i for i in dist if i not in isl.parts[k]]
        if len(extra) == need:
            free = sorted(i for i in extra if state.cands[i] == FREE)
            if free:
                yield Deduction.build(state, put={i: ISLAND for i in free}, premises=isl.parts[k],
                                      params={"island": isl.clue_name(k), "need": need,
                                              "cells": cells_of(puzzle, free)})



@heuristic(id="nurikabe.growth-starves", genre=GENRE)
def growth_starves(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    all_reach = reaches(puzzle, state)
    nbrs = puzzle.graph.neighbours
    index = reach_index(puzzle, state)
    changed = set(islands_to_check(puzzle, state, focus))
    for a in all_reach:
        if not isl.need(a):
            continue
        for x in isl.liberties(a):
            block = {x, *nbrs[x]}
            near_x = sorted({b for i in block for b in index.get(i, ())})
            for b in near_x:
                need = isl.need(b)
                if b == a or not need or (a not in changed and b not in changed):
                    continue
                dist = all_reach[b]
                if len(dist) - len(isl.parts[b]) - need > 8:
                    continue    # plenty of room: only tight islands are worth the search
                without = frozenset(block - set(isl.parts[b]))
                left = len(reach(isl, b, without)) - len(isl.parts[b])
                if left < need:
                    yield Deduction.build(state, put={x: WALL}, premises=isl.parts[b], params={
                        "cell": puzzle.cell(x), "island": isl.clue_name(a), "other": isl.clue_name(b),
                        "left": left, "need": need})
                    return


@heuristic(id="nurikabe.wall-starves", genre=GENRE)
def wall_starves(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for isl, k, dist, need in growing(puzzle, state, focus):
        if len(dist) - len(isl.parts[k]) > 3 * need + 12:
            continue
        kept_without = cells_kept_without(dist, isl.parts[k])
        for v in sorted(dist):
            if state.cands[v] != FREE or kept_without(v) >= need:
                continue
            left = len(reach(isl, k, frozenset((v,)))) - len(isl.parts[k])
            if left < need:
                yield Deduction.build(state, put={v: ISLAND}, premises=isl.parts[k], params={
                    "cell": puzzle.cell(v), "island": isl.clue_name(k), "left": left, "need": need})
                return


def cells_kept_without(dist: dict[int, int], part) -> Callable[[int], int]:
    """For a cell v of an island's reach (`dist`, from reach()), how many cells outside the
    island its reach keeps for sure once v is a wall: those no further than v. A path
    through v is longer than v's distance (every cell entered costs at least 1), so none of
    their shortest paths uses v. A big island's reach is most of the board, and finding it
    again without each of its cells was most of a look (janko 0029, two islands of 36 and 37)."""
    own = set(part)
    distances = sorted(d for i, d in dist.items() if i not in own)
    return lambda v: bisect.bisect_right(distances, dist[v]) - 1
