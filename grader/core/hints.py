"""Hints for a player: a wrong mark first, then the next step in stages
(nudge -> technique -> explanation -> answer)."""
from __future__ import annotations

from typing import Any

import attrs

from grader.core import exact
from grader.core.engine import Budget, Solver
from grader.core.explain import describe_removals, nudge, sentence
from grader.core.model import Puzzle, State
from grader.core.steps import Status, Step

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


def reference(puzzle: Puzzle) -> tuple[State | None, bool]:
    """The solution to judge marks by (the given one, or the exact solver's if the puzzle has
    exactly one), and whether the puzzle is
    known to have exactly one: a published puzzle with its solution is taken to, otherwise the
    exact solver says. Techniques that assume one solution are used only when it has."""
    given = puzzle.genre.solution_state(puzzle)
    if given is not None:
        return given, True
    result = exact.solve(puzzle)
    return result.solution, result.unique is True


def mistakes(puzzle: Puzzle, marks: State, solution: State | None) -> list[int]:
    """Variables whose marks exclude the true value."""
    if solution is not None:
        return [v for v, (m, s) in enumerate(zip(marks.cands, solution.cands)) if not m & s]
    return []


def finished(puzzle: Puzzle, marks: State, solution: State | None) -> bool:
    """Whether marks with no mistake determine the solution as a player draws it: every
    variable left undecided is one whose solution value the genre lets a board leave blank
    (bulbs placed without marking the empty cells, lines drawn without crossing the rest)."""
    blank = puzzle.genre.blank
    if solution is None or blank is None:
        return False
    return all(s == 1 << blank for m, s in zip(marks.cands, solution.cands) if m & (m - 1))


def hint(puzzle: Puzzle, marks: State, stage: str = "nudge", budget: Budget = Budget()) -> Hint:
    genre = puzzle.genre
    solution, unique = reference(puzzle)
    wrong = mistakes(puzzle, marks, solution)
    if wrong:
        names = ", ".join(genre.var_name(puzzle, v) for v in wrong[:5])
        more = f" (and {len(wrong) - 5} more)" if len(wrong) > 5 else ""
        return Hint("mistake", f"There is a mistake: {names}{more} is not marked right.", tuple(wrong))
    broken = genre.violations(puzzle, marks)
    if broken:
        return Hint("contradiction", f"A rule is broken: {broken[0].message}.")
    if marks.complete or finished(puzzle, marks, solution):
        return Hint("solved", "The puzzle is solved.")
    solver = Solver(puzzle, budget=budget, assume_unique=unique, one_solution=lambda: unique)
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


def why(puzzle: Puzzle, marks: State, var: int, prune_limit: int = 80,
        budget: Budget = Budget()) -> tuple[Status, list[Step]]:
    """The steps that decide `var` from the marks: the solve path up to the step that
    decides it, with every step it does not need removed (when the path is short enough to
    check: each step dropped must leave the rest still derivable, step by step)."""
    unique = reference(puzzle)[1]
    trace = Solver(puzzle, budget=budget, assume_unique=unique, one_solution=lambda: unique).solve(
        marks, until=lambda s: s.decided(var))
    steps = list(trace.steps)
    while steps and var not in steps[-1].deduction.targets:
        steps.pop()
    if steps and len(steps) <= prune_limit:
        for i in range(len(steps) - 2, -1, -1):
            shorter = steps[:i] + steps[i + 1:]
            replayed = _replay(puzzle, marks, shorter, var)
            if replayed is not None:
                steps = replayed
    return trace.status, [attrs.evolve(s, number=n) for n, s in enumerate(steps, 1)]


def _replay(puzzle: Puzzle, start: State, steps: list[Step], var: int) -> list[Step] | None:
    """Re-derive each step with its own technique from the state the earlier ones leave; the
    re-derived steps if all still follow and the last still decides `var`, else None."""
    from grader.core.registry import REGISTRY
    state, out = start, []
    for step in steps:
        wanted = step.deduction.removals
        found = None
        for d in REGISTRY.get(step.heuristic.id).find(puzzle, state):
            after = d.apply(state)
            if all(not after.cands[v] & m for v, m in wanted):
                found = d
                break
        if found is None:
            return None
        out.append(Step(step.number, step.heuristic, found))
        state = found.apply(state)
    return out if state.decided(var) else None
