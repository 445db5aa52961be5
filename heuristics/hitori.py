"""Hitori techniques, by level (spec/heuristics-catalogue.txt, HITORI).

Connectivity (the unshaded cells form one area) comes from grader.kernels.connectivity.
"""
from __future__ import annotations

from typing import Iterable, Iterator

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


def runs(puzzle: HitoriPuzzle) -> Iterator[tuple[int, int, int]]:
    """Every three consecutive cells of a row or column."""
    for line in puzzle.lines:
        for k in range(len(line) - 2):
            yield line[k], line[k + 1], line[k + 2]


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


@heuristic(id="hitori.triple", genre=GENRE)
def triple(puzzle: HitoriPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    nums = puzzle.numbers
    for a, b, c in runs(puzzle):
        if nums[a] != NO_NUMBER and nums[a] == nums[b] == nums[c]:
            yield Deduction.build(state, put={a: BLACK, b: WHITE, c: BLACK},
                                  params={"first": puzzle.cell(a), "middle": puzzle.cell(b),
                                          "last": puzzle.cell(c), "n": nums[a]})


@heuristic(id="hitori.sandwich", genre=GENRE)
def sandwich(puzzle: HitoriPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    nums = puzzle.numbers
    for a, b, c in runs(puzzle):
        if nums[a] != NO_NUMBER and nums[a] == nums[c] and state.cands[b] == FREE:
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


# --- level 5 ------------------------------------------------------------------------------

trial_and_error = register_probing(GENRE, max_level=3)
deep_trial = register_probing(GENRE, id="hitori.deep-trial", max_level=4)
nested_trial = register_nested(GENRE, lambda: REGISTRY.for_genre(GENRE, 4) + [deep_trial])

register_last_resort(GENRE)      # the deepening nested trial, unless registered above
