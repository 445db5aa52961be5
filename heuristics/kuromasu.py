"""Kuromasu techniques, by level (spec/heuristics-catalogue.txt, KUROMASU).

A number sees itself plus the white cells in four directions; along each direction it sees
at least the white cells next to it (`lo`) and at most the cells up to the first shaded one
(`hi`), see grader.genres.kuromasu.reach. Shading and connectivity reasoning shared with other
genres is in heuristics/common/shading.py (the facts it reads: grader/kernels/shading.py).
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, Sequence

from grader.genres.kuromasu.model import DIRECTION_NAMES, KuromasuPuzzle, clue_range, reach
from grader.core.engine import out_of_time, solve_memory
from grader.core.explain import counted
from grader.core.registry import heuristic, register_families
from grader.core.model import State
from grader.core.probing import PASSES, register_probing, register_last_resort
from grader.core.steps import Deduction
from grader.kernels.recent import Recent
from grader.kernels.shading import B_SHADED, B_WHITE, FREE, SHADED, WHITE
from heuristics.common import shading
from heuristics.common.focus import near_then_the_rest

GENRE = "kuromasu"
EXTENSION_LIMIT = 400      # most ways to extend one number that level 4 lists
HYPOTHESIS_LIMIT = 8       # most ways that level 5 follows one by one


def clues_near(puzzle: KuromasuPuzzle, focus: frozenset[int] | None) -> Iterable[int]:
    """Numbers whose row or column holds a changed cell."""
    if focus is None:
        return puzzle.numbered
    return sorted({k for f in focus for k in puzzle.seen_by[f]} | {f for f in focus if puzzle.clues[f] > 0})


def views(puzzle: KuromasuPuzzle, state: State, focus: frozenset[int] | None
          ) -> Iterator[tuple[int, int, list[int], list[int]]]:
    """(number cell, its number, the fewest and the most cells it can see in each direction)
    for the numbers near the focus."""
    table, clues = views_in(puzzle, state), puzzle.clues
    for k in clues_near(puzzle, focus):
        los, his = table[k]
        yield k, clues[k], los, his


class Lazy(dict):
    """A per-state table filled on first use of each key: one lookup of the state's memo per
    technique, not per key (legal() reads views a million times on a big board)."""

    def __init__(self, compute: Callable[[int], Any]):
        super().__init__()
        self.compute = compute

    def __missing__(self, key: int) -> Any:
        got = self[key] = self.compute(key)
        return got


def views_in(puzzle: KuromasuPuzzle, state: State) -> Lazy:
    """clue_range of each number, read once per state for every technique (it walks rays as
    long as the board; read-only); what a recent state read is taken over for the numbers
    whose lines nothing changed in, and the directions of the others that no change reached
    (reach reads a ray up to its first shaded cell)."""
    def update(old: Lazy, _, changed: list[int]) -> Lazy:
        return views_after(puzzle, state.cands, old, changed)
    return state.derived("kuromasu.views", lambda: recent_views(puzzle).get(
        state, lambda: fresh_views(puzzle, state.cands), update))


def recent_views(puzzle: KuromasuPuzzle) -> Recent:
    """The views of the last two states and of one come back to: on a small board, searching
    a longer list (recent_of keeps 48) for a state to update from costs more than it saves."""
    return puzzle.once("_recent_views", lambda: Recent(size=2, pins=1))


def fresh_views(puzzle: KuromasuPuzzle, cands: Sequence[int]) -> Lazy:
    return Lazy(lambda k: clue_range(puzzle, cands, k))


def views_after(puzzle: KuromasuPuzzle, cands: Sequence[int], old: Lazy, changed: Iterable[int]) -> Lazy:
    """views_in for `cands` from the views of a state it narrows (`old`), where the cells
    `changed` changed: a direction is read again only where a change lies within what its
    ray read, which is up to its first shaded cell."""
    views = fresh_views(puzzle, cands)
    views.update(old)
    redo: dict[int, set[int]] = {}
    for j in changed:
        for c, d, at in puzzle.seen_at[j]:
            view = views.get(c)
            if view is not None and at <= view[1][d]:
                redo.setdefault(c, set()).add(d)
    rays = puzzle.rays
    for c, directions in redo.items():
        los, his = views[c]
        los, his = list(los), list(his)
        for d in directions:
            los[d], his[d] = reach(cands, rays[c][d])
        views[c] = los, his
    return views


def view_of(puzzle: KuromasuPuzzle, state: State, k: int) -> tuple[list[int], list[int]]:
    """clue_range of the number at k (views_in)."""
    return views_in(puzzle, state)[k]


def names(puzzle: KuromasuPuzzle, cells: Iterable[int]) -> list:
    return [puzzle.cell(i) for i in sorted(cells)]


def extension(puzzle: KuromasuPuzzle, k: int, lengths: Sequence[int]) -> dict[int, int]:
    """The cells that seeing exactly `lengths` cells in each direction decides."""
    out = {}
    for ray, a in zip(puzzle.rays[k], lengths):
        for j in ray[:a]:
            out[j] = WHITE
        if a < len(ray):
            out[ray[a]] = SHADED
    return out


# The shading families of heuristics/common/shading.py: the rows of rules/techniques/kuromasu.yaml
# that name one.
register_families(GENRE, shading.FAMILIES)


# --- level 1 ------------------------------------------------------------------------------

@heuristic(id="kuromasu.already-seen", genre=GENRE)
def already_seen(puzzle: KuromasuPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    cands = state.cands
    for k, n, los, his in views(puzzle, state, focus):
        if 1 + sum(los) != n:
            continue
        cells = [ray[lo] for ray, lo in zip(puzzle.rays[k], los) if lo < len(ray) and cands[ray[lo]] == FREE]
        if not cells:
            continue        # a finished number: the usual case, so no deduction is built
        yield Deduction.build(state, put={j: SHADED for j in cells}, cells=[puzzle.cell(k)],
                              params={"n": n, "clue": puzzle.cell(k), "cells": names(puzzle, cells)})


# --- level 2 ------------------------------------------------------------------------------

@heuristic(id="kuromasu.all-visible", genre=GENRE)
def all_visible(puzzle: KuromasuPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    cands = state.cands
    for k, n, los, his in views(puzzle, state, focus):
        if 1 + sum(his) != n:
            continue
        cells = [j for ray, hi in zip(puzzle.rays[k], his) for j in ray[:hi] if cands[j] == FREE]
        if not cells:
            continue
        yield Deduction.build(state, put={j: WHITE for j in cells}, cells=[puzzle.cell(k)],
                              params={"n": n, "clue": puzzle.cell(k), "cells": names(puzzle, cells)})


@heuristic(id="kuromasu.last-direction", genre=GENRE)
def last_direction(puzzle: KuromasuPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for k, n, los, his in views(puzzle, state, focus):
        open_ = [d for d in range(4) if los[d] != his[d]]
        if len(open_) != 1:
            continue
        d = open_[0]
        seen = 1 + sum(los) - los[d]
        need = n - seen
        if not los[d] <= need <= his[d]:
            continue
        put = {j: v for j, v in extension(puzzle, k, [need if e == d else los[e] for e in range(4)]).items()
               if j in puzzle.rays[k][d]}
        yield Deduction.build(state, put=put, cells=[puzzle.cell(k)],
                              params={"n": n, "clue": puzzle.cell(k), "seen": counted(seen, "cell"),
                                      "need": counted(need, "cell"), "direction": DIRECTION_NAMES[d],
                                      "cells": shading.describe(puzzle, put)})


@heuristic(id="kuromasu.counting", genre=GENRE)
def counting(puzzle: KuromasuPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    cands = state.cands
    for k, n, los, his in views(puzzle, state, focus):
        for d in range(4):
            others = sum(his) - his[d]
            need = n - 1 - others
            if need <= los[d]:
                continue
            cells = [j for j in puzzle.rays[k][d][:need] if cands[j] == FREE]
            if not cells:
                continue
            ded = Deduction.build(state, put={j: WHITE for j in cells}, cells=[puzzle.cell(k)],
                                  params={"n": n, "clue": puzzle.cell(k), "others": counted(others, "cell"),
                                          "need": counted(need, "cell"), "direction": DIRECTION_NAMES[d],
                                          "cells": names(puzzle, cells)})
            if ded:
                yield ded
                break


# --- level 3 ------------------------------------------------------------------------------

@heuristic(id="kuromasu.would-break", genre=GENRE)
def would_break(puzzle: KuromasuPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """The cell that ends what a number surely sees, if white, would join the white cells
    beyond it: too many means it is shaded. A cell beside it, if shaded, would force it white:
    so that cell is white. (Shading too close is `counting`, at level 2.)"""
    cands = state.cands
    for k, n, los, _ in views(puzzle, state, focus):
        for d, ray in enumerate(puzzle.rays[k]):
            lo = los[d]
            if lo >= len(ray) or cands[ray[lo]] != FREE:
                continue
            end = lo + 1
            while end < len(ray) and cands[ray[end]] == B_WHITE:
                end += 1
            seen = 1 + sum(los) - lo + end
            if seen <= n:
                continue
            f = ray[lo]
            params = {"n": n, "clue": puzzle.cell(k), "seen": seen}
            yield Deduction.build(state, put={f: SHADED}, cells=[puzzle.cell(k)],
                                  params={**params, "cell": puzzle.cell(f), "assumed": "were white",
                                          "result": "is shaded"})
            return


# --- level 4 ------------------------------------------------------------------------------

Way = tuple[int, int, int, int]         # how many cells a number sees in each direction


def extensions(puzzle: KuromasuPuzzle, state: State, k: int, limit: int
               ) -> list[dict[int, int]] | None:
    """Every way the number at k can see exactly its count that breaks no rule nearby: each
    direction's length within what it can still see, the cell that ends it shadeable and not
    beside a shaded cell, and every number in the affected rows and columns still possible.
    None when there are more than `limit`."""
    lengths = view_lengths(puzzle, state, k, limit)
    if lengths is None:
        return None
    options = [option for _, option in legal_ways(puzzle, state, k, lengths)]
    return None if out_of_time() else options   # as if too many: a large open board lists long


def view_lengths(puzzle: KuromasuPuzzle, state: State, k: int, limit: int) -> list[Way] | None:
    """How far the number at k may see in each direction, every choice that adds up to its
    count (in order, the last direction varying fastest); None when there are more than
    `limit`."""
    n = puzzle.clues[k]
    los, his = view_of(puzzle, state, k)
    if count_ways(los, his, n - 1) > limit:
        return None
    return length_choices(los, his, n - 1)


def length_choices(los: Sequence[int], his: Sequence[int], total: int) -> list[Way]:
    """Every choice of four lengths within [lo, hi] that add up to `total`, the last varying
    fastest. Each loop keeps to the lengths the others can still make up: on an open board the
    plain product of the ranges is thousands of choices for a few hundred ways."""
    (l0, l1, l2, l3), (h0, h1, h2, h3) = los, his
    out = []
    for a in range(max(l0, total - h1 - h2 - h3), min(h0, total - l1 - l2 - l3) + 1):
        for b in range(max(l1, total - a - h2 - h3), min(h1, total - a - l2 - l3) + 1):
            rest = total - a - b
            for c in range(max(l2, rest - h3), min(h2, rest - l3) + 1):
                out.append((a, b, c, rest - c))
    return out


def agreed_extension(puzzle: KuromasuPuzzle, state: State, k: int, limit: int
                     ) -> tuple[dict[int, int], int] | None:
    """What every way of `extensions` decides alike among the undecided cells, and how many
    ways there are; None when they agree on nothing new (or there are more than `limit`).
    The same answer as intersecting the whole list, but it stops at the first ways that
    disagree on every cell: the ways at the ends of each direction's range are tried first, as
    they disagree soonest. A number that gives nothing is most of a step's cost on a big board.

    The ways that showed it last time (in any state of the solve) are tried before anything
    else: they usually still disagree, where the ends may agree for a long while. Only a
    `None` is taken from them, so the answer is the same whichever ways they are."""
    los, his = view_of(puzzle, state, k)
    if settled(puzzle, state, k, los, his):
        return None
    disagreeing = solve_memory().setdefault("kuromasu.disagreeing-ways", {})
    if k in disagreeing:
        # before listing the ways: the remembered ones add up to the count, so a way is
        # possible when each length is within what the number can see
        possible = [t for t in disagreeing[k] if all(lo <= a <= hi for lo, a, hi in zip(los, t, his))]
        if agreement(puzzle, state, k, possible)[0] == {}:
            return None
    lengths = view_lengths(puzzle, state, k, limit)
    if not lengths:
        return None
    ends = {pick(lengths, key=lambda t: t[d]) for d in range(4) for pick in (min, max)}
    agreed, ways, narrowing = agreement(puzzle, state, k, sorted(ends) + [t for t in lengths if t not in ends])
    if agreed == {}:
        disagreeing[k] = covering_ways(state, narrowing)
    return None if not agreed or out_of_time() else (agreed, ways)


def covering_ways(state: State, narrowing: list[tuple[Way, dict[int, int]]]) -> list[Way]:
    """Of the ways that narrowed an agreement to nothing (with what each decides), the first
    and as few others as still leave nothing agreed (greedy, the one that parts from the
    first on most cells still agreed on next): the next look tries them first, and each way
    it tries costs a legal() check."""
    (first, option), rest = narrowing[0], narrowing[1:]
    cands = state.cands
    left = {j for j, v in option.items() if cands[j] == FREE}
    apart = [(way, {j for j in left if other.get(j) != option[j]}) for way, other in rest]
    out = [first]
    while left:
        way, cells = max(apart, key=lambda way_cells: len(way_cells[1] & left))
        out.append(way)
        left -= cells
    return out


def settled(puzzle: KuromasuPuzzle, state: State, k: int, los: Sequence[int], his: Sequence[int]) -> bool:
    """Whether the number at k sees a settled view (the fewest and the most cells it can see
    are the same) and no shaded cell that ends it has an undecided neighbour: then its one
    way, if it adds up, decides nothing new (legal() would whiten those neighbours)."""
    if los != his:
        return False
    cands, neighbours = state.cands, puzzle.neighbours
    return not any(cands[u] == FREE for ray, lo in zip(puzzle.rays[k], los) if lo < len(ray)
                   for u in neighbours[ray[lo]])


def agreement(puzzle: KuromasuPuzzle, state: State, k: int, lengths: Iterable[Way]
              ) -> tuple[dict[int, int] | None, int, list[tuple[Way, dict[int, int]]]]:
    """What the legal ways among `lengths` decide alike among the undecided cells (None: no
    legal way), how many legal ways there are, and the ways that narrowed the agreement (with
    what each decides); it stops as soon as the agreement is empty."""
    cands = state.cands
    agreed: dict[int, int] | None = None
    ways = 0
    narrowing: list[tuple[Way, dict[int, int]]] = []
    for choice, option in legal_ways(puzzle, state, k, lengths):
        ways += 1
        if agreed is None:
            left = {j: v for j, v in option.items() if cands[j] == FREE}
        else:
            left = {j: v for j, v in agreed.items() if option.get(j) == v}
        if agreed is None or len(left) < len(agreed):
            narrowing.append((choice, option))
        agreed = left
        if not agreed:
            break
    return agreed, ways, narrowing


def legal_ways(puzzle: KuromasuPuzzle, state: State, k: int, lengths: Iterable[Way]
               ) -> Iterator[tuple[Way, dict[int, int]]]:
    """The ways, in the order of `lengths`, that break no rule nearby, each with what it
    decides; stops when time is up. A way whose end cell cannot be shaded with its neighbours
    white is dropped without the whole check (legal() would find that too, after more work)."""
    fits: tuple[dict[int, bool], ...] = ({}, {}, {}, {})    # direction -> length -> end_fits
    for choice in lengths:
        if out_of_time():
            return
        for d, a in enumerate(choice):
            fit = fits[d].get(a)
            if fit is None:
                fit = fits[d][a] = end_fits(puzzle, state, k, d, a)
            if not fit:
                break
        else:
            option = legal(puzzle, state, extension(puzzle, k, choice))
            if option is not None:
                yield choice, option


def end_fits(puzzle: KuromasuPuzzle, state: State, k: int, d: int, a: int) -> bool:
    """Whether the cell that ends a view of exactly `a` cells in direction d (if any) can be
    shaded with its neighbours white."""
    ray = puzzle.rays[k][d]
    if a == len(ray):
        return True
    cands = state.cands
    end = ray[a]
    return bool(cands[end] & B_SHADED) and all(cands[u] & B_WHITE for u in puzzle.neighbours[end])


def count_ways(los: Sequence[int], his: Sequence[int], total: int) -> int:
    """How many length choices, one per direction within [lo, hi], add up to `total`."""
    ways = {0: 1}
    for lo, hi in zip(los, his):
        nxt: dict[int, int] = {}
        for s, w in ways.items():
            for a in range(lo, min(hi, total - s) + 1):
                nxt[s + a] = nxt.get(s + a, 0) + w
        ways = nxt
    return ways.get(total, 0)


# (number, direction, place on the ray, the number's view: fewest and most cells in each
# direction, and in all, itself included)
Ray = tuple[int, int, int, list[int], list[int], int, int]


def rays_at(puzzle: KuromasuPuzzle, state: State) -> Lazy:
    """Per cell j, what a change at j can do to the numbers in its row and column (ray_ends).
    Read once per state and cell, for the cells the ways touch only: what every number sees
    would cost the board's size at every step. What a recent state read is taken over for
    the cells whose row and column hold no number whose view changed (rays_after)."""
    return state.derived("kuromasu.rays-at", lambda: recent_rays(puzzle).get(
        state, lambda: fresh_rays(puzzle, state), lambda old, _, changed: rays_after(puzzle, state, old, changed)))


def recent_rays(puzzle: KuromasuPuzzle) -> Recent:
    """As recent_views: the last two states and one come back to."""
    return puzzle.once("_recent_rays", lambda: Recent(size=2, pins=1))


def fresh_rays(puzzle: KuromasuPuzzle, state: State) -> Lazy:
    """rays_at with nothing filled in; `views` is the state's views it reads."""
    views = views_in(puzzle, state)
    rays = Lazy(lambda j: ray_ends(puzzle, views, j))
    rays.views = views
    return rays


