"""Where an island can still grow: its *reach*, the cells it could take in within the
cells it still needs, never touching another numbered island; and which numbers can reach
each unnumbered island.

Reaches are kept per puzzle between states: an island's reach depends only on the cells
within two steps of it (their candidates, the size of the island each belongs to and how many
numbers it holds), so a reach is reused while those are unchanged, in any state. The same neighbourhood, its *support*, tells the
techniques which islands a change can affect (their `focus`).
"""
from __future__ import annotations

import operator
from itertools import chain
from typing import Callable, TypeVar

from grader.genres.nurikabe.model import B_ISLAND, FREE, Islands, NurikabePuzzle, islands
from grader.core.model import State
from grader.kernels.recent import recent_of

from heuristics.common.focus import near_then_the_rest

T = TypeVar("T")


# --- reach: where an island can still grow -------------------------------------------------

def reach(isl: Islands, k: int, without: frozenset[int] = frozenset(),
          until: frozenset[int] = frozenset()) -> dict[int, int]:
    """Cells island k could take in, each with the fewest cells it must add to get there
    (Dijkstra: a free cell costs 1, an unnumbered island costs its size). A superset of
    every way the island can really grow, so conclusions drawn from it are sound. With
    `until`, the walk stops once it reaches one of those cells (the rest is then left out).

    Costs are whole numbers, so the cells wait in a list per distance (a bucket queue, quicker
    than a heap): every step costs at least 1, so a cell's distance is final when first set."""
    puzzle, cands = isl.puzzle, isl.cands
    need = isl.need(k)
    limit = len(cands) if need is None else need
    near, parts, of = isl.numbers_near, isl.parts, isl.of
    nbrs = puzzle.graph.neighbours
    mine = (k,)
    dist = dict.fromkeys(parts[k], 0)
    waiting: list[list[int]] = [list(parts[k])]    # waiting[d]: the cells at distance d
    d = 0
    while d < len(waiting):
        for i in waiting[d]:
            for n in nbrs[i]:
                if n in dist:
                    continue
                m = cands[n]
                if not m & B_ISLAND:
                    continue
                owners = near[n]
                if owners and owners != mine or without and n in without:
                    continue
                if m != B_ISLAND:                       # a free cell (the usual case)
                    cost = d + 1
                    if cost > limit:
                        continue
                    dist[n] = cost
                    if until and n in until:
                        return dist
                    if len(waiting) == cost:
                        waiting.append([n])
                    else:
                        waiting[cost].append(n)
                    continue
                group = parts[of[n]]                    # an unnumbered island joins whole
                cost = d + len(group)
                if cost > limit:
                    continue
                for j in group:
                    dist[j] = cost
                if until and not until.isdisjoint(group):
                    return dist
                while len(waiting) <= cost:
                    waiting.append([])
                waiting[cost].extend(group)
        d += 1
    return dist


CACHE_LIMIT = 50000     # reaches kept per puzzle before the cache starts afresh
BLOCKS_KEPT = 10000     # reaches whose blocks are kept (each keeps its reach alive)


def reaches(puzzle: NurikabePuzzle, state: State) -> dict[int, dict[int, int]]:
    """Reach of every numbered island of a state, computed once (callers must not change it)."""
    return state.derived("nurikabe.reach", lambda: {k: e[0] for k, e in _entries(puzzle, state).items()})


def open_blocks_of_reach(puzzle: NurikabePuzzle, state: State, dist: dict[int, int]) -> frozenset[int]:
    """The 2x2 blocks with an open cell in a reach of the state's `reaches` (worked out once
    for each reach, not once for each state: see kept_with_reach)."""
    cands, blocks_of = state.cands, puzzle.graph.blocks_of
    return kept_with_reach(puzzle, "_nurikabe_reach_blocks", dist, lambda: frozenset(
        chain.from_iterable(blocks_of[i] for i in dist if cands[i] == FREE)))


def kept_with_reach(puzzle: NurikabePuzzle, name: str, dist: dict[int, int], compute: Callable[[], T]) -> T:
    """compute(), worked out once for each reach of the state's `reaches` (by the dict, kept
    with its answer so its id stays its own): such a reach is kept only while its island and
    the candidates of its cells stay the same, so what reads only those holds while it lives."""
    memo = puzzle.memo(name, BLOCKS_KEPT)
    hit = memo.get(id(dist))
    if hit is not None and hit[0] is dist:
        return hit[1]
    found = compute()
    memo[id(dist)] = (dist, found)
    return found


