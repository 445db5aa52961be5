"""Picross techniques, by level (spec/heuristics-catalogue.txt, PICROSS).

All of them read a line through the line solver of grader/kernels/lines.py, computed once
per line and state. `focus` holds the cells changed since a technique last found nothing, so
only the lines through them are read again.
"""
from __future__ import annotations

from typing import Iterable, Iterator

from grader.core.engine import out_of_time
from grader.core.explain import describe_removals
from grader.genres.picross.model import B_EMPTY, B_FILLED, FREE, PicrossPuzzle, line_solver
from grader.core.registry import REGISTRY, heuristic
from grader.core.model import State
from grader.core.probing import branch_deduction, probe_cell, register_last_resort
from grader.core.steps import Deduction
from grader.kernels.lines import fill_of, solve_line

GENRE = "picross"
LINE_CASES_MAX = 40       # lines with at most this many placements are split on (screened first)
LOOKAHEADS = (12, 400)    # steps per case: a quick look first, then a long one


def lines_to_check(puzzle: PicrossPuzzle, focus: frozenset[int] | None) -> Iterable[int]:
    return range(len(puzzle.lines)) if focus is None else puzzle.lines_through(focus)


def open_lines(puzzle: PicrossPuzzle, state: State, focus: frozenset[int] | None) -> Iterator[int]:
    """Lines that still hold an undecided cell."""
    cands = state.cands
    for line in lines_to_check(puzzle, focus):
        if any(cands[i] == FREE for i in puzzle.lines[line]):
            yield line


def line_deduction(puzzle: PicrossPuzzle, state: State, line: int, allowed: list[int],
                   **params) -> Deduction | None:
    cells = puzzle.lines[line]
    if all(state.cands[i] & ~m == 0 for i, m in zip(cells, allowed)):
        return None                       # nothing new: the common case, so checked first
    keep = {i: m for i, m in zip(cells, allowed)}
    decided = [i for i in cells if state.cands[i] != FREE]
    d = Deduction.build(state, keep=keep)
    if d is None:
        return None
    targets = set(d.targets)
    return Deduction(d.removals, {"line": puzzle.line_name(line), "clue": puzzle.clue_text(line),
                                  "outcome": describe_removals(puzzle, state, d.removals), **params},
                     tuple(decided), region=tuple(i for i in cells if i not in targets))


# --- level 1 ------------------------------------------------------------------------------

