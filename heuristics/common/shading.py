"""Technique families for shading genres where shaded cells never touch and the white cells
form one connected area (Heyawake, Kuromasu): each genre registers them under its own id, and
the reasoning and its wording (the *_TEXT dicts) live here. What a state says (the values,
the white area, the broken rules) is grader.kernels.shading.
"""
from __future__ import annotations

from typing import Callable, Collection, Iterable, Iterator, Sequence

import attrs

from grader.core.engine import Budget, Solver, out_of_time
from grader.core.explain import phrase_list
from grader.core.registry import REGISTRY, Family
from grader.core.model import State, Violation
from grader.core.probing import Branch, Tried, branch_deduction, trial_rules
from grader.core.steps import Deduction, Status
from grader.kernels.recent import last_answer
from grader.kernels.shading import (B_SHADED, B_WHITE, FREE, JOINED_RINGS, SHADED, WHITE, around, open_side,
                                    pieces_without, rings, small_area, splits_round, walls)
from heuristics.common.focus import near_then_the_rest


def busiest_first(puzzle, state: State) -> list[int]:
    """Undecided cells, those with most decided cells around them (sides and corners, the
    grid's edge counting as decided) first: where a hypothesis has most to work with."""
    cands, rows, cols = state.cands, puzzle.rows, puzzle.cols
    ranked = []
    for i, m in enumerate(cands):
        if m != FREE:
            continue
        r, c = divmod(i, cols)
        known = 0
        for r2 in (r - 1, r, r + 1):
            for c2 in (c - 1, c, c + 1):
                if not (0 <= r2 < rows and 0 <= c2 < cols) or cands[r2 * cols + c2] != FREE:
                    known += 1
        ranked.append((-known, i))
    return [i for _, i in sorted(ranked)]


def cells_near(puzzle, focus, steps: int = 1) -> Iterable[int]:
    """Where to look: every cell without a focus, else the focus cells and those up to `steps`
    steps from them, in order (kept for the last focus asked: the techniques of a level ask
    one after another, most often with the same focus). Callers must not change the list."""
    if focus is None:
        return range(puzzle.size)

    def near_focus() -> list[int]:
        near = around(puzzle, focus)
        for _ in range(steps - 1):
            near = around(puzzle, near)
        return sorted(near)
    return last_answer(puzzle, f"_shading_cells_near_{steps}", focus, near_focus)


# --- techniques shared by the genres -------------------------------------------------------

SHADED_NEIGHBOURS_TEXT = {
    "name": "Shaded cells never touch",
    "template": "The shaded cell {shaded} cannot touch another shaded cell, so {cells} must "
                "be white.",
    "nudge": "Look at the cells beside the shaded cell {shaded}.",
}


