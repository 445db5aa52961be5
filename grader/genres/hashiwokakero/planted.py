"""Hashiwokakero planted: islands grown one at a time from a first island, each joined to one
already placed by a straight bridge (a single pair, a chain, or a dense board), then extra
bridges where two islands see each other (never under Tatham's no-loops rule), some of them
doubled; each island's number is its count of bridge ends."""
from __future__ import annotations

import random

from grader.genres.hashiwokakero.model import WATER, HashiPuzzle
from grader.core.model import Meta, State
from grader.core.genre import Plant
from grader.kernels.random_shapes import board_size

# Dense boards with several solutions can take seconds at level 5: fewer cases in CI.
CI_EXAMPLES = 100

STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def _grow(rng: random.Random, rows: int, cols: int, count: int, chain: bool
          ) -> tuple[set[int], dict[tuple[int, int], int], set[int]]:
    """Islands, bridges {(a, b): 1} with a < b, and the water cells under a bridge."""
    first = rng.randrange(rows * cols)
    islands, bridges, under = {first}, {}, set()
    last = first
    for _ in range(count * 20):
        if len(islands) >= count:
            break
        a = last if chain else rng.choice(sorted(islands))
        dr, dc = rng.choice(STEPS)
        r, c = divmod(a, cols)
        cells = []
        while True:
            r, c = r + dr, c + dc
            if not (0 <= r < rows and 0 <= c < cols):
                break
            i = r * cols + c
            if i in islands or i in under:
                break
            cells.append(i)
        if not cells:
            continue
        k = rng.randrange(len(cells)) if rng.random() < 0.5 else rng.randrange(min(3, len(cells)))
        b, water = cells[k], cells[:k]
        islands.add(b)
        bridges[(min(a, b), max(a, b))] = 1
        under.update(water)
        last = b
    return islands, bridges, under


def plant(rng: random.Random) -> Plant:
    rows, cols = board_size(rng, 1, 10)
    if rows * cols < 2:
        rows, cols = 1, 2
    maxb = rng.choice((2, 2, 2, 1, 3, 4))
    no_loops = rng.random() < 0.15
    pick = rng.random()
    count = 2 if pick < 0.15 else rng.randint(2, max(2, rows * cols // rng.choice((2, 3, 5))))
    islands, bridges, under = _grow(rng, rows, cols, count, chain=pick < 0.35)
    board = [WATER] * (rows * cols)
    for i in islands:
        board[i] = 1
    shell = HashiPuzzle(rows=rows, cols=cols, board=tuple(board), max_bridges=maxb)
    # extra bridges across free slots (loops), skipped under the no-loops rule
    if not no_loops:
        extra = rng.choice((0.0, 0.3, 0.7, 1.0))
        slots = list(shell.slots)
        rng.shuffle(slots)
        for slot in slots:
            key = (slot.a, slot.b)
            if key in bridges or rng.random() >= extra or any(w in under for w in slot.water):
                continue
            bridges[key] = 1
            under.update(slot.water)
    double = rng.choice((0.0, 0.3, 0.6, 1.0))
    for key in bridges:
        if rng.random() < double:
            bridges[key] = rng.randint(2, maxb) if maxb > 1 else 1
    ends = {i: 0 for i in islands}
    for (a, b), k in bridges.items():
        ends[a] += k
        ends[b] += k
    for i in islands:
        board[i] = ends[i]
    puzzle = HashiPuzzle(rows=rows, cols=cols, board=tuple(board), max_bridges=maxb, no_loops=no_loops,
                         meta=Meta(origin="planted"))
    slot_of = {(s.a, s.b): n for n, s in enumerate(puzzle.slots)}
    values = [0] * len(puzzle.slots)
    for key, k in bridges.items():
        values[slot_of[key]] = k
    return Plant(puzzle, State(tuple(1 << v for v in values)))
