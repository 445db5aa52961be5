"""Heyawake planted: random rectangular rooms (one room covering the board, rooms of one cell,
anything between), a random shading with no two shaded cells side by side and the white
cells joined (none at all, a single shaded cell, or shaded greedily), white runs across two
room borders broken by shading or, failing that, a fresh try; each room numbered with its
shaded count, all of them, none or a random share."""
from __future__ import annotations

import random

from grader.genres.heyawake.model import B_SHADED, B_WHITE, NO_CLUE, HeyawakePuzzle, white_runs
from grader.core.model import Meta, State
from grader.core.genre import Plant
from grader.kernels.random_shapes import board_size, share
from grader.kernels.sparse_shading import can_shade

# Many planted boards have several solutions, and level 5 searches them long: fewer in CI.
CI_EXAMPLES = 40

TRIES = 20                # rooms and shadings tried on one board size before another
FEW_NUMBERS_MOST = 24     # boards up to this many cells get the sparse and degenerate cases
BIG_ROOM = 12             # larger boards have no rooms larger than this: they would be slow


def plant(rng: random.Random) -> Plant:
    rows, cols = board_size(rng, 1, 10)
    while True:
        for _ in range(TRIES):
            room_of = rooms(rng, rows, cols)
            shaded = shading(rng, rows, cols, room_of)
            if shaded is not None:
                return finish(rng, rows, cols, room_of, shaded)
        rows, cols = board_size(rng, 1, 10)


def rooms(rng: random.Random, rows: int, cols: int) -> list[int]:
    """Room index per cell, numbered by first cell: rectangles cut in two at random, down to
    a random smallest piece (the whole board, single cells, or anything between)."""
    small = rows * cols <= FEW_NUMBERS_MOST
    stop = rng.choice((1.0, 0.0, 0.1, 0.3, 0.5, 0.7) if small else (0.1, 0.3, 0.5))
    label = [0] * (rows * cols)
    count = 0

    def cut(top: int, left: int, h: int, w: int, first: bool) -> None:
        nonlocal count
        big = not small and h * w > BIG_ROOM
        if (h == 1 and w == 1) or (not first and not big and rng.random() < stop) or (first and stop == 1.0):
            for r in range(top, top + h):
                for c in range(left, left + w):
                    label[r * cols + c] = count
            count += 1
            return
        if w == 1 or (h > 1 and rng.random() < h / (h + w)):
            k = rng.randint(1, h - 1)
            cut(top, left, k, w, False)
            cut(top + k, left, h - k, w, False)
        else:
            k = rng.randint(1, w - 1)
            cut(top, left, h, k, False)
            cut(top, left + k, h, w - k, False)

    cut(0, 0, rows, cols, True)
    index: dict[int, int] = {}
    return [index.setdefault(k, len(index)) for k in label]


def shading(rng: random.Random, rows: int, cols: int, room_of: list[int]) -> set[int] | None:
    """A shading that keeps every rule, or None when this try failed."""
    size = rows * cols
    probe = HeyawakePuzzle(rows=rows, cols=cols, room_of=tuple(room_of),
                           clues=(NO_CLUE,) * (max(room_of) + 1), clue_cells=(-1,) * (max(room_of) + 1))
    nbrs = probe.neighbours
    shaded: set[int] = set()
    # Sparse shading leaves many solutions: on the larger boards it would be slow to search.
    how = rng.choice(("none", "one", "some", "greedy", "greedy") if size <= FEW_NUMBERS_MOST else ("greedy",))
    target = {"none": 0, "one": 1, "some": rng.randint(1, max(1, size // 4)), "greedy": size}[how]
    cells = list(range(size))
    rng.shuffle(cells)
    for i in cells:
        if len(shaded) >= target:
            break
        if can_shade(nbrs, shaded, i):
            shaded.add(i)
    for _ in range(size):
        bad = crossing_runs(probe, shaded)
        if not bad:
            return shaded
        run = rng.choice(bad)
        options = [i for i in run if can_shade(nbrs, shaded, i)]
        if not options:
            return None
        shaded.add(rng.choice(options))
    return None


def crossing_runs(puzzle: HeyawakePuzzle, shaded: set[int]) -> list[list[int]]:
    """The white runs that cross two room borders or more, as their cells."""
    cands = [B_SHADED if i in shaded else B_WHITE for i in range(puzzle.size)]
    out = []
    for k, (line, _) in enumerate(puzzle.lines):
        for first, last, crossed in white_runs(puzzle, cands, k):
            if crossed >= 2:
                out.append(list(line[first:last + 1]))
    return out


def finish(rng: random.Random, rows: int, cols: int, room_of: list[int], shaded: set[int]) -> Plant:
    count = max(room_of) + 1
    cells: list[list[int]] = [[] for _ in range(count)]
    for i, k in enumerate(room_of):
        cells[k].append(i)
    # Boards missing numbers have many solutions, slow to search: larger ones keep them all.
    keep = share(rng) if rows * cols <= FEW_NUMBERS_MOST else 1.0
    clues, clue_cells = [NO_CLUE] * count, [-1] * count
    for k in range(count):
        if rng.random() < keep:
            clues[k] = sum(1 for i in cells[k] if i in shaded)
            clue_cells[k] = rng.choice(cells[k])
    puzzle = HeyawakePuzzle(rows=rows, cols=cols, room_of=tuple(room_of), clues=tuple(clues),
                            clue_cells=tuple(clue_cells), meta=Meta(origin="planted"))
    return Plant(puzzle, State(tuple(B_SHADED if i in shaded else B_WHITE for i in range(rows * cols))))
