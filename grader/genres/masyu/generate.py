"""Masyu drafts for the generator (grader.core.generator): a long winding loop through cell
centres, and every pearl it allows (white where it runs straight with a turn beside, black
where it turns with straight runs on both sides). The generator takes pearls away.

For a target up to level 4 the loop is reshaped first, a square of the shape it bounds added
or taken away at a time near where the level-1 solve of every pearl stops, while that leaves
no more undecided, until the solve finishes: as Tatham's easy tiers, the drawing is chosen for
the solver rather than the clues stripped further. A random loop's pearls seldom settle it at
any level (they leave room for another loop), so harder targets start there too: the
generator strips the pearls at level 1, then at the level below the target and at the
target (Draft.by_level), and a level-1 solve is the cheap one to reshape by."""
from __future__ import annotations

import random

from grader.core.engine import Solver
from grader.core.generator import Draft
from grader.genres.masyu.model import MasyuPuzzle
from grader.genres.masyu.planted import valid_pearls
from grader.kernels.pearls import NONE
from grader.kernels.random_loops import directions, grown_squares, is_one_loop, squares_loop

REACH = 0.6         # the loop bounds at least this share of the board's squares
EASY = 4            # targets up to this level have their loop reshaped
RESHAPES = 120      # squares tried, at most, in a reshaping


def draft(rng: random.Random, rows: int, cols: int, cap: int = 5) -> Draft | None:
    if rows < 2 or cols < 2:
        return None
    squares = (rows - 1) * (cols - 1)
    shape = grown_squares(rng, rows, cols, rng.randint(max(1, round(squares * REACH)), squares),
                          thin=rng.random() < 0.8)
    if cap <= EASY and (shape := reshaped(rng, shape, rows, cols, settle=cap == 1)) is None:
        return None
    pearls = pearls_of(shape, rows, cols)

    def build(kept: frozenset[int]) -> MasyuPuzzle:
        return MasyuPuzzle(rows=rows, cols=cols, pearls=tuple(pearls[i] if i in kept else NONE
                                                              for i in range(rows * cols)))
    return Draft(tuple(sorted(pearls)), build, grid=(rows, cols), by_level=True, exact_first=3)


def pearls_of(shape: set[tuple[int, int]], rows: int, cols: int) -> dict[int, int]:
    return valid_pearls(cols, {i: set(d) for i, d in directions(cols, squares_loop(cols, shape)).items()})


def undecided(shape: set[tuple[int, int]], rows: int, cols: int, cap: int) -> set[int]:
    """The cells beside an edge the solve up to `cap` leaves open, with every pearl given."""
    pearls = pearls_of(shape, rows, cols)
    puzzle = MasyuPuzzle(rows=rows, cols=cols, pearls=tuple(pearls.get(i, NONE) for i in range(rows * cols)))
    trace = Solver(puzzle, max_level=cap, assume_unique=False, greedy=True).solve()
    ends = puzzle.graph.ends
    return {v for e, c in enumerate(trace.final.cands) if c & (c - 1) for v in ends[e]}


def reshaped(rng: random.Random, shape: set[tuple[int, int]], rows: int, cols: int, settle: bool = True
             ) -> set[tuple[int, int]] | None:
    """The shape with squares added or taken away near the open cells, each change kept when
    the loop stays one and it leaves no more cells open, until the level-1 solve of every pearl
    finishes. If it never gets there: None, or (`settle` False: a harder target, whose own
    techniques may finish it) the shape that came closest."""
    shape = set(shape)
    left = undecided(shape, rows, cols, 1)
    for _ in range(RESHAPES):
        if not left:
            return shape
        r, c = divmod(rng.choice(sorted(left)), cols)
        near = [(r + dr, c + dc) for dr in (-1, 0) for dc in (-1, 0)
                if 0 <= r + dr < rows - 1 and 0 <= c + dc < cols - 1]
        trial = shape ^ {rng.choice(near)}
        if not trial or not is_one_loop(squares_loop(cols, trial)):
            continue
        now = undecided(trial, rows, cols, 1)
        if len(now) <= len(left):
            shape, left = trial, now
    return None if settle else shape
