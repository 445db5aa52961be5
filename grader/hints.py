"""Hints for a player: a wrong mark first, then the next step in stages
(nudge -> technique -> explanation -> answer)."""
from __future__ import annotations

from typing import Any

import attrs

from . import exact
from .engine import Solver
from .explain import describe_removals, nudge, sentence
from .genres import genre_of
from .model import Puzzle, State
from .steps import Status, Step

STAGES = ("nudge", "technique", "explain", "answer")


@attrs.frozen(eq=False)
class Hint:
    kind: str                      # mistake | step | solved | stuck | contradiction
    text: str
    vars: tuple[int, ...] = ()
    step: Step | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text}
        if self.step is not None:
            out.update({"technique": self.step.heuristic.id, "name": self.step.heuristic.name,
                        "level": self.step.level})
        return out


def reference_solution(puzzle: Puzzle) -> State | None:
    """The given solution, or the exact solver's if the puzzle has exactly one."""
    given = genre_of(puzzle).solution_state(puzzle)
    return given if given is not None else exact.solve(puzzle).solution


def mistakes(puzzle: Puzzle, marks: State, solution: State | None) -> list[int]:
    """Variables whose marks exclude the true value."""
    if solution is not None:
        return [v for v, (m, s) in enumerate(zip(marks.cands, solution.cands)) if not m & s]
    return []


def hint(puzzle: Puzzle, marks: State, stage: str = "nudge") -> Hint:
    genre = genre_of(puzzle)
    wrong = mistakes(puzzle, marks, reference_solution(puzzle))
    if wrong:
        names = ", ".join(genre.var_name(puzzle, v) for v in wrong[:5])
        more = f" (and {len(wrong) - 5} more)" if len(wrong) > 5 else ""
        return Hint("mistake", f"There is a mistake: {names}{more} is not marked right.", tuple(wrong))
    broken = genre.violations(puzzle, marks)
    if broken:
        return Hint("contradiction", f"A rule is broken: {broken[0].message}.")
    if marks.complete:
        return Hint("solved", "The puzzle is solved.")
    solver = Solver(puzzle)
    found = solver.next_step(marks)
    if found is None:
        return Hint("stuck", "No technique up to level 5 finds the next step from here.")
    h, d = found
    step = Step(1, h.info, d)
    texts = {
        "nudge": nudge(step),
        "technique": f"Use the technique '{h.info.name}' (level {h.level}): {nudge(step)}",
        "explain": sentence(step),
        "answer": f"{sentence(step)} Answer: {describe_removals(puzzle, marks, d.removals)}.",
    }
    return Hint("step", texts[stage], d.targets, step)


def why(puzzle: Puzzle, marks: State, var: int) -> tuple[Status, list[Step]]:
    """The solve path from the marks up to the step that decides `var`."""
    trace = Solver(puzzle).solve(marks, until=lambda s: s.decided(var))
    steps = list(trace.steps)
    while steps and var not in steps[-1].deduction.targets:
        steps.pop()
    return trace.status, steps
