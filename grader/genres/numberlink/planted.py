"""Numberlink planted: random lines walked one at a time through free cells, never running
beside themselves except at their end numbers (the genre's rule); favoured: a single line,
lines of two cells (numbers side by side), a line through a whole 1xN board, many short
lines, no line at all. Sometimes the leftover cells are taken into the lines (ends stretched,
new two-cell lines) and, when none is left, the puzzle is the `cover` variant. Boards stay
small (up to 7x7): the solver is slow on large ones."""
from __future__ import annotations

import random

from grader.genres.numberlink.model import VALUE_OF_SIDES, NumberlinkPuzzle
from grader.kernels.cell_shapes import B_EMPTY, STEP
from grader.core.model import Meta, State
from grader.core.genre import Plant
from grader.kernels.random_shapes import board_size

CI_EXAMPLES = 8


def _adjacent(cols: int, a: int, b: int) -> bool:
    ra, ca = divmod(a, cols)
    rb, cb = divmod(b, cols)
    return abs(ra - rb) + abs(ca - cb) == 1


def line_ok(cols: int, path: list[int]) -> bool:
    """No two cells of the line side by side unless consecutive on it or one is an end."""
    inner = path[1:-1]
    return all(not _adjacent(cols, x, y) for k, x in enumerate(inner) for y in inner[k + 2:])


def _side(cols: int, a: int, b: int) -> int:
    """The side of cell a that faces its neighbour b."""
    (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
    return next(d for d, step in STEP.items() if step == (rb - ra, cb - ca))


def _neighbours(rows: int, cols: int, i: int) -> list[int]:
    r, c = divmod(i, cols)
    return [(r + dr) * cols + c + dc for dr, dc in STEP.values()
            if 0 <= r + dr < rows and 0 <= c + dc < cols]


def _walk(rng: random.Random, rows: int, cols: int, free: set[int], length: int) -> list[int] | None:
    start = rng.choice(sorted(free))
    path = [start]
    while len(path) < length:
        steps = [n for n in _neighbours(rows, cols, path[-1]) if n in free and n not in path]
        rng.shuffle(steps)
        # an inner cell may lie beside no inner cell of its line but the one before it
        inner = [n for n in steps if all(not _adjacent(cols, n, x) for x in path[1:-1])]
        if inner and len(path) + 1 < length:
            path.append(inner[0])
        else:
            if steps:
                path.append(steps[0])     # the end: it may lie beside anything of its line
            break
    return path if len(path) >= 2 else None


def _lines(rng: random.Random, rows: int, cols: int) -> list[list[int]]:
    size = rows * cols
    if size >= 2 and (rows == 1 or cols == 1) and rng.random() < 0.3:   # one line through it all
        return [list(range(size))]
    pick = rng.random()
    if pick < 0.15:
        count, lengths = 1, (2, max(2, size))
    elif pick < 0.3:
        count, lengths = size, (2, 2)
    elif pick < 0.45:
        count, lengths = size, (2, 4)
    elif pick < 0.5:
        count, lengths = 0, (2, 2)
    else:
        count, lengths = rng.randint(1, max(1, size // 3)), (2, max(2, size))
    free, out = set(range(size)), []
    for _ in range(count * 4):
        if len(out) >= count or not free:
            break
        path = _walk(rng, rows, cols, free, rng.randint(*lengths))
        if path:
            out.append(path)
            free -= set(path)
    return out


def _stretched(cols: int, lines: list[list[int]], x: int) -> list[int] | None:
    """Some line stretched by one end onto x (in place), or None."""
    for k, p in enumerate(lines):
        for grown in ([x] + p, p + [x]):
            end = grown[1] if grown[0] == x else grown[-2]
            if _adjacent(cols, x, end) and line_ok(cols, grown):
                lines[k] = grown
                return grown
    return None


def _cover(rng: random.Random, rows: int, cols: int, lines: list[list[int]]) -> bool:
    """Take the leftover cells into the lines where the rule allows; True when none is left."""
    free = set(range(rows * cols)) - {i for p in lines for i in p}
    progress = True
    while free and progress:
        progress = False
        for x in sorted(free, key=lambda _: rng.random()):
            grown = _stretched(cols, lines, x)
            if grown is None:
                pair = [n for n in _neighbours(rows, cols, x) if n in free]
                if not pair:
                    continue
                grown = [x, rng.choice(pair)]
                lines.append(grown)
            free -= set(grown)
            progress = True
            break
    return not free


def plant(rng: random.Random) -> Plant:
    rows, cols = board_size(rng, 1, rng.choice((4, 5, 5, 6, 7)))
    lines = _lines(rng, rows, cols)
    cover = rng.random() < 0.4 and _cover(rng, rows, cols, lines)
    size = rows * cols
    labels, values = [0] * size, [B_EMPTY] * size
    for k, path in enumerate(lines, 1):
        labels[path[0]] = labels[path[-1]] = k
        for n, i in enumerate(path):
            sides = sum(_side(cols, i, path[m]) for m in (n - 1, n + 1) if 0 <= m < len(path))
            values[i] = 1 << VALUE_OF_SIDES[sides]
    puzzle = NumberlinkPuzzle(rows=rows, cols=cols, labels=tuple(labels),
                              names=tuple(str(k) for k in range(1, len(lines) + 1)), cover=cover,
                              meta=Meta(origin="planted"))
    return Plant(puzzle, State(tuple(values)))
