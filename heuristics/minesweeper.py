"""Minesweeper techniques, by level (spec/heuristics-catalogue.txt, MINESWEEPER).

A number "needs" as many more mines as it shows minus the mines already beside it, among its
undecided neighbours. `focus` holds the cells changed since a technique last found nothing, so
only the numbers beside them are read again.
"""
from __future__ import annotations

from itertools import combinations
from typing import Iterable, Iterator

from grader.core.explain import counted, describe_removals
from grader.genres.minesweeper.model import (B_MINE, B_SAFE, FREE, MINE, SAFE, MinesPuzzle,
                                             mine_totals, number_counts)
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.probing import branch_deduction, register_probing, register_last_resort
from grader.core.steps import Deduction

GENRE = "minesweeper"
CASES_MAX = 10          # a number with at most this many ways to place its mines is split on
LOOKAHEADS = (12, 400)   # steps per case: a quick look first, then a long one


def numbers_to_check(puzzle: MinesPuzzle, focus: frozenset[int] | None) -> Iterable[int]:
    return puzzle.numbers if focus is None else puzzle.numbers_near(focus)


def numbers_with_partners(puzzle: MinesPuzzle, focus: frozenset[int] | None) -> Iterable[int]:
    """The numbers beside the focus and the numbers near them, in board order: what a look at
    a pair or an area of numbers must read again when either number's cells changed."""
    if focus is None:
        return puzzle.numbers
    return sorted({m for i in puzzle.numbers_near(focus) for m in (i, *puzzle.nearby_numbers[i])})


def open_numbers(puzzle: MinesPuzzle, state: State, focus) -> Iterator[tuple[int, int, list[int]]]:
    """(number cell, mines it still needs, its undecided neighbours) for numbers with work left."""
    for i in numbers_to_check(puzzle, focus):
        mines, free = number_counts(puzzle, state, i)
        if free:
            yield i, puzzle.board[i] - mines, free


def mines_left(puzzle: MinesPuzzle, state: State) -> tuple[int, list[int]]:
    """(mines still hidden, the covered cells) by the mine count; (0, []) when the puzzle gives
    no count, so there is nothing to learn from it."""
    if puzzle.total is None:
        return 0, []
    placed, free = mine_totals(puzzle, state)
    return puzzle.total - placed, free


def cells(puzzle: MinesPuzzle, vs: Iterable[int]) -> list:
    return [puzzle.cell(v) for v in sorted(vs)]


def settle(safe: Iterable[int] = (), mines: Iterable[int] = ()) -> dict[int, int]:
    """What to put: these cells safe, those cells mines."""
    out = {v: SAFE for v in safe}
    out.update({v: MINE for v in mines})
    return out


def outcome(puzzle: MinesPuzzle, safe: Iterable[int] = (), mines: Iterable[int] = ()) -> str:
    parts = []
    safe, mines = sorted(safe), sorted(mines)
    if mines:
        parts.append(f"{_names(puzzle, mines)} {'holds a mine' if len(mines) == 1 else 'hold mines'}")
    if safe:
        parts.append(f"{_names(puzzle, safe)} {'is safe' if len(safe) == 1 else 'are safe'}")
    return " and ".join(parts)


def all_or_none(puzzle: MinesPuzzle, cells: Iterable[int], mines: int) -> tuple[dict[int, int], str] | None:
    """`mines` of these cells hold mines: when that is none or all of them, what to put and
    how to say it; otherwise None."""
    cells = list(cells)
    if mines == 0:
        return settle(safe=cells), outcome(puzzle, safe=cells)
    if mines == len(cells):
        return settle(mines=cells), outcome(puzzle, mines=cells)
    return None


def _names(puzzle: MinesPuzzle, vs: list[int]) -> str:
    from grader.core.explain import phrase_list
    return phrase_list(puzzle.cell(v) for v in vs)


# --- level 1 ------------------------------------------------------------------------------

