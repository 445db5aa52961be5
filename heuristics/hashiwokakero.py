"""Hashiwokakero techniques, by level (spec/heuristics-catalogue.txt, HASHIWOKAKERO).

A variable is a slot between two islands; its candidates are bridge counts. `focus` holds the
slots changed since a technique last found nothing, so island rules look only at their ends.

The levels follow Simon Tatham's Bridges solver tiers: its easy stage counts per island from
the clues and finished islands (our level 1), medium adds "this island cannot be finished
without that direction" (level 2), hard reasons about cut-off groups and what other islands
still need (level 3). Level 4 works on two islands at once; level 5 tries ways and follows them.
"""
from __future__ import annotations

import functools
import itertools
from typing import Any, Iterable, Iterator

import attrs

from grader.core.explain import describe_removals
from grader.genres.hashiwokakero.model import LEAST, MOST, HashiPuzzle, Groups, groups, reachable
from grader.core.registry import REGISTRY, heuristic
from grader.core.model import State, values_of
from grader.core.probing import branch_deduction, register_probing, register_last_resort
from grader.core.steps import Deduction
from grader.kernels.recent import Remembered, last_answer, narrowed

GENRE = "hashiwokakero"


def bridges(n: int) -> str:
    return {0: "no bridges", 1: "one bridge"}.get(n, f"{n} bridges")


@attrs.define
class Reads:
    """The slots an answer rests on: some read in full (`whole`), some only for their least
    count (`least`: what an island has, which islands are joined) or only for their most
    (`most`: whether a slot can still carry a bridge, what an island can still get). Along a
    solve a slot often loses a count at one end while the other end stays."""
    whole: set[int] = attrs.field(factory=set)
    least: set[int] = attrs.field(factory=set)
    most: set[int] = attrs.field(factory=set)

    def __or__(self, other: "Reads") -> "Reads":
        return Reads(self.whole | other.whole, self.least | other.least, self.most | other.most)


class RememberedReads(Remembered):
    """Remembered, for answers that say what they read in Reads: an answer holds while no slot
    it read in full changed and every slot it read one end of kept that end."""

    def put(self, key: Any, read: Reads, value: Any = True) -> None:
        cands = self.cands

        def open_(slots: set[int]) -> frozenset[int]:
            return frozenset(j for j in slots if cands[j] & (cands[j] - 1))
        whole = open_(read.whole)
        self.entries[key] = (cands, whole, open_(read.least) - whole, open_(read.most) - whole, value)

    def get(self, key: Any, default: Any = None) -> Any:
        got = self.entries.get(key)
        if got is None:
            return default
        then, whole, least, most, value = got
        diff = self.changed_since(then)
        if diff is None or not diff.isdisjoint(whole):
            return default
        now = self.cands
        changed = diff & least
        if changed and any(LEAST[then[v]] != LEAST[now[v]] for v in changed):
            return default
        changed = diff & most
        if changed and any(MOST[then[v]] != MOST[now[v]] for v in changed):
            return default
        return value


def remembered(puzzle: HashiPuzzle, name: str, state: State) -> RememberedReads:
    """The results kept with the puzzle under `name`; what changed since the states they were
    worked out in is found once per state, for all the techniques that ask."""
    kept = puzzle.__dict__.get("_hashi_diffs")
    if kept is None or (kept[0] is not state.cands and kept[0] != state.cands):
        diffs = diffs_after(*kept, state.cands) if kept is not None else {}
        kept = puzzle.__dict__["_hashi_diffs"] = (state.cands, diffs)
    return RememberedReads(puzzle.once(name, dict), state, kept[1])


def diffs_after(before: tuple[int, ...], before_diffs: dict, cands: tuple[int, ...]) -> dict:
    """Remembered's diffs for `cands` (id of an earlier state -> (that state, the variables
    changed since)), made from those of the state looked at before when `cands` narrows it:
    the changes since an earlier state are those up to it and those after it, found with one
    look along the board, not one per earlier state. The rest are found when asked."""
    since = narrowed(before, cands, len(cands))
    if since is None:
        return {}
    after = frozenset(since)
    return {k: (then, changed | after) for k, (then, changed) in before_diffs.items() if changed is not None}


def islands_to_check(puzzle: HashiPuzzle, focus: frozenset[int] | None) -> Iterable[int]:
    if focus is None:
        return puzzle.islands
    return sorted({i for s in focus for i in (puzzle.slots[s].a, puzzle.slots[s].b)})


