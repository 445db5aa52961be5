"""Island cells counted against 2x2 blocks. Every 2x2 block needs an island cell. Take blocks
that share no cell, hold no island cell yet, and whose open cells only the islands of a set
(a *team*) can reach: each needs a cell of its own from the team.

pool-count (level 3, a team of one island) and pool-count-shared (level 4, two or three
islands): when there are as many such blocks as the team has cells left, every cell it still
takes lies in one of them, so an open cell outside them that only the team can reach, or that
touches one of its islands, is a wall. More blocks than cells left is a broken rule
(too_few_cells), which the short case splits of cases.py look for.
"""
from __future__ import annotations

from itertools import combinations
from typing import Iterator

from grader.genres.nurikabe.model import FREE, WALL, Islands, NurikabePuzzle, islands
from grader.core.engine import solve_memory
from grader.core.explain import phrase_list
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.steps import Deduction

from heuristics.nurikabe.common import GENRE, cells_of, verdict
from heuristics.nurikabe.pools import block_owners, block_reachers
from heuristics.nurikabe.reach import islands_to_check, reach_index, reaches

MOST_CELLS = 12     # teams with more cells left than this are not counted
MOST_TEAM = 3       # islands counted together at most (_teams joins groups into threes)
SEARCH_NODES = 300   # the search for blocks that share no cell gives up after this many
CHECKS_KEPT = 256    # too_few_cells answers kept per solve (the latest), by the candidates


