"""Level 5, shared by every genre: assume something, fill in greedily with the easier
levels, keep what every branch agrees on, and drop what leads to a contradiction.

The fill in a branch only ever uses sound heuristics from the assumed state, so whatever a
branch derives follows from its assumption; a broken branch refutes its assumption, and a
candidate no surviving branch keeps is impossible. Branches are explored with a small step
budget first, so the shortest refutation is the one a reader sees.
"""
from __future__ import annotations

from typing import Callable, Iterable, Iterator, Sequence

import attrs

from .engine import Budget, Solver, out_of_time, solve_memory
from .heuristic import Heuristic, REGISTRY, heuristic
from .model import Puzzle, State, values_of
from .steps import Deduction, Status, Trace

# Passes over the candidates: (steps per branch, highest level used in the fill). A quick look
# with the easy levels first finds the short refutations a reader can follow; the long pass
# fills with everything below level 5.
PASSES = ((12, 2), (400, 4))


@attrs.frozen(eq=False)
class Branch:
    """One assumption and where greedy filling took it."""
    label: str
    trace: Trace

    @property
    def refuted(self) -> bool:
        return self.trace.status is Status.CONTRADICTION


def fill(puzzle: Puzzle, state: State, changed: Iterable[int], max_level: int,
         max_steps: int, heuristics: Sequence[Heuristic] | None = None, greedy: bool = False) -> Trace:
    """Greedy fill from an assumed state with the heuristics below level 5 (greedy: see
    Solver)."""
    solver = Solver(puzzle, max_level=max_level, heuristics=heuristics,
                    budget=Budget(max_steps=max_steps, max_seconds=30.0), greedy=greedy)
    return solver.solve(state, focus=frozenset(changed))


def agreed_removals(state: State, finals: Sequence[State]) -> tuple[tuple[int, int], ...]:
    """Candidates that no branch keeps: what every branch agrees is impossible."""
    n = len(state.cands)
    union = [0] * n
    for f in finals:
        for v, m in enumerate(f.cands):
            union[v] |= m
    return tuple((v, state.cands[v] & ~union[v]) for v in range(n) if state.cands[v] & ~union[v])


def explore(puzzle: Puzzle, state: State, assumptions: Sequence[tuple[str, State, Iterable[int]]],
            max_level: int, max_steps: int, heuristics: Sequence[Heuristic] | None = None,
            stop_on_refutation: bool = True, greedy: bool = False) -> list[Branch]:
    branches = []
    for label, assumed, changed in assumptions:
        trace = fill(puzzle, assumed, changed, max_level, max_steps, heuristics, greedy)
        branches.append(Branch(label, trace))
        if stop_on_refutation and branches[-1].refuted:
            break
    return branches


def branch_deduction(puzzle: Puzzle, state: State,
                     assumptions: Sequence[tuple[str, State, Iterable[int]]], *,
                     max_level: int = 4, max_steps: int = PASSES[-1][0],
                     heuristics: Sequence[Heuristic] | None = None) -> Deduction | None:
    """Explore assumptions that together cover every possibility (for genre-specific
    level-5 heuristics: every way to fulfil a clue, to grow an island, ...). Refuted
    branches drop out; what no surviving branch keeps is impossible.
    Params: outcome (the sentence), cases, steps."""
    branches = explore(puzzle, state, assumptions, max_level, max_steps, heuristics,
                       stop_on_refutation=False)
    return cases_deduction(puzzle, state, branches)


