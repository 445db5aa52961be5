"""Slitherlink planted: a random simple loop on a square grid (often tiny, thin or round the
whole board) or on a generalized graph (honeycomb, triangular, 4.8.8 octagonal, a lone polygon,
a wheel, sometimes with extra cells that are random sets of edges); every cell's count of loop
edges is its clue, kept all, none or a random share, and a board of mostly 0s is favoured."""
from __future__ import annotations

import random

from grader.genres.slitherlink.model import B_CROSS, B_LINE, SlitherPuzzle
from grader.core.model import Meta, State
from grader.core.genre import Plant
from grader.kernels.tilings import Tiling, random_loop, random_tiling, square
from grader.kernels.random_shapes import board_size, share

# Big boards with few clues end stuck after long trials: fewer cases keep CI near 20 s.
CI_EXAMPLES = 120


def plant(rng: random.Random) -> Plant:
    if rng.random() < 0.65:
        rows, cols = board_size(rng, 1, 10)
        t, name = square(rows, cols), None
    else:
        rows = cols = 0
        name, t = random_tiling(rng)
    loop = random_loop(t, rng)
    counts = [sum(e in loop for e in es) for es in t.faces]
    keep = share(rng)
    zeros = rng.random() < 0.2        # every 0 kept: the board is mostly 0s round a small loop
    clues = [n if rng.random() < keep or (zeros and n == 0) else None for n in counts]
    solution = State(tuple(B_LINE if e in loop else B_CROSS for e in range(len(t.ends))))
    meta = Meta(origin="planted", title=name)
    if rows:
        return Plant(SlitherPuzzle(rows=rows, cols=cols, clues=tuple(clues), meta=meta), solution)
    return Plant(graph_puzzle(t, loop, clues, rng, meta), solution)


def graph_puzzle(t: Tiling, loop: set[int], clues: list[int | None], rng: random.Random, meta: Meta
                 ) -> SlitherPuzzle:
    """The cells: the faces (all of them, or only the clued ones, as ASP facts would list
    them), and now and then a few extra cells made of random edges."""
    every_face = rng.random() < 0.5
    cells = [(f"f{f}", tuple(es), n) for f, (es, n) in enumerate(zip(t.faces, clues))
             if every_face or n is not None]
    if rng.random() < 0.15:
        for k in range(rng.randint(1, 3)):
            es = tuple(sorted(rng.sample(range(len(t.ends)), rng.randint(1, min(6, len(t.ends))))))
            cells.append((f"x{k}", es, sum(e in loop for e in es)))
    return SlitherPuzzle(clues=tuple(n for _, _, n in cells), vertex_terms=tuple(str(v) for v in range(t.n_vertices)),
                         edge_ends=tuple(t.ends), cell_names=tuple(name for name, _, _ in cells),
                         cell_edge_lists=tuple(es for _, es, _ in cells), meta=meta)
