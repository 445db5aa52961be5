"""Heyawake drafts for the generator (grader.core.generator): the board cut into rectangular
rooms at random, a random valid shading drawn by the exact solver (random decisions, a fixed
seed from the generator's), and every room numbered in its top-left cell. The generator takes
room numbers away; the rooms stay."""
from __future__ import annotations

import random

from grader.core import exact
from grader.core.errors import Source
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
    labels = [0] * (rows * cols)
    for k, (t, l, h, w) in enumerate(rects):
        for r in range(t, t + h):
            for c in range(l, l + w):
                labels[r * cols + c] = k
    blank = GENRE.build(rows, cols, labels, {}, SOURCE, Meta())
    solution = exact.random_solution(blank, rng.randrange(1 << 30))
    if solution is None:
        return None
    shaded = GENRE.solution_from_state(blank, solution)
    numbers = {t * cols + l: sum(1 for i in shaded if labels[i] == k) for k, (t, l, _, _) in enumerate(rects)}

    def build(kept: frozenset[int]) -> HeyawakePuzzle:
        return GENRE.build(rows, cols, labels, {i: n for i, n in numbers.items() if i in kept}, SOURCE, Meta())
    return Draft(tuple(sorted(numbers)), build, grid=(rows, cols))
