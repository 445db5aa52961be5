"""The answers `grader hint --why` and `grader check` give, as one function each, so the command
line and the web API (grader.web) build the same JSON from one place."""
from __future__ import annotations

import re
from typing import Any

from grader.core.engine import Budget
from grader.core.errors import InputError
from grader.core.explain import describe_removals, sentence
from grader.core.model import Puzzle, State

CELL = re.compile(r"^r(\d+)c(\d+)$")


def cell_var(puzzle: Puzzle, cell: str, what: str = "--why") -> int:
    """The variable that decides a cell written like r3c4 (1-based), or an InputError."""
    m = CELL.match(cell.strip())
    if not m:
        raise InputError(what, f"'{cell}' is not a cell like r3c4")
    r, c = int(m.group(1)) - 1, int(m.group(2)) - 1
    rows, cols = getattr(puzzle, "rows", 0), getattr(puzzle, "cols", 0)
    if not (0 <= r < rows and 0 <= c < cols):
        raise InputError(what, f"{cell} is outside the {rows}x{cols} grid")
    return puzzle.genre.cell_var(puzzle, r, c)


def why_answer(puzzle: Puzzle, marks: State, cell: str, budget: Budget = Budget(),
               what: str = "--why", known: tuple[State | None, bool] | None = None
               ) -> tuple[dict[str, Any], str, list[int]]:
    """(the JSON of `hint --why`, its text, the variables of its steps) for one cell.
    known: the puzzle's reference solution, when the caller keeps it (grader.core.hints)."""
    from grader.core.hints import why
    var = cell_var(puzzle, cell, what)
    status, steps = why(puzzle, marks, var, budget=budget, known=known)
    data = [{"step": s.number, "level": s.level, "technique": s.heuristic.id, "text": sentence(s)}
            for s in steps]
    used: list[int] = [var]
    if steps:
        state = marks
        for s in steps:
            state = s.deduction.apply(state)
            used += [v for v in s.deduction.targets if v not in used]
        verdict = describe_removals(puzzle, marks, ((var, marks.cands[var] & ~state.cands[var]),))
        text = f"{verdict}: {len(steps)} step{'s' if len(steps) != 1 else ''} decide it.\n" + \
            "\n".join(f"{s.number:>4}. [L{s.level}] {sentence(s)}" for s in steps)
    else:
        text = f"{cell} cannot be decided from here ({status.value})."
    return {"cell": cell, "steps": data}, text, used


def judge_board(puzzle: Puzzle, board: Any, solution: Any) -> tuple[str, list[str], list[str]]:
    """(status, rules broken, cells marked wrong) of a player's board, judged as `hint` judges
    it: a broken rule, or a mark that rules out the only solution's value, is a mistake."""
    from grader.core.hints import mistakes
    status, broken = board.verdict()
    genre = puzzle.genre
    wrong = [genre.var_name(puzzle, v) for v in mistakes(puzzle, board.marks, solution)]
    return ("mistake" if broken or wrong else status), broken, wrong
