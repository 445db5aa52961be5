"""Picross techniques, by level (spec/heuristics-catalogue.txt, PICROSS).

Each reads one line at a time. Level 2 is what puzzle books teach first (simple boxes, a
block at its longest, glue, the reach of a lone block): counts from the clue, the line's two
ends and its filled runs. Levels 1, 3 and 4 read a line through the line solver of
grader/kernels/lines.py, computed once per line and state. `focus` holds the cells changed
since a technique last found nothing, so only the lines through them are read again.

Level 4 also has the short what-if (picross.what-if): where line logic is stuck, a strong
solver assumes one cell, follows the simple line rules a few lines on and meets a line that can
no longer show its clue. Level 5 keeps the trials whose fill needs the full line solver, many
steps or both ways of a cell.
"""
from __future__ import annotations

import functools
from collections import deque
from typing import Callable, Iterable, Iterator, Sequence

import attrs

from grader.core.engine import out_of_time, solve_memory
from grader.core.explain import counted, describe_removals, var_name
from grader.genres.picross.model import (B_EMPTY, B_FILLED, EMPTY, FILLED, FREE, PicrossPuzzle, line_cands,
                                         line_solver)
from grader.core.registry import REGISTRY, heuristic
from grader.core.model import State
from grader.core.probing import Branch, branch_deduction, probe_cell, register_last_resort
from grader.core.steps import Deduction, Later, Status, Step, Trace, resuming
from grader.kernels.lines import bit_block_starts, cell_bits, fill_of, minimum_length, solve_line, span_of

GENRE = "picross"
LINE_CASES_MAX = 40       # lines with at most this many placements are split on (screened first)
LOOKAHEADS = (12, 400)    # steps per case: a quick look first, then a long one
CHAIN_STEPS = 8           # what-if: the most line steps, the broken line included, each one of
                          # the simple line rules (levels 1 and 3)


def lines_to_check(puzzle: PicrossPuzzle, focus: frozenset[int] | None) -> Sequence[int]:
    return range(len(puzzle.lines)) if focus is None else puzzle.lines_through(focus)


def open_lines(puzzle: PicrossPuzzle, state: State, lines: Sequence[int]
               ) -> Iterator[tuple[int, int, tuple[int, ...]]]:
    """(place in `lines`, line, its candidates) for the lines that still hold an undecided
    cell."""
    for at, line in enumerate(lines):
        now = line_cands(puzzle, state, line)
        if FREE in now:
            yield at, line, now


def resumed(puzzle: PicrossPuzzle, d: Deduction | None, lines: Sequence[int], at: int) -> Deduction | None:
    """d, found in lines[at] by a look at `lines`: the next look goes on from that line
    (Deduction.resume), asked for by the last cell of each line (which holds no line before
    it but the last row)."""
    last_cells = puzzle.once("_picross_last_cells", lambda: tuple(cells[-1] for cells in puzzle.lines))
    return resuming(d, lines, at, last_cells)


def line_deduction(puzzle: PicrossPuzzle, state: State, line: int, allowed: Sequence[int],
                   more_words: Callable[[tuple[tuple[int, int], ...]], dict] | None = None,
                   **params) -> Deduction | None:
    """What `allowed` takes from the line, explained by `params` and, when given, the fields
    `more_words` works out from the removals. The explanation is worked out only when read
    (Later): most line deductions are counted or made inside trials, never shown."""
    cells, cands = puzzle.lines[line], state.cands
    # the line's cells are in increasing order, so these are sorted as Deduction.build sorts
    removals = tuple((i, cands[i] & ~m) for i, m in zip(cells, allowed) if cands[i] & ~m)
    if not removals:
        return None
    targets = {i for i, _ in removals}
    before = CandsBefore({i: cands[i] for i in targets})
    return Deduction(removals, Later(line_words, puzzle, before, line, removals, params, more_words),
                     tuple(i for i in cells if cands[i] != FREE),
                     region=tuple(i for i in cells if i not in targets))


@attrs.frozen
class CandsBefore:
    """What describe_removals reads of a state (`cands[var]`), for the variables a deduction
    narrows only: an unread explanation that kept the whole state would hold its board and
    everything worked out on it (a 75x50 grade peaked at 83 MB instead of 51)."""
    cands: dict[int, int]


