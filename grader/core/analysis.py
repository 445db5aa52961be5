"""Grade one puzzle end to end: solve path, grade, uniqueness and the given solution."""
from __future__ import annotations

import time
from typing import Any

import attrs

from grader.core import exact
from grader.core.engine import Budget, Solver
from grader.core.grading import Grade, grade
from grader.core.registry import REGISTRY
from grader.core.model import Puzzle
from grader.core.steps import Status, Trace


@attrs.frozen(eq=False)
class Analysis:
    id: str
    puzzle: Puzzle
    trace: Trace
    grade: Grade
    uniqueness: exact.ExactResult | None        # None when not checked
    matches_given_solution: bool | None
    seconds: float

    def row(self, with_levels: bool = False) -> dict[str, Any]:
        """One batch row; `grade --json` adds steps per level and techniques."""
        g = self.grade
        row: dict[str, Any] = {
            "id": self.id, "genre": self.puzzle.genre.name, "size": puzzle_size(self.puzzle),
            "cells": puzzle_cells(self.puzzle, self.trace), "status": g.status.value, "level": g.level,
            "difficulty": g.difficulty, "effort": g.effort, "score": g.score, "label": g.label, "steps": g.steps,
            "unique": None if self.uniqueness is None else self.uniqueness.unique,
        }
        if self.matches_given_solution is not None:
            row["matches_given_solution"] = self.matches_given_solution
        if self.puzzle.meta.label:
            row["publisher_label"] = self.puzzle.meta.label
        row["seconds"] = round(self.seconds, 3)
        if with_levels:
            row["steps_per_level"] = {str(k): v for k, v in g.steps_per_level.items()}
            row["techniques"] = dict(sorted(g.techniques.items()))
            row["bottlenecks"] = list(g.bottlenecks)
            if self.trace.reason:
                row["reason"] = self.trace.reason
        return row


def puzzle_size(puzzle: Puzzle) -> str | None:
    """ROWSxCOLS for a grid puzzle; None for one that is not a grid (a graph)."""
    rows, cols = getattr(puzzle, "rows", None), getattr(puzzle, "cols", None)
    return f"{rows}x{cols}" if isinstance(rows, int) and isinstance(cols, int) and rows > 0 else None


def puzzle_cells(puzzle: Puzzle, trace: Trace) -> int:
    """How big the puzzle is, for growth figures: a grid's cells, else its unknowns."""
    rows, cols = getattr(puzzle, "rows", None), getattr(puzzle, "cols", None)
    if isinstance(rows, int) and isinstance(cols, int) and rows > 0:
        return rows * cols
    return len(trace.start.cands)


def analyse(puzzle: Puzzle, *, id: str | None = None, budget: Budget = Budget(),
            check_unique: bool = True, max_level: int = 5) -> Analysis:
    t0 = time.perf_counter()
    genre = puzzle.genre
    asked: list[exact.ExactResult] = []
    def ask_exact() -> exact.ExactResult:
        if not asked:
            asked.append(exact.solve(puzzle, seconds=max(5.0, budget.max_seconds)))
        return asked[0]
    def may_be_unique() -> bool:
        # a last resort searching without bound ends only when there is one solution
        return ask_exact().verdict in (exact.Verdict.UNIQUE, exact.Verdict.UNKNOWN)
    # Techniques that rely on uniqueness are only fair when the puzzle has one solution, so
    # where a genre has any, the exact solver is asked first.
    assumes = any(h.info.uses_uniqueness for h in REGISTRY.for_genre(genre.name, max_level))
    ex = ask_exact() if check_unique and assumes else None
    unique = ex is None or ex.verdict in (exact.Verdict.UNIQUE, exact.Verdict.UNKNOWN)
    trace = Solver(puzzle, budget=budget, max_level=max_level, assume_unique=unique,
                   one_solution=may_be_unique if check_unique else None, count_available=True).solve()
    if check_unique and ex is None:
        # Otherwise a solve that ends solved shows it: every step removed only what no
        # solution has, so the solution it ends at is the only one (as in Tatham's solvers).
        ex = (exact.ExactResult(exact.Verdict.UNIQUE, (trace.final,), shown_by="the solve")
              if trace.status is Status.SOLVED else ask_exact())
    given = genre.solution_state(puzzle)
    matches = None
    if given is not None and trace.status is Status.SOLVED:
        matches = trace.final == given
    return Analysis(id or puzzle.meta.id or puzzle.meta.origin, puzzle, trace, grade(trace), ex, matches,
                    time.perf_counter() - t0)
