"""The solve loop: always take the easiest deduction available, then start again from level 1.

Each heuristic keeps a set of variables that changed since it last found nothing
("pending"); a heuristic with nothing pending is skipped, and the pending set is passed as
its focus so it can look only where something changed (Tatham's todo lists). A look that
finds something may say where its next look can go on from (Deduction.resume).
"""
from __future__ import annotations

import contextlib
import contextvars
import gc
import math
import time
from typing import Callable, Iterator, Sequence

import attrs

from grader.core.registry import Heuristic, REGISTRY, check_params
from grader.core.model import Puzzle, State
from grader.core.steps import AVAILABLE_CAP, Deduction, Status, Step, Trace


# The deadline of the outermost solve: a trial's fill inside a level-5 step inherits it, so
# one long step cannot run far past the puzzle's time budget.
_DEADLINE: contextvars.ContextVar[float] = contextvars.ContextVar("deadline", default=math.inf)


def out_of_time() -> bool:
    """Whether the running solve has used up its time (long level-5 loops may stop early)."""
    return time.perf_counter() > _DEADLINE.get()


# Whether the running solve may use techniques that assume a unique solution: a solve without
# them (the puzzle has none or several) keeps them out of every fill inside its trials too.
_UNIQUE: contextvars.ContextVar[bool] = contextvars.ContextVar("unique", default=True)


# Scratch space of the outermost solve, shared by the fills inside it: what a costly heuristic
# learnt in earlier steps (which hypotheses led nowhere) to choose what to try first. It lives
# and dies with one solve, so the same puzzle always gets the same trace.
_MEMORY: contextvars.ContextVar[dict | None] = contextvars.ContextVar("memory", default=None)


def solve_memory() -> dict:
    """The running solve's scratch dict (a fresh, unshared one outside any solve)."""
    memory = _MEMORY.get()
    return {} if memory is None else memory


# Asked at most once per solve, when a last resort is about to search without bound: whether
# the puzzle may have exactly one solution (a caller that can ask the exact solver passes it).
_ONE_SOLUTION: contextvars.ContextVar[Callable[[], bool] | None] = contextvars.ContextVar(
    "one_solution", default=None)


def search_without_bound() -> bool:
    """Whether the running solve may search as deep as it takes (probing's deepening nested
    trial). That search ends only on a puzzle with one solution; elsewhere it runs until its
    time is up. So a solve that does not assume one solution never starts it, nor does one
    whose caller knows the puzzle has several. Never a deduction: only whether to look on."""
    if not _UNIQUE.get():
        return False
    ask = _ONE_SOLUTION.get()
    if ask is None:
        return True
    memory = solve_memory()
    if "engine.one-solution" not in memory:
        memory["engine.one-solution"] = bool(ask())
    return memory["engine.one-solution"]


@contextlib.contextmanager
def remembering() -> Iterator[dict]:
    """Run the code inside as one solve: it shares one scratch dict (solve_memory), unless it
    is already inside a solve, whose dict it keeps using."""
    if _MEMORY.get() is not None:
        yield _MEMORY.get()
        return
    token = _MEMORY.set({})
    try:
        yield _MEMORY.get()
    finally:
        _MEMORY.reset(token)


@attrs.frozen
class Budget:
    """Limits per puzzle, so nothing hangs; running out is a status, not an error."""
    max_steps: int = 20000
    max_seconds: float = 120.0

    @classmethod
    def steps_only(cls, max_steps: int) -> "Budget":
        """The budget of a fill inside a step (a trial, a short chain): a count of steps, the
        same on every machine, so what the fill finds (and the path) cannot depend on load;
        the running solve's deadline still ends it."""
        return cls(max_steps=max_steps, max_seconds=math.inf)


def collect_less_often() -> None:
    """A solve makes millions of small objects that die young, beside long-lived ones (the
    branches trials remember); at Python's default thresholds the collector rescans the
    long-lived ones over and over (about a tenth of a long Numberlink solve). Called by the
    command line and the batch workers, not on import."""
    gc.set_threshold(50_000, 20, 100)


# How many deductions a count that looks collects for the counts after it (see _available)
STOCK = 3 * AVAILABLE_CAP