def line_words(puzzle: PicrossPuzzle, before: CandsBefore, line: int, removals: tuple[tuple[int, int], ...],
               params: dict, more_words: Callable[[tuple[tuple[int, int], ...]], dict] | None) -> dict:
    return {"line": puzzle.line_name(line), "clue": puzzle.clue_text(line),
            "outcome": describe_removals(puzzle, before, removals), **params,
            **(more_words(removals) if more_words else {})}


# --- level 1 ------------------------------------------------------------------------------

@heuristic(id="picross.broken-line", genre=GENRE)
def broken_line(puzzle: PicrossPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for line in lines_to_check(puzzle, focus):
        if out_of_time():
            return      # the first look solves every line: a long one with many blocks takes a while
        if not line_solver(puzzle, state, line).solvable:
            yield broken_deduction(puzzle, state, line)
            return


def broken_deduction(puzzle: PicrossPuzzle, state: State, line: int) -> Deduction:
    cells = puzzle.lines[line]
    return Deduction.build(state, keep={cells[0]: 0}, premises=cells,
                           params={"line": puzzle.line_name(line), "clue": puzzle.clue_text(line)})


@heuristic(id="picross.empty-line", genre=GENRE)
def empty_line(puzzle: PicrossPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    lines = lines_to_check(puzzle, focus)
    for place, line in enumerate(lines):
        if not puzzle.clues[line]:
            d = line_deduction(puzzle, state, line, [B_EMPTY] * len(puzzle.lines[line]))
            yield resumed(puzzle, d, lines, place)


@heuristic(id="picross.one-way", genre=GENRE)
def one_way(puzzle: PicrossPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    lines = lines_to_check(puzzle, focus)
    for place, line, _ in open_lines(puzzle, state, lines):
        if puzzle.clues[line] and line_solver(puzzle, state, line).settled:
            yield resumed(puzzle, one_way_deduction(puzzle, state, line), lines, place)


def one_way_deduction(puzzle: PicrossPuzzle, state: State, line: int) -> Deduction | None:
    """One way: the line's only placement (the line is settled)."""
    solver = line_solver(puzzle, state, line)
    n = len(puzzle.lines[line])
    starts = tuple(s[0] for s in solver.starts)
    known = any(state.cands[i] != FREE for i in puzzle.lines[line])
    return line_deduction(puzzle, state, line, fill_of(n, puzzle.clues[line], starts),
                          given=" beside the cells already decided" if known else "")


# --- level 2 ------------------------------------------------------------------------------
# What puzzle books teach before pushing blocks past every mark (level 3): counts from the clue
# and the two ends of the line alone, and filled runs. Each rule reads one line's candidates
# and is cached by them, as overlap_of is.

def open_stretch(now: tuple[int, ...]) -> tuple[int, int]:
    """The cells between the empty cells at the two ends of a line (first, past the last): the
    blocks lie in there, as if the crossed cells at the ends were the edge."""
    first, last = 0, len(now)
    while first < last and now[first] == B_EMPTY:
        first += 1
    while last > first and now[last - 1] == B_EMPTY:
        last -= 1
    return first, last


def narrows(now: tuple[int, ...], allowed) -> bool:
    """Whether `allowed` takes a candidate from a line holding `now`. The cached rules below
    answer only when it does: most lines they read give nothing new, and the answer for a line
    is then one look-up instead of a check against the state at every step."""
    return any(m & ~a for m, a in zip(now, allowed))


@functools.lru_cache(maxsize=50000)
def simple_boxes_of(now: tuple[int, ...], clue: tuple[int, ...]
                    ) -> tuple[tuple[int, ...], int, int, tuple[int, ...]] | None:
    """Simple boxes: the blocks packed from each end of the open stretch overlap where a block
    is longer than the spare room. (allowed, room, spare, the sizes of those blocks), or None
    when no block is that long, the clue no longer fits or it narrows nothing."""
    if not clue:
        return None
    first, last = open_stretch(now)
    spare = last - first - minimum_length(clue)
    if spare < 0:
        return None
    allowed = [FREE] * len(now)
    long_blocks = []
    start = first                          # the block's start, packed to the first end
    for size in clue:
        if size > spare:
            allowed[start + spare:start + size] = [B_FILLED] * (size - spare)
            long_blocks.append(size)
        start += size + 1
    if not long_blocks or not narrows(now, allowed):
        return None
    return tuple(allowed), last - first, spare, tuple(long_blocks)


@functools.lru_cache(maxsize=50000)
def glue_of(now: tuple[int, ...], clue: tuple[int, ...], from_end: bool) -> tuple[tuple[int, ...], int] | None:
    """Glue: the first filled cell near an end of the open stretch, no farther from that end
    than the end's block is long, is that block's (another block would need the block before
    it, and a gap, in front of it). So the block reaches from the cell away from the end to its
    length, nothing lies between the end and its farthest start, and a block that starts right
    at the end is complete. (allowed, the cell's place in the line) or None (also when that
    narrows nothing). `from_end` reads the line from its last cell (rows from the right,
    columns from the bottom)."""
    if not clue:
        return None
    n = len(now)
    cells = now[::-1] if from_end else now
    size = clue[-1] if from_end else clue[0]
    first, last = open_stretch(cells)
    at = next((i for i in range(first, last) if cells[i] == B_FILLED), None)
    if at is None or at - first > size or first + size > last:
        return None
    allowed = [FREE] * n
    for i in range(at, first + size):
        allowed[i] = B_FILLED
    for i in range(first, at - size + 1):
        allowed[i] = B_EMPTY
    if at == first and first + size < n:
        allowed[first + size] = B_EMPTY
    if not narrows(cells, allowed):
        return None
    if from_end:
        return tuple(allowed[::-1]), n - 1 - at
    return tuple(allowed), at


def filled_runs(now: tuple[int, ...]) -> Iterator[tuple[int, int]]:
    """(first, past the last) of each run of filled cells."""
    i, n = 0, len(now)
    while i < n:
        if now[i] != B_FILLED:
            i += 1
            continue
        j = i
        while j < n and now[j] == B_FILLED:
            j += 1
        yield i, j
        i = j


def line_cells_named(puzzle: PicrossPuzzle, line: int, first: int, last: int) -> str:
    """'r2c3', 'r2c3-r2c6': a stretch of a line, by its end cells."""
    cells = puzzle.lines[line]
    a, b = var_name(puzzle, cells[first]), var_name(puzzle, cells[last - 1])
    return a if last - first == 1 else f"{a}-{b}"


@heuristic(id="picross.simple-boxes", genre=GENRE)
def simple_boxes(puzzle: PicrossPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    lines = lines_to_check(puzzle, focus)
    for place, line, now in open_lines(puzzle, state, lines):
        found = simple_boxes_of(now, puzzle.clues[line])
        if found is None:
            continue
        allowed, room, spare, long_blocks = found
        clue = puzzle.clues[line]
        d = line_deduction(puzzle, state, line, allowed, need=counted(minimum_length(clue), "cell"),
                           room=room, spare=counted(spare, "cell"),
                           blocks="the " + " and the ".join(map(str, sorted(set(long_blocks), reverse=True))))
        yield resumed(puzzle, d, lines, place)


@functools.lru_cache(maxsize=50000)
def full_blocks_of(now: tuple[int, ...], clue: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    """Punctuating: a run of filled cells as long as the clue's longest block is a whole block,
    so the cells at its two sides are empty. (allowed, first, past the last) per such run that
    narrows the line."""
    if not clue:
        return ()
    out = []
    for first, last in filled_runs(now):
        if last - first == max(clue):
            allowed = [FREE] * len(now)
            for i in (first - 1, last):
                if 0 <= i < len(now):
                    allowed[i] = B_EMPTY
            if narrows(now, allowed):
                out.append((tuple(allowed), first, last))
    return tuple(out)


@heuristic(id="picross.full-block", genre=GENRE)
def full_block(puzzle: PicrossPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    lines = lines_to_check(puzzle, focus)
    for place, line, now in open_lines(puzzle, state, lines):
        clue = puzzle.clues[line]
        for allowed, first, last in full_blocks_of(now, clue):
            d = line_deduction(puzzle, state, line, allowed, size=max(clue),
                               run=line_cells_named(puzzle, line, first, last))
            yield resumed(puzzle, d, lines, place)


@heuristic(id="picross.glue", genre=GENRE)
def glue(puzzle: PicrossPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    lines = lines_to_check(puzzle, focus)
    for place, line, now in open_lines(puzzle, state, lines):
        clue = puzzle.clues[line]
        for from_end in (False, True):
            found = glue_of(now, clue, from_end)
            if found is None:
                continue
            allowed, at = found
            size = clue[-1] if from_end else clue[0]
            is_row = line < puzzle.rows
            end = ("right" if is_row else "bottom") if from_end else ("left" if is_row else "top")
            d = line_deduction(puzzle, state, line, allowed, cell=var_name(puzzle, puzzle.lines[line][at]),
                               end=end, which="last" if from_end else "first", size=size,
                               reach=counted(size, "cell"))
            yield resumed(puzzle, d, lines, place)


def lone_block_of(now: tuple[int, ...], clue: tuple[int, ...]) -> tuple[list[int], int, int] | None:
    """The reach of a lone block: a clue of one block covers every filled cell of its line, so
    it fills the cells between the first and the last of them and cannot reach the cells
    farther than its length from them. (allowed, the first and the last filled cell) or None."""
    filled = [i for i, m in enumerate(now) if m == B_FILLED]
    if len(clue) != 1 or not filled:
        return None
    first, last, size = filled[0], filled[-1], clue[0]
    return ([B_FILLED if first <= i <= last else FREE if last - size < i < first + size else B_EMPTY
             for i in range(len(now))], first, last)


@heuristic(id="picross.lone-block", genre=GENRE)
def lone_block(puzzle: PicrossPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    lines = lines_to_check(puzzle, focus)
    for place, line, now in open_lines(puzzle, state, lines):
        found = lone_block_of(now, puzzle.clues[line])
        if found is None:
            continue
        allowed, first, last = found
        cells = puzzle.lines[line]
        d = line_deduction(puzzle, state, line, allowed, size=puzzle.clues[line][0],
                           cells=" and ".join(var_name(puzzle, cells[i]) for i in sorted({first, last})))
        yield resumed(puzzle, d, lines, place)


# --- level 3 ------------------------------------------------------------------------------

def overlap_allowed(spans: list[tuple[int, int]], clue: tuple[int, ...], n: int
                    ) -> tuple[list[int], dict[int, int]]:
    """What pushing the blocks to both ends shows (a solvable line, the left-most and right-most
    start of each block): each cell's allowed values, and the cells some block covers either
    way, with that block's size."""
    allowed = [B_EMPTY | B_FILLED] * n
    reach = [False] * n
    covered: dict[int, int] = {}          # cell -> the block that covers it either way
    for (lo, hi), size in zip(spans, clue):
        for i in range(lo, hi + size):
            reach[i] = True
        for i in range(hi, lo + size):
            allowed[i] = B_FILLED
            covered[i] = size
    for i in range(n):
        if not reach[i]:
            allowed[i] = B_EMPTY
    return allowed, covered


@functools.lru_cache(maxsize=50000)
def overlap_of(now: tuple[int, ...], clue: tuple[int, ...]) -> tuple[list[int], dict[int, int]] | None:
    """overlap_allowed in a line with these candidates, when that narrows it (a solvable line
    with blocks); else None. Shared by every state in which the line looks the same, so a
    line the last step did not touch costs a look-up."""
    solver = solve_line(now, clue)
    if not clue or not solver.solvable:
        return None
    allowed, covered = overlap_allowed([solver.span(j) for j in range(len(clue))], clue, len(now))
    return (allowed, covered) if narrows(now, allowed) else None


@heuristic(id="picross.block-overlap", genre=GENRE)
def block_overlap(puzzle: PicrossPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    lines = lines_to_check(puzzle, focus)
    for place, line, now in open_lines(puzzle, state, lines):
        if overlap_of(now, puzzle.clues[line]) is not None:
            yield resumed(puzzle, overlap_deduction(puzzle, state, line), lines, place)


def overlap_deduction(puzzle: PicrossPuzzle, state: State, line: int) -> Deduction | None:
    """Block overlap in one solvable line with blocks."""
    found = overlap_of(line_cands(puzzle, state, line), puzzle.clues[line])
    if found is None:
        return None
    allowed, covered = found
    return line_deduction(puzzle, state, line, allowed,
                          functools.partial(overlap_reason, puzzle.lines[line], allowed, covered))


def overlap_reason(cells: tuple[int, ...], allowed: list[int], covered: dict[int, int],
                   removals: tuple[tuple[int, int], ...]) -> dict:
    """Why block overlap decides the cells it does: blocks that cover them either way, cells
    out of reach of every block, or both."""
    targets = {i for i, _ in removals}
    new_filled = [k for k, i in enumerate(cells) if i in targets and allowed[k] == B_FILLED]
    blocks = sorted({covered[k] for k in new_filled})
    reasons = []
    if blocks:
        verb = "covers" if len(blocks) == 1 else "cover"
        reasons.append(f"the {' and the '.join(map(str, blocks))} {verb} the same cells either way")
    if len(new_filled) < len(targets):
        reasons.append("some cells lie out of reach of every block")
    return {"reason": " and ".join(reasons)}


# --- level 4 ------------------------------------------------------------------------------

@heuristic(id="picross.line-solver", genre=GENRE)
def line_solver_step(puzzle: PicrossPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    lines = lines_to_check(puzzle, focus)
    for place, line, _ in open_lines(puzzle, state, lines):
        allowed = line_solver(puzzle, state, line).allowed()
        if allowed is None:
            continue
        yield resumed(puzzle, line_deduction(puzzle, state, line, allowed), lines, place)


def chain_screen(puzzle: PicrossPuzzle, bits: Sequence[tuple[int, int]], var: int, value: int, most: int
                 ) -> tuple[int | None, set[int]]:
    """A quick unrecorded look at a what-if (`var` has `value`): the simple line rules applied
    line by line, breadth first from the lines through var, until a line can no longer show
    its clue. Returns how many lines that took, counting the broken one (None when it takes
    more than `most`), and the lines it read: the look goes the same way while those lines
    hold the same candidates. `bits` holds each line's cell_bits in the state (read only)."""
    rows = puzzle.rows
    # the lines the look has narrowed, as cell_bits: a line is two integers to hash, not a
    # tuple of masks to build from a copy of the board
    narrowed_lines: dict[int, tuple[int, int]] = {}
    row, col = divmod(var, puzzle.cols)
    for line, at in ((row, col), (rows + col, row)):
        can_e, can_f = bits[line]
        narrowed_lines[line] = (can_e & ~(1 << at), can_f) if value == FILLED else (can_e, can_f & ~(1 << at))
    queue = deque(sorted(set(puzzle.lines_of[var])))
    queued = set(queue)
    read: set[int] = set()
    changes = 0
    # what the simple rules narrow in the crossing lines checked for a break, while nothing in
    # them has changed since: most are queued too, and read again when their turn comes
    checked: dict[int, tuple[int, int]] = {}
    while queue:
        line = queue.popleft()
        queued.discard(line)
        read.add(line)
        can_e, can_f = narrowed_lines.get(line) or bits[line]
        got = checked.pop(line, None)
        kept = simple_narrowing(can_e, can_f, len(puzzle.lines[line]), puzzle.clues[line]) if got is None else got
        if kept is None:
            return changes + 1, read
        crossing = []
        changed = (can_e ^ kept[0]) | (can_f ^ kept[1])
        if changed:
            narrowed_lines[line] = kept
        while changed:
            low = changed & -changed
            changed ^= low
            k = low.bit_length() - 1
            other, at = (rows + k, line) if line < rows else (k, line - rows)
            other_e, other_f = narrowed_lines.get(other) or bits[other]
            if not kept[0] & low:
                other_e &= ~(1 << at)
            if not kept[1] & low:
                other_f &= ~(1 << at)
            narrowed_lines[other] = (other_e, other_f)
            crossing.append(other)
            if other not in queued:
                queued.add(other)
                queue.append(other)
        if crossing:
            changes += 1
            # a crossing line this broke is seen at once, before the lines queued earlier
            for other in crossing:
                # read even when it holds: were it narrower, it might break here
                read.add(other)
                other_kept = simple_narrowing(*narrowed_lines[other], len(puzzle.lines[other]), puzzle.clues[other])
                if other_kept is None:
                    return (changes + 1, read) if changes < most else (None, read)
                checked[other] = other_kept
            if changes >= most:
                return None, read
    return None, read


def line_of(puzzle: PicrossPuzzle, cands: list[int], line: int) -> tuple[int, ...]:
    """The candidates of one line's cells in a board being filled in, as line_cands reads them
    off a state (slices: this runs very often)."""
    if line < puzzle.rows:
        return tuple(cands[line * puzzle.cols:(line + 1) * puzzle.cols])
    return tuple(cands[line - puzzle.rows::puzzle.cols])


@functools.lru_cache(maxsize=50000)
def simple_narrowing(can_e: int, can_f: int, n: int, clue: tuple[int, ...]) -> tuple[int, int] | None:
    """What the simple line rules (levels 1 and 3: one way, block overlap) leave in a line of n
    cells held as cell_bits: its cell_bits after them (None: it cannot show its clue). The
    blocks' spans are enough: one way is block overlap where every block has one start."""
    # not solve_line's shared Lines: a screen's lines are seldom seen again, and what each
    # cell keeps is more than the simple rules need
    start_sets = bit_block_starts(can_e, can_f, n, clue)
    if start_sets is None:
        return None
    reach = sure = 0        # the cells some block can cover; the cells a block covers either way
    for start_set, size in zip(start_sets, clue):
        lo, hi = span_of(start_set)
        reach |= ((1 << (hi + size - lo)) - 1) << lo
        if lo + size > hi:
            sure |= ((1 << (lo + size - hi)) - 1) << hi
    return can_e & ~sure, can_f & reach


def what_if_candidates(puzzle: PicrossPuzzle, state: State) -> Iterator[tuple[int, int]]:
    """(cell, assumed value) for the assumptions on undecided cells that the screen breaks
    within CHAIN_STEPS lines, most constrained cells first. A screen is kept for the rest of
    the solve with the lines it read, and reused while those lines hold the same candidates."""
    memory = solve_memory().setdefault("picross.what-if", {})
    now = [line_cands(puzzle, state, line) for line in range(len(puzzle.lines))]
    bits: list[tuple[int, int]] = []        # every line's cell_bits, made for the first screen
    for var in most_constrained(puzzle, state):
        if out_of_time():
            return
        for value in (FILLED, EMPTY):
            seen = memory.get((var, value))     # (lines broken within, the lines read, as they were)
            if seen is not None and tuple(map(now.__getitem__, seen[1])) == seen[2]:
                n = seen[0]
            else:
                bits = bits or [cell_bits(cands) for cands in now]
                n, read = chain_screen(puzzle, bits, var, value, CHAIN_STEPS)
                lines = tuple(read)
                memory[(var, value)] = (n, lines, tuple(map(now.__getitem__, lines)))
            if n is not None:
                yield var, value


def what_if_chain(puzzle: PicrossPuzzle, state: State, var: int, value: int) -> Trace:
    """The chain chain_screen saw, as steps: the same lines in the same order, each step the
    simple rule that settles the line (one way, no blocks, or block overlap), and the broken
    line last."""
    start = st = state.restrict(var, 1 << value)
    queue = deque(sorted(set(puzzle.lines_of[var])))
    queued = set(queue)
    rows, cols = puzzle.rows, puzzle.cols
    steps: list[Step] = []
    status, reason = Status.STUCK, "no line breaks"
    while queue and len(steps) < CHAIN_STEPS:
        line = queue.popleft()
        queued.discard(line)
        clue = puzzle.clues[line]
        solver = line_solver(puzzle, st, line)
        if not solver.solvable:
            hid, d = "picross.broken-line", broken_deduction(puzzle, st, line)
        elif not clue:
            hid, d = "picross.empty-line", line_deduction(puzzle, st, line, [B_EMPTY] * len(puzzle.lines[line]))
        elif solver.settled:
            hid, d = "picross.one-way", one_way_deduction(puzzle, st, line)
        else:
            hid, d = "picross.block-overlap", overlap_deduction(puzzle, st, line)
        if d is None:
            continue
        steps.append(Step(len(steps) + 1, REGISTRY.get(hid).info, d))
        st = d.apply(st)
        if hid == "picross.broken-line":
            status = Status.CONTRADICTION
            reason = f"{var_name(puzzle, puzzle.lines[line][0])} has no possible value left"
            break
        changed = {i for i, _ in d.removals}
        crossing = [rows + i % cols if line < rows else i // cols for i in puzzle.lines[line] if i in changed]
        for other in crossing:
            if other not in queued:
                queued.add(other)
                queue.append(other)
        broken = next((o for o in crossing if not line_solver(puzzle, st, o).solvable), None)
        if broken is not None and len(steps) < CHAIN_STEPS:
            queue.appendleft(broken)        # a crossing line this broke is seen at once
    return Trace(start, tuple(steps), status, st, 0.0, reason)


@heuristic(id="picross.what-if", genre=GENRE)
def what_if(puzzle: PicrossPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Assume one value of one cell, follow it with the simple line rules (a clue that fits one
    way, pushing the blocks to both ends) for a few lines, and meet a line that can no longer
    show its clue: the cell has the other value. The cells whose lines are nearest to finished
    are tried first; the chain is the first the screen finds."""
    from grader.core.explain import value_phrase
    for var, value in what_if_candidates(puzzle, state):
        if out_of_time():
            return
        trace = what_if_chain(puzzle, state, var, value)
        if trace.status is not Status.CONTRADICTION:
            continue                  # cannot happen: the chain is the screen's own
        name = var_name(puzzle, var)
        label = f"{name} {value_phrase(puzzle, value)}"
        removals = ((var, 1 << value),)
        steps = trace.steps
        last = steps[-1].deduction.params
        broken = f"{last['line']} can no longer show its clue {last['clue']}"
        lines = [s.deduction.params["line"] for s in steps[:-1]]
        if not lines:
            path = "at once "
        elif len(lines) == 1:
            path = f"the simple line rules then settle more of {lines[0]}, and "
        else:
            path = (f"the simple line rules then settle more of {', '.join(lines[:-1])} and {lines[-1]}"
                    " in turn, and ")
        yield Deduction(removals, {"cell": name, "assumption": label, "path": path,
                                   "contradiction": broken, "steps": len(steps),
                                   "outcome": describe_removals(puzzle, state, removals)},
                        (var,), detail=(Branch(label, trace),))
        return


# --- level 5 ------------------------------------------------------------------------------

def trial_fill() -> list:
    """What a level-5 trial fills in with: every technique up to level 4 but the what-if (a
    hypothesis of its own)."""
    return [h for h in REGISTRY.for_genre(GENRE, 4) if h.id != "picross.what-if"]


def most_constrained(puzzle: PicrossPuzzle, state: State) -> list[int]:
    """Undecided cells whose row and column have the fewest undecided cells: assumptions there
    settle or break a line soonest."""
    cands = state.cands
    open_count = [line_cands(puzzle, state, line).count(FREE) for line in range(len(puzzle.lines))]
    free = [i for i, m in enumerate(cands) if m == FREE]
    return sorted(free, key=lambda i: open_count[puzzle.lines_of[i][0]] + open_count[puzzle.lines_of[i][1]])


def propagate(puzzle: PicrossPuzzle, cands: list[int], lines: Iterable[int],
              written: list[int] | None = None) -> list[int] | None:
    """Run the line solver over `lines` and every line they change, to a fixpoint: the greedy
    fill of levels 1-4, without recording steps. None when a line breaks. `written`, when
    given, gets every cell it changes in `cands`."""
    queue = set(lines)
    rows, cols = puzzle.rows, puzzle.cols
    while queue:
        line = queue.pop()
        cells = puzzle.lines[line]
        now = line_of(puzzle, cands, line)
        allowed = solve_line(now, puzzle.clues[line]).kept
        if allowed is None:
            return None
        for k, i in enumerate(cells):
            if allowed[k] != now[k]:
                cands[i] = allowed[k]
                if written is not None:
                    written.append(i)
                queue.add(rows + i % cols if line < rows else i // cols)
    return cands


def promising(puzzle: PicrossPuzzle, state: State, var: int) -> bool:
    """A quick unrecorded look: does assuming either value of `var` break a line, or do both
    assumptions agree on some other cell?"""
    finals = []
    written = [var]
    for value in (B_EMPTY, B_FILLED):
        cands = list(state.cands)
        cands[var] = value
        final = propagate(puzzle, cands, puzzle.lines_of[var], written)
        if final is None:
            return True
        finals.append(final)
    a, b = finals
    # the cells neither look wrote are as in the state: only the written ones can agree
    return any((a[i] | b[i]) != state.cands[i] for i in written)


@heuristic(id="picross.trial-and-error", genre=GENRE)
def trial_and_error(puzzle: PicrossPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    # The line solver screens the cells quickly; the chosen cell is then probed by the engine's
    # recorded fill, so the step shows every easier step of each branch.
    lower = trial_fill()
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
    for _, line, _ in open_lines(puzzle, state, lines_to_check(puzzle, None)):
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
                                 max_steps=steps, heuristics=trial_fill())
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