@heuristic(id="minesweeper.broken-number", genre=GENRE)
def broken_number(puzzle: MinesPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for i in numbers_to_check(puzzle, focus):
        n = puzzle.board[i]
        mines, free = number_counts(puzzle, state, i)
        if mines > n or mines + len(free) < n:
            problem = (f"already touches {mines} mines" if mines > n
                       else f"can touch at most {mines + len(free)} mines")
            yield Deduction.build(state, keep={puzzle.around[i][0]: 0}, cells=[puzzle.cell(i)],
                                  params={"n": n, "cell": puzzle.cell(i), "problem": problem})
            return


@heuristic(id="minesweeper.number-satisfied", genre=GENRE)
def number_satisfied(puzzle: MinesPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for i, need, free in open_numbers(puzzle, state, focus):
        if need == 0:
            n = puzzle.board[i]
            yield Deduction.build(state, put=settle(safe=free), cells=[puzzle.cell(i)],
                                  params={"n": n, "cell": puzzle.cell(i), "mines": counted(n, "mine"),
                                          "outcome": outcome(puzzle, safe=free)})


@heuristic(id="minesweeper.number-needs-all", genre=GENRE)
def number_needs_all(puzzle: MinesPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for i, need, free in open_numbers(puzzle, state, focus):
        if 0 < need == len(free):
            yield Deduction.build(state, put=settle(mines=free), cells=[puzzle.cell(i)],
                                  params={"n": puzzle.board[i], "cell": puzzle.cell(i),
                                          "need": counted(need, "more mine"),
                                          "outcome": outcome(puzzle, mines=free)})


@heuristic(id="minesweeper.no-mines-left", genre=GENRE)
def no_mines_left(puzzle: MinesPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    left, free = mines_left(puzzle, state)
    if free and left == 0:
        yield Deduction.build(state, put=settle(safe=free),
                              params={"total": puzzle.total, "count": "the remaining covered cells",
                                      "outcome": f"({_names(puzzle, free)}) are safe"})


@heuristic(id="minesweeper.all-left-are-mines", genre=GENRE)
def all_left_are_mines(puzzle: MinesPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    left, free = mines_left(puzzle, state)
    if free and left == len(free):
        yield Deduction.build(state, put=settle(mines=free),
                              params={"left": left, "total": puzzle.total,
                                      "outcome": outcome(puzzle, mines=free)})


# --- level 2 ------------------------------------------------------------------------------

def pairs(puzzle: MinesPuzzle, state: State, numbers: Iterable[int]) -> Iterator[tuple[tuple[int, int, set[int]],
                                                                        tuple[int, int, set[int]]]]:
    """Pairs of numbers with work left whose covered cells overlap, each as (cell, need, free),
    the first of each pair from `numbers`."""
    info = {}

    def get(i: int):
        if i not in info:
            mines, free = number_counts(puzzle, state, i)
            info[i] = (i, puzzle.board[i] - mines, set(free))
        return info[i]
    for i in numbers:
        a = get(i)
        if not a[2]:
            continue
        for j in puzzle.nearby_numbers[i]:
            b = get(j)
            if b[2] and a[2] & b[2]:
                yield a, b


@heuristic(id="minesweeper.subset", genre=GENRE)
def subset(puzzle: MinesPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    # The pair is ordered (smaller, larger): a change beside only the larger number must
    # bring the smaller one in as the pair's first.
    for (a, need_a, fa), (b, need_b, fb) in pairs(puzzle, state, numbers_with_partners(puzzle, focus)):
        if not fa < fb:
            continue
        diff = need_b - need_a
        settled = all_or_none(puzzle, fb - fa, diff)
        if settled is None:
            continue
        put, out = settled
        yield Deduction.build(state, put=put, cells=[puzzle.cell(a), puzzle.cell(b)], region=sorted(fa),
                              params={"n1": puzzle.board[a], "a": puzzle.cell(a),
                                      "need1": counted(need_a, "mine"), "cells1": cells(puzzle, fa),
                                      "n2": puzzle.board[b], "b": puzzle.cell(b),
                                      "need2": counted(need_b, "mine"), "extra": counted(diff, "mine"),
                                      "outcome": out})


@heuristic(id="minesweeper.overlap", genre=GENRE)
def overlap(puzzle: MinesPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for (a, need_a, fa), (b, need_b, fb) in pairs(puzzle, state, numbers_to_check(puzzle, focus)):
        shared, only_a, only_b = fa & fb, fa - fb, fb - fa
        lo = max(need_a - len(only_a), need_b - len(only_b), 0)
        hi = min(need_a, need_b, len(shared))
        if lo > hi:
            continue
        safe, mines = set(), set()
        for need, own in ((need_a, only_a), (need_b, only_b)):
            if own and need - lo == 0:
                safe |= own
            elif own and need - hi == len(own):
                mines |= own
        if not safe and not mines:
            continue
        between = counted(lo, "mine") if lo == hi else f"between {lo} and {hi} mines"
        yield Deduction.build(state, put=settle(safe, mines), cells=[puzzle.cell(a), puzzle.cell(b)],
                              region=sorted(shared),
                              params={"n1": puzzle.board[a], "a": puzzle.cell(a),
                                      "need1": counted(need_a, "mine"), "n2": puzzle.board[b],
                                      "b": puzzle.cell(b), "need2": counted(need_b, "mine"),
                                      "shared": cells(puzzle, shared), "between": between,
                                      "outcome": outcome(puzzle, safe, mines)})


COMBINATIONS_KEPT = 10_000     # remembered answers of legal_combinations (a key: up to 49 cells)


def combination_reads(puzzle: MinesPuzzle) -> tuple[tuple[int, ...], ...]:
    """The cells legal_combinations reads for each number (by cell; () elsewhere): its own
    covered neighbours and those of the numbers sharing them."""
    def make() -> tuple[tuple[int, ...], ...]:
        out: list[tuple[int, ...]] = [()] * puzzle.size
        around = puzzle.around
        for i in puzzle.numbers:
            out[i] = tuple(sorted({v for j in (i, *puzzle.nearby_numbers[i]) for v in around[j]}))
        return tuple(out)
    return puzzle.once("_minesweeper_combination_reads", make)


def legal_combinations(puzzle: MinesPuzzle, state: State, i: int, need: int, free: list[int]
                       ) -> tuple[int, tuple[frozenset[int], ...], tuple[int, ...]]:
    """Every way to place a number's missing mines that the numbers sharing its cells allow:
    (all ways, the legal ones, the neighbours that were checked). Remembered with the
    candidates of every cell it reads (the count-of-offers looks at every number again on
    each counted step, most of them unchanged)."""
    cands = state.cands
    key = (i, tuple([cands[v] for v in combination_reads(puzzle)[i]]))
    memo = puzzle.memo("_minesweeper_legal_combinations", COMBINATIONS_KEPT)
    got = memo.get(key)
    if got is None:
        got = memo[key] = _legal_combinations(puzzle, state, i, need, free)
    return got


def _legal_combinations(puzzle: MinesPuzzle, state: State, i: int, need: int, free: list[int]
                        ) -> tuple[int, tuple[frozenset[int], ...], tuple[int, ...]]:
    others = []
    for j in puzzle.nearby_numbers[i]:
        mines, fj = number_counts(puzzle, state, j)
        if fj:
            others.append((j, puzzle.board[j] - mines, set(fj)))
    fset = set(free)
    legal, ways = [], 0
    for combo in combinations(free, need):
        ways += 1
        chosen = set(combo)
        ok = True
        for j, need_j, fj in others:
            placed = len(chosen & fj)
            if placed > need_j or placed + len(fj - fset) < need_j:
                ok = False
                break
        if ok:
            legal.append(frozenset(chosen))
    return ways, tuple(legal), tuple(j for j, _, _ in others)     # shared by the memo: kept whole


@heuristic(id="minesweeper.combinations", genre=GENRE)
def combinations_around(puzzle: MinesPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    seen = set()
    targets = numbers_with_partners(puzzle, focus)
    for i in targets:
        if i in seen:
            continue
        seen.add(i)
        mines, free = number_counts(puzzle, state, i)
        need = puzzle.board[i] - mines
        if not free or not 0 < need < len(free):
            continue
        ways, legal, others = legal_combinations(puzzle, state, i, need, free)
        if not legal:
            continue
        always = frozenset.intersection(*legal)
        never = set(free) - frozenset.union(*legal)
        if always or never:
            yield Deduction.build(state, put=settle(never, always), cells=[puzzle.cell(i)],
                                  region=free, premises=[],
                                  params={"ways": ways, "need": counted(need, "mine"), "n": puzzle.board[i],
                                          "cell": puzzle.cell(i),
                                          "legal": "one" if len(legal) == 1 else str(len(legal)),
                                          "outcome": outcome(puzzle, never, always)})


# --- level 3 ------------------------------------------------------------------------------

AREA_MAX = 14           # covered cells one area search may look at
AREA_FILLS_KEPT = 10_000     # remembered answers of area_solutions


def area_solutions(puzzle: MinesPuzzle, state: State, area: list[int]) -> tuple[int, ...] | None:
    """Which values each cell of `area` takes over every way to fill the area that no number
    touching it (and not the mine count) forbids; None when there is no way at all."""
    pos = {v: k for k, v in enumerate(area)}
    checks = []                      # (number's cells in the area, fewest and most mines there)
    for i in sorted({m for v in area for m in puzzle.numbers_next_to[v]}):
        mines, free = number_counts(puzzle, state, i)
        inside = [pos[v] for v in free if v in pos]
        need = puzzle.board[i] - mines
        checks.append((tuple(inside), max(need - (len(free) - len(inside)), 0), need))
    if puzzle.total is not None:
        placed, free = mine_totals(puzzle, state)
        left = puzzle.total - placed
        checks.append((tuple(range(len(area))), max(left - (len(free) - len(area)), 0), left))
    # the answer reads the checks alone: remembered by them (the count of offers searches
    # every area again on each counted step, most of them unchanged)
    key = (len(area), tuple(checks))
    memo = puzzle.memo("_minesweeper_area_fills", AREA_FILLS_KEPT)
    seen = memo.get(key)
    if seen is None:
        fill = _AreaFill(checks, len(area))
        fill.extend(0)
        seen = memo[key] = tuple(fill.seen) if any(fill.seen) else ()
    return seen or None


class _AreaFill:
    """The ways to fill an area's cells that its checks allow, searched depth first, and the
    values each cell has shown (`seen`). A class, not a closure: a closure that calls itself
    is a cycle, left to the collector."""

    def __init__(self, checks: list[tuple[tuple[int, ...], int, int]], size: int):
        self.checks = checks
        self.seen = [0] * size
        self.values = [0] * size
        self.placed = [0] * len(checks)                    # mines put so far in each check's cells
        self.unset = [len(ks) for ks, _, _ in checks]      # its cells not yet given a value
        self.touching = [[c for c, (ks, _, _) in enumerate(checks) if k in ks] for k in range(size)]

    def extend(self, k: int) -> bool:
        """Extend the assignment from cell k; True once every cell has shown both values."""
        values, seen, placed, unset, checks = self.values, self.seen, self.placed, self.unset, self.checks
        if k == len(values):
            for j, v in enumerate(values):
                seen[j] |= 1 << v
            return all(m == B_SAFE | B_MINE for m in seen)
        touching = self.touching[k]
        for v in (SAFE, MINE):
            values[k] = v
            fits = True
            for c in touching:
                unset[c] -= 1
                placed[c] += v
                _, lo, hi = checks[c]
                fits = fits and lo <= placed[c] + unset[c] and placed[c] <= hi
            done = fits and self.extend(k + 1)
            for c in touching:
                unset[c] += 1
                placed[c] -= v
            if done:
                return True
        return False


@heuristic(id="minesweeper.area-search", genre=GENRE)
def area_search(puzzle: MinesPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    targets = numbers_with_partners(puzzle, focus)
    for i in targets:
        mines, free = number_counts(puzzle, state, i)
        if not free:
            continue
        area = set(free)
        for j in puzzle.nearby_numbers[i]:
            area.update(number_counts(puzzle, state, j)[1])
        if len(area) > AREA_MAX:
            continue
        cells_ = sorted(area)
        seen = area_solutions(puzzle, state, cells_)
        if seen is None:
            continue
        safe = [v for v, m in zip(cells_, seen) if m == B_SAFE]
        mines_ = [v for v, m in zip(cells_, seen) if m == B_MINE]
        yield Deduction.build(state, put=settle(safe, mines_), cells=[puzzle.cell(i)], region=cells_,
                              params={"n": puzzle.board[i], "cell": puzzle.cell(i),
                                      "area": cells(puzzle, cells_), "outcome": outcome(puzzle, safe, mines_)})


# --- level 4 ------------------------------------------------------------------------------

@heuristic(id="minesweeper.mine-count-regions", genre=GENRE)
def mine_count_regions(puzzle: MinesPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    left, free = mines_left(puzzle, state)
    if not free:
        return
    groups = []
    for i in puzzle.numbers:
        m, f = number_counts(puzzle, state, i)
        if f:
            groups.append((puzzle.board[i] - m, len(f), i, set(f)))
    # disjoint numbers, those needing the most mines per cell first
    groups.sort(key=lambda g: (-g[0] / g[1], g[2]))
    used: set[int] = set()
    chosen = []
    for need, _, i, f in groups:
        if not f & used:
            used |= f
            chosen.append((i, need))
    outside = [v for v in free if v not in used]
    need = sum(n for _, n in chosen)
    if not outside or not chosen:
        return
    rest = left - need
    settled = all_or_none(puzzle, outside, rest)
    if settled is None:
        return
    put, out = settled
    yield Deduction.build(state, put=put, cells=[puzzle.cell(i) for i, _ in chosen], region=sorted(used),
                          params={"left": left, "numbers": cells(puzzle, [i for i, _ in chosen]),
                                  "need": counted(need, "mine"), "rest": counted(rest, "mine"),
                                  "outcome": out})


# --- level 5 ------------------------------------------------------------------------------

@heuristic(id="minesweeper.number-cases", genre=GENRE)
def number_cases(puzzle: MinesPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    options = []
    for i, need, free in open_numbers(puzzle, state, None):
        if 0 < need < len(free):
            ways, legal, _ = legal_combinations(puzzle, state, i, need, free)
            if 2 <= len(legal) <= CASES_MAX:
                options.append((len(legal), i, free, legal))
    options.sort(key=lambda o: (o[0], o[1]))
    for steps in LOOKAHEADS:              # short look-aheads first: they read best and cost least
        for _, i, free, legal in options:
            assumptions = []
            for combo in legal:
                cands = list(state.cands)
                for v in free:
                    cands[v] = B_MINE if v in combo else B_SAFE
                assumptions.append((f"mines at {_names(puzzle, sorted(combo))}", State(tuple(cands)), free))
            d = branch_deduction(puzzle, state, assumptions, max_steps=steps)
            if d is not None:
                yield Deduction(d.removals, {**d.params, "n": puzzle.board[i], "cell": puzzle.cell(i),
                                             "outcome": cases_outcome(puzzle, state, d)},
                                cells=(puzzle.cell(i),), region=tuple(free), detail=d.detail)
                return


def cases_outcome(puzzle: MinesPuzzle, state: State, d: Deduction) -> str:
    """'2 of them survive, and those agree that ...' for a case split."""
    live = sum(1 for b in d.detail if not b.refuted)
    who = "they all agree" if live == len(d.detail) else f"{live} of them survive, and those agree"
    return f"{who} that {describe_removals(puzzle, state, d.removals)}"


def frontier(puzzle: MinesPuzzle, state: State) -> list[int]:
    """Covered cells beside a number (the rest only matter through the mine count)."""
    near = {u for i in puzzle.numbers for u in puzzle.around[i] if state.cands[u] == FREE}
    if puzzle.total is not None and not near:
        return [u for u in puzzle.unknowns if state.cands[u] == FREE]
    return sorted(near)


trial_and_error = register_probing(GENRE, candidates=frontier)

register_last_resort(GENRE)      # the deepening nested trial, unless registered above
