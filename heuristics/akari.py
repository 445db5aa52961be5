"""Akari techniques, by level (spec/heuristics-catalogue.txt, AKARI).

Beyond the catalogue: chains of forced cells. From one assumption (a bulb here, or none)
a person follows what the walls and the dark cells force, link by link, until a rule breaks:
up to three links near what changed (akari.bulb-chain, akari.empty-chain), then up to eight
(akari.long-chain). All are level 4, a search like Heyawake's and Masyu's what-ifs: at level
3 the short ones folded Tatham's hard tier (his recursion) into tricky, rho 0.80 against
0.87. Only refutations count; what both values agree on is left to the trial of level 5.

Every find(puzzle, state, focus) yields Deductions; `focus` holds the cells changed since the
technique last found nothing, so it only looks where something may have changed. The
techniques whose look would read the whole board each step (bulb-starves-wall,
bulb-darkens-cell, two-pairs, wall-combinations, and the wall counts of a look without a
focus) keep what they find per state instead, updated from a recent state's
(grader/kernels/recent.py): only what a changed cell can reach is looked at again, and they
find what a look at the whole board finds, in the same order.
"""
from __future__ import annotations

from itertools import combinations
from typing import Iterable, Iterator

import attrs

from grader.genres.akari.model import (B_BULB, B_EMPTY, BULB, EMPTY, WHITE, AkariPuzzle, lighting,
                                       wall_counts)
from grader.core.explain import counted, describe_removals, phrase_list
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.engine import out_of_time
from grader.core.probing import register_probing, register_last_resort
from grader.core.steps import Deduction
from grader.kernels.recent import Remembered, recent_of
from heuristics.common.focus import near_then_the_rest

GENRE = "akari"
FREE = B_EMPTY | B_BULB
# The most cells a per-state fact is updated for rather than remade: the level-1 steps between
# two looks of a harder technique can decide a few hundred cells on a large board.
CHANGES = 1000
# The most way shapes (WayShape) kept with a puzzle before they are made afresh: a wall has at
# most 81 (each neighbour chosen, unchosen or neither), a solve meets few (akari/530, 10000
# cells and 1050 numbered walls: 2427); each holds two sets of the lines of at most 3 bulbs.
SHAPES_KEPT = 5_000


def walls_to_check(puzzle: AkariPuzzle, focus: frozenset[int] | None) -> Iterable[int]:
    if focus is None:
        return puzzle.numbered
    return sorted({w for f in focus for w in puzzle.walls_next_to[f]})


def open_walls(puzzle: AkariPuzzle, state: State, focus: frozenset[int] | None
               ) -> Iterator[tuple[int, int, int, list[int]]]:
    """(wall, its number, bulbs beside it, its free neighbours) for the numbered walls near the
    focus that still have a free neighbour (all of them, in board order, without a focus)."""
    if focus is None:
        for w, (bulbs, free) in counts_of_open_walls(puzzle, state).items():
            yield w, puzzle.board[w], bulbs, free
        return
    for w in walls_to_check(puzzle, focus):
        bulbs, free = wall_counts(puzzle, state, w)
        if free:
            yield w, puzzle.board[w], bulbs, free


def counts_of_open_walls(puzzle: AkariPuzzle, state: State) -> dict[int, tuple[int, list[int]]]:
    """Numbered wall -> wall_counts, for the walls with a free neighbour, in board order; updated
    from a recent state's (a look at the whole board would count every wall each step): a
    wall's counts change only with its neighbours, and a wall left with no free neighbour never
    gets one again, so the order stands."""
    def counted_walls(walls: Iterable[int]) -> dict[int, tuple[int, list[int]]]:
        out = {}
        for w in walls:
            bulbs, free = wall_counts(puzzle, state, w)
            if free:
                out[w] = bulbs, free
        return out

    def update(old: dict, _: tuple[int, ...], changed: list[int]) -> dict:
        looked = {w for c in changed for w in puzzle.walls_next_to[c]}.intersection(old)
        again = counted_walls(looked)
        return {w: again[w] if w in looked else got for w, got in old.items() if w not in looked or w in again}

    return state.derived("akari.open-walls", lambda: recent_of(puzzle, "akari.open-walls", limit=CHANGES).get(
        state, lambda: counted_walls(puzzle.numbered), update))


def cells_to_check(puzzle: AkariPuzzle, focus: frozenset[int] | None) -> Iterable[int]:
    return puzzle.whites if focus is None else sorted(puzzle.around(focus))


# --- level 1 ------------------------------------------------------------------------------