@heuristic(id="nurikabe.pool-count", genre=GENRE)
def pool_count(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    yield from _squeezed(puzzle, state, focus, 1)


@heuristic(id="nurikabe.pool-count-shared", genre=GENRE)
def pool_count_shared(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for size in range(2, MOST_TEAM + 1):
        yield from _squeezed(puzzle, state, focus, size)


def too_few_cells(puzzle: NurikabePuzzle, state: State) -> str | None:
    """What the islands' reach shows can no longer be done, or None: an island that cannot
    reach the cells it still needs, an island or a 2x2 block no number can reach, or blocks
    that need more island cells than the only islands that reach them have left."""
    return state.derived("nurikabe.too-few-cells", lambda: _remembered(puzzle, state))


def _remembered(puzzle: NurikabePuzzle, state: State) -> str | None:
    """_too_few_cells, kept for a while in the running solve by the candidates it reads:
    short chains from different starts, or with more techniques, often end in the same state."""
    kept = solve_memory().setdefault("nurikabe.too-few-cells", {})
    cands = state.cands
    if cands in kept:
        return kept[cands]
    found = kept[cands] = _too_few_cells(puzzle, state)
    if len(kept) > CHECKS_KEPT:
        del kept[next(iter(kept))]
    return found


def _too_few_cells(puzzle: NurikabePuzzle, state: State) -> str | None:
    isl = islands(puzzle, state)
    all_reach = reaches(puzzle, state)
    for k, dist in all_reach.items():
        need = isl.need(k)
        if need and len(dist) - len(isl.parts[k]) < need:
            return f"{isl.clue_name(k)} can reach only {len(dist) - len(isl.parts[k])} of the {need} cells it still needs"
    reached = set().union(*all_reach.values())      # (reach_index's cells, without its lists)
    for k, part in enumerate(isl.parts):
        if not isl.clues[k] and part[0] not in reached:
            return f"no number can reach the island at {puzzle.cell(part[0])}"
    owners = block_owners(puzzle, state)
    blocks_of = puzzle.graph.blocks_of
    for x, m in enumerate(state.cands):
        if m == FREE and x not in reached:
            for q in blocks_of[x]:
                if owners(q) == ():
                    return f"no island can reach the 2x2 block {_names(puzzle, [q])}"
    groups = _open_blocks(puzzle, state, isl)
    for size in range(1, MOST_TEAM + 1):
        for team in _teams(groups, size):
            left = sum(isl.need(k) for k in team)
            if left > MOST_CELLS:
                continue
            chosen = _apart(_blocks_of(groups, team), puzzle.graph.blocks, left + 1, left + 1)
            if len(chosen) > left:
                return (f"the 2x2 blocks {_names(puzzle, chosen)} need {len(chosen)} island cells, and "
                        f"{_islands(isl, team)} {'has' if size == 1 else 'have'} only {left} left")
    return None


def _squeezed(puzzle: NurikabePuzzle, state: State, focus, size: int) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    groups = _open_blocks(puzzle, state, isl)
    changed = set(islands_to_check(puzzle, state, focus))
    for team in _teams(groups, size):
        left = sum(isl.need(k) for k in team)
        if changed.isdisjoint(team) or left > MOST_CELLS:
            continue
        chosen = _apart(_blocks_of(groups, team), puzzle.graph.blocks, left, left + 1)
        if len(chosen) == left:
            d = _walls_outside(puzzle, state, isl, team, chosen)
            if d is not None:
                yield d
                return


def _open_blocks(puzzle: NurikabePuzzle, state: State, isl: Islands) -> dict[tuple[int, ...], list[int]]:
    """The 2x2 blocks with no island cell yet near a growing island, by who can break them
    (every one of them with a known number of cells left)."""
    def compute() -> dict[tuple[int, ...], list[int]]:
        growing = {k for k in reaches(puzzle, state) if isl.need(k)}
        owners = block_owners(puzzle, state)
        out: dict[tuple[int, ...], list[int]] = {}
        # (a block whose reachers all grow is near a growing island: those are the blocks)
        for q, who in sorted(block_reachers(puzzle, state).items()):
            if growing.issuperset(who) and owners(q) is not None:
                out.setdefault(who, []).append(q)
        return out
    return state.derived("nurikabe.open-blocks", compute)


def _teams(groups: dict[tuple[int, ...], list[int]], size: int) -> list[tuple[int, ...]]:
    """The teams of `size` islands worth counting: one island that can break a block alone,
    or islands held together by blocks two or three of them can reach (islands that share no
    block are better counted apart): one such group of owners, or two joined."""
    if size == 1:
        return sorted(w for w in groups if len(w) == 1)
    out = {frozenset(w) for w in groups if len(w) == size}
    if size == 3:
        # Two groups joined make a team of two or three only when they are two pairs with an
        # island in common (a pair joined to a three it lies in is that three): join those.
        partners: dict[int, list[int]] = {}
        for w in groups:
            if len(w) == 2:
                partners.setdefault(w[0], []).append(w[1])
                partners.setdefault(w[1], []).append(w[0])
        for k, others in partners.items():
            out.update(frozenset((k, x, y)) for n, x in enumerate(others) for y in others[n + 1:])
    return sorted(tuple(sorted(t)) for t in out)


def _blocks_of(groups: dict[tuple[int, ...], list[int]], team: tuple[int, ...]) -> list[int]:
    """The blocks of the groups whose owners all lie in the team (a sorted tuple, as the
    owners are): looked up by each set of its islands, not found among every group."""
    return sorted(q for size in range(1, len(team) + 1) for who in combinations(team, size)
                  for q in groups.get(who, ()))


def _apart(blocks: list[int], cells: tuple[tuple[int, ...], ...], want: int, enough: int) -> list[int]:
    """The most blocks that share no cell when that is at least `want` (else, or when the
    search gives up, fewer), or `enough` of them as soon as found. `cells`: every block's
    cells."""
    if len({i for q in blocks for i in cells[q]}) < 4 * want:
        return []
    best: list[int] = []
    used: set[int] = set()
    nodes = 0

    def grow(start: int, taken: list[int]) -> bool:
        nonlocal best, nodes
        nodes += 1
        if nodes > SEARCH_NODES:
            raise _GaveUp
        if len(taken) > len(best):
            best = list(taken)
            if len(best) >= enough:
                return True
        for n in range(start, len(blocks)):
            if len(taken) + len(blocks) - n < max(len(best) + 1, want):
                return False
            mine = cells[blocks[n]]
            if used.isdisjoint(mine):
                taken.append(blocks[n])
                used.update(mine)
                if grow(n + 1, taken):
                    return True
                used.difference_update(mine)
                taken.pop()
        return False
    try:
        grow(0, [])
    except _GaveUp:
        return []
    return best


class _GaveUp(Exception):
    pass


def _names(puzzle: NurikabePuzzle, chosen: list[int]) -> str:
    blocks = puzzle.graph.blocks
    return phrase_list(f"{puzzle.cell(blocks[q][0])}-{puzzle.cell(blocks[q][3])}" for q in chosen)


def _islands(isl: Islands, team: tuple[int, ...]) -> str:
    return phrase_list(isl.clue_name(k) for k in team)


def _walls_outside(puzzle: NurikabePuzzle, state: State, isl: Islands, team: tuple[int, ...],
                   chosen: list[int]) -> Deduction | None:
    """Open cells outside the chosen blocks that could only be a cell of the team: walls."""
    blocks = puzzle.graph.blocks
    inside = {i for q in chosen for i in blocks[q]}
    index = reach_index(puzzle, state)
    mine = set(team)
    touching = {n for k in team for n in isl.liberties(k)}
    far = sorted(x for x, m in enumerate(state.cands) if m == FREE and x not in inside and
                 (x in touching or (x in index and mine.issuperset(index[x]))))
    if not far:
        return None
    one, alone = len(far) == 1, len(team) == 1
    left = len(chosen)
    return Deduction.build(state, put={x: WALL for x in far}, premises=[i for k in team for i in isl.parts[k]],
                           region=sorted(inside), params={
        "blocks": _names(puzzle, chosen), "count": len(chosen), "islands": _islands(isl, team),
        "left": f"{left} cell{'' if left == 1 else 's'} left{'' if alone else ' between them'}",
        "result": f"{phrase_list(cells_of(puzzle, far))} {'lies' if one else 'lie'} outside them and could "
                  f"only be {'its' if alone else 'their'} cell{'' if one else 's'}, so {verdict(far, WALL)}"})
