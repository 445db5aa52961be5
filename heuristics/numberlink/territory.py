"""Level 3: where each pair can still run its line, over the whole board."""
from __future__ import annotations

from typing import Iterator

import attrs

from grader.genres.numberlink.model import NumberlinkPuzzle
from grader.kernels.cell_shapes import B_EMPTY, EMPTY, OPPOSITE, SHAPES, chains, sides_can
from grader.kernels.recent import recent_of
from grader.genres.numberlink.model import WAYS
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.steps import Deduction

from heuristics.numberlink.common import GENRE, join_off, join_on, phrase, the
from heuristics.numberlink.lines import joined_neighbours

# --- level 3 ------------------------------------------------------------------------------

@attrs.frozen(eq=False)
class Route:
    """Where a pair's line can still run: the biconnected blocks on the way between its ends."""
    cells: frozenset[int]                       # every cell on some route
    bridges: list[tuple[int, int]]              # joins every route uses
    cuts: list[int]                             # cells every route passes (besides the ends)


def route_blocks(links: list[list[int]], usable: list[bool], owner: list[int], lab: int, a: int, b: int,
                 within: frozenset[int] | None = None) -> Route | None:
    """The route of pair `lab` from a to b over `links`, through usable cells owned by no
    other pair (the biconnected blocks on the way, found depth first); None when b cannot be
    reached. The route's cells are those on some simple path from a to b, so on a board that
    only narrowed they lie within the old route: `within` (the old route's cells) keeps the
    search there instead of walking every dead end of the area again."""
    if not (usable[a] and usable[b] and owner[a] in (0, lab) and owner[b] in (0, lab)):
        return None
    n = len(usable)
    order, low, parent = [-1] * n, [0] * n, [-1] * n
    order[a] = 0
    count = 1
    edges: list[tuple[int, int]] = []
    block_above = [-1] * n           # the block holding the tree join into each cell
    blocks: list[list[tuple[int, int]]] = []
    tops: list[int] = []             # the cell each block hangs from
    stack = [(a, iter(links[a]))]
    while stack:
        x, it = stack[-1]
        for y in it:
            if y == parent[x] or not usable[y] or owner[y] not in (0, lab) or (within is not None and y not in within):
                continue
            if order[y] < 0:
                order[y] = low[y] = count
                count += 1
                parent[y] = x
                edges.append((x, y))
                stack.append((y, iter(links[y])))
                break
            if order[y] < order[x]:
                if order[y] < low[x]:
                    low[x] = order[y]
                edges.append((x, y))
        else:
            stack.pop()
            p = parent[x]
            if p >= 0:
                if low[x] < low[p]:
                    low[p] = low[x]
                if low[x] >= order[p]:
                    k = len(blocks)
                    block = []
                    while True:
                        e = edges.pop()
                        block.append(e)
                        if parent[e[1]] == e[0]:
                            block_above[e[1]] = k
                        if e == (p, x):
                            break
                    blocks.append(block)
                    tops.append(p)
    if order[b] < 0:
        return None
    on_route: list[int] = []
    v = b
    while parent[v] >= 0:            # up the tree from b, block by block
        k = block_above[v]
        on_route.append(k)
        v = tops[k]
    cells: set[int] = set()
    for k in on_route:
        for e in blocks[k]:
            cells.update(e)
    return Route(frozenset(cells), [blocks[k][0] for k in on_route if len(blocks[k]) == 1], [tops[k] for k in on_route[:-1]])


