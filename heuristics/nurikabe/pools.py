"""A 2x2 block only one island can break: every 2x2 block needs an island cell, so a block
with none yet, whose open cells only one number can reach, must be reached by that number's
island. pool-owner (level 3): within its reach it then can only get there through its
bottlenecks on the way (island), and it cannot also take in a cell too far from both itself
and the block (a wall, when no other number can reach that cell either). pool-owner-ways
(level 4): of the ways to finish the island, only those that reach every such block are left.
"""
from __future__ import annotations

from typing import Iterator

import attrs

from grader.genres.nurikabe.model import B_ISLAND, FREE, ISLAND, WALL, Islands, NurikabePuzzle, islands
from grader.core.explain import phrase_list
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.steps import Deduction
from grader.kernels import connectivity as cn

from heuristics.nurikabe.common import GENRE, cells_of, members, verdict
from heuristics.nurikabe.reach import (islands_near_then_the_rest, open_blocks_of_reach, reach, reach_index,
                                      reaches)
from heuristics.nurikabe.shapes import count_ways, island_shapes, say_shared, shared_by


def owned_blocks(puzzle: NurikabePuzzle, state: State, k: int) -> list[tuple[int, ...]]:
    """The 2x2 blocks without an island cell whose open cells only island k can reach."""
    return state.derived("nurikabe.owned-blocks", lambda: _owned_blocks(puzzle, state)).get(k, [])


def _owned_blocks(puzzle: NurikabePuzzle, state: State) -> dict[int, list[tuple[int, ...]]]:
    """owned_blocks of every island, in block order, from one pass over the block reachers
    (pool-owner asks for every island's, near the change first, then the rest)."""
    owners, blocks = block_owners(puzzle, state), puzzle.graph.blocks
    out: dict[int, list[tuple[int, ...]]] = {}
    for q, who in sorted(block_reachers(puzzle, state).items()):
        if len(who) == 1 and owners(q) is not None:
            out.setdefault(who[0], []).append(blocks[q])
    return out


def block_owners(puzzle: NurikabePuzzle, state: State):
    """owners(q): the numbered islands that can reach an open cell of 2x2 block q, in order
    (empty when none can), or None when the block holds an island cell already."""
    cands = state.cands
    blocks = puzzle.graph.blocks
    reachers = block_reachers(puzzle, state)

    def owners(q: int) -> tuple[int, ...] | None:
        for j in blocks[q]:
            if cands[j] == B_ISLAND:
                return None
        return reachers.get(q, ())
    return owners


def block_reachers(puzzle: NurikabePuzzle, state: State) -> dict[int, tuple[int, ...]]:
    """The numbered islands that can reach an open cell of each 2x2 block some island reaches
    (in order; whether the block holds an island cell is not looked at: see block_owners)."""
    return state.derived("nurikabe.block-reachers", lambda: _block_reachers(puzzle, state))


def _block_reachers(puzzle: NurikabePuzzle, state: State) -> dict[int, tuple[int, ...]]:
    """For each 2x2 block an island reaches an open cell of, those islands, in order: made
    from each reach's blocks (kept with the reach), not from the blocks' cells one by one.
    Updated from the last state's where the numbered islands are the same: only the islands
    whose reach changed move (a state changes few reaches)."""
    isl = islands(puzzle, state)
    dists = reaches(puzzle, state)
    parts = {isl.clues[k][0]: k for k in dists}     # each island's part, by its number's cell
    last = puzzle.__dict__.get("_nurikabe_last_reachers")
    if last is None or last.parts.keys() != parts.keys():
        found: dict[int, list[int]] = {}
        for k in sorted(dists):
            for q in open_blocks_of_reach(puzzle, state, dists[k]):
                found.setdefault(q, []).append(k)
        reachers = {q: tuple(ks) for q, ks in found.items()}
        kept = {k: (dist, open_blocks_of_reach(puzzle, state, dist)) for k, dist in dists.items()}
    else:
        reachers, kept = _renumbered(last, parts)
        for k, dist in dists.items():
            old_dist, old_blocks = kept[k]
            if old_dist is not dist:
                blocks = open_blocks_of_reach(puzzle, state, dist)
                _move_reacher(reachers, k, old_blocks, blocks)
                kept[k] = (dist, blocks)
    puzzle.__dict__["_nurikabe_last_reachers"] = _Reachers(parts, kept, reachers)
    return reachers


