"""Nurikabe techniques, by level (spec/heuristics-catalogue.txt, NURIKABE).

Islands are the decided island groups of a state (grader.genres.nurikabe.Islands); how far an
island can still grow is its *reach*: the cells it could take in, within the cells it still
needs, never touching another numbered island. Walls use heuristics.common.connectivity.
"""
from __future__ import annotations

import functools
import heapq
from typing import Iterable, Iterator

from grader.genres.nurikabe import (B_ISLAND, B_WALL, FREE, ISLAND, NO_CLUE, UNKNOWN, WALL, Islands,
                                    NurikabePuzzle, islands)
from grader.heuristic import heuristic
from grader.model import State
from grader.probing import branch_deduction, register_probing
from grader.steps import Deduction
from heuristics.common import connectivity as cn

GENRE = "nurikabe"
SHAPE_LIMIT = 150          # partial shapes enumerated before giving up on an island
SHAPE_NEED = 8             # islands that still need more cells are not enumerated
BRANCH_STEPS = (12, 150)   # steps per branch of a hypothesis: a quick look, then a longer one
WALL_CHECKED = 40          # longer shape lists skip the (costly) wall connectivity check
FILL_LEVEL = 3             # hypotheses fill in with techniques up to this level


def near(puzzle: NurikabePuzzle, focus: frozenset[int] | None, radius: int = 1) -> Iterable[int]:
    if focus is None:
        return range(len(puzzle.clues))
    return sorted(puzzle.graph.around(focus, radius))


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


# --- reach: where an island can still grow -------------------------------------------------

def reach(isl: Islands, k: int, without: frozenset[int] = frozenset()) -> dict[int, int]:
    """Cells island k could take in, each with the fewest cells it must add to get there
    (Dijkstra: a free cell costs 1, an unnumbered island costs its size). A superset of
    every way the island can really grow, so conclusions drawn from it are sound."""
    puzzle, cands = isl.puzzle, isl.cands
    need = isl.need(k)
    near = isl.numbers_near
    nbrs = puzzle.graph.neighbours
    dist = {i: 0 for i in isl.parts[k]}
    heap = [(0, i) for i in isl.parts[k]]
    while heap:
        d, i = heapq.heappop(heap)
        if d > dist.get(i, 1 << 30):
            continue
        for n in nbrs[i]:
            if n in dist or n in without or not cands[n] & B_ISLAND or (near[n] and near[n] != (k,)):
                continue
            if cands[n] == B_ISLAND:                    # an unnumbered island joins whole
                group = isl.parts[isl.of[n]]
                cost = d + len(group)
                if need is not None and cost > need:
                    continue
                for j in group:
                    dist[j] = cost
                    heapq.heappush(heap, (cost, j))
            else:
                cost = d + 1
                if need is not None and cost > need:
                    continue
                dist[n] = cost
                heapq.heappush(heap, (cost, n))
    return dist


def reaches(puzzle: NurikabePuzzle, state: State) -> dict[int, dict[int, int]]:
    """Reach of every numbered island of a state, computed once."""
    isl = islands(puzzle, state)
    return state.derived("nurikabe.reach", lambda: {k: reach(isl, k) for k in isl.numbered_parts()})


# --- level 1 ------------------------------------------------------------------------------

@heuristic(id="nurikabe.one", name="Walls around a 1", genre=GENRE, level=1, order=1,
           template="The 1 at {clue} is a whole island by itself, so {cells} around it are walls.",
           nudge="What surrounds the 1 at {clue}?",
           catalogue="surround cells containing 1 with walls")
