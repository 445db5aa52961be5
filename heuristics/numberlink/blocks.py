"""Level 2: the four cells of a 2x2 block together (a line never makes a U-turn)."""
from __future__ import annotations

import functools
from typing import Iterator

from grader.genres.numberlink import (
    SHAPES,
    Chains,
    E,
    N,
    NumberlinkPuzzle,
    S,
    W,
    chains,
)
from grader.heuristic import heuristic
from grader.model import State
from grader.steps import Deduction

from .common import GENRE

# Inside a 2x2 block (cells top left, top right, bottom left, bottom right) a line can take
# the four inner joins top, bottom, left and right; each cell faces two of them.
BLOCK_JOINS = ((0, 1), (2, 3), (0, 2), (1, 3))
INNER_SIDES = ((E, S), (W, S), (E, N), (W, N))      # per cell: the side of its row join, of its column join
ROW_JOIN, COLUMN_JOIN = (0, 0, 1, 1), (2, 3, 2, 3)


def _fit(position: int, pattern: int) -> int:
    """Values of a cell at `position` whose inner sides are exactly those `pattern` joins."""
    row_side, column_side = INNER_SIDES[position]
    want = (row_side if pattern >> ROW_JOIN[position] & 1 else 0) | (
        column_side if pattern >> COLUMN_JOIN[position] & 1 else 0)
    return sum(1 << v for v, m in enumerate(SHAPES) if m & (row_side | column_side) == want)


BLOCK_FIT = tuple(tuple(_fit(pos, pattern) for pattern in range(16)) for pos in range(4))


@functools.cache
def block_patterns(labelled: tuple[bool, bool, bool, bool]) -> tuple[int, ...]:
    """Join patterns a 2x2 block allows: no loop, and no U-turn (three joins) whose two ends,
    side by side, are both away from the end numbers."""
    out = []
    for pattern in range(16):
        count = pattern.bit_count()
        if count == 4:
            continue
        if count == 3:
            missing = next(k for k in range(4) if not pattern >> k & 1)
            u, v = BLOCK_JOINS[missing]
            if not (labelled[u] or labelled[v]):
                continue
        out.append(pattern)
    return tuple(out)


F0, F1, F2, F3 = BLOCK_FIT


def block_keep(ms: list[int], patterns: tuple[int, ...], allowed=None) -> list[int]:
    """The values of the four cells that fit some pattern (that `allowed` accepts, asked
    only when the pattern would keep something new)."""
    m0, m1, m2, m3 = ms
    k0 = k1 = k2 = k3 = 0
    for pattern in patterns:
        a = m0 & F0[pattern]
        if not a:
            continue
        b = m1 & F1[pattern]
        if not b:
            continue
        c = m2 & F2[pattern]
        if not c:
            continue
        d = m3 & F3[pattern]
        if not d:
            continue
        if (a & ~k0 or b & ~k1 or c & ~k2 or d & ~k3) and (allowed is None or allowed(pattern)):
            k0 |= a
            k1 |= b
            k2 |= c
            k3 |= d
    return [k0, k1, k2, k3]


@heuristic(id="numberlink.no-u-turn", name="No U-turn in a 2x2 block", genre=GENRE, level=2, order=5,
           template="Inside the 2x2 block from {a} to {b} a line may not turn back beside itself or "
                    "close a loop, so {result}.",
           nudge="Look at the 2x2 block from {a} to {b}: how can its cells be joined?")