def shaded_neighbours_white(puzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Params: shaded, cells."""
    cands = state.cands
    for i in cells_near(puzzle, focus):
        if cands[i] != B_SHADED:
            continue
        free = [j for j in puzzle.neighbours[i] if cands[j] & B_SHADED]
        yield Deduction.build(state, put={j: WHITE for j in free}, premises=[i],
                              params={"shaded": puzzle.cell(i), "cells": [puzzle.cell(j) for j in free]})


SINGLE_EXIT_TEXT = {
    "name": "A white cell's only way out",
    "template": "The white cell {white} is closed in by {walls}, so its only way out, {exit}, "
                "is white.",
    "nudge": "How does the white cell {white} reach the other white cells?",
}


def single_exit(puzzle, state: State, focus=None) -> Iterator[Deduction]:
    """A white cell with one neighbour left that is not shaded: that neighbour is white.
    Only where some cell lies beyond the cell's neighbours: that cell touches one of them, so
    it would be white and cut off; on a 1x2 board, or in the middle of 1x3, the cell may be
    the only white one. Params: white, exit, walls."""
    cands = state.cands
    for i in cells_near(puzzle, focus):
        if cands[i] != B_WHITE or len(cands) <= 1 + len(puzzle.neighbours[i]):
            continue
        open_ = [j for j in puzzle.neighbours[i] if cands[j] != B_SHADED]
        if len(open_) != 1 or cands[open_[0]] != FREE:
            continue
        closed = [j for j in puzzle.neighbours[i] if cands[j] == B_SHADED]
        yield Deduction.build(state, put={open_[0]: WHITE}, premises=[i, *closed],
                              params={"white": puzzle.cell(i), "exit": puzzle.cell(open_[0]),
                                      "walls": describe_walls(puzzle, i, closed)})


def describe(puzzle, put: dict[int, int]) -> str:
    """'r1c3 and r1c5 are shaded and r2c4 is white': what a set of decisions says."""
    parts = []
    for value, word in ((SHADED, "shaded"), (WHITE, "white")):
        cells = [puzzle.cell(i) for i in sorted(put) if put[i] == value]
        if cells:
            parts.append(f"{phrase_list(cells)} {'is' if len(cells) == 1 else 'are'} {word}")
    return " and ".join(parts)


def describe_walls(puzzle, i: int, shaded: Sequence[int]) -> str:
    edge = 4 - len(puzzle.neighbours[i])
    parts = [f"the shaded {'cell' if len(shaded) == 1 else 'cells'} "
             f"{phrase_list(puzzle.cell(j) for j in shaded)}"] if shaded else []
    if edge:
        parts.append("the edge of the grid")
    return " and ".join(parts)


ARTICULATION_TEXT = {
    "name": "A shaded cell here would cut the white area",
    "template": "Shading {cell} would split the cells that are not shaded into {pieces} parts "
                "(around {sides}), and its neighbours would all be white, so {cell} is white.",
    "nudge": "Would shading {cell} keep the white cells together?",
}


def articulation_white(puzzle, state: State, focus=None) -> Iterator[Deduction]:
    """An undecided cell whose shading would split the cells that may be white: shading it
    also whitens its neighbours, which would then lie in different pieces, so it is white.
    Params: cell, pieces, sides."""
    cands = state.cands
    for i, _ in sorted(open_side(puzzle, state).splits.items()):
        if cands[i] != FREE:
            continue
        pieces = pieces_without(puzzle, cands, i)
        yield Deduction.build(state, put={i: WHITE}, region=[p[0] for p in pieces],
                              params={"cell": puzzle.cell(i), "pieces": len(pieces),
                                      "sides": [puzzle.cell(p[0]) for p in pieces]})


CUT_OFF_TEXT = {
    "name": "Cells cut off from the white area",
    "template": "Cut off from the white cell {white}, {cells} cannot be white.",
    "nudge": "Can every open cell still reach {white}?",
}


def cut_off(puzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Undecided cells that can no longer reach the white cells cannot be white.
    Params: cells, white."""
    side = open_side(puzzle, state)
    stranded = side.stranded
    if stranded:
        yield Deduction.build(state, put={i: SHADED for i in stranded},
                              params={"cells": [puzzle.cell(i) for i in stranded],
                                      "white": puzzle.cell(side.decided_cells[0])})


def pocket_white(puzzle, state: State, focus=None, most: int = 4) -> Iterator[Deduction]:
    """An undecided cell whose shading would wall in a few white cells (at most `most`, a
    pocket a reader sees at a glance): shading it whitens its neighbours, and one of them
    would be shut in a pocket away from other white cells. Params: cell, pocket, outside."""
    cands = state.cands
    nbrs = puzzle.neighbours
    cells = pocket_sites(puzzle, state, focus, most)
    any_white = B_WHITE in cands
    ring_of = rings(puzzle.rows, puzzle.cols)
    w = sizes = of = None
    for i in cells:
        if cands[i] != FREE:
            continue
        open_nbrs = [n for n in nbrs[i] if cands[n] != B_SHADED]
        if len(open_nbrs) < 2 and not any_white:
            continue
        if sizes is None:
            parts = open_side(puzzle, state).possible_parts
            sizes, of, w = [len(p) for p in parts.cells], parts.of, walls(puzzle, state)
        ring = ring_of[i]
        open_ = tuple([j >= 0 and cands[j] != B_SHADED for j in ring])
        # neighbours joined round i all reach the same area: one look tells for them all
        joined = JOINED_RINGS[open_]
        if sizes[of[i]] - 1 > most and (joined or not splits_round(w, ring, open_)):
            continue    # i's area stays whole without it, and too big for a pocket
        ways_in = open_nbrs[:1] if joined else open_nbrs
        for n in ways_in:
            pocket = small_area(nbrs, cands, n, i, most)
            if pocket is None:
                continue
            outside = next((m for m in open_nbrs if m not in pocket), None)
            if outside is None:
                outside = next((j for j, m in enumerate(cands) if m == B_WHITE and j not in pocket), None)
            if outside is None:
                continue
            yield Deduction.build(state, put={i: WHITE}, region=sorted(pocket),
                                  params={"cell": puzzle.cell(i),
                                          "pocket": [puzzle.cell(j) for j in sorted(pocket)],
                                          "outside": puzzle.cell(outside)})
            break


def pocket_sites(puzzle, state: State, focus, most: int) -> Iterable[int]:
    """Where pocket_white looks: every cell without a focus; else the cells within two steps
    of it (first, in order), then every other cell whose answer a change can have altered.
    A cell's answer reads the pocket's cells and the walls round them, up to most + 1 steps
    away through cells not shaded, so a cell newly shaded can close a pocket that far off;
    and whether any white cell lies outside a pocket, anywhere: a new white cell can give a
    pocket its outside only while the other white cells are few enough to fit in one."""
    if focus is None:
        return range(puzzle.size)
    near = cells_near(puzzle, focus, 2)
    cands = state.cands
    new_white = sum([1 for f in focus if cands[f] == B_WHITE])
    if new_white and cands.count(B_WHITE) - new_white <= most:
        far: Iterable[int] = range(puzzle.size)
    else:
        far = sorted(open_within(puzzle.neighbours, cands, [f for f in focus if cands[f] == B_SHADED],
                                 most + 1))
    return near_then_the_rest(near, far)


def open_within(nbrs, cands: Sequence[int], starts: Sequence[int], steps: int) -> set[int]:
    """The cells not shaded that some cell of `starts` reaches in at most `steps` steps
    through cells not shaded."""
    reached: set[int] = set()
    frontier = set(starts)
    for _ in range(steps):
        frontier = {u for v in frontier for u in nbrs[v] if cands[u] != B_SHADED} - reached
        reached |= frontier
    return reached


# The families, for grader.core.registry.register_families: a genre's table names them.
FAMILIES: dict[str, Family] = {
    "shaded-neighbours": (SHADED_NEIGHBOURS_TEXT, shaded_neighbours_white),
    "single-exit": (SINGLE_EXIT_TEXT, single_exit),
    "articulation": (ARTICULATION_TEXT, articulation_white),
    "cut-off": (CUT_OFF_TEXT, cut_off),
}


# --- every way to fulfil a clue (level 5) ---------------------------------------------------

def way_hypotheses(puzzle, state: State, clues: Sequence[tuple[int, Sequence[dict[int, int]]]],
                   label: Callable[[int, dict[int, int]], str], passes: Sequence[tuple[int, int]],
                   key: str | None = None, leave_out: Collection[str] = ()) -> Iterator[tuple[int, Deduction]]:
    """Follow every way to fulfil one clue (a room's number, a Kuromasu number), each way a
    branch filled greedily with easier steps: ways that break a rule drop out, and what every
    remaining way agrees on holds. `clues` is (clue, its ways) in the order to try, the ways
    covering every possibility; a quick look at every clue first, then a long one (`passes`,
    as grader.core.probing.PASSES). Yields (clue, deduction) for the first clue that gives one.
    With `key`, clues whose ways led nowhere lately are tried last (grader.core.probing.Tried).
    The fills leave out the techniques named in `leave_out` (grader.core.probing.trial_rules)."""
    cases: dict[int, list] = {}
    tried = Tried(key, around) if key else None
    if tried:
        ways = dict(clues)
        clues = [(k, ways[k]) for k in tried.order(state, ways)]
    for steps, level in passes:
        for k, options in clues:
            if k not in cases:
                cases[k] = [(label(k, o), state.assume(o), list(o)) for o in options]
            d = branch_deduction(puzzle, state, cases[k], max_level=level, max_steps=steps,
                                 heuristics=trial_rules(puzzle.genre.name, level, leave_out) if leave_out else None)
            if d:
                yield k, d
                return
            if tried and (steps, level) == tuple(passes[-1]):
                tried.failed(puzzle, state, k, (i for o in options for i in o), ())


# --- short what-ifs (levels 3 and 4) ----------------------------------------------------------

class Broken(Exception):
    """A quick look ahead broke a rule."""


def short_what_if(puzzle, state: State, genre: str, refutes, broken: Callable[[State], list[Violation]],
                  candidates: Iterable[int] | None = None, steps: int = 40) -> Iterator[Deduction]:
    """A cell whose one value breaks a rule after a short chain of easy steps takes the other
    value: the chain a reader follows in their head, not a trial. Only refutations count,
    never what two branches agree on (that is level 5). `refutes(i, value)` is the
    genre's quick screen; a cell it flags is then followed by the easy (level 1-2) techniques
    themselves, so the step shows its chain, and only a chain that breaks one of the rules
    `broken` looks at counts (a what-if that minds only nearby rules must not lean on the
    white area as a whole). Params: cell, assumed, result, after, reason."""
    from grader.genres import get     # here: the genre modules import this module
    g = get(genre)
    cands = state.cands
    already: list[bool] = []        # whether a rule is broken already, asked at the first flag
    order = [i for i in (range(len(cands)) if candidates is None else candidates) if cands[i] == FREE]
    for i in order:
        if out_of_time():
            return      # a large open board has thousands of cells to screen
        for value, other in ((SHADED, WHITE), (WHITE, SHADED)):
            if not refutes(i, value):
                continue
            if not already:
                already.append(bool(broken(state)))
            if already[0]:
                return  # broken already (inside a hypothesis): nothing to learn here
            trace = Solver(puzzle, heuristics=REGISTRY.for_genre(genre, 2),
                           budget=Budget.steps_only(steps)
                           ).solve(state.restrict(i, 1 << value), focus=frozenset((i,)),
                                   until=lambda s: bool(broken(s)))
            if 0 not in trace.final.cands:
                found = broken(trace.final)
                if not found:
                    continue
                trace = attrs.evolve(trace, status=Status.CONTRADICTION, reason=found[0].message)
            yield Deduction.build(state, put={i: other}, detail=(Branch(f"{puzzle.cell(i)} {g.value_phrases[value][0]}", trace),),
                                  params={"cell": puzzle.cell(i), "assumed": g.value_phrases[value][0],
                                          "result": g.value_phrases[other][0],
                                          "after": after_steps(len(trace.steps)), "reason": trace.reason})
            return


def after_steps(n: int) -> str:
    return "at once" if n == 0 else "after one easy step" if n == 1 else f"after {n} easy steps"
