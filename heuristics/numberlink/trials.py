"""Hypotheses about where a line goes on, or a cell's shape: a short look-ahead from the
loose ends with the rules for lines (level 4), and trials filled in with every easier
level (level 5)."""
from __future__ import annotations

import contextvars
from collections import OrderedDict
from typing import Iterator

import attrs

from grader.core.engine import out_of_time, solve_memory
from grader.genres.numberlink.model import WITH_SIDE, NumberlinkPuzzle
from grader.kernels.cell_shapes import OPPOSITE, chains
from grader.core.registry import REGISTRY, heuristic
from grader.core.model import State
from grader.core.probing import (Branch, cases_deduction, cell_assumptions, cell_deduction, explore,
                                 probe_order)
from grader.core.probing import fill as probing_fill
from grader.core.steps import Deduction, Status, Trace
from grader.kernels.recent import narrowed

from heuristics.numberlink import territory
from heuristics.numberlink.common import GENRE, cells_near
from heuristics.numberlink.product import pair_product

# --- the hypotheses -------------------------------------------------------------------------

def heads(puzzle: NumberlinkPuzzle, state: State) -> list[tuple[int, int, int, list[tuple[int, int]]]]:
    """Loose ends of the lines drawn so far: of each number's line not yet joined, then of each
    drawn piece no number reaches yet: (label or 0, where the line comes from (its number, or
    the piece's other loose end), the loose end, [(side, neighbour) it may go on])."""
    ch = chains(puzzle, state)
    cands, must = state.cands, ch.must

    def ways(x: int) -> list[tuple[int, int]]:
        return [(d, y) for d, y in puzzle.neighbour[x].items()
                if not must[x] & d and cands[x] & WITH_SIDE[d] and cands[y] & WITH_SIDE[OPPOSITE[d]]]
    out = []
    for lab, (a, b) in puzzle.pairs.items():
        if ch.joined(lab, puzzle):
            continue
        for end in (a, b):
            piece = ch.members.get(ch.root[end]) or [end]
            x = next((x for x in piece if x != end and must[x].bit_count() == 1), end)
            out.append((lab, end, x, ways(x)))
    for root, piece in sorted(ch.members.items()):
        if not ch.label_of_root.get(root):
            loose = sorted(x for x in piece if must[x].bit_count() == 1)
            out.extend((0, other, x, ways(x)) for x, other in zip(loose, loose[::-1]))
    return out


def fill_heuristics(level: int, fill: str) -> list:
    """The techniques a trial fills in with, up to `level`, in one of the FILLS (the quick
    fill, then the deep one)."""
    lower = [h for h in REGISTRY.for_genre(GENRE, level) if h not in (end_lookahead, cell_lookahead, pair_lookahead)]
    costly = [h for h in lower if h.fn.__module__ == territory.__name__]
    cheap = [h for h in lower if h not in costly]
    return {"near": cheap + [end_lookahead], "deep": cheap + costly + [end_lookahead]}[fill]


# A sweep stops at the first refutation, or once it has this many case analyses that agree on
# something; the others are kept for later (below).
ENOUGH = 4

# Each branch is filled in with up to this many steps at up to this level, taking everything a
# technique finds at one look (Solver's greedy).
FILL = (300, 4)
# The passes of a sweep, the second only when the first found nothing. The territory of
# level 3 (territory.py), worked out over the whole board, is costly and seldom finds
# anything, so the first pass leaves it out. Both take in the look-ahead of level 4: nested
# in every branch it multiplies the cost of a branch that goes on, but ends a doomed one
# early, so a sweep finds a refutation sooner and fewer sweeps are needed (janko 505: 20
# sweeps in 24 s, against 86 in 86 s without it; 307 and 426 solve 2-3 times faster, though
# 327 takes 109 s against 70). A middle pass with the territory and without the look-ahead was
# dropped: where the first pass found nothing it was the slower (on 327 its 11 sweeps took
# 58 s and found 2 refutations; the look-ahead's found one in all 9 of its sweeps, in 21 s).
FILLS = ("near", "deep")


