"""A 2x2 block only one island can break: every 2x2 block needs an island cell, so a block
with none yet, whose open cells only one number can reach, must be reached by that number's
island. pool-owner (level 3): within its reach it then can only get there through its
bottlenecks on the way (island), and it cannot also take in a cell too far from both itself
and the block (a wall, when no other number can reach that cell either). pool-owner-ways
(level 4): of the ways to finish the island, only those that reach every such block are left.
"""
from __future__ import annotations

from typing import Iterator

from grader.genres.nurikabe.model import B_ISLAND, FREE, ISLAND, WALL, Islands, NurikabePuzzle, islands
from grader.core.explain import phrase_list
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.steps import Deduction
from grader.kernels import connectivity as cn

from heuristics.nurikabe.common import GENRE, cells_of, members, verdict
from heuristics.nurikabe.reach import (islands_to_check, open_blocks_of_reach, open_blocks_reached, reach, reach_index,
                                      reaches)
from heuristics.nurikabe.shapes import count_ways, island_shapes, say_shared, shared_by


def owned_blocks(puzzle: NurikabePuzzle, state: State, k: int) -> list[tuple[int, ...]]:
    """The 2x2 blocks without an island cell whose open cells only island k can reach."""
    owners = block_owners(puzzle, state)
    blocks = puzzle.graph.blocks
    return [blocks[q] for q in sorted(open_blocks_reached(puzzle, state, k)) if owners(q) == (k,)]


def block_owners(puzzle: NurikabePuzzle, state: State):
    """owners(q): the numbered islands that can reach an open cell of 2x2 block q, in order
    (empty when none can), or None when the block holds an island cell already."""
    cands = state.cands
    blocks = puzzle.graph.blocks
    reachers = state.derived("nurikabe.block-reachers", lambda: _block_reachers(puzzle, state))

    def owners(q: int) -> tuple[int, ...] | None:
        for j in blocks[q]:
            if cands[j] == B_ISLAND:
                return None
        return reachers.get(q, ())
    return owners


def _block_reachers(puzzle: NurikabePuzzle, state: State) -> dict[int, tuple[int, ...]]:
    """For each 2x2 block an island reaches an open cell of, those islands, in order: made
    from each reach's blocks (kept with the reach), not from the blocks' cells one by one."""
    found: dict[int, list[int]] = {}
    for k, dist in sorted(reaches(puzzle, state).items()):
        for q in open_blocks_of_reach(puzzle, state, dist):
            found.setdefault(q, []).append(k)
    return {q: tuple(ks) for q, ks in found.items()}


