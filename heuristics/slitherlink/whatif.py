"""Level 4: short what-ifs at a number or a loose end (the recurring shapes of the level-5
trials on the janko puzzles, kept bounded and readable).

What a strong solver does where a number has only a few ways left to finish, or where a line
stops at a dot with a few ways on: draw one way, follow it a few steps with the simple rules
(levels 1 and 2: counting at numbers and dots, the catalogue's patterns, corners, inside and
outside), then the next way. A way that breaks a rule is refuted; what every way left draws
or crosses holds. Only a handful of steps from one number or one loose end, every one shown
in the step's branches; a greedy fill with everything stays level 5 (slitherlink.trial-and-error).
"""
from __future__ import annotations

from itertools import combinations

from typing import Iterator

from grader.core.probing import ways_left
from grader.core.model import State
from grader.core.registry import heuristic
from grader.core.steps import Deduction
from grader.genres.slitherlink.model import SlitherPuzzle, clue_counts
from grader.kernels.loops import CROSS, LINE, OPEN, paths
from grader.kernels.recent import narrowed

from heuristics.common import whatif
from heuristics.slitherlink.common import GENRE, edges_around, fill_rules
from heuristics.slitherlink.fills import remembered_fill, remembered_look

WHAT_IF_STEPS = 12      # steps of the level-1 and -2 rules per way (a chain a reader follows by eye)
WHAT_IF_LEVEL = 2       # the rules a way is followed with
MAX_WAYS = 3            # a number or an end with more ways than this is not a short case split


def clue_subjects(puzzle: SlitherPuzzle, state: State) -> list[tuple[str, int, list[tuple[str, dict]]]]:
    """(cell label, cell, ways) for every number with 2..MAX_WAYS ways to finish, fewest first;
    a way sets each open edge of the number (the line on the chosen ones, a cross on the rest)."""
    out = []
    for k in puzzle.clued:
        lines, open_ = clue_counts(puzzle, state, k)
        need = puzzle.clues[k] - len(lines)
        if not open_ or need < 0 or need > len(open_):
            continue
        ways = list(combinations(open_, need))
        if not 2 <= len(ways) <= MAX_WAYS:
            continue
        options = []
        for way in ways:
            if way:
                verb = "carries" if len(way) == 1 else "carry"
                label = f"{' and '.join(puzzle.edge_label(e) for e in way)} {verb} the line"
            else:
                label = "none of its open edges carries the line"
            options.append((label, {e: (LINE if e in way else CROSS) for e in open_}))
        out.append((len(ways), k, options))
    out.sort(key=lambda t: (t[0], t[1]))
    return [(puzzle.cell_label(k), k, options) for _, k, options in out]


def end_subjects(puzzle: SlitherPuzzle, state: State) -> list[tuple[str, int, list[tuple[str, dict]]]]:
    """(dot name, dot, ways) for every loose end of a line with 2..MAX_WAYS open edges: the line
    goes on along one of them and the others are crossed."""
    g = puzzle.graph
    out = []
    for v in sorted(paths(g, state).end_of):
        open_ = [e for e in g.incident[v] if state.cands[e] == OPEN]
        if not 2 <= len(open_) <= MAX_WAYS:
            continue
        options = [(f"the line goes on along {puzzle.edge_label(e)}",
                    {f: (LINE if f == e else CROSS) for f in open_}) for e in open_]
        out.append((len(open_), v, options))
    out.sort(key=lambda t: (t[0], t[1]))
    return [(g.vertex_names[v], v, options) for _, v, options in out]