def no_u_turn(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Three joins among the four cells of a 2x2 block form a U whose ends lie side by side
    on one line without being joined, which the no-touch rule forbids unless one end is a
    number; four joins close a loop. A shape no allowed way of joining the block fits goes."""
    from grader.explain import describe_removals
    cands, labels = state.cands, puzzle.labels
    if focus is None:
        which = range(len(puzzle.blocks))
    else:
        which = sorted({k for i in focus for k in puzzle.blocks_of[i]})
    for k in which:
        block = puzzle.blocks[k]
        ms = [cands[i] for i in block]
        if not any(m & (m - 1) for m in ms):
            continue
        keep = block_keep(ms, block_patterns(tuple(bool(labels[i]) for i in block)))
        if keep != ms:
            removals = tuple((i, ms[p] & ~keep[p]) for p, i in enumerate(block) if ms[p] & ~keep[p])
            found = Deduction.build(state, keep={i: keep[p] for p, i in enumerate(block)}, region=block,
                                    params={"a": puzzle.cell(block[0]), "b": puzzle.cell(block[3]),
                                            "result": describe_removals(puzzle, state, removals)})
            if found:
                yield found


JOIN_SIDE = (E, E, S, S)       # the side of the first cell of each block join


def pattern_fits_lines(puzzle: NumberlinkPuzzle, ch: Chains, block: tuple[int, ...], pattern: int) -> bool:
    """Whether joining the block's cells as `pattern` agrees with the lines drawn so far:
    no loop, no two numbers on one line, no two cells of one line side by side unjoined
    (end numbers excepted)."""
    root, must, chl, numbered = ch.root, ch.must, ch.labels, puzzle.labels
    parent: dict[int, int] = {}

    def find(r: int) -> int:
        while parent.get(r, r) != r:
            r = parent[r]
        return r
    for k in range(4):
        if pattern >> k & 1:
            u, v = block[BLOCK_JOINS[k][0]], block[BLOCK_JOINS[k][1]]
            if must[u] & JOIN_SIDE[k]:
                continue                # drawn already
            ru, rv = find(root[u]), find(root[v])
            if ru == rv:
                return False            # a loop
            parent[ru] = rv
    line_label: dict[int, int] = {}
    for i in block:
        if chl[i] and line_label.setdefault(find(root[i]), chl[i]) != chl[i]:
            return False                # two numbers on one line
    for k in range(4):
        if not pattern >> k & 1:
            u, v = block[BLOCK_JOINS[k][0]], block[BLOCK_JOINS[k][1]]
            if numbered[u] or numbered[v]:
                continue
            ru, rv = find(root[u]), find(root[v])
            if ru == rv or (line_label.get(ru) and line_label.get(ru) == line_label.get(rv)):
                return False            # one line side by side with itself
    return True


@heuristic(id="numberlink.block-lines", name="A 2x2 block with the lines drawn", genre=GENRE, level=2,
           order=6,
           template="Inside the 2x2 block from {a} to {b}, the ways of joining its cells that would close "
                    "a loop with the lines already drawn, join two numbers or bring a line beside itself "
                    "are ruled out, so {result}.",
           nudge="Look at the 2x2 block from {a} to {b} and the lines that reach it.")
def block_lines(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """The 2x2 block of "no U-turn" with the drawn lines: each way of joining the four cells
    must also keep different numbers apart, close no loop through the lines outside, and
    leave no two side-by-side cells of one line unjoined."""
    from grader.explain import describe_removals
    cands, labels = state.cands, puzzle.labels
    ch = chains(puzzle, state)
    near = ch.along(focus)
    which = range(len(puzzle.blocks)) if near is None else sorted({k for i in near for k in puzzle.blocks_of[i]})
    for k in which:
        block = puzzle.blocks[k]
        ms = [cands[i] for i in block]
        if not any(m & (m - 1) for m in ms):
            continue
        keep = block_keep(ms, block_patterns(tuple(bool(labels[i]) for i in block)),
                          lambda pattern, block=block: pattern_fits_lines(puzzle, ch, block, pattern))
        if keep != ms:
            removals = tuple((i, ms[p] & ~keep[p]) for p, i in enumerate(block) if ms[p] & ~keep[p])
            found = Deduction.build(state, keep={i: keep[p] for p, i in enumerate(block)}, region=block,
                                    params={"a": puzzle.cell(block[0]), "b": puzzle.cell(block[3]),
                                            "result": describe_removals(puzzle, state, removals)})
            if found:
                yield found
