"""A nonogram line solver: dynamic programming over the clue, never enumeration.

A line is a list of candidate masks, one per cell (bit EMPTY = 1, bit FILLED = 2), and a clue
(block lengths in order). `Line` computes, in O(len(clue) * len(line)) time:

- every valid placement of every block (a start that some full solution of the line uses),
  from a prefix table ("the first i cells can hold the first j blocks") and a suffix table;
- from those: which cells can still be empty or filled (the intersection of all solutions),
  the left-most and right-most start of each block, and how many solutions the line has.

A 30-wide line with ten blocks costs a few thousand operations, however many solutions exist.
"""
from __future__ import annotations

import functools
from typing import Sequence

EMPTY, FILLED = 0, 1
E, F = 1 << EMPTY, 1 << FILLED


class Line:
    """What the clue and the current candidates allow in one line."""

    def __init__(self, cands: Sequence[int], clue: Sequence[int]):
        n, k = len(cands), len(clue)
        self.n, self.clue = n, tuple(clue)
        can_e = [bool(m & E) for m in cands]
        # run_f[i] = how many cells in a row from i (going right) can be filled
        run_f = [0] * (n + 1)
        for i in range(n - 1, -1, -1):
            run_f[i] = run_f[i + 1] + 1 if cands[i] & F else 0
        # pre[j][i]: cells [0, i) can hold exactly blocks 0..j-1 (the rest of them empty)
        pre = [[False] * (n + 1) for _ in range(k + 1)]
        pre[0][0] = True
        for i in range(1, n + 1):
            pre[0][i] = pre[0][i - 1] and can_e[i - 1]
        for j in range(1, k + 1):
            size, row, prev = clue[j - 1], pre[j], pre[j - 1]
            for i in range(1, n + 1):
                ok = row[i - 1] and can_e[i - 1]
                s = i - size
                if not ok and s >= 0 and run_f[s] >= size:
                    ok = prev[0] if (j == 1 and s == 0) else (s >= 1 and can_e[s - 1] and prev[s - 1])
                row[i] = ok
        # suf[j][i]: cells [i, n) can hold exactly blocks j..k-1
        suf = [[False] * (n + 2) for _ in range(k + 1)]
        suf[k][n] = True
        for i in range(n - 1, -1, -1):
            suf[k][i] = suf[k][i + 1] and can_e[i]
        for j in range(k - 1, -1, -1):
            size, row, nxt = clue[j], suf[j], suf[j + 1]
            for i in range(n - 1, -1, -1):
                ok = row[i + 1] and can_e[i]
                end = i + size
                if not ok and end <= n and run_f[i] >= size:
                    ok = nxt[n] if end == n and j == k - 1 else (end < n and can_e[end] and nxt[end + 1])
                row[i] = ok
        self.solvable = pre[k][n]
        # starts[j]: the starts of block j that some solution uses
        self.starts: list[list[int]] = []
        for j in range(k):
            size, ok_starts = clue[j], []
            for s in range(n - size + 1):
                if run_f[s] < size:
                    continue
                before = pre[0][0] if (j == 0 and s == 0) else (s >= 1 and can_e[s - 1] and pre[j][s - 1])
                if not before:
                    continue
                end = s + size
                after = (j == k - 1) if end == n else (can_e[end] and suf[j + 1][end + 1])
                if after:
                    ok_starts.append(s)
            self.starts.append(ok_starts)
        self._cands = tuple(cands)
        # what each cell keeps over all solutions (None: no solution); read-only
        self.kept = self._intersect(pre, suf) if self.solvable else None

    def allowed(self) -> list[int] | None:
        """The candidates each cell keeps over all solutions of the line; None if there is none."""
        return None if self.kept is None else list(self.kept)

    @property
    def settled(self) -> bool:
        """The line has exactly one solution (every cell keeps a single candidate)."""
        return self.kept is not None and all(m in (E, F) for m in self.kept)

    def _intersect(self, pre, suf) -> list[int]:
        n, k, cands = self.n, len(self.clue), self._cands
        out = [0] * n
        # cell i can be empty when, for some j, blocks 0..j-1 fit before it and j.. after it
        gaps = 0
        for j in range(k + 1):
            p_row, s_row = pre[j], suf[j]
            gaps |= sum(1 << i for i in range(n) if p_row[i] and s_row[i + 1])
        for i in range(n):
            if gaps >> i & 1 and cands[i] & E:
                out[i] = E
        diff = [0] * (n + 1)
        for j, starts in enumerate(self.starts):
            for s in starts:
                diff[s] += 1
                diff[s + self.clue[j]] -= 1
        run = 0
        for i in range(n):
            run += diff[i]
            if run:
                out[i] |= F
        return out

    def span(self, j: int) -> tuple[int, int]:
        """Left-most start and right-most start of block j."""
        return self.starts[j][0], self.starts[j][-1]

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