@attrs.frozen
class Item:
    """One hypothesis: every way the line at a loose end can go on, or every shape of a cell."""
    key: tuple
    cells: tuple[int, ...]                          # the cells it is about
    how: str                                        # how the explanation introduces it
    cell: int
    ways: tuple[tuple[int, int], ...] = ()          # for a loose end: (side, neighbour)

    def attempt(self, puzzle: NumberlinkPuzzle, state: State, lower, fill: tuple[int, int] = FILL,
                recalled: "Recalled | None" = None, deeper: bool = False) -> tuple[Deduction | None, list[Branch]]:
        """Fill in every case; with `recalled` (this hypothesis tried on an earlier board),
        its branches are taken up where they stopped instead (see Recalled); `deeper` when
        they were filled with fewer techniques than `lower`."""
        steps, level = fill
        if recalled is not None and recalled.fits(self, state):
            branches = [resume(puzzle, state, b, level, steps, lower, deeper) for b in recalled.branches]
            found = cases_deduction(puzzle, state, branches)
        elif self.ways:
            x = self.cell
            assumptions = [(f"the line goes from {puzzle.cell(x)} to {puzzle.cell(y)}",
                            state.restrict(x, WITH_SIDE[d]).restrict(y, WITH_SIDE[OPPOSITE[d]]), (x, y))
                           for d, y in self.ways]
            branches = explore(puzzle, state, assumptions, level, steps, lower, stop_on_refutation=False,
                               greedy=True, fill_with=filled)
            found = cases_deduction(puzzle, state, branches)
        else:
            branches = explore(puzzle, state, cell_assumptions(puzzle, state, self.cell), level, steps, lower,
                               greedy=True, fill_with=filled)
            found = cell_deduction(puzzle, state, self.cell, branches)
        if found is not None:
            found = attrs.evolve(found, params={**found.params, "how": self.how, "cell": puzzle.cell(self.cell)},
                                 cells=(puzzle.cell(self.cell),))
        return found, branches


# The look-aheads' fills use the rules for lines (and the pairwise product), which read
# nothing but the board: the same fill of the same board is the same trace. Trials ask for
# the same one again and again (on janko 038 a tenth to a fifth of 10,000 fills), so a solve
# keeps the last ones, by board, where the fill starts looking, and budget: FILLS_KEPT cells'
# worth, as a fill's trace takes memory in proportion to the board (4000 fills of a 15x15
# board, about 100 MB). Fills with a look-ahead in them read the solve's memory too (what
# the look-aheads tried before), so those are never kept.
FILLS_KEPT = 900_000


def filled(puzzle: NumberlinkPuzzle, state: State, changed, level: int, steps: int, lower,
           greedy: bool = True) -> Trace:
    """A fill (grader.core.probing.fill), or the same fill made earlier in the solve."""
    if end_lookahead in lower:
        return probing_fill(puzzle, state, changed, level, steps, lower, greedy)
    kept = solve_memory().setdefault("numberlink.fills", {})
    key = (state.cands, frozenset(changed), level, steps, tuple(lower), greedy)
    trace = kept.get(key)
    if trace is None:
        trace = probing_fill(puzzle, state, changed, level, steps, lower, greedy)
        if trace.status is not Status.BUDGET or len(trace.steps) >= steps:    # (not stopped on time)
            if len(kept) >= FILLS_KEPT // len(state.cands):
                kept.clear()
            kept[key] = trace
    return trace


def end_items(puzzle: NumberlinkPuzzle, state: State) -> list[Item]:
    """The loose ends with two ways on or more, fewest ways first (numbers' lines before
    pieces no number reaches yet); made once per state, for both look-aheads and the trials."""
    return state.derived("numberlink.end-items", lambda: _end_items(puzzle, state))


def _end_items(puzzle: NumberlinkPuzzle, state: State) -> list[Item]:
    ends = sorted((len(ways), not lab, lab, origin, x, ways)
                  for lab, origin, x, ways in heads(puzzle, state) if len(ways) >= 2)
    # a line is known by where it comes from, which stays as it grows (a sweep follows it)
    return [Item(("line", origin), (x,) + tuple(y for _, y in ways),
                 f"Try every way the line of {puzzle.name(lab)} can go on from" if lab
                 else "Try every way the drawn line can go on from", x, tuple(ways))
            for _, _, lab, origin, x, ways in ends]


