"""Which number could take a cell in (level 4): as island, an undecided cell belongs to one of
the numbers that can reach it, in one of the ways that number can finish. A cell that few
such ways take in is tried: each way is followed for a few easy (level 1-2) steps, then, if
that breaks no rule, for as many steps that may use level 3 (as in island-cases); when none
of them is left, the cell is a wall. Like the other case splits, the
count that rates a step leaves it out (`counted: false` in its row).
"""
from __future__ import annotations

from typing import Iterator

from grader.genres.nurikabe.model import FREE, WALL, NurikabePuzzle, islands
from grader.core.engine import out_of_time
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.probing import Branch
from grader.core.steps import Deduction, Status, Trace

from heuristics.nurikabe.cases import CASE_LEVEL, CASE_STEPS, SHORT_LEVEL, Quiet, after, broken_rule, short_chain
from heuristics.nurikabe.common import GENRE
from heuristics.nurikabe.reach import reach_index
from heuristics.nurikabe.shapes import assume_shape, island_shapes

OWNER_WAYS = 8      # a cell is tried when at most this many ways, over every number, take it in
OWNER_CELLS = 60    # cells tried per look, those fewest ways take in first


@heuristic(id="nurikabe.cell-owners", genre=GENRE)
def cell_owners(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    if broken_rule(puzzle, state) is not None:
        return      # a rule is broken already (inside a hypothesis): nothing to learn here
    isl = islands(puzzle, state)
    g = puzzle.graph
    shapes = island_shapes(puzzle, state)
    index = reach_index(puzzle, state)
    # A cell's ways are its owners' shapes, which read the walls of the whole board, and the
    # cells tried are the board's fewest-ways ones: every look is the whole board's (a cell
    # whose ways led nowhere is skipped until what they touched changes)
    quiet = Quiet("nurikabe.cell-owners")
    chains: dict[tuple[frozenset[int], int], Trace] = {}    # a way comes up for every cell it takes in
    tried = []
    for x, m in enumerate(state.cands):
        who = index.get(x, ())
        if m != FREE or not who or any(k not in shapes for k in who):
            continue        # no owner at all is level 3's unreachable; too many ways: not listed
        ways = [(k, s) for k in who for s in shapes[k] if x in s]
        if len(ways) <= OWNER_WAYS:
            tried.append((len(ways), x, who, ways))
    for _, x, who, ways in sorted(tried)[:OWNER_CELLS]:
        if out_of_time():
            return
        if quiet.skip(state, x):
            continue
        refuted, touched = [], {x}
        for k, s in ways:
            for level in (CASE_LEVEL, SHORT_LEVEL):      # easy steps first, then short ones
                if (s, level) not in chains:
                    assumed = assume_shape(puzzle, state, s)
                    chains[s, level] = short_chain(puzzle, assumed, state.diff(assumed), CASE_STEPS, level)
                trace = chains[s, level]
                touched.update(state.diff(trace.final))
                if trace.status is Status.CONTRADICTION:
                    break
            else:
                break
            new = sorted(i for i in s if i not in isl.parts[k])
            refuted.append((Branch(f"{isl.clue_name(k)} takes in {', '.join(map(str, g.cells(new)))}", trace), level))
        else:
            owners = " or ".join(isl.clue_name(k) for k in who)
            if not ways:
                reason = "but no way for it to finish takes it in" if len(who) == 1 else \
                    "but no way for any of them to finish takes it in"
            else:
                reason = (f"in one of {len(ways)} ways: " if len(ways) > 1 else "in one way only: ") + "; ".join(
                    f"if {b.label}, a rule breaks {after(len(b.trace.steps), level)} ({b.trace.reason})"
                    for b, level in refuted)
            yield Deduction.build(state, put={x: WALL}, premises=[i for k in who for i in isl.parts[k]],
                                  detail=tuple(b for b, _ in refuted), params={"cell": g.cell(x), "owners": owners,
                                                                 "reason": reason})
            return
        quiet.failed(puzzle, state, x, touched)
