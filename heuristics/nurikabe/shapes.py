"""Every way to finish an island (level 4): shapes listed within a small neighbourhood,
each checked against the local rules, and what all of them share.
"""
from __future__ import annotations

import functools
from typing import Iterator

from grader.genres.nurikabe.model import (B_ISLAND, B_WALL, FREE, ISLAND, WALL, Islands,
                                          NurikabePuzzle, islands)
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.steps import Deduction
from grader.kernels import connectivity as cn

from heuristics.nurikabe.common import GENRE
from heuristics.nurikabe.reach import islands_near_then_the_rest

SHAPE_LIMIT = 150          # partial shapes enumerated before giving up on an island
SHAPE_NEED = 8             # islands that still need more cells are not enumerated
WALL_CHECKED = 40          # longer shape lists skip the (costly) wall connectivity check


def shapes(isl: Islands, k: int, limit: int = SHAPE_LIMIT) -> list[frozenset[int]] | None:
    """Every way island k can reach its size that breaks no rule (see _local_shapes and
    _walls_meet), or None when there are too many to list."""
    need = isl.need(k)
    if need is None or need <= 0 or need > SHAPE_NEED:
        return None
    puzzle = isl.puzzle
    # Shapes, their borders and 2x2s, and the islands _shape_ok looks at (within three steps
    # of a shape) with their neighbours: a shape's cells lie within `need` steps of the island.
    region = sorted(puzzle.graph.around(isl.parts[k], need + 4))
    near = isl.numbers_near
    key = (isl.parts[k], need, tuple((isl.cands[i], near[i] != (k,) and bool(near[i]), isl.of[i] >= 0
                                      and not isl.clues[isl.of[i]] and len(isl.parts[isl.of[i]]))
                                     for i in region))
    cache = _shape_cache(puzzle)
    if key not in cache:
        if len(cache) > 20000:
            cache.clear()
        found = _from_wider(isl, k)
        if found is None:
            found = _local_shapes(isl, k, limit)
            if found is not None:
                wider = puzzle.once("_nurikabe_wider", dict).setdefault(isl.clues[k][0], [])
                wider.append((isl.cands, found))
                del wider[:-WIDER_KEPT]
        cache[key] = found
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
    return puzzle.once("_nurikabe_shapes", dict)


WIDER_KEPT = 6             # per island, the latest full lists kept for states that narrow them


def _from_wider(isl: Islands, k: int) -> list[frozenset[int]] | None:
    """The shapes of island k taken from a list made in a wider state (one whose candidates
    include every candidate here, such as the state a hypothesis started from): narrowing the
    candidates only ever rules shapes out, so checking each old shape again gives them all."""
    cands = isl.cands
    for wide, found in reversed(isl.puzzle.once("_nurikabe_wider", dict).get(isl.clues[k][0], ())):
        if wide is cands or all(c & ~w == 0 for c, w in zip(cands, wide)):
            return [s for s in found if _fits(isl, k, s)]
    return None


def _fits(isl: Islands, k: int, shape: frozenset[int]) -> bool:
    """`shape` is still one of the ways _local_shapes would list for island k."""
    cands, near = isl.cands, isl.numbers_near
    if not shape.issuperset(isl.parts[k]):
        return False
    for i in shape:
        if not cands[i] & B_ISLAND or (near[i] and near[i] != (k,)):
            return False
    return _shape_ok(isl, k, shape)


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

    def close(base: frozenset[int], new) -> frozenset[int] | None:
        """`base` with the cells `new` and every decided island group they touch (`base`
        holds every group it touches already, so only the new cells are flooded from)."""
        out = set(base)
        out.update(new)
        stack = list(new)
        while stack:
            i = stack.pop()
            for n in nbrs[i]:
                if n not in out and cands[n] == B_ISLAND:
                    if blocked(n):
                        return None
                    out.add(n)
                    stack.append(n)
        return frozenset(out) if len(out) <= target else None

    start = close(frozenset(), isl.parts[k])
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
            grown = close(s, (n,))
            if grown is not None and grown not in seen:
                seen.add(grown)
                if len(seen) > limit:
                    return None
                stack.append(grown)
    return done


def _shape_ok(isl: Islands, k: int, shape: frozenset[int]) -> bool:
    """Finishing island k as `shape` (its border walled) breaks no local rule: no 2x2 wall
    block, no other island walled in too small or without a number. Other islands count only
    when they and their liberties lie within three steps of the shape, so the answer depends
    on nothing further (the cache's key) and holds in every narrower state."""
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
    nearby = None
    for j in touched:
        need = isl.need(j)
        if (need is None and isl.numbered(j)) or need == 0:
            continue
        free = isl.liberties(j)
        if all(f in border for f in free):
            if nearby is None:
                nearby = g.around(shape, 3)
            if nearby.issuperset(isl.parts[j]) and nearby.issuperset(free):
                return False
    return True


