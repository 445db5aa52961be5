"""Yajilin techniques, by level (spec/heuristics-catalogue.txt, YAJILIN).

Cells are LOOP or SHADED; edges CROSS or LINE. Loop rules (degree, loose ends, premature
loop) come from heuristics/common/loops.py, parity and look-ahead from cell_loops.py; the clue
lines are counted with a small dynamic programme over the cells an arrow sees.
"""
from __future__ import annotations

import operator
from typing import Iterable, Iterator

from grader.genres.yajilin.model import B_LOOP, B_SHADED, FREE, LOOP, SHADED, YajilinPuzzle
from grader.core.registry import heuristic, register_families
from grader.core.explain import describe_removals
from grader.core.probing import register_last_resort
from grader.core.model import State
from grader.core.steps import Deduction
from heuristics.common import cell_loops, loops
from heuristics.common.focus import near_then_the_rest
from grader.kernels.loops import B_CROSS, B_LINE, CROSS, LINE, degree, split
from grader.kernels.recent import last_answer

GENRE = "yajilin"
BRANCH_LEVEL = 3


def cells_to_check(puzzle: YajilinPuzzle, focus) -> Iterable[int]:
    """Free cells next to a change (a cell's own variable, or an edge at it). The level-1
    techniques ask this one after another with the same focus: the last answer is kept."""
    if focus is None:
        return puzzle.free_cells
    near = _free_cells_near(puzzle)
    return last_answer(puzzle, "_yajilin_last_cells", focus,
                       lambda: sorted({c for v in focus for c in near.get(v, ())}))


def _free_cells_near(puzzle: YajilinPuzzle) -> dict[int, tuple[int, ...]]:
    """For each variable, the free cells it touches (its cell or the ends of its edge) and
    the free cells beside those."""
    def make() -> dict[int, tuple[int, ...]]:
        near = {}
        for v, cells in puzzle.graph.vertices_of_var.items():
            out = set(cells)
            for c in cells:
                out.update(puzzle.neighbours[c])
            near[v] = tuple(c for c in out if puzzle.clues[c] is None)
        return near
    return puzzle.once("_yajilin_free_near", make)


def clues_to_check(puzzle: YajilinPuzzle, focus) -> Iterable[int]:
    if focus is None:
        return puzzle.counted
    n = puzzle.rows * puzzle.cols
    return sorted({k for v in focus if v < n for k in puzzle.clues_seeing[v]})


def open_edges(puzzle: YajilinPuzzle, state: State, i: int, without: int | None = None) -> list[int]:
    """Edge variables at cell i that are not crossed out (optionally ignoring the edge to
    cell `without`)."""
    cands = state.cands
    return [var for var, j in puzzle.cell_links[i] if cands[var] != B_CROSS and j != without]


def _edge_names(puzzle: YajilinPuzzle, vars_: Iterable[int]) -> list[str]:
    g = puzzle.graph
    return [g.edge_names[g.edge_of_var[v]] for v in vars_]


# --- level 1 ----------------------------------------------------------------------------------

