"""Make puzzles at a chosen grade, as Simon Tatham's generators do: the genre draws a random
solution and dresses it with every clue it can carry (a Draft); this loop, which knows no
genre, takes clues away while the techniques up to the target level still solve the puzzle,
then grades what is left and keeps it when the grade hits the target.

A puzzle the techniques solve has exactly one solution (every step removed only what no
solution has), so the level cap does the uniqueness check as it goes; the exact solver
confirms the puzzle that is kept. Because the solve loop always takes the easiest deduction,
a puzzle graded at level N cannot be solved one level lower: Tatham's rule that a generator
refuses a puzzle a lower tier solves holds by construction.

Steering: a draft whose last removal overshoots a difficulty range puts clues back, the last
removed first, until it is inside (or too easy, and the draft is dropped).
"""
from __future__ import annotations

import random
import time
from typing import Callable, Iterable, Protocol

import attrs

from grader.core import exact
from grader.core.analysis import Analysis, analyse
from grader.core.engine import Budget, Solver
from grader.core.explain import counted
from grader.core.grading import Grade, difficulty_table
from grader.core.model import Puzzle
from grader.core.steps import Status

LEVELS = (1, 2, 3, 4, 5)


@attrs.frozen
class Draft:
    """A random solution with every clue it can carry.

    clues: the keys of the clues that may be taken away (a genre chooses what a key is; a
    cell index when `grid` is given, so that clues can be kept in rotational pairs);
    build(kept): the puzzle that keeps those clues (and every fixed part of the draft: walls,
    rooms, numbers that cannot go). A draft without removable clues is graded as it is."""
    clues: tuple[int, ...]
    build: Callable[[frozenset[int]], Puzzle]
    grid: tuple[int, int] | None = None        # (rows, cols) when the keys are cell indices
    # A small random change of the solution (a cell of a picture flipped, a number moved):
    # a draft that grades too easy climbs by these while they make it harder.
    tweak: Callable[[random.Random], "Draft | None"] | None = None
    # Strip a level target's clues level by level (see _attempt), for a genre whose one pass at
    # the target mostly ends below it (Masyu: its level-2 and level-3 techniques are seldom
    # needed); elsewhere one pass at the target hits more often, and costs fewer solves.
    by_level: bool = False
    # From this level on, the exact solver looks at each removal of a pass first (see
    # _solves): for a genre whose failing solves there cost more than that check (the loop
    # genres at level 4, Masyu from 3); where they are cheap (Akari, Kuromasu, Minesweeper,
    # Slitherlink at level 3) the check would cost more than it saves.
    exact_first: int | None = None


class Maker(Protocol):
    """Draws a draft. `cap` is the hardest level the target allows: a genre may draw easier
    drafts for a low cap (more clues where level 1 decides), as Tatham's easy tiers do."""
    def __call__(self, rng: random.Random, rows: int, cols: int, cap: int = 5) -> Draft | None: ...


@attrs.frozen
class Target:
    """What the puzzle must grade: a level, a label, or a difficulty range (inclusive)."""
    level: int | None = None
    label: str | None = None
    difficulty: tuple[float, float] | None = None

    def __attrs_post_init__(self) -> None:
        given = [x for x in (self.level, self.label, self.difficulty) if x is not None]
        if len(given) > 1:
            raise ValueError("give one of a level, a label or a difficulty range")
        if self.level is not None and self.level not in LEVELS:
            raise ValueError(f"level {self.level} is not one of 1-5")
        if self.label is not None and self.label not in labels():
            raise ValueError(f"label {self.label!r} is not one of {', '.join(labels())}")
        if self.difficulty is not None and not (1.0 <= self.difficulty[0] <= self.difficulty[1] <= 10.0):
            raise ValueError("a difficulty range is A-B with 1.0 <= A <= B <= 10.0")

    @property
    def cap(self) -> int:
        """The hardest level the puzzle may need (the clue-removal solves stop there)."""
        if self.level is not None:
            return self.level
        if self.label is not None:       # a label comes from its level, or from the one below bumped up
            return max(k for k, row in difficulty_table()["levels"].items() if row["label"] == self.label)
        if self.difficulty is not None:
            base = difficulty_table()["difficulty"]["base"]
            return max(k for k in LEVELS if base[k] <= self.difficulty[1])
        return 5

    def hit(self, g: Grade) -> bool:
        if g.status is not Status.SOLVED:
            return False
        if self.level is not None:
            return g.level == self.level
        if self.label is not None:
            return g.label == self.label
        if self.difficulty is not None:
            return self.difficulty[0] <= g.difficulty <= self.difficulty[1]
        return True

    def too_hard(self, g: Grade) -> bool:
        return self.difficulty is not None and g.difficulty > self.difficulty[1]

    def describe(self) -> str:
        if self.level is not None:
            return f"level {self.level}"
        if self.label is not None:
            return f"label {self.label}"
        if self.difficulty is not None:
            return f"difficulty {self.difficulty[0]:g}-{self.difficulty[1]:g}"
        return "any grade"


