"""The walls must form one area: cells cut off from every wall (level 3), a wall's bottleneck
(wall articulation points, level 4), and walls that can only meet by crossing an enclosure
that has room for few walls, or with the walls still to place (level 4).
"""
from __future__ import annotations

import collections
from typing import Iterator

from grader.genres.nurikabe.model import (B_WALL, FREE, ISLAND, NO_CLUE, UNKNOWN, WALL,
                                          NurikabePuzzle, islands)
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.steps import Deduction
from grader.kernels import connectivity as cn

from heuristics.common.focus import near_then_the_rest
from heuristics.nurikabe.common import GENRE, cells_of, clue_text, verdict


@heuristic(id="nurikabe.wall-cut-off", genre=GENRE)
def wall_cut_off(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    stranded = islands(puzzle, state).walls.stranded
    if stranded:
        yield Deduction.build(state, put={i: ISLAND for i in stranded},
                              params={"cells": cells_of(puzzle, stranded), "verdict": verdict(stranded, ISLAND)})


# --- level 4 ------------------------------------------------------------------------------

@heuristic(id="nurikabe.wall-articulation", genre=GENRE)
def wall_articulation(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    walls = islands(puzzle, state).walls
    for v, (a, b) in sorted(walls.cuts.items()):
        yield Deduction.build(state, put={v: WALL}, premises=[a, b], params={
            "cell": puzzle.cell(v), "a": puzzle.cell(a), "b": puzzle.cell(b)})


def enclosures_near_then_the_rest(puzzle: NurikabePuzzle, parts, focus: frozenset[int] | None) -> list:
    """The enclosures touching the focus first, then the rest: which wall groups can meet
    outside an enclosure (_crossing) changes with a wall anywhere."""
    if focus is None:
        return list(parts)
    near = puzzle.graph.around(focus, 1)
    return near_then_the_rest([part for part in parts if any(i in near for i in part)], parts)


@heuristic(id="nurikabe.one-wall-inside", genre=GENRE)
def one_wall_inside(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """An enclosure with one number n and n + 1 cells holds exactly one wall. Its neighbours
    inside are all island, so it must touch a wall-capable cell outside, and every group of
    walls that can only meet through the enclosure."""
    if puzzle.wall_total is not None and puzzle.wall_total < 2:
        return
    isl = islands(puzzle, state)
    for part in enclosures_near_then_the_rest(puzzle, isl.side.possible_parts.cells, focus):
        clues = [i for i in part if puzzle.clues[i] != NO_CLUE]
        if len(clues) != 1 or puzzle.clues[clues[0]] != len(part) - 1:
            continue
        inside = set(part)
        free = [i for i in part if state.cands[i] == FREE]
        lost = [i for i in free if not any(state.cands[n] & B_WALL and n not in inside
                                           for n in puzzle.graph.neighbours[i])]
        whom = "any wall outside"
        if not lost and len(free) > 1:
            found = _crossing(puzzle, state, free, 1)
            if found:
                lost = found[0]
                whom = f"both the walls at {puzzle.cell(found[1])} and at {puzzle.cell(found[2])}"
        if lost and len(lost) < len(free):
            yield Deduction.build(state, put={i: ISLAND for i in lost}, cells=[puzzle.cell(clues[0])],
                                  region=part, params={
                                      "island": clue_text(puzzle, clues[0]), "size": len(part),
                                      "cells": cells_of(puzzle, lost), "whom": whom,
                                      "verdict": verdict(lost, ISLAND)})
            return


@heuristic(id="nurikabe.enclosure-crossing", genre=GENRE)
def enclosure_crossing(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """An enclosure (an area of cells that may be island, walled in) with one number n holds
    exactly n island cells; the rest of it are walls. Wall groups that cannot meet outside it
    must meet through it. A wall at x joined to groups A and B needs a tree through x, A and B,
    with at least (dA(x) + dB(x) + dAB - 1) / 2 cells of the enclosure (distances counted in its
    cells); when that is more than the walls it holds, x is island."""
    isl = islands(puzzle, state)
    for part in enclosures_near_then_the_rest(puzzle, isl.side.possible_parts.cells, focus):
        clues = [i for i in part if puzzle.clues[i] != NO_CLUE]
        if len(clues) != 1 or puzzle.clues[clues[0]] == UNKNOWN:
            continue
        free = [i for i in part if state.cands[i] == FREE]
        walls = len(part) - puzzle.clues[clues[0]]
        if not free or walls <= 0 or walls >= len(free):
            continue
        found = _crossing(puzzle, state, free, walls)
        if found:
            islands_, a, b = found
            yield Deduction.build(state, put={i: ISLAND for i in islands_}, cells=[puzzle.cell(clues[0])],
                                  premises=[a, b], region=part, params={
                                      "island": clue_text(puzzle, clues[0]), "size": len(part),
                                      "n": puzzle.clues[clues[0]], "walls": walls,
                                      "a": puzzle.cell(a), "b": puzzle.cell(b),
                                      "cells": cells_of(puzzle, islands_), "verdict": verdict(islands_, ISLAND)})
            return


def _crossing(puzzle: NurikabePuzzle, state: State, free: list[int], walls: int
              ) -> tuple[list[int], int, int] | None:
    """(cells that cannot be walls, a wall of group A, a wall of group B) or None."""
    g, cands = puzzle.graph, state.cands
    inside = set(free)
    outside = cn.components(g, [bool(m & B_WALL) and i not in inside for i, m in enumerate(cands)])
    groups: dict[int, int] = {}
    for i, m in enumerate(cands):
        if m == B_WALL:
            groups.setdefault(outside.of[i], i)
    if len(groups) < 2:
        return None
    # Each outside component is one node, free to cross; each enclosure cell costs one wall.
    touching: dict[int, set[int]] = collections.defaultdict(set)
    for i in free:
        for n in g.neighbours[i]:
            if outside.of[n] >= 0:
                touching[outside.of[n]].add(i)
    dist = {k: _distances(g, inside, outside.of, touching, k) for k in groups if k in touching}
    if len(dist) < len(groups):
        return None         # a wall group that can reach nothing: a violation, not a deduction
    keys = sorted(dist)
    for x, k in enumerate(keys):
        for k2 in keys[x + 1:]:
            da, db = dist[k], dist[k2]
            span = db.get(("part", k), 1 << 20)
            lost = sorted(i for i in free if (da.get(i, 1 << 20) + db.get(i, 1 << 20) + span) // 2 > walls)
            if lost:
                return lost, groups[k], groups[k2]
    return None


def _distances(g: cn.GridGraph, inside: set[int], of: tuple[int, ...], touching: dict[int, set[int]],
               start: int) -> dict:
    """Fewest enclosure cells on a wall path from outside component `start` to each enclosure
    cell (counting the cell) and to each other component (key ("part", k)). 0-1 BFS."""
    dist: dict = {("part", start): 0}
    queue = collections.deque([(0, ("part", start))])
    while queue:
        d, node = queue.popleft()
        if dist.get(node, 1 << 20) < d:
            continue
        if isinstance(node, tuple):
            steps = [(i, d + 1) for i in touching.get(node[1], ())]
        else:
            steps = [(i, d + 1) for i in g.neighbours[node] if i in inside]
            steps += [(("part", of[n]), d) for n in g.neighbours[node] if of[n] >= 0]
        for nxt, nd in steps:
            if nd < dist.get(nxt, 1 << 20):
                dist[nxt] = nd
                if nd == d:
                    queue.appendleft((nd, nxt))
                else:
                    queue.append((nd, nxt))
    return dist


MAX_WALL_PARTS = 16     # more separate walls than this: the budget is far from tight
SPARE = 3               # bottlenecks are looked for only when this few walls are spare


@heuristic(id="nurikabe.wall-budget", genre=GENRE)
def wall_budget(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Every new wall on a path joining two wall groups counts against the walls left, so
    (1) a wall at x needs a tree through x and both groups, of at least
    (dA(x) + dB(x) + dAB - 1) / 2 new walls; more than are left makes x island, and (2) a cell
    every short enough path passes is a wall."""
    total = puzzle.wall_total
    if total is None:
        return
    g, cands = puzzle.graph, state.cands
    walls = islands(puzzle, state).walls
    parts = walls.decided_parts
    left = total - len(walls.decided_cells)
    if not 2 <= len(parts) <= MAX_WALL_PARTS or left <= 0:
        return
    inside = {i for i, m in enumerate(cands) if m == FREE}
    touching: dict[int, set[int]] = collections.defaultdict(set)
    for i in inside:
        for n in g.neighbours[i]:
            if parts.of[n] >= 0:
                touching[parts.of[n]].add(i)
    dist = [_distances(g, inside, parts.of, touching, k) for k in range(len(parts))]
    far = 1 << 20
    for a in range(len(parts)):
        for b in range(a + 1, len(parts)):
            da, db = dist[a], dist[b]
            span = da.get(("part", b), far)
            if span > left:
                return          # a contradiction, not a deduction
            lost = sorted(i for i in inside if (da.get(i, far) + db.get(i, far) + span) // 2 > left)
            if lost:
                put = {i: ISLAND for i in lost}
                reason = (f"a wall at {', '.join(map(str, cells_of(puzzle, lost)))} would need more, "
                          f"so {verdict(lost, ISLAND)}")
            elif left - span <= SPARE:
                must = _bottleneck(puzzle, state, parts, a, b, da, db, left)
                put = {i: WALL for i in must}
                reason = (f"every way that short passes {', '.join(map(str, cells_of(puzzle, must)))}, "
                          f"so {verdict(must, WALL)}")
            else:
                continue
            if put:
                yield Deduction.build(state, put=put, premises=parts.cells[a] + parts.cells[b], params={
                    "total": total, "left": left, "a": puzzle.cell(parts.cells[a][0]),
                    "b": puzzle.cell(parts.cells[b][0]), "span": span, "reason": reason})
                return


def _bottleneck(puzzle: NurikabePuzzle, state: State, parts: cn.Parts, a: int, b: int, da: dict, db: dict,
                left: int) -> list[int]:
    """Undecided cells that every path from wall group a to b with at most `left` new walls
    passes. Such a path stays within the cells x with dA(x) + dB(x) - 1 <= left (other wall
    groups cost nothing to pass), so the cut cells of that corridor are what it must use."""
    g, far = puzzle.graph, 1 << 20
    corridor = [da.get(i, far) + db.get(i, far) - 1 <= left for i in range(g.size)]
    for c, cells in enumerate(parts.cells):
        if da.get(("part", c), far) + db.get(("part", c), far) <= left:
            for i in cells:
                corridor[i] = True
    ends = [parts.of[i] in (a, b) for i in range(g.size)]
    cuts = cn.articulation_cuts(g, corridor, ends, parts.cells[a][0])
    return sorted(v for v in cuts if state.cands[v] == FREE)
