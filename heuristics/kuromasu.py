"""Kuromasu techniques, by level (spec/heuristics-catalogue.txt, KUROMASU).

A number sees itself plus the white cells in four directions; along each direction it sees
at least the white cells next to it (`lo`) and at most the cells up to the first shaded one
(`hi`), see grader.genres.kuromasu.reach. Shading and connectivity reasoning shared with other
genres is in heuristics/common/shading.py (the facts it reads: grader/kernels/shading.py).
"""
from __future__ import annotations

from itertools import product
from typing import Iterable, Iterator, Sequence

from grader.genres.kuromasu.model import DIRECTION_NAMES, KuromasuPuzzle, clue_range
from grader.core.engine import out_of_time
from grader.core.explain import counted
from grader.core.registry import heuristic, register_families
from grader.core.model import State
from grader.core.probing import PASSES, register_probing, register_last_resort
from grader.core.steps import Deduction
from grader.kernels.shading import B_SHADED, B_WHITE, FREE, SHADED, WHITE
from heuristics.common import shading

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
    for k in clues_near(puzzle, focus):
        los, his = view_of(puzzle, state, k)
        yield k, puzzle.clues[k], los, his


def view_of(puzzle: KuromasuPuzzle, state: State, k: int) -> tuple[list[int], list[int]]:
    """clue_range of the number at k, read once per state for every technique (it walks rays
    as long as the board; read-only)."""
    return state.derived(("kuromasu.view", k), lambda: clue_range(puzzle, state.cands, k))


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

def extensions(puzzle: KuromasuPuzzle, state: State, k: int, limit: int
               ) -> list[dict[int, int]] | None:
    """Every way the number at k can see exactly its count that breaks no rule nearby: each
    direction's length within what it can still see, the cell that ends it shadeable and not
    beside a shaded cell, and every number in the affected rows and columns still possible.
    None when there are more than `limit`."""
    lengths = view_lengths(puzzle, state, k, limit)
    if lengths is None:
        return None
    options = list(legal_ways(puzzle, state, k, lengths))
    return None if out_of_time() else options   # as if too many: a large open board lists long


def view_lengths(puzzle: KuromasuPuzzle, state: State, k: int, limit: int
                 ) -> list[tuple[int, int, int, int]] | None:
    """How far the number at k may see in each direction, every choice that adds up to its
    count (in order, the last direction varying fastest); None when there are more than
    `limit`."""
    n = puzzle.clues[k]
    los, his = view_of(puzzle, state, k)
    if count_ways(los, his, n - 1) > limit:
        return None
    return [(a, b, c, n - 1 - a - b - c)
            for a, b, c in product(*(range(lo, hi + 1) for lo, hi in zip(los[:3], his[:3])))
            if los[3] <= n - 1 - a - b - c <= his[3]]


def agreed_extension(puzzle: KuromasuPuzzle, state: State, k: int, limit: int
                     ) -> tuple[dict[int, int], int] | None:
    """What every way of `extensions` decides alike among the undecided cells, and how many
    ways there are; None when they agree on nothing new (or there are more than `limit`).
    The same answer as intersecting the whole list, but it stops at the first ways that
    disagree on every cell: the ways at the ends of each direction's range are tried first, as
    they disagree soonest. A number that gives nothing is most of a step's cost on a big board."""
    lengths = view_lengths(puzzle, state, k, limit)
    if not lengths:
        return None
    ends = {pick(lengths, key=lambda t: t[d]) for d in range(4) for pick in (min, max)}
    cands = state.cands
    agreed: dict[int, int] | None = None
    ways = 0
    for option in legal_ways(puzzle, state, k, sorted(ends) + [t for t in lengths if t not in ends]):
        ways += 1
        if agreed is None:
            agreed = {j: v for j, v in option.items() if cands[j] == FREE}
        else:
            agreed = {j: v for j, v in agreed.items() if option.get(j) == v}
        if not agreed:
            return None
    return None if agreed is None or out_of_time() else (agreed, ways)


def legal_ways(puzzle: KuromasuPuzzle, state: State, k: int,
               lengths: Iterable[tuple[int, int, int, int]]) -> Iterator[dict[int, int]]:
    """The ways, in the order of `lengths`, that break no rule nearby; stops when time is up."""
    for choice in lengths:
        if out_of_time():
            return
        option = legal(puzzle, state, extension(puzzle, k, choice))
        if option is not None:
            yield option


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


Ray = tuple[int, int, int]       # (number, direction, place on the ray)


def rays_at(puzzle: KuromasuPuzzle, state: State, j: int) -> tuple[list[Ray], list[Ray], bool]:
    """What a change at cell j can do to the numbers in its row and column: (the rays that may
    end at j, being undecided or white past what the number surely sees, so shading j ends them
    there; the rays whose sure view ends at j, so whitening j lengthens them; whether one of
    those numbers is impossible already). Read once per state and cell, for the cells the ways
    touch only: what every number sees would cost the board's size at every step."""
    def compute():
        may_end, sure_end, broken = [], [], False
        row, col = divmod(j, puzzle.cols)
        for c in puzzle.seen_by[j]:
            los, his = view_of(puzzle, state, c)
            if not 1 + sum(los) <= puzzle.clues[c] <= 1 + sum(his):
                broken = True
            r, k = divmod(c, puzzle.cols)
            if k == col:        # up or down from the number (the order of DIRECTIONS)
                d, at = (0, r - row - 1) if row < r else (1, row - r - 1)
            else:               # left or right
                d, at = (2, k - col - 1) if col < k else (3, col - k - 1)
            if los[d] <= at < his[d]:
                may_end.append((c, d, at))
                if at == los[d]:
                    sure_end.append((c, d, at))
        return may_end, sure_end, broken
    return state.derived(("kuromasu.rays-at", j), compute)


def legal(puzzle: KuromasuPuzzle, state: State, option: dict[int, int]) -> dict[int, int] | None:
    """The option with the neighbours of its shaded cells made white, or None when that
    breaks a rule: shaded cells touching, or a number in an affected line left impossible."""
    cands = state.cands
    trial: dict[int, int] = {}      # the cells the option decides (a copy of the board would
    for j, v in option.items():     # cost the board's size for every way)
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
    touched = {j: rays_at(puzzle, state, j) for j in changed}
    if any(broken for _, _, broken in touched.values()):
        return None         # a number in an affected line that no change can help
    # Only the rays that a change ends, or lengthens where the sure view ends, see differently,
    # and only from the change on: reading whole rays, or every ray through a changed cell,
    # would cost more the larger the board.
    hit: dict[int, dict[int, int]] = {}         # number -> direction -> the nearest shaded change
    for j in changed:
        shaded = trial[j] == B_SHADED
        may_end, sure_end, _ = touched[j]
        for c, d, at in may_end if shaded else sure_end:
            ends = hit.get(c)
            if ends is None:
                ends = hit[c] = {}
            if d not in ends:
                ends[d] = view_of(puzzle, state, c)[1][d]
            if shaded and at < ends[d]:
                ends[d] = at
    for c, ends in hit.items():
        los, his = view_of(puzzle, state, c)
        low, high = 1 + sum(los), 1 + sum(his)
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
    for k in clues_near(puzzle, focus):
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