@heuristic(id="akari.bulb-lights-lines", genre=GENRE)
def bulb_lights_lines(puzzle: AkariPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    cands = state.cands
    bulbs = lighting(puzzle, state).bulbs if focus is None else sorted(f for f in focus if cands[f] == B_BULB)
    for b in bulbs:
        seen = sorted(j for j in puzzle.sight[b] if cands[j] & B_BULB)
        yield Deduction.build(state, exclude={j: BULB for j in seen}, premises=[b],
                              params={"bulb": puzzle.cell(b), "cells": [puzzle.cell(j) for j in seen]})


@heuristic(id="akari.wall-satisfied", genre=GENRE)
def wall_satisfied(puzzle: AkariPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for w, n, bulbs, free in open_walls(puzzle, state, focus):
        if bulbs == n:
            yield Deduction.build(state, put={f: EMPTY for f in free}, cells=[puzzle.cell(w)],
                                  params={"n": n, "wall": puzzle.cell(w), "bulbs": counted(n, "bulb"),
                                          "cells": [puzzle.cell(f) for f in free]})


@heuristic(id="akari.wall-needs-all", genre=GENRE)
def wall_needs_all(puzzle: AkariPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for w, n, bulbs, free in open_walls(puzzle, state, focus):
        if bulbs + len(free) == n:
            yield Deduction.build(state, put={f: BULB for f in free}, cells=[puzzle.cell(w)],
                                  params={"n": n, "wall": puzzle.cell(w),
                                          "need": counted(n - bulbs, "more bulb"),
                                          "result": describe_removals(puzzle, state, [(f, B_EMPTY) for f in free])})


# --- level 2 ------------------------------------------------------------------------------

@heuristic(id="akari.only-one-lighter", genre=GENRE)
def only_one_lighter(puzzle: AkariPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    light = lighting(puzzle, state)
    for i in cells_to_check(puzzle, focus):
        if state.cands[i] == B_EMPTY and not light.is_lit(i):
            sources = light.lighters(i)
            if len(sources) == 1:
                s = sources[0]
                yield Deduction.build(state, put={s: BULB}, premises=[i],
                                      params={"cell": puzzle.cell(i), "source": puzzle.cell(s)})


@heuristic(id="akari.isolated-cell", genre=GENRE)
def isolated_cell(puzzle: AkariPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    light = lighting(puzzle, state)
    cands, sight = state.cands, puzzle.sight
    for i in cells_to_check(puzzle, focus):
        if cands[i] == FREE and not any(cands[j] == FREE for j in sight.lines(i)) and not light.is_lit(i):
            yield Deduction.build(state, put={i: BULB}, params={"cell": puzzle.cell(i)})


def starved_wall(puzzle: AkariPuzzle, state: State, x: int, counts: dict[int, tuple[int, list[int]]]
                 ) -> int | None:
    """A numbered wall that a bulb at x would leave short of bulbs (or give too many).
    counts: wall_counts made in this state so far, by wall (added to)."""
    walls = puzzle.walls_in_sight[x]
    if not walls:
        return None
    seen = puzzle.sight[x]
    for w in sorted(walls):
        n = puzzle.board[w]
        got = counts.get(w)
        if got is None:
            got = counts[w] = wall_counts(puzzle, state, w)
        bulbs, free = got
        need = n - bulbs - (x in puzzle.white_neighbours[w])      # with a bulb at x
        if need < 0:
            return w
        for f in free:          # counted only until enough are left that x leaves free
            if need == 0:
                break
            if f != x and f not in seen:
                need -= 1
        if need:
            return w
    return None


def starved_walls(puzzle: AkariPuzzle, state: State) -> dict[int, int]:
    """Free cell -> the wall a bulb there would starve (starved_wall), for every free cell that
    has one, updated from a recent state's: a cell's answer changes only with the cell itself
    or the neighbours of a wall it sees."""
    def starved(cells: Iterable[int]) -> dict[int, int]:
        out: dict[int, int] = {}
        counts: dict[int, tuple[int, list[int]]] = {}
        for x in cells:
            if state.cands[x] == FREE:
                w = starved_wall(puzzle, state, x, counts)
                if w is not None:
                    out[x] = w
        return out

    def update(old: dict[int, int], _: tuple[int, ...], changed: list[int]) -> dict[int, int]:
        near = {n for c in changed for w in puzzle.walls_next_to[c] for n in puzzle.white_neighbours[w]}
        again = puzzle.around(frozenset(near)).union(changed)
        out = {x: w for x, w in old.items() if x not in again}
        out.update(starved(again))
        return out

    return state.derived("akari.starved-walls", lambda: recent_of(puzzle, "akari.starved-walls", limit=CHANGES).get(
        state, lambda: starved(puzzle.whites), update))


@heuristic(id="akari.bulb-starves-wall", genre=GENRE)
def bulb_starves_wall(puzzle: AkariPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    starved = starved_walls(puzzle, state)
    for x in sorted(starved):
        w = starved[x]
        lit = sorted(f for f in wall_counts(puzzle, state, w)[1] if f in puzzle.sight[x])
        yield Deduction.build(state, put={x: EMPTY}, cells=[puzzle.cell(w)],
                              params={"cell": puzzle.cell(x), "n": puzzle.board[w], "wall": puzzle.cell(w),
                                      "lit": [puzzle.cell(f) for f in lit] or "nothing it needs"})


# --- level 3 ------------------------------------------------------------------------------

def darkening_bulb(puzzle: AkariPuzzle, state: State, light, y: int) -> tuple[int, list[int]] | None:
    """(the first free cell that sees every cell that could light dark cell y, those cells),
    or None."""
    if y in light.lit:
        return None
    sources = light.lighters(y)
    if len(sources) < 2:
        return None
    common = set(puzzle.sight[sources[0]])
    for s in sources[1:]:
        common &= puzzle.sight[s]
        if not common:
            return None         # usually after a few: a large open board has hundreds of sources
    common -= set(sources)
    x = min((x for x in common if state.cands[x] == FREE), default=None)
    return None if x is None else (x, sources)


def darkening_bulbs(puzzle: AkariPuzzle, state: State) -> dict[int, tuple[int, list[int]]]:
    """Dark cell -> darkening_bulb, for the cells that have one, updated from a recent state's:
    a cell looks again when a cell it sees changed (its lighters) or its darkening bulb did
    (a cell never becomes free again, so no other can take its place)."""
    light = lighting(puzzle, state)

    def darkening(cells: Iterable[int]) -> dict[int, tuple[int, list[int]]]:
        return {y: got for y in cells if (got := darkening_bulb(puzzle, state, light, y)) is not None}

    def update(old: dict, _: tuple[int, ...], changed: list[int]) -> dict:
        changed_set = frozenset(changed)
        again = puzzle.around(changed_set)
        again.update(y for y, (x, _) in old.items() if x in changed_set)
        out = {y: got for y, got in old.items() if y not in again}
        out.update(darkening(again))
        return dict(sorted(out.items()))

    return state.derived("akari.darkening-bulbs", lambda: recent_of(
        puzzle, "akari.darkening-bulbs", limit=CHANGES).get(state, lambda: darkening(puzzle.whites), update))


@heuristic(id="akari.bulb-darkens-cell", genre=GENRE)
def bulb_darkens_cell(puzzle: AkariPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for y, (x, sources) in darkening_bulbs(puzzle, state).items():
        yield Deduction.build(state, put={x: EMPTY}, premises=[y], region=sources,
                              params={"cell": puzzle.cell(x), "dark": puzzle.cell(y),
                                      "sources": [puzzle.cell(s) for s in sources]})


Pair = tuple[tuple[int, int], str]     # two cells of which one at least holds a bulb, and why


def wall_pair(puzzle: AkariPuzzle, state: State, w: int) -> Pair | None:
    bulbs, free = wall_counts(puzzle, state, w)
    n = puzzle.board[w]
    return ((free[0], free[1]), f"the {n} at {puzzle.cell(w)}") if len(free) == 2 and n - bulbs == 1 else None


def dark_pair(puzzle: AkariPuzzle, state: State, light, y: int) -> Pair | None:
    if y in light.lit:
        return None
    sources = light.lighters(y)
    return ((sources[0], sources[1]), f"to light {puzzle.cell(y)}") if len(sources) == 2 else None


def choices(puzzle: AkariPuzzle, state: State) -> dict[tuple[int, int], Pair]:
    """The pairs of the numbered walls, keyed (0, wall), and of the dark cells, keyed (1, cell),
    updated from a recent state's: a wall's pair changes only with its neighbours, a cell's
    only with the cells it sees. In key order: walls first, each group in board order."""
    light = lighting(puzzle, state)

    def pairs(walls: Iterable[int], cells: Iterable[int]) -> dict[tuple[int, int], Pair]:
        out = {(0, w): got for w in walls if (got := wall_pair(puzzle, state, w)) is not None}
        out.update(((1, y), got) for y in cells if (got := dark_pair(puzzle, state, light, y)) is not None)
        return out

    def update(old: dict, _: tuple[int, ...], changed: list[int]) -> dict:
        again = choice_keys(puzzle, changed)
        out = {k: got for k, got in old.items() if k not in again}
        out.update(pairs((w for kind, w in again if kind == 0), (y for kind, y in again if kind == 1)))
        return dict(sorted(out.items()))

    return state.derived("akari.choices", lambda: recent_of(puzzle, "akari.choices", limit=CHANGES).get(
        state, lambda: pairs(puzzle.numbered, puzzle.whites), update))


def choice_keys(puzzle: AkariPuzzle, changed: Iterable[int]) -> set[tuple[int, int]]:
    """The keys of `choices` whose pair may change when `changed` cells do."""
    changed = frozenset(changed)
    return {(0, w) for c in changed for w in puzzle.walls_next_to[c]} | {(1, y) for y in puzzle.around(changed)}


def pair_steps(puzzle: AkariPuzzle, state: State, pairs: dict[tuple[int, int], Pair], k1: tuple[int, int],
               by_cell: dict[int, list[tuple[int, int]]]) -> tuple[tuple[Deduction, ...], frozenset[int]]:
    """What pair k1 and each later pair it sees give together, and the cells whose candidates
    that read (besides the pairs themselves)."""
    p1, why1 = pairs[k1]
    related = {k2 for x in p1 for y in puzzle.sight[x] for k2 in by_cell.get(y, ()) if k2 > k1}
    out, read = [], set()
    for k2 in sorted(related):
        p2, why2 = pairs[k2]
        if set(p1) == set(p2):
            continue
        combos = [(a, b) for a in p1 for b in p2 if a == b or b not in puzzle.sight[a]]
        if not combos:
            continue
        params = {"first": [puzzle.cell(c) for c in p1], "why_first": why1,
                  "second": [puzzle.cell(c) for c in p2], "why_second": why2}
        if len(combos) == 1:
            a, b = combos[0]
            read.update((a, b))
            d = Deduction.build(state, put={a: BULB, b: BULB}, region=p1 + p2,
                                params={**params, "result": f"but one conflicts, so "
                                        f"{puzzle.cell(a)} and {puzzle.cell(b)} hold bulbs"})
            if d:
                out.append(d)
                continue
        lit_always = None
        for a, b in combos:
            lit = (puzzle.sight[a] | puzzle.sight[b]) - {a, b}
            lit_always = lit if lit_always is None else lit_always & lit
        read.update(lit_always or ())
        dark = sorted(x for x in (lit_always or ()) if state.cands[x] == FREE)
        if dark:
            out.append(Deduction.build(state, put={x: EMPTY for x in dark}, region=p1 + p2,
                                       params={**params, "result": f"lights {', '.join(str(puzzle.cell(x)) for x in dark)}, "
                                               "so no bulb goes there"}))
    return tuple(out), frozenset(read)


def two_pairs_steps(puzzle: AkariPuzzle, state: State) -> tuple[dict, dict]:
    """(the pairs, pair key -> pair_steps), updated from a recent state's: a pair looks again
    when it changed, when a pair it sees changed, or when a cell it read did."""
    pairs = choices(puzzle, state)

    def index() -> dict[int, list[tuple[int, int]]]:
        by_cell: dict[int, list[tuple[int, int]]] = {}
        for k, (pair, _) in pairs.items():
            for x in pair:
                by_cell.setdefault(x, []).append(k)
        return by_cell

    def full() -> tuple[dict, dict]:
        by_cell = index()
        return pairs, {k: pair_steps(puzzle, state, pairs, k, by_cell) for k in pairs}

    def update(old: tuple[dict, dict], _: tuple[int, ...], changed: list[int]) -> tuple[dict, dict]:
        old_pairs, old_steps = old
        moved = [k for k in choice_keys(puzzle, changed) if old_pairs.get(k) != pairs.get(k)]
        by_cell = index()
        seen = {y for k in moved for got in (old_pairs.get(k), pairs.get(k)) if got for x in got[0]
                for y in puzzle.sight[x]}
        again = set(moved).union(*(by_cell.get(y, ()) for y in seen))
        changed_set = set(changed)
        steps = {}
        for k in pairs:
            got = old_steps.get(k)
            steps[k] = (pair_steps(puzzle, state, pairs, k, by_cell)
                        if got is None or k in again or not got[1].isdisjoint(changed_set) else got)
        return pairs, steps

    return state.derived("akari.two-pairs", lambda: recent_of(puzzle, "akari.two-pairs", limit=CHANGES).get(
        state, full, update))


@heuristic(id="akari.two-pairs", genre=GENRE)
def two_pairs(puzzle: AkariPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for found, _ in two_pairs_steps(puzzle, state)[1].values():
        yield from found


@attrs.frozen(eq=False)
class WayShape:
    """What bulbs on `chosen` and none on `unchosen` touch, whatever the state: the cells the
    bulbs light (`shone`), the cells left without a bulb (`barred`: shone and unchosen), the
    numbered walls beside those or the bulbs, in board order, and whether the bulbs light each
    other (`clash`)."""
    shone: frozenset[int]
    barred: frozenset[int]
    walls: tuple[int, ...]
    clash: bool

    @classmethod
    def of(cls, puzzle: AkariPuzzle, chosen: tuple[int, ...], unchosen: tuple[int, ...]) -> "WayShape":
        """Kept with the puzzle (at most SHAPES_KEPT): a wall's ways come back every step."""
        memo = puzzle.memo("_akari_way_shapes", SHAPES_KEPT)
        got = memo.get((chosen, unchosen))
        if got is None:
            sight = puzzle.sight
            shone = frozenset().union(*(sight[c] for c in chosen))
            barred = shone.union(unchosen)
            walls = tuple(sorted({w for x in barred.union(chosen) for w in puzzle.walls_next_to[x]}))
            got = memo[chosen, unchosen] = cls(shone, barred, walls, not shone.isdisjoint(chosen))
        return got


@attrs.frozen(eq=False)
class Way:
    """One way of placing a wall's missing bulbs (on `chosen`, none on the wall's other free
    cells), checked against the rules nearby. `barred`: the cells it leaves without a bulb;
    `walls`: the numbered walls it counted the bulbs of; `read`: the cells a break rests on, or
    for a way that breaks nothing, the cells around those walls. A way that breaks nothing also
    keeps, for every cell it could leave dark, one cell outside `barred` that can still light it
    (`lighters`: that cell -> the cells it answers for). So when cells change, only the walls
    around them and the cells they answered for look again. `shape`: what its bulbs touch."""
    chosen: tuple[int, ...]
    shape: WayShape
    barred: frozenset[int]
    broken: bool
    read: frozenset[int]
    walls: tuple[int, ...] = ()
    lighters: dict[int, list[int]] = attrs.field(factory=dict)


def unlit_lighters(puzzle: AkariPuzzle, state: State, cells: Iterable[int], barred: frozenset[int],
                   by_lighter: dict[int, list[int]]) -> int | None:
    """For each of `cells` (none lit now), the first cell outside `barred` that can light it,
    added to `by_lighter` (that cell -> the cells it lights); the first cell that has none and
    that a barred cell could light (None: there is none). A cell no barred cell could light is
    not this way's concern: it is left out."""
    light = lighting(puzzle, state)
    known, lighters = light.known_lighters, light.lighters
    for y in cells:
        ways = known.get(y)         # read directly: asked for ten thousand cells a step
        if ways is None:
            ways = lighters(y)
        for j in ways:
            if j not in barred:
                break
        else:
            if y in barred or not puzzle.sight[y].isdisjoint(barred):
                return y
            continue
        got = by_lighter.get(j)
        if got is None:
            by_lighter[j] = [y]
        else:
            got.append(y)
    return None


def wall_broken(puzzle: AkariPuzzle, state: State, w: int, chosen: tuple[int, ...], barred: frozenset[int]
                ) -> bool:
    """Would wall w touch too many bulbs, or have too few cells left for its bulbs?"""
    cands = state.cands
    have = could = 0
    for n in puzzle.white_neighbours[w]:
        if n in chosen or cands[n] == B_BULB:
            have += 1
        elif cands[n] == FREE and n not in barred:
            could += 1
    return have > puzzle.board[w] or have + could < puzzle.board[w]


def check_way(puzzle: AkariPuzzle, state: State, chosen: tuple[int, ...], shape: WayShape,
              old: Way | None = None, changed: frozenset[int] = frozenset()) -> Way:
    """Would bulbs on `chosen` (and none on the wall's other free cells; `shape`: what they
    touch) break a rule nearby: light each other, give a numbered wall too many or too few
    bulbs, or leave a cell no bulb can light?
    `old`: the same bulbs checked in a wider state, whose changed cells are `changed` (its
    unchosen cells the same, or more of them that are empty now); only what changed, and what
    a cell that left `unchosen` reached, is looked at again."""
    sight, white_neighbours = puzzle.sight, puzzle.white_neighbours
    if shape.clash:
        return Way(chosen, shape, frozenset(), True, frozenset())
    shone, barred = shape.shone, shape.barred
    same = old is not None and (old.barred is barred or old.barred == barred)
    if same and old.broken and old.read.isdisjoint(changed):
        return old
    if old is not None and old.broken:
        old, same = None, False
    walls = shape.walls
    for w in walls:
        if (old is None or not changed.isdisjoint(white_neighbours[w])) and wall_broken(puzzle, state, w, chosen, barred):
            return Way(chosen, shape, barred, True, frozenset(white_neighbours[w]))
    if old is None:
        # the cells it could leave dark: those a barred cell could light (lit now is lit for good)
        dark = set().union(barred, *(sight[x] for x in barred))
        dark -= shone
        dark.difference_update(chosen, lighting(puzzle, state).lit)
        lighters: dict[int, list[int]] = {}
        again: Iterable[int] = dark
    else:
        gone = changed.intersection(old.lighters)
        if same and not gone:
            return old
        lit = lighting(puzzle, state).lit
        lighters = dict(old.lighters)
        for j in gone:
            del lighters[j]
        again = [y for j in gone for y in old.lighters[j] if y not in lit]
    fresh: dict[int, list[int]] = {}
    unlightable = unlit_lighters(puzzle, state, again, barred, fresh)
    if unlightable is not None:
        return Way(chosen, shape, barred, True, sight[unlightable].union((unlightable,)))
    for j, ys in fresh.items():
        lighters[j] = lighters[j] + ys if j in lighters else ys
    read = old.read if same else frozenset().union(*(white_neighbours[w] for w in walls))
    return Way(chosen, shape, barred, False, read, walls, lighters)


@attrs.frozen(eq=False)
class WallWays:
    """The ways of placing one numbered wall's missing bulbs (none: nothing to choose), the
    step they give (None: nothing new) and every cell whose candidates that rests on: while
    none of them changes, neither does the step."""
    free: tuple[int, ...]
    ways: tuple[Way, ...]
    step: Deduction | None
    read: frozenset[int]


def wall_ways(puzzle: AkariPuzzle, state: State, w: int, old: WallWays | None = None,
              changed: frozenset[int] = frozenset()) -> WallWays:
    """The ways of wall w and their step; from `old`, its ways in a wider state whose changed
    cells are `changed`, each way is checked again only where that reaches."""
    n = puzzle.board[w]
    bulbs, free = wall_counts(puzzle, state, w)
    need = n - bulbs
    if not free or need <= 0 or need == len(free):
        return WallWays(tuple(free), (), None, frozenset(puzzle.white_neighbours[w]))
    if old is not None and old.ways and old.free == tuple(free):
        # the same free cells (so the same bulbs missing): the same ways, in the same order,
        # each with the same shape
        ways = tuple(check_way(puzzle, state, way.chosen, way.shape, way, changed) for way in old.ways)
        if old.step is None and all(way is kept for way, kept in zip(ways, old.ways)):
            # the same ways put nothing new in a wider state, so neither here (a cell decided
            # then stays decided): the same answer
            return old
    else:
        # the ways checked before, where only cells that are empty now have left the free ones
        before = ({way.chosen: way for way in old.ways}
                  if old is not None and old.ways and len(old.ways[0].chosen) == need else {})
        ways = tuple(check_way(puzzle, state, c, WayShape.of(puzzle, c, tuple(f for f in free if f not in c)),
                               before.get(c), changed)
                     for c in combinations(free, need))
    read = set(puzzle.white_neighbours[w]).union(*(way.read for way in ways), *(way.lighters for way in ways))
    good = [way for way in ways if not way.broken]
    if not good:
        return WallWays(tuple(free), ways, None, frozenset(read))
    always_bulb = set.intersection(*(set(way.chosen) for way in good))
    always_dark = frozenset.intersection(*(way.barred for way in good))
    read |= always_dark
    put = {x: BULB for x in always_bulb}
    put.update({x: EMPTY for x in always_dark if state.cands[x] == FREE and x not in always_bulb})
    d = Deduction.build(state, put=put, cells=[puzzle.cell(w)], region=free)
    if d:
        # its words only for a step (most walls' ways give none: nothing new to put)
        d.params.update({
            "n": n, "wall": puzzle.cell(w), "need": counted(need, "bulb"),
            "free": [puzzle.cell(f) for f in free], "total": len(ways), "rejected": len(ways) - len(good),
            "conclusion": describe_removals(puzzle, state, d.removals)})
    return WallWays(tuple(free), ways, d, frozenset(read))


def wall_combination_steps(puzzle: AkariPuzzle, state: State) -> dict[int, WallWays]:
    """wall_ways of every numbered wall, updated from a recent state's: only the walls that
    read a changed cell look again, so a step costs what it changes."""
    def full() -> dict:
        return {w: wall_ways(puzzle, state, w) for w in puzzle.numbered}

    def update(old: dict, _: tuple[int, ...], changed: list[int]) -> dict:
        changed_set = frozenset(changed)
        return {w: kept if kept.read.isdisjoint(changed_set) else wall_ways(puzzle, state, w, kept, changed_set)
                for w, kept in old.items()}

    # updated however many cells changed: a wall whose ways read none of them costs nothing,
    # and a remade one no more than in full()
    return state.derived("akari.wall-combinations", lambda: recent_of(
        puzzle, "akari.wall-combinations", limit=len(state.cands)).get(state, full, update))


@heuristic(id="akari.wall-combinations", genre=GENRE)
def wall_combinations(puzzle: AkariPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for ways in wall_combination_steps(puzzle, state).values():
        if ways.step is not None:
            yield ways.step


# --- chains of forced cells (level 4) ------------------------------------------------------
# What a person follows in their head from one assumption: a bulb lights its lines, a wall
# with its count reached keeps its other neighbours empty, a wall that needs all its free
# neighbours takes them, a dark cell with a single cell left to light it gets its bulb. Each
# forced cell remembers why (its premises), so the step shows only the chain that matters.
# The depth of a fact is one more than its deepest premise (the assumption is 0).

SHORT_CHAIN = 3     # a what-if of up to three links, near the cell
MIDDLE_CHAIN = 5    # level 4 looks for chains this long first,
LONG_CHAIN = 8      # then for chains up to this long, anywhere on the board


class Broken(Exception):
    def __init__(self, reason: str, premises: Iterable[int]):
        super().__init__(reason)
        self.reason, self.premises = reason, tuple(premises)


class Chain:
    """Forced cells that follow from assuming `value` at cell `start`, up to `depth` links."""

    def __init__(self, puzzle: AkariPuzzle, state: State, start: int, value: int, depth: int):
        self.puzzle, self.limit, self.start = puzzle, depth, start
        cands = state.cands
        # the state's chains share one copy of its candidates, each putting back what it wrote
        # (a copy per chain would cost a large board's size thousands of times a step)
        self.c = state.derived("akari.chain-board", lambda: list(cands))
        light = lighting(puzzle, state)
        self.lit_before, self.lighters_before = light.lit, light.lighters
        self.known_lighters = light.known_lighters
        self.lit: set[int] = set()         # lit by the chain's bulbs
        self.read: set[int] = set()        # cells whose candidates the chain looked at
        self.why: dict[int, tuple[int, str, object, tuple[int, ...]]] = {}   # var -> (value, rule, about, premises)
        self.depth: dict[int, int] = {}
        self.order: list[int] = []
        self.broken: Broken | None = None
        self.broken_depth = 0
        try:
            self._run(start, value)
        except Broken as b:
            # without its traceback, whose frames would hold the chain (and the state) in a
            # cycle that only the collector frees
            self.broken = b.with_traceback(None)
            self.broken_depth = 1 + max((self.depth.get(p, 0) for p in b.premises), default=0)
        finally:
            for v in self.order:        # every cell the chain wrote
                self.c[v] = cands[v]

    def value(self, v: int) -> int | None:
        return self.why[v][0] if v in self.why else None

    def _put(self, v: int, value: int) -> None:
        if value == BULB:
            self.c[v] = B_BULB
            self.lit.add(v)             # lit at once: a cell it lights is never counted dark
            self.lit |= self.puzzle.sight[v]
        else:
            self.c[v] = B_EMPTY

    def _set(self, vs: Iterable[int], value: int, rule: str, about, premises: Iterable[int], queue: list) -> None:
        """Facts v = value for each v of `vs`, found by `rule` from the same `premises` (worked
        out once: a wall forces its free cells together)."""
        premises = tuple(p for p in dict.fromkeys(premises) if p in self.why)
        d = 1 + max((self.depth[p] for p in premises), default=0)
        if d <= self.limit:
            for v in vs:
                self._record(v, value, rule, about, premises, d, queue)

    def _record(self, v: int, value: int, rule: str, about, premises: tuple[int, ...], d: int, queue: list
                ) -> None:
        """Fact v = value at depth d (at most the limit), found by `rule` from `premises`."""
        self._put(v, value)
        self.why[v] = (value, rule, about, premises)
        self.depth[v] = d
        self.order.append(v)
        queue.append(v)

    def _run(self, start: int, value: int) -> None:
        # the hot loop of every chain: the rules of a bulb and of a dark cell are written out
        # here (not called), which a large board's thousands of chains per step notice
        p, c, read, depth, limit = self.puzzle, self.c, self.read, self.depth, self.limit
        sight, walls_next_to, lit, lit_before = p.sight, p.walls_next_to, self.lit, self.lit_before
        lighters_before, known_lighters = self.lighters_before, self.known_lighters
        self._put(start, value)
        self.why[start] = (value, "assumed", None, ())
        depth[start] = 0
        self.order.append(start)
        queue = [start]
        k = 0
        while k < len(queue):
            v = queue[k]
            k += 1
            if c[v] == B_BULB:
                read |= sight[v]
                d = depth[v] + 1          # of the cells it lights
                for j in sight.in_board_order(v):
                    if c[j] == B_BULB:
                        raise Broken(f"the bulbs at {p.cell(v)} and {p.cell(j)} would light each other", [v, j])
                    if c[j] == FREE and d <= limit:
                        self._record(j, EMPTY, "lit", v, (v,), d, queue)
            for w in walls_next_to[v]:
                self._wall(w, queue)
            if c[v] == B_EMPTY:
                for y in sight.cell_and_lines(v):
                    if y in lit or y in lit_before:
                        continue
                    # dark cell y: forced when at most one cell is left that can light it (only
                    # cells free before the chain can light it now)
                    read.add(y)
                    lighter = -1
                    ways = known_lighters.get(y)
                    if ways is None:
                        ways = lighters_before(y)
                    for j in ways:
                        if c[j] == FREE:
                            if lighter >= 0:
                                read.add(lighter)
                                read.add(j)
                                break       # two ways left to light it: nothing forced
                            lighter = j
                    else:
                        self._dark(y, lighter, queue)

    def _wall(self, w: int, queue: list) -> None:
        p, c = self.puzzle, self.c
        n = p.board[w]
        around = p.white_neighbours[w]
        self.read.update(around)
        bulbs, free, empties = [], [], []
        for x in around:
            if c[x] == B_BULB:
                bulbs.append(x)
            elif c[x] == FREE:
                free.append(x)
            elif c[x] == B_EMPTY:
                empties.append(x)
        if len(bulbs) > n:
            raise Broken(f"the {n} at {p.cell(w)} would touch {len(bulbs)} bulbs", bulbs)
        if len(bulbs) + len(free) < n:
            raise Broken(f"the {n} at {p.cell(w)} could no longer get {counted(n, 'bulb')}", empties + bulbs)
        if free and len(bulbs) == n:
            self._set(free, EMPTY, "full", w, bulbs, queue)
        elif free and len(bulbs) + len(free) == n:
            self._set(free, BULB, "needs", w, empties + bulbs, queue)

    def _dark(self, y: int, lighter: int, queue: list) -> None:
        """Dark cell y with at most one cell left to light it (`lighter`, -1: none)."""
        p, c = self.puzzle, self.c
        self.read.update(p.sight[y])
        gone = [j for j in p.sight.cell_and_lines(y) if c[j] == B_EMPTY]
        if lighter < 0:
            raise Broken(f"no bulb could light {p.cell(y)}", gone)
        self._set((lighter,), BULB, "only", y, gone, queue)

    def trail(self, facts: Iterable[int]) -> list[int]:
        """The facts `facts` rest on, themselves included, in the order they were found."""
        seen: set[int] = set()
        stack = list(facts)
        while stack:
            v = stack.pop()
            if v in seen or v not in self.why:
                continue
            seen.add(v)
            stack.extend(self.why[v][3])
        return [v for v in self.order if v in seen]

    def story(self, facts: Iterable[int]) -> str:
        """The links of the chain behind `facts`, in words (the assumption left out)."""
        p = self.puzzle
        groups: dict[tuple[str, object], list[int]] = {}
        for v in self.trail(facts):
            value, rule, about, _ = self.why[v]
            if rule != "assumed":
                groups.setdefault((rule, about), []).append(v)
        parts = []
        for (rule, about), vs in groups.items():
            cells = [p.cell(v) for v in vs]
            if rule == "lit":
                parts.append(f"{p.cell(about)} would light {phrase_list(cells)}")
            elif rule == "full":
                parts.append(f"the {p.board[about]} at {p.cell(about)} would be full, so {phrase_list(cells)} "
                             f"would stay empty")
            elif rule == "needs":
                parts.append(f"the {p.board[about]} at {p.cell(about)} would need {phrase_list(cells)}")
            elif about == vs[0]:
                parts.append(f"{p.cell(about)} could only light itself")
            else:
                parts.append(f"only {phrase_list(cells)} could light {p.cell(about)}")
        return "; ".join(parts) if parts else "nothing more would follow"


def chain_candidates(puzzle: AkariPuzzle, state: State, focus, hops: int) -> list[int]:
    """Free cells near the focus (`hops` lines of sight and walls away), or all of them."""
    if focus is None:
        return [x for x in puzzle.whites if state.cands[x] == FREE]
    near = set(focus)
    for _ in range(hops):
        more = set(puzzle.around(frozenset(near)))
        for x in list(more):
            for w in puzzle.walls_next_to[x]:
                more.update(puzzle.white_neighbours[w])
        near |= more
    return sorted(x for x in near if puzzle.board[x] == WHITE and state.cands[x] == FREE)


def links(n: int) -> str:
    return "The assumption alone" if n == 0 else "A single link" if n == 1 else f"A chain of {n} links"


def refutations(puzzle: AkariPuzzle, state: State, cells: Iterable[int], values: tuple[int, ...], depth: int,
                shortest: int = 0) -> Iterator[Deduction]:
    """A cell whose value in `values` breaks a rule within `depth` links takes the other value
    (chains of `shortest` links or fewer are left to an easier technique)."""
    for chain in broken_chains(puzzle, state, cells, values, depth, shortest):
        yield refuted(puzzle, state, chain)


def broken_chains(puzzle: AkariPuzzle, state: State, cells: Iterable[int], values: tuple[int, ...], depth: int,
                  shortest: int = 0) -> Iterator[Chain]:
    # chains that broke no rule earlier, until a cell they read changes: kept with the puzzle,
    # so the count of what a step's level offers finds them too
    quiet = Remembered(puzzle.once("_akari_quiet_chains", dict), state)
    for x in cells:
        if out_of_time():
            return
        for value in values:
            if state.cands[x] != FREE:
                break
            key = (x, value, depth)
            if quiet.get(key, False):
                continue
            chain = Chain(puzzle, state, x, value, depth)
            if chain.broken is None:
                quiet.put(key, chain.read)
            elif chain.broken_depth - 1 > shortest:
                yield chain
                break


def refuted(puzzle: AkariPuzzle, state: State, chain: Chain) -> Deduction:
    """The step a broken chain gives: its cell takes the other value."""
    x, value = chain.start, chain.why[chain.start][0]
    other = EMPTY if value == BULB else BULB
    b = chain.broken
    return Deduction.build(state, put={x: other}, region=chain.trail(b.premises), params={
        "cell": puzzle.cell(x), "assumed": "held a bulb" if value == BULB else "stayed empty",
        "chain": chain.story(b.premises), "reason": b.reason, "links": links(chain.broken_depth - 1),
        "result": "is empty" if other == EMPTY else "holds a bulb"})


@heuristic(id="akari.bulb-chain", genre=GENRE)
def bulb_chain(puzzle: AkariPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    # a bulb's chain reads past one hop of the focus (a wall it fills forces cells further
    # on): the cells near the focus first, then every other, whose quiet chains are skipped
    # until a cell they read changes
    cells = chain_candidates(puzzle, state, focus, 1)
    if focus is not None:
        cells = near_then_the_rest(cells, chain_candidates(puzzle, state, None, 1))
    return refutations(puzzle, state, cells, (BULB,), SHORT_CHAIN)


@heuristic(id="akari.empty-chain", genre=GENRE)
def empty_chain(puzzle: AkariPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    return refutations(puzzle, state, chain_candidates(puzzle, state, focus, 1), (EMPTY,), SHORT_CHAIN)


# --- level 4 ------------------------------------------------------------------------------

def interchangeable_pairs(puzzle: AkariPuzzle, state: State) -> tuple[tuple[int, int], ...]:
    """Pairs of free, unlit cells beside no wall that see each other and whose lines reach the
    same unlit and the same free cells (so a bulb on one could as well be on the other), in
    board order; updated from a recent state's: a cell's answer changes only with a cell it
    sees or itself, a newly lit one included."""
    cands, lit = state.cands, lighting(puzzle, state).lit
    signatures: dict[int, tuple[int, tuple[frozenset[int], frozenset[int]]]] = {}

    def may_swap(x: int) -> bool:
        return cands[x] == FREE and not puzzle.walls_next_to[x] and x not in lit

    def signature(x: int) -> tuple[int, tuple[frozenset[int], frozenset[int]]]:
        # made once per cell, with its hash first: most pairs differ there (a large board
        # compares millions of pairs)
        got = signatures.get(x)
        if got is None:
            reach = puzzle.sight[x] | {x}
            sig = (frozenset(j for j in reach if j not in lit), frozenset(j for j in reach if cands[j] == FREE))
            got = signatures[x] = (hash(sig), sig)
        return got

    def pairs(cells: Iterable[int], later_only: bool) -> set[tuple[int, int]]:
        out = set()
        for x in cells:
            if may_swap(x):
                out.update((min(x, y), max(x, y)) for y in puzzle.sight[x]
                           if (y > x or not later_only) and may_swap(y) and signature(x) == signature(y))
        return out

    def update(old: tuple[tuple[int, int], ...], _: tuple[int, ...], changed: list[int]) -> tuple:
        bulbs = [c for c in changed if cands[c] == B_BULB]
        again = puzzle.around(frozenset(changed).union(*(puzzle.sight[b] for b in bulbs)))
        kept = {pair for pair in old if pair[0] not in again and pair[1] not in again}
        return tuple(sorted(kept | pairs(again, False)))

    return state.derived("akari.interchangeable", lambda: recent_of(puzzle, "akari.interchangeable", limit=CHANGES).get(
        state, lambda: tuple(sorted(pairs(puzzle.whites, True))), update))


@heuristic(id="akari.interchangeable-bulbs", genre=GENRE)
def interchangeable_bulbs(puzzle: AkariPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for x, y in interchangeable_pairs(puzzle, state):
        yield Deduction.build(state, put={x: EMPTY, y: EMPTY},
                              params={"first": puzzle.cell(x), "second": puzzle.cell(y)})


@heuristic(id="akari.long-chain", genre=GENRE)
def long_chain(puzzle: AkariPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Chains of up to MIDDLE_CHAIN links first, so a shorter one is shown where there is one."""
    cells = chain_candidates(puzzle, state, focus, 3)
    for depth, shortest in ((MIDDLE_CHAIN, SHORT_CHAIN), (LONG_CHAIN, MIDDLE_CHAIN)):
        yield from refutations(puzzle, state, cells, (BULB, EMPTY), depth, shortest)


# --- level 5 ------------------------------------------------------------------------------

def most_constrained_first(puzzle: AkariPuzzle, state: State) -> list[int]:
    """Cells beside unfinished walls and the few cells that can light a dark cell come first:
    a person tries a hypothesis where the choice is narrow."""
    light = lighting(puzzle, state)
    rank: dict[int, int] = {}
    for _, n, bulbs, free in open_walls(puzzle, state, None):
        for f in free:
            rank[f] = min(rank.get(f, 9), len(free) - (n - bulbs))
    for y in puzzle.whites:
        if out_of_time():
            break               # the trial that asked stops at once too
        if not light.is_lit(y):
            sources = light.lighters(y)
            for s_ in sources:
                rank[s_] = min(rank.get(s_, 9), len(sources))
    return sorted((x for x in puzzle.whites if state.cands[x] == FREE), key=lambda x: (rank.get(x, 9), x))


trial_and_error = register_probing(GENRE, candidates=most_constrained_first)

register_last_resort(GENRE)      # the deepening nested trial, unless registered above
