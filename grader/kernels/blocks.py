"""Counting 2x2 blocks: how many shaded cells an area can hold when shaded cells never touch
side by side and the white cells stay connected (Heyawake, Kuromasu, Hitori).

Shaded cells that touch corner to corner must never close a ring: a ring shuts the white
cells inside away from those outside. Take an area A and its 2x2 blocks (those wholly inside
A). A block holds at most two shaded cells, and two only as a corner-to-corner pair; the pairs
are links between the shaded cells of A, and links that close no ring number at most one
fewer than the cells. Counting each shaded cell once per block it lies in:

    sum over shaded cells s of A of (blocks(s) - 1)  <=  blocks(A) - 1

so a cell deep inside costs 3, a cell on A's edge 1, a corner 0. A room that needs many shaded
cells can only afford a few deep ones, and a tight count decides cells: if r1c1 white would
leave the room no way to afford its number, r1c1 is shaded.

The least a room's remaining cells can cost is bounded from below without listing the ways:
at most MIS(t) of the chosen cells can cost t or less, MIS(t) being the most cells of cost
<= t that can be shaded without touching (a maximum independent set of a grid, bipartite, so
cells minus a maximum matching).
"""
from __future__ import annotations

from typing import Iterable, Sequence

INFEASIBLE = 1 << 20


def costs(graph, cells: Iterable[int]) -> tuple[dict[int, int], int]:
    """({cell: blocks it lies in - 1}, number of 2x2 blocks wholly inside the area)."""
    area = set(cells)
    cols, rows = graph.cols, graph.rows
    inside = [(i, i + 1, i + cols, i + cols + 1) for i in area
              if i % cols + 1 < cols and i // cols + 1 < rows
              and i + 1 in area and i + cols in area and i + cols + 1 in area]
    cost = dict.fromkeys(area, -1)
    for b in inside:
        for i in b:
            cost[i] += 1
    return cost, len(inside)


def independent(graph, cells: Sequence[int]) -> int:
    """The most of `cells` that can be shaded with no two side by side (cells minus a
    maximum matching of the grid graph they span; Kuhn's augmenting paths)."""
    members = set(cells)
    nbrs, cols = graph.neighbours, graph.cols
    match: dict[int, int] = {}
    matched = sum(_augment(u, set(), nbrs, members, match) for u in cells if (u // cols + u % cols) % 2 == 0)
    return len(members) - matched


def _augment(u: int, seen: set[int], nbrs, members: set[int], match: dict[int, int]) -> bool:
    """Whether an augmenting path from u grows the matching `match` (which it then does).
    Not a closure: a closure that calls itself is a cycle, left to the collector."""
    for v in nbrs[u]:
        if v in members and v not in seen:
            seen.add(v)
            if v not in match or _augment(match[v], seen, nbrs, members, match):
                match[v] = u
                return True
    return False


def least_cost(graph, cost: dict[int, int], free: Sequence[int], need: int) -> int:
    """A lower bound on the summed cost of `need` cells of `free` shaded with no two touching
    (INFEASIBLE when not even that many fit)."""
    if need <= 0:
        return 0
    total, taken = 0, 0
    for t in sorted({cost[i] for i in free}):
        fits = independent(graph, [i for i in free if cost[i] <= t])
        more = min(fits, need) - taken
        total += more * t
        taken += more
        if taken == need:
            return total
    return INFEASIBLE


def forced(graph, area: Sequence[int], cands: Sequence[int], shaded_bit: int, free_mask: int,
           number: int, slack_limit: int = 6) -> tuple[dict[int, bool], int, int] | None:
    """Cells of an area that must hold `number` shaded cells, decided by the count: {cell:
    True if it must be shaded, False if it must be white}, with the area's blocks and the
    cost its shaded cells may use. None when the count is far from tight or already broken."""
    cost, blocks = costs(graph, area)
    if not blocks:
        return None
    shaded = [i for i in area if cands[i] == shaded_bit]
    free = [i for i in area if cands[i] == free_mask]
    need = number - len(shaded)
    if need <= 0 or not free:
        return None
    limit = blocks - 1
    budget = limit - sum(cost[i] for i in shaded)
    base = least_cost(graph, cost, free, need)
    if base > budget or budget - base > slack_limit:
        return None
    out: dict[int, bool] = {}
    nbrs = graph.neighbours
    for x in free:
        rest = [i for i in free if i != x]
        if least_cost(graph, cost, rest, need) > budget:
            out[x] = True
            continue
        apart = [i for i in rest if i not in nbrs[x]]
        if cost[x] + least_cost(graph, cost, apart, need - 1) > budget:
            out[x] = False
    return out, blocks, limit


def broken(graph, area: Sequence[int], cands: Sequence[int], shaded_bit: int, free_mask: int,
           number: int) -> bool:
    """The area can no longer hold `number` shaded cells within its block count."""
    cost, blocks = costs(graph, area)
    shaded = [i for i in area if cands[i] == shaded_bit]
    if not blocks or not shaded and number <= 0:
        return False
    free = [i for i in area if cands[i] == free_mask]
    need = number - len(shaded)
    if need < 0:
        return False        # too many shaded cells: the genre's own count says so
    return sum(cost[i] for i in shaded) + least_cost(graph, cost, free, need) > blocks - 1