def islands_to_check(puzzle: NurikabePuzzle, state: State, focus: frozenset[int] | None) -> list[int]:
    """Numbered islands whose reach a change in `focus` can have affected (all without focus)."""
    entries = _entries(puzzle, state)
    if focus is None:
        return sorted(entries)
    touched = with_their_islands(islands(puzzle, state), focus)
    return [k for k, (_, support) in sorted(entries.items()) if not support.isdisjoint(touched)]


def islands_near_then_the_rest(puzzle: NurikabePuzzle, state: State, focus: frozenset[int] | None) -> list[int]:
    """islands_to_check first, then every other numbered island: for looks that read other
    islands' reaches too (who else reaches a block), which a change far from the island can
    narrow without touching its own reach."""
    every = islands_to_check(puzzle, state, None)
    return every if focus is None else near_then_the_rest(islands_to_check(puzzle, state, focus), every)


def reach_index(puzzle: NurikabePuzzle, state: State) -> dict[int, list[int]]:
    """For each cell, the numbered islands whose reach holds it."""
    def compute() -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for k, dist in reaches(puzzle, state).items():
            for i in dist:
                out.setdefault(i, []).append(k)
        return out
    return state.derived("nurikabe.reach-index", compute)


def _entries(puzzle: NurikabePuzzle, state: State) -> dict[int, tuple[dict[int, int], frozenset[int]]]:
    isl = islands(puzzle, state)

    def compute() -> dict[int, tuple[dict[int, int], frozenset[int]]]:
        # (a cell emptied, in a broken state, can split an island, which an update misses)
        by_part = recent_of(puzzle, "nurikabe.reach").get(
            state, lambda: _by_part(puzzle, state, isl, {}, ()),
            lambda old, _, changed: None if any(not state.cands[i] for i in changed)
            else _by_part(puzzle, state, isl, old, changed))
        return {k: by_part[isl.parts[k]] for k in isl.numbered_parts()}
    return state.derived("nurikabe.reach-entries", compute)


def _by_part(puzzle: NurikabePuzzle, state: State, isl: Islands, old: dict, changed) -> dict:
    """(reach, support) of every numbered island, by its cells. From a recent state's (`old`,
    with the cells that changed since): a reach whose support holds no changed cell, nor a
    cell of an island a changed cell joined, is still the same. Others are looked up in the
    puzzle's cache, and worked out afresh where that misses."""
    touched = with_their_islands(isl, changed)
    cache = puzzle.memo("_nurikabe_reach", CACHE_LIMIT)
    cands = state.cands
    numbers = None
    out = {}
    for k in isl.numbered_parts():
        key = isl.parts[k]
        kept = old.get(key)
        if kept is not None and kept[1].isdisjoint(touched):
            out[key] = kept
            continue
        if numbers is None:
            # Per cell: the size of its island and how many numbers that holds. With the
            # candidates, these are everything a reach reads (hypothetical states share the cache).
            sizes = [len(p) * 4 + min(len(c), 3) for p, c in zip(isl.parts, isl.clues)]
            numbers = [sizes[j] if j >= 0 else 0 for j in isl.of]
        hit = cache.get(key)
        if hit is not None:
            dist, support, look, seen = hit
            if look(cands) == seen[0] and look(numbers) == seen[1]:
                out[key] = (dist, support)
                continue
        dist = reach(isl, k)
        support = _within_two(puzzle, dist)     # (the island's own cells are in its reach)
        look = operator.itemgetter(*sorted(support))
        cache[key] = (dist, support, look, (look(cands), look(numbers)))
        out[key] = (dist, support)
    return out


def with_their_islands(isl: Islands, changed) -> set[int]:
    """The changed cells and every cell of the islands they lie in: a cell that joins an
    island changes the size a reach reads at each of its cells."""
    touched = set(changed)
    for i in changed:
        if isl.of[i] >= 0:
            touched.update(isl.parts[isl.of[i]])
    return touched


def _within_two(puzzle: NurikabePuzzle, cells) -> frozenset[int]:
    """The cells within two steps of `cells` (graph.around(cells, 2)): a union of each
    cell's own, kept with the puzzle, which is quicker than a walk."""
    balls = puzzle.once("_nurikabe_within_two", lambda: tuple(
        frozenset(puzzle.graph.around((i,), 2)) for i in range(puzzle.graph.size)))
    return frozenset().union(*map(balls.__getitem__, cells))


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