def items(puzzle: NumberlinkPuzzle, state: State) -> tuple[list[Item], list[Item]]:
    """The hypotheses in the order a solver would think of them: the loose ends (end_items),
    then the shapes of the cells beside them (beside_ends); and apart, the shapes of the
    other cells."""
    ends = end_items(puzzle, state)
    near = beside_ends(state, ends)
    beside = {item.cell for item in near}
    far = [Item(("cell", v), (v,), "Try each way the line can pass", v)
           for v in probe_order(state, sorted(set(range(len(state.cands))) - beside))]
    return ends + near, far


def beside_ends(state: State, ends: list[Item]) -> list[Item]:
    """The shapes of the cells the loose ends may go on to, fewest shapes first."""
    beside = {y for item in ends for _, y in item.ways}
    return [Item(("cell", v), (v,), "Try each way the line can pass", v) for v in probe_order(state, sorted(beside))]


# What came of the hypotheses that found nothing earlier in this solve: the state they were
# tried in, the cells their branches changed, and the cells around the hypothesis itself. In a
# later state, one with changes around it is worth trying again first; one whose branches'
# cells changed further off, next (on 031, 4 of 160 such retries found something); one with
# nothing changed anywhere it reached, last (none of 357 did), and only in the last pass
# (none of 555 did in the near pass on 505): the last pass still tries every hypothesis
# before the heuristic gives up. Like grader.core.probing.Tried, this lives in the solve's
# memory, so the same puzzle always gets the same trace.
Tried = tuple[tuple[int, ...], frozenset[int], frozenset[int]]


