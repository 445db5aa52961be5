"""Random single loops through cell centres (Masyu, Yajilin), favouring the extremes: the 2x2
loop, loops of 4-8 cells, the loop along the border, a loop through every cell of an even
board, and thin 2xN boards.

A loop through cell centres is the boundary of a set of "squares", each square the four cells
around one inner corner of the grid; the boundary is one simple loop exactly when every corner
it passes has two of its edges (no hole, no pinch). Loops are grown square by square, keeping
that true."""
from __future__ import annotations

import random

from grader.kernels.random_shapes import board_size

Loop = frozenset[tuple[int, int]]          # undirected links between cells, each (a, b) with a < b


def loop_board(rng: random.Random, largest: int = 10) -> tuple[int, int]:
    """A board with room for a loop: at least 2x2, often thin (2xN) or tiny."""
    pick = rng.random()
    if pick < 0.15:
        n = rng.randint(2, largest)
        return (2, n) if rng.random() < 0.5 else (n, 2)
    rows, cols = board_size(rng, 2, largest)
    return rows, cols


def random_loop(rng: random.Random, rows: int, cols: int, winding: float = 0.45, reach: float = 0.5,
                thin: float = 0.8) -> Loop:
    """A random loop on a rows x cols board (both at least 2); `winding` is the share of long
    loops through a good part of the board (grown to between `reach` of its squares and all
    of them; thin and winding for a `thin` share of them, else a blob round many cells off
    the loop), the rest are the extremes."""
    squares = (rows - 1) * (cols - 1)
    if rng.random() < winding:
        return _grown(rng, rows, cols, rng.randint(max(1, int(squares * reach + 0.5)), squares), thin=rng.random() < thin)
    pick = rng.random()
    if pick < 0.2:
        return _rectangle(rng, rows, cols, tiny=True)            # the 2x2 loop
    if pick < 0.4:
        return _rectangle(rng, rows, cols, whole=True)           # along the border
    if pick < 0.5:
        return _rectangle(rng, rows, cols)
    if pick < 0.7 and rows % 2 == 0 and cols % 2 == 0:
        return _every_cell(rng, rows, cols)
    return _grown(rng, rows, cols, rng.randint(1, 6))             # loops of 4-14 cells


def _squares_loop(cols: int, squares: set[tuple[int, int]]) -> Loop:
    """The boundary links of a set of squares (square (r, c) has the cells r..r+1, c..c+1)."""
    count: dict[tuple[int, int], int] = {}
    for r, c in squares:
        a, b, d, e = r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1
        for link in ((a, b), (d, e), (a, d), (b, e)):
            count[link] = count.get(link, 0) + 1
    return frozenset(link for link, k in count.items() if k == 1)


def is_one_loop(links: Loop) -> bool:
    """Every cell on the links has exactly two, and they form one cycle."""
    if not links:
        return False
    nbrs: dict[int, list[int]] = {}
    for a, b in links:
        nbrs.setdefault(a, []).append(b)
        nbrs.setdefault(b, []).append(a)
    if any(len(x) != 2 for x in nbrs.values()):
        return False
    start = next(iter(nbrs))
    prev, v, seen = None, start, 1
    while True:
        a, b = nbrs[v]
        prev, v = v, (b if a == prev else a)
        if v == start:
            return seen == len(nbrs)
        seen += 1


def _rectangle(rng: random.Random, rows: int, cols: int, tiny: bool = False, whole: bool = False) -> Loop:
    if whole:
        r0, c0, h, w = 0, 0, rows - 1, cols - 1
    elif tiny:
        r0, c0, h, w = rng.randrange(rows - 1), rng.randrange(cols - 1), 1, 1
    else:
        h, w = rng.randint(1, rows - 1), rng.randint(1, cols - 1)
        r0, c0 = rng.randint(0, rows - 1 - h), rng.randint(0, cols - 1 - w)
    return _squares_loop(cols, {(r, c) for r in range(r0, r0 + h) for c in range(c0, c0 + w)})


def _grown(rng: random.Random, rows: int, cols: int, size: int, thin: bool = False) -> Loop:
    return _squares_loop(cols, grown_squares(rng, rows, cols, size, thin))


