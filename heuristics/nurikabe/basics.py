"""Levels 1 and 2: the immediate techniques (walls around a 1 and a finished island, the
fourth corner of a pool, a cell between two numbers, only ways out, a closed enclosure).
"""
from __future__ import annotations

from typing import Iterator

from grader.genres.nurikabe.model import (B_ISLAND, B_WALL, FREE, ISLAND, NO_CLUE, WALL,
                                          NurikabePuzzle, islands)
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.steps import Deduction
from grader.kernels import connectivity as cn

from heuristics.nurikabe.common import GENRE, cells_of, clue_text, near, parts_near


# --- level 1 ------------------------------------------------------------------------------

@heuristic(id="nurikabe.one", genre=GENRE)
def one(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    if focus is not None:
        return      # clues never change: found at the start or never
    for i in puzzle.clue_cells:
        if puzzle.clues[i] == 1:
            free = [n for n in puzzle.graph.neighbours[i] if state.cands[n] == FREE]
            if free:
                yield Deduction.build(state, put={n: WALL for n in free}, cells=[puzzle.cell(i)],
                                      params={"clue": puzzle.cell(i), "cells": cells_of(puzzle, free)})


@heuristic(id="nurikabe.pool-corner", genre=GENRE)
def pool_corner(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    g = puzzle.graph
    blocks = None if focus is None else cn.blocks_near(g, focus)
    for block, rest in cn.pool_blocks(g, state.cands, B_WALL, blocks):
        if len(rest) == 1:
            walls = [i for i in block if i != rest[0]]
            yield Deduction.build(state, put={rest[0]: ISLAND}, premises=walls,
                                  params={"cell": g.cell(rest[0]), "walls": g.cells(walls)})


@heuristic(id="nurikabe.between-numbers", genre=GENRE)
def between_numbers(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    if focus is not None:
        return
    for i, m in enumerate(state.cands):
        if m != FREE:
            continue
        clues = [n for n in puzzle.graph.neighbours[i] if puzzle.clues[n] != NO_CLUE]
        if len(clues) >= 2:
            yield Deduction.build(state, put={i: WALL}, cells=cells_of(puzzle, clues[:2]), params={
                "cell": puzzle.cell(i), "first": clue_text(puzzle, clues[0]),
                "second": clue_text(puzzle, clues[1])})



@heuristic(id="nurikabe.walled-in", genre=GENRE)
def walled_in(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    cands, nbrs = state.cands, puzzle.graph.neighbours
    for i in near(puzzle, focus):
        if cands[i] == FREE and all(cands[n] == B_WALL for n in nbrs[i]):
            yield Deduction.build(state, put={i: WALL}, premises=nbrs[i],
                                  params={"cell": puzzle.cell(i)})


@heuristic(id="nurikabe.island-complete", genre=GENRE)
def island_complete(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    for k in parts_near(isl, focus):
        if isl.need(k) == 0:
            free = isl.liberties(k)
            if free:
                yield Deduction.build(state, put={f: WALL for f in free}, premises=isl.parts[k],
                                      params={"island": isl.clue_name(k), "n": isl.number(k),
                                              "cells": cells_of(puzzle, free)})


@heuristic(id="nurikabe.surrounded-by-island", genre=GENRE)
def surrounded_by_island(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    cands, nbrs = state.cands, puzzle.graph.neighbours
    if not any(m == B_WALL for m in cands) and (puzzle.wall_total or 0) < 2:
        return
    for i in near(puzzle, focus):
        if cands[i] == FREE and all(cands[n] == B_ISLAND for n in nbrs[i]):
            if any(m == B_WALL for m in cands) or (puzzle.wall_total or 0) > 1:
                yield Deduction.build(state, put={i: ISLAND}, premises=nbrs[i],
                                      params={"cell": puzzle.cell(i)})


# --- level 2 ------------------------------------------------------------------------------

@heuristic(id="nurikabe.two-islands", genre=GENRE)
def two_islands(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    cells = sorted({i for k in parts_near(isl, focus) for i in isl.liberties(k)})
    for i in cells:
        numbered = [k for k in isl.side.touching(i) if isl.numbered(k)]
        if len(numbered) >= 2:
            yield Deduction.build(state, put={i: WALL}, premises=isl.parts[numbered[0]] + isl.parts[numbered[1]],
                                  params={"cell": puzzle.cell(i), "first": isl.clue_name(numbered[0]),
                                          "second": isl.clue_name(numbered[1])})


@heuristic(id="nurikabe.wall-exit", genre=GENRE)
def wall_exit(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    walls = islands(puzzle, state).walls
    parts = walls.decided_parts
    total = puzzle.wall_total
    near = range(len(parts)) if focus is None else sorted(
        {parts.of[i] for i in puzzle.graph.around(focus, 1)} - {-1})
    for k in near:
        part = parts.cells[k]
        if len(parts) < 2 and (total is None or total <= len(part)):
            continue
        out = walls.liberties(k)
        if len(out) == 1:
            yield Deduction.build(state, put={out[0]: WALL}, premises=part,
                                  params={"wall": puzzle.cell(part[0]), "cell": puzzle.cell(out[0])})


@heuristic(id="nurikabe.island-exit", genre=GENRE)
def island_exit(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    for k in parts_near(isl, focus):
        if len(isl.clues[k]) > 1:
            continue
        need = isl.need(k)
        if isl.numbered(k) and (need is None or need <= 0):
            continue
        free = isl.liberties(k)
        if len(free) == 1:
            what = (f"{need} more cell{'s' if need != 1 else ''}" if need is not None
                    else "a number")
            yield Deduction.build(state, put={free[0]: ISLAND}, premises=isl.parts[k], params={
                "island": isl.clue_name(k), "need": what, "cell": puzzle.cell(free[0])})


@heuristic(id="nurikabe.enclosure", genre=GENRE)
def enclosure(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    room = isl.side.possible_parts
    # A part far from every change is as it was when this last found nothing.
    near = range(len(room)) if focus is None else sorted({room.of[i] for i in puzzle.graph.around(focus, 1)} - {-1})
    for k in near:
        part = room.cells[k]
        if len(part) > puzzle.largest_clue:
            continue
        clues = [i for i in part if puzzle.clues[i] != NO_CLUE]
        if len(clues) != 1 or puzzle.clues[clues[0]] != len(part):
            continue
        free = [i for i in part if state.cands[i] == FREE]
        if free:
            yield Deduction.build(state, put={i: ISLAND for i in free}, cells=[puzzle.cell(clues[0])],
                                  params={"size": len(part), "island": clue_text(puzzle, clues[0]),
                                          "cells": cells_of(puzzle, free)})


