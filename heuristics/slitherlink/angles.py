"""Level 3: carry what is known about corners across the board (Simon Tatham's tricky tier).

For every corner of a cell (a dot where the cell has two edges) keep the set of how many of
those two edges can carry the line: {0, 1, 2}. A dot uses 0 or 2 edges, so the count at one
corner limits the count at the diagonally opposite corner of the same dot; a clue fixes the
sum of two opposite corners of its cell. Propagating these limits along chains of cells
(typically diagonals of 2s) settles edges far from where the chain started.
"""
from __future__ import annotations

import functools
from collections import deque
from itertools import compress
from operator import ne
from typing import Iterator

from grader.core.explain import describe_removals
from grader.genres.slitherlink.model import SlitherPuzzle
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.steps import Deduction, Later
from grader.kernels.loops import B_LINE, OPEN, line_span
from grader.kernels.recent import recent_of

from heuristics.slitherlink.common import GENRE
from heuristics.slitherlink.corners import phrase

FULL = 0b111


def span(lo: int, hi: int) -> int:
    """The mask of counts lo..hi."""
    return sum(1 << x for x in range(max(lo, 0), hi + 1) if x <= 2) if hi >= lo else 0


def counts(mask: int) -> list[int]:
    return [x for x in range(3) if mask >> x & 1]


@functools.lru_cache(maxsize=None)
def _filter(xs: int, ys: int, totals: tuple[int, ...]) -> int:
    """The counts in mask xs that some count in mask ys completes to one of `totals`."""
    return sum(1 << x for x in range(xs.bit_length()) if xs >> x & 1 and
               any(ys >> (t - x) & 1 for t in totals if t >= x))


def _sum_filter(xs: int, ys_values, totals: tuple[int, ...]) -> int:
    ys = ys_values if isinstance(ys_values, int) else sum(1 << y for y in ys_values)
    return _filter(xs, ys, totals)


def _pair_span(ma: int, mb: int) -> int:
    if not ma or not mb:
        return 0                        # an emptied edge: no count fits (a broken position)
    lo = (ma == B_LINE) + (mb == B_LINE)
    hi = (ma in (B_LINE, OPEN)) + (mb in (B_LINE, OPEN))
    return span(lo, hi)


# the counts a pair of edges allows, by the candidates of its two edges
PAIR_SPAN = tuple(tuple(_pair_span(ma, mb) for mb in range(4)) for ma in range(4))


def pairs_near(puzzle: SlitherPuzzle) -> tuple[tuple[int, ...], ...]:
    """For each edge, the corners whose count can depend on it: every corner at its dots and
    every corner of its cells (once per puzzle)."""
    def make() -> tuple[tuple[int, ...], ...]:
        A, g = puzzle.angles, puzzle.graph
        at_dot: dict[int, list[int]] = {}
        for i, (d, k, _) in enumerate(A.pairs):
            at_dot.setdefault(d, []).append(i)
        return tuple(tuple(sorted({i for d in g.ends[e] for i in at_dot.get(d, ())} |
                                  {i for k in puzzle.cells_of_edge[e] for i in A.of_cell[k]}))
                     for e in range(len(puzzle.ends)))
    return puzzle.shape_once("_slitherlink_pairs_near", make)


class CornerFacts:
    """The corner counts of a state after propagation, with the reason for each narrowing.

    With `base` (the facts of a state this one narrows) and the edges that changed, only the
    corners near those edges start the propagation: counts only ever shrink, so starting
    from the base's counts reaches the same end as starting afresh."""

    def __init__(self, puzzle: SlitherPuzzle, state: State, base: "CornerFacts | None" = None,
                 changed: list[int] | None = None):
        A = puzzle.angles
        # no state kept: the state keeps these facts (derived), and a cycle would leave every
        # state of a solve to the collector
        self.puzzle = puzzle
        n = len(A.pairs)
        dot_rest, cell_rest = A.dot_rest, A.cell_rest
        cands = state.cands
        self.broken = -1
        if base is None:
            X = [PAIR_SPAN[cands[a]][cands[b]] for _, _, (a, b) in A.pairs]
            self.initial = list(X)
            self.why: list[tuple[int, str] | None] = [None] * n
            todo: list[int] = list(range(n))
            # an emptied edge leaves its corners no count: broken from the start, whatever
            # order the propagation would have met them in
            self.broken = next((i for i, x in enumerate(X) if not x), -1)
        else:
            X, self.initial, self.why = list(base.X), list(base.initial), list(base.why)
            near = pairs_near(puzzle)
            todo = sorted({i for e in changed or () for i in near[e]})
            for i in todo:
                a, b = A.pairs[i][2]
                self.initial[i] = init = PAIR_SPAN[cands[a]][cands[b]]
                X[i] &= init
                if not X[i]:
                    self.broken = i
                elif X[i] == init:
                    self.why[i] = None
        queue = deque(todo)
        queued = [False] * n
        for i in todo:
            queued[i] = True

        def narrow(i: int, new: int, src: int, how: str) -> None:
            if new != X[i]:
                X[i] = new
                self.why[i] = (src, how)
                if not new:
                    self.broken = i
                if not queued[i]:
                    queued[i] = True
                    queue.append(i)

        while queue and self.broken < 0:
            i = queue.popleft()
            queued[i] = False
            d, k, pair = A.pairs[i]
            # the dot: this corner and the rest of the dot's edges use 0 or 2 in all
            j = A.at_dot[i]
            if j >= 0:
                ys = X[j]
            else:
                lo, hi = line_span(state.cands, dot_rest[i])
                ys = (1 << (hi + 1)) - (1 << lo)
            narrow(i, _filter(X[i], ys, (0, 2)), j, "dot")
            if j >= 0:
                narrow(j, _filter(X[j], X[i], (0, 2)), i, "dot")
            # the clue: this corner and the rest of the cell make the number
            clue = puzzle.clues[k]
            if clue is None:
                continue
            j = A.in_cell[i]
            if j >= 0:
                qs = X[j]
            else:
                lo, hi = line_span(state.cands, cell_rest[i])
                qs = (1 << (hi + 1)) - (1 << lo)
            narrow(i, _filter(X[i], qs, (clue,)), j, "cell")
            if j >= 0:
                narrow(j, _filter(X[j], X[i], (clue,)), i, "cell")
        self.X = X

    def chain(self, i: int, limit: int = 8) -> list[str]:
        """How corner i got its count, from the start of the chain."""
        A, p = self.puzzle.angles, self.puzzle
        out, seen = [], set()
        while i >= 0 and i not in seen and self.why[i] is not None:
            seen.add(i)
            d, k, _ = A.pairs[i]
            out.append(f"{p.cell_label(k)} has {phrase(set(counts(self.X[i])))} of its edges at "
                       f"{p.graph.vertex_names[d]}")
            i = self.why[i][0]
        out.reverse()
        if len(out) > limit:
            out = out[:2] + ["..."] + out[-(limit - 3):]
        return out


