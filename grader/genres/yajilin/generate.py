"""Yajilin drafts for the generator (grader.core.generator), as corpus/yajilin/generate.py
and corpus/yajilin/generate.py (make) makes its puzzles. A draft: clue cells placed at random,
then the exact solver draws a random loop-and-shading around them (random decisions from the
generator's seed), and each clue points the way its row or column holds the most shaded cells,
numbered from the drawing. The generator takes numbers away: a clue cell without its number
stays a blocked cell. (make: shaded cells of a drawing turn into clue cells one at a time until
the solution is unique, as the corpus was made.)"""
from __future__ import annotations

import random

import attrs
import clingo

from grader.core import exact
from grader.core.engine import Solver
from grader.core.generator import Draft, where_solutions_differ
from grader.core.model import State
from grader.core.steps import Status
from grader.genres import get
from grader.genres.yajilin.model import Clue, YajilinPuzzle


def random_drawing(rows: int, cols: int, seed: int, least: int | None = None) -> YajilinPuzzle | None:
    """A random valid loop-and-shading of the empty grid with at least `least` shaded cells
    (default a ninth of the board), as a puzzle with its solution."""
    genre = get("yajilin")
    empty = YajilinPuzzle(rows=rows, cols=cols, clues=(None,) * (rows * cols))
    ctl = clingo.Control(["1", "--warn=none", f"--seed={seed}", "--rand-freq=0.3", "--sign-def=rnd"])
    # at least a few shaded cells, so there is something to turn into clues
    ctl.add("base", [], exact.program(empty) + f"\n:- #count {{ R,C : shade(R,C) }} < {least or rows * cols // 9}.")
    ctl.ground([("base", [])])
    found = []
    ctl.solve(on_model=lambda m: found.append(m.symbols(shown=True)))
    if not found:
        return None
    state = genre.state_from_model(empty, found[0])
    return attrs.evolve(empty, solution=genre.solution_from_state(empty, state))


def clue_for(p: YajilinPuzzle, shaded: set[int], i: int) -> Clue:
    """The clue at i pointing where most shaded cells are, counting the drawing."""
    best = None
    for d in "nesw":
        n, j = 0, p.next_cell(i, d)
        while j is not None:
            n += j in shaded
            j = p.next_cell(j, d)
        if best is None or n > best[0]:
            best = (n, d)
    return Clue(best[0], best[1])


def make(rows: int, cols: int, rng: random.Random, least: int | None = None) -> YajilinPuzzle | None:
    genre = get("yajilin")
    drawing = random_drawing(rows, cols, rng.randrange(1 << 30), least)
    if drawing is None:
        return None
    shaded_all, lines = drawing.solution
    base = attrs.evolve(drawing, solution=None)
    directions: set[int] = set()
    differ: set[int] = set(range(rows * cols))
    for _ in range(len(shaded_all)):
        # turn a shaded cell into a clue, preferring one that sees where two solutions differ
        left = sorted(shaded_all - directions)
        if not left:
            return None
        seeing = [i for i in left if any(j in differ for d in "nesw" for j in _ray(base, i, d))]
        directions.add(rng.choice(seeing or left))
        shaded = set(shaded_all) - directions
        clues = {k: clue_for(base, shaded, k) for k in directions}
        puzzle = YajilinPuzzle(rows=rows, cols=cols, clues=tuple(clues.get(k) for k in range(rows * cols)),
                               solution=(frozenset(shaded), lines))
        result = exact.solve(puzzle, seconds=20)
        if result.verdict is exact.Verdict.UNIQUE:
            assert genre.solution_from_state(puzzle, result.solution) == puzzle.solution
            return puzzle
        if result.verdict is not exact.Verdict.SEVERAL:
            return None
        a, b = result.solutions
        differ = {i for i in range(rows * cols) if a.cands[i] != b.cands[i]}


def clue_towards(p: YajilinPuzzle, shaded: set[int], i: int, way: str) -> Clue:
    """The clue at i pointing `way` (or, if "", the way with the most shaded cells)."""
    if not way:
        return clue_for(p, shaded, i)
    return Clue(sum(1 for j in _ray(p, i, way) if j in shaded), way)


def _ray(p: YajilinPuzzle, i: int, d: str):
    j = p.next_cell(i, d)
    while j is not None:
        yield j
        j = p.next_cell(j, d)


