"""Level 4: the pairwise product of the notes (spec/numberlink-notes.txt)."""
from __future__ import annotations

from typing import Callable, Iterator, NamedTuple

from grader.genres.numberlink.model import WITH_SIDE, WITHOUT_SIDE, NumberlinkPuzzle
from grader.kernels.cell_shapes import OPPOSITE, SHAPES, SIDES, Chains, chains
from grader.core.engine import solve_memory
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.steps import Deduction

from heuristics.numberlink.common import GENRE, along, cells_near, listed_at
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
    joined: tuple[int, ...]
    roots: frozenset[int]
    labels: frozenset[int]
    alone: bool


def way(ch: Chains, own: int, value: int, joined: tuple[int, ...]) -> Way:
    """Value `value` of a cell with number `own` (0: none) that joins the neighbours `joined`
    (joined_by) besides its partner."""
    root, on_line = ch.root, ch.labels
    roots = frozenset([root[z] for z in joined])
    labels = frozenset([lab for lab in [on_line[z] for z in joined] + [own] if lab])
    return Way(value, SHAPES[value], joined, roots, labels, len(roots) == len(joined) and len(labels) <= 1)


def joined_by(puzzle: NumberlinkPuzzle) -> dict[tuple[int, int, int], tuple[int, ...]]:
    """(cell, value, a side to leave out) -> the neighbours the shape joins on its other sides,
    made once per puzzle: the pairwise product asks at every step of the fills."""
    def make() -> dict[tuple[int, int, int], tuple[int, ...]]:
        return {(x, v, skip): tuple(z for e, z in nb.items() if shape & e and e != skip)
                for x, nb in enumerate(puzzle.neighbour) for v, shape in enumerate(SHAPES)
                for skip in SIDES}
    return puzzle.once("_numberlink_joined_by", make)


def touches(puzzle: NumberlinkPuzzle, ch: Chains, pair: tuple[int, int], si: int, sj: int,
            joined: tuple[int, ...], roots: frozenset[int], labels: frozenset[int],
            apart: Callable[[int, int], bool]) -> bool:
    """Whether joining neighbours i and j (shapes si, sj) into one line, with the pieces
    `roots`, would bring that line beside itself away from the end numbers; apart(r1, r2)
    says whether pieces r1 and r2 already lie side by side away from i and j."""
    i, j = pair
    numbered, neighbour, root, on_line = puzzle.labels, puzzle.neighbour, ch.root, ch.labels
    for x, shape in ((i, si), (j, sj)):
        if numbered[x]:
            continue
        for d, z in neighbour[x].items():
            if not shape & d and not numbered[z] and (root[z] in roots or on_line[z] in labels):
                return True
    for k, u in enumerate(joined):      # two cells the pair joins on, themselves side by side
        if u in pair or numbered[u]:
            continue
        beside = neighbour[u].values()
        for v in joined[k + 1:]:
            if v in beside and v not in pair and not numbered[v]:
                return True
    listed = sorted(roots)
    for k, r1 in enumerate(listed):
        for r2 in listed[k + 1:]:
            if apart(r1, r2):
                return True
    return False


def side_by_side_apart(puzzle: NumberlinkPuzzle, ch: Chains, r1: int, r2: int, i: int, j: int) -> bool:
    """Whether pieces r1 and r2 lie side by side somewhere away from cells i and j."""
    for p in side_by_side(puzzle, ch, r1, r2) if r1 < r2 else side_by_side(puzzle, ch, r2, r1):
        if i not in p and j not in p:
            return True
    return False


# The product of two cells reads only the candidates of the two and of their neighbours, which
# of those neighbours share a piece or a number's line, and (asked as it goes) whether two
# pieces it would join already lie side by side. The fills of the look-aheads meet the same
# few of these again and again (janko 426: 46,000 products, 4,200 different neighbourhoods),
# so a solve remembers each outcome by what it read: the neighbourhood (`product_key`) and the
# answers to its questions about pieces, asked again of the board at hand before one is used.
KEPT_PRODUCTS = 200_000


