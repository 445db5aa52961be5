"""Hints for a player: a wrong mark first, then the next step in stages
(nudge -> technique -> explanation -> answer)."""
from __future__ import annotations

from typing import Any

import attrs

from grader.core import exact
from grader.core.engine import Budget, Solver
from grader.core.explain import describe_removals, nudge, sentence, value_phrase
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


def hint(puzzle: Puzzle, marks: State, stage: str = "nudge", budget: Budget = Budget(),
         known: tuple[State | None, bool] | None = None) -> Hint:
    """known: reference(puzzle), when the caller keeps it (a server asked for many hints)."""
    genre = puzzle.genre
    solution, unique = known or reference(puzzle)
    wrong = mistakes(puzzle, marks, solution)
    if wrong and solution is not None:
        return mistake_hint(puzzle, marks, wrong, solution, stage, budget, unique)
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


def mistake_hint(puzzle: Puzzle, marks: State, wrong: list[int], solution: State, stage: str,
                 budget: Budget, unique: bool | None = None) -> Hint:
    """A wrong mark, in stages like a step: where to look (its row), what it breaks (a rule,
    or the technique that decides the cell from the other marks), the short chain that
    decides it, and the correction."""
    genre = puzzle.genre
    var = wrong[0]
    name = genre.var_name(puzzle, var)
    others = f" ({len(wrong) - 1} other {'mark is' if len(wrong) == 2 else 'marks are'} wrong too)" \
        if len(wrong) > 1 else ""
    if stage == "nudge":
        return Hint("mistake", f"Something in row {genre.var_cell(puzzle, var).r + 1} is not right.", tuple(wrong))
    right = next(v for v in range(len(genre.value_phrases)) if solution.cands[var] >> v & 1)
    correction = f"{name} {value_phrase(puzzle, right)}"
    if stage == "answer":
        return Hint("mistake", f"The mark at {name} is wrong: {correction}.{others}", tuple(wrong))
    start = genre.initial_state(puzzle)
    cleared = State(tuple(start.cands[v] if v in wrong else m for v, m in enumerate(marks.cands)))
    _, chain = why(puzzle, cleared, var, budget=budget,
                   known=None if unique is None else (solution, unique))
    broken = genre.violations(puzzle, marks)
    if stage == "technique":
        reason = (f"it breaks a rule: {broken[0].message}" if broken
                  else f"'{chain[-1].heuristic.name}' (level {chain[-1].level}) decides it from your other marks"
                  if chain else "it rules out the only solution")
        return Hint("mistake", f"Look again at {name}: {reason}.{others}", tuple(wrong), chain[-1] if chain else None)
    if not chain:                # the other marks do not decide it yet (or the time ran out)
        return Hint("mistake", f"The mark at {name} is wrong: {correction}.{others}", tuple(wrong))
    shown = chain[-MISTAKE_CHAIN:]
    which = "" if len(chain) == len(shown) else f" (the last {len(shown)} of {len(chain)})"
    text = (f"Take away the mark at {name} and follow the steps that decide it{which}: "
            + " ".join(sentence(s) for s in shown) + f" So {correction}.{others}")
    return Hint("mistake", text, tuple(wrong), shown[-1])


MISTAKE_CHAIN = 4        # the steps of a mistake's explanation shown in full; earlier ones counted


def why(puzzle: Puzzle, marks: State, var: int, prune_limit: int = 80,
        budget: Budget = Budget(), known: tuple[State | None, bool] | None = None
        ) -> tuple[Status, list[Step]]:
    """The steps that decide `var` from the marks: the solve path up to the step that
    decides it, with every step it does not need removed (when the path is short enough to
    check: each step dropped must leave the rest still derivable, step by step)."""
    unique = (known or reference(puzzle))[1]
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