@attrs.define
class Memory:
    tried: dict[tuple, Tried] = attrs.Factory(dict)
    # the branches of the hypotheses that found nothing, by hypothesis (see Recalled), the
    # longest ago first
    recalled: OrderedDict[tuple, "Recalled"] = attrs.Factory(OrderedDict)
    # the same for the look-aheads, by hypothesis and whether it was made inside a trial
    looked: OrderedDict[tuple, "Recalled"] = attrs.Factory(OrderedDict)
    # where the last sweep of each pass stopped, and whether it found something there
    last: dict[str, tuple[tuple | None, bool]] = attrs.Factory(dict)
    # case analyses a sweep found besides the one it used, with the state they were made in
    kept: list[tuple[tuple[int, ...], Deduction]] = attrs.Factory(list)

    @staticmethod
    def remember(store: OrderedDict[tuple, "Recalled"], key: tuple, recalled: "Recalled", cells: int) -> None:
        """Keep what a hypothesis led to; beyond RECALL, the ones tried longest ago are forgotten
        (an OrderedDict drops its first in constant time, where a dict that keeps dropping its
        first entries walks past their gaps on a big board)."""
        store.pop(key, None)
        store[key] = recalled
        while len(store) > max(20, RECALL // cells):
            store.popitem(last=False)


def memory() -> Memory:
    return solve_memory().setdefault(__name__, Memory())


def around(puzzle: NumberlinkPuzzle, cells: tuple[int, ...]) -> frozenset[int]:
    """The cells within two steps of these."""
    out = set(cells)
    for _ in range(2):
        out.update([y for x in out for y in puzzle.neighbour[x].values()])
    return frozenset(out)


def by_promise(puzzle: NumberlinkPuzzle, state: State, near: list[Item], far: list[Item],
               fill: str) -> list[Item]:
    """The order of a sweep: the hypotheses at the loose ends, going on from where the last
    sweep stopped (with the same line again if it settled something there), then the other
    cells; in each, those tried before come after the others the less has changed around them
    since, and those with nothing changed where they reached only in the last pass (see
    Memory)."""
    mem = memory()
    tried = mem.tried
    last, worked = mem.last.get(fill, (None, False))
    keys = [item.key for item in near]
    start = (keys.index(last) + (not worked)) % len(keys) if last in keys else 0
    changes: dict[int, set[int] | None] = {}

    def tier(item: Item) -> int:
        seen = tried.get((fill, item.key))
        if seen is None:
            return 0
        before, reach, close = seen
        if id(before) not in changes:
            changed = narrowed(before, state.cands, len(state.cands))
            changes[id(before)] = None if changed is None else set(changed)
        changed = changes[id(before)]
        if changed is None or not close.isdisjoint(changed):
            return 0
        return 1 if not reach.isdisjoint(changed) else 2
    out = []
    for part in (near[start:] + near[:start], far):
        tiers = [tier(item) for item in part]
        out += [item for t in range(3 if fill == FILLS[-1] else 2) for item, u in zip(part, tiers) if u == t]
    return out


# Whether the running code fills in a branch of a trial (a sweep sets it).
IN_TRIAL: contextvars.ContextVar[bool] = contextvars.ContextVar("numberlink-in-trial", default=False)


def sweep(puzzle: NumberlinkPuzzle, state: State, near: list[Item], far: list[Item], fill: str
          ) -> tuple[Deduction | None, list[Deduction]]:
    """Try the items, the most promising first: the first deduction with a refuted branch,
    else the first one at all; and the others found."""
    lower = fill_heuristics(FILL[1], fill)
    mem = memory()
    seen: list[Deduction] = []
    failed: dict[tuple, Tried] = {}
    last = None
    for item in by_promise(puzzle, state, near, far, fill):
        if out_of_time():
            break
        last = item.key
        token = IN_TRIAL.set(True)
        try:
            d, branches = item.attempt(puzzle, state, lower, recalled=mem.recalled.get((fill, item.key)))
        finally:
            IN_TRIAL.reset(token)
        if d is None and branches:
            mem.remember(mem.recalled, (fill, item.key), Recalled.of(item, state, branches), len(state.cands))
        if d is None:
            reach = set(item.cells)
            for b in branches:
                reach.update(v for v, (m, f) in enumerate(zip(state.cands, b.trace.final.cands)) if m != f)
            failed[fill, item.key] = (state.cands, frozenset(reach), around(puzzle, item.cells))
            continue
        seen.append(d)
        if any(b.refuted for b in d.detail) or len(seen) >= ENOUGH:
            break
    mem.tried.update(failed)
    mem.last[fill] = (last, bool(seen))
    if not seen:
        return None, []
    best = next((d for d in seen if any(b.refuted for b in d.detail)), seen[0])
    return best, [d for d in seen if d is not best]


# What was impossible in the state a kept case analysis was made in stays impossible in every
# later state of the same solve (one whose candidates are a subset), so the next call can use
# them before sweeping again.
def kept_deduction(state: State) -> Deduction | None:
    """A kept case analysis that still removes something in `state`."""
    kept = memory().kept
    while kept:
        made_in, d = kept.pop(0)
        if any(c & ~c0 for c, c0 in zip(state.cands, made_in)):
            kept.clear()            # not a later state of the one it was made in
            return None
        removals = tuple((v, m & state.cands[v]) for v, m in d.removals if m & state.cands[v])
        if removals:
            return attrs.evolve(d, removals=removals)
    return None


# A hypothesis that found nothing is remembered with its branches: whatever a branch derived
# follows from its assumption on every later board too, so when the hypothesis comes up again
# its branches are taken up where they stopped (resume), as a solver remembers "if that cell
# were a corner, this line had to go round there". A fill its step budget cut short goes on
# from there with a new budget: a look-ahead taken up follows its line further each time. (A
# check that refuted remembered branches straight from the board, without filling in, was
# dropped: with the look-ahead in every trial it settled nothing on 32 janko boards.)
# How many cells' worth of remembered fills a solve keeps: a fill's steps take memory in
# proportion to the board: 15x15 boards keep about 260 hypotheses (100-200 MB at the most).
RECALL = 60_000


def pack(cands: tuple[int, ...]) -> int:
    return int.from_bytes(b"".join(m.to_bytes(2, "little") for m in cands), "little")


def packed(state: State) -> int:
    """The board packed (16 bits a cell), once per state: a sweep asks for it per hypothesis."""
    return state.derived("numberlink.packed", lambda: pack(state.cands))


@attrs.frozen
class Recalled:
    """A hypothesis that found nothing: the board it was tried on, and its branches."""
    item: Item
    made_in: int                                     # the board it was tried in, packed
    branches: tuple[Branch, ...]

    @classmethod
    def of(cls, item: Item, state: State, branches: list[Branch]) -> "Recalled":
        return cls(item, packed(state), tuple(branches))

    def fits(self, item: Item, state: State) -> bool:
        """Whether its cases still cover every possibility for `item` on this board: one made
        on an earlier board of this solve, about the same cell and ways."""
        return self.item == item and not packed(state) & ~self.made_in


def resume(puzzle: NumberlinkPuzzle, state: State, branch: Branch, level: int, steps: int, lower,
           deeper: bool = False) -> Branch:
    """An earlier branch taken up on a later board: its fill, narrowed to the board, filled in
    further from the cells the board has narrowed (what it derived before still holds), and
    where a fill cut short by its step budget had got to, or one made with fewer techniques
    (`deeper`) stopped (among the cells it changed)."""
    old = branch.trace.final.cands
    taken_up = narrowed_branch(puzzle, branch, tuple(f & c for f, c in zip(old, state.cands)))
    changed = [v for v, (f, g) in enumerate(zip(old, taken_up.trace.final.cands)) if f != g]
    if taken_up.refuted or not (changed or deeper):
        return taken_up
    if deeper or branch.trace.status is Status.BUDGET:
        changed = sorted(set(changed).union(branch.trace.start.diff(branch.trace.final)))
    more = filled(puzzle, taken_up.trace.final, changed, level, steps, lower)
    return Branch(branch.label, attrs.evolve(more, start=branch.trace.start, steps=branch.trace.steps + more.steps,
                                             seconds=branch.trace.seconds + more.seconds))


def narrowed_branch(puzzle: NumberlinkPuzzle, branch: Branch, cands: tuple[int, ...]) -> Branch:
    """A branch whose fill is narrowed to `cands` by the board: refuted if a cell is left with
    no shape (one refuted before stays so)."""
    trace = attrs.evolve(branch.trace, final=State(cands))
    if 0 in cands and not branch.refuted:
        trace = attrs.evolve(trace, status=Status.CONTRADICTION,
                             reason=f"it leaves no way the board still allows for a line at {puzzle.cell(cands.index(0))}")
    return Branch(branch.label, trace)


@heuristic(id="numberlink.trial-and-error", genre=GENRE)
def trial_and_error(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Every way a line can go on from a loose end, or every shape of a cell, each filled in
    with the easier levels (grader.core.probing): refuted ways drop out, and what the others agree
    on holds."""
    found = kept_deduction(state)
    if found is None:
        listed = items(puzzle, state)
        for fill in FILLS:
            found, others = sweep(puzzle, state, *listed, fill)
            if found is not None:
                memory().kept[:] = [(state.cands, d) for d in others]
                break
    if found is not None:
        yield found


# --- level 4 ------------------------------------------------------------------------------

# A look-ahead follows each way on from a loose end, or each shape of a cell beside one, for
# at most this many steps of the rules for lines (levels 1-2): what a solver checks by eye
# before starting a real trial. Forced moves along a line run long: on 12 janko records 40
# steps instead of 25 took 3 more puzzles to level 4 and was no slower, since fewer costly
# trials were needed. Taken up again on a later board, a look-ahead goes on from where it
# stopped with as many steps more: a solver remembers where a line was heading. With that,
# 80 steps did better again: the 8 slowest janko records took 87 trials instead of 159, in
# a seventh less time, and one more was solved in 60 s (20 steps: 228 trials; 150: no better).
LOOK = (80, 2)
LOOK_TEMPLATE = "{how} {cell}, following each with the rules for lines: {outcome}."


def look_ahead(puzzle: NumberlinkPuzzle, state: State, hypotheses: list[Item], key: str,
               focus: frozenset[int] | None, pairs: bool = False) -> Iterator[Deduction]:
    """Each hypothesis filled in up to LOOK steps with the levels 1-2; branches that break a rule
    drop out, and what the others agree on holds. One that led nowhere is tried again only
    once something beside it has changed since it was last tried (a solver's eye goes back to
    a line when it has grown or its surroundings have). Inside a trial, only the hypotheses
    beside what changed since the look-ahead last found nothing (`focus`), which keeps it to
    the lines the trial's assumption touched: the others led nowhere on the board it was made
    on. On the solve's own board the focus narrows nothing: a look-ahead reads far, so a
    change anywhere may let one find something, and a look must find what a look at the
    whole board finds.
    What a hypothesis led to is remembered and taken up where it stopped (see Recalled): the
    solve's own boards apart from the trials' ones, which would push them out; a trial may
    take up either, as its boards narrow the solve's board it started from. With `pairs`, the
    fill also combines two neighbouring cells (product.py), and its branches are kept apart
    from the plain look-aheads' (which it may take up: what they derived holds as well)."""
    lower = REGISTRY.for_genre(GENRE, LOOK[1])
    if pairs:
        lower = lower + [pair_product]
    looked, inside = memory().looked, IN_TRIAL.get()
    nowhere = solve_memory().setdefault(key, {})
    cands = state.cands
    changed = None if focus is None or not inside else set(cells_near(puzzle, focus))
    for item in hypotheses:
        if changed is not None and changed.isdisjoint(item.cells):
            continue
        beside = nowhere.get(item.key)
        if beside is not None and all(cands[v] == m for v, m in beside):
            continue
        slots = [(item.key, True), (item.key, False)] if inside else [(item.key, False)]
        if pairs:
            slots = [("pairs",) + slot for slot in slots] + slots
        slot, recalled = next(((k, r) for k, r in zip(slots, map(looked.get, slots))
                               if r is not None and r.fits(item, state)), (None, None))
        found, branches = item.attempt(puzzle, state, lower, LOOK, recalled=recalled,
                                       deeper=pairs and slot is not None and slot[0] != "pairs")
        if found is None and branches:       # (one that found something may have stopped early)
            Memory.remember(looked, slots[0], Recalled.of(item, state, branches), len(cands))
        if found is not None:
            yield found
            continue
        near = {y for x in item.cells for y in puzzle.neighbour[x].values()} | set(item.cells)
        nowhere[item.key] = tuple((v, cands[v]) for v in sorted(near))


@heuristic(id="numberlink.end-lookahead", genre=GENRE)
def end_lookahead(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Each loose end: its ways on, each followed with the rules for lines (look_ahead)."""
    yield from look_ahead(puzzle, state, end_items(puzzle, state), end_lookahead.id, focus)


@heuristic(id="numberlink.cell-lookahead", genre=GENRE)
def cell_lookahead(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Each cell a loose end may go on to: its shapes, each followed with the rules for lines
    (look_ahead). The same glance as at the loose ends, from the cell's side: with it and
    40-step look-aheads, 60 janko records went from level 5 to level 4."""
    # a cell with two shapes left is a choice the loose end's own look-ahead already makes
    # (none of 544 found anything on 12 janko records)
    cells = [item for item in beside_ends(state, end_items(puzzle, state))
             if state.cands[item.cell].bit_count() > 2]
    yield from look_ahead(puzzle, state, cells, cell_lookahead.id, focus)


@heuristic(id="numberlink.pair-lookahead", genre=GENRE)
def pair_lookahead(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """The loose ends and the cells beside them again, once the plain look-aheads have found
    nothing: each way followed with the rules for lines and, besides, with what two
    neighbouring cells allow together (numberlink.pair-product), which carries a chain past
    where the rules for one cell stop (on janko 181, 14 trials down to 6)."""
    ends = end_items(puzzle, state)
    cells = [item for item in beside_ends(state, ends) if state.cands[item.cell].bit_count() > 2]
    yield from look_ahead(puzzle, state, ends + cells, pair_lookahead.id, focus, pairs=True)
