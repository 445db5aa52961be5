"""Nurikabe drafts for the generator (grader.core.generator): from an all-wall board, random
cells of 2x2 wall blocks turn into island cells while the walls stay connected and islands
stay small, until no 2x2 block is all wall; each island gets its size in a random cell of it.
Every island needs its number, so each draft is graded as it is; one that grades too easy has
its numbers moved within their islands, and the generator draws again until one hits.

Level 1 grows no island (an island's only way out is level 2), so a draft for level 1 or 2
turns an island cell the solve up to that level leaves open into wall (walls still joined, a
2x2 of wall broken by a new one-cell island) until the solve finishes: smaller islands, and
more of them, as easy books have."""
from __future__ import annotations

import random

from grader.core.engine import Solver
from grader.core.generator import Draft
from grader.genres.nurikabe.model import NO_CLUE, NurikabePuzzle
from grader.kernels import connectivity as cn

MAX_ISLAND = (4, 7)
EASY = 2            # targets up to this level have their islands walled down until solved


def random_solution(rows: int, cols: int, rng: random.Random, max_island: int) -> list[bool] | None:
    """island[i] for a random valid Nurikabe solution shape, or None if growth got stuck."""
    g = cn.GridGraph(rows, cols)
    island = [False] * g.size

    def island_size_if(i: int) -> int:
        seen, stack = {i}, [i]
        while stack:
            j = stack.pop()
            for n in g.neighbours[j]:
                if island[n] and n not in seen:
                    seen.add(n)
                    stack.append(n)
        return len(seen)

    def walls_connected_without(i: int) -> bool:
        walls = [not island[j] and j != i for j in range(g.size)]
        return len(cn.components(g, walls)) <= 1

    for _ in range(rows * cols * 4):
        pools = [b for b in g.blocks if not any(island[i] for i in b)]
        if not pools:
            return island
        cell = rng.choice(rng.choice(pools))
        if island_size_if(cell) <= max_island and walls_connected_without(cell):
            island[cell] = True
    return None


def clues_for(rows: int, cols: int, island: list[bool], rng: random.Random) -> tuple[int, ...]:
    """Each island's size, in a random cell of it."""
    g = cn.GridGraph(rows, cols)
    clues = [NO_CLUE] * g.size
    for part in cn.components(g, island).cells:
        clues[rng.choice(part)] = len(part)
    return tuple(clues)


def draft(rng: random.Random, rows: int, cols: int, cap: int = 5) -> Draft | None:
    island = random_solution(rows, cols, rng, rng.randint(*MAX_ISLAND))
    if island is None:
        return None
    clues = clues_for(rows, cols, island, rng)
    if cap <= EASY:
        found = walled_until_solved(rng, rows, cols, island, clues, cap)
        if found is None:
            return None
        island, clues = found
    return numbered(rows, cols, island, clues)


def walled_until_solved(rng: random.Random, rows: int, cols: int, island: list[bool], clues: tuple[int, ...],
                        cap: int) -> tuple[list[bool], tuple[int, ...]] | None:
    """Island cells turned into wall, one at a time where the solve up to `cap` stops, until it
    finishes; each island keeps its number's cell where it can, and a piece cut off gets one."""
    g = cn.GridGraph(rows, cols)
    island = list(island)
    for _ in range(rows * cols):
        trace = Solver(NurikabePuzzle(rows=rows, cols=cols, clues=clues), max_level=cap, assume_unique=False,
                       greedy=True).solve()
        cands = trace.final.cands
        open_cells = {i for i, c in enumerate(cands) if c & (c - 1)}
        if not open_cells:
            return island, clues
        near = [i for i in range(g.size) if island[i] and (i in open_cells or open_cells & set(g.neighbours[i]))]
        rng.shuffle(near)
        for i in near:
            changed = walled(g, island, i, rng)
            if changed is not None:
                island = changed
                clues = renumbered(g, island, clues, rng)
                break
        else:
            return None
    return None


def walled(g: cn.GridGraph, island: list[bool], i: int, rng: random.Random) -> list[bool] | None:
    """The shape with island cell i turned into wall, and a 2x2 of wall that makes broken up by a
    new one-cell island where one fits (touching no island); None when the walls would part
    or a pool would stay."""
    out = list(island)
    out[i] = False
    for block in g.blocks:
        if i in block and not any(out[j] for j in block):
            fits = [j for j in block if j != i and not any(out[n] for n in g.neighbours[j])]
            if not fits:
                return None
            out[rng.choice(fits)] = True
    return out if len(cn.components(g, [not x for x in out])) == 1 else None


def renumbered(g: cn.GridGraph, island: list[bool], clues: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
    """Each island's size in the cell of its old number, or a random cell of a new island."""
    out = [NO_CLUE] * g.size
    for part in cn.components(g, island).cells:
        where = [i for i in part if clues[i] != NO_CLUE]
        out[where[0] if where else rng.choice(part)] = len(part)
    return tuple(out)


def numbered(rows: int, cols: int, island: list[bool], clues: tuple[int, ...]) -> Draft:
    """The draft of one numbering; a tweak moves one island's number to another of its cells."""
    puzzle = NurikabePuzzle(rows=rows, cols=cols, clues=clues)
    parts = cn.components(cn.GridGraph(rows, cols), island).cells

    def tweak(rng: random.Random) -> Draft | None:
        part = rng.choice(parts)
        if len(part) < 2:
            return None
        moved = list(clues)
        here = next(i for i in part if clues[i] != NO_CLUE)
        moved[rng.choice([i for i in part if i != here])], moved[here] = clues[here], NO_CLUE
        return numbered(rows, cols, island, tuple(moved))
    return Draft((), lambda kept: puzzle, grid=(rows, cols), tweak=tweak)