CLUE_SHARE = (0.2, 0.35)       # of the drawing's shaded cells: turned into clue cells at once
LEAST_SHADED = (0.19, 0.16, 0.13)    # the drawing shades at least this share, the first it can
# For each share, the drawing is given up after DRAWING_CONFLICTS (not seconds, so a seed draws
# the same under any load): on 10x10 a share of 0.19 took 100 to 7,400 conflicts (30 seeds,
# at most 0.12 s); the limit is about a second of clingo there, as the old seconds limit was.
DRAWING_CONFLICTS = 60_000
DRAWING_SECONDS = 60.0      # only against a machine that stalls: the conflicts decide
# A drawing the level-1 loop techniques follow (FOLLOWED_BY_LEVEL_1) is dearer to find and
# shades fewer cells: on 10x10 a share of 0.16 took clingo 1,000 to 11,000 conflicts (20 seeds;
# a share of 0.19 was found for only 12 of 20 within 4 s). It is given up after
# FOLLOWED_CONFLICTS, not after seconds, so that a seed draws the same drawing under any load.
# The conflicts needed grow steeply with the board (12x12: 17,000 to 32,000 of 5 seeds), about
# as the cells to the power FOLLOWED_GROWTH.
FOLLOWED_LEAST_SHADED = 0.16
FOLLOWED_CONFLICTS = 8000       # on 10x10 (and smaller boards)
FOLLOWED_GROWTH = 6
FOLLOWED_SECONDS = 600.0    # only against a machine that stalls: the conflicts decide

EASY = 2        # for targets up to this level, clues are added until the capped solve finishes

# The drawing of a level-1 target: a loop the level-1 solve draws once it knows every cell
# (what loop_follows checks), as a rule clingo keeps while it draws. A random loop seldom is
# one (0 of 30 drawings: a wide patch keeps two ways open), and no clue can mend that, as a
# clue only counts shaded cells. The level-1 loop techniques only count a cell's ways, so what
# they find is a least fixpoint: a way the loop takes is a line when its cell has no more than
# two ways left once the crossed ones are gone; a way it does not take is crossed when one of
# its cells has two lines already; every way the loop takes must become a line.
FOLLOWED_BY_LEVEL_1 = """
way(R,C,R,C+1) :- on(R,C), on(R,C+1).
way(R,C,R+1,C) :- on(R,C), on(R+1,C).
taken(R,C,R,C+1) :- h(R,C).
taken(R,C,R+1,C) :- v(R,C).
at(R,C,R,C,R2,C2) :- way(R,C,R2,C2).
at(R2,C2,R,C,R2,C2) :- way(R,C,R2,C2).
ways(R,C,D) :- on(R,C), D = #count { A,B,X,Y : at(R,C,A,B,X,Y) }.
line(A,B,X,Y) :- taken(A,B,X,Y), at(R,C,A,B,X,Y), ways(R,C,D),
                 D-2 <= #count { A2,B2,X2,Y2 : at(R,C,A2,B2,X2,Y2), crossed(A2,B2,X2,Y2) }.
crossed(A,B,X,Y) :- way(A,B,X,Y), not taken(A,B,X,Y), at(R,C,A,B,X,Y),
                    2 <= #count { A2,B2,X2,Y2 : at(R,C,A2,B2,X2,Y2), line(A2,B2,X2,Y2) }.
:- taken(A,B,X,Y), not line(A,B,X,Y).
"""


def drawing_for(empty: YajilinPuzzle, seed: int, cap: int) -> State | None:
    """A random loop-and-shading of the empty grid with as many shaded cells as the board
    allows; for a level-1 target, one whose loop the level-1 solve follows."""
    def least(share: float) -> str:
        return f":- #count {{ R,C : shade(R,C) }} < {round(empty.rows * empty.cols * share)}."
    if cap == 1:
        larger = max(1.0, empty.rows * empty.cols / 100) ** FOLLOWED_GROWTH
        return exact.random_solution(empty, seed, extra=least(FOLLOWED_LEAST_SHADED) + FOLLOWED_BY_LEVEL_1,
                                     seconds=FOLLOWED_SECONDS, conflicts=round(FOLLOWED_CONFLICTS * larger))
    for share in LEAST_SHADED:
        drawing = exact.random_solution(empty, seed, extra=least(share), seconds=DRAWING_SECONDS,
                                        conflicts=DRAWING_CONFLICTS)
        if drawing is not None:
            return drawing
    return None


