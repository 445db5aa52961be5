"""Numberlink techniques. The catalogue has no Numberlink list, so these follow its key:
level 1 looks at one cell and its neighbours (do the lines join up?), level 2 follows the
lines already drawn (different numbers never meet, no loops, a line never touches itself), level 3 looks at where each pair can still go (the whole board), level 4
the pairwise product of the notes (spec/numberlink-notes.txt), level 5 hypotheses.

A variable is a cell's shape. Most rules act on a join, the side between two cells: a line
crosses it from both cells or from neither.
"""
from __future__ import annotations

import functools
import threading
import weakref
from typing import Iterable, Iterator

from grader.genres.numberlink import (B_EMPTY, EMPTY, E, N, S, W, GLYPHS as GLYPH, OPPOSITE, SHAPES, SIDES, WITH_SIDE,
                                      WITHOUT_SIDE, Chains, NumberlinkPuzzle, chains, sides_can)
from grader.heuristic import REGISTRY, heuristic
from grader.model import State
from grader.probing import PROBE_TEMPLATE, probe_cell, probe_order
from grader.steps import Deduction

GENRE = "numberlink"


def cells_near(puzzle: NumberlinkPuzzle, focus: frozenset[int] | None) -> Iterable[int]:
    if focus is None:
        return range(puzzle.rows * puzzle.cols)
    out = set(focus)
    for f in focus:
        out.update(puzzle.neighbour[f].values())
    return sorted(out)


def phrase(items: list[str]) -> str:
    from grader.explain import phrase_list
    return phrase_list(items)


def the(puzzle: NumberlinkPuzzle, labels: Iterable[int]) -> list[str]:
    return [f"the {puzzle.name(lab)}s" for lab in sorted(labels)]


def min_mask(sides: int) -> int:
    """Values whose shape uses none of `sides`."""
    out = -1
    for d in SIDES:
        if d & sides:
            out &= WITHOUT_SIDE[d]
    return out


def join_on(state: State, i: int, d: int, j: int, **why) -> Deduction | None:
    """The line runs between i and its neighbour j on side d."""
    return Deduction.build(state, keep={i: WITH_SIDE[d], j: WITH_SIDE[OPPOSITE[d]]}, **why)


def join_off(state: State, i: int, d: int, j: int, **why) -> Deduction | None:
    """No line runs between i and its neighbour j on side d."""
    return Deduction.build(state, keep={i: WITHOUT_SIDE[d], j: WITHOUT_SIDE[OPPOSITE[d]]}, **why)


# --- level 1 ------------------------------------------------------------------------------

@heuristic(id="numberlink.join-up", name="Lines join up", genre=GENRE, level=1, order=1,
           template="{reason}, so {result}.",
           nudge="Check which sides of each cell a line can still cross.")
