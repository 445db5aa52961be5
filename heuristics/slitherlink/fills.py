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
# The fills kept, by start and focus, as candidates of their starts: a trace holds about two
# states of the board (its start is the key), so some 16 MB on the biggest boards (1,500 edges:
# 660 starts, each with one fill per rules and step count asked of it: in practice one, the
# what-ifs' and the trials' short pass); the what-ifs' fills come back within a few hundred
# fills (the trials' short pass after them)
KEPT_CANDIDATES = 1_000_000
PURE_LEVEL = 3          # the highest level of a fill's rules for its trace to be kept


def remembered_fill(puzzle: SlitherPuzzle, state: State, changed: Iterable[int], max_level: int,
                    max_steps: int, heuristics: Sequence[Heuristic] | None = None,
                    greedy: bool = False) -> Trace:
    """grader.core.probing.fill, or the same fill made earlier in the solve (given rules of
    levels 1-3 only; `max_level` does not matter then: the fill uses the rules given), or one
    taken on from a fill made earlier with its first rules (see went_on)."""
    if heuristics is None:
        return fill(puzzle, state, changed, max_level, max_steps, heuristics, greedy)
    changed = frozenset(changed)
    pure = all(h.level <= PURE_LEVEL for h in heuristics)
    kept = solve_memory().setdefault(FILLS_KEY, {})
    fills = kept.get((state.cands, changed))
    rules = tuple(heuristics)
    trace = fills.get((max_steps, rules, greedy)) if fills and pure else None
    if trace is None:
        solver = Solver(puzzle, max_level=max_level, heuristics=heuristics,
                        budget=Budget.steps_only(max_steps), greedy=greedy)
        trace = (fills and went_on(solver, fills, changed)) or solver.solve(state, focus=changed)
        if pure and not out_of_time():      # (a fill the solve's deadline cut short is not kept)
            if fills is None:
                if len(kept) >= max(64, KEPT_CANDIDATES // max(len(state.cands), 1)):
                    del kept[next(iter(kept))]          # the oldest
                fills = kept[state.cands, changed] = {}
            fills[max_steps, rules, greedy] = trace
    return trace


def remembered_look(puzzle: SlitherPuzzle, state: State, put: dict[int, int], steps: int,
                    rules: Sequence[Heuristic], max_level: int) -> Look:
    """grader.core.probing._look (a way of a subject followed `steps` steps with `rules`), taken
    on from a what-if's fill of the same way where there is one (see went_on)."""
    start, focus = state.assume(put), frozenset(put)
    solver = Solver(puzzle, max_level=max_level, heuristics=rules, budget=Budget.steps_only(steps))
    fills = solve_memory().get(FILLS_KEY, {}).get((start.cands, focus))
    return Look((fills and went_on(solver, fills, focus)) or solver.solve(start, focus=focus), solver)


def went_on(solver: Solver, fills: dict, focus: frozenset[int]) -> Trace | None:
    """What `solver` finds from the start of `fills` (kept fills of one start and `focus`) from
    one made with the first of its rules (a what-if's, or the trials' short pass, of levels
    1-2), or None. Until those rules find nothing, the later ones are never asked, so the
    fill's steps are the solve's first ones: a fill stopped on a broken or full board is the
    whole solve, a stuck one goes on with the later rules (Solver.go_on_past), and one stopped
    on its step count is the whole solve only with the same count."""
    rules, most = solver.heuristics, solver.budget.max_steps
    for (steps, first, greedy), trace in fills.items():
        if greedy or solver.greedy or len(trace.steps) > most or tuple(rules[:len(first)]) != first:
            continue
        if _stuck(trace):
            return solver.go_on_past(trace, len(first), focus)
        if trace.status is not Status.BUDGET or (steps == most and len(trace.steps) == most):
            return trace
    return None


def _stuck(trace: Trace) -> bool:
    """Whether a solve stopped because none of its techniques found anything (stuck, or a
    rule found broken then), not on a variable emptied, a full board or its step count."""
    if trace.status is Status.STUCK:
        return True
    final = trace.final.cands
    return (trace.status is Status.CONTRADICTION and 0 not in final
            and any(m & (m - 1) for m in final))