@attrs.frozen
class _Reachers:
    """The block reachers of the last state they were made for, with the reach (and its
    blocks) of each numbered island they were made from."""
    parts: dict[int, int]       # each numbered island's part, by its number's cell
    kept: dict[int, tuple[dict[int, int], frozenset[int]]]
    reachers: dict[int, tuple[int, ...]]


def _renumbered(last: _Reachers, parts: dict[int, int]
                ) -> tuple[dict[int, tuple[int, ...]], dict[int, tuple[dict[int, int], frozenset[int]]]]:
    """Copies of last's reachers and reaches, with the part of each island in this state (an
    island part made or joined before it shifts the parts after it, and an island that grows
    can move before another)."""
    if parts == last.parts:
        return dict(last.reachers), dict(last.kept)
    new_part = {last.parts[cell]: k for cell, k in parts.items()}
    renamed: dict[tuple[int, ...], tuple[int, ...]] = {}

    def rename(who: tuple[int, ...]) -> tuple[int, ...]:
        out = renamed.get(who)
        if out is None:
            out = renamed[who] = tuple(sorted(new_part[k] for k in who))
        return out
    return ({q: rename(who) for q, who in last.reachers.items()},
            {new_part[k]: seen for k, seen in last.kept.items()})


def _move_reacher(reachers: dict[int, tuple[int, ...]], k: int, old: frozenset[int], new: frozenset[int]) -> None:
    """Island k now reaches the blocks `new` instead of `old`."""
    for q in old - new:
        left = tuple(x for x in reachers[q] if x != k)
        if left:
            reachers[q] = left
        else:
            del reachers[q]
    for q in new - old:
        reachers[q] = tuple(sorted((*reachers.get(q, ()), k)))


@heuristic(id="nurikabe.pool-owner", genre=GENRE)
def pool_owner(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    for k in islands_near_then_the_rest(puzzle, state, focus):
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
    cell (by cell; cut short at a cell of the block it was worked out for), and how far each
    cell of its reach lies from it."""

    def __init__(self):
        self.without: dict[int, dict[int, int]] = {}
        self.from_island: dict[int, int] | None = None
        self.in_reach: list[bool] = []      # by cell: in the island's reach
        self.only_mine: list[int] = []      # the open cells only the island reaches, in order


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
        # its reach without v, up to the first block cell it meets (so whole when it meets none)
        without = once.without.get(v)
        if without is None or not any(i in without for i in targets):
            without = once.without[v] = reach(isl, k, frozenset((v,)), until=frozenset(targets))
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
    g = puzzle.graph
    targets = [i for i in block if i in dist]
    if once.from_island is None:
        index, cands = reach_index(puzzle, state), state.cands
        once.in_reach = members(len(puzzle.clues), dist)
        once.from_island = cn.reach(g, isl.parts[k], once.in_reach)
        once.only_mine = sorted(x for x in dist if cands[x] == FREE and index.get(x) == [k])
    from_island = once.from_island
    to_block = min(from_island[i] for i in targets)
    need = isl.need(k)
    # A cell a steps from the island is too far when a + to_block + min(b, a + to_block)
    # > 2 * need, b its distance from the block: never when a + to_block <= need, and
    # otherwise only when b reaches 2 * need + 1 - a - to_block. So only the cells farther
    # than need - to_block are looked at, and the block's distances only as far as any of
    # them asks (a cell not reached by then is at least that far).
    far_out = [x for x in once.only_mine if from_island[x] + to_block > need and x not in block]
    if not far_out:
        return None
    passable = once.in_reach.copy()
    for i in isl.parts[k]:
        passable[i] = False         # a way from the block through the island is counted below
    least = 2 * need + 1 - to_block
    from_block = cn.reach(g, targets, passable, limit=least - min(from_island[x] for x in far_out) - 1)
    far = [x for x in far_out if from_block.get(x, least) >= least - from_island[x]]
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
    for k in islands_near_then_the_rest(puzzle, state, focus):
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