def _what_if(puzzle: SlitherPuzzle, state: State, subjects, field: str) -> Iterator[Deduction]:
    """Each subject (name, key, ways covering every possibility): every way followed
    WHAT_IF_STEPS steps with the levels 1-2; the first subject where a way breaks a rule or all
    ways agree gives the deduction. A subject that told nothing is not followed again until
    something near what its ways touched changes."""
    from grader.core.probing import cases_deduction
    names = {key: name for name, key, _ in subjects}
    found = whatif.what_if(puzzle, state, [(key, options) for _, key, options in subjects],
                           f"slitherlink.what-if.{field}", fill_rules(WHAT_IF_LEVEL, puzzle, state),
                           WHAT_IF_LEVEL, WHAT_IF_STEPS,
                           lambda options, branches: (_refuted_ways(puzzle, state, options, branches)
                                                      or cases_deduction(puzzle, state, branches)),
                           lambda finals, options: _around(puzzle, state, finals, options),
                           fill_with=remembered_fill)
    for key, d in found:
        yield _worded(puzzle, d, {**d.params, field: names[key]}, field, key)


def _worded(puzzle: SlitherPuzzle, d: Deduction, params: dict, field: str, key: int) -> Deduction:
    """A what-if's step about one subject: a number's step names the number and shows its cell."""
    if field == "cell":
        params["n"] = puzzle.clues[key]
    cells = (puzzle.cell(key),) if puzzle.square and field == "cell" else ()
    return Deduction(d.removals, params, cells=cells, detail=d.detail)


def _refuted_ways(puzzle: SlitherPuzzle, state: State, options, branches) -> Deduction | None:
    """Where some ways break a rule: what the ways left set alike (not what their fills went on
    to draw: those steps are the easier techniques' own to take). Params as cases_deduction."""
    from grader.core.explain import describe_removals
    dead = [b for b in branches if b.refuted]
    alive = [put for (_, put), b in zip(options, branches) if not b.refuted]
    if not dead or not alive:
        return None
    removals = ways_left(state, alive)
    if not removals:
        return None
    told = "; ".join(f"if {b.label}, {_count(len(b.trace.steps))} to a contradiction "
                     f"({b.trace.reason or 'a rule is broken'})" for b in dead)
    outcome = f"{told}; so {describe_removals(puzzle, state, removals)}"
    return Deduction(removals, {"outcome": outcome, "cases": len(branches),
                                "steps": max(len(b.trace.steps) for b in dead)}, detail=tuple(dead))


def _count(n: int) -> str:
    return "one step leads" if n == 1 else f"{n} steps lead"


def _around(puzzle: SlitherPuzzle, state: State, finals, options) -> set[int]:
    """The edges the ways set or changed and every edge at their dots and around their cells:
    while these stay as they are, the ways tell nothing new."""
    cands = state.cands
    touched = {e for _, put in options for e in put}
    for f in finals:
        touched.update(narrowed(cands, f.cands, len(cands)))
    return edges_around(puzzle, touched)


