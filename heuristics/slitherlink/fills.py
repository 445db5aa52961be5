"""The fills of a solve's hypotheses, each made once: the what-ifs of level 4 and the short
pass of the trials of level 5 follow the same assumption from the same state with the same
rules (an edge either way, the two ways of a number or of a loose end), and the later one
takes the trace the first one made.

Exact: a fill with the rules of levels 1-3 reads only its start, where it starts looking, its
rules and its step budget (those rules keep nothing in the solve's memory that could change
what they find: only facts of a state, such as the parts of the board, by its crossings)."""
from __future__ import annotations

from typing import Iterable, Sequence

from grader.core.engine import Budget, Solver, out_of_time, solve_memory
from grader.core.model import State
from grader.core.probing import Look, fill
from grader.core.registry import Heuristic
from grader.core.steps import Status, Trace
from grader.genres.slitherlink.model import SlitherPuzzle

FILLS_KEY = "slitherlink.fills"
# The fills kept, as candidates of their starts: a trace holds about two states of the board
# (its start is the key), so some 16 MB on the biggest boards (1,500 edges: 660 fills); the
# what-ifs' fills come back within a few hundred fills (the trials' short pass after them)
KEPT_CANDIDATES = 1_000_000
PURE_LEVEL = 3          # the highest level of a fill's rules for its trace to be kept


def remembered_fill(puzzle: SlitherPuzzle, state: State, changed: Iterable[int], max_level: int,
                    max_steps: int, heuristics: Sequence[Heuristic] | None = None,
                    greedy: bool = False) -> Trace:
    """grader.core.probing.fill, or the same fill made earlier in the solve (given rules of
    levels 1-3 only; `max_level` does not matter then: the fill uses the rules given)."""
    if heuristics is None or any(h.level > PURE_LEVEL for h in heuristics):
        return fill(puzzle, state, changed, max_level, max_steps, heuristics, greedy)
    kept = solve_memory().setdefault(FILLS_KEY, {})
    changed = frozenset(changed)
    key = (state.cands, changed, max_steps, tuple(heuristics), greedy)
    trace = kept.get(key)
    if trace is None:
        trace = fill(puzzle, state, changed, max_level, max_steps, heuristics, greedy)
        if not out_of_time():           # (a fill the solve's deadline cut short is not kept)
            if len(kept) >= max(64, KEPT_CANDIDATES // max(len(state.cands), 1)):
                del kept[next(iter(kept))]          # the oldest
            kept[key] = trace
    return trace


def remembered_look(puzzle: SlitherPuzzle, state: State, put: dict[int, int], steps: int,
                    rules: Sequence[Heuristic], max_level: int) -> Look:
    """grader.core.probing._look (a way of a subject followed `steps` steps with `rules`), taken
    on from a fill made earlier in the solve with the first of those rules from the same start
    (a what-if's, with the rules of levels 1-2): its steps are the look's first ones, and where
    it stopped before its step count without being stuck, the whole look."""
    start, focus = state.assume(put), frozenset(put)
    solver = Solver(puzzle, max_level=max_level, heuristics=rules, budget=Budget.steps_only(steps))
    kept = solve_memory().get(FILLS_KEY, {})
    for level in sorted({h.level for h in rules}, reverse=True):
        first = tuple(h for h in rules if h.level <= level)
        trace = kept.get((start.cands, focus, steps, first, False))
        if trace is None or tuple(rules[:len(first)]) != first:
            continue
        if _stuck(trace):
            return Look(solver.go_on_past(trace, sum(h.level <= level for h in solver.heuristics), focus),
                        solver)
        if trace.status is not Status.BUDGET or len(trace.steps) >= steps:
            return Look(trace, solver)      # (a look the solve's deadline cut short: afresh)
    return Look(solver.solve(start, focus=focus), solver)


def _stuck(trace: Trace) -> bool:
    """Whether a solve stopped because none of its techniques found anything (stuck, or a
    rule found broken then), not on a variable emptied, a full board or its step count."""
    if trace.status is Status.STUCK:
        return True
    final = trace.final.cands
    return (trace.status is Status.CONTRADICTION and 0 not in final
            and any(m & (m - 1) for m in final))