def islands_across(puzzle: HashiPuzzle, focus: frozenset[int] | None) -> Iterable[int]:
    """Islands near `focus`, and those whose bridges would cross a slot of an island there
    (whether such a bridge starves that island depends on its other slots)."""
    if focus is None:
        return puzzle.islands
    near = set(islands_to_check(puzzle, focus))
    return sorted(near | {i for j in near for t in puzzle.slots_of[j] for u in puzzle.crossings[t]
                          for i in (puzzle.slots[u].a, puzzle.slots[u].b)})


def open_slots(puzzle: HashiPuzzle, state: State, i: int) -> list[int]:
    """The slots of island i not decided (an empty one counts as open, as State.decided says)."""
    cands = state.cands
    return [s for s in puzzle.slots_of[i] if cands[s] & (cands[s] - 1) or not cands[s]]


def names(puzzle: HashiPuzzle, slots: Iterable[int]) -> list[str]:
    return [puzzle.slot_name(s) for s in slots]


def closes_group(puzzle: HashiPuzzle, g: Groups, changes: dict[int, int], read: Reads | None = None
                 ) -> list[int] | None:
    """The islands that `changes` (slot -> new least count, all sharing one island or one
    slot) would join into a complete group with no bridge left to give, cut off from the
    rest; None when they would not. `read` (when given) gets the slots whose least counts the
    answer rests on: for a None the slots of the island that tells (groups only grow, so the
    rest holds), for a group the slots of its islands (its groups and their counts stay while
    those do)."""
    extra: dict[int, int] = {}
    roots: set[int] = set()
    ends, root = puzzle.ends, g.root
    for s, k in changes.items():
        a, b = ends[s]
        extra[a] = extra.get(a, 0) + k
        extra[b] = extra.get(b, 0) + k
        if k:
            roots.add(root[a])
            roots.add(root[b])
    if not roots or sum([len(g.members[r]) for r in roots]) == len(puzzle.islands):
        return None
    # every island of the merged groups ends with its count: those short of it now get
    # exactly what they lack, the others get nothing (read per group, not per island)
    for r in roots:
        for y in g.short.get(r, ()):
            if g.have[y] + extra.get(y, 0) != puzzle.board[y]:
                if read is not None:
                    read.least.update(puzzle.slots_of[y])
                return None
    for y, k in extra.items():
        if k and g.root[y] in roots and g.have[y] == puzzle.board[y]:
            if read is not None:
                read.least.update(puzzle.slots_of[y])
            return None
    shut = sorted(y for r in roots for y in g.members[r])
    if read is not None:
        read.least.update(s for y in shut for s in puzzle.slots_of[y])
    return shut


def starved(puzzle: HashiPuzzle, state: State, chosen: dict[int, int], read: Reads | None = None
            ) -> tuple[int, int, list[int]] | None:
    """An island that the bridges `chosen` (slot -> count) would starve by blocking the slots
    they cross: (island, the most it could still get, the blocked slots); None if none.
    `read` (when given) gets the other slots the answer rests on, of which it reads only the
    most counts."""
    cands, crossings = state.cands, puzzle.crossings
    crossed = [t for s, v in chosen.items() if v for t in crossings[s]]
    if read is not None:
        read.most.update(crossed)
    blocked = sorted({t for t in crossed if cands[t] > 1})      # can carry a bridge
    if not blocked:
        return None         # most ways cross nothing open: asked for every way of every island
    shut = set(blocked)
    ends = puzzle.ends
    for i in sorted({x for t in blocked for x in ends[t]}):
        slots = puzzle.slots_of[i]
        if read is not None:
            read.most.update(slots)
        most = 0
        for t in slots:
            if t not in shut:
                most += chosen[t] if t in chosen else MOST[cands[t]]
        if most < puzzle.board[i]:
            return i, most, blocked
    return None


# --- level 1 ------------------------------------------------------------------------------