def _walls_meet(isl: Islands, shape: frozenset[int], border: set[int]) -> bool:
    """The decided walls and the new border walls still lie in one area of possible walls
    once the shape's cells are island. They did before (checked first), so it is enough that
    the border cells, all walls now, still meet without the shape: a path between two walls
    that crossed the shape can go round it through them."""
    hosts = isl.walls.hosts
    if len(hosts) > 1:
        return False
    of = isl.walls.possible_parts.of
    parts = {of[b] for b in border} | set(hosts)
    if len(parts) > 1:
        return False
    if len(border) < 2:
        return True
    possible = isl.walls.possible
    joined = _joined_before(isl.puzzle).get(shape)
    if joined is not None and all(possible[i] for i in joined):
        return True         # the border cells still meet through the cells that joined them before
    reached: set[int] = set()
    if cn.splits_marked(isl.puzzle.graph, possible, shape, border, border, len(border), reached):
        return False
    _joined_before(isl.puzzle)[shape] = tuple(reached)
    return True


JOINED_KEPT = 4000         # shapes whose joining cells are kept per puzzle before starting afresh


def _joined_before(puzzle: NurikabePuzzle) -> dict[frozenset[int], tuple[int, ...]]:
    """For each shape whose border cells were last seen to meet: cells of possible walls,
    connected and holding the border, that joined them then (pieces_cut_off's `reached`).
    While all of them may still be walls the border still meets, in any state."""
    return puzzle.memo("_nurikabe_walls_joined", JOINED_KEPT)


def shapes_of(puzzle: NurikabePuzzle, state: State, k: int) -> list[frozenset[int]] | None:
    """shapes() of numbered island k, computed once per state."""
    return state.derived(("nurikabe.shapes", k), lambda: shapes(islands(puzzle, state), k))


def island_shapes(puzzle: NurikabePuzzle, state: State) -> dict[int, list[frozenset[int]]]:
    """The complete list of shapes for every numbered island that has few enough."""
    isl = islands(puzzle, state)

    def compute() -> dict[int, list[frozenset[int]]]:
        out = {}
        for k in isl.numbered_parts():
            found = shapes_of(puzzle, state, k)
            if found is not None:
                out[k] = found
        return out
    return state.derived("nurikabe.shapes", compute)


@heuristic(id="nurikabe.shape-intersection", genre=GENRE)
def shape_intersection(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    # whether a shape is possible reads the walls of the whole board (they must still meet):
    # the islands near the focus first, then every other
    for k in islands_near_then_the_rest(puzzle, state, focus):
        found = shapes_of(puzzle, state, k)
        put = shared_by(puzzle, state, found or [])
        if put:
            yield Deduction.build(state, put=put, premises=isl.parts[k],
                                  params={"island": isl.clue_name(k), "count": count_ways(len(found)),
                                          "result": say_shared(puzzle, put)})
            return


def border(puzzle: NurikabePuzzle, shape: frozenset[int]) -> frozenset[int]:
    """The cells around a finished island: all walls."""
    nbrs = puzzle.graph.neighbours
    return frozenset(n for i in shape for n in nbrs[i] if n not in shape)


def shared_by(puzzle: NurikabePuzzle, state: State, found: list[frozenset[int]]) -> dict[int, int]:
    """What every one of the shapes says about the undecided cells: island where they all
    put island, wall where they are all bordered."""
    if not found:
        return {}
    common = functools.reduce(frozenset.__and__, found)
    walls = functools.reduce(frozenset.__and__, (border(puzzle, s) for s in found))
    put = {i: ISLAND for i in common if state.cands[i] == FREE}
    put.update({i: WALL for i in walls if state.cands[i] == FREE})
    return put


def say_shared(puzzle: NurikabePuzzle, put: dict[int, int]) -> str:
    """"every way uses r1c2 and every way is bordered by r2c2, so it is a wall"."""
    g = puzzle.graph
    isles = sorted(i for i, v in put.items() if v == ISLAND)
    ws = sorted(i for i, v in put.items() if v == WALL)
    said = []
    if isles:
        said.append(f"every way uses {', '.join(map(str, g.cells(isles)))}")
    if ws:
        said.append(f"every way is bordered by {', '.join(map(str, g.cells(ws)))}, so "
                    f"{'it is a wall' if len(ws) == 1 else 'they are walls'}")
    return " and ".join(said)


def count_ways(n: int) -> str:
    return "is one way" if n == 1 else f"are {n} ways"


def assume_shape(puzzle: NurikabePuzzle, state: State, shape: frozenset[int]) -> State:
    """The state with the island finished as `shape` and walled in: a hypothesis, known as a
    narrowing of `state` so that facts kept for it update to this one (State.assume)."""
    return state.assume({**dict.fromkeys(shape, ISLAND), **dict.fromkeys(border(puzzle, shape), WALL)})


