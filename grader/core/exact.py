"""The exact solver on clingo: no solution, exactly one, or several (with two that differ).

It checks uniqueness where the solve does not show it (grader.core.analysis) and, in tests,
that every deduction agrees with the unique solution.
It never feeds the solve loop: a grade made by brute force is not human-style.
"""
from __future__ import annotations

import enum
import os
import threading
import time

import attrs

from grader.core.model import Puzzle, State


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
    # (grader.core.analysis)
    shown_by: str = "the exact solver"

    @property
    def unique(self) -> bool | None:
        return None if self.verdict is Verdict.UNKNOWN else self.verdict is Verdict.UNIQUE

    @property
    def solution(self) -> State | None:
        return self.solutions[0] if self.verdict is Verdict.UNIQUE else None


def program(puzzle: Puzzle) -> str:
    g = puzzle.genre
    return g.encoding_text() + "\n" + g.asp_facts(puzzle)


# Variables above which a time-limited check runs in a child process: grounding cannot be
# interrupted, and on a large board it alone can outlast the limit (a blank 200x200 Nurikabe:
# minutes and hundreds of MB), so the child is stopped at the limit instead.
LARGE = 2500


def random_solution(puzzle: Puzzle, seed: int, extra: str = "", seconds: float = 30.0,
                    conflicts: int | None = None) -> State | None:
    """One solution picked at random (clingo's random decisions from `seed`), or None when
    there is none in time: how the generators draw a random valid filling of a board with few
    or no clues. `extra`: more ASP rules, such as a least number of shaded cells; `conflicts`:
    give up after so many, a limit that, unlike seconds, gives the same answer under any load."""
    import clingo
    limit = [f"--solve-limit={conflicts}"] if conflicts is not None else []
    ctl = clingo.Control(["1", "--warn=none", f"--seed={seed}", "--rand-freq=0.3", "--sign-def=rnd", *limit])
    ctl.add("base", [], program(puzzle) + "\n" + extra)
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True, async_=True) as handle:
        if not handle.wait(seconds):
            handle.cancel()
            return None
        model = handle.model()
        return None if model is None else puzzle.genre.state_from_model(puzzle, model.symbols(shown=True))


def solve(puzzle: Puzzle, limit: int = 2, seconds: float = 60.0) -> ExactResult:
    if (seconds != float("inf") and len(puzzle.genre.initial_state(puzzle).cands) > LARGE
            and hasattr(os, "fork") and threading.active_count() == 1):
        return _solve_in_child(puzzle, limit, seconds)
    return _solve_here(puzzle, limit, seconds)


def _solve_in_child(puzzle: Puzzle, limit: int, seconds: float) -> ExactResult:
    """solve() in a forked child, given up (UNKNOWN) when it has not answered in time."""
    import pickle, select, signal     # noqa: E401 - only here: a grade the solve settles needs none
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:                                   # the child: answer through the pipe, then go
        try:
            os.close(read)
            r = _solve_here(puzzle, limit, seconds)
            data = pickle.dumps((r.verdict.value, [s.cands for s in r.solutions]))
            with os.fdopen(write, "wb") as out:
                out.write(data)
        finally:
            os._exit(0)
    os.close(write)
    chunks: list[bytes] = []
    deadline = time.perf_counter() + seconds + 0.5     # the child's own limit, and a little
    try:
        while True:
            left = deadline - time.perf_counter()
            if left <= 0 or not select.select([read], [], [], left)[0]:
                return ExactResult(Verdict.UNKNOWN, ())
            chunk = os.read(read, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
        try:
            verdict, solutions = pickle.loads(b"".join(chunks))
        except Exception:  # noqa: BLE001 - the child died before it answered
            return ExactResult(Verdict.UNKNOWN, ())
        return ExactResult(Verdict(verdict), tuple(State(tuple(c)) for c in solutions))
    finally:
        os.close(read)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)


def _solve_here(puzzle: Puzzle, limit: int, seconds: float) -> ExactResult:
    import clingo
    g = puzzle.genre
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