def corner_facts(puzzle: SlitherPuzzle, state: State) -> CornerFacts:
    """The corner facts of a state, updated from a recent state's when few edges changed."""
    def update(base: CornerFacts, old, changed: list[int]) -> CornerFacts | None:
        if base.broken >= 0:
            return None
        facts = CornerFacts(puzzle, state, base, changed)
        # a broken position: which corner empties first depends on where the propagation
        # started, so it is found afresh (the same corner, and reason, whatever came before)
        return None if facts.broken >= 0 else facts

    def compute() -> CornerFacts:
        return recent_of(puzzle, "corners").get(state, lambda: CornerFacts(puzzle, state), update)
    return state.derived("slitherlink.corners", compute)


def _kept_pair(ma: int, mb: int, xs: int) -> tuple[int, int]:
    """The candidates of two edges (marks ma and mb) that fit a count in xs."""
    ka = kb = 0
    for va in (0, 1):
        if not ma >> va & 1:
            continue
        for vb in (0, 1):
            if mb >> vb & 1 and xs >> (va + vb) & 1:
                ka |= 1 << va
                kb |= 1 << vb
    return ka, kb


# _kept_pair for every pair of marks and mask of counts, looked up by corner-chain's scan
PAIR_KEEP = tuple(tuple(tuple(_kept_pair(ma, mb, xs) for xs in range(8)) for mb in range(4)) for ma in range(4))


def pair_keep(state: State, pair: tuple[int, int], xs: int) -> dict[int, int]:
    """The candidates of each edge of a pair that fit a count in xs."""
    a, b = pair
    ka, kb = PAIR_KEEP[state.cands[a]][state.cands[b]][xs]
    return {a: ka, b: kb}


@heuristic(id="slitherlink.corner-chain", genre=GENRE)
def corner_chain(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    facts = corner_facts(puzzle, state)
    A = puzzle.angles
    if facts.broken >= 0:
        d, k, pair = A.pairs[facts.broken]
        chain = facts.chain(facts.broken)
        yield Deduction(((pair[0], state.cands[pair[0]]),),
                        {"chain": chain or ["nothing fits"], "start": puzzle.graph.vertex_names[d],
                         "result": f"no count fits the corner of {puzzle.cell_label(k)} at "
                                   f"{puzzle.graph.vertex_names[d]}: the position is impossible"})
        return
    cands = state.cands
    # only corners whose count propagation narrowed can tell something (a scan at C speed:
    # few of a board's corners, at most steps)
    for i in compress(range(len(A.pairs)), map(ne, facts.X, facts.initial)):
        if facts.why[i] is None:
            continue
        _, k, pair = A.pairs[i]
        a, b = pair
        if PAIR_KEEP[cands[a]][cands[b]][facts.X[i]] == (cands[a], cands[b]):
            continue                    # nothing new here (most corners, at most steps)
        keep = pair_keep(state, pair, facts.X[i])
        ded = Deduction.build(state, keep=keep)
        if ded:
            yield Deduction.build(state, keep=keep,
                                  cells=[puzzle.cell(k)] if puzzle.square else [],
                                  params=Later(_chain_words, puzzle, state, i, ded.removals))
            return


def _chain_words(puzzle: SlitherPuzzle, state: State, i: int, removals) -> dict:
    """The chain that narrowed corner i, from facts worked out afresh: an update reaches the
    same counts, but by a path that depends on the state it started from, so its chain would
    depend on what the cache held."""
    facts = CornerFacts(puzzle, state)
    root = puzzle.angles.pairs[_root(facts, i)][0]
    return {"chain": facts.chain(i), "start": puzzle.graph.vertex_names[root],
            "result": describe_removals(puzzle, state, removals)}


def _root(facts: CornerFacts, i: int) -> int:
    seen = set()
    while facts.why[i] is not None and facts.why[i][0] >= 0 and i not in seen:
        seen.add(i)
        i = facts.why[i][0]
    return i
