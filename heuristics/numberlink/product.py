"""Level 4: the pairwise product of the notes (spec/numberlink-notes.txt)."""
from __future__ import annotations

from typing import Iterator, NamedTuple

from grader.genres.numberlink.model import WITH_SIDE, WITHOUT_SIDE, NumberlinkPuzzle
from grader.kernels.cell_shapes import OPPOSITE, SHAPES, SIDES, Chains, chains
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.steps import Deduction

from heuristics.numberlink.common import GENRE, cells_near
from heuristics.numberlink.lines import side_by_side

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


class Way(NamedTuple):
    """A shape of a cell in a pair: the neighbours it joins besides its partner, their pieces
    and the numbers on them (with the cell's own number), and whether those alone already
    close a loop or mix two numbers."""
    value: int
    shape: int
    joined: list[int]
    roots: frozenset[int]
    labels: frozenset[int]
    alone: bool


def way(puzzle: NumberlinkPuzzle, ch: Chains, x: int, value: int, skip: int) -> Way:
    joined = joined_by(puzzle)[x, value, skip]
    root, on_line = ch.root, ch.labels
    roots = frozenset([root[z] for z in joined])
    own = puzzle.labels[x]
    labels = frozenset([lab for lab in [on_line[z] for z in joined] + [own] if lab])
    return Way(value, SHAPES[value], list(joined), roots, labels, len(roots) == len(joined) and len(labels) <= 1)


def joined_by(puzzle: NumberlinkPuzzle) -> dict[tuple[int, int, int], tuple[int, ...]]:
    """(cell, value, a side to leave out) -> the neighbours the shape joins on its other sides,
    made once per puzzle: the pairwise product asks at every step of the fills."""
    def make() -> dict[tuple[int, int, int], tuple[int, ...]]:
        return {(x, v, skip): tuple(z for e, z in nb.items() if shape & e and e != skip)
                for x, nb in enumerate(puzzle.neighbour) for v, shape in enumerate(SHAPES)
                for skip in SIDES}
    return puzzle.once("_numberlink_joined_by", make)


def touches(puzzle: NumberlinkPuzzle, ch: Chains, pair: tuple[int, int], si: int, sj: int,
            joined: list[int], roots: frozenset[int], labels: frozenset[int]) -> bool:
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
    listed = sorted(roots)
    for k, r1 in enumerate(listed):
        for r2 in listed[k + 1:]:
            for pair_ in side_by_side(puzzle, ch, r1, r2):
                if i not in pair_ and j not in pair_:
                    return True
    return False


@heuristic(id="numberlink.pair-product", genre=GENRE)
def pair_product(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """The notes' pairwise product: combine two neighbouring undecided cells, drop the
    combinations that break a join, mix two numbers, close a loop or bring a line beside
    itself, keep what survives."""
    ch = chains(puzzle, state)
    near = set(cells_near(puzzle, focus))
    options: dict[int, list[tuple[int, int, int]]] = {}
    seen: dict[tuple[int, int, int], Way] = {}

    def ways(x: int, v: int, shape: int, skip: int) -> Way:
        key = (x, v, skip & shape)
        if key not in seen:
            seen[key] = way(puzzle, ch, x, v, skip)
        return seen[key]

    def fit(a: Way, b: Way) -> bool:
        """Whether shapes a at i and b at j, each fine alone (Way.alone), can stand together."""
        if not a.shape & d:
            return True
        return a.roots.isdisjoint(b.roots) and len(a.labels | b.labels) <= 1 \
            and not touches(puzzle, ch, (i, j), a.shape, b.shape, a.joined + b.joined, a.roots | b.roots,
                            a.labels | b.labels)
    labels, on_line, must = puzzle.labels, ch.labels, ch.must

    def labelled(x: int) -> bool:
        return bool(labels[x] or on_line[x])

    def drawn(x: int) -> bool:
        return bool(must[x])

    def reaches(x: int, skip: int, flag) -> bool:
        if flag(x):
            return True
        for y in puzzle.neighbour[x].values():
            if y != skip and flag(y):
                return True
        return False
    # the joins at the cells near what changed, in board order (inside a trial's fill the
    # board is large and what changed small)
    edges = puzzle.edges if focus is None else \
        [puzzle.edges[k] for k in sorted({k for x in near for k in puzzle.edges_of[x]})]
    for i, d, j in edges:
        mi, mj = state.cands[i], state.cands[j]
        if not (mi & (mi - 1)) or not (mj & (mj - 1)):
            continue
        # two shapes that each agree with their other neighbours clash only through numbers
        # or drawn lines that both cells reach (a 2x2 block alone is the level-2 rules' work)
        if not (reaches(i, j, labelled) and reaches(j, i, labelled)) and \
                not (reaches(i, j, drawn) and reaches(j, i, drawn)):
            continue
        od = OPPOSITE[d]
        if i not in options:
            options[i] = shape_options(puzzle, state, i)
        if j not in options:
            options[j] = shape_options(puzzle, state, j)
        # the shapes that agree with every neighbour but the partner, by whether they join it;
        # a shape that alone closes a loop or mixes two numbers fits no partner (fit)
        fit_j = ([w for vj, sj, bad in options[j] if not bad & ~od and not sj & od
                  if (w := ways(j, vj, sj, od)).alone],
                 [w for vj, sj, bad in options[j] if not bad & ~od and sj & od if (w := ways(j, vj, sj, od)).alone])
        fit_i = [w for vi, si, bad in options[i] if not bad & ~d if (w := ways(i, vi, si, d)).alone]
        keep_i = keep_j = 0
        for a in fit_i:
            for b in fit_j[bool(a.shape & d)]:
                # a combination shows nothing new when both shapes are already known to fit
                if not (keep_i >> a.value & 1 and keep_j >> b.value & 1) and fit(a, b):
                    keep_i |= 1 << a.value
                    keep_j |= 1 << b.value
        if keep_i == mi and keep_j == mj:
            continue
        kept = sum(1 for a in fit_i for b in fit_j[bool(a.shape & d)] if fit(a, b))
        yield Deduction.build(state, keep={i: keep_i, j: keep_j}, params={
            "a": puzzle.cell(i), "b": puzzle.cell(j), "kept": f"{kept} combination" + ("" if kept == 1 else "s")})
