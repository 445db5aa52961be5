"""Heyawake drafts for the generator (grader.core.generator): the board cut into rectangular
rooms at random, a random valid shading drawn by the exact solver (random decisions, a fixed
seed from the generator's), and every room numbered in its top-left cell. The generator takes
room numbers away; the rooms stay.

Level 1 decides a room only from its own number (none shaded, or every cell it can shade), so
a level-1 draft cuts a room the level-1 solve leaves undecided in two, along a line the shading
allows (no white run across two borders), until the solve finishes: Tatham's easy tiers keep
more clues in the same way, here as more rooms."""
from __future__ import annotations

import random

from grader.core import exact
from grader.core.errors import Source
from grader.core.engine import Solver
from grader.core.generator import Draft
from grader.core.model import Meta
from grader.genres.heyawake.model import GENRE, HeyawakePuzzle

SOURCE = Source("<generator>")
LARGEST_ROOM = 6       # small rooms: with every room numbered the shading is then mostly settled


def split(rng: random.Random, top: int, left: int, h: int, w: int, out: list, largest: int = 12) -> None:
    """Cut a rectangle (top, left, height, width) in two until its pieces are room-sized:
    at most `largest` cells (or a 1x3 strip), and often smaller."""
    area = h * w
    if area <= 2 or (area <= largest and rng.random() < 0.55) or (h == 1 and w <= 3):
        out.append((top, left, h, w))
        return
    if (w > h or (w == h and rng.random() < 0.5)) and w > 1:
        cut = rng.randint(1, w - 1)
        split(rng, top, left, h, cut, out, largest)
        split(rng, top, left + cut, h, w - cut, out, largest)
    else:
        cut = rng.randint(1, h - 1)
        split(rng, top, left, cut, w, out, largest)
        split(rng, top + cut, left, h - cut, w, out, largest)


def rooms(rng: random.Random, rows: int, cols: int) -> list[tuple[int, int, int, int]]:
    """Rectangles (top, left, height, width) that tile the board, of room sizes."""
    out: list[tuple[int, int, int, int]] = []
    split(rng, 0, 0, rows, cols, out, LARGEST_ROOM)
    return out


def draft(rng: random.Random, rows: int, cols: int, cap: int = 5) -> Draft | None:
    rects = rooms(rng, rows, cols)
    blank = GENRE.build(rows, cols, room_labels(rects, rows, cols), {}, SOURCE, Meta())
    solution = exact.random_solution(blank, rng.randrange(1 << 30))
    if solution is None:
        return None
    shaded = set(GENRE.solution_from_state(blank, solution))
    if cap == 1 and (rects := cut_until_solved(rng, rects, rows, cols, shaded)) is None:
        return None
    labels = room_labels(rects, rows, cols)
    numbers = room_numbers(rects, cols, shaded)

    def build(kept: frozenset[int]) -> HeyawakePuzzle:
        return GENRE.build(rows, cols, labels, {i: n for i, n in numbers.items() if i in kept}, SOURCE, Meta())
    return Draft(tuple(sorted(numbers)), build, grid=(rows, cols))


Rect = tuple[int, int, int, int]         # top, left, height, width


def room_labels(rects: list[Rect], rows: int, cols: int) -> list[int]:
    labels = [0] * (rows * cols)
    for k, (t, l, h, w) in enumerate(rects):
        for r in range(t, t + h):
            for c in range(l, l + w):
                labels[r * cols + c] = k
    return labels


def room_numbers(rects: list[Rect], cols: int, shaded: set[int]) -> dict[int, int]:
    """Each room's count of shaded cells, in its top-left cell."""
    return {t * cols + l: sum(1 for r in range(t, t + h) for c in range(l, l + w) if r * cols + c in shaded)
            for t, l, h, w in rects}


def cut_until_solved(rng: random.Random, rects: list[Rect], rows: int, cols: int,
                     shaded: set[int]) -> list[Rect] | None:
    """The rooms, cut until the level-1 solve of every number finishes; None if a room it
    leaves undecided cannot be cut."""
    rects = list(rects)
    for _ in range(rows * cols):
        labels = room_labels(rects, rows, cols)
        puzzle = GENRE.build(rows, cols, labels, room_numbers(rects, cols, shaded), SOURCE, Meta())
        trace = Solver(puzzle, max_level=1, assume_unique=False, greedy=True).solve()
        open_rooms = sorted({labels[i] for i, c in enumerate(trace.final.cands) if c & (c - 1)})
        if not open_rooms:
            return rects
        k = rng.choice(open_rooms)
        cuts = [pair for pair in halves(rects[k]) if strips_hold(rects[:k] + list(pair) + rects[k + 1:], rows, cols, shaded)]
        if not cuts:
            return None
        rects[k:k + 1] = rng.choice(cuts)
    return None


def halves(rect: Rect) -> list[tuple[Rect, Rect]]:
    t, l, h, w = rect
    return ([((t, l, h, c), (t, l + c, h, w - c)) for c in range(1, w)]
            + [((t, l, r, w), (t + r, l, h - r, w)) for r in range(1, h)])


def strips_hold(rects: list[Rect], rows: int, cols: int, shaded: set[int]) -> bool:
    """No run of unshaded cells in a row or column crosses two room borders."""
    labels = room_labels(rects, rows, cols)
    for line in ([[r * cols + c for c in range(cols)] for r in range(rows)]
                 + [[r * cols + c for r in range(rows)] for c in range(cols)]):
        borders = 0
        for a, b in zip(line, line[1:]):
            if a in shaded or b in shaded:
                borders = 0
            elif labels[a] != labels[b]:
                borders += 1
                if borders >= 2:
                    return False
    return True
