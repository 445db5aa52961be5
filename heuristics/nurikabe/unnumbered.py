"""Unnumbered islands: which numbers can reach each, and what follows when two islands
beside one cell can share no number, or only one number can reach an island.
"""
from __future__ import annotations

from typing import Iterator

from grader.genres.nurikabe import FREE, ISLAND, WALL, NurikabePuzzle, islands
from grader.heuristic import heuristic
from grader.model import State
from grader.steps import Deduction
from heuristics.common import connectivity as cn

from .common import GENRE, Members
from .reach import owners, reaches


@heuristic(id="nurikabe.unnumbered-match", name="Which number an island belongs to", genre=GENRE,
           level=4, order=4,
           template="Only {first_ids} can reach {first}, and only {second_ids} can reach {second}; "
                    "{cell} would join them, so it is a wall.",
           nudge="Which numbers can reach the islands beside {cell}?",
           catalogue="match unnumbered islands: if an unfilled cell borders two islands with an "
                     "empty intersection of island ids, the cell must be wall")
def unnumbered_match(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    owned = owners(puzzle, state)
    for i, m in enumerate(state.cands):
        if m != FREE:
            continue
        touching = isl.side.touching(i)
        if len(touching) < 2 or all(isl.numbered(k) for k in touching):
            continue
        for x in touching:
            for y in touching:
                if x < y and not owned.get(x, set()) & owned.get(y, set()):
                    def name(k: int) -> str:
                        return f"the island at {puzzle.cell(isl.parts[k][0])}"

                    def ids(k: int) -> str:
                        got = sorted(owned.get(k, ()))
                        return " or ".join(isl.clue_name(j) for j in got) or "no number"
                    yield Deduction.build(state, put={i: WALL}, premises=isl.parts[x] + isl.parts[y],
                                          params={"cell": puzzle.cell(i), "first": name(x),
                                                  "second": name(y), "first_ids": ids(x),
                                                  "second_ids": ids(y)})
                    return



@heuristic(id="nurikabe.owned-island", name="An island only one number can reach", genre=GENRE,
           level=4, order=5,
           template="Only {owner} can reach the island at {island}, so they will be one island; "
                    "within its reach they can only meet through {cell}, which is island.",
           nudge="Which number can reach the island at {island}?",
           catalogue="* if there is an unnumbered blank which can only be legally connected to "
                     "one numbered tile: set the island id for this blank, and run the other "
                     "island growth heuristic")
def owned_island(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    all_reach = reaches(puzzle, state)
    for u, who in sorted(owners(puzzle, state).items()):
        if isl.clues[u] or len(who) != 1:
            continue
        a = next(iter(who))
        dist = all_reach[a]
        joined = set(isl.parts[a]) | set(isl.parts[u])
        cuts = cn.articulation_cuts(puzzle.graph, Members(dist), Members(joined), isl.parts[a][0])
        free = sorted(v for v in cuts if state.cands[v] == FREE)
        if free:
            yield Deduction.build(state, put={free[0]: ISLAND}, premises=isl.parts[a] + isl.parts[u],
                                  region=sorted(dist), params={
                                      "owner": isl.clue_name(a), "island": puzzle.cell(isl.parts[u][0]),
                                      "cell": puzzle.cell(free[0])})
            return