def labels() -> list[str]:
    return list(difficulty_table()["labels"])


@attrs.frozen
class Made:
    puzzle: Puzzle
    analysis: Analysis
    attempts: int
    clues: int                  # removable clues kept (the fixed parts not counted)
    seconds: float


@attrs.frozen
class Settings:
    attempts: int = 200             # drafts to try before giving up
    symmetric: bool = False         # keep clues in pairs under a half turn of the board
    max_clues: int | None = None    # at most this many removable clues kept
    solve_seconds: float = 20.0     # each solve's budget inside the loop
    max_seconds: float | None = None   # give up on a puzzle after this long (between drafts)


class GiveUp(Exception):
    """No puzzle hit the target within the attempts: the message says how close they came."""


def generate(maker: Maker, rows: int, cols: int, target: Target, rng: random.Random,
             settings: Settings = Settings(),
             on_attempt: Callable[[int, Grade | None], None] | None = None) -> Made:
    """Draft after draft until one hits the target; GiveUp after `settings.attempts`."""
    t0 = time.perf_counter()
    seen: dict[tuple[str, str], int] = {}        # (noun, what became of it): how many
    tried = 0
    for attempt in range(1, settings.attempts + 1):
        if attempt > 1 and settings.max_seconds is not None and time.perf_counter() - t0 > settings.max_seconds:
            break                   # (the first draft always runs)
        tried = attempt
        draft = maker(rng, rows, cols, cap=target.cap)
        outcome = _attempt(draft, target, rng, settings) if draft is not None else None
        if on_attempt:
            on_attempt(attempt, outcome[0].grade if outcome else None)
        if outcome is None:
            why = (("draft", "that came to nothing") if draft is None else
                   ("draft", f"the techniques up to level {target.cap} did not solve (several solutions, "
                    "or harder)"))
            seen[why] = seen.get(why, 0) + 1
            continue
        if not target.hit(outcome[0].grade) and draft is not None and draft.tweak is not None:
            outcome = _climb(draft, outcome, target, rng, settings)
        a, kept = outcome
        if target.hit(a.grade) and _confirmed(a.puzzle, settings):
            return Made(a.puzzle, a, attempt, kept, time.perf_counter() - t0)
        key = (("puzzle", f"at level {a.grade.level}") if a.grade.status is Status.SOLVED
               else ("puzzle", "not solved"))
        seen[key] = seen.get(key, 0) + 1
    got = ", ".join(f"{counted(n, noun)} {tail}" for (noun, tail), n in sorted(seen.items()))
    within = (f"within {settings.max_seconds:g} s ({counted(tried, 'attempt')}: {got})"
              if tried < settings.attempts else f"in {counted(settings.attempts, 'attempt')} ({got})")
    raise GiveUp(f"no {target.describe()} puzzle {within}")


def _attempt(draft: Draft, target: Target, rng: random.Random,
             settings: Settings) -> tuple[Analysis, int] | None:
    """One draft: strip it to what the capped techniques still solve, grade, steer. None when
    the draft's full clues are not solved within the cap, or too many clues stay.

    A draft `by_level` with a level target has its clues stripped in passes: at the first
    level that solves the draft (most clues go here, in the cheap solves), at the level below
    the target, and at the target. Every clue the last pass takes away leaves a puzzle the
    level below cannot finish (fewer clues never make a solve easier), so a draft that lets any
    go there grades at the target. (A pass at a level in between seldom takes away enough to
    pay for its solves.)"""
    cap = target.cap
    kept = frozenset(draft.clues)
    if not kept:            # nothing to take away: the grade is the only solve needed
        a = _grade(draft, kept, cap, settings)
        return (a, 0) if a.grade.status is Status.SOLVED else None
    if not _solves(draft.build(kept), cap, settings):
        return None
    passes = [cap]
    if draft.by_level and target.level is not None:     # (a label or a range has no level below)
        first = next((level for level in range(1, cap) if _solves(draft.build(kept), level, settings)), cap)
        passes = sorted({first, max(first, cap - 1), cap})
    groups = _groups(draft, rng, settings.symmetric)
    removed: list[frozenset[int]] = []
    for level in passes:
        for group in groups:
            if group <= kept and _solves(draft.build(kept - group), level, settings,
                                         exact_first=draft.exact_first is not None and level >= draft.exact_first):
                kept -= group
                removed.append(group)
    if settings.max_clues is not None and len(kept) > settings.max_clues:
        return None
    a = _grade(draft, kept, cap, settings)
    while target.too_hard(a.grade) and removed:         # steer back: restore the last removed
        kept |= removed.pop()
        a = _grade(draft, kept, cap, settings)
    return a, len(kept)


