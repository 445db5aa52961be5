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
from .lines import side_by_side

# --- level 4 ------------------------------------------------------------------------------

def shape_options(puzzle: NumberlinkPuzzle, state: State, x: int) -> list[tuple[int, int, int]]:
    """The candidates of x as (value, shape, sides on which the neighbour disagrees or the
    shape leaves the grid)."""
    cands, nb = state.cands, puzzle.neighbour[x]
    out = []
    m = cands[x]
    for v, shape in enumerate(SHAPES):
        if m >> v & 1:
            bad = 0
            for d in SIDES:
                z = nb.get(d)
                if z is None:
                    if shape & d:
                        bad |= d
                elif not cands[z] & (WITH_SIDE if shape & d else WITHOUT_SIDE)[OPPOSITE[d]]:
                    bad |= d
            out.append((v, shape, bad))
    return out


def alone(puzzle: NumberlinkPuzzle, ch: Chains, x: int, joined: list[int]) -> bool:
    """The line through x, joining the cells `joined`, neither closes a loop nor mixes numbers."""
    roots = [ch.root[z] for z in joined]
    labels = {ch.label(z) for z in joined} | ({puzzle.labels[x]} if puzzle.labels[x] else set())
    return len(roots) == len(set(roots)) and len(labels - {0}) <= 1


def touches(puzzle: NumberlinkPuzzle, ch: Chains, pair: tuple[int, int], si: int, sj: int,
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
        for r2 in roots[k + 1:]:
            for pair_ in side_by_side(puzzle, ch, r1, r2):
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
    near = set(cells_near(puzzle, focus))
    nb, root, chl = puzzle.neighbour, ch.root, ch.labels
    options: dict[int, list[tuple[int, int, int]]] = {}
    seen: dict[tuple[int, int, int], tuple[int, int, list[int], bool]] = {}

    def ways(x: int, v: int, shape: int, skip: int) -> tuple[int, int, list[int], bool]:
        """Shape v at x: the neighbours it joins besides the one at `skip`, and whether it
        closes no loop and mixes no numbers with them."""
        key = (x, v, skip & shape)
        if key not in seen:
            joined = [z for e, z in nb[x].items() if shape & e and e != skip]
            seen[key] = (v, shape, joined, alone(puzzle, ch, x, joined))
        return seen[key]
    for i, d, j in puzzle.edges:
        if i not in near and j not in near:
            continue
        mi, mj = state.cands[i], state.cands[j]
        if not (mi & (mi - 1)) or not (mj & (mj - 1)):
            continue
        od = OPPOSITE[d]
        if i not in options:
            options[i] = shape_options(puzzle, state, i)
        if j not in options:
            options[j] = shape_options(puzzle, state, j)
        fit_j = [ways(j, vj, sj, od) for vj, sj, bad in options[j] if not bad & ~od]  # agrees with all but i
        label_i = [i] if puzzle.labels[i] else []
        label_j = [j] if puzzle.labels[j] else []

        def fit(vi: int, si: int, ji: list[int], alone_i: bool, vj: int, sj: int, jj: list[int], alone_j: bool) -> bool:
            if si & d:
                roots = [root[z] for z in ji + jj]
                labels = {chl[z] for z in ji + jj + label_i + label_j} - {0}
                return len(roots) == len(set(roots)) and len(labels) <= 1 and \
                    not touches(puzzle, ch, (i, j), si, sj, ji + jj, roots, labels)
            return alone_i and alone_j
        keep_i = keep_j = 0
        fit_i = []
        for vi, si, bad in options[i]:
            if bad & ~d:
                continue
            fit_i.append(ways(i, vi, si, d))
            for vj, sj, jj, alone_j in fit_j:
                # a combination shows nothing new when both shapes are already known to fit
                if bool(si & d) == bool(sj & od) and not (keep_i >> vi & 1 and keep_j >> vj & 1) \
                        and fit(*fit_i[-1], vj, sj, jj, alone_j):
                    keep_i |= 1 << vi
                    keep_j |= 1 << vj
        if keep_i == mi and keep_j == mj:
            continue
        kept = sum(1 for a in fit_i for b in fit_j if bool(a[1] & d) == bool(b[1] & od) and fit(*a, *b))
        found = Deduction.build(state, keep={i: keep_i, j: keep_j}, params={
            "a": puzzle.cell(i), "b": puzzle.cell(j), "kept": f"{kept} combination" + ("" if kept == 1 else "s")})
        if found:
            yield found