class Solver:
    def __init__(self, puzzle: Puzzle, *, max_level: int = 5,
                 heuristics: Sequence[Heuristic] | None = None, budget: Budget = Budget(),
                 validate: bool = False, assume_unique: bool = True, greedy: bool = False,
                 one_solution: Callable[[], bool] | None = None, count_available: bool = False):
        """assume_unique=False leaves out techniques that rely on the puzzle having exactly
        one solution (use it when the exact solver found none or several). greedy=True takes
        every deduction a heuristic finds in one look, each a step of its own trimmed to what
        is still new, before starting again from level 1: what held in a state holds in every
        narrower one, and a long fill inside a trial then looks far less often.
        one_solution: asked at most once, before the last resort searches without bound,
        whether the puzzle may have one solution (see search_without_bound).
        count_available=True records, at each step of levels 1-4 as hard as any before it, how
        many deductions its level offered (Step.available), for the grade's difficulty; the
        path stays the same."""
        assume_unique = assume_unique and _UNIQUE.get()
        self.assume_unique = assume_unique
        self.puzzle = puzzle
        self.genre = puzzle.genre
        self.heuristics = [h for h in (heuristics if heuristics is not None
                                       else REGISTRY.for_genre(self.genre.name, max_level))
                           if assume_unique or not h.info.uses_uniqueness]
        self.budget = budget
        self.validate = validate
        self.greedy = greedy
        self.one_solution = one_solution
        self.count_available = count_available and not greedy
        # where the last solve stopped on its step count (its trace, what every technique had
        # still to look at), for go_on
        self._paused: tuple[Trace, dict[int, set[int] | None]] | None = None

    def initial_state(self) -> State:
        return self.genre.initial_state(self.puzzle)

    def solve(self, state: State | None = None, *, until: Callable[[State], bool] | None = None,
              focus: frozenset[int] | None = None) -> Trace:
        """Run the loop from `state`; stop when solved, stuck, contradicted, out of budget,
        or when `until(state)` holds. `focus` says what changed since every heuristic was last
        quiet (used by probing); None means look everywhere."""
        start = state if state is not None else self.initial_state()
        t0 = time.perf_counter()
        deadline = min(t0 + self.budget.max_seconds, _DEADLINE.get())
        with self._running(deadline):
            return self._solve(start, t0, deadline, until, focus)

    def go_on(self, trace: Trace, max_steps: int, until: Callable[[State], bool] | None = None
              ) -> Trace | None:
        """Go on from this solver's last solve (`trace`), which ran out of steps, up to
        `max_steps` steps in all: the same path as one solve with that budget from the same
        start, without taking the first steps again (every technique looks next where it would
        have). None when that solve did not stop on its step count. `until`: as in solve, from
        the state it goes on from."""
        paused, self._paused = self._paused, None
        if paused is None or paused[0] is not trace:
            return None
        self.budget = attrs.evolve(self.budget, max_steps=max_steps)
        t0 = time.perf_counter()
        deadline = min(t0 + self.budget.max_seconds, _DEADLINE.get())
        with self._running(deadline):
            more = self._solve(trace.final, t0, deadline, until, None, (list(trace.steps), paused[1]),
                               begun=trace.start)
        return attrs.evolve(more, start=trace.start, seconds=trace.seconds + more.seconds)

    def go_on_past(self, trace: Trace, first: int, focus: frozenset[int],
                   until: Callable[[State], bool] | None = None) -> Trace:
        """Go on from a stuck solve (`trace`, from `focus`) of a solver with only this one's
        `first` techniques and as greedy as this one: the path this solver takes from the same
        start with the same focus, without taking the first steps again. Until the first `first`
        find nothing, the later ones are never asked, so the steps are the same; then those have
        still to look at the focus and at everything the steps changed. (Greedy, the trace must
        have fewer steps than this solver's budget: then no batch of it was cut short.)"""
        seen = set(focus).union(*({v for v, _ in st.deduction.removals} for st in trace.steps))
        pending = {i: (set() if i < first else set(seen)) for i in range(len(self.heuristics))}
        self._paused = (trace, pending)
        return self.go_on(trace, self.budget.max_steps, until)

    @contextlib.contextmanager
    def _running(self, deadline: float) -> Iterator[None]:
        """The solve's context, which the fills inside its trials inherit: its deadline, whether
        it assumes one solution, who to ask about that, and one scratch memory."""
        tokens = [(_DEADLINE, _DEADLINE.set(deadline)), (_UNIQUE, _UNIQUE.set(self.assume_unique))]
        if self.one_solution:
            tokens.append((_ONE_SOLUTION, _ONE_SOLUTION.set(self.one_solution)))
        try:
            with remembering():
                yield
        finally:
            for var, token in reversed(tokens):
                var.reset(token)

    def _solve(self, start: State, t0: float, deadline: float, until: Callable[[State], bool] | None,
               focus: frozenset[int] | None,
               paused: tuple[list[Step], dict[int, set[int] | None]] | None = None,
               begun: State | None = None) -> Trace:
        """`begun`: where the path began, when it goes on from `start` (see go_on): the state
        the last check for broken rules looks from (Genre.violations_after), as in one solve."""
        state = start
        begun = start if begun is None else begun
        if paused is None:
            pending: dict[int, set[int] | None] = {
                i: (None if focus is None else set(focus)) for i in range(len(self.heuristics))}
            steps: list[Step] = []
        else:
            steps, pending = paused
        status, reason = Status.STUCK, ""
        can_go_on = False
        # Kept up to date from each deduction's changes, so a step costs what it changes.
        # (one pass: counting each distinct value was a pass per value, and boards whose cells
        # hold many different candidate sets have hundreds)
        undecided = sum([1 for m in state.cands if m & (m - 1)])
        broken = 0 in state.cands
        top = 0                         # the hardest level used so far
        offered: tuple[Deduction, ...] = ()  # what the last count at level `top` saw (_available)
        while True:
            if broken:
                status, reason = Status.CONTRADICTION, self._empty_reason(state)
                break
            if not undecided:
                broken = self.genre.violations_after(self.puzzle, begun, state)
                status = Status.CONTRADICTION if broken else Status.SOLVED
                reason = broken[0].message if broken else ""
                break
            if until is not None and until(state):
                status = Status.STUCK
                break
            if len(steps) >= self.budget.max_steps or time.perf_counter() > deadline:
                status, reason = Status.BUDGET, "budget exhausted"
                # go_on may take it from here (not greedy: there a batch was cut short)
                can_go_on = len(steps) >= self.budget.max_steps and not self.greedy
                break
            found = self._next(state, pending, deadline)
            if found is None and time.perf_counter() > deadline:
                status, reason = Status.BUDGET, "budget exhausted"   # a step gave up on time
                break
            if found is None:
                broken = self.genre.violations_after(self.puzzle, begun, state)
                status = Status.CONTRADICTION if broken else Status.STUCK
                reason = broken[0].message if broken else "no technique applies"
                break
            k, d, more = found
            h = self.heuristics[k]
            # only a step as hard as any before it can be among the hardest, which alone set the
            # difficulty: the others are not counted (counting looks further, so costs time)
            if h.level > top:
                top, offered = h.level, ()
            available = None
            if self.count_available and h.level == top:
                available, offered = self._available(state, pending, k, d, more, offered)
            batch: set[int] = set()
            resume = d.resume
            looked_at_all = False
            while True:
                steps.append(Step(len(steps) + 1, h.info, d, available))
                before, state = state, d.apply(state)
                for v, _ in d.removals:
                    batch.add(v)
                    old, new = before.cands[v], state.cands[v]
                    if not new:
                        broken = True
                    elif old & (old - 1) and not new & (new - 1):
                        undecided -= 1
                if not self.greedy or broken or len(steps) >= self.budget.max_steps:
                    break
                d = next((e for e in map(lambda e: self._trimmed(e, state), more) if e is not None), None)
                if d is None:
                    looked_at_all = True
                    break
            for p in pending.values():
                if p is not None:
                    p |= batch
            if looked_at_all:
                # it has looked at everything it was asked to: what is left to see is only
                # what its own deductions changed
                pending[k] = batch
            elif resume is not None:
                # the sites its look passed before it found this gave nothing: the next look
                # goes on from there (and wherever the step changed something)
                pending[k] = batch.union(resume())
        trace = Trace(start, tuple(steps), status, state, time.perf_counter() - t0, reason)
        self._paused = (trace, pending) if can_go_on else None
        return trace

    def _next(self, state: State, pending: dict[int, set[int] | None], deadline: float
              ) -> tuple[int, Deduction, Iterator[Deduction]] | None:
        """The first deduction of the easiest heuristic that finds one (by its index), and the
        rest of what it finds (looked at only when greedy). `deadline`: the running solve's
        (what out_of_time reads, without its look-up before every look)."""
        clock = time.perf_counter
        for i, h in enumerate(self.heuristics):
            focus = pending[i]
            if focus is not None and not focus:
                continue
            if clock() > deadline:
                return None     # one look at a large board can take a while: stop between them
            found = iter(h.find(self.puzzle, state, None if focus is None else frozenset(focus)))
            d = next(found, None)
            if d is None:
                pending[i] = set()
                continue
            if self.validate:
                check_params(h.info, d)
            return i, d, found
        return None

    def _available(self, state: State, pending: dict[int, set[int] | None], k: int, first: Deduction,
                   more: Iterator[Deduction], offered: tuple[Deduction, ...]
                   ) -> tuple[int | None, tuple[Deduction, ...]]:
        """How many different deductions (by what they remove) the level of heuristic k offers
        in `state`, `first` included, up to AVAILABLE_CAP, and what this count saw, for the
        next count at this level; None for level 5 (a trial is rated by its size). `offered`:
        what the last count at this level saw (the solve starts it afresh when its level rises).

        What an earlier count found still follows from the marks (marks only narrow): trimmed
        to what is still new, it is still on offer; one with nothing new left (taken, or made
        by other steps) drops out. When those and `first` reach the cap, nothing is looked at.
        Otherwise the rest of k's look and the later heuristics of its level look, in the
        order of the list, until STOCK deductions are seen (a stock for the next counts); each
        looks where the solve would look next (a heuristic quiet since nothing near it changed
        has nothing to offer). Those whose row says `counted: false` (a long case split or
        look-ahead, not seen at a glance, and dearer than the rest of the solve) are left out.
        Counted, never applied, in a scratch memory of its own so the solve's path cannot
        change.

        So a count may differ from what looking at everything would give: a carried
        deduction may since be part of a bigger one, both counted. The order is fixed, not
        learnt from the looks' costs (as up to stop 44): which deductions a capped look sees
        are carried to the next counts, and an order that depended on the clock would make
        grades differ from run to run. (Looking, once a count's look ran to its end, only
        where something changed since, its finds being carried, saved a further fifth of the
        count but is what tests/focus_check.py reads as a miss: an empty focused look where
        the whole board finds something.)"""
        level = self.heuristics[k].level
        if level >= 5:
            return None, ()
        seen = {frozenset(first.removals): first}
        for at, d in enumerate(offered):
            if len(seen) >= AVAILABLE_CAP:      # the rest are trimmed by the next count
                return AVAILABLE_CAP, (*seen.values(), *offered[at:])
            d = self._trimmed(d, state)
            if d is not None:
                seen.setdefault(frozenset(d.removals), d)
        if len(seen) < AVAILABLE_CAP:
            looks: list[Callable[[], Iterator[Deduction]]] = []
            if self.heuristics[k].info.counted:
                looks.append(lambda: more)
            for j in range(k + 1, len(self.heuristics)):
                h, focus = self.heuristics[j], pending[j]
                if h.level == level and h.info.counted and focus != set():
                    looks.append(lambda h=h, focus=focus: h.find(
                        self.puzzle, state, None if focus is None else frozenset(focus)))
            token = _MEMORY.set({})
            try:
                for look in looks:
                    for d in look():
                        seen.setdefault(frozenset(d.removals), d)
                        if len(seen) >= STOCK or out_of_time():
                            break
                    if len(seen) >= STOCK or out_of_time():
                        break
            finally:
                _MEMORY.reset(token)
        return min(len(seen), AVAILABLE_CAP), tuple(seen.values())

    @staticmethod
    def _trimmed(d: Deduction, state: State) -> Deduction | None:
        """A deduction found in an earlier state, limited to the candidates still there."""
        cands = state.cands
        for v, m in d.removals:
            if m & cands[v] != m:
                break
        else:
            return d                    # all still there (the usual case)
        removals = tuple((v, m & cands[v]) for v, m in d.removals if m & cands[v])
        return attrs.evolve(d, removals=removals) if removals else None

    def next_step(self, state: State) -> tuple[Heuristic, Deduction] | None:
        """The easiest deduction from `state` (for hints), looking everywhere, within the
        budget's time (None when that runs out first)."""
        deadline = min(time.perf_counter() + self.budget.max_seconds, _DEADLINE.get())
        with self._running(deadline):
            found = self._next(state, {i: None for i in range(len(self.heuristics))}, deadline)
        return found and (self.heuristics[found[0]], found[1])

    def _empty_reason(self, state: State) -> str:
        var = state.cands.index(0)
        return f"{self.genre.var_name(self.puzzle, var)} has no possible value left"


def solve(puzzle: Puzzle, state: State | None = None, *, max_level: int = 5,
          budget: Budget = Budget()) -> Trace:
    return Solver(puzzle, max_level=max_level, budget=budget).solve(state)
