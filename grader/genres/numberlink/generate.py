"""Numberlink drafts for the generator (grader.core.generator): lines that cover the grid,
grown by joining the loose ends of neighbouring lines at random, each at least three cells;
the ends of each line become a pair of numbers. The pairs cannot go, so each draft is graded
as it is and the generator draws again until one hits the target. For an easy target the
lines are cut in two where the solve up to its level stops, until it finishes: easy published
Numberlinks have many short lines, whose numbers settle the cells around them at a glance."""
from __future__ import annotations

import random

from grader.core.engine import Solver
from grader.core.generator import Draft
from grader.core.model import Meta
from grader.core.steps import Status
from grader.genres.numberlink.model import GENRE
from grader.genres.numberlink.planted import line_ok

MIN_LENGTH = 3
EASY = 1        # for targets up to this level, lines are cut until the capped solve finishes


def random_lines(w: int, h: int, rng: random.Random, tidy: bool = False) -> list[list[int]] | None:
    """Lines (lists of cells, row-major indices) that cover a w x h grid, at least
    MIN_LENGTH cells each, grown by joining ends of neighbouring lines at random; `tidy`
    refuses a join that would run a line beside itself (the notes' rule)."""
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
            if not short:
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
        if all(len(line) >= MIN_LENGTH for line in line_of.values()) and rng.random() < 0.08:
            break
    lines = list({id(line): line for line in line_of.values()}.values())
    return lines if all(len(line) >= MIN_LENGTH for line in lines) else None


def draft(rng: random.Random, rows: int, cols: int, cap: int = 5) -> Draft | None:
    lines = random_lines(cols, rows, rng, tidy=True)
    if lines is None:
        return None
    puzzle = numbered(rows, cols, lines)
    while cap <= EASY:
        trace = Solver(puzzle, max_level=cap, assume_unique=False, greedy=True).solve()
        if trace.status is Status.SOLVED:
            break
        cands = trace.final.cands
        # a cut at an undecided cell, leaving lines of MIN_LENGTH where it can, else of two
        # cells (numbers side by side)
        for least in (MIN_LENGTH, 2):
            cuts = [(k, at) for k, line in enumerate(lines) for at in range(least - 1, len(line) - least)
                    if cands[line[at]] & (cands[line[at]] - 1)]
            if cuts:
                break
        else:
            return None
        k, at = rng.choice(cuts)
        lines[k:k + 1] = [lines[k][:at + 1], lines[k][at + 1:]]
        puzzle = numbered(rows, cols, lines)
    return Draft((), lambda kept: puzzle, grid=(rows, cols))


def numbered(rows: int, cols: int, lines: list[list[int]]):
    """The puzzle whose pairs of numbers are the ends of these lines (every cell used)."""
    tokens: list[str | None] = [None] * (rows * cols)
    for k, line in enumerate(lines, 1):
        tokens[line[0]] = tokens[line[-1]] = str(k)
    return GENRE._make(rows, cols, tokens, None, True, Meta())
