"""The walls must form one area: cells cut off from every wall, and a wall's bottleneck
(wall articulation points).
"""
from __future__ import annotations

from typing import Iterator

from grader.genres.nurikabe import ISLAND, WALL, NurikabePuzzle, islands
from grader.heuristic import heuristic
from grader.model import State
from grader.steps import Deduction

from .common import GENRE, cells_of, verdict


@heuristic(id="nurikabe.wall-cut-off", name="A wall that could not join the others", genre=GENRE,
           level=3, order=5,
           template="Islands shut {cells} off from every wall, and the walls must all connect, so "
                    "{verdict}.",
           nudge="Could a wall at {cells} ever join the other walls?",
           catalogue="")
def wall_cut_off(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    stranded = islands(puzzle, state).walls.stranded
    if stranded:
        yield Deduction.build(state, put={i: ISLAND for i in stranded},
                              params={"cells": cells_of(puzzle, stranded), "verdict": verdict(stranded, ISLAND)})


# --- level 4 ------------------------------------------------------------------------------

@heuristic(id="nurikabe.wall-articulation", name="A wall's bottleneck", genre=GENRE, level=4,
           order=1,
           template="The walls at {a} and {b} can only meet through {cell}, so {cell} is a wall.",
           nudge="How do the walls at {a} and {b} connect?",
           catalogue="if there is a cell where a wall must pass in order to connect all walls, it "
                     "must be wall (\"wall articulation point\")")
def wall_articulation(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    walls = islands(puzzle, state).walls
    for v, (a, b) in sorted(walls.cuts.items()):
        yield Deduction.build(state, put={v: WALL}, premises=[a, b], params={
            "cell": puzzle.cell(v), "a": puzzle.cell(a), "b": puzzle.cell(b)})