CLIMB = 40          # tweaks tried on a draft that grades too easy


def _climb(draft: Draft, outcome: tuple[Analysis, int], target: Target, rng: random.Random,
           settings: Settings) -> tuple[Analysis, int]:
    """Tweak a too-easy draft, keeping each tweak that the capped techniques still solve and
    that rates harder, until it hits the target or CLIMB tweaks were tried."""
    for _ in range(CLIMB):
        if target.hit(outcome[0].grade) or not _below(outcome[0].grade, target):
            break
        assert draft.tweak is not None
        tweaked = draft.tweak(rng)
        tried = _attempt(tweaked, target, rng, settings) if tweaked is not None else None
        if tried is not None and tried[0].grade.difficulty > outcome[0].grade.difficulty:
            draft, outcome = tweaked, tried
    return outcome


def _below(g: Grade, target: Target) -> bool:
    if target.level is not None:
        return g.level < target.level
    if target.difficulty is not None:
        return g.difficulty < target.difficulty[0]
    if target.label is not None:
        return labels().index(g.label) < labels().index(target.label)
    return False


def undecided(puzzle: Puzzle, cap: int) -> list[int]:
    """The variables the solve up to level `cap` leaves open (none: it solved the puzzle): where
    a genre's easy draft adds a clue or cuts a line."""
    trace = Solver(puzzle, max_level=cap, assume_unique=False, greedy=True).solve()
    if trace.status is Status.SOLVED:
        return []
    return [v for v, m in enumerate(trace.final.cands) if m & (m - 1)]


def where_solutions_differ(puzzle: Puzzle, seconds: float = 20) -> list[int] | None:
    """The variables where two solutions differ (none: one solution; None: no answer in time
    or no solution): where a genre's draft adds a clue before it is graded."""
    result = exact.solve(puzzle, seconds=seconds)
    if result.verdict is exact.Verdict.UNIQUE:
        return []
    if result.verdict is not exact.Verdict.SEVERAL:
        return None
    a, b = result.solutions
    return [v for v, (x, y) in enumerate(zip(a.cands, b.cands)) if x != y]


def _grade(draft: Draft, kept: Iterable[int], cap: int, settings: Settings) -> Analysis:
    """The grade, with the solve stopped at `cap`: a puzzle that needs more misses the target
    anyway, and one solved within it gets the grade an uncapped solve gives (the solve always
    takes the easiest step, so it never looks past the cap on its way)."""
    return analyse(draft.build(frozenset(kept)), budget=Budget(max_seconds=settings.solve_seconds),
                   check_unique=False, max_level=cap)


def _groups(draft: Draft, rng: random.Random, symmetric: bool) -> list[frozenset[int]]:
    """The clues in a random order, each alone or (symmetric) with its partner under a half
    turn of the board."""
    order = list(draft.clues)
    rng.shuffle(order)
    if not (symmetric and draft.grid):
        return [frozenset((k,)) for k in order]
    n = draft.grid[0] * draft.grid[1]
    present, done, out = set(order), set(), []
    for k in order:
        if k in done:
            continue
        group = {k, n - 1 - k} & present
        done |= group
        out.append(frozenset(group))
    return out


EXACT_SECONDS = 5.0     # no answer in time: the solve decides, as without the check


def _solves(puzzle: Puzzle, cap: int, settings: Settings, exact_first: bool = False) -> bool:
    """Do the techniques up to `cap` solve it, without assuming one solution? (exact_first:
    not when the exact solver finds no or several solutions: techniques that only remove what
    no solution has never solve such a puzzle, so the answer is the same, only sooner where a
    failing solve runs every technique to the end: Masyu 10x10 at level 4, 0.1 s against the
    check's 0.01 s.)"""
    if exact_first and exact.solve(puzzle, seconds=EXACT_SECONDS).verdict in (exact.Verdict.SEVERAL,
                                                                            exact.Verdict.NONE):
        return False
    trace = Solver(puzzle, max_level=cap, assume_unique=False, greedy=True,
                   budget=Budget(max_seconds=settings.solve_seconds)).solve()
    return trace.status is Status.SOLVED


def _confirmed(puzzle: Puzzle, settings: Settings) -> bool:
    result = exact.solve(puzzle, seconds=max(10.0, settings.solve_seconds))
    return result.verdict is exact.Verdict.UNIQUE
