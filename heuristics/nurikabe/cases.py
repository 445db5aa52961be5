"""Short case splits a strong solver makes on purpose (level 4).

island-cases: an island with only a few ways to finish (at most CASE_WAYS), each way followed
for a few easy (level 1-2) steps; the ways that break a rule are struck out, and what every
way left shares, or what the short chains of the ways left all show, is settled (Sudoku
Explainer's region forcing chains). When the easy steps settle nothing, the ways are followed
again with steps that may use level 3's reach of islands, and an island of at most FEW_WAYS
ways for up to FEW_STEPS direct steps of levels 1-4 (the bounds of Heyawake's room-cases). An
island with more ways (at most MANY_WAYS) is split only when ways are struck out within a very
few easy steps each, and only what the ways left share is settled.

forcing-chain: a cell whose one value breaks a rule within a few easy steps (or fewer steps
that may use level 3's reach of islands) takes the other; only refutations, never what both
values agree on (that is level 5's trial and error).

The count that rates a step's difficulty leaves both out (`counted: false` in their rows):
they would cost more than the rest of the solve.
"""
from __future__ import annotations

from typing import Iterator

from grader.genres.nurikabe.model import B_ISLAND, B_WALL, FREE, ISLAND, WALL, NurikabePuzzle, islands
from grader.core.engine import Budget, Solver, out_of_time, solve_memory
from grader.core.registry import REGISTRY, heuristic
from grader.core.model import State
from grader.core.probing import Branch
from grader.core.steps import Deduction, Status, Trace

import attrs

from heuristics.nurikabe.common import GENRE
from heuristics.nurikabe.counting import too_few_cells
from heuristics.nurikabe.shapes import assume_shape, count_ways, island_shapes, say_shared, shared_by

CASE_WAYS = 8       # an island with up to this many ways: each followed for CASE_STEPS
CASE_STEPS = 10     # easy steps each way is followed for
SHORT_LEVEL = 3     # ways the easy steps leave open: followed again with level-3 steps too
# An island with up to FEW_WAYS ways still open then: each way followed for up to FEW_STEPS
# direct steps of levels 1-4, never a case split inside a case (Heyawake's room-cases).
FEW_WAYS = 4
FEW_STEPS = 20
FEW_LEVEL = 4
MANY_WAYS = 12      # up to this many: each struck out within QUICK_STEPS or kept as it is
QUICK_STEPS = 4
CASE_LEVEL = 2      # the techniques that follow it: levels 1 and 2
CASE_ISLANDS = 24   # islands split per look, fewest ways first (on a big board, not all)


def broken_rule(puzzle: NurikabePuzzle, state: State) -> str | None:
    """The first rule `state` breaks (a cell with no value left, or a violation), or None.
    Kept with the state: the case splits of one state and the chains that end in one ask
    again."""
    return state.derived("nurikabe.broken-rule", lambda: _broken_rule(puzzle, state))


def _broken_rule(puzzle: NurikabePuzzle, state: State) -> str | None:
    if 0 in state.cands:
        return f"{puzzle.cell(state.cands.index(0))} could be neither island nor wall"
    found = puzzle.genre.violations(puzzle, state)
    return found[0].message if found else too_few_cells(puzzle, state)


def direct_steps(level: int) -> list:
    """The techniques a chain is followed with: those up to `level` but the case splits (rows
    with `counted: false`): a case split inside a case is a hypothesis inside a hypothesis."""
    return [h for h in REGISTRY.for_genre(GENRE, level) if h.info.counted]


CHAINS_KEPT = 48    # chains remembered per solve (the latest): each keeps its final state


def short_chain(puzzle: NurikabePuzzle, assumed: State, changed, steps: int = CASE_STEPS,
                level: int = CASE_LEVEL) -> Trace:
    """Easy (level 1-2) steps from an assumed state, up to `steps` of them; a trace that
    ends CONTRADICTION refutes the assumption, and then stops at the first broken rule (the
    chain a reader follows). A chain followed a little earlier from the same candidates is
    not followed again (island-cases and cell-owners follow the same ways in one state): the
    techniques it is followed with remember nothing of the solve, so it is the same chain.
    Nor is one whose twin from the same start, followed with the techniques of a lower level
    (a prefix of this level's) or for fewer steps, found a step in every state it looked in,
    to the end of this chain's steps: the techniques of the higher level, tried only where
    the lower ones find nothing, would never have been asked. One whose lower-level twin got
    stuck within fewer steps goes on from where the twin stopped (see Chain)."""
    memory = solve_memory().setdefault("nurikabe.short-chains", {})
    start = (assumed.cands, frozenset(changed))
    chains = memory.setdefault(start, {})     # (steps, level) -> Chain
    found = chains.get((steps, level)) or _twin(chains, steps, level)
    if found is None:
        found = chains[steps, level] = _short_chain(puzzle, assumed, changed, steps, level, chains.values())
        while sum(map(len, memory.values())) > CHAINS_KEPT:
            del memory[next(iter(memory))]      # the oldest start, with its chains
    return found.trace