def squares_loop(cols: int, squares: set[tuple[int, int]]) -> Loop:
    """The loop round a set of squares (square (r, c): the cells r..r+1, c..c+1)."""
    return _squares_loop(cols, squares)


def grown_squares(rng: random.Random, rows: int, cols: int, size: int, thin: bool = False) -> set[tuple[int, int]]:
    """Squares added one at a time beside the shape, each kept only if the boundary stays one
    simple loop; `thin` adds only squares touching the shape on one side (a winding loop)."""
    shape = {(rng.randrange(rows - 1), rng.randrange(cols - 1))}
    while len(shape) < size:
        options = []
        for r, c in shape:
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                sq = (r + dr, c + dc)
                if sq in shape or not (0 <= sq[0] < rows - 1 and 0 <= sq[1] < cols - 1):
                    continue
                touching = sum((sq[0] + a, sq[1] + b) in shape for a, b in ((0, 1), (1, 0), (0, -1), (-1, 0)))
                if not thin or touching == 1:
                    options.append(sq)
        rng.shuffle(options)
        for sq in options:
            if is_one_loop(_squares_loop(cols, shape | {sq})):
                shape.add(sq)
                break
        else:
            break
    return shape


def _every_cell(rng: random.Random, rows: int, cols: int) -> Loop:
    """A loop through every cell of an even board: a random spanning tree of its 2x2 blocks,
    each block a small loop, two loops merged along every tree edge."""
    bh, bw = rows // 2, cols // 2
    links: set[tuple[int, int]] = set()

    def cell(r: int, c: int) -> int:
        return r * cols + c

    def link(a: int, b: int) -> tuple[int, int]:
        return (a, b) if a < b else (b, a)

    for i in range(bh):
        for j in range(bw):
            a, b = cell(2 * i, 2 * j), cell(2 * i, 2 * j + 1)
            d, e = cell(2 * i + 1, 2 * j), cell(2 * i + 1, 2 * j + 1)
            links |= {link(a, b), link(d, e), link(a, d), link(b, e)}
    seen = {(rng.randrange(bh), rng.randrange(bw))}
    frontier = [(s, t) for s in seen for t in _block_nbrs(*s, bh, bw)]
    while frontier:
        s, t = frontier.pop(rng.randrange(len(frontier)))
        if t in seen:
            continue
        seen.add(t)
        frontier.extend((t, u) for u in _block_nbrs(*t, bh, bw) if u not in seen)
        (i, j), (k, m) = sorted((s, t))
        if i == k:                                   # side by side: swap two verticals for two horizontals
            c1, c2 = 2 * j + 1, 2 * m
            links -= {link(cell(2 * i, c1), cell(2 * i + 1, c1)), link(cell(2 * i, c2), cell(2 * i + 1, c2))}
            links |= {link(cell(2 * i, c1), cell(2 * i, c2)), link(cell(2 * i + 1, c1), cell(2 * i + 1, c2))}
        else:                                        # one above the other
            r1, r2 = 2 * i + 1, 2 * k
            links -= {link(cell(r1, 2 * j), cell(r1, 2 * j + 1)), link(cell(r2, 2 * j), cell(r2, 2 * j + 1))}
            links |= {link(cell(r1, 2 * j), cell(r2, 2 * j)), link(cell(r1, 2 * j + 1), cell(r2, 2 * j + 1))}
    return frozenset(links)


def _block_nbrs(i: int, j: int, bh: int, bw: int) -> list[tuple[int, int]]:
    return [(i + di, j + dj) for di, dj in ((0, 1), (1, 0), (0, -1), (-1, 0))
            if 0 <= i + di < bh and 0 <= j + dj < bw]


def directions(cols: int, links: Loop) -> dict[int, str]:
    """For each cell on the loop, the two directions (of n e s w) its links leave by."""
    out: dict[int, str] = {}
    for a, b in links:
        da, db = ("e", "w") if b == a + 1 else ("s", "n")
        out[a] = out.get(a, "") + da
        out[b] = out.get(b, "") + db
    return out


def edge_index(puzzle, links: Loop) -> set[int]:
    """The loop's links as edge numbers of the puzzle's LoopGraph."""
    g = puzzle.graph
    where = {tuple(sorted(ends)): e for e, ends in enumerate(g.ends)}
    return {where[link] for link in links}
