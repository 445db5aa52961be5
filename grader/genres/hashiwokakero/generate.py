"""Hashiwokakero drafts for the generator (grader.core.generator): a random answer grown from
one island, a random island sending a bridge (one or two) a random distance across open water
to a new island, or to an island it already sees; bridges never cross or touch islands
sideways. Each island's number is its bridge count. Every island keeps its number, so each
draft is graded as it is and the generator draws again until one hits the target."""
from __future__ import annotations

import random

from grader.core.generator import Draft
from grader.genres.hashiwokakero.model import WATER, HashiPuzzle

STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))
ISLAND_SHARE = (0.2, 0.3)


def random_board(rows: int, cols: int, rng: random.Random, islands: int) -> list[int]:
    """Island numbers (WATER elsewhere) of a random connected answer with about `islands` islands."""
    count: dict[tuple[int, int], int] = {(rng.randrange(rows), rng.randrange(cols)): 0}
    bridged: set[tuple[int, int]] = set()          # water cells under a bridge

    def free(r: int, c: int) -> bool:
        return 0 <= r < rows and 0 <= c < cols and (r, c) not in count and (r, c) not in bridged

    for _ in range(islands * 40):
        if len(count) >= islands:
            break
        r, c = rng.choice(sorted(count))
        dr, dc = rng.choice(STEPS)
        path, r2, c2 = [], r + dr, c + dc
        while free(r2, c2):
            path.append((r2, c2))
            r2, c2 = r2 + dr, c2 + dc
        k = rng.choice((1, 1, 2))
        if (r2, c2) in count and path and rng.random() < 0.3:
            target = (r2, c2)                       # join an island it already sees: a loop
        else:
            if len(path) < 2:
                continue
            cut = rng.randrange(1, len(path))       # the new island, at least one cell away
            target, path = path[cut], path[:cut]
            tr, tc = target
            if any((tr + a, tc + b) in count for a, b in STEPS):
                continue
            count[target] = 0
        bridged.update(path)
        count[(r, c)] += k
        count[target] += k
    board = [WATER] * (rows * cols)
    for (r, c), n in count.items():
        board[r * cols + c] = n
    return board


def draft(rng: random.Random, rows: int, cols: int, cap: int = 5) -> Draft | None:
    board = random_board(rows, cols, rng, islands=round(rows * cols * rng.uniform(*ISLAND_SHARE)))
    if sum(b != WATER for b in board) < 4:
        return None
    puzzle = HashiPuzzle(rows=rows, cols=cols, board=tuple(board))
    return Draft((), lambda kept: puzzle, grid=(rows, cols))