@heuristic(id="slitherlink.clue-what-if", genre=GENRE)
def clue_what_if(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Every way to finish a number with two or three ways left, a few steps each."""
    return _what_if(puzzle, state, clue_subjects(puzzle, state), "cell")


@heuristic(id="slitherlink.end-what-if", genre=GENRE)
def end_what_if(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Every way on from a loose end with two or three ways on, a few steps each."""
    return _what_if(puzzle, state, end_subjects(puzzle, state), "end")


# A longer what-if that only counts a failure: each way of a number or a loose end is followed
# further, with the area rules of level 3 too (chains of corners, areas the loop cannot reach or
# leave, cuts it must cross), and dropped when it breaks a rule; what the ways left share holds.
# Still one number or one loose end, near what just changed, and a bounded chain; agreement of
# long fills stays level 5.

FAILS_STEPS = 30        # steps of the levels 1-3 per way
FAILS_SUBJECTS = 8      # numbers or ends looked at, the nearest what changed first


def _near(puzzle: SlitherPuzzle, focus, rings: int = 2) -> set[int] | None:
    """The edges within `rings` dots of what changed (None without a focus: everywhere)."""
    if focus is None:
        return None
    g = puzzle.graph
    edges = set(focus)
    for _ in range(rings):
        edges |= {f for e in edges for v in g.ends[e] for f in g.incident[v]}
    return edges


def _nearest(subjects, near: set[int] | None, most: int = FAILS_SUBJECTS):
    """The `most` subjects of fewest ways, those with a way touching `near` first (what
    changed since the technique last found nothing is where it most likely finds something
    new), then the board's own first `most`: a way's long fill reads far, so a change
    anywhere can make one of those fail, and a focused look must find what a look at the
    whole board finds."""
    first = subjects[:most]
    if near is None:
        return first
    nearby = [s for s in subjects if any(e in near for _, put in s[2] for e in put)][:most]
    keys = {s[1] for s in nearby}
    return nearby + [s for s in first if s[1] not in keys]


def _ways_that_fail(puzzle: SlitherPuzzle, state: State, subjects, field: str) -> Iterator[Deduction]:
    """Each subject (name, key, ways covering every possibility): each way followed with the
    levels 1-3, first WHAT_IF_STEPS steps (the short failures a reader sees first), then up to
    FAILS_STEPS; ways that reach a contradiction drop out and what the ways left share holds.
    A look that ran out of steps goes on from where it stopped, at what changed (exact=False)."""
    names = {key: name for name, key, _ in subjects}
    found = whatif.ways_that_fail(puzzle, state, [(key, options) for _, key, options in subjects],
                                  f"slitherlink.way-fails.{field}", fill_rules(3, puzzle, state),
                                  (WHAT_IF_STEPS, FAILS_STEPS),
                                  lambda finals, options: _around(puzzle, state, finals, options), exact=False,
                                  look_with=remembered_look, fill_with=remembered_fill)
    for key, d in found:
        yield _worded(puzzle, d, {field: names[key], **d.params}, field, key)


@heuristic(id="slitherlink.clue-way-fails", genre=GENRE)
def clue_way_fails(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """A way to finish a number that breaks a rule further on."""
    return _ways_that_fail(puzzle, state, _nearest(clue_subjects(puzzle, state), _near(puzzle, focus)), "cell")


@heuristic(id="slitherlink.end-way-fails", genre=GENRE)
def end_way_fails(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """A way on from a loose end that breaks a rule further on."""
    return _ways_that_fail(puzzle, state, _nearest(end_subjects(puzzle, state), _near(puzzle, focus)), "end")


def edge_subjects(puzzle: SlitherPuzzle, state: State) -> list[tuple[str, int, list[tuple[str, dict]]]]:
    """(edge name, edge, its two values) for the open edges at a loose end or at a corner of a
    number, loose ends first (Sudoku Explainer's forcing chains from one cell's two values)."""
    from heuristics.slitherlink.probing import probe_candidates
    g = puzzle.graph
    ends = paths(g, state).end_of
    near = {e for v in ends for e in g.incident[v]}
    near |= {f for k in puzzle.clued for e in puzzle.cells[k] for v in g.ends[e] for f in g.incident[v]}
    # an edge that is one of two ways at a number or a loose end was tried there already
    for v in ends:
        open_ = [e for e in g.incident[v] if state.cands[e] == OPEN]
        if len(open_) == 2:
            near.difference_update(open_)
    for k in puzzle.clued:
        lines, open_ = clue_counts(puzzle, state, k)
        if len(open_) == 2 and puzzle.clues[k] - len(lines) == 1:
            near.difference_update(open_)
    return [(puzzle.edge_label(e), e, [(f"{puzzle.edge_label(e)} carries the line", {e: LINE}),
                                       (f"{puzzle.edge_label(e)} is crossed", {e: CROSS})])
            for e in probe_candidates(puzzle, state) if e in near]


@heuristic(id="slitherlink.edge-what-if", genre=GENRE)
def edge_what_if(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Both values of one edge, a few steps each: one breaks a rule, or both draw the same."""
    return _what_if(puzzle, state, edge_subjects(puzzle, state), "edge")
