"""Heyawake techniques, by level (spec/heuristics-catalogue.txt, HEYAWAKE).

Shading and connectivity reasoning shared with other genres is in heuristics/common/shading.py;
this module adds what rooms and their numbers allow.

Beyond the catalogue: the articulation point graded by what it closes off, a pocket of up to
four cells or a corner at level 2, an enclosure of up to a dozen at level 3. What-ifs follow
one cell's value through a few rounds of easy steps to a broken rule, at level 3 looking only
at rules seen nearby (touching, rooms, strips, a white cell shut in) and at level 4 at the
white area too. Only refutations count there. A room with at most four ways left is split
into its cases at level 4 (each followed by up to 20 direct deductions, no what-if inside):
ways that break a rule drop out and what the rest agree on holds. Longer cases, more ways and
cases filled with what-ifs are level 5.
"""
from __future__ import annotations

import collections
import operator
import weakref
from collections.abc import Iterable, Iterator, Sequence
from math import comb

import attrs

from grader.core.explain import counted
from grader.genres import get
from grader.genres.heyawake.model import (HeyawakePuzzle, line_getters, line_pattern, nearby_violations,
                                         room_counts)
from grader.core.registry import REGISTRY, heuristic, register_families
from grader.core.model import State
from grader.core.probing import PASSES, branch_deduction, register_probing, register_last_resort
from grader.core.steps import Deduction
from grader.kernels import blocks
from grader.kernels.recent import differing, last_answer, narrowed
from grader.kernels.shading import B_SHADED, B_WHITE, FREE, SHADED, WHITE, around, open_side, whites_cut
from heuristics.common import shading
from heuristics.common.focus import near_then_the_rest

GENRE = "heyawake"
COMB_LIMIT = 1_000_000  # (room size choose number) above which a room is not listed (catalogue)
ROOM_LIMIT = 200        # most ways to fill a room that level 3 is willing to list (catalogue)
PAIR_LIMIT = 100        # most pairs of ways two neighbouring rooms are listed together
HYPOTHESIS_LIMIT = 12   # most ways to fill a room that level 5 follows one by one
BIG_HYPOTHESIS_LIMIT = 60  # the same for the last resort, after single-cell trials
POCKET_CELLS = 4        # most cells a level-2 pocket walls in (seen at a glance)
ENCLOSURE_CELLS = 12    # most cells a level-3 enclosure closes off (a larger area)


def rooms_near(puzzle: HeyawakePuzzle, focus: frozenset[int] | None, steps: int = 1) -> Iterable[int]:
    """Numbered rooms that hold or touch a changed cell, then (steps 2: what a room's ways
    read, room_key) those with a cell two steps from one (kept for the last focus asked: the
    room techniques ask one after another, most often with the same focus). Callers must
    not change the list."""
    if focus is None:
        return puzzle.numbered

    def near_focus() -> list[int]:
        touched = numbered_rooms(puzzle, around(puzzle, focus))
        if steps == 1:
            return touched
        reached = numbered_rooms(puzzle, shading.cells_near(puzzle, focus, steps))
        return touched + [k for k in reached if k not in touched]
    return last_answer(puzzle, f"_heyawake_rooms_near_{steps}", focus, near_focus)


def numbered_rooms(puzzle: HeyawakePuzzle, cells: Iterable[int]) -> list[int]:
    """The numbered rooms that hold some of `cells`, in order."""
    near = {puzzle.room_of[j] for j in cells}
    return [k for k in puzzle.numbered if k in near]


# The shading families of heuristics/common/shading.py: the rows of rules/techniques/heyawake.yaml
# that name one.
register_families(GENRE, shading.FAMILIES)


# --- level 1 ------------------------------------------------------------------------------


