"""Shared test helpers: corpus access, soundness against the unique solution, must-fire cases."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

import pytest

from grader.core import exact
from grader.core.engine import Budget, Solver
from grader.core.errors import InputError, Source
from grader.io.read import from_record, load
from grader.io.janko import read_records
from grader.core.registry import Heuristic, REGISTRY, check_params
from grader.core.model import Puzzle, State
from grader.core.resources import evaluation_corpus
from grader.core.steps import Status

ROOT = Path(__file__).resolve().parent.parent
SHARED = evaluation_corpus(ROOT)        # $GRADER_CORPUS, else ../shared/corpus
CORPUS = ROOT / "corpus"

# The loop genres' enclosure case on a 4x5 board: the crosses ROWS_APART close off row 1
# between r1c1 and r1c5, where two of the four lines FOUR_ENDS end.
ROWS_APART = ["r1c2-r2c2", "r1c3-r2c3", "r1c4-r2c4", "r3c2-r4c2", "r3c3-r4c3", "r3c4-r4c4",
              "r2c1-r3c1", "r2c5-r3c5"]
FOUR_ENDS = ["r1c1-r2c1", "r3c1-r4c1", "r1c5-r2c5", "r3c5-r4c5"]


def shared(path: str) -> Path:
    """A file of the evaluation corpus, or skip the test when it is absent (conftest.py counts
    these skips by the words 'evaluation corpus' in the reason)."""
    p = SHARED / path
    if not p.exists():
        pytest.skip(f"{p} is absent (the evaluation corpus is read at run time only)")
    return p


def janko(genre: str, count: int, seed: int = 0, max_cells: int | None = None) -> list[Puzzle]:
    """A reproducible sample of janko puzzles of one genre (skips when the corpus is absent)."""
    path = shared(f"janko/{genre}.jsonl")
    puzzles = []
    for rec in read_records(path):
        if isinstance(rec, Exception):
            continue
        if max_cells is not None:
            d = rec.data
            cells = int(d.get("rows", d.get("size", 0))) * int(d.get("cols", d.get("size", 0)))
            if cells > max_cells:
                continue
        puzzles.append(rec)
    random.Random(seed).shuffle(puzzles)
    return [from_record(r) for r in puzzles[:count]]


def cyclic_garbage_of_solve(puzzle: Puzzle, warm_up: Puzzle) -> int:
    """The objects a solve of `puzzle` leaves in reference cycles (after a solve of `warm_up`
    has loaded what a first solve loads): each one waits for the collector, whose passes cost
    a solve time that grows with all that lives."""
    import gc
    Solver(warm_up).solve()
    gc.collect()
    gc.disable()
    try:
        Solver(puzzle).solve()
        return gc.collect()
    finally:
        gc.enable()


def reference(puzzle: Puzzle) -> State:
    """The unique solution, checked with the exact solver (and against the given one)."""
    result = exact.solve(puzzle)
    assert result.verdict is exact.Verdict.UNIQUE, f"{puzzle.meta.origin}: {result.verdict.value}"
    given = puzzle.genre.solution_state(puzzle)
    if given is not None:
        assert given == result.solution
    return result.solution


def assert_sound_path(puzzle: Puzzle, solution: State | None = None, start: State | None = None,
                      budget: Budget = Budget(max_steps=5000, max_seconds=60)) -> Status:
    """Solve with every heuristic; each deduction must keep the true value of every variable."""
    solution = solution or reference(puzzle)
    solver = Solver(puzzle, budget=budget, validate=True)
    trace = solver.solve(start)
    genre = puzzle.genre
    for step, before, after in trace.states():
        for var, mask in step.deduction.removals:
            assert not mask & solution.cands[var], (
                f"{puzzle.meta.origin}: step {step.number} ({step.heuristic.id}) removes the true value "
                f"of {genre.var_name(puzzle, var)}: {step.deduction.params}")
    return trace.status


def assert_solved_soundly(paths: Iterable[Path]) -> None:
    """Each puzzle file is solved, and no step removes a value of its given solution."""
    for path in paths:
        p = load(str(path))
        assert assert_sound_path(p, p.genre.solution_state(p)) is Status.SOLVED, path


def assert_puzzles_solved_soundly(puzzles: Iterable[Puzzle]) -> None:
    """Each puzzle is solved, and no step removes a value of its unique solution (found by the
    exact solver, where `assert_solved_soundly` takes the solution the file gives)."""
    for p in puzzles:
        assert assert_sound_path(p) is Status.SOLVED, p.meta.origin


def assert_never_contradicted(puzzles: Iterable[Puzzle]) -> None:
    """No step removes a value of the unique solution, and no solve ends in a contradiction."""
    for p in puzzles:
        assert assert_sound_path(p) is not Status.CONTRADICTION, p.meta.origin


def states_of_solve(puzzle: Puzzle) -> Iterator[tuple[int, State]]:
    """(n, the state after step n) along the puzzle's solve, for checks that what a technique
    remembers from earlier states gives what a fresh look gives."""
    trace = Solver(puzzle).solve()
    state = trace.start
    for n, step in enumerate(trace.steps, 1):
        state = step.deduction.apply(state)
        yield n, state


def random_partial(puzzle: Puzzle, solution: State, rng: random.Random, fraction: float) -> State:
    """The start state with a random share of variables set to their true values."""
    start = puzzle.genre.initial_state(puzzle)
    cands = list(start.cands)
    for v in range(len(cands)):
        if rng.random() < fraction:
            cands[v] &= solution.cands[v]
    return State(tuple(cands))


def assert_all_sound(h: Heuristic, puzzle: Puzzle, state: State, solution: State) -> int:
    """Every deduction a heuristic lists from a correct state keeps the true values."""
    n = 0
    for d in h.find(puzzle, state):
        check_params(h.info, d)
        for var, mask in d.removals:
            assert not mask & solution.cands[var], f"{h.id} is unsound at var {var}: {d.params}"
        n += 1
    return n


def assert_sound_from_partial_states(puzzles: Iterable[Puzzle], techniques: Sequence[Heuristic],
                                     rng: random.Random, shares: Sequence[float], rounds: int = 0,
                                     solution: Callable[[Puzzle], State] = reference) -> int:
    """From random partial states of each puzzle (`random_partial` at a share), every deduction
    of the techniques keeps the true values. One state a share, or `rounds` states at a share
    drawn from `shares`. Returns how many deductions were checked."""
    checked = 0
    for p in puzzles:
        truth = solution(p)
        for k in range(rounds or len(shares)):
            state = random_partial(p, truth, rng, rng.choice(shares) if rounds else shares[k])
            for h in techniques:
                checked += assert_all_sound(h, p, state, truth)
    return checked


def assert_sound_when_nearly_solved(genre: str, hids: str) -> None:
    """Enclosures and small loops show up late: from real puzzles with most of the solution
    drawn at random, every deduction of these techniques (ids without the genre) keeps the
    true values, and some fire."""
    techniques = [REGISTRY.get(f"{genre}.{hid}") for hid in hids.split()]
    assert assert_sound_from_partial_states(janko(genre, 3, seed=5, max_cells=100), techniques,
                                            random.Random(1), (0.6, 0.75, 0.85), rounds=4,
                                            solution=lambda p: p.genre.solution_state(p)) > 0


def refusal(read: Callable[..., object], *args: object) -> str:
    """The message of the InputError that read(*args) must raise."""
    with pytest.raises(InputError) as err:
        read(*args)
    return str(err.value)


def refused(read: Callable[..., object], *args: object) -> str:
    """The message of the InputError that read(*args) must raise; a refusal is one line."""
    text = refusal(read, *args)
    assert "\n" not in text, text
    return text


def fires(hid: str, puzzle: Puzzle, state: State | None = None) -> list:
    h = REGISTRY.get(hid)
    state = state or puzzle.genre.initial_state(puzzle)
    found = list(h.find(puzzle, state))
    for d in found:
        check_params(h.info, d)
    return found


def decided_by(found: Iterable, puzzle: Puzzle, state: State) -> dict[str, str]:
    """{var name: what it became} over a list of deductions, for readable assertions."""
    genre = puzzle.genre
    out = {}
    for d in found:
        after = d.apply(state)
        for var, _ in d.removals:
            v = after.value(var)
            out[genre.var_name(puzzle, var)] = genre.value_phrases[v][0] if v is not None else "narrowed"
    return out


def marks(puzzle: Puzzle, drawing: str) -> State:
    """The state a drawing in the genre's marks notation stands for (as --marks reads it)."""
    return puzzle.genre.parse_marks(puzzle, drawing, Source("<marks>"))


