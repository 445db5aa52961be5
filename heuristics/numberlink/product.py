"""Level 4: the pairwise product of the notes (spec/numberlink-notes.txt)."""
from __future__ import annotations

from typing import Iterator

from grader.genres.numberlink import (
    OPPOSITE,
    SHAPES,
    SIDES,
    WITH_SIDE,
    WITHOUT_SIDE,
    Chains,
    NumberlinkPuzzle,
    chains,
)
from grader.heuristic import heuristic
from grader.model import State
from grader.steps import Deduction

from .common import GENRE, cells_near
from .lines import Beside, pieces_side_by_side

# --- level 4 ------------------------------------------------------------------------------

def fits(puzzle: NumberlinkPuzzle, state: State, ch: Chains, x: int, shape: int, skip: int) -> tuple[bool, list[int]]:
    """Whether shape at x agrees with every neighbour but `skip`, and the chains it joins."""
    joined = []
    for d, z in puzzle.neighbour[x].items():
        if z == skip:
            continue
        back = state.cands[z] & (WITH_SIDE if shape & d else WITHOUT_SIDE)[OPPOSITE[d]]
        if not back:
            return False, []
        if shape & d:
            joined.append(z)
    for d in SIDES:
        if shape & d and d not in puzzle.neighbour[x]:
            return False, []
    return True, joined


def alone(puzzle: NumberlinkPuzzle, ch: Chains, x: int, joined: list[int]) -> bool:
    """The line through x, joining the cells `joined`, neither closes a loop nor mixes numbers."""
    roots = [ch.root[z] for z in joined]
    labels = {ch.label(z) for z in joined} | ({puzzle.labels[x]} if puzzle.labels[x] else set())
    return len(roots) == len(set(roots)) and len(labels - {0}) <= 1


def touches(puzzle: NumberlinkPuzzle, ch: Chains, beside: Beside, pair: tuple[int, int], si: int, sj: int,
            joined: list[int], roots: list[int], labels: set[int]) -> bool:
    """Whether joining neighbours i and j (shapes si, sj) into one line, with the pieces
    `roots`, would bring that line beside itself away from the end numbers."""
    i, j = pair
    for x, shape in ((i, si), (j, sj)):
        if puzzle.labels[x]:
            continue
        for d, z in puzzle.neighbour[x].items():
            if not shape & d and not puzzle.labels[z] and (ch.root[z] in roots or ch.labels[z] in labels):
                return True
    for k, u in enumerate(joined):      # two cells the pair joins on, themselves side by side
        for v in joined[k + 1:]:
            if v in puzzle.neighbour[u].values() and u not in pair and v not in pair \
                    and not puzzle.labels[u] and not puzzle.labels[v]:
                return True
    for k, r1 in enumerate(roots):
        near = beside.get(r1)
        if near:
            for r2 in roots[k + 1:]:
                for pair_ in near.get(r2, ()):
                    if i not in pair_ and j not in pair_:
                        return True
    return False


@heuristic(id="numberlink.pair-product", name="Two cells together", genre=GENRE, level=4, order=1,
           template="Of the ways to fill {a} and {b} together, only {kept} fit their neighbours and "
                    "the lines already drawn, so {a} and {b} keep only those shapes.",
           nudge="Try the shapes of {a} and {b} together.")
def pair_product(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """The notes' pairwise product: combine two neighbouring undecided cells, drop the
    combinations that break a join, mix two numbers, close a loop or bring a line beside
    itself, keep what survives."""
    ch = chains(puzzle, state)
    beside = state.derived("numberlink.beside", lambda: pieces_side_by_side(puzzle, ch))
    near = set(cells_near(puzzle, focus))
    for i, d, j in puzzle.edges:
        if i not in near and j not in near:
            continue
        mi, mj = state.cands[i], state.cands[j]
        if not (mi & (mi - 1)) or not (mj & (mj - 1)):
            continue
        fit_j = []
        for vj in range(len(SHAPES)):
            if mj >> vj & 1:
                ok_j, jj = fits(puzzle, state, ch, j, SHAPES[vj], i)
                if ok_j:
                    fit_j.append((vj, SHAPES[vj], jj, alone(puzzle, ch, j, jj)))
        keep_i = keep_j = 0
        kept = 0
        label_i = [i] if puzzle.labels[i] else []
        label_j = [j] if puzzle.labels[j] else []
        for vi in range(len(SHAPES)):
            if not mi >> vi & 1:
                continue
            si = SHAPES[vi]
            ok_i, ji = fits(puzzle, state, ch, i, si, j)
            if not ok_i:
                continue
            alone_i = None
            for vj, sj, jj, alone_j in fit_j:
                if bool(si & d) != bool(sj & OPPOSITE[d]):
                    continue
                if si & d:
                    roots = [ch.root[z] for z in ji + jj]
                    labels = {ch.labels[z] for z in ji + jj + label_i + label_j} - {0}
                    if len(roots) != len(set(roots)) or len(labels) > 1:
                        continue
                    if touches(puzzle, ch, beside, (i, j), si, sj, ji + jj, roots, labels):
                        continue
                else:
                    if alone_i is None:
                        alone_i = alone(puzzle, ch, i, ji)
                    if not (alone_i and alone_j):
                        continue
                keep_i |= 1 << vi
                keep_j |= 1 << vj
                kept += 1
        if keep_i == mi and keep_j == mj:
            continue
        found = Deduction.build(state, keep={i: keep_i, j: keep_j}, params={
            "a": puzzle.cell(i), "b": puzzle.cell(j), "kept": f"{kept} combination" + ("" if kept == 1 else "s")})
        if found:
            yield found
