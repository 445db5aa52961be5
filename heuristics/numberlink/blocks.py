"""Level 2: the four cells of a 2x2 block together (a line never makes a U-turn)."""
from __future__ import annotations

import functools
from typing import Iterator

from grader.genres.numberlink.model import NumberlinkPuzzle
from grader.kernels.cell_shapes import E, N, S, SHAPES, W, Chains, chains
from grader.kernels.union_find import UnionFind
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.steps import Deduction, Later

from heuristics.numberlink.common import GENRE, along, listed_at

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


# A set of join patterns is a 16-bit mask: bit p stands for pattern p (bit k of p: join k).

@functools.cache
def block_patterns(labelled: tuple[bool, bool, bool, bool]) -> int:
    """Join patterns a 2x2 block allows: no loop, and no U-turn (three joins) whose two ends,
    side by side, are both away from the end numbers."""
    out = 0
    for pattern in range(16):
        count = pattern.bit_count()
        if count == 4:
            continue
        if count == 3:
            missing = next(k for k in range(4) if not pattern >> k & 1)
            u, v = BLOCK_JOINS[missing]
            if not (labelled[u] or labelled[v]):
                continue
        out |= 1 << pattern
    return out


F0, F1, F2, F3 = BLOCK_FIT


# The same few blocks of candidates come up again and again in the fills of look-aheads and
# trials, so what they keep is remembered.
@functools.lru_cache(maxsize=1 << 16)
def block_keep(m0: int, m1: int, m2: int, m3: int, patterns: int) -> tuple[int, int, int, int]:
    """The values of the four cells that fit some of the `patterns`."""
    k0 = k1 = k2 = k3 = 0
    for pattern in range(16):
        if not patterns >> pattern & 1:
            continue
        a, b, c, d = m0 & F0[pattern], m1 & F1[pattern], m2 & F2[pattern], m3 & F3[pattern]
        if a and b and c and d:
            k0 |= a
            k1 |= b
            k2 |= c
            k3 |= d
    return k0, k1, k2, k3


@heuristic(id="numberlink.no-u-turn", genre=GENRE)
def no_u_turn(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Three joins among the four cells of a 2x2 block form a U whose ends lie side by side
    on one line without being joined, which the no-touch rule forbids unless one end is a
    number; four joins close a loop. A shape no allowed way of joining the block fits goes."""
    allowed = allowed_patterns(puzzle)
    for k, block, ms in open_blocks(puzzle, state, focus):
        keep = block_keep(*ms, allowed[k])
        if keep != ms:
            yield block_deduction(puzzle, state, block, ms, keep)


def allowed_patterns(puzzle: NumberlinkPuzzle) -> tuple[int, ...]:
    """Per 2x2 block, block_patterns of its numbered cells, made once per puzzle."""
    return puzzle.once("_numberlink_block_patterns", lambda: tuple(map(block_patterns, puzzle.block_numbered)))


def open_blocks(puzzle: NumberlinkPuzzle, state: State, cells: frozenset[int] | None
                ) -> Iterator[tuple[int, tuple[int, ...], tuple[int, int, int, int]]]:
    """The 2x2 blocks with a cell among `cells` (None: all) and a cell still undecided:
    (index, cells, their candidates)."""
    cands, blocks = state.cands, puzzle.blocks
    which = range(len(blocks)) if cells is None else listed_at(puzzle, "blocks_of", cells)
    for k in which:
        block = blocks[k]
        ms = a, b, c, d = cands[block[0]], cands[block[1]], cands[block[2]], cands[block[3]]
        if a & (a - 1) or b & (b - 1) or c & (c - 1) or d & (d - 1):
            yield k, block, ms


def block_deduction(puzzle: NumberlinkPuzzle, state: State, block: tuple[int, ...], ms: tuple[int, ...],
                    keep: tuple[int, ...]) -> Deduction:
    removals = tuple((i, ms[p] & ~keep[p]) for p, i in enumerate(block) if ms[p] & ~keep[p])
    return Deduction(removals, Later(block_words, puzzle, state.cands, block, removals), region=block)


def block_words(puzzle: NumberlinkPuzzle, cands: tuple[int, ...], block: tuple[int, ...], removals) -> dict:
    from grader.core.explain import describe_removals
    return {"a": puzzle.cell(block[0]), "b": puzzle.cell(block[3]),
            "result": describe_removals(puzzle, State(cands), removals)}


def lines_allow(ch: Chains, block: tuple[int, ...], numbered: tuple[bool, ...]) -> int:
    """The join patterns of a block that agree with the lines drawn so far (patterns_fitting):
    what matters is which of its cells lie on one piece, which carry the same number's line,
    and which joins are drawn already."""
    root, labels, must = ch.root, ch.labels, ch.must
    a, b, c, d = block
    roots = (root[a], root[b], root[c], root[d])
    lines = (labels[a], labels[b], labels[c], labels[d])
    # the joins (BLOCK_JOINS) drawn already, seen from their first cell
    drawn = (must[a] & E and 1) | (must[c] & E and 2) | (must[a] & S and 4) | (must[b] & S and 8)
    if not drawn and lines.count(0) >= 3 and len(set(roots)) == 4:
        return block_patterns(numbered)     # four pieces and at most one line: nothing to break
    return patterns_fitting(tuple(map(roots.index, roots)),
                            tuple(lines.index(lab) + 1 if lab else 0 for lab in lines), drawn, numbered)


@functools.cache
def patterns_fitting(pieces: tuple[int, ...], lines: tuple[int, ...], drawn: int,
                     numbered: tuple[bool, ...]) -> int:
    """The patterns of block_patterns(numbered) that close no loop, put no two numbers on one
    line and leave no two cells of one line side by side unjoined (end numbers excepted).
    A block's cells are named by position: pieces[p] is the first position on the piece of p,
    lines[p] the first position (plus one) on the same number's line, 0 for none; `drawn`:
    the joins drawn already."""
    allowed = block_patterns(numbered)
    return sum(1 << pattern for pattern in range(16)
               if allowed >> pattern & 1 and _fits(pieces, lines, drawn, numbered, pattern))


def _fits(pieces: tuple[int, ...], lines: tuple[int, ...], drawn: int, numbered: tuple[bool, ...],
          pattern: int) -> bool:
    joined = UnionFind(parent=pieces)
    find = joined.find
    for k, (u, v) in enumerate(BLOCK_JOINS):
        if pattern >> k & 1 and not drawn >> k & 1 and not joined.union(u, v):
            return False                # a loop
    line_label: dict[int, int] = {}
    for p in range(4):
        if lines[p] and line_label.setdefault(find(p), lines[p]) != lines[p]:
            return False                # two numbers on one line
    for k, (u, v) in enumerate(BLOCK_JOINS):
        if not pattern >> k & 1 and not (numbered[u] or numbered[v]):
            ru, rv = find(u), find(v)
            if ru == rv or (line_label.get(ru) and line_label.get(ru) == line_label.get(rv)):
                return False            # one line side by side with itself
    return True


@heuristic(id="numberlink.block-lines", genre=GENRE)
def block_lines(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """The 2x2 block of "no U-turn" with the drawn lines: each way of joining the four cells
    must also keep different numbers apart, close no loop through the lines outside, and
    leave no two side-by-side cells of one line unjoined."""
    numbered = puzzle.block_numbered
    ch = chains(puzzle, state)
    for k, block, ms in open_blocks(puzzle, state, along(ch, focus)):
        keep = block_keep(*ms, lines_allow(ch, block, numbered[k]))
        if keep != ms:
            yield block_deduction(puzzle, state, block, ms, keep)