def join_up(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Where is this square: a shape is kept only if the neighbour on each side agrees."""
    cands = state.cands
    near = cells_near(puzzle, focus)
    if focus is None:       # candidates only shrink, so the border is settled once and for all
        edge = {i: min_mask(sides_can(cands[i]) & ~sum(puzzle.neighbour[i])) for i in near}
        found = Deduction.build(state, keep={i: m for i, m in edge.items() if m != -1}, params={
            "cell": "the border", "reason": "lines stay inside the grid",
            "result": "no line leaves a cell across the edge"})
        if found:
            yield found
    for i in near:
        ci = cands[i]
        for d, j in puzzle.neighbour[i].items():
            cj = cands[j]
            on = bool(ci & WITH_SIDE[d]) and bool(cj & WITH_SIDE[OPPOSITE[d]])
            off = bool(ci & WITHOUT_SIDE[d]) and bool(cj & WITHOUT_SIDE[OPPOSITE[d]])
            if on and off:
                continue
            # only a join that still has something to settle is worth explaining
            if not on and not (ci & WITH_SIDE[d] or cj & WITH_SIDE[OPPOSITE[d]]):
                continue
            if on and not off and not (ci & WITHOUT_SIDE[d] or cj & WITHOUT_SIDE[OPPOSITE[d]]):
                continue
            here, there = puzzle.cell(i), puzzle.cell(j)
            if not on:
                first = not ci & WITH_SIDE[d]
                who, other = (here, there) if first else (there, here)
                found = join_off(state, i, d, j, premises=[i if first else j], params={
                    "cell": who, "reason": f"{who} cannot send a line towards {other}",
                    "result": f"no line runs between {here} and {there}"})
            else:
                first = not ci & WITHOUT_SIDE[d]
                who, other = (here, there) if first else (there, here)
                found = join_on(state, i, d, j, premises=[i if first else j], params={
                    "cell": who, "reason": f"every shape left for {who} sends a line towards {other}",
                    "result": f"the line runs between {here} and {there}"})
            if found:
                yield found


@heuristic(id="numberlink.broken-line", name="The lines drawn break a rule", genre=GENRE, level=1, order=0,
           template="{problem}, which the rules forbid, so {cell} has no shape left.",
           nudge="Look at the line through {cell}.")
def broken_line(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """A drawn line that joins two numbers, closes a loop or runs beside itself: the state
    is impossible. Never fires on the way to the solution; inside a trial it ends the branch
    at once instead of many steps later, when the fill gets stuck."""
    ch = chains(puzzle, state)
    problem, at = None, None
    if ch.clash:
        a, b = ch.clash
        at = next(i for i, lab in enumerate(puzzle.labels) if lab == b and ch.labels[i] == a)
        problem = f"the lines of {puzzle.name(a)} and {puzzle.name(b)} are joined"
    elif ch.loop is not None:
        at, problem = ch.loop, f"the line through {puzzle.cell(ch.loop)} closes a loop"
    else:
        root, must, labels = ch.root, ch.must, puzzle.labels
        for i, d, j in puzzle.edges:
            if root[i] == root[j] and must[i] and must[j] and not must[i] & d and not labels[i] and not labels[j]:
                at, problem = i, f"the line runs beside itself at {puzzle.cell(i)} and {puzzle.cell(j)}"
                break
    if at is not None:
        yield Deduction(((at, state.cands[at]),), {"problem": problem[0].upper() + problem[1:],
                                                   "cell": puzzle.cell(at)}, (at,))


# --- level 2 ------------------------------------------------------------------------------

@heuristic(id="numberlink.different-lines", name="Different numbers never meet", genre=GENRE, level=2,
           order=1,
           template="{a} is on the line of {first} and {b} on the line of {second}, so no line runs "
                    "between them.",
           nudge="Follow the lines to {a} and {b}.")
def different_lines(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    ch = chains(puzzle, state)
    for i in cells_near(puzzle, focus):
        la = ch.label(i)
        if not la:
            continue
        for d, j in puzzle.neighbour[i].items():
            lb = ch.label(j)
            if lb and lb != la and state.cands[i] & WITH_SIDE[d]:
                found = join_off(state, i, d, j, params={
                    "a": puzzle.cell(i), "b": puzzle.cell(j), "first": the(puzzle, [la])[0],
                    "second": the(puzzle, [lb])[0]})
                if found:
                    yield found


@heuristic(id="numberlink.no-loop", name="A line never meets itself", genre=GENRE, level=2, order=2,
           template="{a} and {b} are already on one line; joining them would close a loop, so no line "
                    "runs between them.",
           nudge="Where does the line through {a} go?")
def no_loop(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    ch = chains(puzzle, state)
    for i in cells_near(puzzle, focus):
        for d, j in puzzle.neighbour[i].items():
            if ch.root[i] == ch.root[j] and not (ch.must[i] & d) and state.cands[i] & WITH_SIDE[d] \
                    and state.cands[j] & WITH_SIDE[OPPOSITE[d]]:
                found = join_off(state, i, d, j, params={"a": puzzle.cell(i), "b": puzzle.cell(j)})
                if found:
                    yield found


Beside = dict[int, dict[int, list[tuple[int, int]]]]


def pieces_side_by_side(puzzle: NumberlinkPuzzle, ch: Chains) -> Beside:
    """Drawn pieces lying side by side away from the end numbers: root -> other root -> the
    pairs of cells (a piece here is what Chains joins, at least one of the two cells drawn)."""
    out: Beside = {}
    labels, root, must = puzzle.labels, ch.root, ch.must
    for i, _, j in puzzle.edges:
        if root[i] != root[j] and (must[i] or must[j]) and not labels[i] and not labels[j]:
            out.setdefault(root[i], {}).setdefault(root[j], []).append((i, j))
            out.setdefault(root[j], {}).setdefault(root[i], []).append((j, i))
    return out


def beside_itself(puzzle: NumberlinkPuzzle, ch: Chains, beside: Beside,
                  x: int, shape: int) -> tuple[int, ...] | None:
    """Cells of the line x would be on with `shape` that would lie beside that line without
    being next to it along the line: a neighbour of x, or two pieces it would join; None if
    there are none. End numbers may touch their own line, so they are left out."""
    nb = puzzle.neighbour[x]
    joined = [y for d, y in nb.items() if shape & d]
    roots = {ch.root[y] for y in joined}
    if len(roots) < len(joined):
        return None                     # a loop: "a line never meets itself" says so
    names = {ch.labels[y] for y in joined} - {0}
    if len(names) > 1:
        return None                     # two numbers: "different numbers never meet" says so
    for d, z in nb.items():
        if not shape & d and not puzzle.labels[z] and (ch.root[z] in roots or ch.labels[z] in names):
            return (z,)
    if len(roots) == 2:
        r1, r2 = roots
        for pair in beside.get(r1, {}).get(r2, ()):
            if x not in pair:           # x beside a piece it joins is the join itself
                return pair
    return None


@heuristic(id="numberlink.no-touch", name="A line never runs beside itself", genre=GENRE, level=2,
           order=3,
           template="A line may not touch itself: if the line went through {cell} as {shape}, it "
                    "would run beside its own stretch at {other}, so {cell} is not {shape}.",
           nudge="Could the line through {cell} touch itself?")
def no_touch(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """The notes' rule "a line must not touch itself": two cells of one line side by side
    are consecutive on it. Janko's own solutions keep this everywhere but at the end numbers
    (one 35x48 record has an end beside its own line), so ends are left out. A shape is
    ruled out when it would bring its own line beside x, or join two pieces of line that
    already lie side by side, or pieces that carry the same number."""
    ch = chains(puzzle, state)
    beside = state.derived("numberlink.beside", lambda: pieces_side_by_side(puzzle, ch))
    must, labels, cands = ch.must, puzzle.labels, state.cands
    for x in cells_near(puzzle, ch.along(focus)):     # a join far away can bring a line beside x
        m = cands[x]
        if labels[x] or not m & (m - 1) or not any(must[z] for z in puzzle.neighbour[x].values()):
            continue
        for v in range(5, len(SHAPES)):
            if not m >> v & 1:
                continue
            near = beside_itself(puzzle, ch, beside, x, SHAPES[v])
            if near is not None:
                found = Deduction.build(state, exclude={x: v}, premises=list(near), params={
                    "cell": puzzle.cell(x), "shape": GLYPH[SHAPES[v]],
                    "other": " and ".join(str(puzzle.cell(z)) for z in near)})
                if found:
                    yield found


# Inside a 2x2 block (cells top left, top right, bottom left, bottom right) a line can take
# the four inner joins top, bottom, left and right; each cell faces two of them.
BLOCK_JOINS = ((0, 1), (2, 3), (0, 2), (1, 3))
INNER_SIDES = ((E, S), (W, S), (E, N), (W, N))      # per cell: the side of its row join, of its column join
ROW_JOIN, COLUMN_JOIN = (0, 0, 1, 1), (2, 3, 2, 3)


def _fit(position: int, pattern: int) -> int:
    """Values of a cell at `position` whose inner sides are exactly those `pattern` joins."""
    row_side, column_side = INNER_SIDES[position]
    want = (row_side if pattern >> ROW_JOIN[position] & 1 else 0) | (
        column_side if pattern >> COLUMN_JOIN[position] & 1 else 0)
    return sum(1 << v for v, m in enumerate(SHAPES) if m & (row_side | column_side) == want)


BLOCK_FIT = tuple(tuple(_fit(pos, pattern) for pattern in range(16)) for pos in range(4))


@functools.lru_cache(maxsize=None)
def block_patterns(labelled: tuple[bool, bool, bool, bool]) -> tuple[int, ...]:
    """Join patterns a 2x2 block allows: no loop, and no U-turn (three joins) whose two ends,
    side by side, are both away from the end numbers."""
    out = []
    for pattern in range(16):
        count = bin(pattern).count("1")
        if count == 4:
            continue
        if count == 3:
            missing = next(k for k in range(4) if not pattern >> k & 1)
            u, v = BLOCK_JOINS[missing]
            if not (labelled[u] or labelled[v]):
                continue
        out.append(pattern)
    return tuple(out)


F0, F1, F2, F3 = BLOCK_FIT


def block_keep(ms: list[int], patterns: tuple[int, ...], allowed=None) -> list[int]:
    """The values of the four cells that fit some pattern (that `allowed` accepts, asked
    only when the pattern would keep something new)."""
    m0, m1, m2, m3 = ms
    k0 = k1 = k2 = k3 = 0
    for pattern in patterns:
        a = m0 & F0[pattern]
        if not a:
            continue
        b = m1 & F1[pattern]
        if not b:
            continue
        c = m2 & F2[pattern]
        if not c:
            continue
        d = m3 & F3[pattern]
        if not d:
            continue
        if (a & ~k0 or b & ~k1 or c & ~k2 or d & ~k3) and (allowed is None or allowed(pattern)):
            k0 |= a
            k1 |= b
            k2 |= c
            k3 |= d
    return [k0, k1, k2, k3]


@heuristic(id="numberlink.no-u-turn", name="No U-turn in a 2x2 block", genre=GENRE, level=2, order=5,
           template="Inside the 2x2 block from {a} to {b} a line may not turn back beside itself or "
                    "close a loop, so {result}.",
           nudge="Look at the 2x2 block from {a} to {b}: how can its cells be joined?")
def no_u_turn(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Three joins among the four cells of a 2x2 block form a U whose ends lie side by side
    on one line without being joined, which the no-touch rule forbids unless one end is a
    number; four joins close a loop. A shape no allowed way of joining the block fits goes."""
    from grader.explain import describe_removals
    cands, labels = state.cands, puzzle.labels
    if focus is None:
        which = range(len(puzzle.blocks))
    else:
        which = sorted({k for i in focus for k in puzzle.blocks_of[i]})
    for k in which:
        block = puzzle.blocks[k]
        ms = [cands[i] for i in block]
        if not any(m & (m - 1) for m in ms):
            continue
        keep = block_keep(ms, block_patterns(tuple(bool(labels[i]) for i in block)))
        if keep != ms:
            removals = tuple((i, ms[p] & ~keep[p]) for p, i in enumerate(block) if ms[p] & ~keep[p])
            found = Deduction.build(state, keep={i: keep[p] for p, i in enumerate(block)}, region=block,
                                    params={"a": puzzle.cell(block[0]), "b": puzzle.cell(block[3]),
                                            "result": describe_removals(puzzle, state, removals)})
            if found:
                yield found


JOIN_SIDE = (E, E, S, S)       # the side of the first cell of each block join


def pattern_fits_lines(puzzle: NumberlinkPuzzle, ch: Chains, block: tuple[int, ...], pattern: int) -> bool:
    """Whether joining the block's cells as `pattern` agrees with the lines drawn so far:
    no loop, no two numbers on one line, no two cells of one line side by side unjoined
    (end numbers excepted)."""
    root, must, chl, numbered = ch.root, ch.must, ch.labels, puzzle.labels
    parent: dict[int, int] = {}

    def find(r: int) -> int:
        while parent.get(r, r) != r:
            r = parent[r]
        return r
    for k in range(4):
        if pattern >> k & 1:
            u, v = block[BLOCK_JOINS[k][0]], block[BLOCK_JOINS[k][1]]
            if must[u] & JOIN_SIDE[k]:
                continue                # drawn already
            ru, rv = find(root[u]), find(root[v])
            if ru == rv:
                return False            # a loop
            parent[ru] = rv
    line_label: dict[int, int] = {}
    for i in block:
        if chl[i] and line_label.setdefault(find(root[i]), chl[i]) != chl[i]:
            return False                # two numbers on one line
    for k in range(4):
        if not pattern >> k & 1:
            u, v = block[BLOCK_JOINS[k][0]], block[BLOCK_JOINS[k][1]]
            if numbered[u] or numbered[v]:
                continue
            ru, rv = find(root[u]), find(root[v])
            if ru == rv or (line_label.get(ru) and line_label.get(ru) == line_label.get(rv)):
                return False            # one line side by side with itself
    return True


@heuristic(id="numberlink.block-lines", name="A 2x2 block with the lines drawn", genre=GENRE, level=2,
           order=6,
           template="Inside the 2x2 block from {a} to {b}, the ways of joining its cells that would close "
                    "a loop with the lines already drawn, join two numbers or bring a line beside itself "
                    "are ruled out, so {result}.",
           nudge="Look at the 2x2 block from {a} to {b} and the lines that reach it.")
def block_lines(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """The 2x2 block of "no U-turn" with the drawn lines: each way of joining the four cells
    must also keep different numbers apart, close no loop through the lines outside, and
    leave no two side-by-side cells of one line unjoined."""
    from grader.explain import describe_removals
    cands, labels = state.cands, puzzle.labels
    ch = chains(puzzle, state)
    near = ch.along(focus)
    which = range(len(puzzle.blocks)) if near is None else sorted({k for i in near for k in puzzle.blocks_of[i]})
    for k in which:
        block = puzzle.blocks[k]
        ms = [cands[i] for i in block]
        if not any(m & (m - 1) for m in ms):
            continue
        keep = block_keep(ms, block_patterns(tuple(bool(labels[i]) for i in block)),
                          lambda pattern: pattern_fits_lines(puzzle, ch, block, pattern))
        if keep != ms:
            removals = tuple((i, ms[p] & ~keep[p]) for p, i in enumerate(block) if ms[p] & ~keep[p])
            found = Deduction.build(state, keep={i: keep[p] for p, i in enumerate(block)}, region=block,
                                    params={"a": puzzle.cell(block[0]), "b": puzzle.cell(block[3]),
                                            "result": describe_removals(puzzle, state, removals)})
            if found:
                yield found


# --- level 3 ------------------------------------------------------------------------------

def route_blocks(puzzle: NumberlinkPuzzle, links: list[list[int]], ok: list[bool], a: int, b: int
                 ) -> tuple[set[int], set[tuple[int, int]], list[tuple[int, int]], list[int]] | None:
    """The cells and joins that lie on some route from a to b over `links` between `ok`
    cells (the biconnected blocks on the way from a to b), the joins every route uses
    (bridges) and the cells every route passes (cut cells); None when b cannot be reached."""
    if not ok[a] or not ok[b]:
        return None
    n = len(ok)
    order, low, parent = [-1] * n, [0] * n, [-1] * n
    order[a] = 0
    count = 1
    edges: list[tuple[int, int]] = []
    block_above = [-1] * n           # the block holding the tree join into each cell
    blocks: list[list[tuple[int, int]]] = []
    stack = [(a, iter(links[a]))]
    while stack:
        x, it = stack[-1]
        for y in it:
            if not ok[y] or y == parent[x]:
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
    if order[b] < 0:
        return None
    on_route: list[int] = []
    v = b
    while parent[v] >= 0:
        k = block_above[v]
        if not on_route or on_route[-1] != k:
            on_route.append(k)
        v = parent[v]
    cells: set[int] = set()
    joins: set[tuple[int, int]] = set()
    for k in on_route:
        for x, y in blocks[k]:
            cells.update((x, y))
            joins.add((min(x, y), max(x, y)))
    bridges = [blocks[k][0] for k in on_route if len(blocks[k]) == 1]
    cuts = []
    for k1, k2 in zip(on_route, on_route[1:]):
        shared = {c for e in blocks[k1] for c in e} & {c for e in blocks[k2] for c in e}
        cuts.extend(shared)
    return cells, joins, bridges, cuts


class Territory:
    """Where each pair not yet joined can still run: the cells and joins that lie on some
    route between its two ends, avoiding other lines and cells that must stay empty. A cell
    every route of a pair passes, or (when every cell is used) a cell only one pair can use,
    belongs to that pair, which shrinks the others' room; repeated until nothing changes."""

    def __init__(self, puzzle: NumberlinkPuzzle, state: State):
        ch = chains(puzzle, state)
        n = puzzle.rows * puzzle.cols
        cands = state.cands
        self.can = can = [sides_can(m) for m in cands]
        owner = [ch.label(i) for i in range(n)]
        self.open = [lab for lab in puzzle.pairs if not ch.joined(lab, puzzle)]
        used = [not m & B_EMPTY for m in cands]
        links = [[y for d, y in puzzle.neighbour[x].items() if can[x] & d and can[y] & OPPOSITE[d]]
                 for x in range(n)]
        while True:
            routes = {}
            for lab in self.open:
                a, b = puzzle.pairs[lab]
                ok = [(owner[x] == 0 or owner[x] == lab) and cands[x] > B_EMPTY for x in range(n)]
                routes[lab] = route_blocks(puzzle, links, ok, a, b)
            who: list[set[int]] = [set() for _ in range(n)]
            for lab, route in routes.items():
                for x in (route[0] if route else ()):
                    who[x].add(lab)
            changed = False
            for lab, route in routes.items():
                for x in (route[3] if route else ()):
                    if not owner[x]:
                        owner[x] = lab
                        changed = True
            for x in range(n):
                if not owner[x] and used[x] and len(who[x]) == 1:
                    owner[x] = next(iter(who[x]))
                    changed = True
            if not changed:
                break
        self.routes, self.owner = routes, owner
        for x in range(n):
            if owner[x] and not who[x] and (ch.label(x) or puzzle.labels[x]):
                who[x] = {owner[x]}
        self.who = who
        users: dict[tuple[int, int], set[int]] = {}
        for lab, route in routes.items():
            for e in (route[1] if route else ()):
                users.setdefault(e, set()).add(lab)
        self.users = users
        self.closed = {lab for lab in puzzle.pairs if lab not in routes}

    def labels(self, x: int) -> set[int]:
        return self.who[x]

    def join_users(self, x: int, y: int) -> set[int]:
        return self.users.get((min(x, y), max(x, y)), set())


def territory(puzzle: NumberlinkPuzzle, state: State) -> Territory:
    return state.derived("numberlink.territory", lambda: Territory(puzzle, state))


@heuristic(id="numberlink.out-of-reach", name="No line can use this cell", genre=GENRE, level=3, order=1,
           template="No pair can still run its line through {cell}, so it stays empty.",
           nudge="Which lines could still pass through {cell}?")
def out_of_reach(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    t = territory(puzzle, state)
    ch = chains(puzzle, state)
    for x, m in enumerate(state.cands):
        if m != B_EMPTY and not t.labels(x) and not ch.label(x) and not puzzle.labels[x]:
            yield Deduction.build(state, put={x: EMPTY}, params={"cell": puzzle.cell(x)})
            return


@heuristic(id="numberlink.unused-join", name="No line can use this join", genre=GENRE, level=3, order=2,
           template="{why}, so no line runs between {a} and {b}.",
           nudge="Which pairs could run a line between {a} and {b}?")
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
        found = join_off(state, i, d, j, region=[i, j], params={"a": puzzle.cell(i), "b": puzzle.cell(j), "why": why})
        if found:
            yield found


def joined_neighbours(puzzle: NumberlinkPuzzle, state: State, owner: list[int]) -> Iterator[Deduction]:
    """Side-by-side cells (away from the end numbers) certainly on the same pair's line are
    consecutive on it, since a line may not touch itself."""
    labels = puzzle.labels
    for i, d, j in puzzle.edges:
        lab = owner[i]
        if not lab or owner[j] != lab or labels[i] or labels[j]:
            continue
        found = join_on(state, i, d, j, params={"a": puzzle.cell(i), "b": puzzle.cell(j), "name": puzzle.name(lab)})
        if found:
            yield found


@heuristic(id="numberlink.same-line-drawn", name="Neighbours on one drawn line are joined", genre=GENRE,
           level=2, order=4,
           template="The lines drawn from both {name}s reach {a} and {b}; a line may not touch itself, "
                    "so the line runs straight from one to the other.",
           nudge="Follow both halves of the line of {name}.")
def same_line_drawn(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    yield from joined_neighbours(puzzle, state, chains(puzzle, state).labels)


@heuristic(id="numberlink.same-line", name="Neighbours on one line are joined", genre=GENRE, level=3,
           order=4,
           template="{a} and {b} both lie on the line of {name}, and a line may not touch itself, "
                    "so the line runs straight from one to the other.",
           nudge="Which line must pass through {a}, and which through {b}?")
def same_line(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """The pair's line is drawn through both cells, every route of the pair passes them, or
    (every cell being used) no other pair can reach them."""
    yield from joined_neighbours(puzzle, state, territory(puzzle, state).owner)


@heuristic(id="numberlink.bottleneck", name="A bottleneck every route must pass", genre=GENRE, level=3,
           order=3,
           template="Every route left from the {name} at {start} to the {name} at {end} passes between "
                    "{a} and {b}, so the line runs there.",
           nudge="How can the {name} at {start} still reach the other {name}?")
def bottleneck(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    t = territory(puzzle, state)
    for lab, route in t.routes.items():
        if not route:
            continue
        a, b = puzzle.pairs[lab]
        for x, y in route[2]:
            d = next(d for d, z in puzzle.neighbour[x].items() if z == y)
            found = join_on(state, x, d, y, cells=[puzzle.cell(a), puzzle.cell(b)], params={
                "name": puzzle.name(lab), "start": puzzle.cell(a), "end": puzzle.cell(b),
                "a": puzzle.cell(x), "b": puzzle.cell(y)})
            if found:
                yield found


@heuristic(id="numberlink.owned-no-touch", name="A line never runs beside itself (where it must go)",
           genre=GENRE, level=3, order=5,
           template="{near} must lie on the line of {name}; as {shape}, {cell} would be on that line too "
                    "without being next to {near} along it, so {cell} is not {shape}.",
           nudge="Which line must pass beside {cell}, and what if {cell} joined it?")
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
            found = Deduction.build(state, exclude={x: v}, premises=[near], params={
                "cell": puzzle.cell(x), "shape": GLYPH[shape], "near": puzzle.cell(near),
                "name": puzzle.name(lab)})
            if found:
                yield found


# --- level 4 ------------------------------------------------------------------------------

def fits(puzzle: NumberlinkPuzzle, state: State, ch: Chains, x: int, shape: int, skip: int) -> tuple[bool, list[int]]:
    """Whether shape at x agrees with every neighbour but `skip`, and the chains it joins."""
    joined = []
    for d, z in puzzle.neighbour[x].items():
        if z == skip:
            continue
        back = state.cands[z] & (WITH_SIDE if shape & d else WITHOUT_SIDE)[OPPOSITE[d]]
        if not back:
            return False, []
        if shape & d:
            joined.append(z)
    for d in SIDES:
        if shape & d and d not in puzzle.neighbour[x]:
            return False, []
    return True, joined


def alone(puzzle: NumberlinkPuzzle, ch: Chains, x: int, joined: list[int]) -> bool:
    """The line through x, joining the cells `joined`, neither closes a loop nor mixes numbers."""
    roots = [ch.root[z] for z in joined]
    labels = {ch.label(z) for z in joined} | ({puzzle.labels[x]} if puzzle.labels[x] else set())
    return len(roots) == len(set(roots)) and len(labels - {0}) <= 1


def touches(puzzle: NumberlinkPuzzle, ch: Chains, beside: Beside, pair: tuple[int, int], si: int, sj: int,
            joined: list[int], roots: list[int], labels: set[int]) -> bool:
    """Whether joining neighbours i and j (shapes si, sj) into one line, with the pieces
    `roots`, would bring that line beside itself away from the end numbers."""
    i, j = pair
    for x, shape in ((i, si), (j, sj)):
        if puzzle.labels[x]:
            continue
        for d, z in puzzle.neighbour[x].items():
            if not shape & d and not puzzle.labels[z] and (ch.root[z] in roots or ch.labels[z] in labels):
                return True
    for k, u in enumerate(joined):      # two cells the pair joins on, themselves side by side
        for v in joined[k + 1:]:
            if v in puzzle.neighbour[u].values() and u not in pair and v not in pair \
                    and not puzzle.labels[u] and not puzzle.labels[v]:
                return True
    for k, r1 in enumerate(roots):
        near = beside.get(r1)
        if near:
            for r2 in roots[k + 1:]:
                for pair_ in near.get(r2, ()):
                    if i not in pair_ and j not in pair_:
                        return True
    return False


@heuristic(id="numberlink.pair-product", name="Two cells together", genre=GENRE, level=4, order=1,
           template="Of the ways to fill {a} and {b} together, only {kept} fit their neighbours and "
                    "the lines already drawn, so {a} and {b} keep only those shapes.",
           nudge="Try the shapes of {a} and {b} together.")
def pair_product(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """The notes' pairwise product: combine two neighbouring undecided cells, drop the
    combinations that break a join, mix two numbers, close a loop or bring a line beside
    itself, keep what survives."""
    ch = chains(puzzle, state)
    beside = state.derived("numberlink.beside", lambda: pieces_side_by_side(puzzle, ch))
    near = set(cells_near(puzzle, focus))
    for i, d, j in puzzle.edges:
        if i not in near and j not in near:
            continue
        mi, mj = state.cands[i], state.cands[j]
        if not (mi & (mi - 1)) or not (mj & (mj - 1)):
            continue
        fit_j = []
        for vj in range(len(SHAPES)):
            if mj >> vj & 1:
                ok_j, jj = fits(puzzle, state, ch, j, SHAPES[vj], i)
                if ok_j:
                    fit_j.append((vj, SHAPES[vj], jj, alone(puzzle, ch, j, jj)))
        keep_i = keep_j = 0
        kept = 0
        label_i = [i] if puzzle.labels[i] else []
        label_j = [j] if puzzle.labels[j] else []
        for vi in range(len(SHAPES)):
            if not mi >> vi & 1:
                continue
            si = SHAPES[vi]
            ok_i, ji = fits(puzzle, state, ch, i, si, j)
            if not ok_i:
                continue
            alone_i = None
            for vj, sj, jj, alone_j in fit_j:
                if bool(si & d) != bool(sj & OPPOSITE[d]):
                    continue
                if si & d:
                    roots = [ch.root[z] for z in ji + jj]
                    labels = {ch.labels[z] for z in ji + jj + label_i + label_j} - {0}
                    if len(roots) != len(set(roots)) or len(labels) > 1:
                        continue
                    if touches(puzzle, ch, beside, (i, j), si, sj, ji + jj, roots, labels):
                        continue
                else:
                    if alone_i is None:
                        alone_i = alone(puzzle, ch, i, ji)
                    if not (alone_i and alone_j):
                        continue
                keep_i |= 1 << vi
                keep_j |= 1 << vj
                kept += 1
        if keep_i == mi and keep_j == mj:
            continue
        found = Deduction.build(state, keep={i: keep_i, j: keep_j}, params={
            "a": puzzle.cell(i), "b": puzzle.cell(j), "kept": f"{kept} combination" + ("" if kept == 1 else "s")})
        if found:
            yield found


# --- level 5 ------------------------------------------------------------------------------

def heads(puzzle: NumberlinkPuzzle, state: State) -> list[tuple[int, int, list[tuple[int, int]]]]:
    """Loose ends of the lines not yet joined: (label, cell, [(side, neighbour) it may go on])."""
    ch = chains(puzzle, state)
    out = []
    for lab, (a, b) in puzzle.pairs.items():
        if ch.joined(lab, puzzle):
            continue
        for end in (a, b):
            prev, x = None, end
            while True:      # walk the drawn line to its loose end
                nxt = [y for d, y in puzzle.neighbour[x].items() if ch.must[x] & d and y != prev]
                if not nxt:
                    break
                prev, x = x, nxt[0]
            ways = [(d, y) for d, y in puzzle.neighbour[x].items()
                    if y != prev and state.cands[x] & WITH_SIDE[d] and state.cands[y] & WITH_SIDE[OPPOSITE[d]]]
            out.append((lab, x, ways))
    return out


# Passes over the loose ends: (steps per branch, highest level in the fill). Most ends are
# settled by a chain of level-1 and level-2 steps, which is cheap; the whole-board levels are
# used only when that finds nothing. Within a pass a refuted way is taken at once; otherwise
# the first end whose ways agree on something.
HEAD_PASSES = ((200, 2), (30, 4))


def best_of_pass(found: Iterable[Deduction | None]) -> tuple[Deduction | None, list[Deduction]]:
    """The first deduction with a refuted branch, else the first one at all; and the others
    found on the way."""
    seen: list[Deduction] = []
    for d in found:
        if d is None:
            continue
        seen.append(d)
        if any(b.refuted for b in d.detail):
            break
    if not seen:
        return None, []
    best = next((d for d in seen if any(b.refuted for b in d.detail)), seen[0])
    return best, [d for d in seen if d is not best]


# Case analyses a sweep found besides the one it used, kept per puzzle and heuristic with the
# state they were made in: what was impossible there stays impossible in every later state of
# the same solve (one whose candidates are a subset), so the next call can use them before
# sweeping again.
_KEPT: "weakref.WeakKeyDictionary[NumberlinkPuzzle, dict[str, list[tuple[tuple[int, ...], Deduction]]]]" = \
    weakref.WeakKeyDictionary()
_KEPT_LOCK = threading.Lock()


def kept_deduction(puzzle: NumberlinkPuzzle, state: State, hid: str) -> Deduction | None:
    """A kept case analysis that still removes something in `state`."""
    import attrs
    with _KEPT_LOCK:
        kept = _KEPT.get(puzzle, {}).get(hid, [])
        while kept:
            made_in, d = kept.pop(0)
            if any(c & ~c0 for c, c0 in zip(state.cands, made_in)):
                kept.clear()            # not a later state of the one it was made in
                return None
            removals = tuple((v, m & state.cands[v]) for v, m in d.removals if m & state.cands[v])
            if removals:
                return attrs.evolve(d, removals=removals)
    return None


def keep_deductions(puzzle: NumberlinkPuzzle, state: State, hid: str, found: list[Deduction]) -> None:
    with _KEPT_LOCK:
        _KEPT.setdefault(puzzle, {})[hid] = [(state.cands, d) for d in found]


@heuristic(id="numberlink.head-ways", name="Try every way a line can go on", genre=GENRE, level=5, order=10,
           template="Try every way the line of {name} can leave {cell}: {outcome}.",
           nudge="Where can the line of {name} at {cell} go next?")
def head_ways(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    from grader.probing import branch_deduction
    import attrs
    options = sorted((len(ways), lab, x, ways) for lab, x, ways in heads(puzzle, state) if len(ways) >= 2)

    def tries(steps: int, level: int) -> Iterator[Deduction | None]:
        lower = REGISTRY.for_genre(GENRE, level)
        for _, lab, x, ways in options:
            assumptions = []
            for d, y in ways:
                label = f"the line goes from {puzzle.cell(x)} to {puzzle.cell(y)}"
                assumed = state.restrict(x, WITH_SIDE[d]).restrict(y, WITH_SIDE[OPPOSITE[d]])
                assumptions.append((label, assumed, (x, y)))
            found = branch_deduction(puzzle, state, assumptions, max_level=level, max_steps=steps,
                                     heuristics=lower)
            yield found and attrs.evolve(found, params={**found.params, "name": puzzle.name(lab),
                                                        "cell": puzzle.cell(x)}, cells=(puzzle.cell(x),))
    found = kept_deduction(puzzle, state, "head-ways")
    if found is not None:
        yield found
        return
    for steps, level in HEAD_PASSES:
        found, others = best_of_pass(tries(steps, level))
        if found is not None:
            keep_deductions(puzzle, state, "head-ways", others)
            yield found
            return


def near_heads(puzzle: NumberlinkPuzzle, state: State) -> list[int]:
    """Cells beside the loose ends, where a trial is most likely to decide something."""
    return sorted({y for _, _, ways in heads(puzzle, state) for _, y in ways})


# Passes of the cell trials: (steps per branch, highest level in the fill, every cell or only
# those beside a loose end, whether only a refuted branch counts); as for the loose ends,
# long fills with the local levels cost less than short ones with the whole-board levels.
TRIAL_PASSES = ((200, 2, False, False), (40, 4, False, False))


@heuristic(id="numberlink.trial-and-error", name="Trial and error", genre=GENRE, level=5, order=90,
           template=PROBE_TEMPLATE, nudge="Try a hypothesis at {cell}.")
def trial_and_error(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Try each shape of a cell, those beside a loose end first, as the generic trial does
    (grader.probing), with Numberlink's own passes."""
    near = probe_order(state, near_heads(puzzle, state))
    everywhere = probe_order(state, near + sorted(set(state.undecided()) - set(near)))
    found = kept_deduction(puzzle, state, "trial-and-error")
    if found is not None:
        yield found
        return
    for steps, level, every_cell, refuted_only in TRIAL_PASSES:
        lower = REGISTRY.for_genre(GENRE, level)
        tries = (probe_cell(puzzle, state, var, level, steps, lower) for var in (everywhere if every_cell else near))
        found, others = best_of_pass(d for d in tries if d is None or not refuted_only or any(b.refuted for b in d.detail))
        if found is not None:
            keep_deductions(puzzle, state, "trial-and-error", others)
            yield found
            return
