"""Yajilin planted: a random loop through cell centres (tiny loops favoured), shaded cells
among the rest (none, a random few, or as many as fit without touching), and every cell left
over a clue cell: an arrow with the count of shaded cells it sees (often towards the nearest
border, often 0), or, for the share of clues not kept, a blank block or a '?'."""
from __future__ import annotations

import random


from grader.genres.yajilin.model import B_CLUE, B_LOOP, B_SHADED, Clue, YajilinPuzzle
from grader.core.model import Meta, State
from grader.core.genre import Plant
from grader.kernels.loops import B_CROSS, B_LINE
from grader.kernels.random_loops import directions, edge_index, loop_board, random_loop
from grader.kernels.random_shapes import share

CI_EXAMPLES = 60        # about 0.3 s each: the stuck ones try every case analysis
DELTA = {"n": (-1, 0), "e": (0, 1), "s": (1, 0), "w": (0, -1)}


def plant(rng: random.Random) -> Plant:
    rows, cols = loop_board(rng)
    # a thin loop through most cells leaves few clues, and a board without clues has a
    # great many answers that the solve tries long: loops round many cells off it are favoured
    links = random_loop(rng, rows, cols, winding=0.65, reach=0.2, thin=0.4)
    on = set(directions(cols, links))
    off = [i for i in range(rows * cols) if i not in on]
    rng.shuffle(off)

    def nbrs(i: int) -> list[int]:
        r, c = divmod(i, cols)
        return [(r + dr) * cols + c + dc for dr, dc in DELTA.values()
                if 0 <= r + dr < rows and 0 <= c + dc < cols]

    density = rng.choice((0.0, 1.0, rng.random(), rng.random()))
    shaded: set[int] = set()
    for i in off:
        if rng.random() < density and not any(j in shaded for j in nbrs(i)):
            shaded.add(i)

    def ray(i: int, d: str) -> list[int]:
        r, c = divmod(i, cols)
        out = []
        r, c = r + DELTA[d][0], c + DELTA[d][1]
        while 0 <= r < rows and 0 <= c < cols:
            out.append(r * cols + c)
            r, c = r + DELTA[d][0], c + DELTA[d][1]
        return out

    keep, to_border = share(rng), rng.random()
    clues: list[Clue | None] = [None] * (rows * cols)
    for i in off:
        if i in shaded:
            continue
        if rng.random() < to_border:
            d = min("nesw", key=lambda x: (len(ray(i, x)), rng.random()))
        else:
            d = rng.choice("nesw")
        if rng.random() < keep:
            clues[i] = Clue(sum(1 for j in ray(i, d) if j in shaded), d)
        else:
            clues[i] = Clue(None, d if rng.random() < 0.3 else "")
    puzzle = YajilinPuzzle(rows=rows, cols=cols, clues=tuple(clues), meta=Meta(origin="planted"))
    edges = edge_index(puzzle, links)
    cells = [B_LOOP if i in on else B_SHADED if i in shaded else B_CLUE for i in range(rows * cols)]
    return Plant(puzzle, State(tuple(cells) + tuple(B_LINE if e in edges else B_CROSS
                                                    for e in range(puzzle.graph.n_edges))))
