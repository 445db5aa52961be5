"""Level 5, shared by every genre: assume something, fill in greedily with the easier
levels, keep what every branch agrees on, and drop what leads to a contradiction.

The fill in a branch only ever uses sound heuristics from the assumed state, so whatever a
branch derives follows from its assumption; a broken branch refutes its assumption, and a
candidate no surviving branch keeps is impossible. Branches are explored with a small step
budget first, so the shortest refutation is the one a reader sees.
"""
from __future__ import annotations

import operator
from typing import Callable, Collection, Iterable, Iterator, Sequence

import attrs

from grader.core.engine import Budget, Solver, out_of_time, search_without_bound, solve_memory
from grader.core.registry import Heuristic, HeuristicInfo, REGISTRY, Registry, heuristic
from grader.core.model import Puzzle, State, values_of
from grader.core.steps import Deduction, Status, Trace

# Passes over the candidates: (steps per branch, highest level used in the fill). A quick look
# with the easy levels first finds the short refutations a reader can follow; the long pass
# fills with everything below level 5.
PASSES = ((12, 2), (400, 4))


def trial_rules(genre: str, level: int, leave_out: Collection[str] = ()) -> list[Heuristic]:
    """The techniques a trial fills in with: the genre's up to `level`, but those named in
    `leave_out` (searches of their own, such as case splits: followed at every step of every
    branch they cost many times as much and find what the fill finds a few steps later)."""
    rules = REGISTRY.for_genre(genre, level)
    return [h for h in rules if h.id not in leave_out] if leave_out else rules


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
    Solver), within `max_steps` and the running solve's own time."""
    solver = Solver(puzzle, max_level=max_level, heuristics=heuristics,
                    budget=Budget.steps_only(max_steps), greedy=greedy)
    return solver.solve(state, focus=frozenset(changed))


def agreed_removals(state: State, finals: Sequence[State]) -> tuple[tuple[int, int], ...]:
    """Candidates that no branch keeps: what every branch agrees is impossible."""
    kept: Sequence[int] = finals[0].cands if finals else (0,) * len(state.cands)
    for f in finals[1:]:        # what some branch keeps, variable by variable
        kept = tuple(map(operator.or_, kept, f.cands))
    return tuple(_removed(state.cands, kept))


def _removed(cands: Sequence[int], kept: Sequence[int]) -> Iterator[tuple[int, int]]:
    """(variable, the candidates of `cands` not in `kept`) where there are some."""
    removed = map(operator.and_, cands, map(operator.invert, kept))
    return ((v, r) for v, r in enumerate(removed) if r)


def explore(puzzle: Puzzle, state: State, assumptions: Sequence[tuple[str, State, Iterable[int]]],
            max_level: int, max_steps: int, heuristics: Sequence[Heuristic] | None = None,
            stop_on_refutation: bool = True, greedy: bool = False,
            fill_with: Callable[..., Trace] | None = None) -> list[Branch]:
    """A fill per assumption, stopping at the first refuted one (unless told not to).
    `fill_with` takes fill's arguments: a genre's own fill (one that remembers, say)."""
    branches = []
    for label, assumed, changed in assumptions:
        trace = (fill_with or fill)(puzzle, assumed, changed, max_level, max_steps, heuristics, greedy)
        branches.append(Branch(label, trace))
        if stop_on_refutation and branches[-1].refuted:
            break
    return branches


def branch_deduction(puzzle: Puzzle, state: State,
                     assumptions: Sequence[tuple[str, State, Iterable[int]]], *,
                     max_level: int = 4, max_steps: int = PASSES[-1][0],
                     heuristics: Sequence[Heuristic] | None = None,
                     fill_with: Callable[..., Trace] | None = None) -> Deduction | None:
    """Explore assumptions that together cover every possibility (for genre-specific
    level-5 heuristics: every way to fulfil a clue, to grow an island, ...). Refuted
    branches drop out; what no surviving branch keeps is impossible. `fill_with`: see explore.
    Params: outcome (the sentence), cases, steps."""
    branches: list[Branch] = []
    open_: dict[int, int] | None = None     # candidates no branch left so far keeps, by variable
    for label, assumed, changed in assumptions:
        branch = Branch(label, (fill_with or fill)(puzzle, assumed, changed, max_level, max_steps, heuristics))
        branches.append(branch)
        if branch.refuted:
            continue
        final = branch.trace.final.cands
        if open_ is None:
            open_ = dict(_removed(state.cands, final))
        else:
            open_ = {v: m & ~final[v] for v, m in open_.items() if m & ~final[v]}
        if not open_:
            return None     # the branches left can only keep more: nothing can be agreed
    return cases_deduction(puzzle, state, branches)


