"""Masyu planted: a random loop through cell centres (the 2x2 loop, loops of 4-8 cells, the
border, every cell of an even board, thin 2xN boards), and the pearls it allows: white where it
runs straight with a turn in a cell beside, black where it turns with two straight cells on
both sides; all of them, a random share, or none (many solutions, which the soak accepts)."""
from __future__ import annotations

import random


from grader.genres.masyu.model import MasyuPuzzle
from grader.core.model import Meta, State
from grader.core.genre import Plant
from grader.kernels.cell_loops import OPPOSITE
from grader.kernels.loops import B_CROSS, B_LINE
from grader.kernels.pearls import BLACK, NONE, WHITE
from grader.kernels.random_loops import directions, edge_index, loop_board, random_loop

STRAIGHT = ({"n", "s"}, {"e", "w"})
CI_EXAMPLES = 150        # about 0.1 s each
DELTA = {"n": (-1, 0), "e": (0, 1), "s": (1, 0), "w": (0, -1)}


def pearl_share(rng: random.Random) -> float:
    """Every pearl half the time (a near-unique puzzle that exercises the techniques), none
    now and then, else a random share."""
    pick = rng.random()
    return 1.0 if pick < 0.5 else 0.0 if pick < 0.55 else rng.uniform(0.2, 1.0)


def valid_pearls(cols: int, dirs: dict[int, set[str]]) -> dict[int, int]:
    """Every pearl a loop allows (its cells' directions given): white where it runs straight
    and turns in a cell beside, black where it turns and runs straight through both cells
    beside."""
    def beside(i: int, d: str) -> int:
        r, c = divmod(i, cols)
        return (r + DELTA[d][0]) * cols + c + DELTA[d][1]

    out = {}
    for i, ds in dirs.items():
        if ds in STRAIGHT:
            if any(dirs[beside(i, d)] not in STRAIGHT for d in ds):
                out[i] = WHITE
        elif all(dirs[beside(i, d)] == {d, OPPOSITE[d]} for d in ds):
            out[i] = BLACK
    return out


def plant(rng: random.Random) -> Plant:
    rows, cols = loop_board(rng)
    links = random_loop(rng, rows, cols)
    dirs = {i: set(d) for i, d in directions(cols, links).items()}
    keep = pearl_share(rng)
    pearls = [NONE] * (rows * cols)
    for i, kind in valid_pearls(cols, dirs).items():
        if rng.random() < keep:
            pearls[i] = kind
    puzzle = MasyuPuzzle(rows=rows, cols=cols, pearls=tuple(pearls), meta=Meta(origin="planted"))
    on = edge_index(puzzle, links)
    return Plant(puzzle, State(tuple(B_LINE if e in on else B_CROSS for e in range(puzzle.graph.n_edges))))
