"""Where an island can still grow: its *reach*, the cells it could take in within the
cells it still needs, never touching another numbered island; and which numbers can reach
each unnumbered island.
"""
from __future__ import annotations

import heapq

from grader.genres.nurikabe import B_ISLAND, Islands, NurikabePuzzle, islands
from grader.model import State


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


