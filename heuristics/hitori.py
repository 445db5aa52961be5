"""Hitori techniques, by level (spec/heuristics-catalogue.txt, HITORI).

Connectivity (the unshaded cells form one area) comes from grader.kernels.connectivity.
"""
from __future__ import annotations

from typing import Iterable, Iterator, Sequence

from grader.genres.hitori.model import B_BLACK, B_WHITE, BLACK, FREE, NO_NUMBER, WHITE, HitoriPuzzle
from grader.core.registry import REGISTRY, heuristic
from grader.core.model import State
from grader.core.probing import register_nested, register_probing, register_last_resort
from grader.core.steps import Deduction
from grader.kernels import connectivity as cn

GENRE = "hitori"


def near(puzzle: HitoriPuzzle, focus: frozenset[int] | None, radius: int = 1) -> Iterable[int]:
    if focus is None:
        return range(len(puzzle.numbers))
    return sorted(puzzle.graph.around(focus, radius))


# --- level 1 ------------------------------------------------------------------------------

@heuristic(id="hitori.beside-shaded", genre=GENRE)
def beside_shaded(puzzle: HitoriPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    cells = None if focus is None else near(puzzle, focus)
    for b, free in cn.shaded_neighbours(puzzle.graph, state.cands, B_BLACK, cells):
        yield Deduction.build(state, put={f: WHITE for f in free}, premises=[b],
                              params={"cell": puzzle.cell(b), "cells": puzzle.graph.cells(free)})


@heuristic(id="hitori.lone-number", genre=GENRE)
def lone_number(puzzle: HitoriPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for i, twins in enumerate(puzzle.twins):
        if not twins and state.cands[i] == FREE:
            n = puzzle.numbers[i]
            yield Deduction.build(state, put={i: WHITE},
                                  params={"n": n if n != NO_NUMBER else "blank", "cell": puzzle.cell(i)})


def touched(found: Sequence[tuple[int, int, int]], focus: frozenset[int] | None) -> list[tuple[int, int, int]]:
    """The runs with a cell in focus (a run none of whose cells changed finds what it found
    before: nothing)."""
    return found if focus is None else [t for t in found if t[0] in focus or t[1] in focus or t[2] in focus]


@heuristic(id="hitori.triple", genre=GENRE)
def triple(puzzle: HitoriPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    nums = puzzle.numbers
    for a, b, c in touched(puzzle.equal_ends[0], focus):
        yield Deduction.build(state, put={a: BLACK, b: WHITE, c: BLACK},
                              params={"first": puzzle.cell(a), "middle": puzzle.cell(b),
                                      "last": puzzle.cell(c), "n": nums[a]})


@heuristic(id="hitori.sandwich", genre=GENRE)
def sandwich(puzzle: HitoriPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    nums = puzzle.numbers
    for a, b, c in touched(puzzle.equal_ends[1], focus):
        if state.cands[b] == FREE:
            yield Deduction.build(state, put={b: WHITE}, params={
                "first": puzzle.cell(a), "middle": puzzle.cell(b), "last": puzzle.cell(c), "n": nums[a]})


# --- level 2 ------------------------------------------------------------------------------

@heuristic(id="hitori.number-taken", genre=GENRE)
def number_taken(puzzle: HitoriPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    cands = state.cands
    cells = range(len(cands)) if focus is None else sorted(focus)
    for i in cells:
        if cands[i] == B_WHITE:
            rest = [t for t in puzzle.twins[i] if cands[t] != B_BLACK]
            if rest:
                yield Deduction.build(state, put={t: BLACK for t in rest}, premises=[i],
                                      params={"n": puzzle.numbers[i], "cell": puzzle.cell(i),
                                              "cells": puzzle.graph.cells(rest)})


@heuristic(id="hitori.pair-in-line", genre=GENRE)
def pair_in_line(puzzle: HitoriPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    nums, cands = puzzle.numbers, state.cands
    for line in puzzle.lines:
        for a, b in zip(line, line[1:]):
            if nums[a] == NO_NUMBER or nums[a] != nums[b]:
                continue
            rest = [i for i in line if i not in (a, b) and nums[i] == nums[a] and cands[i] != B_BLACK]
            if rest:
                yield Deduction.build(state, put={i: BLACK for i in rest}, params={
                    "first": puzzle.cell(a), "second": puzzle.cell(b), "n": nums[a],
                    "cells": puzzle.graph.cells(rest)})


def exits(puzzle: HitoriPuzzle, state: State, single: bool) -> Iterator[Deduction]:
    """Unshaded groups (single cells, or larger ones) with one way left to the others."""
    g = puzzle.graph
    whites = cn.side(g, state, B_WHITE)
    if len(whites.decided_parts) < 2:
        return
    for k, part in enumerate(whites.decided_parts.cells):
        if (len(part) == 1) != single:
            continue
        out = whites.liberties(k)
        if len(out) == 1:
            yield Deduction.build(state, put={out[0]: WHITE}, premises=part, params={
                "cell": g.cell(part[0]) if single else f"group {', '.join(map(str, g.cells(part)))}",
                "exit": g.cell(out[0])})


@heuristic(id="hitori.last-exit", genre=GENRE)
def last_exit(puzzle: HitoriPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    yield from exits(puzzle, state, single=True)


# --- level 3 ------------------------------------------------------------------------------

def shading_chain(puzzle: HitoriPuzzle, state: State, start: int, value: int, limit: int = 40
                  ) -> tuple[str, list[int]] | None:
    """Follow the forced consequences of giving `start` the value: shaded cells make their
    neighbours unshaded, unshaded cells make their twins shaded. Returns (what breaks, the
    chain of cells) when this leads to a broken rule within `limit` cells, else None."""
    cands = list(state.cands)
    g = puzzle.graph
    order: list[int] = []
    queue = [(start, value)]
    while queue:
        i, v = queue.pop(0)
        want = 1 << v
        if cands[i] == want:
            continue
        if not cands[i] & want:
            return f"{g.cell(i)} would have to be both shaded and unshaded", order + [i]
        cands[i] = want
        order.append(i)
        if len(order) > limit:
            return None
        if v == BLACK:
            queue.extend((n, WHITE) for n in g.neighbours[i])
            for n in g.neighbours[i]:     # a neighbour walled in by shaded cells
                # ... is cut off only when a cell beyond its neighbours exists: that cell
                # touches one of them, so it is unshaded too (on a 1x3 board the middle
                # cell may be the only unshaded one).
                if cands[n] & B_WHITE and all(cands[m] == B_BLACK for m in g.neighbours[n]) \
                        and len(cands) > 1 + len(g.neighbours[n]):
                    return f"{g.cell(n)} would be walled in", order
        else:
            queue.extend((t, BLACK) for t in puzzle.twins[i])
    return None


@heuristic(id="hitori.short-chain", genre=GENRE)
def short_chain(puzzle: HitoriPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    cands = state.cands
    cells = [i for i in near(puzzle, focus, 2) if cands[i] == FREE]
    for limit in (4, 12):
        for i in cells:
            for value in (BLACK, WHITE):
                found = shading_chain(puzzle, state, i, value, limit)
                if found:
                    broken, chain = found
                    other = WHITE if value == BLACK else BLACK
                    names = ("is unshaded", "is shaded")
                    yield Deduction.build(state, put={i: other}, region=chain, params={
                        "cell": puzzle.cell(i), "assumed": names[value], "result": names[other],
                        "chain": ", ".join(f"{puzzle.cell(c)}" for c in chain[1:]) or "nothing else",
                        "broken": broken})
                    return


@heuristic(id="hitori.group-exit", genre=GENRE)
def group_exit(puzzle: HitoriPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    yield from exits(puzzle, state, single=False)


# --- level 4 ------------------------------------------------------------------------------

@heuristic(id="hitori.keep-connected", genre=GENRE)
def keep_connected(puzzle: HitoriPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    whites = cn.side(puzzle.graph, state, B_WHITE)
    for cell, (a, b) in sorted(whites.splits.items()):
        if state.cands[cell] == FREE:
            yield Deduction.build(state, put={cell: WHITE}, premises=[a, b], params={
                "cell": puzzle.cell(cell), "a": puzzle.cell(a), "b": puzzle.cell(b)})


# --- chains of consequences: a pocket closed off (level 3), the board cut (level 4) ----------

# How many cells a what-if may settle, tried in turn so that the shortest chain is told.
CHAIN_LIMITS = (8, 20, 40)
# Rounds of "an unshaded group with one way out takes it" between runs of the chain.
GROUP_ROUNDS = 3


def consequences(puzzle: HitoriPuzzle, state: State, cands: list[int], start: int, value: int, limit: int
                 ) -> tuple[list[tuple[int, int]], dict[int, tuple[int, ...]], str | None, list[int]]:
    chain: list[tuple[int, int]] = []
    cause: dict[int, tuple[int, ...]] = {}
    broken, at = follow(puzzle, cands, [(start, value, ())], limit, chain, cause, len(unshaded(state)))
    return chain, cause, broken, at


def follow(puzzle: HitoriPuzzle, cands: list[int], queue: list[tuple[int, int, tuple[int, ...]]],
           limit: int, chain: list[tuple[int, int]], cause: dict[int, tuple[int, ...]], whites: int
           ) -> tuple[str | None, list[int]]:
    """Follow the forced consequences of giving `start` the value, in `cands` (changed in
    place): a shaded cell's neighbours are unshaded, an unshaded number's twins in its row and
    column are shaded, and an unshaded cell left with one neighbour that can stay unshaded
    keeps that one unshaded too (when some other cell is unshaded). Returns the chain
    [(cell, value)] in order, the chain cells each one followed from, what broke (or None)
    and the cells the break involves; stops after `limit` cells.
    follow: the same from a queue of (cell, value, the chain cells it follows from), adding to
    `chain` and `cause` (`whites`: how many cells are unshaded in `cands`); returns what broke
    (or None) and the cells the break involves."""
    g = puzzle.graph
    nbrs, twins = g.neighbours, puzzle.twins
    head = 0
    while head < len(queue):
        i, v, why = queue[head]
        head += 1
        want = 1 << v
        if cands[i] == want:
            continue
        if not cands[i] & want:           # i already has the other value
            if len(why) == 1 and v == BLACK and why[0] in twins[i]:
                return f"the {puzzle.numbers[i]}s at {g.cell(i)} and {g.cell(why[0])} would both be unshaded", \
                    [why[0], i]
            if len(why) == 1 and v == WHITE and why[0] in nbrs[i]:
                return f"the shaded {g.cell(i)} and {g.cell(why[0])} would touch", [why[0], i]
            return f"{g.cell(i)} would have to be both shaded and unshaded", [*why, i]
        cands[i] = want
        chain.append((i, v))
        cause[i] = why
        whites += v == WHITE
        if len(chain) >= limit:
            break
        if v == BLACK:
            queue.extend((n, WHITE, (i,)) for n in nbrs[i])
            watch = [n for n in nbrs[i] if cands[n] == B_WHITE]
        else:
            queue.extend((t, BLACK, (i,)) for t in twins[i])
            watch = [i]
        for w in watch:           # an unshaded cell with one way out left
            out = [n for n in nbrs[w] if cands[n] & B_WHITE]
            if len(out) == 1 and cands[out[0]] == FREE and whites > 1:
                queue.append((out[0], WHITE, tuple(j for j in (w, *nbrs[w]) if j in cause)))
    return None, []


def group_exits(puzzle: HitoriPuzzle, cands: list[int], cause: dict[int, tuple[int, ...]], whites: int
                ) -> list[tuple[int, int, tuple[int, ...]]]:
    """Unshaded groups beside the chain's shaded cells that it has left with one way out
    (while other unshaded cells exist): that cell is unshaded, following from the chain's
    shaded cells around the group. A group's walk stops at its second way out."""
    nbrs = puzzle.graph.neighbours
    seen: set[int] = set()
    out = []
    for r in [i for i in cause if cands[i] == B_BLACK]:
        for w in nbrs[r]:
            if cands[w] != B_WHITE or w in seen:
                continue
            group, libs, walls, stack = {w}, set(), set(), [w]
            while stack and len(libs) < 2:
                i = stack.pop()
                for n in nbrs[i]:
                    m = cands[n]
                    if m == B_WHITE:
                        if n not in group:
                            group.add(n)
                            stack.append(n)
                    elif m == FREE:
                        libs.add(n)
                    elif n in cause:
                        walls.add(n)
            seen |= group
            if len(libs) == 1 and not stack and len(group) < whites:
                out.append((libs.pop(), WHITE, tuple(sorted(walls))))
    return out


def unshaded(state: State) -> list[int]:
    """The cells decided unshaded (once per state)."""
    return state.derived("hitori.unshaded", lambda: [i for i, m in enumerate(state.cands) if m == B_WHITE])


def needed(chain: list[tuple[int, int]], cause: dict[int, tuple[int, ...]], cells: Iterable[int]
           ) -> list[tuple[int, int]]:
    """The part of the chain that the given cells follow from, in the chain's order."""
    keep: set[int] = set()
    todo = [c for c in cells if c in cause]
    while todo:
        c = todo.pop()
        if c not in keep:
            keep.add(c)
            todo.extend(cause[c])
    return [(i, v) for i, v in chain if i in keep]


def shaded_rings(puzzle: HitoriPuzzle, state: State) -> list[int]:
    """For each shaded cell, its group of shaded cells touching corner to corner, the edge of
    the board counting as one more member (-1 for a cell not shaded; once per state)."""
    def compute() -> list[int]:
        n = len(state.cands)
        parent = list(range(n + 1))            # n: the edge

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x
        diag, edge = puzzle.graph.diagonal_neighbours, puzzle.graph.on_border
        cands = state.cands
        for i in range(n):
            if cands[i] == B_BLACK:
                for j in ((n,) if edge[i] else ()) + diag[i]:
                    if j == n or cands[j] == B_BLACK:
                        parent[find(i)] = find(j)
        return [find(i) if cands[i] == B_BLACK else -1 for i in range(n)] + [find(n)]
    return state.derived("hitori.shaded-rings", compute)


def closes_ring(puzzle: HitoriPuzzle, state: State, shaded: Sequence[int]) -> bool:
    """Whether newly shaded cells close a ring of shaded cells (touching corner to corner, or
    the edge of the board): the unshaded cells can only be cut apart by a new ring."""
    base = shaded_rings(puzzle, state)
    diag, edge = puzzle.graph.diagonal_neighbours, puzzle.graph.on_border
    n = len(base) - 1
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent.get(x, x) != x:
            x = parent[x]
        return x
    new = set()
    for r in shaded:
        node = n + 1 + r                      # the new cell's own node
        touch = [base[n]] if edge[r] else []  # the edge's group
        for d in diag[r]:
            if base[d] >= 0:
                touch.append(base[d])
            elif d in new:
                touch.append(n + 1 + d)
        new.add(r)
        for t in touch:
            a, b = find(t), find(node)
            if a == b:
                return True
            parent[b] = a
    return False


def cut_off(puzzle: HitoriPuzzle, state: State, chain: list[tuple[int, int]], most: int | None = None
            ) -> list[int] | None:
    """A piece of the cells that may be unshaded, holding an unshaded cell, that the cells the
    chain shades close off from unshaded cells elsewhere, or None. With `most`, only a piece of
    at most that many cells (the floods from around the new shaded cells give up once the
    smallest piece is larger)."""
    g = puzzle.graph
    removed = {i for i, v in chain if v == BLACK}
    if not removed or not closes_ring(puzzle, state, [i for i, v in chain if v == BLACK]):
        return None
    passable = state.derived("hitori.may-be-unshaded", lambda: [bool(m & B_WHITE) for m in state.cands])
    marked = set(unshaded(state))
    marked.update(i for i, v in chain if v == WHITE)
    seeds = [n for r in sorted(removed) for n in g.neighbours[r] if passable[n] and n not in removed]
    for piece in cn.pieces_cut_off(g, passable, removed, seeds):
        if most is not None and len(piece) > most:
            return None
        inside = sum(1 for i in piece if i in marked)
        if inside and inside < len(marked):
            return sorted(piece)
    return None


def wall_of(puzzle: HitoriPuzzle, chain: list[tuple[int, int]], piece: Sequence[int]) -> list[int]:
    """The cells the chain shades beside a piece."""
    inner = set(piece)
    return [i for i, v in chain if v == BLACK and any(n in inner for n in puzzle.graph.neighbours[i])]


def chain_refutation(puzzle: HitoriPuzzle, state: State, start: int, value: int, limit: int
                     ) -> tuple[list[tuple[int, int]], str, set[int]] | None:
    """The part of the chain that giving `start` the value sets off that breaks a rule
    (touching shaded cells, a number left twice, or the unshaded area cut apart), what
    breaks, and the cells of the chain that are a group's only way out; or None."""
    cands = list(state.cands)
    exits: set[int] = set()
    chain, cause, broken, at = consequences(puzzle, state, cands, start, value, limit)
    for _ in range(GROUP_ROUNDS):
        if broken:
            return needed(chain, cause, at), broken, exits
        piece = cut_off(puzzle, state, chain)
        if piece or len(chain) >= limit:
            break
        whites = len(unshaded(state)) + sum(1 for _, v in chain if v == WHITE)
        more = group_exits(puzzle, cands, cause, whites)
        if not more:
            break
        exits.update(c for c, _, _ in more if c not in cause)
        broken, at = follow(puzzle, cands, more, limit, chain, cause, whites)
    else:
        if broken:
            return needed(chain, cause, at), broken, exits
        piece = cut_off(puzzle, state, chain)
    if piece:
        inner = set(piece)
        marked = unshaded(state)
        whites = [i for i in marked if i not in inner] + [i for i, v in chain if v == WHITE and i not in inner]
        a = min(i for i in piece if cands[i] == B_WHITE)
        wall = wall_of(puzzle, chain, piece)
        return needed(chain, cause, wall), \
            f"the shaded cells would cut {puzzle.cell(a)} off from {puzzle.cell(min(whites))}", exits
    return None


def chain_phrase(puzzle: HitoriPuzzle, chain: list[tuple[int, int]], start: int,
                 exits: set[int] = frozenset()) -> str:
    names = ("unshaded", "shaded")
    return ", ".join(f"{puzzle.cell(i)} {names[v]}" + (" (an unshaded group's only way out)" if i in exits else "")
                     for i, v in chain if i != start) or "nothing else"


POCKET_CHAIN = 12      # cells a chain may settle
POCKET_SIZE = 8        # cells the closed-off pocket may have


@heuristic(id="hitori.pocket-chain", genre=GENRE)
def pocket_chain(puzzle: HitoriPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Around what changed: a chain of at most POCKET_CHAIN cells (no group exits) whose shaded
    cells close off a pocket of at most POCKET_SIZE cells with an unshaded cell in it: a
    corner or a stretch of the edge walled off, seen without looking across the board."""
    cands = state.cands
    cells = [i for i in near(puzzle, focus, 2) if cands[i] == FREE]
    names = ("is unshaded", "is shaded")
    for limit in (6, POCKET_CHAIN):
        for i in cells:
            for value in (BLACK, WHITE):
                after = list(cands)
                chain, cause, broken, _ = consequences(puzzle, state, after, i, value, limit)
                if broken:
                    continue            # the level-3 short chain's case, or the level-4 one's
                pocket = cut_off(puzzle, state, chain, POCKET_SIZE)
                if pocket:
                    other = WHITE if value == BLACK else BLACK
                    chain = needed(chain, cause, wall_of(puzzle, chain, pocket))
                    yield Deduction.build(state, put={i: other}, region=[c for c, _ in chain] + pocket, params={
                        "cell": puzzle.cell(i), "assumed": names[value], "result": names[other],
                        "chain": chain_phrase(puzzle, chain, i), "pocket": puzzle.graph.cells(pocket)})
                    return


@heuristic(id="hitori.chain-cuts-off", genre=GENRE)
def chain_cuts_off(puzzle: HitoriPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Whole board: the cut may close off cells anywhere, so every undecided cell is tried
    (focus does not narrow it), shortest chains first."""
    cands = state.cands
    cells = [i for i in range(len(cands)) if cands[i] == FREE]
    names = ("is unshaded", "is shaded")
    for limit in CHAIN_LIMITS:
        for i in cells:
            for value in (BLACK, WHITE):
                found = chain_refutation(puzzle, state, i, value, limit)
                if found:
                    chain, broken, exits = found
                    other = WHITE if value == BLACK else BLACK
                    yield Deduction.build(state, put={i: other}, region=[c for c, _ in chain], params={
                        "cell": puzzle.cell(i), "assumed": names[value], "result": names[other],
                        "chain": chain_phrase(puzzle, chain, i, exits), "broken": broken})
                    return


# --- level 5 ------------------------------------------------------------------------------

trial_and_error = register_probing(GENRE, max_level=3)
deep_trial = register_probing(GENRE, id="hitori.deep-trial", max_level=4)
nested_trial = register_nested(GENRE, lambda: REGISTRY.for_genre(GENRE, 4) + [deep_trial])

register_last_resort(GENRE)      # the deepening nested trial, unless registered above
