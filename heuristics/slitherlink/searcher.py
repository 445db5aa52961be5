"""Level 4: the general pattern searcher the catalogue asks for, made sound.

A window is two clued cells that share a dot. Every way to draw the window's open edges is
tried against what is certain inside it: both clues exactly, and at every dot of the window
0 or 2 lines counting what the edges outside the window still allow. An edge that takes the
same value in every surviving way is settled. Only the rules are used, so whatever it finds
is sound; it finds the classic patterns (and their rotations) without listing them.
"""
from __future__ import annotations

import functools
import operator
from typing import Callable, Iterator

import attrs

from grader.core.explain import describe_removals
from grader.genres.slitherlink.model import SlitherPuzzle
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.steps import Deduction
from grader.kernels.loops import B_CROSS, B_LINE, OPEN

from heuristics.slitherlink.common import GENRE

MAX_OPEN = 9          # at most 2^9 ways per window


@attrs.frozen
class Window:
    """Two clued cells that share a dot, with the edges its ways depend on."""
    k1: int
    k2: int
    marks: tuple[int, ...]                   # every edge at a dot of the window (its own among them)
    marks_of: Callable[[tuple[int, ...]], tuple[int, ...]] = attrs.field(eq=False, repr=False)


def windows(puzzle: SlitherPuzzle) -> tuple[Window, ...]:
    """Pairs of clued cells that share a dot, computed once per puzzle."""
    def make() -> tuple[Window, ...]:
        g = puzzle.graph
        dots = [frozenset(v for e in es for v in g.ends[e]) for es in puzzle.cells]
        by_dot: dict[int, list[int]] = {}
        for k in puzzle.clued:
            for v in dots[k]:
                by_dot.setdefault(v, []).append(k)
        pairs = sorted({(a, b) for ks in by_dot.values() for a in ks for b in ks if a < b})
        out = []
        for a, b in pairs:
            marks = tuple(sorted({e for v in dots[a] | dots[b] for e in g.incident[v]}))
            out.append(Window(a, b, marks, operator.itemgetter(*marks)))
        return tuple(out)
    return puzzle.once("_slitherlink_windows", make)


MAX_REMEMBERED = 50_000       # window answers kept per puzzle (trials ask the same ones again)


def window_ways(puzzle: SlitherPuzzle, state: State, w: Window) -> dict[int, int] | None:
    """_window_ways, remembered per window and the marks it depends on."""
    memo = puzzle.memo("_slitherlink_window_ways", MAX_REMEMBERED)
    key = (w.k1, w.k2, w.marks_of(state.cands))
    found = memo.get(key, memo)
    if found is memo:
        found = memo[key] = _window_ways(puzzle, state, w.k1, w.k2)
    return found


def _window_ways(puzzle: SlitherPuzzle, state: State, k1: int, k2: int) -> dict[int, int] | None:
    """For each open edge of the window, the values it takes over every consistent way
    (a mask), or None when the window has too many open edges."""
    g = puzzle.graph
    cands = state.cands
    edges = sorted(set(puzzle.cells[k1]) | set(puzzle.cells[k2]))
    open_ = [e for e in edges if cands[e] == OPEN]
    if not open_ or len(open_) > MAX_OPEN:
        return None
    pos = {e: i for i, e in enumerate(open_)}
    inside = set(edges)
    # clue checks: (fixed lines, mask of open edges in the cell, number)
    clues = []
    for k in (k1, k2):
        fixed = sum(1 for e in puzzle.cells[k] if cands[e] == B_LINE)
        mask = sum(1 << pos[e] for e in puzzle.cells[k] if e in pos)
        clues.append((puzzle.clues[k] - fixed, mask))
    # dot checks: (lines fixed, mask of open window edges, lo and hi of the outside edges)
    dots = []
    for v in sorted({v for e in edges for v in g.ends[e]}):
        fixed = mask = lo = hi = 0
        for e in g.incident[v]:
            m = cands[e]
            if e in inside:
                if m == B_LINE:
                    fixed += 1
                elif m == OPEN:
                    mask |= 1 << pos[e]
            elif m == B_LINE:
                lo += 1
                hi += 1
            elif m == OPEN:
                hi += 1
        dots.append((fixed, mask, lo, hi))
    seen_line = seen_cross = 0
    full = (1 << len(open_)) - 1
    for way in _both_clues_met(*clues[0], *clues[1]):
        ok = True
        for fixed, mask, lo, hi in dots:
            n = fixed + (way & mask).bit_count()
            if not any(lo <= t - n <= hi for t in (0, 2)):
                ok = False
                break
        if ok:
            seen_line |= way
            seen_cross |= full & ~way
    return {e: (B_LINE if seen_line >> i & 1 else 0) | (B_CROSS if seen_cross >> i & 1 else 0)
            for i, e in enumerate(open_)}


def _both_clues_met(need1: int, mask1: int, need2: int, mask2: int) -> Iterator[int]:
    """Every way (a mask of the window's open edges, each in mask1 or mask2 or both) with
    need1 lines in mask1 and need2 in mask2: a way for each clue, agreeing on the edges the
    two share (at most 36 pairs to look at, where all the window's ways are up to 512)."""
    for a in _submasks(mask1, need1):
        for b in _submasks(mask2, need2):
            if a & mask2 == b & mask1:
                yield a | b


@functools.lru_cache(maxsize=None)
def _submasks(mask: int, n: int) -> tuple[int, ...]:
    """The submasks of `mask` with n bits set."""
    out = []
    sub = mask
    while True:
        if sub.bit_count() == n:
            out.append(sub)
        if not sub:
            return tuple(out)
        sub = (sub - 1) & mask


@heuristic(id="slitherlink.pattern-search", genre=GENRE)
def pattern_search(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    g = puzzle.graph
    near = None
    if focus is not None:
        near = {k for e in focus for d in g.ends[e] for e2 in g.incident[d] for k in puzzle.cells_of_edge[e2]}
    for w in windows(puzzle):
        k1, k2 = w.k1, w.k2
        if near is not None and k1 not in near and k2 not in near:
            continue
        ways = window_ways(puzzle, state, w)
        if ways is None:
            continue
        keep = {e: m for e, m in ways.items() if m != OPEN}
        if not keep:
            continue
        ded = Deduction.build(state, keep=keep)
        if ded:
            yield Deduction.build(state, keep=keep,
                                  cells=[puzzle.cell(k1), puzzle.cell(k2)] if puzzle.square else [],
                                  params={"first": puzzle.clues[k1], "cell1": puzzle.cell_label(k1),
                                          "second": puzzle.clues[k2], "cell2": puzzle.cell_label(k2),
                                          "result": describe_removals(puzzle, state, ded.removals)})
            return