class Territory:
    """Where each pair not yet joined can still run: the cells and joins that lie on some
    route between its two ends, avoiding other lines and cells that must stay empty. A cell
    every route of a pair passes, or (when every cell is used) a cell only one pair can use,
    belongs to that pair, which shrinks the others' room; repeated until nothing changes.

    Made from a recent state's territory when there is one: what a pair owned there it still
    owns (its routes only shrank), and a pair's route is the same as long as no cell on it
    changed, since removing cells and joins elsewhere never splits the blocks it is made of."""

    def __init__(self, puzzle: NumberlinkPuzzle, state: State, previous: "Territory | None" = None):
        ch = chains(puzzle, state)
        n = puzzle.rows * puzzle.cols
        cands = state.cands
        self.can = can = [sides_can(m) for m in cands]
        owner = list(ch.labels)
        if previous is not None:
            for x, o in enumerate(previous.owner):
                if o and owner[x] != o:
                    if owner[x]:            # the pieces disagree with it: start afresh
                        owner, previous = list(ch.labels), None
                        break
                    owner[x] = o
        self.open = [lab for lab in puzzle.pairs if not ch.joined(lab, puzzle)]
        usable = [m > B_EMPTY for m in cands]
        used = [not m & B_EMPTY for m in cands]
        links: list[list[int]] | None = None
        # per pair: its route, and the sides each cell could still use and the owners it was
        # found with (a route reads nothing else: a shape dropped that leaves a cell's sides
        # as they were changes no route)
        sides = tuple(can)
        cache: dict[int, tuple[Route | None, tuple[int, ...], tuple[int, ...]]] = \
            dict(previous.cache) if previous is not None else {}
        while True:
            now = tuple(owner)
            dirty: dict[tuple[int, int], set[int]] = {}
            routes = {}
            for lab in self.open:
                hit = cache.get(lab)
                within = None
                if hit is not None:
                    route, was, had = hit
                    key = (id(was), id(had))
                    if key not in dirty:
                        dirty[key] = {x for x in range(n) if sides[x] != was[x] or owner[x] != had[x]}
                    if route is None or route.cells.isdisjoint(dirty[key]):
                        routes[lab] = route
                        continue
                    within = route.cells
                if links is None:
                    links = [[y for d, y in puzzle.neighbour[x].items() if can[x] & d and can[y] & OPPOSITE[d]]
                             for x in range(n)]
                a, b = puzzle.pairs[lab]
                routes[lab] = route_blocks(links, usable, owner, lab, a, b, within)
                cache[lab] = (routes[lab], sides, now)
            who: list[set[int]] = [set() for _ in range(n)]
            for lab, route in routes.items():
                for x in (route.cells if route else ()):
                    who[x].add(lab)
            changed = False
            for lab, route in routes.items():
                for x in (route.cuts if route else ()):
                    if not owner[x]:
                        owner[x] = lab
                        changed = True
            for x in range(n):
                if not owner[x] and used[x] and len(who[x]) == 1:
                    owner[x] = next(iter(who[x]))
                    changed = True
            if not changed:
                break
        self.routes, self.owner, self.cache = routes, owner, cache
        self.finished: set[int] = set()       # cells of lines already joined: on no route
        for x in range(n):
            if owner[x] and not who[x] and (ch.label(x) or puzzle.labels[x]):
                who[x] = {owner[x]}
                self.finished.add(x)
        self.who = who
        self.closed = {lab for lab in puzzle.pairs if lab not in routes}

    def labels(self, x: int) -> set[int]:
        return self.who[x]

    def unsolvable(self, puzzle: NumberlinkPuzzle, state: State) -> bool:
        """A pair has no route left, or a cell that must be used lies on no line nor route."""
        if any(self.routes[lab] is None for lab in self.open):
            return True
        drawn = chains(puzzle, state).labels
        return any(not m & B_EMPTY and not who and not lab and not given
                   for m, who, lab, given in zip(state.cands, self.who, drawn, puzzle.labels))

    def join_users(self, x: int, y: int) -> set[int]:
        """The pairs with a route over the join between neighbours x and y (a join both
        cells may use). Every join between two cells on a pair's route lies in one of its
        blocks (a join from one block to another would merge them), so these are the pairs
        whose routes reach both cells."""
        if x in self.finished or y in self.finished:
            return set()
        return self.who[x] & self.who[y]