@heuristic(id="yajilin.shaded-neighbours", genre=GENRE)
def shaded_neighbours(puzzle: YajilinPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for i in cells_to_check(puzzle, focus):
        if state.cands[i] != B_SHADED:
            continue
        free = [j for j in puzzle.neighbours[i] if state.cands[j] == FREE]
        if free:
            yield Deduction.build(state, put={j: LOOP for j in free}, premises=[i],
                                  params={"cell": puzzle.cell(i), "cells": [puzzle.cell(j) for j in free]})


@heuristic(id="yajilin.shaded-no-lines", genre=GENRE)
def shaded_no_lines(puzzle: YajilinPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    return loops.vertex_forbidden(puzzle.graph, state, puzzle.required, focus)


@heuristic(id="yajilin.line-visits", genre=GENRE)
def line_visits(puzzle: YajilinPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for i in cells_to_check(puzzle, focus):
        if state.cands[i] != FREE:
            continue
        for var in puzzle.dir_vars[i].values():
            if state.cands[var] == B_LINE:
                yield Deduction.build(state, put={i: LOOP}, premises=[var],
                                      params={"cell": puzzle.cell(i), "edge": _edge_names(puzzle, [var])[0]})
                break


@heuristic(id="yajilin.no-way-through", genre=GENRE)
def no_way_through(puzzle: YajilinPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    getters = _edge_getters(puzzle)
    for i in cells_to_check(puzzle, focus):
        if state.cands[i] != FREE or not _fewer_than_two_ways(getters, state.cands, i):
            continue
        ways = open_edges(puzzle, state, i)
        if len(ways) < 2:
            count = "no way in or out" if not ways else f"only one way in or out ({_edge_names(puzzle, ways)[0]})"
            yield Deduction.build(state, put={i: SHADED}, params={"cell": puzzle.cell(i), "count": count})


@heuristic(id="yajilin.shading-strands", genre=GENRE)
def shading_strands(puzzle: YajilinPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    cands, links, beside = state.cands, puzzle.cell_links, _free_neighbours(puzzle)
    for i in cells_to_check(puzzle, focus):
        if cands[i] != FREE:
            continue
        for j, get, n_edges in beside[i]:
            if not cands[j] & B_LOOP:
                continue
            if get is not None and n_edges - get(cands).count(B_CROSS) > 2:
                continue        # three edges not crossed out: one is left whatever i does
            # open_edges(puzzle, state, j, without=i), inline: this runs at every step
            ways = [var for var, k in links[j] if cands[var] != B_CROSS and k != i]
            if len(ways) < 2:
                count = "no way in or out" if not ways else f"only {_edge_names(puzzle, ways)[0]}"
                yield Deduction.build(state, put={i: LOOP}, premises=ways,
                                      params={"cell": puzzle.cell(i), "other": puzzle.cell(j), "count": count})
                break


def _free_neighbours(puzzle: YajilinPuzzle) -> tuple[tuple[tuple[int, operator.itemgetter | None, int], ...], ...]:
    """For each cell, its neighbours without a clue, each with its edges' getter and count
    (_edge_getters): most neighbours shading_strands asks about have ways to spare."""
    def make():
        getters = _edge_getters(puzzle)
        return tuple(tuple((j, *getters[j]) for j in puzzle.neighbours[i] if puzzle.clues[j] is None)
                     for i in range(puzzle.rows * puzzle.cols))
    return puzzle.once("_yajilin_free_neighbours", make)


def _edge_getters(puzzle: YajilinPuzzle) -> tuple[tuple[operator.itemgetter | None, int], ...]:
    """For each cell, the candidates of its edges in one call (None with fewer than two) and
    how many edges it has: its edges not crossed out are counted at C speed."""
    def make():
        return tuple((operator.itemgetter(*(var for var, _ in ls)) if len(ls) >= 2 else None, len(ls))
                     for ls in puzzle.cell_links)
    return puzzle.once("_yajilin_edge_getters", make)


def _fewer_than_two_ways(getters, cands, i: int) -> bool:
    """Has cell i fewer than two edges not crossed out? (getters: _edge_getters)"""
    get, n = getters[i]
    return get is None or n - get(cands).count(B_CROSS) < 2


@heuristic(id="yajilin.clue-done", genre=GENRE)
def clue_done(puzzle: YajilinPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for k in clues_to_check(puzzle, focus):
        n = puzzle.clues[k].n
        ray = puzzle.rays[k]
        shaded = sum(1 for j in ray if state.cands[j] == B_SHADED)
        free = [j for j in ray if state.cands[j] == FREE]
        if free and shaded == n:
            yield Deduction.build(state, put={j: LOOP for j in free}, cells=[puzzle.cell(k)],
                                  params={"n": n, "clue": puzzle.cell(k), "cells": [puzzle.cell(j) for j in free]})


@heuristic(id="yajilin.loop-closed", genre=GENRE)
def loop_closed(puzzle: YajilinPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for d in loops.loop_closed(puzzle.graph, state, focus):
        g = puzzle.graph
        after = d.apply(state)
        off = {i: SHADED for i in puzzle.free_cells if state.cands[i] == FREE
               and not any(after.cands[g.edge_vars[e]] == B_LINE for e in g.incident[i])}
        on = {i: LOOP for i in puzzle.free_cells if state.cands[i] == FREE and i not in off}
        yield Deduction.build(state, put={**{v: CROSS for v, _ in d.removals}, **off, **on}, params=d.params)


# --- level 2 ----------------------------------------------------------------------------------

def clue_segment(puzzle: YajilinPuzzle, k: int) -> tuple[tuple[int, ...], int, int | None]:
    """The cells a clue constrains exactly and how many of them are shaded: its whole ray, or,
    when another clue further along points the same way, the cells up to it (the difference
    of the two numbers). Returns (cells, count, the other clue or None). Made once per clue."""
    segments = puzzle.once("_yajilin_clue_segments", dict)
    if k not in segments:
        segments[k] = _clue_segment(puzzle, k)
    return segments[k]


def _clue_segment(puzzle: YajilinPuzzle, k: int) -> tuple[tuple[int, ...], int, int | None]:
    clue = puzzle.clues[k]
    j = puzzle.next_cell(k, clue.d)
    cells = []
    while j is not None:
        other = puzzle.clues[j]
        if other is None:
            cells.append(j)
        elif other.d == clue.d and other.n is not None:
            return tuple(cells), clue.n - other.n, j
        j = puzzle.next_cell(j, clue.d)
    return tuple(cells), clue.n, None


def open_segments(puzzle: YajilinPuzzle, state: State, clues: Iterable[int]
                  ) -> Iterator[tuple[int, tuple[int, ...], int, int | None]]:
    """(clue, cells, count, other clue) for each of `clues` whose segment (clue_segment) still
    has an undecided cell."""
    for k in clues:
        cells, count, other = clue_segment(puzzle, k)
        if any(state.cands[j] == FREE for j in cells):
            yield k, cells, count, other


def line_options(puzzle: YajilinPuzzle, state: State, cells: tuple[int, ...], count: int
                 ) -> tuple[tuple[bool, ...], tuple[bool, ...]] | None:
    """Which cells can be shaded, and which unshaded, in some way of shading exactly `count`
    of `cells` (no two side by side) that the candidates allow; None if there is no way.
    Remembered per line and its cells' candidates: trials ask the same lines again and again."""
    memo = puzzle.memo("_yajilin_line_options", 60_000)
    key = (cells, count, tuple(state.cands[j] for j in cells))
    if key not in memo:
        found = _line_options(puzzle, key[2], cells, count)
        memo[key] = found and (tuple(found[0]), tuple(found[1]))
    return memo[key]


def _line_options(puzzle: YajilinPuzzle, line: tuple[int, ...], cells: tuple[int, ...], count: int
                  ) -> tuple[list[bool], list[bool]] | None:
    """line_options, from the candidates of the line's cells (`line`, in order)."""
    L = len(cells)
    cands = dict(zip(cells, line))
    adj = [i > 0 and cells[i - 1] in puzzle.neighbours[cells[i]] for i in range(L)]
    # forward[i]: set of (shaded so far, previous shaded) before cell i
    forward = [set() for _ in range(L + 1)]
    forward[0].add((0, False))
    for i, j in enumerate(cells):
        for s, prev in forward[i]:
            if cands[j] & B_LOOP:
                forward[i + 1].add((s, False))
            if cands[j] & B_SHADED and s < count and not (prev and adj[i]):
                forward[i + 1].add((s + 1, True))
    if not any(s == count for s, _ in forward[L]):
        return None
    # backward[i]: set of (shaded from i on, cell i shaded)
    backward = [set() for _ in range(L + 1)]
    backward[L].add((0, False))
    for i in range(L - 1, -1, -1):
        j = cells[i]
        for s, nxt in backward[i + 1]:
            if cands[j] & B_LOOP:
                backward[i].add((s, False))
            if cands[j] & B_SHADED and s < count and not (nxt and i + 1 < L and adj[i + 1]):
                backward[i].add((s + 1, True))
    can_shade, can_loop = [False] * L, [False] * L
    for i in range(L):
        after = backward[i + 1]
        for s, prev in forward[i]:
            if cands[cells[i]] & B_LOOP and any(s + t == count for t, _ in after):
                can_loop[i] = True
            if cands[cells[i]] & B_SHADED and not (prev and adj[i]) and \
                    any(s + 1 + t == count and not (nxt and i + 1 < L and adj[i + 1]) for t, nxt in after):
                can_shade[i] = True
    return can_shade, can_loop


@heuristic(id="yajilin.clue-line", genre=GENRE)
def clue_line(puzzle: YajilinPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for k, cells, count, other in open_segments(puzzle, state, clues_to_check(puzzle, focus)):
        options = line_options(puzzle, state, cells, count)
        if options is None:
            continue            # a contradiction: left to violations
        can_shade, can_loop = options
        put = {}
        for j, sh, lp in zip(cells, can_shade, can_loop):
            if state.cands[j] == FREE and not (sh and lp):
                put[j] = SHADED if sh else LOOP
        if not put:
            continue
        d = Deduction.build(state, put=put, cells=[puzzle.cell(k)] + ([puzzle.cell(other)] if other else []),
                            region=list(cells), params={})
        if d is None:
            continue
        span = (f"the cells up to the {puzzle.clues[other].n} at {puzzle.cell(other)}" if other is not None
                else "the cells it points at")
        yield Deduction(d.removals, {"n": puzzle.clues[k].n, "clue": puzzle.cell(k), "count": count, "span": span,
                                     "result": describe_removals(puzzle, state, d.removals)},
                        cells=d.cells, region=d.region)


# --- level 3 ----------------------------------------------------------------------------------

def _closes_ok(puzzle: YajilinPuzzle, closed: State) -> bool:
    """With the loop closed, every free cell off it is shaded: is that a solution?"""
    cands = list(closed.cands)
    g = puzzle.graph
    for i in puzzle.free_cells:
        on = any(cands[g.edge_vars[e]] == B_LINE for e in g.incident[i])
        want = B_LOOP if on else B_SHADED
        if not cands[i] & want:
            return False
        cands[i] = want
    return not puzzle.genre.violations(puzzle, State(tuple(cands)))


def near_problem(puzzle: YajilinPuzzle, trial: State, i: int) -> str:
    """What a way through (or shading of) cell i breaks right beside it: a neighbour the loop
    would pass while shaded, or with three lines or a dead end; shaded cells touching; a
    clue that sees i over or under its count."""
    from grader.genres.yajilin.model import clue_problem
    cands, g = trial.cands, puzzle.graph
    for j in (i, *puzzle.neighbours[i]):
        if puzzle.clues[j] is not None:
            continue
        lines_j, open_j = split(g, trial.cands, j)
        if lines_j and not cands[j] & B_LOOP:
            return f"the loop would pass the shaded {puzzle.cell(j)}"
        if len(lines_j) > 2:
            return f"{puzzle.cell(j)} would get three lines"
        if (lines_j or cands[j] == B_LOOP) and len(lines_j) + len(open_j) < 2:
            return f"the loop could not pass {puzzle.cell(j)}"
        if j != i and cands[j] == B_SHADED and cands[i] == B_SHADED:
            return f"the shaded cells {puzzle.cell(i)} and {puzzle.cell(j)} would touch"
    for k in puzzle.clues_seeing[i]:
        problem = clue_problem(puzzle, trial, k)
        if problem:
            return problem
    return ""


def cell_ways(puzzle: YajilinPuzzle, state: State, i: int) -> list[cell_loops.Way]:
    """Every way to fill a free cell: shaded, or the loop through two of its open edges."""
    if state.cands[i] & B_LOOP == 0:
        return []
    return cell_loops.ways_through(puzzle.graph, state, i, may_stay_empty=bool(state.cands[i] & B_SHADED),
                                   visit_values=(SHADED, LOOP))


@heuristic(id="yajilin.self-loop", genre=GENRE)
def self_loop(puzzle: YajilinPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    # whether a way closes a loop reads where a line's other end lies and whether other lines
    # exist, both changed by a line drawn anywhere: the cells near the focus first, then the
    # rest (cells_by_ends keeps only the few beside a line's two ends)
    cells = cells_to_check(puzzle, focus)
    if focus is not None:
        cells = near_then_the_rest(cells, puzzle.free_cells)
    cells = cell_loops.cells_by_ends(puzzle.graph, state, cells)
    if not cells:
        return iter(())
    # each way drawn on one scratch board (near_problem reads its trial only while it runs)
    return cell_loops.every_way_through(puzzle, puzzle.graph, state, cells,
                                        lambda i: cell_ways(puzzle, state, i),
                                        lambda trial, i, way: near_problem(puzzle, trial, i), self_loops=True,
                                        board=list(state.cands))


# --- level 4 ----------------------------------------------------------------------------------

MAX_PATTERNS = 24


def shading_patterns(puzzle: YajilinPuzzle, state: State, cells: tuple[int, ...], count: int,
                     limit: int = MAX_PATTERNS) -> tuple[tuple[int, ...], ...] | None:
    """Every way to shade exactly `count` of `cells` (none side by side) that the candidates
    allow, as tuples of shaded cells; None when there are more than `limit`. Remembered per
    line and its cells' candidates (the clue looks of every fill in a case split ask the same
    lines again), at most 20,000 answers of a few dozen cells each."""
    memo = puzzle.memo("_yajilin_shading_patterns", 20_000)
    line = tuple(state.cands[j] for j in cells)
    key = (cells, count, limit, line)
    if key not in memo:
        memo[key] = _shading_patterns(puzzle, dict(zip(cells, line)), cells, count, limit)
    return memo[key]


def _shading_patterns(puzzle: YajilinPuzzle, cands: dict[int, int], cells: tuple[int, ...], count: int,
                      limit: int) -> tuple[tuple[int, ...], ...] | None:
    """shading_patterns, from the candidates of the line's cells (`cands`, by cell)."""
    out: list[tuple[int, ...]] = []
    done = _walk_shadings(puzzle.neighbours, cands, cells, count, limit, 0, [], out)
    return tuple(out) if done else None


def _walk_shadings(neighbours, cands: dict[int, int], cells: tuple[int, ...], count: int, limit: int,
                   i: int, chosen: list[int], out: list[tuple[int, ...]]) -> bool:
    """Add to `out` each shading of cells[i:] that completes `chosen` to `count` cells; False
    once more than `limit` are found. A module function: a nested one that calls itself is a
    reference cycle each call leaves to the collector."""
    if len(chosen) == count:
        if all(cands[j] & B_LOOP for j in cells[i:]):
            out.append(tuple(chosen))
        return len(out) <= limit
    if i >= len(cells) or len(cells) - i < count - len(chosen):
        return True
    j = cells[i]
    if cands[j] & B_SHADED and not (chosen and chosen[-1] in neighbours[j]):
        chosen.append(j)
        if not _walk_shadings(neighbours, cands, cells, count, limit, i + 1, chosen, out):
            return False
        chosen.pop()
    if cands[j] & B_LOOP:
        return _walk_shadings(neighbours, cands, cells, count, limit, i + 1, chosen, out)
    return True


def _pattern_masks(puzzle: YajilinPuzzle, cells, pattern) -> list[tuple[int, int]]:
    """(variable, what it keeps) for a shading of `cells` (`pattern`: the shaded ones): a
    shaded cell is shaded, its edges crossed and its free neighbours on the loop; the other
    cells are on the loop."""
    g = puzzle.graph
    out = []
    for j in cells:
        if j in pattern:
            out.append((j, B_SHADED))
            out.extend((g.edge_vars[e], B_CROSS) for e in g.incident[j])
            out.extend((n, B_LOOP) for n in puzzle.neighbours[j] if puzzle.clues[n] is None)
        else:
            out.append((j, B_LOOP))
    return out


def pattern_problem(puzzle: YajilinPuzzle, state: State, cells) -> str:
    """The rules (verifyboard) checked around the cells a shading pattern decided: loop cells
    with fewer than two ways, shaded cells that touch, clues over or under their count."""
    from grader.genres.yajilin.model import clue_problem
    free_near, clues = _pattern_near(puzzle, cells)
    cands, getters = state.cands, _edge_getters(puzzle)
    for j in free_near:
        if cands[j] == B_LOOP and _fewer_than_two_ways(getters, cands, j):
            return f"{puzzle.cell(j)} would have no way through"
        if cands[j] == B_SHADED and any(cands[n] == B_SHADED for n in puzzle.neighbours[j]):
            return f"shaded cells would touch at {puzzle.cell(j)}"
    for k in clues:
        problem = clue_problem(puzzle, state, k)
        if problem:
            return problem
    return ""


def _pattern_near(puzzle: YajilinPuzzle, cells) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The free cells among or beside `cells` (in the order a set of them gives, as always)
    and the clues that see any of those cells, sorted; remembered per cells (a clue's
    segment, an enclosure's), at most 20,000 of them."""
    memo = puzzle.memo("_yajilin_pattern_near", 20_000)
    key = tuple(cells)
    found = memo.get(key)
    if found is None:
        near = set(cells)
        for j in cells:
            near.update(puzzle.neighbours[j])
        found = memo[key] = (tuple(j for j in near if puzzle.clues[j] is None),
                             tuple(sorted({k for j in near for k in puzzle.clues_seeing[j]})))
    return found


def verify_clues_reading(puzzle: YajilinPuzzle, focus) -> Iterable[int]:
    """The clues whose verify reads a variable of `focus` (all without one): a shading of a
    clue's segment is checked at the free cells among or beside it (their neighbours and
    edges) and against every clue seeing those cells (its whole ray), so a change there, far
    from the clue itself, can make the check refute a way."""
    if focus is None:
        return puzzle.counted
    reading = puzzle.once("_yajilin_verify_reading", lambda: _verify_reading(puzzle))
    return sorted({k for v in focus for k in reading.get(v, ())})


def _verify_reading(puzzle: YajilinPuzzle) -> dict[int, list[int]]:
    """For each variable, the counting clues whose verify reads it."""
    reading: dict[int, list[int]] = {}
    for k in puzzle.counted:
        cells = clue_segment(puzzle, k)[0]
        free_near, clues = _pattern_near(puzzle, cells)
        read = set(cells) | set(free_near)
        for j in free_near:
            read.update(puzzle.neighbours[j])
            read.update(var for var, _ in puzzle.cell_links[j])
        for other in clues:
            read.update(puzzle.rays[other])
        for v in read:
            reading.setdefault(v, []).append(k)
    return reading


@heuristic(id="yajilin.clue-verify", genre=GENRE)
def clue_verify(puzzle: YajilinPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    # each shading is drawn on one scratch board and rubbed out again, and the shadings left
    # agree or not on what they drew (a copy of the board per shading was the cost on big boards)
    if 0 in state.cands:
        return              # every shading would leave a variable empty: none is left
    board = None
    for k, cells, count, other in open_segments(puzzle, state, verify_clues_reading(puzzle, focus)):
        patterns = shading_patterns(puzzle, state, cells, count)
        if not patterns or len(patterns) < 2:
            continue
        board = board or list(state.cands)
        finals, drawn = [], set()
        for pat in patterns:
            masks = _pattern_masks(puzzle, cells, pat)
            saved = [(var, board[var]) for var, _ in masks]
            for var, keep in masks:
                board[var] &= keep
            if all(board[var] for var, _ in masks) and not pattern_problem(puzzle, State(board), cells):
                finals.append({var: board[var] for var, _ in masks})
            for var, mask in reversed(saved):
                board[var] = mask
            drawn.update(var for var, _ in masks)
        if not finals:
            continue
        removals = cell_loops.agreed_on(state, finals, drawn)
        if removals:
            yield Deduction(removals, {"n": puzzle.clues[k].n, "clue": puzzle.cell(k), "ways": len(patterns),
                                       "alive": len(finals), "result": describe_removals(puzzle, state, removals)},
                            cells=(puzzle.cell(k),), region=tuple(cells))
            return


def enclosure_problem(puzzle: YajilinPuzzle, trial: State, changed: list[int]) -> str:
    problem = puzzle.genre.local_problem(puzzle, trial, changed)
    if problem:
        return problem
    n = puzzle.rows * puzzle.cols
    return pattern_problem(puzzle, trial, [v for v in changed if v < n])


def _enclosure_ways(puzzle: YajilinPuzzle, state: State, unique: bool):
    g = puzzle.graph

    def unique_ok(enc, ways) -> bool:
        for w in ways:
            for v in enc.cells:
                if w.state.cands[v] != B_SHADED:
                    continue
                if puzzle.clues_seeing[v]:
                    return False
                if any(j not in enc.cells and puzzle.clues[j] is None and state.cands[j] != B_LOOP
                       for j in puzzle.neighbours[v]):
                    return False
        return True

    return cell_loops.enclosure_ways(
        puzzle, g, state, usable=lambda v: bool(state.cands[v] & B_LOOP),
        must_visit=lambda v: state.cands[v] == B_LOOP,
        problem=lambda trial, changed: enclosure_problem(puzzle, trial, changed),
        visit_values=(SHADED, LOOP), unique_ok=unique_ok if unique else None,
        max_cells=cell_loops.ENCLOSURE_CELLS, max_ends=cell_loops.ENCLOSURE_ENDS)


def way_count(puzzle: YajilinPuzzle, state: State, i: int) -> int:
    """How many ways cell_ways gives, counted without making them (most cells have more
    than a look-ahead tries, or none)."""
    m = state.cands[i]
    if not m & B_LOOP:
        return 0
    lines, open_ = split(puzzle.graph, state.cands, i)
    if len(lines) >= 2:
        return 0
    if lines:
        return len(open_)                  # the line and one open edge
    return len(open_) * (len(open_) - 1) // 2 + (1 if m & B_SHADED else 0)


def _fill_options(puzzle: YajilinPuzzle, state: State):
    """Look-ahead subjects: each free cell with two or three ways to fill it."""
    g = puzzle.graph
    for i in puzzle.free_cells:
        if not 2 <= way_count(puzzle, state, i) <= 3:
            continue
        ways = cell_ways(puzzle, state, i)
        if 2 <= len(ways) <= 3:
            yield puzzle.cell(i), [(f"{puzzle.cell(i)} {cell_loops.way_name(g, i, w)}"
                                    if w.edges else f"{puzzle.cell(i)} is shaded", w.put) for w in ways]


# --- level 5 ----------------------------------------------------------------------------------

CELL_CASES = 60        # the most constrained cells only: on a wide open board the rest rarely decide


def _cell_options(puzzle: YajilinPuzzle, state: State):
    order = sorted((i for i in puzzle.free_cells if state.cands[i] == FREE or
                    (state.cands[i] == B_LOOP and degree(puzzle.graph, state, i) < 2)),
                   key=lambda i: len(open_edges(puzzle, state, i)))
    for i in order[:CELL_CASES]:
        options = []
        if state.cands[i] & B_SHADED:
            options.append((f"{puzzle.cell(i)} is shaded", {i: SHADED}))
        ways = open_edges(puzzle, state, i)
        for a in range(len(ways)):
            for b in range(a + 1, len(ways)):
                put = {i: LOOP, ways[a]: LINE, ways[b]: LINE}
                put.update({w: CROSS for w in ways if w not in (ways[a], ways[b])})
                options.append((f"the loop runs {' and '.join(_edge_names(puzzle, (ways[a], ways[b])))}", put))
        yield puzzle.cell(i), options


def _clue_options(puzzle: YajilinPuzzle, state: State):
    for k, cells, count, _ in open_segments(puzzle, state, puzzle.counted):
        patterns = shading_patterns(puzzle, state, cells, count, limit=8)
        if not patterns:
            continue
        options = []
        for pat in patterns:
            put = {j: (SHADED if j in pat else LOOP) for j in cells if state.cands[j] == FREE}
            label = (f"{', '.join(str(puzzle.cell(j)) for j in pat)} shaded" if pat else "nothing shaded")
            options.append((label, put))
        yield f"the {puzzle.clues[k].n} at {puzzle.cell(k)}", options


# A case split on an arrow's few ways (level 4): a clue whose line can be shaded in at most
# CLUE_CASE_WAYS ways, each followed by at most CLUE_CASE_STEPS direct steps of levels 1-3
# (no look-ahead or trial inside). Refuted ways drop out; what the rest agree on holds. More
# ways, longer fills and fills with look-aheads are the level-5 clue-cases.
CLUE_CASE_WAYS = 4
CLUE_CASE_STEPS = 20


@heuristic(id="yajilin.clue-few-ways", genre=GENRE)
def clue_few_ways(puzzle: YajilinPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    subjects = [(name, options) for name, options in _clue_options(puzzle, state)
                if 2 <= len(options) <= CLUE_CASE_WAYS]
    subjects.sort(key=lambda t: len(t[1]))
    return cell_loops.case_analysis(puzzle, state, 3, subjects, memo=f"_{GENRE}_clue_few_ways",
                                    passes=((CLUE_CASE_STEPS, 3),))


# The techniques made from the families of heuristics/common/loops.py and cell_loops.py (shared
# with Masyu and Slitherlink): the rows of rules/techniques/yajilin.yaml that name a family.
register_families(GENRE, {
    **cell_loops.family(closes_ok=_closes_ok, branch_level=BRANCH_LEVEL),
    **cell_loops.enclosure_techniques(_enclosure_ways),
    "cell-lookahead": (None, cell_loops.lookahead(_fill_options, check=enclosure_problem)),
    "cell-cases": (None, cell_loops.cases("cell_cases", _cell_options, level=BRANCH_LEVEL)),
    "clue-cases": (None, cell_loops.cases("clue_cases", _clue_options, level=BRANCH_LEVEL)),
    "deep-cases": (None, cell_loops.cases("deep_cases", _cell_options, _clue_options, cell_loops.end_subjects,
                                          level=4, passes=cell_loops.DEEP_PASSES))})

register_last_resort(GENRE)      # the deepening nested trial, unless registered above