def one(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    if focus is not None:
        return      # clues never change: found at the start or never
    for i in puzzle.clue_cells:
        if puzzle.clues[i] == 1:
            free = [n for n in puzzle.graph.neighbours[i] if state.cands[n] == FREE]
            if free:
                yield Deduction.build(state, put={n: WALL for n in free}, cells=[puzzle.cell(i)],
                                      params={"clue": puzzle.cell(i), "cells": cells_of(puzzle, free)})


@heuristic(id="nurikabe.pool-corner", name="The fourth corner of a pool", genre=GENRE, level=1,
           order=2,
           template="{walls} are walls; if {cell} were a wall too they would fill a 2x2 block, "
                    "so {cell} is island.",
           nudge="Look at the 2x2 block around {cell}.",
           catalogue="for 2x2 blocks containing 3 walls, set the 4th to be island")
def pool_corner(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    g = puzzle.graph
    blocks = None if focus is None else cn.blocks_near(g, focus)
    for block, rest in cn.pool_blocks(g, state.cands, B_WALL, blocks):
        if len(rest) == 1:
            walls = [i for i in block if i != rest[0]]
            yield Deduction.build(state, put={rest[0]: ISLAND}, premises=walls,
                                  params={"cell": g.cell(rest[0]), "walls": g.cells(walls)})


@heuristic(id="nurikabe.between-numbers", name="Between two numbers", genre=GENRE, level=1,
           order=3,
           template="{cell} touches both {first} and {second}; as island it would join two "
                    "numbers, so it is a wall.",
           nudge="Which numbers does {cell} touch?",
           catalogue="if a cell is adjacent to two numbers, it must be wall")
def between_numbers(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    if focus is not None:
        return
    for i, m in enumerate(state.cands):
        if m != FREE:
            continue
        clues = [n for n in puzzle.graph.neighbours[i] if puzzle.clues[n] != NO_CLUE]
        if len(clues) >= 2:
            yield Deduction.build(state, put={i: WALL}, cells=cells_of(puzzle, clues[:2]), params={
                "cell": puzzle.cell(i), "first": _clue_text(puzzle, clues[0]),
                "second": _clue_text(puzzle, clues[1])})


def _clue_text(puzzle: NurikabePuzzle, i: int) -> str:
    n = puzzle.clues[i]
    return f"the {'?' if n == UNKNOWN else n} at {puzzle.cell(i)}"


@heuristic(id="nurikabe.walled-in", name="A cell walled in", genre=GENRE, level=1, order=4,
           template="{cell} is surrounded by walls; as island it could never reach a number, so "
                    "it is a wall.",
           nudge="Look at the neighbours of {cell}.",
           catalogue="if an unfilled cell is surrounded by wall, it must be wall")
def walled_in(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    cands, nbrs = state.cands, puzzle.graph.neighbours
    for i in near(puzzle, focus):
        if cands[i] == FREE and all(cands[n] == B_WALL for n in nbrs[i]):
            yield Deduction.build(state, put={i: WALL}, premises=nbrs[i],
                                  params={"cell": puzzle.cell(i)})


@heuristic(id="nurikabe.island-complete", name="A complete island", genre=GENRE, level=1, order=5,
           template="All {n} cells of {island} are in place, so {cells} around it are walls.",
           nudge="Count the cells of {island}.",
           catalogue="if there is an island of the same size as its number, all unfilled "
                     "neighbouring cells must be wall")
def island_complete(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    for k in parts_near(isl, focus):
        if isl.need(k) == 0:
            free = isl.liberties(k)
            if free:
                yield Deduction.build(state, put={f: WALL for f in free}, premises=isl.parts[k],
                                      params={"island": isl.clue_name(k), "n": isl.number(k),
                                              "cells": cells_of(puzzle, free)})


@heuristic(id="nurikabe.surrounded-by-island", name="A cell inside an island", genre=GENRE, level=1,
           order=6,
           template="{cell} is surrounded by island cells; a wall there could never join the "
                    "other walls, so it is island.",
           nudge="Could {cell} be a wall that joins the others?",
           catalogue="* if an unfilled cell is surrounded by island, it must be island (apply "
                     "only if there are blocked elsewhere)")
def surrounded_by_island(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    cands, nbrs = state.cands, puzzle.graph.neighbours
    if not any(m == B_WALL for m in cands) and (puzzle.wall_total or 0) < 2:
        return
    for i in near(puzzle, focus):
        if cands[i] == FREE and all(cands[n] == B_ISLAND for n in nbrs[i]):
            if any(m == B_WALL for m in cands) or (puzzle.wall_total or 0) > 1:
                yield Deduction.build(state, put={i: ISLAND}, premises=nbrs[i],
                                      params={"cell": puzzle.cell(i)})


# --- level 2 ------------------------------------------------------------------------------

@heuristic(id="nurikabe.two-islands", name="Between two islands", genre=GENRE, level=2, order=1,
           template="{cell} touches {first} and {second}; as island it would join them, so it is "
                    "a wall.",
           nudge="Which islands does {cell} touch?",
           catalogue="if a cell is adjacent to two different islands (they both contain a number), "
                     "it must be wall")
def two_islands(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    cells = sorted({i for k in parts_near(isl, focus) for i in isl.liberties(k)})
    for i in cells:
        numbered = [k for k in isl.side.touching(i) if isl.numbered(k)]
        if len(numbered) >= 2:
            yield Deduction.build(state, put={i: WALL}, premises=isl.parts[numbered[0]] + isl.parts[numbered[1]],
                                  params={"cell": puzzle.cell(i), "first": isl.clue_name(numbered[0]),
                                          "second": isl.clue_name(numbered[1])})


@heuristic(id="nurikabe.wall-exit", name="A wall's only way out", genre=GENRE, level=2, order=2,
           template="The walls at {wall} must join the other walls, and {cell} is their only way "
                    "out, so {cell} is a wall.",
           nudge="How can the walls at {wall} reach the others?",
           catalogue="if a wall region can only grow to one cell and not all walls have been "
                     "placed, the one cell must be wall")
def wall_exit(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    walls = islands(puzzle, state).walls
    parts = walls.decided_parts
    total = puzzle.wall_total
    for k, part in enumerate(parts.cells):
        if len(parts) < 2 and (total is None or total <= len(part)):
            continue
        if focus is not None and not any(n in focus or i in focus for i in part
                                         for n in puzzle.graph.neighbours[i]):
            continue
        out = walls.liberties(k)
        if len(out) == 1:
            yield Deduction.build(state, put={out[0]: WALL}, premises=part,
                                  params={"wall": puzzle.cell(part[0]), "cell": puzzle.cell(out[0])})


@heuristic(id="nurikabe.island-exit", name="An island's only way out", genre=GENRE, level=2, order=3,
           template="With {need} still to find, {island} can only grow through {cell}, so {cell} "
                    "is island.",
           nudge="How can {island} grow?",
           catalogue="if an island can only grow to one cell (and it's not done), then the cell "
                     "must be island")
def island_exit(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    for k in parts_near(isl, focus):
        if len(isl.clues[k]) > 1:
            continue
        need = isl.need(k)
        if isl.numbered(k) and (need is None or need <= 0):
            continue
        free = isl.liberties(k)
        if len(free) == 1:
            what = (f"{need} more cell{'s' if need != 1 else ''}" if need is not None
                    else "a number")
            yield Deduction.build(state, put={free[0]: ISLAND}, premises=isl.parts[k], params={
                "island": isl.clue_name(k), "need": what, "cell": puzzle.cell(free[0])})


@heuristic(id="nurikabe.enclosure", name="An enclosure of the right size", genre=GENRE, level=2,
           order=4,
           template="Walls enclose {size} cells around {island}, exactly its size, so {cells} are "
                    "island.",
           nudge="Count the cells walled in with {island}.",
           catalogue="if there is an enclosure containing a number and the enclosure is of the "
                     "same size, all enclosed cells must be island")
def enclosure(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    room = isl.side.possible_parts
    for part in room.cells:
        clues = [i for i in part if puzzle.clues[i] != NO_CLUE]
        if len(clues) != 1 or puzzle.clues[clues[0]] != len(part):
            continue
        free = [i for i in part if state.cands[i] == FREE]
        if free:
            yield Deduction.build(state, put={i: ISLAND for i in free}, cells=[puzzle.cell(clues[0])],
                                  params={"size": len(part), "island": _clue_text(puzzle, clues[0]),
                                          "cells": cells_of(puzzle, free)})


# --- level 3 ------------------------------------------------------------------------------

@heuristic(id="nurikabe.one-short", name="One cell short", genre=GENRE, level=3, order=1,
           template="Only one cell is missing from {island}, and it must be one of {options}; {cell} "
                    "touches all of them, so it will border the finished island and is a wall.",
           nudge="{island} needs one more cell: where can it go?",
           catalogue="if an island is one less than its size and one cell is adjacent to all "
                     "cells the island can grow to, that one cell must be wall")
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


@heuristic(id="nurikabe.unreachable", name="No island can reach it", genre=GENRE, level=3, order=2,
           template="No island can reach {cells} with the cells it has left, so {verdict}.",
           nudge="Which island could reach {cells}?",
           catalogue="if a cell on the board cannot be reached by any island, it must be wall")
def unreachable(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    covered: set[int] = set()
    for dist in reaches(puzzle, state).values():
        covered.update(dist)
    lost = [i for i, m in enumerate(state.cands) if m == FREE and i not in covered]
    if lost:
        yield Deduction.build(state, put={i: WALL for i in lost},
                              params={"cells": cells_of(puzzle, lost), "verdict": verdict(lost, WALL)})


@heuristic(id="nurikabe.island-articulation", name="An island's bottleneck", genre=GENRE, level=3,
           order=3,
           template="Without {cell}, {island} could reach only {left} of the {need} cells it still "
                    "needs; it must pass through {cell}, which is island.",
           nudge="Where must {island} pass to grow?",
           catalogue="if there is a cell where an island must pass in order to grow enough, it "
                     "must be island (\"island articulation point\")")
def island_articulation(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    for k, dist in reaches(puzzle, state).items():
        need = isl.need(k)
        if not need:
            continue
        own = len(isl.parts[k])
        for v, joined in sorted(cn.cut_sizes(puzzle.graph, _Members(dist), isl.parts[k][0]).items()):
            left = joined - own
            if state.cands[v] == FREE and left < need:
                yield Deduction.build(state, put={v: ISLAND}, premises=isl.parts[k], region=sorted(dist),
                                      params={"island": isl.clue_name(k), "need": need,
                                              "cell": puzzle.cell(v), "left": left})
                return


class _Members:
    """A set seen as a sequence of booleans (for the connectivity helpers)."""

    def __init__(self, cells):
        self.cells = cells

    def __getitem__(self, i: int) -> bool:
        return i in self.cells


@heuristic(id="nurikabe.exact-growth", name="Room for exactly the island", genre=GENRE, level=3,
           order=4,
           template="The only cells within reach of {island} are {cells}, exactly the {need} it still "
                    "needs, so they are all island.",
           nudge="How far can {island} grow?",
           catalogue="if there is an island which, when grown maximally, reaches exactly its "
                     "size, then let it do so")
def exact_growth(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    for k, dist in reaches(puzzle, state).items():
        need = isl.need(k)
        if not need:
            continue
        extra = [i for i in dist if i not in isl.parts[k]]
        if len(extra) == need:
            free = sorted(i for i in extra if state.cands[i] == FREE)
            if free:
                yield Deduction.build(state, put={i: ISLAND for i in free}, premises=isl.parts[k],
                                      params={"island": isl.clue_name(k), "need": need,
                                              "cells": cells_of(puzzle, free)})


@heuristic(id="nurikabe.wall-cut-off", name="A wall that could not join the others", genre=GENRE,
           level=3, order=5,
           template="Islands shut {cells} off from every wall, and the walls must all connect, so "
                    "{verdict}.",
           nudge="Could a wall at {cells} ever join the other walls?",
           catalogue="")
def wall_cut_off(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    stranded = islands(puzzle, state).walls.stranded
    if stranded:
        yield Deduction.build(state, put={i: ISLAND for i in stranded},
                              params={"cells": cells_of(puzzle, stranded), "verdict": verdict(stranded, ISLAND)})


# --- level 4 ------------------------------------------------------------------------------

@heuristic(id="nurikabe.wall-articulation", name="A wall's bottleneck", genre=GENRE, level=4,
           order=1,
           template="The walls at {a} and {b} can only meet through {cell}, so {cell} is a wall.",
           nudge="How do the walls at {a} and {b} connect?",
           catalogue="if there is a cell where a wall must pass in order to connect all walls, it "
                     "must be wall (\"wall articulation point\")")
def wall_articulation(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    walls = islands(puzzle, state).walls
    for v, (a, b) in sorted(walls.cuts.items()):
        yield Deduction.build(state, put={v: WALL}, premises=[a, b], params={
            "cell": puzzle.cell(v), "a": puzzle.cell(a), "b": puzzle.cell(b)})


@heuristic(id="nurikabe.growth-starves", name="Growing here would starve a neighbour", genre=GENRE,
           level=4, order=2,
           template="If {cell} joined {island}, {other} could reach only {left} of the {need} cells "
                    "it still needs, so {cell} is a wall.",
           nudge="What would {cell} joining {island} do to {other}?",
           catalogue="if an island can grow into a cell and cause another island to not be able "
                     "to grow sufficiently, that cell must be wall")
def growth_starves(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    all_reach = reaches(puzzle, state)
    nbrs = puzzle.graph.neighbours
    for a in all_reach:
        if not isl.need(a):
            continue
        for x in isl.liberties(a):
            block = {x, *nbrs[x]}
            for b, dist in all_reach.items():
                need = isl.need(b)
                if b == a or not need or not block & dist.keys():
                    continue
                if len(dist) - len(isl.parts[b]) - need > 8:
                    continue    # plenty of room: only tight islands are worth the search
                without = frozenset(block - set(isl.parts[b]))
                left = len(reach(isl, b, without)) - len(isl.parts[b])
                if left < need:
                    yield Deduction.build(state, put={x: WALL}, premises=isl.parts[b], params={
                        "cell": puzzle.cell(x), "island": isl.clue_name(a), "other": isl.clue_name(b),
                        "left": left, "need": need})
                    return


@heuristic(id="nurikabe.wall-starves", name="A wall here would starve an island", genre=GENRE,
           level=4, order=3,
           template="A wall at {cell} would leave {island} only {left} of the {need} cells it "
                    "still needs within reach, so {cell} is island.",
           nudge="What would a wall at {cell} do to {island}?",
           catalogue="if there is a cell where a wall on it would cause another island to not be "
                     "able to grow sufficiently, that cell must be island")
def wall_starves(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    for k, dist in reaches(puzzle, state).items():
        need = isl.need(k)
        if not need or len(dist) - len(isl.parts[k]) > 3 * need + 12:
            continue
        for v in sorted(dist):
            if state.cands[v] != FREE:
                continue
            left = len(reach(isl, k, frozenset((v,)))) - len(isl.parts[k])
            if left < need:
                yield Deduction.build(state, put={v: ISLAND}, premises=isl.parts[k], params={
                    "cell": puzzle.cell(v), "island": isl.clue_name(k), "left": left, "need": need})
                return


@heuristic(id="nurikabe.unnumbered-match", name="Which number an island belongs to", genre=GENRE,
           level=4, order=4,
           template="Only {first_ids} can reach {first}, and only {second_ids} can reach {second}; "
                    "{cell} would join them, so it is a wall.",
           nudge="Which numbers can reach the islands beside {cell}?",
           catalogue="match unnumbered islands: if an unfilled cell borders two islands with an "
                     "empty intersection of island ids, the cell must be wall")
def unnumbered_match(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    owned = owners(puzzle, state)
    for i, m in enumerate(state.cands):
        if m != FREE:
            continue
        touching = isl.side.touching(i)
        if len(touching) < 2 or all(isl.numbered(k) for k in touching):
            continue
        for x in touching:
            for y in touching:
                if x < y and not owned.get(x, set()) & owned.get(y, set()):
                    def name(k: int) -> str:
                        return f"the island at {puzzle.cell(isl.parts[k][0])}"

                    def ids(k: int) -> str:
                        got = sorted(owned.get(k, ()))
                        return " or ".join(isl.clue_name(j) for j in got) or "no number"
                    yield Deduction.build(state, put={i: WALL}, premises=isl.parts[x] + isl.parts[y],
                                          params={"cell": puzzle.cell(i), "first": name(x),
                                                  "second": name(y), "first_ids": ids(x),
                                                  "second_ids": ids(y)})
                    return


def owners(puzzle: NurikabePuzzle, state: State) -> dict[int, set[int]]:
    """For each island part, the numbered islands that could take it in (a numbered part
    owns itself)."""
    isl = islands(puzzle, state)

    def compute() -> dict[int, set[int]]:
        out: dict[int, set[int]] = {k: {k} for k in isl.numbered_parts()}
        for a, dist in reaches(puzzle, state).items():
            for i in dist:
                j = isl.of[i]
                if j >= 0 and not isl.clues[j]:
                    out.setdefault(j, set()).add(a)
        return out
    return state.derived("nurikabe.owners", compute)


@heuristic(id="nurikabe.owned-island", name="An island only one number can reach", genre=GENRE,
           level=4, order=5,
           template="Only {owner} can reach the island at {island}, so they will be one island; "
                    "within its reach they can only meet through {cell}, which is island.",
           nudge="Which number can reach the island at {island}?",
           catalogue="* if there is an unnumbered blank which can only be legally connected to "
                     "one numbered tile: set the island id for this blank, and run the other "
                     "island growth heuristic")
def owned_island(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    all_reach = reaches(puzzle, state)
    for u, who in sorted(owners(puzzle, state).items()):
        if isl.clues[u] or len(who) != 1:
            continue
        a = next(iter(who))
        dist = all_reach[a]
        joined = set(isl.parts[a]) | set(isl.parts[u])
        cuts = cn.articulation_cuts(puzzle.graph, _Members(dist), _Members(joined), isl.parts[a][0])
        free = sorted(v for v in cuts if state.cands[v] == FREE)
        if free:
            yield Deduction.build(state, put={free[0]: ISLAND}, premises=isl.parts[a] + isl.parts[u],
                                  region=sorted(dist), params={
                                      "owner": isl.clue_name(a), "island": puzzle.cell(isl.parts[u][0]),
                                      "cell": puzzle.cell(free[0])})
            return


def shapes(isl: Islands, k: int, limit: int = SHAPE_LIMIT) -> list[frozenset[int]] | None:
    """Every way island k can reach its size that breaks no rule (see _local_shapes and
    _walls_meet), or None when there are too many to list."""
    need = isl.need(k)
    if need is None or need <= 0 or need > SHAPE_NEED:
        return None
    puzzle = isl.puzzle
    region = sorted(puzzle.graph.around(isl.parts[k], need + 3))   # shapes, borders, their 2x2s
    near = isl.numbers_near
    key = (isl.parts[k], need, tuple((isl.cands[i], near[i] != (k,) and bool(near[i]), isl.of[i] >= 0
                                      and not isl.clues[isl.of[i]] and len(isl.parts[isl.of[i]]))
                                     for i in region))
    cache = _shape_cache(puzzle)
    if key not in cache:
        if len(cache) > 20000:
            cache.clear()
        cache[key] = _local_shapes(isl, k, limit)
    found = cache[key]
    if found is None:
        return None
    if len(found) > WALL_CHECKED:
        return found          # a superset of the valid shapes: still sound, only weaker
    out = []
    for s in found:
        border = {n for i in s for n in puzzle.graph.neighbours[i] if n not in s}
        if _walls_meet(isl, s, border):
            out.append(s)
    return out


def _shape_cache(puzzle: NurikabePuzzle) -> dict:
    """Shapes found before, by island and the state of its neighbourhood (kept per puzzle)."""
    return puzzle.__dict__.setdefault("_nurikabe_shapes", {})


def _local_shapes(isl: Islands, k: int, limit: int = SHAPE_LIMIT) -> list[frozenset[int]] | None:
    """Every way island k can reach its size (each a set of cells, unnumbered islands it
    touches taken in whole), or None when there are more than `limit` or the size is unknown.
    A shape is kept only if walling its border breaks no local rule (_shape_ok)."""
    need = isl.need(k)
    if need is None or need <= 0 or need > SHAPE_NEED:
        return None
    puzzle, cands = isl.puzzle, isl.cands
    nbrs = puzzle.graph.neighbours
    near = isl.numbers_near

    def blocked(i: int) -> bool:
        return bool(near[i]) and near[i] != (k,)
    target = len(isl.parts[k]) + need

    def close(cells: frozenset[int]) -> frozenset[int] | None:
        """Add every decided island group the cells touch."""
        out = set(cells)
        stack = list(cells)
        while stack:
            i = stack.pop()
            for n in nbrs[i]:
                if n not in out and cands[n] == B_ISLAND:
                    if blocked(n):
                        return None
                    out.add(n)
                    stack.append(n)
        return frozenset(out) if len(out) <= target else None

    start = close(frozenset(isl.parts[k]))
    if start is None:
        return []
    seen = {start}
    stack = [start]
    done: list[frozenset[int]] = []
    while stack:
        s = stack.pop()
        if len(s) == target:
            if _shape_ok(isl, k, s):
                done.append(s)
            continue
        frontier = {n for i in s for n in nbrs[i]
                    if n not in s and cands[n] == FREE and not blocked(n)}
        for n in frontier:
            grown = close(s | {n})
            if grown is not None and grown not in seen:
                seen.add(grown)
                if len(seen) > limit:
                    return None
                stack.append(grown)
    return done


def _shape_ok(isl: Islands, k: int, shape: frozenset[int]) -> bool:
    """Finishing island k as `shape` (its border walled) breaks no local rule: no 2x2 wall
    block, no other island walled in too small or without a number."""
    puzzle, cands = isl.puzzle, isl.cands
    g = puzzle.graph
    nbrs = g.neighbours
    border = {n for i in shape for n in nbrs[i] if n not in shape}
    blocks, blocks_of = g.blocks, g.blocks_of
    for b in border:
        if cands[b] == B_ISLAND:
            return False
        for q in blocks_of[b]:
            for i in blocks[q]:
                if i in shape or (cands[i] != B_WALL and i not in border):
                    break
            else:
                return False
    touched = {isl.of[n] for b in border for n in nbrs[b] if isl.of[n] >= 0 and n not in shape}
    for j in touched:
        need = isl.need(j)
        if (need is None and isl.numbered(j)) or need == 0:
            continue
        if all(f in border for f in isl.liberties(j)):
            return False
    return True


def _walls_meet(isl: Islands, shape: frozenset[int], border: set[int]) -> bool:
    """The decided walls and the new border walls still lie in one area of possible walls
    once the shape's cells are island. A quick look near the shape settles most cases: if
    the possible walls around the shape still meet close by, nothing was cut."""
    cands, g = isl.cands, isl.puzzle.graph
    nbrs = g.neighbours
    walls = set(isl.walls.decided_cells) | border
    if len(walls) < 2:
        return True
    edge = {n for i in shape for n in nbrs[i] if n not in shape and cands[n] & B_WALL}
    if not edge:
        return _all_walls_joined(isl, walls)
    rows = [i // g.cols for i in shape]
    cols = [i % g.cols for i in shape]
    r0, r1, c0, c1 = min(rows) - 2, max(rows) + 2, min(cols) - 2, max(cols) + 2

    def near(i: int) -> bool:
        r, c = divmod(i, g.cols)
        return r0 <= r <= r1 and c0 <= c <= c1

    if _connected(nbrs, cands, shape, edge, edge, near):
        return _all_walls_joined(isl, walls)
    return _connected(nbrs, cands, shape, walls, walls, None)


def _all_walls_joined(isl: Islands, walls: set[int]) -> bool:
    """Before the shape, every wall and border cell already shared one area of possible walls."""
    of = isl.walls.possible_parts.of
    return len({of[w] for w in walls}) == 1


def _connected(nbrs, cands, shape, starts: set[int], targets: set[int], window) -> bool:
    """Whether every target is reachable from one start through possible walls outside the
    shape (and inside the window, if given)."""
    start = next(iter(starts))
    seen, stack, found = {start}, [start], 1 if start in targets else 0
    while stack and found < len(targets):
        i = stack.pop()
        for n in nbrs[i]:
            if n not in seen and n not in shape and cands[n] & B_WALL and (window is None or window(n)):
                seen.add(n)
                stack.append(n)
                if n in targets:
                    found += 1
    return found >= len(targets)


def island_shapes(puzzle: NurikabePuzzle, state: State) -> dict[int, list[frozenset[int]]]:
    """The complete list of shapes for every numbered island that has few enough."""
    isl = islands(puzzle, state)

    def compute() -> dict[int, list[frozenset[int]]]:
        out = {}
        for k in isl.numbered_parts():
            found = shapes(isl, k)
            if found is not None:
                out[k] = found
        return out
    return state.derived("nurikabe.shapes", compute)


@heuristic(id="nurikabe.shape-intersection", name="Every way to finish an island", genre=GENRE,
           level=4, order=6,
           template="There {count} to finish {island}; {result}.",
           nudge="List the ways to finish {island}.",
           catalogue="* take intersection of all ways to put an island (including surrounding "
                     "walls)")
def shape_intersection(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    g = puzzle.graph
    for k, found in sorted(island_shapes(puzzle, state).items()):
        if not found:
            continue
        common = functools.reduce(frozenset.__and__, found)
        borders = [frozenset(n for i in s for n in g.neighbours[i] if n not in s) for s in found]
        walls = functools.reduce(frozenset.__and__, borders)
        put = {i: ISLAND for i in common if state.cands[i] == FREE}
        put.update({i: WALL for i in walls if state.cands[i] == FREE})
        if not put:
            continue
        isles = sorted(i for i, v in put.items() if v == ISLAND)
        ws = sorted(i for i, v in put.items() if v == WALL)
        said = []
        if isles:
            said.append(f"every way uses {', '.join(map(str, g.cells(isles)))}")
        if ws:
            said.append(f"every way is bordered by {', '.join(map(str, g.cells(ws)))}, so "
                        f"{'it is a wall' if len(ws) == 1 else 'they are walls'}")
        count = "is one way" if len(found) == 1 else f"are {len(found)} ways"
        yield Deduction.build(state, put=put, premises=isl.parts[k],
                              params={"island": isl.clue_name(k), "count": count,
                                      "result": " and ".join(said)})
        return


# --- level 5 ------------------------------------------------------------------------------

@heuristic(id="nurikabe.island-growth", name="Try every way to grow an island", genre=GENRE,
           level=5, order=80,
           template="Trying each of the {cases} ways to finish {island}: {outcome}.",
           nudge="Try each way {island} can grow.",
           catalogue="for an island, try all ways to grow the island; for each way, assume it, "
                     "solve greedily and take the intersection of the legal results")
def island_growth(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    options = sorted((len(v), k) for k, v in island_shapes(puzzle, state).items() if 2 <= len(v) <= 12)
    for steps in BRANCH_STEPS:
        for _, k in options:
            d = _grow(puzzle, state, isl, k, steps)
            if d is not None:
                yield d
                return


def _grow(puzzle: NurikabePuzzle, state: State, isl: Islands, k: int, steps: int) -> Deduction | None:
    """Assume each complete shape of island k in turn (with its border walled)."""
    g = puzzle.graph
    assumptions = []
    for n, s in enumerate(island_shapes(puzzle, state)[k], 1):
        border = {b for i in s for b in g.neighbours[i] if b not in s}
        cands = list(state.cands)
        for i in s:
            cands[i] &= B_ISLAND
        for b in border:
            cands[b] &= B_WALL
        assumed = State(tuple(cands))
        assumptions.append((f"way {n}", assumed, state.diff(assumed)))
    d = branch_deduction(puzzle, state, assumptions, max_level=FILL_LEVEL, max_steps=steps)
    if d is not None:
        d.params.update({"island": isl.clue_name(k)})   # type: ignore[attr-defined]
    return d


@heuristic(id="nurikabe.pool-breaker", name="Which cell breaks the pool", genre=GENRE, level=5,
           order=85,
           template="One of {cells} must be island, or they would form a 2x2 block of walls; "
                    "trying each in turn, {outcome}.",
           nudge="The 2x2 block {cells} needs an island cell somewhere.",
           catalogue="* each 2x2 cell must contain at least one blank: for a 2x2 area containing "
                     "no blank and at most 2 blocked, assume in turn that each square is blank")
def pool_breaker(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    g = puzzle.graph
    pools = [(block, rest) for block, rest in cn.pool_blocks(g, state.cands, B_WALL) if len(rest) >= 2]
    for steps in BRANCH_STEPS:
        for block, rest in sorted(pools, key=lambda br: len(br[1])):
            assumptions = [(f"{g.cell(i)} is island", state.restrict(i, B_ISLAND), (i,)) for i in rest]
            d = branch_deduction(puzzle, state, assumptions, max_level=FILL_LEVEL, max_steps=steps)
            if d is not None:
                d.params.update({"cells": g.cells(block)})   # type: ignore[attr-defined]
                yield d
                return


trial_and_error = register_probing(
    GENRE, max_level=FILL_LEVEL, catalogue="for a cell: assume that it is blank, then fill in greedily; then assume "
                     "it's wall; keep what both agree on, or take the other way on a contradiction")
deep_trial = register_probing(
    GENRE, id="nurikabe.deep-trial", name="Trial and error with every technique", max_level=4,
    order=95, catalogue="")
