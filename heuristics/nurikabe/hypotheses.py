"""Level 5: hypotheses filled in with the techniques up to level 3 (every way to grow an
island, which cell breaks a pool, trial and error).
"""
from __future__ import annotations

from typing import Iterator

from grader.genres.nurikabe.model import B_ISLAND, B_WALL, FREE, Islands, NurikabePuzzle, islands
from grader.core.registry import REGISTRY, heuristic
from grader.core.model import State
from grader.core.probing import Tried, branch_deduction, register_nested, register_probing, trial_rules
from grader.core.steps import Deduction
from grader.kernels import connectivity as cn

from heuristics.nurikabe.common import FILL_LEVEL, GENRE, PASSES, around, passes
from heuristics.nurikabe.shapes import assume_shape, island_shapes



# --- level 5 ------------------------------------------------------------------------------

@heuristic(id="nurikabe.island-growth", genre=GENRE)
def island_growth(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    isl = islands(puzzle, state)
    shapes = island_shapes(puzzle, state)
    tried = Tried("nurikabe.island-growth", around)
    # Islands are known by their number's cell; those that led nowhere lately go last.
    options = tried.order(state, [isl.clues[k][0] for _, k in sorted(
        (len(v), k) for k, v in shapes.items() if 2 <= len(v) <= 12)])
    for steps, clue in passes(options):
        k = isl.of[clue]
        d = _grow(puzzle, state, isl, k, steps)
        if d is not None:
            yield d
            return
        if steps == PASSES[-1][0]:
            tried.failed(puzzle, state, clue, (i for s in shapes[k] for i in s), ())


def _grow(puzzle: NurikabePuzzle, state: State, isl: Islands, k: int, steps: int) -> Deduction | None:
    """Assume each complete shape of island k in turn (with its border walled)."""
    assumptions = []
    for n, s in enumerate(island_shapes(puzzle, state)[k], 1):
        assumed = assume_shape(puzzle, state, s)
        assumptions.append((f"way {n}", assumed, state.diff(assumed)))
    d = branch_deduction(puzzle, state, assumptions, max_level=FILL_LEVEL, max_steps=steps)
    if d is not None:
        d.params.update({"island": isl.clue_name(k)})   # type: ignore[attr-defined]
    return d


@heuristic(id="nurikabe.pool-breaker", genre=GENRE)
def pool_breaker(puzzle: NurikabePuzzle, state: State, focus=None) -> Iterator[Deduction]:
    g = puzzle.graph
    pools = [(block, rest) for block, rest in cn.pool_blocks(g, state.cands, B_WALL) if len(rest) >= 2]
    for steps, (block, rest) in passes(sorted(pools, key=lambda br: len(br[1]))):
        assumptions = [(f"{g.cell(i)} is island", state.restrict(i, B_ISLAND), (i,)) for i in rest]
        d = branch_deduction(puzzle, state, assumptions, max_level=FILL_LEVEL, max_steps=steps)
        if d is not None:
            d.params.update({"cells": g.cells(block)})   # type: ignore[attr-defined]
            yield d
            return


def probe_first(puzzle: NurikabePuzzle, state: State) -> list[int]:
    """Cells to try, the most telling first: where the tightest islands can grow (fewest ways
    out, then fewest cells to go), then every other undecided cell. On a big board the first
    refutation then comes after a few trials instead of hundreds."""
    isl = islands(puzzle, state)
    ranked = sorted((len(isl.liberties(k)), isl.need(k) or 0, k) for k in isl.numbered_parts()
                    if isl.need(k))
    order: dict[int, None] = {}
    for _, _, k in ranked:
        order.update(dict.fromkeys(isl.liberties(k)))
    order.update(dict.fromkeys(i for i, m in enumerate(state.cands) if m == FREE))
    return list(order)


trial_and_error = register_probing(GENRE, max_level=FILL_LEVEL, candidates=probe_first, near=around)
# The longer case split is left out of the trials' fills: followed at every step of every
# branch it would cost many times the rest of the fill (trials have long chains of their own).
NOT_IN_FILLS = ("nurikabe.island-cases-longer",)
deep_trial = register_probing(GENRE, id="nurikabe.deep-trial", max_level=4, candidates=probe_first, near=around,
                              leave_out=NOT_IN_FILLS)
nested_trial = register_nested(GENRE, lambda: trial_rules(GENRE, 4, NOT_IN_FILLS) + [deep_trial],
                               candidates=probe_first, near=around)
