"""Random shadings for Hitori, Kuromasu and Heyawake: no two shaded cells side by side and the unshaded
cells in one area. The extremes come often: no shaded cell, a single one, as many as fit."""
from __future__ import annotations

import random

from grader.kernels.grid import GridGraph


def sparse_shading(rng: random.Random, rows: int, cols: int, dense: bool = False) -> set[int]:
    """A random valid shading of a rows x cols grid (the shaded cells); `dense` leaves out
    the shadings with few shaded cells (whose puzzles take long on large boards)."""
    graph = GridGraph(rows, cols)
    pick = rng.random() if not dense else rng.uniform(0.25, 1.0)
    if pick < 0.1:
        return set()
    if pick < 0.2:
        target = 1
    elif pick < 0.35:
        target = rows * cols          # as many as fit
    else:
        share = rng.uniform(0.3, 0.4) if dense else rng.random() * 0.4
        target = int(share * rows * cols) + 1
    cells = list(range(rows * cols))
    rng.shuffle(cells)
    shaded: set[int] = set()
    for i in cells:
        if len(shaded) >= target:
            break
        if can_shade(graph.neighbours, shaded, i):
            shaded.add(i)
    return shaded


def shading_of_share(rng: random.Random, rows: int, cols: int, share: float) -> set[int]:
    """A random valid shading of about `share` of the cells (fewer where no more fit)."""
    graph = GridGraph(rows, cols)
    shaded: set[int] = set()
    for i in rng.sample(range(rows * cols), rows * cols):
        if len(shaded) >= round(share * rows * cols):
            break
        if can_shade(graph.neighbours, shaded, i):
            shaded.add(i)
    return shaded


def can_shade(neighbours, shaded: set[int], i: int) -> bool:
    """Whether shading cell i as well touches no shaded cell and leaves the unshaded cells in
    one area. `neighbours`: each cell's neighbours."""
    return not any(n in shaded for n in neighbours[i]) and one_area(neighbours, shaded | {i})


def one_area(neighbours, shaded: set[int]) -> bool:
    """Whether the unshaded cells form one area (no unshaded cell at all counts as one)."""
    white = [j for j in range(len(neighbours)) if j not in shaded]
    if not white:
        return True
    seen = {white[0]}
    stack = [white[0]]
    while stack:
        v = stack.pop()
        for n in neighbours[v]:
            if n not in seen and n not in shaded:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(white)