def cases_deduction(puzzle: Puzzle, state: State, branches: Sequence[Branch]) -> Deduction | None:
    """What branches that cover every possibility establish together (see branch_deduction)."""
    from grader.core.explain import describe_removals
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


@attrs.frozen(eq=False)
class Look:
    """How far one way of a subject was followed (see failing_ways), and the fill's solver,
    which can go on from where it stopped."""
    trace: Trace
    solver: Solver


def failing_ways(puzzle: Puzzle, state: State, key, options: Sequence[tuple[str, dict[int, int]]],
                 rules: Sequence[Heuristic], steps: int, looks: dict, *, max_level: int = 3,
                 exact: bool = True, look_with: Callable[..., "Look"] | None = None,
                 fill_with: Callable[..., Trace] | None = None) -> Deduction | None:
    """The ways that fail: each way of one subject (`options`: (label, {var: value}), together
    covering every possibility) followed up to `steps` steps with `rules`; the ways that reach
    a contradiction drop out, and what the ways left set alike holds (not what their fills
    went on to draw: those steps are the easier techniques' own to take).

    `looks` keeps each way's look by (key, way) across calls with more steps. A look that ran
    out of steps goes on: with `exact`, along the very path a fresh fill with the larger budget
    would take; otherwise as a new look from where it stopped, at whatever changed since the
    assumption. `look_with` takes _look's arguments: a genre's own first look (one that goes on
    from a fill it remembers, say); `fill_with`, fill's: the new look from where one stopped
    (without `exact`). Params: count, refuted (each dead way with its steps and broken rule),
    result; the caller adds its subject and cells."""
    from grader.core.explain import describe_removals
    alive, dead, branches = [], [], []
    for i, (label, put) in enumerate(options):
        look = looks.get((key, i))
        if look is None:
            look = looks[key, i] = (look_with or _look)(puzzle, state, put, steps, rules, max_level)
        elif look.trace.status is Status.BUDGET and len(look.trace.steps) < steps:
            longer = look.solver.go_on(look.trace, steps) if exact else _from_changes(
                puzzle, state, look.trace, steps, rules, max_level, fill_with)
            look = looks[key, i] = (_look(puzzle, state, put, steps, rules, max_level) if longer is None
                                    else Look(longer, look.solver))
        trace = look.trace
        if trace.status is Status.CONTRADICTION:
            n = len(trace.steps)
            dead.append(f"if {label}, {'one step leads' if n == 1 else f'{n} steps lead'} to a "
                        f"contradiction ({trace.reason or 'a rule is broken'})")
            branches.append(Branch(label, trace))
        else:
            alive.append(put)
    if not dead or not alive:
        return None
    removals = ways_left(state, alive)
    if not removals:
        return None
    return Deduction(removals, {"count": len(options), "refuted": "; ".join(dead),
                                "result": describe_removals(puzzle, state, removals)}, detail=tuple(branches))


def ways_left(state: State, alive: Iterable[dict[int, int]]) -> tuple[tuple[int, int], ...]:
    """What every way left ({var: value}, each over the same variables) sets alike."""
    return agreed_removals(state, [state.assume(put) for put in alive])


def _look(puzzle: Puzzle, state: State, put: dict[int, int], steps: int, rules: Sequence[Heuristic],
          max_level: int) -> Look:
    """One way followed afresh (as fill does), keeping its solver to go on with."""
    solver = Solver(puzzle, max_level=max_level, heuristics=rules, budget=Budget.steps_only(steps))
    return Look(solver.solve(state.assume(put), focus=frozenset(put)), solver)


def _from_changes(puzzle: Puzzle, state: State, trace: Trace, steps: int, rules: Sequence[Heuristic],
                  max_level: int, fill_with: Callable[..., Trace] | None = None) -> Trace:
    """A new look from where a shorter one stopped, looking again wherever anything changed
    since the assumption, its steps numbered on from the shorter look's (`fill_with`: see
    explore)."""
    more = (fill_with or fill)(puzzle, trace.final, state.diff(trace.final), max_level,
                               steps - len(trace.steps), rules)
    return attrs.evolve(more, start=trace.start, steps=trace.steps + tuple(
        attrs.evolve(st, number=len(trace.steps) + st.number) for st in more.steps),
        seconds=trace.seconds + more.seconds)


