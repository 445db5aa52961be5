"""Level 3: parity. Every line that enters an area and does not end in it leaves it again, so
the lines crossing the border of any area number as many, odd or even, as the end numbers
inside it (each end number has one line, every other cell two or none)."""
from __future__ import annotations

from typing import Iterator

from grader.genres.numberlink.model import NumberlinkPuzzle
from grader.kernels.cell_shapes import OPPOSITE, SIDES, chains
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.steps import Deduction

from heuristics.numberlink.common import GENRE, join_off, join_on


def join_states(puzzle: NumberlinkPuzzle, state: State) -> tuple[list[int], list[list[int]]]:
    """Per cell, the joins certainly drawn at it, and its neighbours over joins not yet
    settled either way."""
    ch = chains(puzzle, state)
    can, must, nb = ch.can, ch.must, puzzle.neighbour
    drawn = [0] * len(can)
    open_: list[list[int]] = [[] for _ in can]
    for x in range(len(can)):
        for d, y in nb[x].items():
            od = OPPOSITE[d]
            if must[x] & d or must[y] & od:
                drawn[x] += 1
            elif can[x] & d and can[y] & od:
                open_[x].append(y)
    return drawn, open_


def parity_cuts(puzzle: NumberlinkPuzzle, state: State) -> Iterator[tuple[int, int, list[int], int, int]]:
    """For each join not yet settled whose area on one side has no other unsettled way out (a
    bridge among the unsettled joins), the smaller side, when it has two cells or more (one
    cell alone is its shape's business): (inner cell, outer cell, the area, end numbers in it,
    lines drawn across its border). A depth-first search over the unsettled joins finds the
    bridges; one side of a bridge is the subtree below it, the other the rest of its part."""
    drawn, open_ = join_states(puzzle, state)
    must, nb = chains(puzzle, state).must, puzzle.neighbour
    n = len(drawn)
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
