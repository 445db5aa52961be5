"""Unnumbered islands: which numbers can reach each, and what follows: two islands beside one
cell that can share no number (level 4); an island only one number can reach joins it through
its cut cells, and in one of the ways that number can finish (level 4); an island several
numbers can reach: every way any of them takes it in (level 5), or each number assumed in turn
and filled in (level 5).
"""
from __future__ import annotations

from typing import Iterator

from grader.genres.nurikabe.model import FREE, ISLAND, WALL, Islands, NurikabePuzzle, islands
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.probing import branch_deduction
from grader.core.steps import Deduction
from grader.kernels import connectivity as cn

from heuristics.nurikabe.common import FILL_LEVEL, GENRE, members, passes
from heuristics.nurikabe.reach import owners, reaches
from heuristics.nurikabe.shapes import count_ways, say_shared, shapes_of, shared_by


@heuristic(id="nurikabe.unnumbered-match", genre=GENRE)
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



@heuristic(id="nurikabe.owned-island", genre=GENRE)
def owned_island(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    all_reach = reaches(puzzle, state)
    for u, who in sorted(owners(puzzle, state).items()):
        if isl.clues[u] or len(who) != 1:
            continue
        a = next(iter(who))
        dist = all_reach[a]
        joined = set(isl.parts[a]) | set(isl.parts[u])
        size = len(state.cands)
        cuts = cn.articulation_cuts(puzzle.graph, members(size, dist), members(size, joined), isl.parts[a][0])
        free = sorted(v for v in cuts if state.cands[v] == FREE)
        if free:
            yield Deduction.build(state, put={free[0]: ISLAND}, premises=isl.parts[a] + isl.parts[u],
                                  region=sorted(dist), params={
                                      "owner": isl.clue_name(a), "island": puzzle.cell(isl.parts[u][0]),
                                      "cell": puzzle.cell(free[0])})
            return




MAX_OWNERS = 4      # islands reachable by more numbers are left to trial and error


def ways_to_take_in(puzzle: NurikabePuzzle, state: State, u: int, owner: int) -> list[frozenset[int]] | None:
    """The ways numbered island `owner` can finish that take in unnumbered island u (None
    when the owner has too many ways to list)."""
    found = shapes_of(puzzle, state, owner)
    if found is None:
        return None
    first = islands(puzzle, state).parts[u][0]
    return [s for s in found if first in s]


def unnumbered_name(isl: Islands, u: int) -> str:
    return f"the island at {isl.puzzle.cell(isl.parts[u][0])}"


@heuristic(id="nurikabe.owner-shapes", genre=GENRE)
def owner_shapes(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    for u, who in sorted(owners(puzzle, state).items()):
        if isl.clues[u] or len(who) != 1:
            continue
        a = next(iter(who))
        found = ways_to_take_in(puzzle, state, u, a)
        put = shared_by(puzzle, state, found or [])
        if put:
            yield Deduction.build(state, put=put, premises=isl.parts[a] + isl.parts[u], params={
                "owner": isl.clue_name(a), "island": unnumbered_name(isl, u),
                "count": count_ways(len(found)), "result": say_shared(puzzle, put)})
            return


def several_owners(puzzle: NurikabePuzzle, state: State) -> Iterator[tuple[int, list[int]]]:
    """Unnumbered islands that 2 to MAX_OWNERS numbers can reach, fewest first."""
    isl = islands(puzzle, state)
    found = [(len(who), u, sorted(who)) for u, who in owners(puzzle, state).items()
             if not isl.clues[u] and 2 <= len(who) <= MAX_OWNERS]
    for _, u, who in sorted(found):
        yield u, who


@heuristic(id="nurikabe.all-ways-to-reach", genre=GENRE)
def all_ways_to_reach(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    for u, who in several_owners(puzzle, state):
        ways: list[frozenset[int]] = []
        for a in who:
            found = ways_to_take_in(puzzle, state, u, a)
            if found is None:
                break
            ways += found
        else:
            put = shared_by(puzzle, state, ways)
            if put:
                yield Deduction.build(state, put=put, premises=isl.parts[u], params={
                    "island": unnumbered_name(isl, u), "owners": _either(isl, who),
                    "count": count_ways(len(ways)), "result": say_shared(puzzle, put)})
                return


def _either(isl: Islands, who: list[int]) -> str:
    names = [isl.clue_name(a) for a in who]
    return "one of " + ", ".join(names[:-1]) + f" or {names[-1]}"




@heuristic(id="nurikabe.unnumbered-owner", genre=GENRE)
def unnumbered_owner(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    cases = []
    for u, who in several_owners(puzzle, state):
        assumptions = []
        for a in who:
            # What "u belongs to a" implies: whatever every way of a taking u in agrees on.
            found = ways_to_take_in(puzzle, state, u, a)
            implied = shared_by(puzzle, state, found) if found else {}
            if found == []:
                continue        # a cannot take u in at all: not a case
            assumed = state
            for i, v in implied.items():
                assumed = assumed.restrict(i, 1 << v)
            assumptions.append((f"{unnumbered_name(isl, u)} belongs to {isl.clue_name(a)}", assumed,
                                state.diff(assumed)))
        if len(assumptions) >= 2 and any(a[2] for a in assumptions):
            cases.append((u, who, assumptions))
    for steps, (u, who, assumptions) in passes(cases):
        d = branch_deduction(puzzle, state, assumptions, max_level=FILL_LEVEL, max_steps=steps)
        if d is not None:
            d.params.update({"island": unnumbered_name(isl, u),     # type: ignore[attr-defined]
                             "owners": _either(isl, who)})
            yield d
            return