@heuristic(id="hashi.crossing", genre=GENRE)
def crossing(puzzle: HashiPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for s in (range(len(puzzle.slots)) if focus is None else sorted(focus)):
        if LEAST[state.cands[s]] >= 1:
            blocked = [t for t in puzzle.crossings[s] if state.cands[t] & ~1]
            if blocked:
                yield Deduction.build(state, put={t: 0 for t in blocked}, premises=[s],
                                      params={"bridge": puzzle.slot_name(s), "others": names(puzzle, blocked)})


@heuristic(id="hashi.only-one-way", genre=GENRE)
def only_one_way(puzzle: HashiPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for i in islands_to_check(puzzle, focus):
        todo = open_slots(puzzle, state, i)
        if not todo:
            continue
        n = puzzle.board[i]
        least = sum(LEAST[state.cands[s]] for s in puzzle.slots_of[i])
        missing = n - least
        # each direction can add no more than it has room for, nor more than is missing
        room = {s: min(MOST[state.cands[s]], LEAST[state.cands[s]] + missing) for s in puzzle.slots_of[i]}
        most = sum(room.values())
        if least == n:
            keep = {s: 1 << LEAST[state.cands[s]] for s in todo}
            reason = f"already has {bridges(n)}"
            result = f"{', '.join(names(puzzle, todo))} get no more"
        elif most == n:
            keep = {s: 1 << room[s] for s in todo}
            reason = f"can get at most {n}"
            result = f"{', '.join(names(puzzle, todo))} take all they can"
        else:
            continue
        yield Deduction.build(state, keep=keep, cells=[puzzle.cell(i)],
                              params={"island": puzzle.cell(i), "n": n, "reason": reason, "result": result})


@heuristic(id="hashi.one-each-way", genre=GENRE)
def one_each_way(puzzle: HashiPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for i in islands_to_check(puzzle, focus):
        n = puzzle.board[i]
        ways = [s for s in puzzle.slots_of[i] if state.cands[s] & ~1]
        most = (len(ways) - 1) * puzzle.max_bridges
        if n > most:
            for s in ways:
                if state.has(s, 0):
                    yield Deduction.build(state, exclude={s: 0}, cells=[puzzle.cell(i)], params={
                        "island": puzzle.cell(i), "n": n, "ways": f"{len(ways)} directions",
                        "others": "direction" if len(ways) == 2 else f"{len(ways) - 1} directions",
                        "most": most, "bridge": puzzle.slot_name(s)})


@heuristic(id="hashi.small-neighbour", genre=GENRE)
def small_neighbour(puzzle: HashiPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    smaller = puzzle.once("_hashi_smaller_end", lambda: tuple(
        min((slot.a, slot.b), key=lambda x: puzzle.board[x]) for slot in puzzle.slots))
    for s in (range(len(puzzle.slots)) if focus is None else sorted(focus)):
        i = smaller[s]
        n = puzzle.board[i]
        if n < MOST[state.cands[s]]:
            yield Deduction.build(state, keep={s: (1 << (n + 1)) - 1}, cells=[puzzle.cell(i)], params={
                "island": puzzle.cell(i), "n": n, "bridge": puzzle.slot_name(s), "most": bridges(n)})


# --- level 2 ------------------------------------------------------------------------------

def lower_bounds(puzzle: HashiPuzzle, state: State, i: int) -> Iterator[tuple[int, int, int]]:
    """(slot, least count it must carry, most the other slots can give) around island i."""
    n = puzzle.board[i]
    most = sum(MOST[state.cands[s]] for s in puzzle.slots_of[i])
    for s in open_slots(puzzle, state, i):
        others = most - MOST[state.cands[s]]
        need = n - others
        if need > LEAST[state.cands[s]]:
            yield s, need, others


@heuristic(id="hashi.must-reach", genre=GENRE)
def must_reach(puzzle: HashiPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for i in islands_to_check(puzzle, focus):
        for s, need, others in lower_bounds(puzzle, state, i):
            yield Deduction.build(state, keep={s: ~((1 << need) - 1)}, cells=[puzzle.cell(i)],
                                  params={"island": puzzle.cell(i), "n": puzzle.board[i], "others": others,
                                          "bridge": puzzle.slot_name(s), "need": bridges(need)})


@heuristic(id="hashi.two-beside-two", genre=GENRE)
def two_beside_two(puzzle: HashiPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    if len(puzzle.islands) <= 2 or puzzle.max_bridges < 2:
        return
    for i in islands_to_check(puzzle, focus):
        if puzzle.board[i] != 2:
            continue
        ways = [s for s in puzzle.slots_of[i] if state.cands[s] & ~1]
        if len(ways) != 2:
            continue
        for s, t in (ways, ways[::-1]):
            if puzzle.board[puzzle.other(s, i)] == 2 and state.has(t, 0):
                yield Deduction.build(state, exclude={t: 0}, cells=[puzzle.cell(i)], params={
                    "island": puzzle.cell(i), "pair": puzzle.cell(puzzle.other(s, i)),
                    "bridge": puzzle.slot_name(t)})


@heuristic(id="hashi.one-to-a-bigger", genre=GENRE)
def one_to_a_bigger(puzzle: HashiPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    if len(puzzle.islands) <= 2:
        return
    for i in islands_to_check(puzzle, focus):
        if puzzle.board[i] != 1:
            continue
        ways = [s for s in puzzle.slots_of[i] if state.cands[s] & ~1]
        bigger = [s for s in ways if puzzle.board[puzzle.other(s, i)] != 1]
        ones = [s for s in ways if puzzle.board[puzzle.other(s, i)] == 1]
        if len(bigger) == 1 and ones and state.has(bigger[0], 0):
            s = bigger[0]
            yield Deduction.build(state, put={s: 1}, cells=[puzzle.cell(i)],
                                  params={"island": puzzle.cell(i), "bridge": puzzle.slot_name(s),
                                          "ones": [puzzle.cell(puzzle.other(t, i)) for t in ones]})


@heuristic(id="hashi.no-loop", genre=GENRE)
def no_loop(puzzle: HashiPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    if not puzzle.no_loops:
        return
    g = groups(puzzle, state)
    for s, slot in enumerate(puzzle.slots):
        if LEAST[state.cands[s]] == 0 and state.cands[s] != 1 and g.root[slot.a] == g.root[slot.b]:
            yield Deduction.build(state, put={s: 0}, params={
                "first": puzzle.cell(slot.a), "second": puzzle.cell(slot.b), "bridge": puzzle.slot_name(s),
                "path": "bridges already drawn"})


# --- level 3 ------------------------------------------------------------------------------

@heuristic(id="hashi.not-too-many", genre=GENRE)
def not_too_many(puzzle: HashiPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    # Level 3, not 2: what the island at the far end still needs is what Tatham's Bridges first
    # reads in its hard solver (a bridge more would make that island impossible); its easy and
    # medium solvers know only the clues and finished islands.
    for i in islands_to_check(puzzle, focus):
        n = puzzle.board[i]
        least = sum(LEAST[state.cands[s]] for s in puzzle.slots_of[i])
        for s in open_slots(puzzle, state, i):
            have = least - LEAST[state.cands[s]]
            most = n - have
            if most < MOST[state.cands[s]]:
                # in a trial an island can already hold more than it needs: then nothing is left
                keep = (1 << (most + 1)) - 1 if most >= 0 else 0
                yield Deduction.build(state, keep={s: keep}, cells=[puzzle.cell(i)],
                                      params={"island": puzzle.cell(i), "n": n, "have": have,
                                              "bridge": puzzle.slot_name(s), "most": max(most, 0)})


@heuristic(id="hashi.would-starve", genre=GENRE)
def would_starve(puzzle: HashiPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    # slots whose bridge starves no island, until a slot that told changes
    quiet = remembered(puzzle, "_hashi_quiet_starving", state)
    for s in range(len(puzzle.slots)):
        if state.cands[s] & 1 and state.cands[s] != 1 and puzzle.crossings[s] and not quiet.get(s, False):
            read = Reads({s})
            found = starved(puzzle, state, {s: 1}, read)
            if not found:
                quiet.put(s, read)
            else:
                i, most, crossed = found
                yield Deduction.build(state, put={s: 0}, cells=[puzzle.cell(i)], params={
                    "bridge": puzzle.slot_name(s), "crossed": names(puzzle, crossed),
                    "island": puzzle.cell(i), "most": most, "n": puzzle.board[i]})


@heuristic(id="hashi.no-closed-group", genre=GENRE)
def no_closed_group(puzzle: HashiPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    # slots no count of which shuts a group in, until a slot that told changes (groups only
    # grow, so a no holds while what it read stays); the groups are made only when needed
    quiet = remembered(puzzle, "_hashi_quiet_closing", state)
    g = None
    for s in range(len(puzzle.slots)):
        m = state.cands[s]
        if not m & (m - 1) or quiet.get(s, False):
            continue
        g = g or groups(puzzle, state)
        read = Reads({s})
        for k in values_of(m):
            if k <= LEAST[m]:
                continue
            shut = closes_group(puzzle, g, {s: k - LEAST[m]}, read)
            if shut:
                yield Deduction.build(state, exclude={s: k}, region=[], cells=[puzzle.cell(i) for i in shut],
                                      params={"count": bridges(k), "bridge": puzzle.slot_name(s),
                                              "islands": [puzzle.cell(i) for i in shut]})
                return
        quiet.put(s, read)


def cut_slots(puzzle: HashiPuzzle, state: State) -> list[int]:
    """Slots that are the only link left between two parts of the islands (Tarjan's bridges);
    the same while no slot loses its last bridge, so the last answer is kept."""
    shut = tuple(s for s, m in enumerate(state.cands) if not m & ~1)
    return last_answer(puzzle, "_hashi_cut_slots", shut, lambda: find_cut_slots(puzzle, shut))


def find_cut_slots(puzzle: HashiPuzzle, shut: tuple[int, ...]) -> list[int]:
    """cut_slots over the slots not in `shut` (those that can still carry a bridge)."""
    closed = set(shut)
    adj: dict[int, list[tuple[int, int]]] = {i: [] for i in puzzle.islands}
    for s, slot in enumerate(puzzle.slots):
        if s not in closed:
            adj[slot.a].append((slot.b, s))
            adj[slot.b].append((slot.a, s))
    order: dict[int, int] = {}
    low: dict[int, int] = {}
    cuts: list[int] = []
    for root in puzzle.islands[:1]:
        order[root] = low[root] = 0
        stack = [(root, -1, iter(adj[root]))]
        while stack:
            x, via, it = stack[-1]
            for y, s in it:
                if s == via:
                    continue
                if y in order:
                    low[x] = min(low[x], order[y])
                else:
                    order[y] = low[y] = len(order)
                    stack.append((y, s, iter(adj[y])))
                    break
            else:
                stack.pop()
                if stack:
                    parent = stack[-1][0]
                    low[parent] = min(low[parent], low[x])
                    if low[x] > order[parent]:
                        cuts.append(via)
    return cuts


@heuristic(id="hashi.only-link", genre=GENRE)
def only_link(puzzle: HashiPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for s in cut_slots(puzzle, state):
        if state.has(s, 0):
            slot = puzzle.slots[s]
            cut = state.restrict(s, 1)
            side = sorted(reachable(puzzle, cut, slot.a))
            if len(side) * 2 > len(puzzle.islands):
                side = sorted(reachable(puzzle, cut, slot.b))
            shown = [puzzle.cell(i) for i in side]
            yield Deduction.build(state, exclude={s: 0}, cells=shown,
                                  params={"bridge": puzzle.slot_name(s),
                                          "side": shown if len(shown) <= 4 else f"the {len(shown)} islands around {shown[0]}"})


def distributions(puzzle: HashiPuzzle, state: State, i: int, g: Groups | None = None
                  ) -> tuple[list[int], list[tuple[int, ...]]]:
    """The open slots of island i and every way to share its remaining bridges among them
    (within their candidates; with `g`, leaving out ways that shut a group in)."""
    cands = state.cands
    todo = open_slots(puzzle, state, i)
    need = puzzle.board[i] - sum(LEAST[cands[s]] for s in puzzle.slots_of[i] if s not in todo)
    ways = list(shares(need, tuple([cands[s] for s in todo])))
    if g is not None:
        ways = [w for w in ways if legal_way(puzzle, state, g, todo, w)]
    return todo, ways


@functools.lru_cache(maxsize=4096)
def shares(need: int, masks: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every way to share `need` bridges among slots with these candidate masks, in order (the
    same few masks and needs come back on every island and board: kept, at most 4096)."""
    # at most four slots of at most three counts each: every combination is few
    return tuple(way for way in itertools.product(*(values_of(m) for m in masks)) if sum(way) == need)


def legal_way(puzzle: HashiPuzzle, state: State, g: Groups, todo: list[int], way: tuple[int, ...],
              read: Reads | None = None) -> bool:
    """Whether a way to share an island's bridges (`way`: the count on each slot of `todo`)
    shuts no group in and blocks no bridge another island needs. `read` (when given) gets the
    slots the answer rests on."""
    return (not closes_group(puzzle, g, {s: v - LEAST[state.cands[s]] for s, v in zip(todo, way)}, read)
            and not starved(puzzle, state, dict(zip(todo, way)), read))


def allows_everything(puzzle: HashiPuzzle, state: State, g: Groups, todo: list[int],
                      ways: list[tuple[int, ...]], read: Reads, legal: dict[tuple[int, ...], bool]) -> bool:
    """Whether the legal ones of `ways` leave every candidate of the slots `todo` possible (so
    they agree on nothing); `read` gets the slots a yes rests on besides the island's own, and
    `legal` whether each way it checked is legal. A way that would allow nothing new is not
    checked, and none after the last candidate is met (a legal way stays legal while what it
    read stays, so a yes holds as long)."""
    missing = {(k, v) for k, s in enumerate(todo) for v in values_of(state.cands[s])}
    for w in ways:
        met = [(k, v) for k, v in enumerate(w) if (k, v) in missing]
        if not met:
            continue
        legal[w] = legal_way(puzzle, state, g, todo, w, read)
        if legal[w]:
            missing.difference_update(met)
            if not missing:
                return True
    return False


@heuristic(id="hashi.all-distributions", genre=GENRE)
def all_distributions(puzzle: HashiPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    g = None            # the groups, made only when an island is not known
    # what each island's ways gave (True: they agreed on nothing, else the deduction), until
    # a slot that told changes: kept with the puzzle, so the count of what a step's level
    # offers finds them too (that count asks again at every step of the level)
    known = remembered(puzzle, "_hashi_island_answers", state)
    for i in islands_across(puzzle, focus):
        answer = known.get(i)
        if answer is None:
            g = g or groups(puzzle, state)
            answer = island_answer(puzzle, state, g, i, known)
        if answer is not True:
            yield answer


def island_answer(puzzle: HashiPuzzle, state: State, g: Groups, i: int, known: Remembered
                  ) -> Deduction | bool:
    """all-distributions at island i: what its legal ways agree on, or True when nothing (kept
    in `known` with every slot the answer read)."""
    todo, ways = distributions(puzzle, state, i)
    read = Reads(set(puzzle.slots_of[i]))
    legal: dict[tuple[int, ...], bool] = {}
    if not todo or allows_everything(puzzle, state, g, todo, ways, read, legal):
        known.put(i, read)
        return True
    total = len(ways)
    ways = [w for w in ways if (legal[w] if w in legal else legal_way(puzzle, state, g, todo, w, read))]
    keep = {s: 0 for s in todo}
    for w in ways:
        for s, v in zip(todo, w):
            keep[s] |= 1 << v
    d = Deduction.build(state, keep=keep, cells=[puzzle.cell(i)], params={})
    if not d:
        return True     # not kept: a way left out agrees on nothing new (cannot happen)
    legal_text = (f"there {'is' if total == 1 else 'are'} {total}" if total == len(ways) else
                  f"{len(ways)} of {total} cut off no group and block no bridge another island needs")
    d = attrs.evolve(d, params={
        "island": puzzle.cell(i), "n": puzzle.board[i], "slots": names(puzzle, todo),
        "legal": legal_text, "result": describe_removals(puzzle, state, d.removals)})
    known.put(i, read, d)
    return d


# --- level 4 ------------------------------------------------------------------------------

@heuristic(id="hashi.pair-ways", genre=GENRE)
def pair_ways(puzzle: HashiPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    g = groups(puzzle, state)
    # slots whose pair of islands agreed on nothing, until a slot that told changes (a way
    # or pair of ways legal stays legal while what it read stays, and more can only join):
    # kept with the puzzle, so the count of what a step's level offers finds them too
    quiet = remembered(puzzle, "_hashi_quiet_pairs", state)
    ways_of: dict[int, tuple[list[int], list[tuple[int, ...]], Reads]] = {}

    def legal_ways(i: int) -> tuple[list[int], list[tuple[int, ...]], Reads]:
        """Island i's open slots, its legal ways and the slots they read (made once a look)."""
        if i not in ways_of:
            read = Reads(set(puzzle.slots_of[i]))
            todo, ways = distributions(puzzle, state, i)
            ways_of[i] = todo, [w for w in ways if legal_way(puzzle, state, g, todo, w, read)], read
        return ways_of[i]

    for s, slot in enumerate(puzzle.slots):
        # an open slot is open at both its islands: each has a way to look at
        if state.decided(s) or quiet.get(s, False):
            continue
        (todo_a, ways_a, read_a), (todo_b, ways_b, read_b) = legal_ways(slot.a), legal_ways(slot.b)
        read = read_a | read_b
        at_a, at_b = todo_a.index(s), todo_b.index(s)
        slots = todo_a + [t for t in todo_b if t != s]
        keep = {t: 0 for t in slots}
        legal = 0
        for wa in ways_a:
            for wb in ways_b:
                if wa[at_a] != wb[at_b]:
                    continue
                chosen = dict(zip(todo_a, wa)) | dict(zip(todo_b, wb))
                if any(chosen.get(u) for t, v in chosen.items() if v for u in puzzle.crossings[t]):
                    continue
                if closes_group(puzzle, g, {t: v - LEAST[state.cands[t]] for t, v in chosen.items()}, read):
                    continue
                if starved(puzzle, state, chosen, read):
                    continue
                legal += 1
                for t, v in chosen.items():
                    keep[t] |= 1 << v
        d = Deduction.build(state, keep=keep, cells=[puzzle.cell(slot.a), puzzle.cell(slot.b)], params={})
        if not d:
            quiet.put(s, read)
        else:
            yield attrs.evolve(d, params={
                "first": puzzle.cell(slot.a), "second": puzzle.cell(slot.b), "bridge": puzzle.slot_name(s),
                "legal": "only one" if legal == 1 else f"only {legal}" if legal else "none",
                "result": describe_removals(puzzle, state, d.removals)})


SHORT_WAYS = 4       # island-cases: an island with at most this many ways left...
SHORT_STEPS = 8      # ... each followed at most this many steps...
SHORT_LEVEL = 3      # ... with the techniques up to this level


@heuristic(id="hashi.island-cases", genre=GENRE)
def island_cases(puzzle: HashiPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """A case split on an island's few ways: each way followed a few steps with the simpler
    techniques; ways that meet a contradiction drop out, and what every remaining way agrees
    on holds."""
    easy = REGISTRY.for_genre(GENRE, SHORT_LEVEL)
    g = groups(puzzle, state)
    options = []
    for i in puzzle.islands:
        todo, ways = distributions(puzzle, state, i, g)
        if todo and 2 <= len(ways) <= SHORT_WAYS:
            options.append((len(ways), i, todo, ways))
    options.sort()
    for _, i, todo, ways in options:
        d = branch_deduction(puzzle, state, island_assumptions(puzzle, state, todo, ways),
                             max_level=SHORT_LEVEL, max_steps=SHORT_STEPS, heuristics=easy)
        if d is not None:
            yield attrs.evolve(d, params={**d.params, "island": puzzle.cell(i), "n": puzzle.board[i]},
                               cells=(puzzle.cell(i),))
            return


def island_assumptions(puzzle: HashiPuzzle, state: State, todo, ways) -> list:
    """One hypothesis per way to finish an island: its open slots set to the way's bridges."""
    return [(", ".join(f"{puzzle.slot_name(s)} {bridges(v)}" for s, v in zip(todo, w)),
             state.assume(dict(zip(todo, w))), todo) for w in ways]


# --- level 5 ------------------------------------------------------------------------------

@heuristic(id="hashi.island-ways", genre=GENRE)
def island_ways(puzzle: HashiPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    options = []
    for i in puzzle.islands:
        todo, ways = distributions(puzzle, state, i)
        if todo and 2 <= len(ways) <= 6:
            options.append((len(ways), i, todo, ways))
    options.sort()
    # the fill: everything up to level 4 but the short case split, a look-ahead of its own
    fill_with = [h for h in REGISTRY.for_genre(GENRE, 4) if h.id != "hashi.island-cases"]
    for steps in (12, 400):
        for _, i, todo, ways in options:
            d = branch_deduction(puzzle, state, island_assumptions(puzzle, state, todo, ways),
                                 max_steps=steps, heuristics=fill_with)
            if d is not None:
                yield attrs.evolve(d, params={**d.params, "island": puzzle.cell(i), "n": puzzle.board[i]},
                                   cells=(puzzle.cell(i),))
                return


trial_and_error = register_probing(GENRE, id="hashi.trial-and-error")

register_last_resort(GENRE)      # the deepening nested trial, unless registered above
