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

@heuristic(id="nurikabe.one", name="Walls around a 1", genre=GENRE,
           template="The 1 at {clue} is a whole island by itself, so {cells} around it are walls.",
           nudge="What surrounds the 1 at {clue}?",
           catalogue="surround cells containing 1 with walls")
def one(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    if focus is not None:
        return      # clues never change: found at the start or never
    for i in puzzle.clue_cells:
        if puzzle.clues[i] == 1:
            free = [n for n in puzzle.graph.neighbours[i] if state.cands[n] == FREE]
            if free:
                yield Deduction.build(state, put={n: WALL for n in free}, cells=[puzzle.cell(i)],
                                      params={"clue": puzzle.cell(i), "cells": cells_of(puzzle, free)})


@heuristic(id="nurikabe.pool-corner", name="The fourth corner of a pool", genre=GENRE,
           template="{walls} are walls; if {cell} were a wall too they would fill a 2x2 block, "
                    "so {cell} is island.",
           nudge="Look at the 2x2 block around {cell}.",
           catalogue="for 2x2 blocks containing 3 walls, set the 4th to be island")
def pool_corner(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    g = puzzle.graph
    blocks = None if focus is None else cn.blocks_near(g, focus)
    for block, rest in cn.pool_blocks(g, state.cands, B_WALL, blocks):
        if len(rest) == 1:
            walls = [i for i in block if i != rest[0]]
            yield Deduction.build(state, put={rest[0]: ISLAND}, premises=walls,
                                  params={"cell": g.cell(rest[0]), "walls": g.cells(walls)})


@heuristic(id="nurikabe.between-numbers", name="Between two numbers", genre=GENRE,
           template="{cell} touches both {first} and {second}; as island it would join two "
                    "numbers, so it is a wall.",
           nudge="Which numbers does {cell} touch?",
           catalogue="if a cell is adjacent to two numbers, it must be wall")
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



@heuristic(id="nurikabe.walled-in", name="A cell walled in", genre=GENRE,
           template="{cell} is surrounded by walls; as island it could never reach a number, so "
                    "it is a wall.",
           nudge="Look at the neighbours of {cell}.",
           catalogue="if an unfilled cell is surrounded by wall, it must be wall")
def walled_in(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    cands, nbrs = state.cands, puzzle.graph.neighbours
    for i in near(puzzle, focus):
        if cands[i] == FREE and all(cands[n] == B_WALL for n in nbrs[i]):
            yield Deduction.build(state, put={i: WALL}, premises=nbrs[i],
                                  params={"cell": puzzle.cell(i)})


@heuristic(id="nurikabe.island-complete", name="A complete island", genre=GENRE,
           template="All {n} cells of {island} are in place, so {cells} around it are walls.",
           nudge="Count the cells of {island}.",
           catalogue="if there is an island of the same size as its number, all unfilled "
                     "neighbouring cells must be wall")
def island_complete(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    for k in parts_near(isl, focus):
        if isl.need(k) == 0:
            free = isl.liberties(k)
            if free:
                yield Deduction.build(state, put={f: WALL for f in free}, premises=isl.parts[k],
                                      params={"island": isl.clue_name(k), "n": isl.number(k),
                                              "cells": cells_of(puzzle, free)})


@heuristic(id="nurikabe.surrounded-by-island", name="A cell inside an island", genre=GENRE,
           template="{cell} is surrounded by island cells; a wall there could never join the "
                    "other walls, so it is island.",
           nudge="Could {cell} be a wall that joins the others?",
           catalogue="* if an unfilled cell is surrounded by island, it must be island (apply "
                     "only if there are blocked elsewhere)")
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

@heuristic(id="nurikabe.two-islands", name="Between two islands", genre=GENRE,
           template="{cell} touches {first} and {second}; as island it would join them, so it is "
                    "a wall.",
           nudge="Which islands does {cell} touch?",
           catalogue="if a cell is adjacent to two different islands (they both contain a number), "
                     "it must be wall")
def two_islands(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    cells = sorted({i for k in parts_near(isl, focus) for i in isl.liberties(k)})
    for i in cells:
        numbered = [k for k in isl.side.touching(i) if isl.numbered(k)]
        if len(numbered) >= 2:
            yield Deduction.build(state, put={i: WALL}, premises=isl.parts[numbered[0]] + isl.parts[numbered[1]],
                                  params={"cell": puzzle.cell(i), "first": isl.clue_name(numbered[0]),
                                          "second": isl.clue_name(numbered[1])})


@heuristic(id="nurikabe.wall-exit", name="A wall's only way out", genre=GENRE,
           template="The walls at {wall} must join the other walls, and {cell} is their only way "
                    "out, so {cell} is a wall.",
           nudge="How can the walls at {wall} reach the others?",
           catalogue="if a wall region can only grow to one cell and not all walls have been "
                     "placed, the one cell must be wall")
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


@heuristic(id="nurikabe.island-exit", name="An island's only way out", genre=GENRE,
           template="With {need} still to find, {island} can only grow through {cell}, so {cell} "
                    "is island.",
           nudge="How can {island} grow?",
           catalogue="if an island can only grow to one cell (and it's not done), then the cell "
                     "must be island")
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


@heuristic(id="nurikabe.enclosure", name="An enclosure of the right size", genre=GENRE,
           template="Walls enclose {size} cells around {island}, exactly its size, so {cells} are "
                    "island.",
           nudge="Count the cells walled in with {island}.",
           catalogue="if there is an enclosure containing a number and the enclosure is of the "
                     "same size, all enclosed cells must be island")
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