def probe_order(state: State, candidates: Iterable[int] | None = None) -> list[int]:
    """Undecided variables, fewest candidates first (spec/solver-design.md); ties keep the
    order given (a genre lists its most constrained variables first), else variable order."""
    vs = state.undecided() if candidates is None else [v for v in candidates if not state.decided(v)]
    return sorted(vs, key=lambda v: state.cands[v].bit_count())


def probe_cell(puzzle: Puzzle, state: State, var: int, max_level: int, max_steps: int,
               heuristics: Sequence[Heuristic], fill_with: Callable[..., Trace] | None = None
               ) -> Deduction | None:
    """Try every candidate of one variable; refute one, or keep what all agree on
    (`fill_with`: see explore)."""
    return probe_with_branches(puzzle, state, var, max_level, max_steps, heuristics, fill_with)[0]


def probe_with_branches(puzzle: Puzzle, state: State, var: int, max_level: int, max_steps: int,
                        heuristics: Sequence[Heuristic], fill_with: Callable[..., Trace] | None = None
                        ) -> tuple[Deduction | None, list[Branch]]:
    """probe_cell, and the branches it followed."""
    branches = explore(puzzle, state, cell_assumptions(puzzle, state, var), max_level, max_steps, heuristics,
                       fill_with=fill_with)
    return cell_deduction(puzzle, state, var, branches), branches


def cell_assumptions(puzzle: Puzzle, state: State, var: int) -> list[tuple[str, State, tuple[int]]]:
    """One assumption per candidate of `var` (see probe_cell)."""
    from grader.core.explain import value_phrase, var_name
    name = var_name(puzzle, var)
    return [(f"{name} {value_phrase(puzzle, val)}", state.restrict(var, 1 << val), (var,))
            for val in values_of(state.cands[var])]


def cell_deduction(puzzle: Puzzle, state: State, var: int, branches: Sequence[Branch]) -> Deduction | None:
    """What the branches of cell_assumptions (in order, maybe stopped at a refutation) show."""
    from grader.core.explain import describe_removals, var_name
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
                     catalogue: str = "", leave_out: Collection[str] = ()) -> Heuristic:
    """The generic level-5 heuristic for a genre: probe one variable at a time. With `near`
    (the variables around a set of them), variables whose trial led nowhere are tried last
    until something near what their branches touched changes (see Tried). The fills use
    the techniques below level 5 but those in `leave_out` (see trial_rules)."""
    hid = id or f"{genre}.trial-and-error"

    def find(puzzle: Puzzle, state: State, focus: frozenset[int] | None = None) -> Iterator[Deduction]:
        order_ = probe_order(state, candidates(puzzle, state) if candidates else None)
        tried = Tried(hid, near) if near else None
        if tried:
            order_ = tried.order(state, order_)
        for steps, level in PASSES:
            lower = trial_rules(genre, min(level, max_level), leave_out)
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
DEEPEN = 4              # each deeper round gives a branch this many times the steps of the last
_LAST_RESORTS: dict[str, Heuristic] = {}     # genre -> its nested trial


def register_nested(genre: str, inner: Callable[[], Sequence[Heuristic]], *, id: str | None = None,
                    name: str = "Trial and error, trying again inside", order: int = 99, score: int = 400,
                    candidates: Callable[[Puzzle, State], Iterable[int]] | None = None,
                    near: Callable[[Puzzle, set[int]], Iterable[int]] | None = None,
                    catalogue: str = "", first_round: bool = True, registry: Registry | None = None
                    ) -> Heuristic:
    """A genre's last resort: trial and error whose fill may itself try one variable each way
    (`inner`, e.g. every technique up to level 4 and the genre's trial with them). Still one
    hypothesis followed by greedy filling, only with a stronger fill; it scores as the hardest
    step of level 5.

    When that finds nothing (or at once, with first_round=False) and the solve may search
    without bound (engine.search_without_bound), it deepens: the fill may try a hypothesis
    inside a hypothesis, then inside that, with more steps each round. With as many levels as
    undecided variables and steps enough to decide them all, every assumption that no solution
    has ends in a contradiction, so on a puzzle with one solution some round always refutes
    one: the solve always finishes, given time. It gives up when the search is complete, when
    the time is up, or when two branches of one hypothesis both end solved (two solutions:
    this search can never finish the puzzle)."""
    hid = id or f"{genre}.nested-trial"

    def order_of(puzzle: Puzzle, state: State) -> list[int]:
        return probe_order(state, candidates(puzzle, state) if candidates else None)

    def first(puzzle: Puzzle, state: State) -> Deduction | None:
        tried = Tried(hid, near) if near else None
        order_ = order_of(puzzle, state)
        heuristics = list(inner())
        for var in (tried.order(state, order_) if tried else order_):
            if out_of_time():
                return None
            d, branches = probe_with_branches(puzzle, state, var, 4, NESTED_STEPS, heuristics)
            if d is not None:
                return d
            if tried:
                tried.failed(puzzle, state, var, (var,), branches)
        return None

    def find(puzzle: Puzzle, state: State, focus: frozenset[int] | None = None) -> Iterator[Deduction]:
        d = first(puzzle, state) if first_round else None
        if d is None and search_without_bound():
            d = deepening(puzzle, state, h.info, inner, order_of, 2 if first_round else 1)
        if d is not None:
            yield d

    h = heuristic(id=hid, name=name, genre=genre, level=5, order=order, score=score,
                  template=PROBE_TEMPLATE, nudge="Try a hypothesis at {cell}, and be ready to try "
                  "another inside it.", catalogue=catalogue, registry=registry)(find)
    if registry is None:
        _LAST_RESORTS[genre] = h
    return h


