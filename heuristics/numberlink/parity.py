"""Level 3: parity. Every line that enters an area and does not end in it leaves it again, so
the lines crossing the border of any area number as many, odd or even, as the end numbers
inside it (each end number has one line, every other cell two or none)."""
from __future__ import annotations

from typing import Iterator

from grader.genres.numberlink.model import NumberlinkPuzzle
from grader.kernels.cell_shapes import OPPOSITE, SIDES, Chains, chains, side_steps
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.steps import Deduction
from grader.kernels.recent import recent_of

from heuristics.numberlink.common import GENRE, join_off, join_on


def open_joins(puzzle: NumberlinkPuzzle, state: State) -> list[tuple[int, ...]]:
    """Per cell, its neighbours over joins not yet settled either way, in side order. Parity
    asks for the whole board at every step of a trial's fill, and a step settles joins at a
    few cells only: so the answer is updated from a recent state's, at the cells that changed
    and their neighbours (a join reads nothing but its two cells)."""
    def update(old: list[tuple[int, ...]], _, changed: list[int]) -> list[tuple[int, ...]]:
        ch, around, out = chains(puzzle, state), puzzle.around, old[:]
        for x in {y for c in changed for y in around[c]}:
            out[x] = open_at(ch, steps[x], x)
        return out

    def fresh() -> list[tuple[int, ...]]:
        ch = chains(puzzle, state)
        return [open_at(ch, steps[x], x) for x in range(len(state.cands))]
    steps = side_steps(puzzle)
    return state.derived("numberlink.open-joins",
                         lambda: recent_of(puzzle, "numberlink.open-joins").get(state, fresh, update))


def open_at(ch: Chains, steps: tuple[tuple[int, int, int], ...], x: int) -> tuple[int, ...]:
    """The neighbours of x over joins neither cell is sure of, that both cells may use."""
    can, must = ch.can, ch.must
    cx, mx = can[x], must[x]
    return tuple([y for d, y, e in steps if cx & d and can[y] & e and not (mx & d or must[y] & e)])


def parity_cuts(puzzle: NumberlinkPuzzle, state: State) -> Iterator[tuple[int, int, list[int], int, int]]:
    """For each join not yet settled whose area on one side has no other unsettled way out (a
    bridge among the unsettled joins), the smaller side, when it has two cells or more (one
    cell alone is its shape's business): (inner cell, outer cell, the area, end numbers in it,
    lines drawn across its border). A depth-first search over the unsettled joins finds the
    bridges; one side of a bridge is the subtree below it, the other the rest of its part."""
    open_ = open_joins(puzzle, state)
    must, nb = chains(puzzle, state).must, puzzle.neighbour
    n = len(open_)
    ends = [1 if lab else 0 for lab in puzzle.labels]
    order, low, parent, size = [-1] * n, [0] * n, [-1] * n, [0] * n
    preorder: list[int] = []
    for root in range(n):
        if order[root] >= 0 or not open_[root]:
            continue
        first = len(preorder)
        order[root] = low[root] = first
        preorder.append(root)
        bridges = []
        stack = [(root, iter(open_[root]))]
        while stack:
            x, it = stack[-1]
            for y in it:
                if order[y] < 0:
                    order[y] = low[y] = len(preorder)
                    preorder.append(y)
                    parent[y] = x
                    stack.append((y, iter(open_[y])))
                    break
                if y != parent[x] and order[y] < low[x]:
                    low[x] = order[y]
            else:
                stack.pop()
                size[x] += 1
                p = parent[x]
                if p >= 0:
                    size[p] += size[x]
                    if low[x] < low[p]:
                        low[p] = low[x]
                    if low[x] > order[p]:
                        bridges.append((x, p))
        part = preorder[first:]
        for x, p in bridges:
            below = preorder[order[x]:order[x] + size[x]]
            if 2 * len(below) <= len(part):
                area, inner, outer = below, x, p
            else:
                area, inner, outer = sorted(set(part) - set(below)), p, x
            if len(area) < 2:
                continue
            inside = set(area)
            out = sum(1 for z in area for d, y in nb[z].items()
                      if y not in inside and (must[z] & d or must[y] & OPPOSITE[d]))
            yield inner, outer, sorted(area), sum(ends[z] for z in area), out


@heuristic(id="numberlink.parity", genre=GENRE)
def parity(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for x, y, area, ends, out in parity_cuts(puzzle, state):
        d = next(d for d in SIDES if puzzle.neighbour[x].get(d) == y)
        crossing = (ends + out) & 1
        params = {"a": puzzle.cell(x), "b": puzzle.cell(y),
                  "area": f"The {len(area)} cells" if len(area) > 1 else "The cell",
                  "ends": count(ends, "end number"), "lines": count(out, "drawn line"),
                  "cross": "crosses" if out <= 1 else "cross",
                  "parity": "odd" if crossing else "even",
                  "result": "the line crosses there" if crossing else "no line crosses there"}
        found = (join_on if crossing else join_off)(state, x, d, y, region=area, params=params)
        if found:
            yield found


def count(k: int, thing: str) -> str:
    return f"no {thing}" if k == 0 else f"{k} {thing}" + ("" if k == 1 else "s")