def territory(puzzle: NumberlinkPuzzle, state: State) -> Territory:
    def update(old: Territory, _, changed) -> Territory:
        # in a position without solution what a pair owns depends on the states it came
        # through (a cell it owned there may now be out of its reach): found afresh then
        t = Territory(puzzle, state, old)
        return Territory(puzzle, state) if t.unsolvable(puzzle, state) else t
    return state.derived("numberlink.territory", lambda: recent_of(puzzle, "territory").get(
        state, lambda: Territory(puzzle, state), update))


@heuristic(id="numberlink.out-of-reach", genre=GENRE)
def out_of_reach(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    t = territory(puzzle, state)
    ch = chains(puzzle, state)
    for x, m in enumerate(state.cands):
        if m != B_EMPTY and not t.labels(x) and not ch.label(x) and not puzzle.labels[x]:
            yield Deduction.build(state, put={x: EMPTY}, params={"cell": puzzle.cell(x)})
            return


@heuristic(id="numberlink.unused-join", genre=GENRE)
def unused_join(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    t = territory(puzzle, state)
    ch = chains(puzzle, state)
    for i, d, j in puzzle.edges:
        if not (t.can[i] & d and t.can[j] & OPPOSITE[d]) or ch.must[i] & d:
            continue
        if t.join_users(i, j):
            continue
        li, lj = t.labels(i), t.labels(j)
        if li and lj and not li & lj:
            why = f"only {phrase(the(puzzle, li))} can reach {puzzle.cell(i)} and only {phrase(the(puzzle, lj))} {puzzle.cell(j)}"
        else:
            why = f"no pair has a route through both {puzzle.cell(i)} and {puzzle.cell(j)} that uses the join between them"
        yield join_off(state, i, d, j, region=[i, j], params={"a": puzzle.cell(i), "b": puzzle.cell(j), "why": why})


@heuristic(id="numberlink.same-line", genre=GENRE)
def same_line(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """The pair's line is drawn through both cells, every route of the pair passes them, or
    (every cell being used) no other pair can reach them."""
    yield from joined_neighbours(puzzle, state, territory(puzzle, state).owner)


@heuristic(id="numberlink.bottleneck", genre=GENRE)
def bottleneck(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    t = territory(puzzle, state)
    for lab, route in t.routes.items():
        if not route:
            continue
        a, b = puzzle.pairs[lab]
        for x, y in route.bridges:
            d = next(d for d, z in puzzle.neighbour[x].items() if z == y)
            yield join_on(state, x, d, y, cells=[puzzle.cell(a), puzzle.cell(b)], params={
                "name": puzzle.name(lab), "start": puzzle.cell(a), "end": puzzle.cell(b),
                "a": puzzle.cell(x), "b": puzzle.cell(y)})


@heuristic(id="numberlink.owned-no-touch", genre=GENRE)
def owned_no_touch(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """The no-touch rule with the cells each pair must use (its drawn line, the cells every
    route of it passes, and, when every cell is used, those no other pair can reach): a
    shape that puts x on such a pair's line while leaving a neighbour of x that the same
    line must use unjoined is ruled out."""
    owner = territory(puzzle, state).owner
    labels, cands = puzzle.labels, state.cands
    for x, m in enumerate(cands):
        if labels[x] or not m & (m - 1):
            continue
        nb = puzzle.neighbour[x]
        owners = {owner[z] for z in nb.values() if owner[z] and not labels[z]}
        if not owners and not owner[x]:
            continue
        for v in range(5, len(SHAPES)):
            if not m >> v & 1:
                continue
            shape = SHAPES[v]
            on = {owner[y] for d, y in nb.items() if shape & d and owner[y]} | ({owner[x]} if owner[x] else set())
            if len(on) != 1:
                continue
            lab = next(iter(on))
            near = next((z for d, z in nb.items() if not shape & d and owner[z] == lab and not labels[z]), None)
            if near is None:
                continue
            yield Deduction.build(state, exclude={x: v}, premises=[near], params={
                "cell": puzzle.cell(x), "way": WAYS[shape], "near": puzzle.cell(near),
                "name": puzzle.name(lab)})
