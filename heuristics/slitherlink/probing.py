"""Level 5: for one edge, assume a line and assume a cross; fill in greedily with the easier
techniques; keep what both agree on, or drop the assumption that breaks a rule.

Edges are tried where a person would look first: at the loose ends of lines, then around
clues, then anywhere (any order is sound; this one finds refutations sooner)."""
from __future__ import annotations

from typing import Iterator

from grader.genres.slitherlink.model import SlitherPuzzle, clue_counts
from grader.core.engine import out_of_time, solve_memory
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.probing import PASSES, branch_deduction, probe_cell, probe_order
from grader.core.steps import Deduction
from grader.kernels.loops import B_CROSS, B_LINE, OPEN, paths
from grader.kernels.recent import narrowed

from heuristics.slitherlink.common import GENRE, edges_around, fill_rules
from heuristics.slitherlink.fills import remembered_fill


def probe_candidates(puzzle: SlitherPuzzle, state: State) -> list[int]:
    g = puzzle.graph
    p = paths(g, state)
    first = [e for v in sorted(p.end_of) for e in g.incident[v] if state.cands[e] == OPEN]
    second = [e for k in puzzle.clued for e in puzzle.cells[k] if state.cands[e] == OPEN]
    seen: set[int] = set()
    out = []
    for e in first + second + [e for e in range(len(state.cands)) if state.cands[e] == OPEN]:
        if e not in seen:
            seen.add(e)
            out.append(e)
    return out


MEMO_KEY = "_slitherlink_trials"


@heuristic(id="slitherlink.trial-and-error", genre=GENRE)
def trial_and_error(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """The shared trial (grader.core.probing) on one edge at a time: a short fill with the easy
    levels first, then a long one with every level below 5.

    Like a person who does not repeat a trial that just told nothing, edges whose short trial
    failed last time and that nothing has changed near are left out of the short pass, and
    edges whose long trial failed go last in the long pass. The long pass still tries every
    edge, so this changes which deduction comes first, never whether one is found."""
    fail_short, fail_long = _remembered_failures(puzzle, state)
    ranked = probe_order(state, probe_candidates(puzzle, state))
    passes = ((PASSES[0], [v for v in ranked if v not in fail_short], fail_short),
              (PASSES[-1], [v for v in ranked if v not in fail_long] + [v for v in ranked if v in fail_long],
               fail_long))
    for (steps, level), order, failed in passes:
        easier = fill_rules(level, puzzle, state)
        for var in order:
            if out_of_time():       # the solve's budget is spent: end as out of budget
                return
            d = probe_cell(puzzle, state, var, 4, steps, easier, fill_with=remembered_fill)
            if d is not None:
                solve_memory()[MEMO_KEY] = (state.cands, fail_short, fail_long)
                yield d
                return
            failed.add(var)


def _remembered_failures(puzzle: SlitherPuzzle, state: State) -> tuple[set[int], set[int]]:
    """The edges whose short and long trials failed at the last trial step, minus those near
    anything that changed since (every edge of a cell or dot a changed edge touches)."""
    memo = solve_memory().get(MEMO_KEY)
    if memo is None:
        return set(), set()
    cands, fail_short, fail_long = memo
    changed = narrowed(cands, state.cands, len(cands))
    if changed is None:             # not a later state of the same solve
        return set(), set()
    near = edges_around(puzzle, changed)
    return fail_short - near, fail_long - near


def clue_ways(puzzle: SlitherPuzzle, state: State, k: int) -> list[tuple[int, ...]]:
    """Every way to finish the clue of cell k: the open edges that carry the line."""
    from itertools import combinations
    lines, open_ = clue_counts(puzzle, state, k)
    need = puzzle.clues[k] - len(lines)
    if need < 0 or need > len(open_):
        return []
    return list(combinations(open_, need))


def every_way_for_a_clue(puzzle: SlitherPuzzle, state: State, focus=None):
    """Level 5: try every way to finish one clue; what all surviving ways agree on holds."""
    ranked = []
    for k in puzzle.clued:
        ways = clue_ways(puzzle, state, k)
        if len(ways) >= 2:
            ranked.append((len(ways), k, ways))
    ranked.sort()
    for _, k, ways in ranked[:MAX_CLUES]:
        _, open_ = clue_counts(puzzle, state, k)
        assumptions = []
        for way in ways:
            cands = list(state.cands)
            for e in open_:
                cands[e] = B_LINE if e in way else B_CROSS
            label = (f"{' and '.join(puzzle.edge_label(e) for e in way)} carry the line" if way
                     else "none of its open edges carries the line")
            assumptions.append((label, State(tuple(cands)), open_))
        d = branch_deduction(puzzle, state, assumptions, max_level=4, max_steps=150,
                             heuristics=fill_rules(4, puzzle, state))
        if d is not None:
            yield Deduction(d.removals, {**d.params, "n": puzzle.clues[k], "cell": puzzle.cell_label(k)},
                            cells=(puzzle.cell(k),) if puzzle.square else (), detail=d.detail)
            return


MAX_CLUES = 20          # the most constrained clues first; enough to find a step, bounded work

heuristic(id="slitherlink.every-way-for-a-clue", genre=GENRE)(every_way_for_a_clue)