def open_cells(puzzle: YajilinPuzzle, cap: int) -> set[int] | None:
    """The cells the solve up to `cap` leaves undecided (none: it has shown one solution;
    None: every cell is decided but the loop is not, which no clue can help, as a clue only
    counts shaded cells)."""
    trace = Solver(puzzle, max_level=cap, assume_unique=False, greedy=True).solve()
    if trace.status is Status.SOLVED:
        return set()
    cands = trace.final.cands
    return {i for i in range(puzzle.rows * puzzle.cols) if cands[i] & (cands[i] - 1)} or None


def loop_follows(empty: YajilinPuzzle, drawing: State, cap: int) -> bool:
    """Does the solve up to `cap` draw the drawing's loop once it knows every cell (shaded or
    on the loop)? If not, no clue can get it there, as a clue tells only shaded cells: an easy
    draft is given up at once instead of after a clue cell on every shaded cell."""
    n = empty.rows * empty.cols
    known = State(drawing.cands[:n] + empty.genre.initial_state(empty).cands[n:])
    trace = Solver(empty, max_level=cap, assume_unique=False, greedy=True).solve(known)
    return trace.status is Status.SOLVED


def cells_of(puzzle: YajilinPuzzle, variables: list[int]) -> set[int]:
    """The cells of state variables: a cell's own, and both ends of a link."""
    n = puzzle.rows * puzzle.cols
    return {c for v in variables for c in ((v,) if v < n else puzzle.graph.ends[v - n])}


def draft(rng: random.Random, rows: int, cols: int, cap: int = 5) -> Draft | None:
    """A random loop-and-shading of the empty grid; some shaded cells become clue cells at
    once, each pointing the way its row or column holds the most shaded cells, numbered from
    the drawing. While the exact solver finds two solutions, a shaded cell that sees where they
    differ becomes one more clue cell (as `make` does), or a clue turns to look there. For an
    easy target, the same until the solve up to its level decides every cell: Tatham's easy
    tiers keep more clues, and an easy Yajilin has them where its techniques need them; and
    its loop is one that solve follows once it knows the cells (drawn so for level 1)."""
    n = rows * cols
    empty = YajilinPuzzle(rows=rows, cols=cols, clues=(None,) * n)
    drawing = drawing_for(empty, rng.randrange(1 << 30), cap)
    if drawing is None:
        return None
    if 1 < cap <= EASY and not loop_follows(empty, drawing, cap):     # (level 1's follows by its rule)
        return None
    shaded = set(get("yajilin").solution_from_state(empty, drawing)[0])
    blocked = set(rng.sample(sorted(shaded), max(1, round(len(shaded) * rng.uniform(*CLUE_SHARE)))))
    shaded -= blocked
    towards = {i: "" for i in blocked}         # the way each clue points ("": the busiest way)
    for _ in range(n):
        clues = {i: clue_towards(empty, shaded, i, towards[i]) for i in blocked}
        puzzle = attrs.evolve(empty, clues=tuple(clues.get(i) for i in range(n)))
        if cap <= EASY:
            differ = open_cells(puzzle, cap)
        else:
            variables = where_solutions_differ(puzzle)
            differ = None if variables is None else cells_of(puzzle, variables)
        if differ is None:
            return None
        if not differ:
            break
        # a shaded cell that becomes a clue, or a clue that turns, looking where they differ
        ways = [(i, d) for i in sorted(shaded | blocked) for d in "nesw"
                if d != towards.get(i) and any(j in differ for j in _ray(empty, i, d))]
        if not ways and not shaded:
            return None
        cell, way = rng.choice(ways) if ways else (rng.choice(sorted(shaded)), "")
        shaded.discard(cell)
        blocked.add(cell)
        towards[cell] = way
    else:
        return None

    def build(kept: frozenset[int]) -> YajilinPuzzle:
        return attrs.evolve(empty, clues=tuple(
            (clues[i] if i in kept else Clue(None, "")) if i in blocked else None for i in range(n)))
    return Draft(tuple(sorted(clues)), build, grid=(rows, cols), exact_first=4)