def cases_deduction(puzzle: Puzzle, state: State, branches: Sequence[Branch]) -> Deduction | None:
    """What branches that cover every possibility establish together (see branch_deduction)."""
    from .explain import describe_removals
    live = [b for b in branches if not b.refuted]
    if not live:
        return None
    removals = agreed_removals(state, [b.trace.final for b in live])
    if not removals:
        return None
    dropped = len(branches) - len(live)
    agreed = describe_removals(puzzle, state, removals)
    lead = "leads" if dropped == 1 else "lead"
    rest = ("in the one left easier steps show" if len(live) == 1
            else f"in the {len(live)} that remain easier steps agree")
    outcome = (f"{dropped} of the {len(branches)} cases {lead} to a contradiction, and {rest} that {agreed}"
               if dropped else f"in all {len(branches)} cases easier steps agree that {agreed}")
    return Deduction(removals, {"outcome": outcome, "cases": len(branches),
                                "steps": max(len(b.trace.steps) for b in live)},
                     detail=tuple(branches))


def probe_order(state: State, candidates: Iterable[int] | None = None) -> list[int]:
    """Undecided variables, fewest candidates first (spec/solver-design.md); ties keep the
    order given (a genre lists its most constrained variables first), else variable order."""
    vs = state.undecided() if candidates is None else [v for v in candidates if not state.decided(v)]
    return sorted(vs, key=lambda v: state.cands[v].bit_count())


def probe_cell(puzzle: Puzzle, state: State, var: int, max_level: int, max_steps: int,
               heuristics: Sequence[Heuristic]) -> Deduction | None:
    """Try every candidate of one variable; refute one, or keep what all agree on."""
    return probe_with_branches(puzzle, state, var, max_level, max_steps, heuristics)[0]


def probe_with_branches(puzzle: Puzzle, state: State, var: int, max_level: int, max_steps: int,
                        heuristics: Sequence[Heuristic]) -> tuple[Deduction | None, list[Branch]]:
    """probe_cell, and the branches it followed."""
    branches = explore(puzzle, state, cell_assumptions(puzzle, state, var), max_level, max_steps, heuristics)
    return cell_deduction(puzzle, state, var, branches), branches


def cell_assumptions(puzzle: Puzzle, state: State, var: int) -> list[tuple[str, State, tuple[int]]]:
    """One assumption per candidate of `var` (see probe_cell)."""
    from .explain import value_phrase, var_name
    name = var_name(puzzle, var)
    return [(f"{name} {value_phrase(puzzle, val)}", state.restrict(var, 1 << val), (var,))
            for val in values_of(state.cands[var])]


def cell_deduction(puzzle: Puzzle, state: State, var: int, branches: Sequence[Branch]) -> Deduction | None:
    """What the branches of cell_assumptions (in order, maybe stopped at a refutation) show."""
    from .explain import describe_removals, var_name
    name = var_name(puzzle, var)
    vals = values_of(state.cands[var])
    for val, b in zip(vals, branches):
        if b.refuted:
            removals = ((var, 1 << val),)
            outcome = (f"if {b.label}, {_count(len(b.trace.steps))} lead to a contradiction "
                       f"({b.trace.reason or 'a rule is broken'}); so "
                       f"{describe_removals(puzzle, state, removals)}")
            return Deduction(removals, {"cell": name, "outcome": outcome,
                                        "steps": len(b.trace.steps)}, detail=(b,))
    removals = agreed_removals(state, [b.trace.final for b in branches])
    if not removals:
        return None
    outcome = (f"whether {' or '.join(b.label for b in branches)}, easier steps lead to "
               f"{describe_removals(puzzle, state, removals)}")
    return Deduction(removals, {"cell": name, "outcome": outcome,
                                "steps": max(len(b.trace.steps) for b in branches)},
                     (var,), detail=tuple(branches))