@attrs.frozen(eq=False)
class Chain:
    """A chain followed (_short_chain): its trace; for how many steps it stands for a chain
    from the same start with more techniques (see _stands_for); and, for a stuck chain, what
    a chain with more techniques goes on from. Those are never asked until these find
    nothing, so such a chain takes the stuck one's steps first (Solver.go_on_past), looking
    at the same states: the techniques it was followed with and the states it looked in
    (at most one more than its steps)."""
    trace: Trace
    stands: float
    rules: tuple = ()
    looked: tuple[State, ...] = ()


def _twin(chains: dict, steps: int, level: int) -> Chain | None:
    """A chain from the same start that a chain of `steps` steps of levels up to `level`
    would follow step for step (see short_chain)."""
    for (s, lv), found in chains.items():
        if lv <= level and s <= steps <= found.stands:
            return found
    return None


def _stuck_twin(chains, solver: Solver) -> Chain | None:
    """Of `chains` (from one start), a stuck one that `solver` goes on from (see Chain):
    followed with the first of its techniques, fewer steps than its budget (so no greedy batch
    of it was cut short). The one with the most techniques: the least is left to do."""
    rules = tuple(solver.heuristics)
    fits = [c for c in chains if c.looked and len(c.rules) < len(rules) and rules[:len(c.rules)] == c.rules
            and len(c.trace.steps) < solver.budget.max_steps]
    return max(fits, key=lambda c: len(c.rules), default=None)


def _short_chain(puzzle: NurikabePuzzle, assumed: State, changed, steps: int, level: int,
                 chains=()) -> Chain:
    """short_chain followed (from a stuck chain of `chains`, from the same start, where one
    fits: see Chain). The rules are looked at once at the end first (the look is what costs);
    for a chain that breaks one, at each state where the chain stopped to look for a step, in
    order, and the chain is cut at the first that breaks one (the chain a check before every
    step would have followed: the same steps up to there, no further)."""
    looked: list[State] = []

    def note(state: State) -> bool:
        looked.append(state)
        return False
    solver = Solver(puzzle, heuristics=direct_steps(level), greedy=True, budget=Budget.steps_only(steps))
    stuck = _stuck_twin(chains, solver)
    if stuck is None:
        trace = solver.solve(assumed, focus=frozenset(changed), until=note)
    else:
        looked.extend(stuck.looked[:-1])    # it goes on by looking in the last one again
        trace = solver.go_on_past(stuck.trace, len(stuck.rules), frozenset(changed), until=note)
    stands = _stands_for(trace, steps)
    if trace.status is not Status.CONTRADICTION and _broken_at_end(puzzle, trace) is None:
        kept = tuple(looked) if trace.status is Status.STUCK else ()
        return Chain(trace, stands, tuple(solver.heuristics), kept)
    for state in looked:
        why = broken_rule(puzzle, state)
        if why is not None:
            return Chain(attrs.evolve(trace, steps=trace.steps[:_steps_to(trace, state)], final=state,
                                      status=Status.CONTRADICTION, reason=why), stands)
    if trace.status is not Status.CONTRADICTION:
        trace = attrs.evolve(trace, status=Status.CONTRADICTION, reason=broken_rule(puzzle, trace.final))
    return Chain(trace, stands)


def _broken_at_end(puzzle: NurikabePuzzle, trace: Trace) -> str | None:
    """broken_rule of a chain's last state. A chain stuck there has had its rules looked at
    (a solve does where no technique finds a step) and found kept: only the count is left."""
    if trace.status is Status.STUCK:
        return too_few_cells(puzzle, trace.final)
    return broken_rule(puzzle, trace.final)


def _stands_for(trace: Trace, steps: int) -> float:
    """For how many steps a chain from the same start followed with more techniques is this
    one (a solve limited to `steps`; 0: for none). The techniques added come after these and
    are tried only where all of these find nothing, so it is the same chain when this one
    found a step in every state it looked in: when it stopped on its step count (the same
    for as many steps; more would go further), or before that on a cell with no value left
    or every cell decided, both seen before a look (the same for any number of steps)."""
    if trace.status is Status.BUDGET:
        return steps if len(trace.steps) >= steps else 0
    cands = trace.final.cands
    if trace.status is Status.SOLVED or (trace.status is Status.CONTRADICTION and (0 in cands or FREE not in cands)):
        return steps if len(trace.steps) >= steps else float("inf")
    return 0