def register_last_resort(genre: str) -> Heuristic | None:
    """The deepening nested trial for a genre that registered no nested trial of its own:
    its fill uses every other technique of the genre. Ordered after everything else."""
    if genre in _LAST_RESORTS:
        return None
    me: list[Heuristic] = []
    h = register_nested(genre, lambda: [x for x in REGISTRY.for_genre(genre) if x not in me],
                        order=10_000, first_round=False)
    me.append(h)
    return h


def deepening(puzzle: Puzzle, state: State, info: HeuristicInfo, inner: Callable[[], Sequence[Heuristic]],
              order_of: Callable[[Puzzle, State], list[int]], depth: int) -> Deduction | None:
    """Rounds of nested trials, each deeper and longer than the last (see register_nested)."""
    memory = solve_memory()
    undecided = sum(1 for m in state.cands if m & (m - 1))
    # every step removes a candidate, so no fill from here takes more steps than this
    most = sum(m.bit_count() - 1 for m in state.cands if m)
    steps = NESTED_STEPS * DEEPEN ** (depth - 1)
    while not out_of_time() and not memory.get(SEVERAL):
        complete = depth >= undecided and steps >= most
        d = _round(puzzle, state, info, inner, order_of, depth, min(steps, most) if complete else steps)
        if d is not None:
            return d
        if complete:
            return None
        depth, steps = depth + 1, steps * DEEPEN
    return None


SEVERAL = "probing.several-solutions"      # solve_memory key: two solutions were seen


def _round(puzzle: Puzzle, state: State, info: HeuristicInfo, inner: Callable[[], Sequence[Heuristic]],
           order_of: Callable[[Puzzle, State], list[int]], depth: int, steps: int) -> Deduction | None:
    """One nested trial `depth` deep: each variable in turn, every value, a fill that may try
    hypotheses `depth - 1` deep inside."""
    heuristics = list(inner())
    if depth > 1:
        heuristics.append(_inner_trial(info, inner, order_of, depth - 1, steps))
    memory = solve_memory()
    for var in order_of(puzzle, state):
        if out_of_time() or memory.get(SEVERAL):
            return None
        d, branches = probe_with_branches(puzzle, state, var, 4, steps, heuristics)
        if sum(1 for b in branches if b.trace.status is Status.SOLVED) >= 2:
            memory[SEVERAL] = True       # two values of one variable both lead to solutions
            return None
        if d is not None:
            if depth > 1:
                outcome = f"{d.params['outcome']} (with hypotheses inside hypotheses, {depth} deep)"
                d = attrs.evolve(d, params={**d.params, "outcome": outcome})
            return d
    return None


def _inner_trial(info: HeuristicInfo, inner: Callable[[], Sequence[Heuristic]],
                 order_of: Callable[[Puzzle, State], list[int]], depth: int, steps: int) -> Heuristic:
    """A nested trial `depth` deep as a technique of a fill (not registered: it lives only
    inside the round that made it)."""
    def find(puzzle: Puzzle, state: State, focus: frozenset[int] | None = None) -> Iterator[Deduction]:
        d = _round(puzzle, state, info, inner, order_of, depth, steps)
        if d is not None:
            yield d

    return Heuristic(info, find)