class Tried:
    """Which hypotheses led nowhere earlier in this solve, and where: each is kept with the
    candidates, at that time, of the variables its branches touched (and what lies `near` them).
    Until one of those changes it will most likely lead nowhere again, so it is tried after
    the others: the order changes, never what is tried."""

    def __init__(self, key: str, near: Callable[[Puzzle, set[int]], Iterable[int]]):
        self.memory: dict = solve_memory().setdefault(key, {})
        self.near = near

    def order(self, state: State, items: Iterable) -> list:
        """`items` (hashable: a variable, a clue, ...) with the stale ones moved to the end."""
        fresh, stale = [], []
        cands = state.cands
        for item in items:
            seen = self.memory.get(item)
            (stale if seen is not None and all(cands[v] == m for v, m in seen) else fresh).append(item)
        return fresh + stale

    def failed(self, puzzle: Puzzle, state: State, item, touched: Iterable[int],
               branches: Iterable[Branch]) -> None:
        cells = set(touched)
        for b in branches:
            cells.update(state.diff(b.trace.final))
        self.memory[item] = tuple((v, state.cands[v]) for v in self.near(puzzle, cells))


def _count(n: int) -> str:
    return "one easier step would" if n == 1 else f"{n} easier steps would"


PROBE_TEMPLATE = "Trial at {cell}: {outcome}."


def register_probing(genre: str, *, id: str | None = None, name: str = "Trial and error",
                     max_level: int = 4, order: int = 90,
                     candidates: Callable[[Puzzle, State], Iterable[int]] | None = None,
                     near: Callable[[Puzzle, set[int]], Iterable[int]] | None = None,
                     catalogue: str = "") -> Heuristic:
    """The generic level-5 heuristic for a genre: probe one variable at a time. With `near`
    (the variables around a set of them), variables whose trial led nowhere are tried last
    until something near what their branches touched changes (see Tried)."""
    hid = id or f"{genre}.trial-and-error"

    def find(puzzle: Puzzle, state: State, focus: frozenset[int] | None = None) -> Iterator[Deduction]:
        order_ = probe_order(state, candidates(puzzle, state) if candidates else None)
        tried = Tried(hid, near) if near else None
        if tried:
            order_ = tried.order(state, order_)
        for steps, level in PASSES:
            lower = REGISTRY.for_genre(genre, min(level, max_level))
            for var in order_:
                if out_of_time():
                    return
                d, branches = probe_with_branches(puzzle, state, var, max_level, steps, lower)
                if d is not None:
                    yield d
                    return
                if tried and steps == PASSES[-1][0]:
                    tried.failed(puzzle, state, var, (var,), branches)

    return heuristic(id=hid, name=name, genre=genre, level=5, order=order, template=PROBE_TEMPLATE,
                     nudge="Try a hypothesis at {cell}.", catalogue=catalogue)(find)


NESTED_STEPS = 100      # steps per branch of a nested trial


def register_nested(genre: str, inner: Callable[[], Sequence[Heuristic]], *, id: str | None = None,
                    name: str = "Trial and error, trying again inside", order: int = 99, score: int = 400,
                    candidates: Callable[[Puzzle, State], Iterable[int]] | None = None,
                    near: Callable[[Puzzle, set[int]], Iterable[int]] | None = None,
                    catalogue: str = "") -> Heuristic:
    """A genre's last resort: trial and error whose fill may itself try one variable each way
    (`inner`, e.g. every technique up to level 4 and the genre's trial with them). Still one
    hypothesis followed by greedy filling, only with a stronger fill; it scores as the hardest
    step of level 5."""
    hid = id or f"{genre}.nested-trial"

    def find(puzzle: Puzzle, state: State, focus: frozenset[int] | None = None) -> Iterator[Deduction]:
        order_ = probe_order(state, candidates(puzzle, state) if candidates else None)
        tried = Tried(hid, near) if near else None
        heuristics = list(inner())
        for var in (tried.order(state, order_) if tried else order_):
            if out_of_time():
                return
            d, branches = probe_with_branches(puzzle, state, var, 4, NESTED_STEPS, heuristics)
            if d is not None:
                yield d
                return
            if tried:
                tried.failed(puzzle, state, var, (var,), branches)

    return heuristic(id=hid, name=name, genre=genre, level=5, order=order, score=score,
                     template=PROBE_TEMPLATE, nudge="Try a hypothesis at {cell}, and be ready to try "
                     "another inside it.", catalogue=catalogue)(find)

