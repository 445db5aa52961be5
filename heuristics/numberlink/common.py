"""Helpers shared by the Numberlink techniques: where to look, and joins on or off."""
from __future__ import annotations

from typing import Iterable

from grader.genres.numberlink.model import WITH_SIDE, WITHOUT_SIDE, NumberlinkPuzzle
from grader.kernels.cell_shapes import OPPOSITE, SIDES, Chains
from grader.core.model import State
from grader.core.steps import Deduction

GENRE = "numberlink"


def cells_near(puzzle: NumberlinkPuzzle, focus: frozenset[int] | None) -> Iterable[int]:
    """The cells of `focus` and their neighbours, in board order (every cell for None)."""
    if focus is None:
        return range(puzzle.rows * puzzle.cols)
    # the techniques quiet at one step are all asked with the same focus at the next, so a
    # few answers are kept, not only the last
    memo = kept_answers(puzzle, "_numberlink_cells_near")
    found = memo.get(focus)
    if found is None:
        around = puzzle.around
        out = set()
        for f in focus:
            out.update(around[f])
        found = memo[focus] = tuple(sorted(out))
    return found


NEAR_REMEMBERED = 256       # focuses whose cells are kept (those of the latest steps)


def kept_answers(puzzle: NumberlinkPuzzle, name: str) -> dict:
    """puzzle.memo(name, NEAR_REMEMBERED), written out: asked by most techniques at every step."""
    memo = puzzle.__dict__.get(name)
    if memo is None or len(memo) > NEAR_REMEMBERED:
        memo = puzzle.__dict__[name] = {}
    return memo


def along(ch: Chains, focus: frozenset[int] | None) -> frozenset[int] | None:
    """ch.along(focus), once per board and focus: at a step the rules for drawn lines are
    all asked with the same focus, and a long piece makes it dear. A focus on no piece is
    its own answer (the same set, so what is kept by focus serves it too)."""
    if focus is None:
        return None
    memo = ch.memo.get("along")
    if memo is None:
        memo = ch.memo["along"] = {}
    found = memo.get(focus)
    if found is None:
        members = ch.members
        root = ch.root
        on_piece = False
        for x in focus:
            if root[x] in members:
                on_piece = True
                break
        found = memo[focus] = ch.along(focus) if on_piece else focus
    return found


# where the puzzle keeps listed_at's answers, per table
LISTED_AT_MEMO = {table: "_numberlink_listed_at_" + table for table in ("edges_of", "blocks_of")}


def listed_at(puzzle: NumberlinkPuzzle, table: str, cells: frozenset[int]) -> tuple[int, ...]:
    """What the puzzle's `table` (per cell, indices: of its joins, its 2x2 blocks) lists for
    `cells`, each once, in order; a few answers kept, as in cells_near."""
    memo = kept_answers(puzzle, LISTED_AT_MEMO[table])
    found = memo.get(cells)
    if found is None:
        of = getattr(puzzle, table)
        found = memo[cells] = tuple(sorted({k for i in cells for k in of[i]}))
    return found


def phrase(items: list[str]) -> str:
    from grader.core.explain import phrase_list
    return phrase_list(items)


def the(puzzle: NumberlinkPuzzle, labels: Iterable[int]) -> list[str]:
    return [f"the {puzzle.name(lab)}s" for lab in sorted(labels)]


def min_mask(sides: int) -> int:
    """Values whose shape uses none of `sides`."""
    out = -1
    for d in SIDES:
        if d & sides:
            out &= WITHOUT_SIDE[d]
    return out


def join_on(state: State, i: int, d: int, j: int, **why) -> Deduction | None:
    """The line runs between i and its neighbour j on side d."""
    return _join(state, i, WITHOUT_SIDE[d], j, WITHOUT_SIDE[OPPOSITE[d]], **why)


def join_off(state: State, i: int, d: int, j: int, **why) -> Deduction | None:
    """No line runs between i and its neighbour j on side d."""
    return _join(state, i, WITH_SIDE[d], j, WITH_SIDE[OPPOSITE[d]], **why)


def _join(state: State, i: int, drop_i: int, j: int, drop_j: int, *, params, premises=(), cells=(),
          region=()) -> Deduction | None:
    """Removes drop_i from cell i and drop_j from its neighbour j, when that is new (the same
    as Deduction.build, made directly: the fills of trials settle joins by the thousand)."""
    a, b = state.cands[i] & drop_i, state.cands[j] & drop_j
    if not (a or b):
        return None
    return Deduction(two_removals(i, a, j, b), params, tuple(premises), tuple(cells), tuple(region))


def two_removals(i: int, a: int, j: int, b: int) -> tuple[tuple[int, int], ...]:
    """Removals of a from cell i and b from its neighbour j, in cell order, an empty one left out."""
    if i > j:
        i, a, j, b = j, b, i, a
    if not a:
        return ((j, b),)
    return ((i, a), (j, b)) if b else ((i, a),)