def _steps_to(trace: Trace, state: State) -> int:
    """How many of the trace's steps lead to `state`, a state on its way: every step takes
    out at least one candidate, so the count of candidates taken out tells."""
    left = _candidates(trace.start) - _candidates(state)
    n = 0
    while left > 0:
        left -= sum(m.bit_count() for _, m in trace.steps[n].deduction.removals)
        n += 1
    return n


def _candidates(state: State) -> int:
    return sum(m.bit_count() for m in state.cands)


class Quiet:
    """What led nowhere earlier in this solve, kept with the candidates, at the time, of the
    cells around what its chains touched: until one of those changes it is not tried again
    (a speed-up only: what is skipped is never a deduction)."""

    def __init__(self, key: str):
        self.memory: dict = solve_memory().setdefault(key, {})

    def skip(self, state: State, item) -> bool:
        seen = self.memory.get(item)
        cands = state.cands
        return seen is not None and all(cands[v] == m for v, m in seen)

    def failed(self, puzzle: NurikabePuzzle, state: State, item, cells: set[int]) -> None:
        near = puzzle.graph.around(cells, 2)
        self.memory[item] = tuple((v, state.cands[v]) for v in sorted(near))


def after(n: int, level: int = CASE_LEVEL) -> str:
    """"after 3 easy steps" (levels 1-2), "after 3 short steps" (up to level 3), "after 3
    steps" (up to level 4)."""
    kind = "easy " if level <= 2 else "short " if level == 3 else ""
    return "at once" if n == 0 else f"after one {kind}step" if n == 1 else f"after {n} {kind}steps"


def easy_passes(ways: int) -> list[tuple[int, int]]:
    """island-cases: (steps, highest level) each of an island's ways is followed for."""
    return [(CASE_STEPS if ways <= CASE_WAYS else QUICK_STEPS, CASE_LEVEL)]


def longer_passes(ways: int) -> list[tuple[int, int]]:
    """island-cases-longer: the same ways followed further (fewer ways, further)."""
    return [(CASE_STEPS, SHORT_LEVEL)] * (ways <= CASE_WAYS) + [(FEW_STEPS, FEW_LEVEL)] * (ways <= FEW_WAYS)