@heuristic(id="heyawake.room-full", genre=GENRE)
def room_full(puzzle: HeyawakePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for k in rooms_near(puzzle, focus):
        n = puzzle.clues[k]
        shaded, free = room_counts(puzzle, state.cands, k)
        if free and shaded == n:
            yield Deduction.build(state, put={i: WHITE for i in free}, cells=[puzzle.room_cell(k)],
                                  region=puzzle.rooms[k],
                                  params={"n": n, "room": puzzle.room_cell(k),
                                          "shaded": counted(n, "shaded cell"),
                                          "cells": [puzzle.cell(i) for i in free]})


@heuristic(id="heyawake.room-needs-all", genre=GENRE)
def room_needs_all(puzzle: HeyawakePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for k in rooms_near(puzzle, focus):
        n = puzzle.clues[k]
        shaded, free = room_counts(puzzle, state.cands, k)
        if free and shaded + len(free) == n:
            yield Deduction.build(state, put={i: SHADED for i in free}, cells=[puzzle.room_cell(k)],
                                  region=puzzle.rooms[k],
                                  params={"n": n, "room": puzzle.room_cell(k),
                                          "need": counted(n - shaded, "more shaded cell"),
                                          "cells": [puzzle.cell(i) for i in free]})


# --- ways to fill a room -----------------------------------------------------------------

class TooMany(Exception):
    pass


def room_options(puzzle: HeyawakePuzzle, cands: Sequence[int], rooms: Sequence[int],
                 limit: int) -> list[dict[int, int]] | None:
    """Every way to complete numbered rooms together that breaks no local rule (shaded cells
    touching, a white cell walled in on all sides), each as {cell: value} for the cells it
    decides: the rooms' cells, the neighbours a shaded cell whitens, and the single way out of
    a white cell that is otherwise walled in. None when there are more than `limit` ways, or
    listing them takes too long (more than 40 turns per way allowed: shaded cells that may not
    touch prune most of them early)."""
    listing = Listing(puzzle, cands, rooms, 40 * limit)
    return listing.upto(limit)


class Listing:
    """The ways of room_options listed as far as asked, to go on with later (room-strips sifts
    more ways than level 3 lists)."""

    def __init__(self, puzzle: HeyawakePuzzle, cands: Sequence[int], rooms: Sequence[int], turns: int):
        self.ways: list[dict[int, int]] = []
        self.more: Iterator[dict[int, int]] | None = None
        self.failed = True          # too many to count (COMB_LIMIT), or the turns ran out
        try:
            search = _Search(puzzle, cands, rooms)
        except TooMany:
            return
        if search.parts is None:    # no way at all
            self.failed = False
            return
        # a listing that fails in the end answers "nothing" whatever it listed before (upto
        # gives None, room-strips and room-cases take none of its ways): no way is worth listing
        picks = search_leaves(puzzle, search, turns)
        if picks is not None:
            ways = (consequences(puzzle, cands, search.room_free, leaf) for leaf in picks)
            self.more, self.failed = (way for way in ways if way is not None), False

    @classmethod
    def done(cls, ways: list[dict[int, int]]) -> "Listing":
        """A listing already complete."""
        listing = cls.__new__(cls)
        listing.ways, listing.more, listing.failed = ways, None, False
        return listing

    def upto(self, limit: float) -> list[dict[int, int]] | None:
        """Every way, when there are at most `limit` and the turns allow listing them; else None."""
        while len(self.ways) <= limit and self.way(len(self.ways)) is not None:
            pass
        return None if self.failed or len(self.ways) > limit else self.ways

    def way(self, n: int) -> dict[int, int] | None:
        """The n-th way (from 0), listing on as far as that; None past the last one listed."""
        while self.more is not None and len(self.ways) <= n:
            way = next(self.more, None)
            if way is None:
                self.more = None
            else:
                self.ways.append(way)
        return self.ways[n] if n < len(self.ways) else None


class _Search:
    """What a listing searches: each room's undecided cells and the shaded cells it still
    needs (`parts`; None when some room cannot get them), and the cells that touch a shaded
    one. TooMany when the rooms have too many ways to count (COMB_LIMIT)."""

    def __init__(self, puzzle: HeyawakePuzzle, cands: Sequence[int], rooms: Sequence[int]):
        self.parts: list[tuple[list[int], int]] | None = []
        bound = 1
        for k in rooms:
            shaded, free = room_counts(puzzle, cands, k)
            need = puzzle.clues[k] - shaded
            if need < 0 or need > len(free):
                self.parts = None
                return
            bound *= comb(len(free), need)
            if bound > COMB_LIMIT:
                raise TooMany
            self.parts.append((free, need))
        self.room_free = [i for free, _ in self.parts for i in free]
        self.nbrs = puzzle.neighbours
        self.beside_shaded = {i for i in self.room_free if any(cands[j] == B_SHADED for j in self.nbrs[i])}

    def may_take_over(self, turns: int) -> bool:
        """Whether the search might visit more than `turns` nodes: at most C(f, d) of them
        pick d of a room's f cells, for each way to fill the rooms before it."""
        nodes, ways_before = 0, 1
        for free, need in self.parts:
            nodes += ways_before * sum(comb(len(free), d) for d in range(need + 1))
            ways_before *= comb(len(free), need)
        return nodes > turns

    def leaves(self, turns: int) -> list[tuple[int, ...]] | None:
        """The cells shaded at each leaf of the search (in order, sorted), which picks the
        rooms' cells in their order, never one beside a shaded or picked cell; None when it
        visits more than `turns` nodes (a listing's turns: its nodes, whatever ways they give)."""
        self.found: list[tuple[int, ...]] = []
        self.picked: set[int] = set()
        self.left = turns
        return None if self._visit(0, 0, self.parts[0][1]) else self.found

    def _visit(self, p: int, idx: int, need: int) -> bool:
        """Pick `need` more cells of room part p from its idx-th free cell on (then the
        parts after it); True when the turns ran out. (A method, not a closure: a closure
        that calls itself is a cycle, left to the collector.)"""
        self.left -= 1
        if self.left < 0:
            return True
        parts, picked = self.parts, self.picked
        if need == 0:
            if p + 1 < len(parts):
                return self._visit(p + 1, 0, parts[p + 1][1])
            self.found.append(tuple(sorted(picked)))
            return False
        beside, nbrs = self.beside_shaded, self.nbrs
        free = parts[p][0]
        for j in range(idx, len(free) - need + 1):
            i = free[j]
            if i in beside or not picked.isdisjoint(nbrs[i]):
                continue
            picked.add(i)
            past = self._visit(p, j + 1, need - 1)
            picked.discard(i)
            if past:
                return True
        return False


def search_leaves(puzzle: HeyawakePuzzle, search: _Search, turns: int) -> list[tuple[int, ...]] | None:
    """search.leaves(turns), or None at once when a search with the same reads (the rooms'
    undecided cells, the shaded cells they need, which cells touch a shaded one) ran out of
    turns before in this puzzle: a room's big search often comes back unchanged."""
    if not search.may_take_over(turns):
        return search.leaves(turns)
    key = (turns, tuple((tuple(free), need) for free, need in search.parts), tuple(sorted(search.beside_shaded)))
    ran_out = cache_of(puzzle, "turns")
    if key in ran_out:
        return None
    found = search.leaves(turns)
    if found is None:
        ran_out[key] = True
    return found


def consequences(puzzle: HeyawakePuzzle, cands: Sequence[int], room_free: Sequence[int],
                 shaded: Sequence[int]) -> dict[int, int] | None:
    """What shading `shaded` (and whitening the rest of `room_free`) decides nearby; None when
    it walls a white cell in. A white cell is walled in, or has its single way out, only where
    some cell lies beyond its neighbours (as in shading.single_exit): on a 1x2 board or in the
    middle of 1x3 it may be the only white cell."""
    s = set(shaded)
    nbrs = puzzle.neighbours
    decided = dict.fromkeys(room_free, WHITE)
    for i in shaded:
        decided[i] = SHADED
        for j in nbrs[i]:
            decided[j] = WHITE
    size = len(cands)
    for i, v in list(decided.items()):
        around_i = nbrs[i]
        if v != WHITE or size <= 1 + len(around_i):
            continue
        exit_ = -1
        for j in around_i:
            if j not in s and cands[j] != B_SHADED:
                if exit_ >= 0:
                    break       # two ways out
                exit_ = j
        else:
            if exit_ < 0:
                return None
            if exit_ not in decided and cands[exit_] == FREE:
                decided[exit_] = WHITE
    return decided


def crosses_two_borders(puzzle: HeyawakePuzzle, cands: Sequence[int], option: dict[int, int]) -> bool:
    """Some cell the option whitens joins a straight white run across two room borders."""
    new = frozenset(i for i, v in option.items() if v == WHITE and cands[i] == FREE)
    lines, cols, rows = puzzle.lines, puzzle.cols, puzzle.rows
    for i in new:
        r, c = divmod(i, cols)
        for k, t in ((r, c), (rows + c, r)):
            line, borders = lines[k]
            if t and line[t - 1] in new:
                continue        # a run is walked from each new cell that starts a stretch of them
            crossed, a = 0, t
            while a > 0 and (cands[line[a - 1]] == B_WHITE or line[a - 1] in new):
                crossed += borders[a - 1]
                a -= 1
            b = t
            while b + 1 < len(line) and (cands[line[b + 1]] == B_WHITE or line[b + 1] in new):
                crossed += borders[b]
                b += 1
            if crossed >= 2:
                return True
    return False


def splits_white(puzzle: HeyawakePuzzle, state: State, option: dict[int, int]) -> bool:
    """The option's shaded cells cut the white cells (known or decided by the option) apart."""
    cands = state.cands
    shaded = [i for i, v in option.items() if v == SHADED and cands[i] == FREE]
    white = [i for i, v in option.items() if v == WHITE and cands[i] == FREE]
    return bool(shaded) and whites_cut(puzzle, state, shaded, white)


def agreed(state: State, options: Sequence[dict[int, int]]) -> dict[int, int]:
    """Cells every option decides the same way."""
    first = options[0]
    return {i: v for i, v in first.items()
            if state.cands[i] == FREE and all(o.get(i) == v for o in options[1:])}


PATTERNS = "2x2 with 2, 3x2 with 3, 3x3 with 4 or 5, nx2 with n, (2n+1)x1 with n+1"


def pattern_of(puzzle: HeyawakePuzzle, k: int) -> str | None:
    """The name of a known rectangle pattern, e.g. '3x3 room with 5'."""
    shape = puzzle.shape[k]
    n = puzzle.clues[k]
    if shape is None or n < 0:
        return None
    _, _, h, w = shape
    a, b = max(h, w), min(h, w)
    if (a, b, n) in ((2, 2, 2), (3, 2, 3), (3, 3, 4), (3, 3, 5)) or (b == 2 and a > 2 and n == a) or \
            (b == 1 and a % 2 == 1 and n == (a + 1) // 2):
        return f"{h}x{w} room with {n}"
    return None


@heuristic(id="heyawake.room-pattern", genre=GENRE)
def room_pattern(puzzle: HeyawakePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for k in rooms_near(puzzle, focus, 2):
        pattern = pattern_of(puzzle, k)
        if pattern is None:
            continue
        put = options_agreed(puzzle, state, k)
        if put:
            yield room_deduction(puzzle, state, [k], options_of(puzzle, state, k),
                                 {"pattern": pattern, "n": puzzle.clues[k]}, put)


CACHE_LIMIT = 20000      # listings a cache keeps before it starts afresh
LIVE_PUZZLES = 4         # puzzles whose caches are kept (a batch holds every puzzle it reads)
_LIVE: "collections.deque[dict]" = collections.deque()


def cache_of(puzzle: HeyawakePuzzle, name: str, limit: int = CACHE_LIMIT) -> dict:
    """A cache of one puzzle's facts that depend only on the candidates they read (so they
    hold in any state, in any solve: the ways to fill a room, a line's strips), emptied when
    it grows past `limit`; only the newest few puzzles keep theirs. Outside the solve's
    memory, so the difficulty count's scratch memory finds them too."""
    cache = puzzle.__dict__.get("_heyawake_caches", _NO_CACHES).get(name)
    if cache is None:
        cache = _new_cache(puzzle, name)
    elif len(cache) > limit:
        cache.clear()
    return cache


_NO_CACHES: dict = {}       # a puzzle's caches before it has any (never filled)


def _new_cache(puzzle: HeyawakePuzzle, name: str) -> dict:
    """cache_of's first call for `name` on this puzzle (or since its caches were emptied)."""
    caches = puzzle.__dict__.setdefault("_heyawake_caches", {})
    if not caches and all(c is not caches for c in _LIVE):     # new, or emptied as too old
        _LIVE.append(caches)
        while len(_LIVE) > LIVE_PUZZLES:
            _LIVE.popleft().clear()
    return caches.setdefault(name, {})


def options_of(puzzle: HeyawakePuzzle, state: State, k: int) -> list[dict[int, int]] | None:
    """The ways to fill one room (room_options), listed once per state, and reused from any
    earlier state that agrees on the cells within two steps of the room: all a listing reads
    (hypotheses revisit the same rooms in many states). Callers must not change the list."""
    def compute() -> list[dict[int, int]] | None:
        cache = cache_of(puzzle, "rooms")
        key = room_key(puzzle, state, k)
        if key not in cache:
            listing = Listing(puzzle, state.cands, [k], 40 * ROOM_LIMIT)
            cache[key] = listing.upto(ROOM_LIMIT)
            if cache[key] is None:      # too many: all_ways may go on, or knows it failed
                cache_of(puzzle, "big rooms", BIG_CACHE_LIMIT)[key] = listing
        return cache[key]
    return state.derived(("heyawake.room-options", k), compute)


BIG_CACHE_LIMIT = 16     # listings of rooms with many ways a cache keeps before it starts afresh


def all_ways(puzzle: HeyawakePuzzle, state: State, k: int) -> Listing:
    """Every way to fill room k, however many, within the turns room_options allows for
    ROOM_LIMIT ways: options_of's list, or (for room-strips to sift) its listing, to go on
    with as far as needed. Callers must not change it."""
    listed = options_of(puzzle, state, k)
    if listed is not None:
        return Listing.done(listed)
    big = cache_of(puzzle, "big rooms", BIG_CACHE_LIMIT)
    key = room_key(puzzle, state, k)
    listing = big.get(key)
    if listing is None:      # listed long ago
        listing = big[key] = Listing(puzzle, state.cands, [k], 40 * ROOM_LIMIT)
    return listing


def room_key(puzzle: HeyawakePuzzle, state: State, k: int) -> tuple:
    """Room k and the candidates within two steps of it, all a listing of its ways reads: a
    key for what is worked out from the listing alone."""
    return state.derived(("heyawake.room-key", k), lambda: (k, _support(puzzle, k)(state.cands)))


def options_agreed(puzzle: HeyawakePuzzle, state: State, k: int) -> dict[int, int]:
    """What every way of options_of sets alike (agreed; nothing when they are too many),
    kept per room_key: it reads no more than the listing."""
    cache = cache_of(puzzle, "agreed")
    key = room_key(puzzle, state, k)
    put = cache.get(key)
    if put is None:
        options = options_of(puzzle, state, k)
        put = cache[key] = agreed(state, options) if options else {}
    return put


def _support(puzzle: HeyawakePuzzle, k: int):
    """A getter of the candidates within two steps of room k (what room_options reads)."""
    supports = puzzle.once("_heyawake_support", dict)
    if k not in supports:
        cells = shading.cells_near(puzzle, puzzle.rooms[k], 2)
        supports[k] = operator.itemgetter(*cells) if len(cells) > 1 else (lambda c, i=cells[0]: (c[i],))
    return supports[k]


def pair_options(puzzle: HeyawakePuzzle, state: State, k: int, other: int) -> list[dict[int, int]] | None:
    """The ways to fill two rooms together when they agree on something (list_pairs), listed
    once per state and reused, as options_of does, from any earlier state that agrees on the
    cells within two steps of the two rooms: all a listing reads. Callers must not change the
    list."""
    def compute() -> list[dict[int, int]] | None:
        cache = cache_of(puzzle, "pairs")
        key = (k, other, _support(puzzle, k)(state.cands), _support(puzzle, other)(state.cands))
        if key not in cache:
            cache[key] = list_pairs(puzzle, state, k, other)
        return cache[key]
    return state.derived(("heyawake.pair-options", k, other), compute)


def list_pairs(puzzle: HeyawakePuzzle, state: State, k: int, other: int) -> list[dict[int, int]] | None:
    """The ways to fill two rooms together: pairs of their own ways that agree, re-checked
    together (a white cell may be walled in from both sides), in the order of the first
    room's ways, then the second's. None when they are too many, or as soon as the ways so
    far agree on no undecided cell (room-pair then has nothing to say, and most pairs of
    rooms end there after a few ways: they are tried with both rooms' ways changing from one
    pair to the next, which parts them sooner)."""
    first, second = options_of(puzzle, state, k), options_of(puzzle, state, other)
    if not first or not second or len(first) * len(second) > PAIR_LIMIT:
        return None
    cands = state.cands
    firsts, seconds = masks_of(puzzle, state, k), masks_of(puzzle, state, other)
    free, other_free = ({i for i in puzzle.rooms[r] if cands[i] == FREE} for r in (k, other))
    found = {}      # (place of the first room's way, of the second's) -> their way together
    shared: dict[int, int] | None = None      # what the ways so far agree on (agreed)
    for a, b in pairs_across(len(first), len(second)):
        white, shaded, beside = firsts[a]
        other_white, other_shaded, other_beside = seconds[b]
        if white & other_shaded or shaded & other_white:
            continue        # they disagree on a cell
        option = together(puzzle, cands, first[a], second[b], shaded | other_shaded,
                          beside & (other_free | other_beside) | other_beside & free)
        if option is not None:
            shared = agreed(state, [option]) if shared is None else \
                {i: v for i, v in shared.items() if option.get(i) == v}
            if not shared:
                return None
            found[a, b] = option
    return [found[key] for key in sorted(found)]


def together(puzzle: HeyawakePuzzle, cands: Sequence[int], way: dict[int, int], other: dict[int, int],
             shaded: int, walled: set[int]) -> dict[int, int] | None:
    """What two rooms' ways that agree decide together: consequences of both rooms' shaded
    cells (`shaded`, a bit mask), worked out from each way's own. Both ways' cells keep their
    values, and a white cell has the ways out it had in its own way, unless it lies beside
    the other way's shaded cells (`walled`: the cells of one room, or beside one way's shaded
    cells, that lie beside the other way's shaded cells): only those are looked at again."""
    option = {**way, **other}
    nbrs, size = puzzle.neighbours, len(cands)
    for i in walled:
        around_i = nbrs[i]
        if size <= 1 + len(around_i):
            continue
        exit_ = -1
        for j in around_i:
            if not shaded >> j & 1 and cands[j] != B_SHADED:
                if exit_ >= 0:
                    break       # two ways out
                exit_ = j
        else:
            if exit_ < 0:
                return None
            if exit_ not in option and cands[exit_] == FREE:
                option[exit_] = WHITE
    return option


def pairs_across(n: int, m: int) -> Iterator[tuple[int, int]]:
    """Every pair (a, b) with a < n and b < m once, in rounds where b runs one further ahead of
    a each round: within a round both change from one pair to the next."""
    for shift in range(m):
        for a in range(n):
            yield a, (a + shift) % m


def masks_of(puzzle: HeyawakePuzzle, state: State, k: int) -> list[tuple[int, int, frozenset[int]]]:
    """_as_masks of each way of options_of, kept per room_key as the ways are (a room is
    paired with each of its neighbours, in state after state)."""
    cache = cache_of(puzzle, "masks")
    key = room_key(puzzle, state, k)
    got = cache.get(key)
    if got is None:
        got = cache[key] = [_as_masks(puzzle, option) for option in options_of(puzzle, state, k)]
    return got


def _as_masks(puzzle: HeyawakePuzzle, option: dict[int, int]) -> tuple[int, int, frozenset[int]]:
    """A way's white and shaded cells as bit masks (two ways agree when neither shades a
    cell the other whitens), and the cells beside its shaded cells."""
    white = shaded = 0
    beside: set[int] = set()
    nbrs = puzzle.neighbours
    for i, v in option.items():
        if v == SHADED:
            shaded |= 1 << i
            beside.update(nbrs[i])
        else:
            white |= 1 << i
    return white, shaded, frozenset(beside)


def room_deduction(puzzle: HeyawakePuzzle, state: State, rooms: Sequence[int],
                   options: list[dict[int, int]] | None, params: dict,
                   put: dict[int, int] | None = None) -> Deduction | None:
    """What the ways `options` of the rooms agree on (`put`, when known already)."""
    if not options:
        return None     # too many to list, or none at all (the violations report that)
    put = agreed(state, options) if put is None else put
    if not put:
        return None
    return Deduction.build(state, put=put, cells=[puzzle.room_cell(k) for k in rooms],
                           region=[i for k in rooms for i in puzzle.rooms[k]],
                           params={**params, "room": puzzle.room_cell(rooms[0]), "ways": len(options),
                                   "cells": shading.describe(puzzle, put)})


# --- level 2 ------------------------------------------------------------------------------

@heuristic(id="heyawake.strip", genre=GENRE)
def strip(puzzle: HeyawakePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    cands = state.cands
    lines = range(len(puzzle.lines)) if focus is None else sorted({k for f in focus for k in puzzle.lines_of(f)})
    for k in lines:
        if not line_strips(puzzle, cands, k)[1]:
            continue        # no strip maker (kept per pattern of the line: most lines have none)
        for i, first, last in strip_makers(puzzle, cands, k):
            line = puzzle.lines[k][0]
            yield Deduction.build(state, put={i: SHADED},
                                  premises=[j for j in line[first:last + 1] if j != i],
                                  params={"cell": puzzle.cell(i), "start": puzzle.cell(line[first]),
                                          "end": puzzle.cell(line[last])})


def strip_makers(puzzle: HeyawakePuzzle, cands: Sequence[int], k: int,
                 white: frozenset[int] = frozenset()) -> Iterator[tuple[int, int, int]]:
    """Undecided cells of line k that, made white, would join white cells (and `white`) into a
    straight run across two room borders: (cell, first and last position of that run)."""
    line, borders = puzzle.lines[k]
    n = len(line)
    is_white = [cands[i] == B_WHITE or i in white for i in line]
    left_len, left_cross = [0] * n, [0] * n       # the white run ending just before t
    for t in range(1, n):
        if is_white[t - 1]:
            left_len[t] = left_len[t - 1] + 1
            left_cross[t] = (left_cross[t - 1] + borders[t - 2] if left_len[t - 1] else 0)
    right_len, right_cross = [0] * n, [0] * n     # the white run starting just after t
    for t in range(n - 2, -1, -1):
        if is_white[t + 1]:
            right_len[t] = right_len[t + 1] + 1
            right_cross[t] = (right_cross[t + 1] + borders[t + 1] if right_len[t + 1] else 0)
    for t, i in enumerate(line):
        if cands[i] != FREE or i in white:
            continue
        crossed = (left_cross[t] + borders[t - 1] if left_len[t] else 0) + \
            (right_cross[t] + borders[t] if right_len[t] else 0)
        if crossed >= 2:
            yield i, t - left_len[t], t + right_len[t]


def line_strips(puzzle: HeyawakePuzzle, cands: Sequence[int], k: int) -> tuple[bool, tuple[int, ...]]:
    """Whether line k holds a white run across two borders, and its strip makers' cells (in
    order). Both read only the line's own cells, so they are kept per pattern of the line: a
    what-if screens cell after cell of one state, each a change or two away from it."""
    return line_facts(puzzle, k, line_pattern(puzzle, cands, k))


def line_facts(puzzle: HeyawakePuzzle, k: int, pattern: tuple[int, ...], cache: dict | None = None
               ) -> tuple[bool, tuple[int, ...]]:
    """line_strips of line k with these candidates; `cache`: cache_of(puzzle, "lines"), for
    loops that read many lines."""
    if cache is None:
        cache = cache_of(puzzle, "lines")
    got = cache.get((k, pattern))
    if got is None:
        got = cache[k, pattern] = _strips_of(*puzzle.lines[k], pattern)
    return got


def _strips_of(line: Sequence[int], borders: Sequence[bool], pattern: Sequence[int]
               ) -> tuple[bool, tuple[int, ...]]:
    """line_strips' answer from the line's candidates (`pattern`), in one pass: the white
    runs (white_runs), then the undecided cells just beside them (strip_makers)."""
    runs = []       # (first, last position, borders crossed)
    start = crossed = most = 0
    inside = False
    for t, m in enumerate(pattern):
        if m == B_WHITE:
            if inside:
                crossed += borders[t - 1]
            else:
                start, crossed, inside = t, 0, True
        elif inside:
            runs.append((start, t - 1, crossed))
            most = max(most, crossed)
            inside = False
    if inside:
        runs.append((start, len(pattern) - 1, crossed))
        most = max(most, crossed)
    makers = []
    last = len(pattern) - 1
    for r, (first, end, crossed) in enumerate(runs):
        t = first - 1       # before the run, unless it is the cell after the run before
        if t >= 0 and pattern[t] == FREE and not (r and runs[r - 1][1] == t - 1) and crossed + borders[t] >= 2:
            makers.append(line[t])
        t = end + 1
        if t <= last and pattern[t] == FREE:
            joined = crossed + borders[end]
            if r + 1 < len(runs) and runs[r + 1][0] == t + 1:
                joined += borders[t] + runs[r + 1][2]
            if joined >= 2:
                makers.append(line[t])
    return most >= 2, tuple(makers)


@heuristic(id="heyawake.pocket", genre=GENRE)
def pocket(puzzle, state, focus=None):
    """The nearby case of the level-4 articulation point: a corner or a pocket of a few cells."""
    return shading.pocket_white(puzzle, state, focus, most=POCKET_CELLS)


# --- level 3 ------------------------------------------------------------------------------

@heuristic(id="heyawake.enclosure", genre=GENRE)
def enclosure(puzzle, state, focus=None):
    """The articulation point again, for an area a reader can still take in (up to a dozen
    cells); the whole board is level 4."""
    return shading.pocket_white(puzzle, state, focus, most=ENCLOSURE_CELLS)


@heuristic(id="heyawake.room-combinations", genre=GENRE)
def room_combinations(puzzle: HeyawakePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for k in rooms_near(puzzle, focus, 2):
        if room_counts(puzzle, state.cands, k)[1] and (put := options_agreed(puzzle, state, k)):
            yield room_deduction(puzzle, state, [k], options_of(puzzle, state, k), {"n": puzzle.clues[k]}, put)


@heuristic(id="heyawake.room-pair", genre=GENRE)
def room_pair(puzzle: HeyawakePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    cands = state.cands
    looked: set[tuple[int, int]] = set()
    for k in rooms_near(puzzle, focus, 2):
        if not room_counts(puzzle, cands, k)[1]:
            continue
        for other in puzzle.room_neighbours[k]:
            if puzzle.clues[other] < 0 or (other, k) in looked or not room_counts(puzzle, cands, other)[1]:
                continue
            looked.add((k, other))
            yield room_deduction(puzzle, state, [k, other], pair_options(puzzle, state, k, other),
                                 {"n": puzzle.clues[k], "m": puzzle.clues[other],
                                  "other": puzzle.room_cell(other)})


@heuristic(id="heyawake.block-count", genre=GENRE)
def block_count(puzzle: HeyawakePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """A room needing many shaded cells can afford few inside it (grader.kernels.blocks);
    when the count is tight it decides corners and edges."""
    cache = cache_of(puzzle, "blocks")
    for k in rooms_near(puzzle, focus):
        key = (k, tuple(state.cands[i] for i in puzzle.rooms[k]))     # all the count reads
        found = cache.get(key, ())
        if found == ():
            found = cache[key] = blocks.forced(puzzle.graph, puzzle.rooms[k], state.cands, B_SHADED, FREE,
                                               puzzle.clues[k])
        if not found or not found[0]:
            continue
        decided, count, limit = found
        put = {i: SHADED if v else WHITE for i, v in decided.items()}
        yield Deduction.build(state, put=put, cells=[puzzle.room_cell(k)], region=puzzle.rooms[k],
                              params={"n": puzzle.clues[k], "room": puzzle.room_cell(k), "blocks": count,
                                      "limit": limit, "cells": shading.describe(puzzle, put)})


# --- level 4 ------------------------------------------------------------------------------

# No Deduction.resume for the looks that list a room's ways, nor the what-ifs: what a room (or
# a cell's screen) answers reads beyond what its focus maps back to it (a room's ways read two
# steps out, its strips whole lines, splits_white the white area), so a look resumed after a
# find misses a room that a change far off has opened since: resuming room-strips changed 6
# of 209 traces (janko boards up to 400 cells). Room-cases looks everywhere, fewest ways first.
@heuristic(id="heyawake.room-strips", genre=GENRE)
def room_strips(puzzle: HeyawakePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    # a room's kept ways read whole lines and the white area (splits_white): a change
    # anywhere can alter them, so the rooms far off follow the rooms near the focus
    rooms = puzzle.numbered if focus is None else near_then_the_rest(rooms_near(puzzle, focus), puzzle.numbered)
    for k in rooms:
        if room_counts(puzzle, state.cands, k)[1]:
            ways = strip_ways(puzzle, state, k)
            if ways.share_something():
                yield room_deduction(puzzle, state, [k], ways.all(), {"n": puzzle.clues[k]})


def strip_ways(puzzle: HeyawakePuzzle, state: State, k: int) -> "StripWays":
    """Room k's StripWays in this state (one per state, shared by room-strips and room-cases)."""
    return state.derived(("heyawake.room-strips", k), lambda: StripWays(puzzle, state, k))


class StripWays:
    """The ways to fill room k that leave no white strip across two borders and keep the white
    cells together: the room's ways (options_of, or all_ways when those are too many for
    level 3) judged one at a time, only as far as a caller needs. Nearly every way passes, and
    the white-area check is the dear part: once the ways kept so far share nothing, more ways
    can only share less, so room-strips stops there; and a way that sets every cell they
    share as they do cannot change what they share, so room-strips need not judge it."""

    def __init__(self, puzzle: HeyawakePuzzle, state: State, k: int):
        # the state by a weak reference: it keeps these ways (derived), and a cycle would
        # leave every state of a solve to the collector
        self.puzzle, self._state = puzzle, weakref.ref(state)
        self.listing = all_ways(puzzle, state, k)
        self.verdicts: dict[int, bool] = {}     # by place in the listing: kept or not
        self.ordered = 0    # the ways judged in order, with those kept in `kept`
        self.kept: list[dict[int, int]] = []
        self.seen = 0       # the ways whose part in `shared` is taken into account
        self.shared: dict[int, int] | None = None     # what the kept ways agree on, undecided cells

    @property
    def state(self) -> State:
        return self._state()

    def _way(self, n: int) -> dict[int, int] | None:
        return None if self.listing.failed else self.listing.way(n)

    def _keeps(self, n: int, option: dict[int, int]) -> bool:
        got = self.verdicts.get(n)
        if got is None:
            got = self.verdicts[n] = not (crosses_two_borders(self.puzzle, self.state.cands, option) or
                                          splits_white(self.puzzle, self.state, option))
        return got

    def _share(self, option: dict[int, int]) -> None:
        if self.shared is None:
            self.shared = agreed(self.state, [option])
        else:
            self.shared = {i: v for i, v in self.shared.items() if option.get(i) == v}

    def _judge_next(self) -> bool:
        """Judge the next way in order; False when none is left."""
        while (option := self._way(self.ordered)) is not None:
            n = self.ordered
            self.ordered += 1
            kept = self._keeps(n, option)
            if n == self.seen:
                self.seen += 1
                if kept:
                    self._share(option)
            if kept:
                self.kept.append(option)
                return True
        return False

    def share_something(self) -> bool:
        """Whether the ways kept, when all are judged, agree on some undecided cell (judging
        only until they agree on none). A listing that runs out of turns, where nothing
        holds, is known to from its start (Listing): no way of it is judged."""
        while self.shared is None or self.shared:
            n = self.seen
            option = self._way(n)
            if option is None:
                break
            self.seen += 1
            if self.shared is not None and all(option.get(i) == v for i, v in self.shared.items()):
                continue
            if self._keeps(n, option):
                self._share(option)
        return bool(self.shared) and not self.listing.failed

    def at_most(self, n: int) -> list[dict[int, int]] | None:
        """Every way kept, when there are at most n of them (judging at most n + 1)."""
        while len(self.kept) <= n and self._judge_next():
            pass
        return self.all() if len(self.kept) <= n else None

    def all(self) -> list[dict[int, int]] | None:
        """Every way kept; None when the room's ways are too many to list, or more than
        ROOM_LIMIT are kept."""
        while len(self.kept) <= ROOM_LIMIT and self._judge_next():
            pass
        return None if self.listing.failed or len(self.kept) > ROOM_LIMIT else self.kept


# A case split on a room's few ways (level 4): rooms with at most CASE_WAYS ways left (those
# room-strips keeps), each way followed by at most CASE_STEPS direct deductions of levels 1-4.
# No what-if runs inside a case (a hypothesis inside a hypothesis is level 5), nor room-strips
# (its listing is the slow part, and the case split has just listed the room's ways itself).
CASE_WAYS = 4
CASE_STEPS = 20
CASE_SKIP = frozenset({"heyawake.room-cases", "heyawake.room-strips", "heyawake.what-if",
                       "heyawake.nearby-what-if"})


def case_fill() -> list:
    """The techniques a case is followed with: every direct deduction of levels 1-4."""
    return [h for h in REGISTRY.for_genre(GENRE, 4) if h.info.id not in CASE_SKIP]


@heuristic(id="heyawake.room-cases", genre=GENRE)
def room_cases(puzzle: HeyawakePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """A room with only a few ways left (those of room-strips), fewest first: follow each a
    few direct steps; a way that breaks a rule drops out, and what the ways left agree on
    holds. A strong solver's deliberate case split, bounded in ways and steps."""
    order = []
    for k in puzzle.numbered:
        if not room_counts(puzzle, state.cands, k)[1]:
            continue
        options = strip_ways(puzzle, state, k).at_most(CASE_WAYS)
        if options and 2 <= len(options):
            order.append((len(options), k, options))
    for _, k, options in sorted(order, key=lambda t: (t[0], t[1])):
        cases = [(way_label(puzzle, state, o), state.assume(o), list(o)) for o in options]
        d = branch_deduction(puzzle, state, cases, max_level=4, max_steps=CASE_STEPS,
                             heuristics=case_fill())
        if d:
            yield Deduction(d.removals, {**d.params, "n": puzzle.clues[k], "room": puzzle.room_cell(k)},
                            cells=(puzzle.room_cell(k),), region=puzzle.rooms[k], detail=d.detail)
            return


# How far a what-if looks: rounds of easy consequences (all cells one round settles, then the
# next). Level 3 looks a little way and at the rules nearby (touching, rooms, strips, a white
# cell walled in); level 4 a little further and at the white area as a whole.
NEARBY_ROUNDS = 3
WHAT_IF_ROUNDS = 5


@heuristic(id="heyawake.nearby-what-if", genre=GENRE)
def nearby_what_if(puzzle: HeyawakePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    return look_ahead(puzzle, state, focus, NEARBY_ROUNDS, connectivity=False)


@heuristic(id="heyawake.what-if", genre=GENRE)
def what_if(puzzle: HeyawakePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    return look_ahead(puzzle, state, focus, WHAT_IF_ROUNDS, connectivity=True)


def look_ahead(puzzle: HeyawakePuzzle, state: State, focus, rounds: int,
               connectivity: bool) -> Iterator[Deduction]:
    """Level 3 looks at the rules nearby only; level 4 at the white area as a whole too."""
    # a cell's screen reads rounds of consequences, whole rooms and lines, and (level 4) the
    # white area, as far as they go: no radius holds them, so the rest of the board follows
    near = None if focus is None else near_then_the_rest(shading.cells_near(puzzle, focus, 2), range(puzzle.size))
    caches = ScreenCaches.of(puzzle)        # once per look: it screens cell after cell
    return shading.short_what_if(puzzle, state, GENRE, lambda i, value: quick_refutes(
        puzzle, state, i, value, rounds, connectivity, caches), chain_rules(puzzle, state, connectivity),
        candidates=near)


def chain_rules(puzzle: HeyawakePuzzle, state: State, connectivity: bool):
    """The rules a what-if's chain from `state` watches: nearby_violations, or with
    `connectivity` the genre's violations. When `state` breaks none of them (and, for a white
    cell shut in, holds two white cells), a state that narrows it breaks a local one only at a
    cell that changed, and the white area shows at once whether it is cut: only when either
    finds something is the whole board looked over again. A chain's states narrow one another,
    so after one that breaks no local rule, the next breaks one only at a cell changed since."""
    def full(s: State) -> list:
        return get(GENRE).violations(puzzle, s) if connectivity else nearby_violations(puzzle, s)
    clean: list[bool] = []
    last: list = [None, None]       # the state asked last and its answer
    near_clean: list = [None]       # the candidates of the last state broken_near found clean

    def at_start() -> list:     # once per state: both what-ifs ask, and the difficulty count again
        return state.derived(("heyawake.chain-rules", connectivity), lambda: full(state))

    def rules(s: State) -> list:
        if s is state:
            return at_start()
        if s is last[0]:    # the chain's last state: its stop asked, then short_what_if asks why
            return last[1]
        if not clean:
            clean.append(not at_start() and (connectivity or state.cands.count(B_WHITE) > 1))
        changed = narrowed(state.cands, s.cands, len(s.cands)) if clean[0] else None
        if changed is not None and not broken_near(puzzle, s.cands, changed_since(near_clean[0], s.cands, changed)):
            near_clean[0] = s.cands
            found = [] if not (connectivity and whites_parted(puzzle, state, s.cands, changed)) else full(s)
        else:
            found = full(s)
        last[:] = s, found
        return found
    return rules


def changed_since(before: tuple[int, ...] | None, now: tuple[int, ...], changed: list[int]) -> list[int]:
    """The cells of `changed` that changed since `before`, when `now` narrows it; else all."""
    since = None if before is None else narrowed(before, now, len(changed))
    return changed if since is None else since


def whites_parted(puzzle: HeyawakePuzzle, state: State, cands: Sequence[int], changed: Sequence[int]) -> bool:
    """Whether the white cells of `cands`, which narrow `state` (its white cells joined) at
    the cells `changed`, lie apart, worked out from `state`'s white area: new white cells in
    two of its areas, or new shaded cells that cut the one area (whites_cut). The chain of a
    what-if asks this after every step, and the whole board need not be searched again."""
    shaded = [x for x in changed if cands[x] == B_SHADED]
    white = [x for x in changed if cands[x] == B_WHITE]
    side = open_side(puzzle, state)
    of = side.possible_parts.of
    if len(set(side.hosts).union(of[x] for x in white)) > 1:
        return True
    return bool(shaded) and whites_cut(puzzle, state, shaded, white)


def broken_near(puzzle: HeyawakePuzzle, cands: Sequence[int], changed: Iterable[int]) -> bool:
    """Whether a local rule is broken at one of the cells `changed`: two shaded cells
    touching, a white cell shut in, a room's count, a white run across two borders."""
    nbrs = puzzle.neighbours
    rooms, lines = set(), set()
    for x in changed:
        rooms.add(puzzle.room_of[x])
        if cands[x] == B_SHADED:
            if any(cands[j] == B_SHADED for j in nbrs[x]):
                return True
        elif cands[x] == B_WHITE:
            lines.update(puzzle.lines_of(x))
        for w in (x, *nbrs[x]):
            if cands[w] == B_WHITE and all(cands[j] == B_SHADED for j in nbrs[w]):
                return True
    for k in rooms:
        n = puzzle.clues[k]
        if n >= 0:
            shaded, free = room_counts(puzzle, cands, k)
            if shaded > n or shaded + len(free) < n:
                return True
    return any(line_strips(puzzle, cands, k)[0] for k in lines)


def quick_refutes(puzzle: HeyawakePuzzle, state: State, i: int, value: int, rounds: int,
                  connectivity: bool, caches: "ScreenCaches | None" = None) -> bool:
    """Whether giving cell i `value` breaks a rule within a few rounds of the easy rules
    (shaded cells never touch, room counts, strips, a white cell's only way out), and with
    `connectivity`, whether the white cells are then cut apart. The easy rounds' outcome is
    remembered with what they read, and taken again in another state where none of that
    differs (the next step's look, or the difficulty count's, screens the same cells again,
    and so does a trial's second branch, whose states differ from the first's near the trial's
    cell); the white area, which they do not read, is asked of the state at hand."""
    if caches is None:
        caches = ScreenCaches.of(puzzle)
    got = _remembered(puzzle, state, caches, i, value, rounds)
    if got is None:
        got = caches.screens[i, value, rounds] = (state.cands, *_screen(puzzle, state, i, value, rounds, caches.lines))
    _, _, broken, shaded, white, _ = got
    return broken or (connectivity and bool(shaded) and whites_cut(puzzle, state, shaded, white))


@attrs.frozen
class ScreenCaches:
    """The puzzle's caches a what-if's screens use (cache_of), looked up once per look."""
    screens: dict       # (cell, value, rounds) -> (candidates then, *_screen's answer)
    diffs: dict         # _changes' Changes
    lines: dict         # line_facts'

    @classmethod
    def of(cls, puzzle: HeyawakePuzzle) -> "ScreenCaches":
        return cls(cache_of(puzzle, "what-ifs"), cache_of(puzzle, "what-if diffs", limit=64),
                   cache_of(puzzle, "lines"))


def _remembered(puzzle: HeyawakePuzzle, state: State, caches: ScreenCaches, i: int, value: int, rounds: int):
    """A remembered screen of cell i's `value` that holds in `state`: one of as many rounds,
    or of the other what-if's number of rounds when it settled (found nothing more, or broke
    a rule) within these (the level-4 what-if screens the cells level 3 has just screened).
    One that holds is remembered again as of `state` (Read.as_of): the next look checks it
    against one step's changes, not all since it was made, and it outlives NARROWED_LIMIT."""
    memo, now = caches.screens, state.cands
    for r in (rounds, WHAT_IF_ROUNDS if rounds == NEARBY_ROUNDS else NEARBY_ROUNDS):
        got = memo.get((i, value, r))
        if got is None or (r != rounds and (got[5] is None or got[5] > rounds)):
            continue
        if got[0] is now:
            return got
        changes = _changes(puzzle, caches.diffs, got[0], now)
        read = None if changes is None else got[1].as_of(puzzle, changes, caches.lines)
        if read is not None:
            got = memo[i, value, r] = (now, read, *got[2:])
            return got
    return None


@attrs.frozen
class Read:
    """What a screen read: these cells, every cell of these rooms, and lines, each with the
    candidates it had then (`patterns`, (line, candidates): a line is read again and again as
    a what-if's cells fill it, and most changes far along it leave its strips as they were)."""
    cells: frozenset[int]
    rooms: frozenset[int]
    patterns: tuple[tuple[int, tuple[int, ...]], ...]
    lines: frozenset[int]       # the lines of `patterns` (most changes are along none of them)

    def as_of(self, puzzle: HeyawakePuzzle, changes: "Changes", lines: dict | None = None) -> "Read | None":
        """What the screen reads once the changes are made, when they leave its answer as it
        was: None when they change one of its cells or rooms, or the strips of a line it read.
        A cell the screen decided itself was undecided, and is one of its cells, beside one,
        in one of its rooms, or a strip maker of a line it read (which loses that maker once
        the cell changes, whichever way), so a line's pattern takes the new candidates of the
        cells that changed as they are: the screen made afresh reads the same cells and rooms
        and these moved patterns, round after round. So also for the changes to a state of
        another branch of a trial, which need not narrow. `lines`: cache_of(puzzle, "lines"),
        when the caller has it."""
        if not self.cells.isdisjoint(changes.cells) or not self.rooms.isdisjoint(changes.rooms):
            return None
        along, now, cols = changes.along, changes.now, puzzle.cols
        if self.lines.isdisjoint(along):
            return self
        patterns, rows = None, puzzle.rows
        for n, (k, pattern) in enumerate(self.patterns):
            cells = along.get(k)
            if cells is None:
                continue
            moved = list(pattern)
            for j in cells:
                moved[j % cols if k < rows else j // cols] = now[j]
            moved = tuple(moved)
            if moved == pattern:
                continue
            if line_facts(puzzle, k, moved, lines) != line_facts(puzzle, k, pattern, lines):
                return None
            if patterns is None:
                patterns = list(self.patterns)
            patterns[n] = (k, moved)
        return self if patterns is None else Read(self.cells, self.rooms, tuple(patterns), self.lines)


NARROWED_LIMIT = 64      # most changed cells a remembered screen is checked against


@attrs.frozen
class Changes:
    """The cells changed from one state to another, with their rooms and, per line, those
    along it: what Read.as_of asks of them."""
    cells: frozenset[int]
    rooms: frozenset[int]
    along: dict[int, list[int]]
    now: tuple[int, ...]

    @classmethod
    def of(cls, puzzle: HeyawakePuzzle, changed: list[int], now: tuple[int, ...]) -> "Changes":
        along: dict[int, list[int]] = {}
        for j in changed:
            for k in puzzle.lines_of(j):
                along.setdefault(k, []).append(j)
        return cls(frozenset(changed), frozenset(puzzle.room_of[j] for j in changed), along, now)


def _changes(puzzle: HeyawakePuzzle, diffs: dict, then: tuple[int, ...], now: tuple[int, ...]) -> Changes | None:
    """The Changes from `then` to `now`, when they differ at no more than NARROWED_LIMIT
    cells; kept for the pair in `diffs` (ScreenCaches.diffs): one look screens many cells
    against the same few states."""
    got = diffs.get((id(then), id(now)))
    if got is None or got[0] is not then or got[1] is not now:
        changed = differing(then, now, NARROWED_LIMIT)
        got = diffs[id(then), id(now)] = (then, now, None if changed is None else Changes.of(puzzle, changed, now))
    return got[2]


def _screen(puzzle: HeyawakePuzzle, state: State, i: int, value: int, rounds: int, strips: dict | None = None
            ) -> tuple[Read, bool, list[int], list[int], int | None]:
    """quick_refutes' easy rounds: what they read, whether they break a rule, the cells they
    shade and whiten (for the white area's question), and the round they settled in (broke a
    rule, or found nothing more; None: they ran out first). `strips`: cache_of(puzzle,
    "lines"), when the caller has it. (What a round decides is set in `new`, each cell once:
    the rules' "put" written out where they decide, as a screen is made thousands of times.)"""
    cands = state.cands
    c = list(cands)
    c[i] = 1 << value
    changed = {i}
    newly_shaded = [i] if value == SHADED else []
    newly_white = [i] if value == WHITE else []
    new: dict[int, int] = {}
    cells: set[int] = set()
    rooms_read: set[int] = set()
    patterns: set[tuple[int, tuple[int, ...]]] = set()
    nbrs, getters, room_getters, room_of, clues, room_cells, lines_of = _screen_tables(puzzle)
    if strips is None:
        strips = cache_of(puzzle, "lines")
    settled = None
    try:
        for done in range(1, rounds + 1):
            new.clear()
            rooms, lines, whites = set(), set(), set()
            for f in changed:
                around_f = nbrs[f]
                cells.add(f)
                cells.update(around_f)
                rooms.add(room_of[f])
                if c[f] == B_SHADED:
                    for n in around_f:      # whitened
                        m = c[n]
                        if not m & B_WHITE or new.get(n, WHITE) != WHITE:
                            raise shading.Broken
                        if m == FREE:
                            new[n] = WHITE
                else:
                    lines.update(lines_of[f])
                    whites.add(f)
                for n in around_f:
                    if c[n] == B_WHITE:
                        whites.add(n)
            rooms_read |= rooms
            for k in rooms:
                n = clues[k]
                if n < 0:
                    continue
                values = room_getters[k](c)     # counted in C: most rooms are far from full
                shaded, open_ = values.count(B_SHADED), values.count(FREE)
                if shaded > n or shaded + open_ < n:
                    raise shading.Broken
                if open_ and (shaded == n or shaded + open_ == n):
                    v = WHITE if shaded == n else SHADED
                    for j in room_cells[k]:
                        if c[j] == FREE:
                            if new.get(j, v) != v:
                                raise shading.Broken
                            new[j] = v
            for k in lines:
                key = (k, getters[k](c))
                patterns.add(key)
                got = strips.get(key)
                crossed, makers = got if got is not None else line_facts(puzzle, k, key[1], strips)
                if crossed:
                    raise shading.Broken
                for j in makers:        # undecided: shaded
                    if new.get(j, SHADED) != SHADED:
                        raise shading.Broken
                    new[j] = SHADED
            for w in whites:
                around_w = nbrs[w]
                cells.update(around_w)
                exit_ = -1
                for n in around_w:
                    if c[n] != B_SHADED:
                        if exit_ >= 0:
                            break       # two ways out
                        exit_ = n
                else:
                    if exit_ < 0:
                        raise shading.Broken
                    if c[exit_] == FREE:
                        if new.get(exit_, WHITE) != WHITE:
                            raise shading.Broken
                        new[exit_] = WHITE
            if not new:
                settled = done
                break
            for j, v in new.items():
                c[j] = 1 << v
                (newly_shaded if v == SHADED else newly_white).append(j)
            changed = set(new)
    except shading.Broken:
        return _read(cells, rooms_read, patterns), True, [], [], done
    return _read(cells, rooms_read, patterns), False, newly_shaded, newly_white, settled


def _screen_tables(puzzle: HeyawakePuzzle) -> tuple:
    """The puzzle's tables a screen reads (one look-up per screen): neighbours, line and room
    getters, each cell's room, the rooms' numbers and cells, each cell's lines."""
    return puzzle.once("_heyawake_screen_tables", lambda: (
        puzzle.neighbours, line_getters(puzzle), room_getters_of(puzzle), puzzle.room_of, puzzle.clues,
        puzzle.rooms, cell_lines(puzzle)))


def cell_lines(puzzle: HeyawakePuzzle) -> tuple[tuple[int, int], ...]:
    """puzzle.lines_of of every cell (for loops that ask it of many cells)."""
    return puzzle.once("_heyawake_cell_lines", lambda: tuple(puzzle.lines_of(i) for i in range(puzzle.size)))


def room_getters_of(puzzle: HeyawakePuzzle) -> list:
    """Per room, a getter of its cells' candidates, in order (as line_getters for lines)."""
    return puzzle.once("_heyawake_room_getters", lambda: [
        operator.itemgetter(*room) if len(room) > 1 else (lambda c, i=room[0]: (c[i],)) for room in puzzle.rooms])


def _read(cells: set[int], rooms: set[int], patterns: set[tuple[int, tuple[int, ...]]]) -> Read:
    return Read(frozenset(cells), frozenset(rooms), tuple(patterns), frozenset(k for k, _ in patterns))


# --- level 5 ------------------------------------------------------------------------------

# The searches of level 4 that trials fill in without (grader.core.probing.trial_rules): at
# every step of every branch they cost the most, and the fill finds what they find a few
# steps later.
CASE_SPLITS = frozenset({"heyawake.room-cases", "heyawake.what-if"})

@heuristic(id="heyawake.room-hypotheses", genre=GENRE)
def room_hypotheses(puzzle: HeyawakePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    return hypotheses(puzzle, state, 2, HYPOTHESIS_LIMIT, PASSES)


@heuristic(id="heyawake.big-room-hypotheses", genre=GENRE)
def big_room_hypotheses(puzzle: HeyawakePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """The last resort after single-cell trials: rooms with more ways than a reader would
    like to follow, still each followed by easier steps."""
    return hypotheses(puzzle, state, HYPOTHESIS_LIMIT + 1, BIG_HYPOTHESIS_LIMIT, PASSES[-1:])


def hypotheses(puzzle: HeyawakePuzzle, state: State, fewest: int, most: int,
               passes: Sequence[tuple[int, int]]) -> Iterator[Deduction]:
    """Follow every way to fill a room (rooms with fewest..most ways, fewest first)."""
    order = []
    for k in puzzle.numbered:
        options = options_of(puzzle, state, k)
        if options and fewest <= len(options) <= most:
            order.append((len(options), k, options))
    rooms = [(k, options) for _, k, options in sorted(order, key=lambda t: (t[0], t[1]))]
    for k, d in shading.way_hypotheses(puzzle, state, rooms, lambda k, o: way_label(puzzle, state, o), passes,
                                       key=f"heyawake.room-hypotheses.{fewest}", leave_out=CASE_SPLITS):
        yield Deduction(d.removals, {**d.params, "n": puzzle.clues[k], "room": puzzle.room_cell(k)},
                        cells=(puzzle.room_cell(k),), region=puzzle.rooms[k], detail=d.detail)


def way_label(puzzle: HeyawakePuzzle, state: State, option: dict[int, int]) -> str:
    shaded = sorted(i for i, v in option.items() if v == SHADED and state.cands[i] == FREE)
    return "shading " + (", ".join(str(puzzle.cell(i)) for i in shaded) or "nothing more")


TRIAL = register_probing(GENRE, near=around, candidates=shading.busiest_first, leave_out=CASE_SPLITS)

register_last_resort(GENRE)      # the deepening nested trial, unless registered above