def rays_after(puzzle: KuromasuPuzzle, state: State, old: Lazy, changed: list[int]) -> Lazy:
    """rays_at of `state` from that of a recent state (`old`), where the cells `changed`
    changed: an entry reads only the views of the numbers in its cell's row and column, and
    only the views of numbers in the lines of a changed cell can differ."""
    rays = fresh_rays(puzzle, state)
    views, old_views, seen_by = rays.views, old.views, puzzle.seen_by
    moved = {c for j in changed for c in seen_by[j] if c in old_views and old_views[c] != views[c]}
    cols = puzzle.cols
    rows_moved, cols_moved = {c // cols for c in moved}, {c % cols for c in moved}
    rays.update((j, ends) for j, ends in old.items() if j // cols not in rows_moved and j % cols not in cols_moved)
    return rays


def ray_ends(puzzle: KuromasuPuzzle, views: Lazy, j: int) -> tuple[list[Ray], list[Ray], bool]:
    """(the rays that may end at j, being undecided or white past what the number surely sees,
    so shading j ends them there; the rays whose sure view ends at j, so whitening j lengthens
    them; whether one of the numbers in j's row and column is impossible already)."""
    may_end, sure_end, broken = [], [], False
    clues = puzzle.clues
    for c, d, at in puzzle.seen_at[j]:
        los, his = views[c]
        low, high = 1 + sum(los), 1 + sum(his)
        if not low <= clues[c] <= high:
            broken = True
        if los[d] <= at < his[d]:
            ray = (c, d, at, los, his, low, high)
            may_end.append(ray)
            if at == los[d]:
                sure_end.append(ray)
    return may_end, sure_end, broken


def legal(puzzle: KuromasuPuzzle, state: State, option: dict[int, int]) -> dict[int, int] | None:
    """The option with the neighbours of its shaded cells made white, or None when that
    breaks a rule: shaded cells touching, or a number in an affected line left impossible."""
    cands = state.cands
    trial: dict[int, int] = {}      # the cells the option decides (a copy of the board would
    for j, v in option.items():     # cost the board's size for every way)
        if v == WHITE and cands[j] == B_WHITE:
            continue                # white already (most of what a number surely sees)
        trial[j] = cands[j] & 1 << v
        if not trial[j]:
            return None
    out = dict(option)
    for j, v in option.items():
        if v == SHADED:
            for u in puzzle.neighbours[j]:
                if not trial.get(u, cands[u]) & B_WHITE:
                    return None
                trial[u] = B_WHITE
                out[u] = WHITE
    changed = [j for j, m in trial.items() if m != cands[j]]
    ends_at = rays_at(puzzle, state)
    touched = {j: ends_at[j] for j in changed}
    if any(broken for _, _, broken in touched.values()):
        return None         # a number in an affected line that no change can help
    # Only the rays that a change ends, or lengthens where the sure view ends, see differently,
    # and only from the change on: reading whole rays, or every ray through a changed cell,
    # would cost more the larger the board.
    # number -> (one of its Rays, for its view; direction -> the nearest shaded change)
    hit: dict[int, tuple[Ray, dict[int, int]]] = {}
    for j in changed:
        shaded = trial[j] == B_SHADED
        may_end, sure_end, _ = touched[j]
        for ray in may_end if shaded else sure_end:
            c, d, at = ray[0], ray[1], ray[2]
            seen = hit.get(c)
            if seen is None:
                seen = hit[c] = (ray, {})
            ends = seen[1]
            if d not in ends:
                ends[d] = ray[4][d]
            if shaded and at < ends[d]:
                ends[d] = at
    for c, ((_, _, _, los, his, low, high), ends) in hit.items():
        rays = puzzle.rays[c]
        for d, hi in ends.items():
            ray, lo = rays[d], los[d]
            while lo < hi and trial.get(ray[lo], cands[ray[lo]]) == B_WHITE:
                lo += 1
            low += lo - los[d]
            high += hi - his[d]
        if not low <= puzzle.clues[c] <= high:
            return None
    return out


@heuristic(id="kuromasu.extensions", genre=GENRE)
def extension_intersection(puzzle: KuromasuPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    # a way reads the views of the numbers in the lines of the cells it changes, and those
    # lines cross every number's: the numbers near the focus first, then every other
    numbers = puzzle.numbered if focus is None else near_then_the_rest(clues_near(puzzle, focus), puzzle.numbered)
    for k in numbers:
        if out_of_time():
            return
        found = agreed_extension(puzzle, state, k, EXTENSION_LIMIT)
        if found is None:
            continue
        put, ways = found
        yield Deduction.build(state, put=put, cells=[puzzle.cell(k)],
                              params={"n": puzzle.clues[k], "clue": puzzle.cell(k),
                                      "ways": counted(ways, "way"),
                                      "every": "that way" if ways == 1 else "all of them",
                                      "cells": shading.describe(puzzle, put)})


# --- level 5 ------------------------------------------------------------------------------

@heuristic(id="kuromasu.extension-hypotheses", genre=GENRE)
def extension_hypotheses(puzzle: KuromasuPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    order = []
    for k in puzzle.numbered:
        options = extensions(puzzle, state, k, 4 * HYPOTHESIS_LIMIT)
        if options and 1 < len(options) <= HYPOTHESIS_LIMIT:
            order.append((len(options), k, options))
    clues = [(k, options) for _, k, options in sorted(order, key=lambda t: (t[0], t[1]))]
    for k, d in shading.way_hypotheses(puzzle, state, clues, lambda k, o: way_label(puzzle, k, o), PASSES):
        yield Deduction(d.removals, {**d.params, "n": puzzle.clues[k], "clue": puzzle.cell(k)},
                        cells=(puzzle.cell(k),), detail=d.detail)


def way_label(puzzle: KuromasuPuzzle, k: int, option: dict[int, int]) -> str:
    lengths = [sum(1 for j in ray if option.get(j) == WHITE) for ray in puzzle.rays[k]]
    return "seeing " + ", ".join(f"{a} {name}" for a, name in zip(lengths, DIRECTION_NAMES))


TRIAL = register_probing(GENRE)

register_last_resort(GENRE)      # the deepening nested trial, unless registered above
