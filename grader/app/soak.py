"""Planted solutions: random puzzles built around a random valid solution, to test soundness.

A planter is a module `grader/genres/<genre>/planted.py` with `plant(rng) -> Plant`: it makes a
random valid solution, favouring the degenerate cases published puzzles rarely show (tiny
loops, loops along the border, one island, full and empty lines, the smallest boards), and
derives the clues from it, all of them or a random share. The planted solution is always a
solution, so a step that removes a planted value is a bug, and so is a contradiction, whatever
the puzzle's uniqueness. Techniques that assume uniqueness run only where the exact solver
finds the puzzle unique.

    grader benchmark --planted 10000 --genre slitherlink --workers 2
"""
from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import random
import time
import traceback
from typing import Callable, Iterable, Iterator

import attrs

from grader import genres
from grader.core.engine import Budget, Solver
from grader.core.genre import Plant
from grader.core.model import Puzzle, State
from grader.core.steps import Status

# A planted board is small: this budget is ample, and a run out of it is counted, not failed.
BUDGET = Budget(max_steps=5000, max_seconds=20.0)


@attrs.frozen
class Finding:
    """A planted puzzle on which the solve went wrong."""
    genre: str
    seed: int
    kind: str          # "unsound", "contradiction", "invalid plant", "exact solver" or "error"
    message: str
    puzzle: str        # the puzzle as native YAML, to reproduce it

    def __str__(self) -> str:
        return f"{self.genre} seed {self.seed}: {self.kind}: {self.message}"


@attrs.frozen
class Outcome:
    genre: str
    seed: int
    status: str        # the solve's status, or "error"
    unique: bool | None
    seconds: float
    finding: Finding | None = None


Planter = Callable[[random.Random], Plant]


def planter(genre: str) -> Planter | None:
    """The planter of a genre, or None when it has none."""
    try:
        module = importlib.import_module(f"grader.genres.{genre}.planted")
    except ModuleNotFoundError as exc:
        if exc.name == f"grader.genres.{genre}.planted":
            return None
        raise
    return module.plant


def genres_with_planters() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(genres.__path__)
                  if importlib.util.find_spec(f"grader.genres.{m.name}.planted"))


def seeded(genre: str, seed: int) -> random.Random:
    """The random source of one planted puzzle: the same (genre, seed) gives the same puzzle."""
    return random.Random(f"{genre}:{seed}")


def native_text(puzzle: Puzzle) -> str:
    from grader.io.native import dump
    try:
        return dump(puzzle.genre.to_native(puzzle))
    except Exception as exc:  # noqa: BLE001 - only a reproduction aid
        return f"# no native form: {exc}"


def check(genre: str, seed: int, budget: Budget = BUDGET, exact_seconds: float = 20.0,
          max_level: int = 5) -> Outcome:
    """Plant one puzzle and solve it with the techniques up to `max_level`; the outcome carries
    a Finding when something went wrong."""
    t0 = time.perf_counter()
    plant = None
    try:
        plant = planter(genre)(seeded(genre, seed))
        return check_plant(genre, seed, plant, budget, exact_seconds, max_level, t0)
    except Exception as exc:  # noqa: BLE001 - a crash is a finding, not the end of the soak
        tb = traceback.extract_tb(exc.__traceback__)[-1]
        message = f"{type(exc).__name__}: {exc} ({tb.filename.rsplit('/', 1)[-1]}:{tb.lineno})"
        text = native_text(plant.puzzle) if plant else ""
        return Outcome(genre, seed, "error", None, time.perf_counter() - t0,
                       Finding(genre, seed, "error", message, text))


def check_plant(genre: str, seed: int, plant: Plant, budget: Budget = BUDGET, exact_seconds: float = 20.0,
                max_level: int = 5, t0: float | None = None) -> Outcome:
    """check() on a given plant (tests that enumerate every solution of tiny boards use it)."""
    t0 = time.perf_counter() if t0 is None else t0
    from grader.core.registry import REGISTRY
    puzzle, planted = plant.puzzle, plant.solution
    g = puzzle.genre

    def finding(kind: str, message: str) -> Finding:
        return Finding(genre, seed, kind, message, native_text(puzzle))

    broken = g.violations(puzzle, planted) if all(m and not m & (m - 1) for m in planted.cands) else ["incomplete"]
    if broken:
        return Outcome(genre, seed, "error", None, time.perf_counter() - t0,
                       finding("invalid plant", f"the planted solution breaks a rule: {broken[0]}"))
    runs = [False]
    unique = None
    if any(h.info.uses_uniqueness for h in REGISTRY.for_genre(g.name, max_level)):
        from grader.core import exact
        unique = exact.solve(puzzle, seconds=exact_seconds).unique
        if unique:
            runs.append(True)
    status = ""
    for assume_unique in runs:
        trace = Solver(puzzle, max_level=max_level, budget=budget, validate=True,
                       assume_unique=assume_unique).solve()
        status = trace.status.value
        bad = first_unsound(puzzle, trace, planted)
        if bad:
            return Outcome(genre, seed, status, unique, time.perf_counter() - t0, finding("unsound", bad))
        if trace.status is Status.CONTRADICTION:
            return Outcome(genre, seed, status, unique, time.perf_counter() - t0,
                           finding("contradiction", f"the solve ends in a contradiction: {trace.reason}"))
        if trace.status is Status.SOLVED and unique is False:
            # a sound solve that ends solved shows the solution is the only one
            return Outcome(genre, seed, status, unique, time.perf_counter() - t0,
                           finding("exact solver", "the solve shows one solution; the exact solver finds several"))
    return Outcome(genre, seed, status, unique, time.perf_counter() - t0)


def first_unsound(puzzle: Puzzle, trace, planted: State) -> str | None:
    """The first step that removes a planted value, described, or None."""
    from grader.core.explain import var_name
    for step in trace.steps:
        for var, mask in step.deduction.removals:
            if mask & planted.cands[var]:
                return (f"step {step.number} ({step.heuristic.id}, level {step.heuristic.level}) removes "
                        f"the planted value of {var_name(puzzle, var)}: {step.deduction.params}")
    return None


def _check_job(job: tuple[str, int]) -> Outcome:
    from grader.core.engine import collect_less_often
    collect_less_often()
    return check(*job)


def soak(genres: Iterable[str], count: int, first_seed: int = 0, workers: int = 1) -> Iterator[Outcome]:
    """check() on `count` seeds per genre, in worker processes when workers > 1."""
    jobs = [(g, s) for g in genres for s in range(first_seed, first_seed + count)]
    if workers <= 1:
        yield from map(_check_job, jobs)
        return
    import multiprocessing
    with multiprocessing.get_context("spawn").Pool(workers, maxtasksperchild=2000) as pool:
        yield from pool.imap_unordered(_check_job, jobs, chunksize=16)