def product_cells(puzzle: NumberlinkPuzzle) -> dict[tuple[int, int], tuple[int, ...]]:
    """Per join (i, j): i, j and their neighbours, each once, made once per puzzle."""
    def make() -> dict[tuple[int, int], tuple[int, ...]]:
        nb = puzzle.neighbour
        return {(i, j): tuple(dict.fromkeys((i, j, *nb[i].values(), *nb[j].values())))
                for i, _, j in puzzle.edges}
    return puzzle.once("_numberlink_product_cells", make)


def product_sides(puzzle: NumberlinkPuzzle) -> dict[tuple[int, int], tuple[tuple[int, ...], tuple[int, ...]]]:
    """Per join (i, j): i with its neighbours but j, and j with its neighbours but i (what
    each cell of the pair reaches on its own side), made once per puzzle."""
    def make() -> dict[tuple[int, int], tuple[tuple[int, ...], tuple[int, ...]]]:
        nb = puzzle.neighbour
        return {(i, j): ((i, *(y for y in nb[i].values() if y != j)), (j, *(y for y in nb[j].values() if y != i)))
                for i, _, j in puzzle.edges}
    return puzzle.once("_numberlink_product_sides", make)


def product_key(state: State, ch: Chains, i: int, j: int, cells: tuple[int, ...]) -> tuple:
    """What the product of i and j reads of the board, each piece there named by the position
    of its first cell in `cells` (pieces are named by a cell that differs from board to board)."""
    roots = list(map(ch.root.__getitem__, cells))
    return (i, j, tuple(map(state.cands.__getitem__, cells)), tuple(map(roots.index, roots)),
            tuple(map(ch.labels.__getitem__, cells)))