@heuristic(id="picross.broken-line", genre=GENRE)
def broken_line(puzzle: PicrossPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for line in lines_to_check(puzzle, focus):
        if out_of_time():
            return      # the first look solves every line: a long one with many blocks takes a while
        if not line_solver(puzzle, state, line).solvable:
            cells = puzzle.lines[line]
            yield Deduction.build(state, keep={cells[0]: 0}, premises=cells,
                                  params={"line": puzzle.line_name(line), "clue": puzzle.clue_text(line)})
            return


@heuristic(id="picross.empty-line", genre=GENRE)
def empty_line(puzzle: PicrossPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for line in lines_to_check(puzzle, focus):
        if not puzzle.clues[line]:
            yield line_deduction(puzzle, state, line, [B_EMPTY] * len(puzzle.lines[line]))


@heuristic(id="picross.one-way", genre=GENRE)
def one_way(puzzle: PicrossPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for line in open_lines(puzzle, state, focus):
        solver = line_solver(puzzle, state, line)
        if not puzzle.clues[line] or not solver.settled:
            continue
        n = len(puzzle.lines[line])
        starts = tuple(s[0] for s in solver.starts)
        known = any(state.cands[i] != FREE for i in puzzle.lines[line])
        yield line_deduction(puzzle, state, line, fill_of(n, puzzle.clues[line], starts),
                             given=" beside the cells already decided" if known else "")


# --- level 3 ------------------------------------------------------------------------------

@heuristic(id="picross.block-overlap", genre=GENRE)
def block_overlap(puzzle: PicrossPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for line in open_lines(puzzle, state, focus):
        solver = line_solver(puzzle, state, line)
        clue, n = puzzle.clues[line], len(puzzle.lines[line])
        if not clue or not solver.solvable:
            continue
        allowed = [B_EMPTY | B_FILLED] * n
        reach = [False] * n
        covered: dict[int, int] = {}          # cell -> the block that covers it either way
        for j, size in enumerate(clue):
            lo, hi = solver.span(j)
            for i in range(lo, hi + size):
                reach[i] = True
            for i in range(hi, lo + size):
                allowed[i] = B_FILLED
                covered[i] = size
        for i in range(n):
            if not reach[i]:
                allowed[i] = B_EMPTY
        d = line_deduction(puzzle, state, line, allowed, reason="")
        if d is None:
            continue
        cells = puzzle.lines[line]
        new_filled = [k for k, i in enumerate(cells) if i in d.targets and allowed[k] == B_FILLED]
        blocks = sorted({covered[k] for k in new_filled})
        reasons = []
        if blocks:
            verb = "covers" if len(blocks) == 1 else "cover"
            reasons.append(f"the {' and the '.join(map(str, blocks))} {verb} the same cells either way")
        if len(new_filled) < len(d.targets):
            reasons.append("some cells lie out of reach of every block")
        yield Deduction(d.removals, {**d.params, "reason": " and ".join(reasons)}, d.premises,
                        region=d.region)


# --- level 4 ------------------------------------------------------------------------------

@heuristic(id="picross.line-solver", genre=GENRE)
def line_solver_step(puzzle: PicrossPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for line in open_lines(puzzle, state, focus):
        allowed = line_solver(puzzle, state, line).allowed()
        if allowed is None:
            continue
        yield line_deduction(puzzle, state, line, allowed)


# --- level 5 ------------------------------------------------------------------------------

def most_constrained(puzzle: PicrossPuzzle, state: State) -> list[int]:
    """Undecided cells whose row and column have the fewest undecided cells: assumptions there
    settle or break a line soonest."""
    cands = state.cands
    open_count = [sum(1 for i in cells if cands[i] == FREE) for cells in puzzle.lines]
    free = [i for i, m in enumerate(cands) if m == FREE]
    return sorted(free, key=lambda i: open_count[puzzle.lines_of[i][0]] + open_count[puzzle.lines_of[i][1]])


def propagate(puzzle: PicrossPuzzle, cands: list[int], lines: Iterable[int]) -> list[int] | None:
    """Run the line solver over `lines` and every line they change, to a fixpoint: the greedy
    fill of levels 1-4, without recording steps. None when a line breaks."""
    queue = set(lines)
    rows, cols = puzzle.rows, puzzle.cols
    while queue:
        line = queue.pop()
        cells = puzzle.lines[line]
        now = tuple(cands[i] for i in cells)
        allowed = solve_line(now, puzzle.clues[line]).kept
        if allowed is None:
            return None
        for k, i in enumerate(cells):
            if allowed[k] != now[k]:
                cands[i] = allowed[k]
                queue.add(rows + i % cols if line < rows else i // cols)
    return cands


def promising(puzzle: PicrossPuzzle, state: State, var: int) -> bool:
    """A quick unrecorded look: does assuming either value of `var` break a line, or do both
    assumptions agree on some other cell?"""
    finals = []
    for value in (B_EMPTY, B_FILLED):
        cands = list(state.cands)
        cands[var] = value
        final = propagate(puzzle, cands, puzzle.lines_of[var])
        if final is None:
            return True
        finals.append(final)
    a, b = finals
    return any((x | y) != m for x, y, m in zip(a, b, state.cands))


@heuristic(id="picross.trial-and-error", genre=GENRE)
def trial_and_error(puzzle: PicrossPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    # The line solver screens the cells quickly; the chosen cell is then probed by the engine's
    # recorded fill, so the step shows every easier step of each branch.
    lower = REGISTRY.for_genre(GENRE, 4)
    for var in most_constrained(puzzle, state):
        if out_of_time():
            return          # screening every cell of a large board takes minutes
        if not promising(puzzle, state, var):
            continue
        for steps in LOOKAHEADS:
            d = probe_cell(puzzle, state, var, 4, steps, lower)
            if d is not None:
                yield d
                return


@heuristic(id="picross.line-cases", genre=GENRE)
def line_cases(puzzle: PicrossPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    options = []
    for line in open_lines(puzzle, state, None):
        count = line_solver(puzzle, state, line).count(LINE_CASES_MAX + 1)
        if 2 <= count <= LINE_CASES_MAX:
            options.append((count, line))
    options.sort()
    for count, line in options:
        if out_of_time():
            return
        cells, clue = puzzle.lines[line], puzzle.clues[line]
        assumptions = []
        for k, starts in enumerate(line_solver(puzzle, state, line).solutions(LINE_CASES_MAX) or ()):
            cands = list(state.cands)
            for i, m in zip(cells, fill_of(len(cells), clue, starts)):
                cands[i] &= m
            assumptions.append((f"placement {k + 1} of {puzzle.line_name(line)}", cands, cells))
        if not cases_agree(puzzle, state, assumptions):
            continue
        for steps in LOOKAHEADS:          # short look-aheads first: they read best and cost least
            d = branch_deduction(puzzle, state, [(label, State(tuple(c)), cs) for label, c, cs in assumptions],
                                 max_steps=steps)
            if d is not None:
                yield Deduction(d.removals, {**d.params, "line": puzzle.line_name(line),
                                             "clue": puzzle.clue_text(line),
                                             "outcome": cases_outcome(puzzle, state, d)},
                                region=cells, detail=d.detail)
                return


def cases_outcome(puzzle, state: State, d: Deduction) -> str:
    """'4 of them survive, and all of those agree that ...' for a case split."""
    live = sum(1 for b in d.detail if not b.refuted)
    who = "they all agree" if live == len(d.detail) else f"{live} of them survive, and those agree"
    return f"{who} that {describe_removals(puzzle, state, d.removals)}"


def cases_agree(puzzle: PicrossPuzzle, state: State, assumptions) -> bool:
    """A quick unrecorded look: after propagating every case, is some candidate kept by none?"""
    union = [0] * len(state.cands)
    for _, cands, cells in assumptions:
        final = propagate(puzzle, list(cands), puzzle.lines_through(cells))
        if final is not None:
            union = [u | f for u, f in zip(union, final)]
    return any((u & m) != m for u, m in zip(union, state.cands))

register_last_resort(GENRE)      # the deepening nested trial, unless registered above
