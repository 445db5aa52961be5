"""Nurikabe drafts for the generator (grader.core.generator): from an all-wall board, random
cells of 2x2 wall blocks turn into island cells while the walls stay connected and islands
stay small, until no 2x2 block is all wall; each island gets its size in a random cell of it.
Every island needs its number, so each draft is graded as it is; one that grades too easy has
its numbers moved within their islands, and the generator draws again until one hits."""
from __future__ import annotations

import random

from grader.core.generator import Draft
from grader.genres.nurikabe.model import NO_CLUE, NurikabePuzzle
from grader.kernels import connectivity as cn

MAX_ISLAND = (4, 7)


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
    return numbered(rows, cols, island, clues_for(rows, cols, island, rng))


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