@heuristic(id="numberlink.pair-product", genre=GENRE)
def pair_product(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """The notes' pairwise product: combine two neighbouring undecided cells, drop the
    combinations that break a join, mix two numbers, close a loop or bring a line beside
    itself, keep what survives."""
    ch = chains(puzzle, state)
    product = Product(puzzle, state, ch)
    kept = solve_memory().setdefault("numberlink.pair-products", {})
    if len(kept) > KEPT_PRODUCTS:
        kept.clear()
    # a cell is on a number's line when its piece carries a label (an end number's always
    # does), and drawn when it must use a side
    on_line, must, root = ch.labels, ch.must, ch.root
    around, sides = product_cells(puzzle), product_sides(puzzle)
    line_at, drawn_at = on_line.__getitem__, must.__getitem__
    # the joins at the cells near what changed, in board order (inside a trial's fill the
    # board is large and what changed small); a join at the focus changes the number and the
    # piece of every cell of the pieces it joins, and where they lie side by side: all of
    # those pieces are near
    edges = puzzle.edges if focus is None else \
        [puzzle.edges[k] for k in listed_at(puzzle, "edges_of", frozenset(cells_near(puzzle, along(ch, focus))))]
    for i, d, j in edges:
        mi, mj = state.cands[i], state.cands[j]
        if not (mi & (mi - 1)) or not (mj & (mj - 1)):
            continue
        # two shapes that each agree with their other neighbours clash only through numbers
        # or drawn lines that both cells reach (a 2x2 block alone is the level-2 rules' work)
        side_i, side_j = sides[i, j]
        if not (any(map(line_at, side_i)) and any(map(line_at, side_j))) and \
                not (any(map(drawn_at, side_i)) and any(map(drawn_at, side_j))):
            continue
        cells = around[i, j]
        key = product_key(state, ch, i, j, cells)
        outcomes = kept.setdefault(key, [])
        outcome = None
        for asked, out in outcomes:     # the first whose questions get the same answers here
            for a, b, yes in asked:
                if side_by_side_apart(puzzle, ch, root[cells[a]], root[cells[b]], i, j) != yes:
                    break
            else:
                outcome = out
                break
        if outcome is None:
            asked: list[tuple[int, int, bool]] = []
            first = {r: k for k, r in reversed(list(enumerate(map(root.__getitem__, cells))))}

            def apart(r1: int, r2: int) -> bool:
                yes = side_by_side_apart(puzzle, ch, r1, r2, i, j)
                asked.append((first[r1], first[r2], yes))
                return yes
            outcome = product.of(i, d, j, apart)
            outcomes.append((tuple(asked), outcome))
        keep_i, keep_j, combinations = outcome
        if combinations is not None:
            yield Deduction.build(state, keep={i: keep_i, j: keep_j}, params={
                "a": puzzle.cell(i), "b": puzzle.cell(j),
                "kept": f"{combinations} combination" + ("" if combinations == 1 else "s")})


class Product:
    """The pairwise product of two neighbouring cells on one board, with the shapes of each
    cell (shape_options) and what each shape joins (way) worked out once for the board."""

    def __init__(self, puzzle: NumberlinkPuzzle, state: State, ch: Chains):
        self.puzzle, self.state, self.ch = puzzle, state, ch
        self.options: dict[int, list[tuple[int, int, int]]] = {}
        self.seen: dict[tuple[int, int, int], Way] = {}
        self.joined = joined_by(puzzle)

    def ways(self, x: int, v: int, shape: int, skip: int) -> Way:
        key = (x, v, skip & shape)
        found = self.seen.get(key)
        if found is None:
            found = self.seen[key] = way(self.ch, self.puzzle.labels[x], v, self.joined[x, v, skip])
        return found

    def shapes(self, x: int) -> list[tuple[int, int, int]]:
        if x not in self.options:
            self.options[x] = shape_options(self.puzzle, self.state, x)
        return self.options[x]

    def of(self, i: int, d: int, j: int, apart: Callable[[int, int], bool]) -> tuple[int, int, int | None]:
        """The values of i and j that some combination keeps, and how many combinations
        survive (None when every value is kept)."""
        puzzle, ch, ways = self.puzzle, self.ch, self.ways

        def fit(a: Way, b: Way) -> bool:
            """Whether shapes a at i and b at j, each fine alone (Way.alone), can stand together."""
            if not a.shape & d:
                return True
            return a.roots.isdisjoint(b.roots) and len(a.labels | b.labels) <= 1 \
                and not touches(puzzle, ch, (i, j), a.shape, b.shape, a.joined + b.joined, a.roots | b.roots,
                                a.labels | b.labels, apart)
        od = OPPOSITE[d]
        options_i, options_j = self.shapes(i), self.shapes(j)
        # the shapes that agree with every neighbour but the partner, by whether they join it;
        # a shape that alone closes a loop or mixes two numbers fits no partner (fit)
        fit_j = ([w for vj, sj, bad in options_j if not bad & ~od and not sj & od
                  if (w := ways(j, vj, sj, od)).alone],
                 [w for vj, sj, bad in options_j if not bad & ~od and sj & od if (w := ways(j, vj, sj, od)).alone])
        fit_i = [w for vi, si, bad in options_i if not bad & ~d if (w := ways(i, vi, si, d)).alone]
        keep_i = keep_j = 0
        for a in fit_i:
            for b in fit_j[bool(a.shape & d)]:
                # a combination shows nothing new when both shapes are already known to fit
                if not (keep_i >> a.value & 1 and keep_j >> b.value & 1) and fit(a, b):
                    keep_i |= 1 << a.value
                    keep_j |= 1 << b.value
        cands = self.state.cands
        if keep_i == cands[i] and keep_j == cands[j]:
            return keep_i, keep_j, None
        return keep_i, keep_j, sum(1 for a in fit_i for b in fit_j[bool(a.shape & d)] if fit(a, b))