def found(hid: str, puzzle: Puzzle, state: State | None = None) -> dict[str, str]:
    """What one technique decides in a state (the start state by default), as `decided_by`."""
    state = state or puzzle.genre.initial_state(puzzle)
    return decided_by(fires(hid, puzzle, state), puzzle, state)


def assert_each_finds_only_truths(puzzle: Puzzle, state: State, solution: State,
                                  hids: Iterable[str]) -> None:
    """Each technique finds something in the state, and nothing it finds removes a value of
    the solution."""
    for hid in hids:
        assert assert_all_sound(REGISTRY.get(hid), puzzle, state, solution), hid


def assert_corpus_solves(genre: str, most: int | None = None) -> None:
    """The genre's files in the project corpus (the first `most` of them) are solved, to the
    solution they give."""
    files = sorted((CORPUS / genre).glob("*.yaml"))
    assert files
    for f in files[:most]:
        p = load(str(f))
        trace = Solver(p).solve()
        assert trace.status is Status.SOLVED, f
        assert p.genre.solution_from_state(p, trace.final) == p.solution


def native(text: str, origin: str = "<test>") -> Puzzle:
    from grader.io.read import load_native
    return load_native(text, origin)


def assert_sound_from_each_decided_cell(p: Puzzle, planted: State) -> None:
    """Solve from every start with one cell decided as planted: no step may remove a planted
    value (a technique's slip may otherwise hide inside a trial that agrees on nothing)."""
    from grader.app.soak import BUDGET, first_unsound
    start = Solver(p).initial_state()
    for i, m in enumerate(start.cands):
        if m != planted.cands[i]:
            trace = Solver(p, budget=BUDGET, validate=True, assume_unique=False).solve(
                start.restrict(i, planted.cands[i]))
            assert first_unsound(p, trace, planted) is None, (first_unsound(p, trace, planted), i)
