"""What a state says in the shading genres where shaded cells never touch side by side and
the white cells form one connected area (Heyawake, Kuromasu): the values, the rules broken,
and the questions the techniques ask of the white area (is it cut, where are its pockets).

Every cell is a variable with values WHITE (0) and SHADED (1). The puzzle offers `graph` (a
grid.GridGraph), `neighbours` and `cell(i)` as cached topology; the connectivity facts are
computed once per state by grader.kernels.connectivity.
"""
from __future__ import annotations

import functools
import itertools
from typing import Iterable, Sequence

from grader.core.model import State, Violation
from grader.kernels import connectivity
from grader.kernels.recent import recent_of

WHITE, SHADED = 0, 1
B_WHITE, B_SHADED = 1 << WHITE, 1 << SHADED
FREE = B_WHITE | B_SHADED


def around(puzzle, focus: Iterable[int]) -> set[int]:
    """The focus cells and their neighbours."""
    out: set[int] = set()
    for f in focus:
        out.add(f)
        out.update(puzzle.neighbours[f])
    return out


def open_side(puzzle, state: State) -> connectivity.Side:
    """The cells that are, or may still be, white (connectivity.Side, once per state).
    White cells must all end up in one area of these. A solve narrows a few cells at a time,
    so the side is an update of a recent state's (Side.narrowed: its parts and cut cells, a
    walk along the whole board, are updated or taken over); else what the last side made for
    the puzzle found about its possible cells is taken over when they are the same (Side's
    `like`)."""
    def make() -> connectivity.Side:
        side = connectivity.Side(puzzle.graph, state.cands, B_WHITE, like=puzzle.__dict__.get(LAST_SIDE))
        puzzle.__dict__[LAST_SIDE] = side
        return side
    return state.derived(("connectivity.side", B_WHITE), lambda: recent_of(puzzle, "shading.open_side").get(
        state, make, lambda old, _, changed: old.narrowed(state.cands, changed)))


LAST_SIDE = "_shading_last_open_side"      # the puzzle's newest open_side (one, so bounded)


# --- violations ---------------------------------------------------------------------------

def shading_violations(puzzle, state: State) -> list[Violation]:
    """Two shaded cells side by side; white cells that can no longer be joined."""
    return (connectivity.adjacent_shaded(puzzle.graph, state.cands, B_SHADED)
            + connectivity.disconnected(open_side(puzzle, state), "the white cells"))


def nearby_violations(puzzle, state: State) -> list[Violation]:
    """What a reader sees broken without surveying the board: two shaded cells side by side,
    or a white cell shut in by shaded cells and the edge while other white cells exist."""
    cands = state.cands
    out = connectivity.adjacent_shaded(puzzle.graph, cands, B_SHADED)
    whites = [i for i, m in enumerate(cands) if m == B_WHITE]
    if len(whites) > 1:
        nbrs = puzzle.neighbours
        for i in whites:
            for j in nbrs[i]:
                if cands[j] != B_SHADED:
                    break
            else:
                out.append(Violation(f"the white cell {puzzle.cell(i)} is shut in by shaded cells",
                                     (puzzle.cell(i),)))
    return out


# --- the white area -------------------------------------------------------------------------

def pieces_without(puzzle, cands: Sequence[int], cut: int) -> list[list[int]]:
    """The pieces the unshaded cells fall into when `cut` is shaded, each listed from the
    neighbour of `cut` it contains."""
    seen = {cut}
    pieces = []
    for s in puzzle.neighbours[cut]:
        if s in seen or cands[s] == B_SHADED:
            continue
        seen.add(s)
        stack, members = [s], [s]
        while stack:
            v = stack.pop()
            for u in puzzle.neighbours[v]:
                if u not in seen and cands[u] != B_SHADED:
                    seen.add(u)
                    stack.append(u)
                    members.append(u)
        pieces.append(members)
    return pieces


