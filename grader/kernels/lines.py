"""A nonogram line solver: dynamic programming over the clue, never enumeration.

A line is a list of candidate masks, one per cell (bit EMPTY = 1, bit FILLED = 2), and a clue
(block lengths in order). `Line` computes, with O(len(clue) * log(len(line))) operations on
bit sets as long as the line (a table row is one integer, bit i for position i):

- every valid placement of every block (a start that some full solution of the line uses),
  from a prefix table ("the first i cells can hold the first j blocks") and a suffix table;
- from those: which cells can still be empty or filled (the intersection of all solutions),
  the left-most and right-most start of each block, and how many solutions the line has.

A 30-wide line with ten blocks costs a few thousand operations, however many solutions exist.
"""
from __future__ import annotations

import functools
import operator
from typing import Sequence

EMPTY, FILLED = 0, 1
E, F = 1 << EMPTY, 1 << FILLED


# Byte tables between candidate masks and the binary digits of bit sets (bit i: cell i).
_CAN_E = bytes(b"01"[m & E] for m in range(256))
_CAN_F = bytes(b"01"[m >> 1 & 1] for m in range(256))
_AS_E = bytes.maketrans(b"01", bytes((0, E)))
_AS_F = bytes.maketrans(b"01", bytes((0, F)))


def _spread(seeds: int, through: int, n: int, right: bool) -> int:
    """Positions (bits 0..n) reached from `seeds` by moving one position at a time, right from
    p to p + 1 or left from p + 1 to p, over cells p whose bit is set in `through`: in
    a few word operations (right: one addition; left: rounds that each double the length of
    the moves)."""
    if right:       # one addition: a carry runs from the first seed of a stretch to its end
        return ((through + (seeds & through)) ^ through) | seeds
    reach, passable, step = seeds, through, 1
    while step <= n:
        reach |= (reach >> step) & passable
        passable &= passable >> step        # bit p: cells p .. p + 2 * step - 1 all passable
        step <<= 1
    return reach


def cell_bits(cands: Sequence[int]) -> tuple[int, int]:
    """(the cells that can be empty, the cells that can be filled) of a line, as bit sets (bit
    i: cell i)."""
    masks = bytes(cands)[::-1]
    return int(masks.translate(_CAN_E) or b"0", 2), int(masks.translate(_CAN_F) or b"0", 2)


def _tables(cands: Sequence[int], clue: tuple[int, ...]) -> tuple[int, list[int], list[int], list[int]]:
    """(the cells that can be empty, the prefix table, the suffix table, the start set of each
    block) of a line, as bit sets (see Line: bit s of a start set, block j starts at s in
    some solution; the line is solvable when bit n of the last prefix row is set)."""
    return _bit_tables(*cell_bits(cands), len(cands), clue)


def _bit_tables(can_e: int, can_f: int, n: int, clue: tuple[int, ...]
                ) -> tuple[int, list[int], list[int], list[int]]:
    """_tables of a line of n cells held as cell_bits."""
    k = len(clue)
    # Rows of the tables are bit sets over positions 0..n, so each is a few word operations.
    fits: dict[int, int] = {}                 # size -> the starts of a run of that many fillable cells

    def fit(size: int) -> int:
        if size not in fits:
            run, length = can_f, 1
            while length < size:              # bit s: cells s .. s + length - 1 all fillable
                more = min(length, size - length)
                run &= run >> more
                length += more
            fits[size] = run & ((1 << (n - size + 1)) - 1) if size <= n else 0
        return fits[size]

    # pre[j], bit i: cells [0, i) can hold exactly blocks 0..j-1 (the rest of them empty)
    pre = [_spread(1, can_e, n, True)]
    # before[j], bit s: block j may start at s as far as the cells before it go
    before = []
    for j in range(k):
        before.append(((pre[j] & can_e) << 1) | (1 if j == 0 else 0))
        pre.append(_spread((before[j] & fit(clue[j])) << clue[j], can_e, n, True))
    # suf[j], bit i: cells [i, n) can hold exactly blocks j..k-1
    suf = [0] * (k + 1)
    suf[k] = _spread(1 << n, can_e, n, False)
    after = [0] * k         # bit s: block j may start at s as far as the cells after it go
    for j in range(k - 1, -1, -1):
        size = clue[j]
        after[j] = ((((suf[j + 1] >> 1) & can_e) >> size)
                    | ((1 << (n - size)) if j == k - 1 and size <= n else 0))
        suf[j] = _spread(after[j] & fit(size), can_e, n, False)
    return can_e, pre, suf, [fit(clue[j]) & before[j] & after[j] for j in range(k)]


def block_starts(cands: Sequence[int], clue: Sequence[int]) -> list[int] | None:
    """The start set of each block (Line.start_sets), or None when the line cannot show its
    clue: a Line without what each cell keeps, for a look that needs only where the blocks
    may lie (a quarter of the cost)."""
    return bit_block_starts(*cell_bits(cands), len(cands), tuple(clue))


def bit_block_starts(can_e: int, can_f: int, n: int, clue: tuple[int, ...]) -> list[int] | None:
    """block_starts of a line of n cells held as cell_bits (what the what-if screen keeps: no
    tuple of masks to build and hash for every line it reads)."""
    _, pre, _, start_sets = _bit_tables(can_e, can_f, n, clue)
    return start_sets if pre[-1] >> n & 1 else None


def span_of(start_set: int) -> tuple[int, int]:
    """Left-most start and right-most start of a block, from its (non-empty) start set."""
    return (start_set & -start_set).bit_length() - 1, start_set.bit_length() - 1