@heuristic(id="nurikabe.pool-owner", genre=GENRE)
def pool_owner(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    for k in islands_to_check(puzzle, state, focus):
        need = isl.need(k)
        if not need:
            continue
        once = _Once()
        for block in owned_blocks(puzzle, state, k):
            d = _through(puzzle, state, isl, k, block, once) or _too_far(puzzle, state, isl, k, block, once)
            if d is not None:
                yield d
                return


class _Once:
    """What pool-owner works out once for all the blocks of an island: its reach without a
    cell (by cell), and how far each cell of its reach lies from it."""

    def __init__(self):
        self.without: dict[int, dict[int, int]] = {}
        self.from_island: dict[int, int] | None = None


def _say(puzzle: NurikabePuzzle, isl: Islands, k: int, block: tuple[int, ...]) -> dict[str, object]:
    return {"block": f"{puzzle.cell(block[0])}-{puzzle.cell(block[3])}", "island": isl.clue_name(k)}


def _through(puzzle: NurikabePuzzle, state: State, isl: Islands, k: int,
             block: tuple[int, ...], once: _Once) -> Deduction | None:
    """An open cell without which island k could no longer reach the block: island."""
    dist = reaches(puzzle, state)[k]
    targets = [i for i in block if i in dist]
    # a bottleneck lies on every way there, so on the shortest one: only its cells are tried
    path = _shortest_path(puzzle, dist, isl.parts[k], targets)
    for v in path:
        if state.cands[v] != FREE or v in block:
            continue
        without = once.without.get(v)
        if without is None:
            without = once.without[v] = reach(isl, k, frozenset((v,)))
        if not any(i in without for i in targets):
            return Deduction.build(state, put={v: ISLAND}, premises=isl.parts[k], region=block, params={
                **_say(puzzle, isl, k, block),
                "result": f"it can only get there through {puzzle.cell(v)}, which is island"})
    return None


def _shortest_path(puzzle: NurikabePuzzle, dist: dict[int, int], own, targets: list[int]) -> list[int]:
    """The cells of one shortest way (in cells) from the island to a target, within reach."""
    passable = members(len(puzzle.clues), dist)
    back = {i: -1 for i in own}
    frontier = list(own)
    goal = set(targets)
    nbrs = puzzle.graph.neighbours
    while frontier:
        nxt = []
        for i in frontier:
            for n in nbrs[i]:
                if passable[n] and n not in back:
                    back[n] = i
                    if n in goal:
                        out = []
                        while n >= 0:
                            out.append(n)
                            n = back[n]
                        return out
                    nxt.append(n)
        frontier = nxt
    return []


def _too_far(puzzle: NurikabePuzzle, state: State, isl: Islands, k: int,
             block: tuple[int, ...], once: _Once) -> Deduction | None:
    """Open cells only island k can reach, which it could not take in as well as a cell of
    the block: seen with the island as one node, a tree joining it, the cell and the block
    has at least half the sum of their three distances (in cells, within the island's reach)
    new cells."""
    dist = reaches(puzzle, state)[k]
    index = reach_index(puzzle, state)
    g = puzzle.graph
    passable = members(len(puzzle.clues), dist)
    targets = [i for i in block if i in dist]
    if once.from_island is None:
        once.from_island = cn.reach(g, isl.parts[k], passable)
    from_island = once.from_island
    to_block = min(from_island[i] for i in targets)
    for i in isl.parts[k]:
        passable[i] = False         # a way from the block through the island is counted below
    from_block = cn.reach(g, targets, passable)
    need = isl.need(k)

    def fewest(x: int) -> int:
        a = from_island[x]
        return (a + to_block + min(from_block.get(x, a + to_block), a + to_block) + 1) // 2
    far = sorted(x for x in dist if state.cands[x] == FREE and index.get(x) == [k] and x not in block
                 and fewest(x) > need)
    if not far:
        return None
    return Deduction.build(state, put={x: WALL for x in far}, premises=isl.parts[k], region=block, params={
        **_say(puzzle, isl, k, block),
        "result": f"with its {need} cells left it cannot also take in {', '.join(map(str, cells_of(puzzle, far)))}, "
                  f"which no other island can reach, so {verdict(far, WALL)}"})


@heuristic(id="nurikabe.pool-owner-ways", genre=GENRE)
def pool_owner_ways(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Of the ways to finish an island (shapes.py), only those that break every 2x2 block
    only it can reach are left; what they all share is settled."""
    isl = islands(puzzle, state)
    shapes = island_shapes(puzzle, state)
    for k in islands_to_check(puzzle, state, focus):
        ways = shapes.get(k)
        blocks = owned_blocks(puzzle, state, k) if ways else []
        if not blocks:
            continue
        left = [s for s in ways if all(s.intersection(b) for b in blocks)]
        if not left or len(left) == len(ways):
            continue        # none left is a broken rule, not a deduction
        put = shared_by(puzzle, state, left)
        if put:
            names = phrase_list(f"{puzzle.cell(b[0])}-{puzzle.cell(b[3])}" for b in blocks)
            yield Deduction.build(state, put=put, premises=isl.parts[k], region=[i for b in blocks for i in b],
                                  params={"island": isl.clue_name(k), "count": count_ways(len(ways)),
                                          "blocks": f"the 2x2 block{'s' if len(blocks) > 1 else ''} {names}",
                                          "each": "each" if len(blocks) > 1 else "it", "left": len(left),
                                          "result": say_shared(puzzle, put).replace("every way", "every way left")})
            return