def small_area(nbrs, cands: Sequence[int], start: int, without: int, most: int) -> set[int] | None:
    """The cells not shaded that `start` reaches without passing `without`, when there are at
    most `most` of them; else None."""
    seen = {start}
    stack = [start]
    while stack:
        v = stack.pop()
        for u in nbrs[v]:
            if u != without and u not in seen and cands[u] != B_SHADED:
                seen.add(u)
                if len(seen) > most:
                    return None
                stack.append(u)
    return seen


RING = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))   # round a cell, sides at even places


@functools.lru_cache(maxsize=16)
def rings(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Each cell's eight surrounding cells in order round it (RING), -1 off the grid."""
    return tuple(tuple((r + dr) * cols + c + dc if 0 <= r + dr < rows and 0 <= c + dc < cols else -1
                       for dr, dc in RING)
                 for r, c in (divmod(i, cols) for i in range(rows * cols)))


def joined_around(rows: int, cols: int, cands: Sequence[int], i: int) -> bool:
    """Whether cell i's neighbours that are not shaded are joined through the cells round it
    (sides and corners) that are not shaded: without i they still lie in one area, so every
    one of them reaches the same cells (small_area gives the same from each)."""
    return JOINED_RINGS[tuple([j >= 0 and cands[j] != B_SHADED for j in rings(rows, cols)[i]])]


def ring_joined(open_: Sequence[bool]) -> bool:
    """joined_around's answer from which of the eight cells round a cell (RING) are open: at
    most one run of open cells round it holds a side neighbour."""
    if all(open_):
        return True
    start = open_.index(False)
    arcs = 0            # runs of open cells round i that hold a side neighbour
    side = False
    for k in range(start + 1, start + 9):
        place = k % 8
        if open_[place]:
            side = side or place % 2 == 0
        elif side:
            arcs += 1
            side = False
    return arcs <= 1


# ring_joined of every ring, by its cells' openness (a pocket look asks it of cell after cell)
JOINED_RINGS = {ring: ring_joined(ring) for ring in itertools.product((False, True), repeat=8)}


class Walls:
    """The shaded cells of one state joined corner to corner (and side to side), the grid's
    edge counted as one more member. A planar fact: shading more cells can cut the white
    cells apart only where a new shaded cell closes a ring of these, so only then is the
    white area searched again. `root` labels each wall by one of its members (a cell not
    shaded is its own); only which cells share a label means anything."""

    def __init__(self, puzzle, cands: Sequence[int]):
        self.rows, self.cols = puzzle.rows, puzzle.cols
        self.edge = edge = puzzle.rows * puzzle.cols
        parent = list(range(edge + 1))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        touching = touching_cells(self.rows, self.cols)
        shaded = [i for i, m in enumerate(cands) if m == B_SHADED]
        for i in shaded:
            for j in touching[i]:
                if j == edge or cands[j] == B_SHADED:
                    parent[find(i)] = find(j)
        # only shaded cells and the edge ever join a wall: the rest stay their own label
        for i in shaded:
            parent[i] = find(i)
        parent[edge] = find(edge)
        self.root = parent

    def touching(self, i: int) -> tuple[int, ...]:
        """The eight cells around i, and the edge when i lies on it."""
        return touching_cells(self.rows, self.cols)[i]

    def with_shaded(self, before: Sequence[int], cands: Sequence[int], changed: Sequence[int]) -> "Walls | None":
        """The walls of `cands`, a state that narrows this one's (`before`) where `changed`
        lie: each newly shaded cell joins the walls it touches, since shading only adds to
        walls; None when a shaded cell was emptied (a broken state: built afresh)."""
        if any(before[i] == B_SHADED for i in changed):
            return None
        new = [i for i in changed if cands[i] == B_SHADED]
        if not new:
            return self
        root, edge = list(self.root), self.edge
        touching = touching_cells(self.rows, self.cols)
        for i in new:
            labels = {root[j] for j in touching[i] if j == edge or cands[j] == B_SHADED}
            labels.discard(root[i])
            if labels:
                keep = root[i]
                root = [keep if r in labels else r for r in root]
        out = object.__new__(Walls)
        out.rows, out.cols, out.edge, out.root = self.rows, self.cols, edge, root
        return out


@functools.lru_cache(maxsize=16)
def touching_cells(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Walls.touching of every cell: its ring's cells, and the edge when the ring runs off the
    grid; worked out once per board size (whites_cut asks it of every cell a way would shade)."""
    edge = (rows * cols,)
    return tuple(tuple(j for j in ring if j >= 0) + (edge if -1 in ring else ())
                 for ring in rings(rows, cols))


def walls(puzzle, state: State) -> Walls:
    """The state's walls (Walls, once per state), as an update of a recent state's: a solve
    shades a few cells at a time."""
    return state.derived(("shading.walls",), lambda: recent_of(puzzle, "shading.walls").get(
        state, lambda: Walls(puzzle, state.cands),
        lambda old, before, changed: old.with_shaded(before, state.cands, changed)))


def splits_round(walls: Walls, ring: Sequence[int], open_: Sequence[bool]) -> bool:
    """Whether shading a cell splits its neighbours not shaded apart, from its ring (rings)
    and which of the ring's cells are open, when they are not joined round it (joined_around):
    exactly when two of the gaps between them (the shaded or off-board cells of the ring
    between two runs of open cells that hold a side neighbour) belong to one wall, which with
    the cell closes a ring."""
    root, edge_root = walls.root, walls.root[walls.edge]
    start = next(p for p in range(0, 8, 2) if open_[p])     # an open side neighbour
    seen: set[int] = set()
    gap: set[int] = set()
    for k in range(start + 1, start + 9):
        p = k % 8
        if not open_[p]:
            gap.add(root[ring[p]] if ring[p] >= 0 else edge_root)
        elif p % 2 == 0 and gap:        # a side neighbour ends the gap before it
            if not seen.isdisjoint(gap):
                return True
            seen |= gap
            gap = set()
    return False


def whites_cut(puzzle, state: State, shaded: Iterable[int], white=()) -> bool:
    """Whether also shading the cells `shaded` (none of them white) cuts the white cells (and
    `white`, taken as white; a callable may give them when needed) apart, in a state where
    they are joined."""
    cands = state.cands
    w = walls(puzzle, state)
    new = set(shaded)
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    ring = False
    for s in new:
        roots = [find(s)]
        for j in w.touching(s):
            if j in new:
                roots.append(find(j))
            elif j == w.edge or cands[j] == B_SHADED:
                roots.append(find(w.root[j]))
        if len(set(roots)) < len(roots):
            ring = True
            break
        for x in roots[1:]:
            parent[x] = roots[0]
    if not ring:
        return False
    side = open_side(puzzle, state)
    decided, of = side.decided, side.possible_parts.of
    extra = {i for i in (white() if callable(white) else white) if not decided[i]} - new
    # the white cells' areas and count, from the state's own once (a big board has many)
    areas = set(side.hosts).union(of[i] for i in extra)
    if len(areas) != 1:
        return len(areas) > 1
    area = areas.pop()
    seeds = [n for s in new for n in puzzle.neighbours[s] if of[n] == area]
    return connectivity.splits_marked(puzzle.graph, side.possible, new, seeds, WhiteOrExtra(decided, extra),
                                      len(side.decided_cells) + len(extra))


class WhiteOrExtra:
    """Membership in the white cells of a state (`decided`, by cell) and `extra` cells, without
    building the union."""
    __slots__ = ("decided", "extra")

    def __init__(self, decided: Sequence[bool], extra: set[int]):
        self.decided, self.extra = decided, extra

    def __contains__(self, i: int) -> bool:
        return self.decided[i] or i in self.extra


def whites_apart(nbrs, cands: Sequence[int]) -> bool:
    """The white cells can no longer all be joined through cells that are not shaded."""
    white = [i for i, m in enumerate(cands) if m == B_WHITE]
    if not white:
        return False
    seen = {white[0]}
    stack = [white[0]]
    while stack:
        v = stack.pop()
        for u in nbrs[v]:
            if u not in seen and cands[u] != B_SHADED:
                seen.add(u)
                stack.append(u)
    return any(i not in seen for i in white)