class Line:
    """What the clue and the current candidates allow in one line."""

    def __init__(self, cands: Sequence[int], clue: Sequence[int]):
        self.n, self.clue = len(cands), tuple(clue)
        can_e, pre, suf, self.start_sets = _tables(cands, self.clue)
        self.solvable = bool(pre[-1] >> self.n & 1)
        self._cands = tuple(cands)
        # what each cell keeps over all solutions (None: no solution); read-only
        self.kept: list[int] | None = None
        self.settled = False        # the line has exactly one solution
        if self.solvable:
            self._intersect(pre, suf, can_e)

    @functools.cached_property
    def starts(self) -> list[list[int]]:
        """starts[j]: the starts of block j that some solution uses, in order (listed on first
        use: most looks need only the first and the last, see span)."""
        out = []
        for ok in self.start_sets:
            starts = []
            while ok:
                low = ok & -ok
                starts.append(low.bit_length() - 1)
                ok ^= low
            out.append(starts)
        return out

    def same_solutions(self, cands: Sequence[int]) -> bool:
        """Whether a line with these candidates (and this clue) has exactly this line's
        solutions: it lacks no value a solution uses and holds no candidate this line lacks.
        Then this Line answers for it, its count and solutions included."""
        if self.kept is None:
            return False
        now = int.from_bytes(bytes(cands), "little")        # a byte per cell: bits never mix
        return not now & ~self._bits[0] and now & self._bits[1] == self._bits[1]

    @functools.cached_property
    def _bits(self) -> tuple[int, int]:
        """The candidates and what each cell keeps, a byte per cell (for same_solutions)."""
        return int.from_bytes(bytes(self._cands), "little"), int.from_bytes(bytes(self.kept or ()), "little")

    def allowed(self) -> list[int] | None:
        """The candidates each cell keeps over all solutions of the line; None if there is none."""
        return None if self.kept is None else list(self.kept)

    def _intersect(self, pre: list[int], suf: list[int], can_e: int) -> None:
        """Set kept and settled (every cell keeps a single candidate) of a solvable line."""
        # cell i can be empty when, for some j, blocks 0..j-1 fit before it and j.. after it
        gaps = 0
        for p_row, s_row in zip(pre, suf):
            gaps |= p_row & (s_row >> 1)
        gaps &= can_e
        # and filled when some block's start covers it
        covered = 0
        for size, starts in zip(self.clue, self.start_sets):
            for t in range(size):
                covered |= starts << t
        n = self.n
        self.kept = list(map(operator.or_, format(gaps, f"0{n}b")[::-1].encode().translate(_AS_E),
                             format(covered, f"0{n}b")[::-1].encode().translate(_AS_F)))
        self.settled = not gaps & covered and gaps | covered == (1 << n) - 1

    def span(self, j: int) -> tuple[int, int]:
        """Left-most start and right-most start of block j (of a solvable line)."""
        return span_of(self.start_sets[j])

    def count(self, cap: int = 10 ** 9) -> int:
        """How many solutions the line has (at most `cap`)."""
        if not self.solvable:
            return 0
        n, k, cands = self.n, len(self.clue), self._cands
        can_e = [bool(m & E) for m in cands]
        # ways[j][i]: ways to fill cells [0, i) with blocks 0..j-1
        ways = [[0] * (n + 1) for _ in range(k + 1)]
        ways[0][0] = 1
        for i in range(1, n + 1):
            ways[0][i] = ways[0][i - 1] if can_e[i - 1] else 0
        for j in range(1, k + 1):
            size, valid = self.clue[j - 1], set(self.starts[j - 1])
            for i in range(1, n + 1):
                total = ways[j][i - 1] if can_e[i - 1] else 0
                s = i - size
                if s in valid:
                    total += ways[0][0] if (j == 1 and s == 0) else (ways[j - 1][s - 1] if s >= 1 and can_e[s - 1] else 0)
                ways[j][i] = min(total, cap)
        return ways[k][n]

    def solutions(self, limit: int) -> list[tuple[int, ...]] | None:
        """Every solution as block starts, or None when there are more than `limit`."""
        if self.count(limit + 1) > limit:
            return None
        out: list[tuple[int, ...]] = []
        k, clue, cands = len(self.clue), self.clue, self._cands

        def extend(j: int, lo: int, acc: tuple[int, ...]) -> None:
            if j == k:
                if all(cands[i] & E for i in range(lo, self.n)):
                    out.append(acc)
                return
            for s in self.starts[j]:
                if s < lo:
                    continue
                if not all(cands[i] & E for i in range(lo, s)):
                    break
                extend(j + 1, s + clue[j] + 1, acc + (s,))
        extend(0, 0, ())
        return out


@functools.lru_cache(maxsize=20000)
def solve_line(cands: tuple[int, ...], clue: tuple[int, ...]) -> Line:
    """A Line, shared by every state in which this line holds the same candidates."""
    return Line(cands, clue)


def fill_of(n: int, clue: Sequence[int], starts: Sequence[int]) -> list[int]:
    """The line a placement draws, as decided masks."""
    out = [E] * n
    for size, s in zip(clue, starts):
        for i in range(s, s + size):
            out[i] = F
    return out


def minimum_length(clue: Sequence[int]) -> int:
    """The fewest cells a clue needs: its blocks plus one gap between each pair."""
    return sum(clue) + max(len(clue) - 1, 0)


def runs(cells: Sequence[bool]) -> list[int]:
    """Block lengths of a filled/empty line, left to right (the clue it shows)."""
    out, run = [], 0
    for filled in cells:
        if filled:
            run += 1
        elif run:
            out.append(run)
            run = 0
    if run:
        out.append(run)
    return out
