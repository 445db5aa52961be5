"""The rule engine's three results (spec/solver-design.md) on top of the engine's solve loop.

The solve loop already does what the spec describes: rules in order of complexity, the first
one that makes progress is applied, then start again from the simplest. Its statuses map to
the spec's results: solved -> Solved, contradiction -> NoSolution, stuck -> Underconstrained
(a budget that runs out is Underconstrained too: nothing more was proved).
"""
from __future__ import annotations

import enum

from grader.core.engine import Budget, Solver
from grader.core.model import Puzzle, State
from grader.core.steps import Status, Trace


class Result(str, enum.Enum):
    SOLVED = "Solved"
    NO_SOLUTION = "NoSolution"
    UNDERCONSTRAINED = "Underconstrained"


def result_of(status: Status) -> Result:
    return {Status.SOLVED: Result.SOLVED, Status.CONTRADICTION: Result.NO_SOLUTION}.get(
        status, Result.UNDERCONSTRAINED)


def solve_with_rules(puzzle: Puzzle, state: State | None = None, *, max_complexity: int = 5,
                     budget: Budget = Budget()) -> tuple[Result, Trace]:
    trace = Solver(puzzle, max_level=max_complexity, budget=budget).solve(state)
    return result_of(trace.status), trace
