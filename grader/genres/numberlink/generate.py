"""Numberlink drafts for the generator (grader.core.generator): lines that cover the grid,
grown by joining the loose ends of neighbouring lines at random, each at least three cells;
the ends of each line become a pair of numbers. The pairs cannot go, so each draft is graded
as it is and the generator draws again until one hits the target. A draft's lines are cut in
two where the solve up to the target's level stops, until that solve finishes (for level 5,
where two solutions differ, until it has one): a puzzle the techniques solve has one
solution, so no exact check is needed on the way, and the last cut leaves a puzzle that level
only just settles. (Easy published Numberlinks have many short
lines, whose numbers settle the cells around them at a glance; a hard one has fewer, longer
lines, which level-4 drafts grow.)"""
from __future__ import annotations

import random

from grader.core.generator import Draft, undecided, where_solutions_differ
from grader.core.model import Meta
from grader.genres.numberlink.model import GENRE, NumberlinkPuzzle
from grader.genres.numberlink.planted import line_ok

MIN_LENGTH = 3
# Up to this level, lines are cut where the capped solve stops; a level-5 target has no capped
# solve to ask (its own would be the trial and error the grade is about), so its lines are cut
# where two solutions differ. Asking the exact solver for every cut was most of the time of a
# level-3 or level-4 target (194 checks, 17 of 18 CPU seconds, for one level-4 puzzle).
BY_SOLVE = 4
# From this level, drafts grow longer lines: of 30 drafts cut for level 4, 7 graded at level
# 4 with them and 0 to 1 with the short lines of easier targets.
LONG_LINES = 4


def random_lines(w: int, h: int, rng: random.Random, tidy: bool = False, long: bool = False
                 ) -> list[list[int]] | None:
    """Lines (lists of cells, row-major indices) that cover a w x h grid, at least
    MIN_LENGTH cells each, grown by joining ends of neighbouring lines at random; `tidy`
    refuses a join that would run a line beside itself (the notes' rule). Growth stops at
    random, or at the first loose end with no other end beside it; `long` goes on past such
    ends and stops less often, so the lines are fewer and longer."""
    stop = 0.02 if long else 0.08
    line_of = {i: [i] for i in range(w * h)}

    def neighbours(i: int) -> list[int]:
        r, c = divmod(i, w)
        return [rr * w + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if 0 <= rr < h and 0 <= cc < w]

    for _ in range(w * h * 20):
        ends = [i for i, line in line_of.items() if line[0] == i or line[-1] == i]
        short = [i for i in ends if len(line_of[i]) < MIN_LENGTH]
        pick = rng.choice(short or ends)
        options = [j for j in neighbours(pick) if line_of[j] is not line_of[pick]
                   and (line_of[j][0] == j or line_of[j][-1] == j)]
        if not options:
            if not short and not long:
                break
            continue
        if not short and rng.random() < 0.35:
            continue
        j = rng.choice(options)
        a, b = line_of[pick], line_of[j]
        a = a if a[-1] == pick else a[::-1]
        b = b if b[0] == j else b[::-1]
        joined = a + b
        if tidy and not line_ok(w, joined):
            continue
        for x in joined:
            line_of[x] = joined
        if all(len(line) >= MIN_LENGTH for line in line_of.values()) and rng.random() < stop:
            break
    lines = list({id(line): line for line in line_of.values()}.values())
    return lines if all(len(line) >= MIN_LENGTH for line in lines) else None


def draft(rng: random.Random, rows: int, cols: int, cap: int = 5) -> Draft | None:
    """Random lines, cut in two where the puzzle is still open: where the solve up to the
    target's level stops (BY_SOLVE), else where two solutions differ, until it has one."""
    lines = random_lines(cols, rows, rng, tidy=True, long=cap >= LONG_LINES)
    if lines is None:
        return None
    while True:
        puzzle = numbered(rows, cols, lines)
        open_ = undecided(puzzle, cap) if cap <= BY_SOLVE else where_solutions_differ(puzzle)
        if open_ is None:
            return None
        if not open_:
            return Draft((), lambda kept: puzzle, grid=(rows, cols))
        if not cut(rng, lines, set(open_)):
            return None


def cut(rng: random.Random, lines: list[list[int]], cells: set[int]) -> bool:
    """Cuts a line in two after one of `cells` (new numbers there and next to it), leaving
    lines of MIN_LENGTH where it can, else of two cells (numbers side by side); False when
    none of the cells can be cut at."""
    for least in (MIN_LENGTH, 2):
        cuts = [(k, at) for k, line in enumerate(lines) for at in range(least - 1, len(line) - least)
                if line[at] in cells]
        if cuts:
            k, at = rng.choice(cuts)
            lines[k:k + 1] = [lines[k][:at + 1], lines[k][at + 1:]]
            return True
    return False


def numbered(rows: int, cols: int, lines: list[list[int]]) -> NumberlinkPuzzle:
    """The puzzle whose pairs of numbers are the ends of these lines (every cell used)."""
    tokens: list[str | None] = [None] * (rows * cols)
    for k, line in enumerate(lines, 1):
        tokens[line[0]] = tokens[line[-1]] = str(k)
    return GENRE._make(rows, cols, tokens, None, True, Meta())
