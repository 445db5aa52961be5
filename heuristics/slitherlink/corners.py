"""Level 2 on every graph: a cell's two edges at one of its corners.

At a dot, the loop uses 0 or 2 edges; around a clue it uses exactly the number. Together they
limit how many of the cell's two edges at that dot carry the line (none, one or both); that
count then settles the cell's other edges, the dot's other edges, or the pair itself. This is
the "at most one / at least one" reasoning of Simon Tatham's normal tier.
"""
from __future__ import annotations

import operator
from typing import Callable, Iterator

from grader.core.explain import describe_removals
from grader.genres.slitherlink.model import SlitherPuzzle
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.steps import Deduction
from grader.kernels.loops import B_LINE, CROSS, LINE, OPEN
from grader.kernels.tally import tally

from heuristics.slitherlink.common import GENRE, cells_near, grown_focus


def pair_options(puzzle: SlitherPuzzle, state: State, k: int, d: int, pair: tuple[int, int],
                 rest, others) -> set[int]:
    """How many of `pair` (cell k's two edges at dot d) can carry the line; rest: the cell's
    other edges, others: the dot's other edges."""
    n = puzzle.clues[k]
    lx, ox = tally(state.cands, pair, B_LINE, OPEN)
    lr, orr = tally(state.cands, rest, B_LINE, OPEN)
    ly, oy = tally(state.cands, others, B_LINE, OPEN)
    out = set()
    for x in range(lx, lx + len(ox) + 1):
        if not (n - lr - len(orr) <= x <= n - lr):
            continue
        if any(0 <= t - x and ly <= t - x <= ly + len(oy) for t in (0, 2)):
            out.add(x)
    return out


def forced(puzzle: SlitherPuzzle, state: State, k: int, d: int, pair: tuple[int, int], xs: set[int],
           rest, others) -> dict[int, int]:
    """What the possible pair counts `xs` force on the pair, the cell and the dot."""
    put: dict[int, int] = {}
    n = puzzle.clues[k]

    def settle(edges, lo: int, hi: int) -> None:
        lines, open_ = tally(state.cands, edges, B_LINE, OPEN)
        if open_ and hi == lines:
            put.update({e: CROSS for e in open_})
        elif open_ and lo == lines + len(open_):
            put.update({e: LINE for e in open_})

    settle(pair, min(xs), max(xs))
    settle(rest, n - max(xs), n - min(xs))
    ly, oy = tally(state.cands, others, B_LINE, OPEN)
    ys = [t - x for x in xs for t in (0, 2) if ly <= t - x <= ly + len(oy)]
    if ys:
        settle(others, min(ys), max(ys))
    return put


def phrase(xs: set[int]) -> str:
    words = {0: "neither", 1: "exactly one", 2: "both"}
    if xs == {0, 1}:
        return "at most one"
    if xs == {1, 2}:
        return "at least one"
    if xs == {0, 2}:
        return "both or neither"
    return " or ".join(words[x] for x in sorted(xs))


@heuristic(id="slitherlink.corner-pair", genre=GENRE)
def corner_pair(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    g = puzzle.graph
    near = grown_focus(puzzle, focus)
    A = puzzle.angles
    forces = corner_forces(puzzle, state)
    cands = state.cands
    for k in cells_near(puzzle, near):
        if OPEN not in map(cands.__getitem__, puzzle.cells[k]):
            continue                    # (every edge of the cell decided)
        for i in A.of_cell[k]:
            xs, put = forces(i)
            if not put:
                continue
            ded = Deduction.build(state, put=put)
            if ded:
                d, _, pair = A.pairs[i]
                yield Deduction.build(state, put=put, cells=[puzzle.cell(k)] if puzzle.square else [],
                                      params={"vertex": g.vertex_names[d], "n": puzzle.clues[k],
                                              "cell": puzzle.cell_label(k), "options": phrase(xs),
                                              "pair": [puzzle.edge_label(e) for e in pair],
                                              "result": describe_removals(puzzle, state, ded.removals)})


MAX_REMEMBERED = 50_000       # corner answers kept per puzzle (trials ask the same ones again)


def corner_forces(puzzle: SlitherPuzzle, state: State) -> Callable[[int], tuple[set[int], dict[int, int]]]:
    """For a corner i, its possible counts in this state (see pair_options) and what they
    force (see `forced`; nothing when every count or none is possible), remembered per corner
    and the marks of its cell's and its dot's edges (the memo and the getters of those marks
    fetched once per state: a look asks for dozens of corners)."""
    memo = puzzle.memo("_slitherlink_corner_forces", MAX_REMEMBERED)
    marks = _corner_marks(puzzle)
    cands = state.cands

    def forces(i: int) -> tuple[set[int], dict[int, int]]:
        key = (i, marks[i](cands))
        found = memo.get(key)
        if found is None:
            d, k, pair = puzzle.angles.pairs[i]
            rest, others = puzzle.angles.cell_rest[i], puzzle.angles.dot_rest[i]
            xs = pair_options(puzzle, state, k, d, pair, rest, others)
            put = forced(puzzle, state, k, d, pair, xs, rest, others) if xs and len(xs) < 3 else {}
            found = memo[key] = (xs, put)
        return found
    return forces


def _corner_marks(puzzle: SlitherPuzzle) -> tuple:
    """For each corner, a getter of the marks its answer depends on (once per puzzle)."""
    A = puzzle.angles
    return puzzle.shape_once("_slitherlink_corner_marks", lambda: tuple(
        operator.itemgetter(*pair, *A.cell_rest[i], *A.dot_rest[i]) for i, (_, _, pair) in enumerate(A.pairs)))