@heuristic(id="nurikabe.island-cases", genre=GENRE)
def island_cases(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    yield from _island_cases(puzzle, state, "nurikabe.island-cases", easy_passes)


@heuristic(id="nurikabe.island-cases-longer", genre=GENRE)
def island_cases_longer(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    yield from _island_cases(puzzle, state, "nurikabe.island-cases-longer", longer_passes)


def _island_cases(puzzle: NurikabePuzzle, state: State, key: str, passes_for) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    options = sorted((len(ways), k) for k, ways in island_shapes(puzzle, state).items()
                     if 2 <= len(ways) <= MANY_WAYS)[:CASE_ISLANDS]
    quiet = Quiet(key)
    for _, k in options:
        if out_of_time():
            return
        ways = island_shapes(puzzle, state)[k]
        passes = passes_for(len(ways))
        item = (isl.clues[k][0], tuple(ways))
        if not passes or quiet.skip(state, item):
            continue
        touched: set[int] = set()
        for steps, level in passes:
            live, refuted = _follow(puzzle, state, isl, k, ways, steps, level, touched)
            put, agreed = _settled_by(puzzle, state, ways, live, refuted)
            if not live or put or agreed:
                break
        if not live:
            continue        # no way left: a broken rule, not a deduction
        if not put and not agreed:
            quiet.failed(puzzle, state, item, touched)
            continue
        struck = "".join(f"; if {b.label}, a rule breaks {after(len(b.trace.steps), level)} ({b.trace.reason})"
                         for _, b in refuted)
        detail = [b for _, b in refuted]
        if len(live) == 1:
            result = f"so it takes the way left: {settled(puzzle, put)}"
        elif len(agreed) > len(put):
            put = agreed
            result = (f"whichever of the {len(live)} ways {'left ' if refuted else ''}it takes, a few "
                      f"{'easy ' if level <= CASE_LEVEL else ''}steps show that {settled(puzzle, put)}")
            detail += [b for _, b in live]
        else:
            result = f"so {say_shared(puzzle, put).replace('every way', 'every way left')}"
        yield Deduction.build(state, put=put, premises=isl.parts[k], detail=tuple(detail), params={
            "island": isl.clue_name(k), "count": count_ways(len(ways)), "struck": struck,
            "result": result})
        return


def _follow(puzzle: NurikabePuzzle, state: State, isl, k: int, ways: list, steps: int, level: int,
            touched: set[int]) -> tuple[list, list]:
    """Each way of island k followed for `steps` steps of levels up to `level`: (the ways
    left, the ways refuted), each as (shape, Branch); adds the cells the chains changed to
    `touched`."""
    live, refuted = [], []
    for s in ways:
        new = sorted(i for i in s if i not in isl.parts[k])
        label = f"{isl.clue_name(k)} takes in {', '.join(map(str, puzzle.graph.cells(new)))}"
        assumed = assume_shape(puzzle, state, s)
        trace = short_chain(puzzle, assumed, state.diff(assumed), steps, level)
        touched.update(state.diff(trace.final))
        (refuted if trace.status is Status.CONTRADICTION else live).append((s, Branch(label, trace)))
    return live, refuted


def _settled_by(puzzle: NurikabePuzzle, state: State, ways: list, live: list, refuted: list
                ) -> tuple[dict[int, int], dict[int, int]]:
    """(what every way left shares when some were refuted, what the chains of the ways left
    all show beyond what every way shares)."""
    put = shared_by(puzzle, state, [s for s, _ in live]) if refuted and live else {}
    agreed = (agreed_by(state, [b.trace.final for _, b in live])
              if 1 < len(live) and len(ways) <= CASE_WAYS else {})
    if not refuted and not agreed.keys() - shared_by(puzzle, state, ways).keys():
        agreed = {}     # what the ways themselves share: every way to finish an island
    return put, agreed


def agreed_by(state: State, finals: list[State]) -> dict[int, int]:
    """Undecided cells every final state decides the same way: cell -> value."""
    out = {}
    for i, m in enumerate(state.cands):
        if m == FREE:
            union = 0
            for f in finals:
                union |= f.cands[i]
            if union == B_ISLAND:
                out[i] = ISLAND
            elif union == B_WALL:
                out[i] = WALL
    return out


def settled(puzzle: NurikabePuzzle, put: dict[int, int]) -> str:
    """"r1c2 and r1c3 are island and r2c2 is a wall"."""
    g = puzzle.graph
    isles = sorted(i for i, v in put.items() if v == ISLAND)
    walls = sorted(i for i, v in put.items() if v == WALL)
    said = []
    if isles:
        said.append(f"{', '.join(map(str, g.cells(isles)))} {'is' if len(isles) == 1 else 'are'} island")
    if walls:
        said.append(f"{', '.join(map(str, g.cells(walls)))} {'is a wall' if len(walls) == 1 else 'are walls'}")
    return " and ".join(said)


# (steps, highest level) a what-if is followed for: the short easy chains first, then longer
# easy ones, then short ones that may use level-3 steps (how far an island can still grow,
# which 2x2 block only one island can break), a few steps longer last.
CHAIN_PASSES = ((3, 2), (8, 2), (4, 3), (6, 3))
CHAIN_CELLS = 150   # cells tried per look, the most telling first (on a big board, not all)


@heuristic(id="nurikabe.forcing-chain", genre=GENRE)
def forcing_chain(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """A cell whose one value breaks a rule within a few easy steps takes the other. Only
    refutations count, never what the two values agree on (that is trial and error)."""
    from heuristics.nurikabe.hypotheses import probe_first
    if broken_rule(puzzle, state) is not None:
        return      # a rule is broken already (inside a hypothesis): nothing to learn here
    near = None if focus is None else puzzle.graph.around(focus, 2)
    order = [i for i in probe_first(puzzle, state) if near is None or i in near][:CHAIN_CELLS]
    quiet = Quiet("nurikabe.forcing-chain")
    # (cell, value, level) -> (its steps, the cells it changed) for a chain that came to a
    # stop before its step limit without breaking a rule: a longer limit gives the same chain
    stopped: dict[tuple[int, int, int], tuple[int, set[int]]] = {}
    for steps, level in CHAIN_PASSES:
        for i in order:
            for value, other in ((ISLAND, WALL), (WALL, ISLAND)):
                if out_of_time():
                    return
                if quiet.skip(state, (i, value, steps, level)):
                    continue
                known = stopped.get((i, value, level))
                if known is not None and known[0] < steps:
                    quiet.failed(puzzle, state, (i, value, steps, level), known[1])
                    continue
                trace = short_chain(puzzle, state.assume({i: value}), (i,), steps, level)
                if trace.status is not Status.CONTRADICTION:
                    touched = {i, *state.diff(trace.final)}
                    quiet.failed(puzzle, state, (i, value, steps, level), touched)
                    if trace.status is not Status.BUDGET and len(trace.steps) < steps:
                        stopped[(i, value, level)] = (len(trace.steps), touched)
                    continue
                said = ("is island" if value == ISLAND else "is a wall",
                        "is island" if other == ISLAND else "is a wall")
                yield Deduction.build(state, put={i: other},
                                      detail=(Branch(f"{puzzle.cell(i)} {said[0]}", trace),),
                                      params={"cell": puzzle.cell(i), "assumed": said[0], "result": said[1],
                                              "after": after(len(trace.steps), level), "reason": trace.reason})
                return
