"""The exact solver on clingo: no solution, exactly one, or several (with two that differ).

It checks uniqueness where the solve does not show it (grader.analysis) and, in tests,
that every deduction agrees with the unique solution.
It never feeds the solve loop: a grade made by brute force is not human-style.
"""
from __future__ import annotations

import enum
import time

import attrs

from .model import Puzzle, State


class Verdict(str, enum.Enum):
    NONE = "none"
    UNIQUE = "unique"
    SEVERAL = "several"
    UNKNOWN = "unknown"          # the time limit ran out first


@attrs.frozen(eq=False)
class ExactResult:
    verdict: Verdict
    solutions: tuple[State, ...]     # up to two
    # who showed it: the exact solver, or a human-style solve that leaves one solution
    # (grader.analysis)
    shown_by: str = "the exact solver"

    @property
    def unique(self) -> bool | None:
        return None if self.verdict is Verdict.UNKNOWN else self.verdict is Verdict.UNIQUE

    @property
    def solution(self) -> State | None:
        return self.solutions[0] if self.verdict is Verdict.UNIQUE else None


def program(puzzle: Puzzle) -> str:
    from .genres import genre_of
    g = genre_of(puzzle)
    return g.encoding_text() + "\n" + g.asp_facts(puzzle)


def solve(puzzle: Puzzle, limit: int = 2, seconds: float = 60.0) -> ExactResult:
    import clingo
    from .genres import genre_of
    g = genre_of(puzzle)
    # `seconds` bounds the whole check: grounding cannot be interrupted, so the search gets
    # what grounding left of it
    deadline = time.perf_counter() + seconds
    ctl = clingo.Control([str(limit), "--warn=none"])
    ctl.add("base", [], program(puzzle))
    ctl.ground([("base", [])])
    found: list[State] = []
    with ctl.solve(yield_=True, async_=True) as handle:
        while True:
            handle.resume()
            if not handle.wait(max(0.0, deadline - time.perf_counter())):
                handle.cancel()
                return ExactResult(Verdict.UNKNOWN, tuple(found))
            model = handle.model()
            if model is None:
                break
            found.append(g.state_from_model(puzzle, model.symbols(shown=True)))
            if len(found) >= limit:
                break
    verdict = (Verdict.NONE, Verdict.UNIQUE)[len(found)] if len(found) < 2 else Verdict.SEVERAL
    return ExactResult(verdict, tuple(found))
