"""Connectivity for grid shading genres (Nurikabe, Hitori, Heyawake, Kuromasu).

Every cell is one variable with two candidates, shaded and unshaded; the genre says which bit
is which. This module knows no genre: it answers questions about one *side* (the cells that
are, or may be, of one colour) in one state.

The stable API
--------------
GridGraph(rows, cols)                 topology (grader.kernels.grid), built once per puzzle (keep it in a
                                      cached_property): neighbours, 2x2 blocks, Cell names.
side(graph, state, bit)               a Side, computed once per state via state.derived:
    .decided        cells whose only candidate is `bit`
    .possible       cells that still have `bit` as a candidate (decided ones included)
    .decided_parts  components of decided cells (Parts: .cells, .of[cell] -> index or -1)
    .possible_parts components of possible cells
    .hosts          the possible components that hold a decided cell
    .apart          for a side that must be one connected area: groups of decided cells
                    that can no longer meet (empty when they still can)
    .stranded       possible, undecided cells that cannot join the decided cells
    .cuts           {undecided cell: (a, b)}: removing the cell from the side would separate
                    the decided cells a and b, so the cell must take `bit` (articulation
                    points, Tarjan, linear time)
    .splits         {undecided cell: (a, b)}: every articulation point of the possible
                    cells, with two of its neighbours that removing it would separate. In
                    genres where a shaded cell's neighbours must be unshaded (Hitori,
                    Heyawake, Kuromasu), shading such a cell splits the unshaded area.
    .liberties(k)   undecided possible cells beside decided part k, where it could grow
reach(graph, sources, passable, limit) breadth-first distances, for "can an island get there".
articulation_points / cut_sizes       cut cells of any area, and what stays joined without them;
                                      all three cut questions share one walk (Walk, Tarjan).
adjacent_pairs / shaded_neighbours    "no two shaded cells touch".
pool_blocks(graph, cands, bit)        2x2 blocks by how many cells are decided `bit`.
Violations: disconnected(), adjacent_shaded(), pools(): ready-made messages for a genre's
violations().

Every function is pure and reads only the candidates, so deductions built on it are sound.
"""
from __future__ import annotations

import bisect
import functools
import operator
from typing import Callable, Iterable, Iterator, Sequence

import attrs

from grader.core.model import State, Violation
from grader.kernels.grid import GridGraph


@attrs.frozen
class Parts:
    """Connected components of a set of cells: `cells[k]` is component k (sorted), and
    `of[i]` the component of cell i, or -1 when i is not in the set."""
    cells: tuple[tuple[int, ...], ...]
    of: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.cells)


def components(graph: GridGraph, members: Sequence[bool]) -> Parts:
    """Connected components of the cells i with members[i] true."""
    of = [-1] * graph.size
    parts: list[tuple[int, ...]] = []
    nbrs = graph.neighbours
    for start in range(graph.size):
        if not members[start] or of[start] >= 0:
            continue
        k = len(parts)
        of[start] = k
        stack, comp = [start], [start]
        while stack:
            i = stack.pop()
            for n in nbrs[i]:
                if members[n] and of[n] < 0:
                    of[n] = k
                    stack.append(n)
                    comp.append(n)
        parts.append(tuple(sorted(comp)))
    return Parts(tuple(parts), tuple(of))


def _replaced(old: Parts, new: list[tuple[tuple[int, ...], int, Iterable[int]]], gone: set[int],
              cleared: Iterable[int]) -> Parts:
    """`old` with some components replaced, numbered as components() numbers them (by their
    first cell). Each new component is (its sorted cells, the old component most of them were
    in or -1, its other cells); `gone` holds the old components no longer there as they were,
    and `cleared` the cells left out. Cells keep their component through one pass over `of`
    (a C-level map): only the new components' other cells are numbered one by one."""
    based = {base: cells for cells, base, _ in new if base >= 0}
    if len(based) == len(new) == len(gone) and all(c[0] == old.cells[b][0] for b, c in based.items()):
        # every component keeps its place (the usual step): no renumbering at all
        cells = list(old.cells)
        of = list(old.of)
        for b, c in based.items():
            cells[b] = c
        for i in cleared:
            of[i] = -1
        for _, b, others in new:
            for i in others:
                of[i] = b
        return Parts(tuple(cells), tuple(of))
    kept = [based.get(k, p) for k, p in enumerate(old.cells) if k not in gone or k in based]
    cells = sorted(kept + [c for c, base, _ in new if base < 0], key=operator.itemgetter(0))
    index = {p[0]: k for k, p in enumerate(cells)}
    remap = [index[based.get(k, p)[0]] if k not in gone or k in based else -1
             for k, p in enumerate(old.cells)] + [-1]
    of = list(map(remap.__getitem__, old.of))     # an old -1 reads remap's last item, -1
    for i in cleared:
        of[i] = -1
    for p, _, others in new:
        k = index[p[0]]
        for i in others:
            of[i] = k
    return Parts(tuple(cells), tuple(of))


def components_grown(graph: GridGraph, old: Parts, members: Sequence[bool], added: Iterable[int]) -> Parts:
    """components() of `members` once the cells `added` joined the set `old` numbered: the
    components they touch merge (only the cells added and those components are looked at)."""
    nbrs = graph.neighbours
    fresh = set(added)
    # groups of added cells, each with the old components it touches; groups that touch the
    # same component are one (merged through `owner`, old component -> group)
    groups: list[tuple[list[int], set[int]]] = []
    owner: dict[int, int] = {}
    while fresh:
        start = fresh.pop()
        group, labels, stack = [start], set(), [start]
        while stack:
            i = stack.pop()
            for n in nbrs[i]:
                if n in fresh:
                    fresh.discard(n)
                    group.append(n)
                    stack.append(n)
                elif old.of[n] >= 0:
                    labels.add(old.of[n])
        joined = {owner[k] for k in labels if k in owner}
        for j in joined:
            group += groups[j][0]
            labels |= groups[j][1]
            groups[j] = ([], set())
        for k in labels:
            owner[k] = len(groups)
        groups.append((group, labels))
    new = []
    for group, labels in groups:
        if group:
            # the biggest component it joins keeps its cells' numbers; the rest are renumbered
            base = max(labels, key=lambda k: len(old.cells[k]), default=-1)
            others = group + [i for k in labels if k != base for i in old.cells[k]]
            new.append((tuple(sorted(others + list(old.cells[base]) if base >= 0 else others)), base, others))
    return _replaced(old, new, set(owner), ())


def components_shrunk(graph: GridGraph, old: Parts, members: Sequence[bool], removed: Iterable[int]) -> Parts:
    """components() of `members` once the cells `removed` left the set `old` numbered: a
    component they leave may fall apart, found by racing floods from beside them (see
    pieces_cut_off), so the work is about the smaller pieces, not the whole component."""
    nbrs = graph.neighbours
    by_part: dict[int, set[int]] = {}
    for i in removed:
        by_part.setdefault(old.of[i], set()).add(i)
    new: list[tuple[tuple[int, ...], int, Iterable[int]]] = []
    for k, out in by_part.items():
        seeds = [n for i in out for n in nbrs[i] if members[n]]
        pieces = [tuple(sorted(p)) for p in pieces_cut_off(graph, members, out, seeds)]
        taken = out.union(*pieces)
        rest = list(old.cells[k])
        if len(taken) * 16 < len(rest):
            for i in sorted(taken, reverse=True):    # the cells are sorted: cut out the few
                del rest[bisect.bisect_left(rest, i)]
        else:
            rest = [i for i in rest if i not in taken]
        new += [(p, -1, p) for p in pieces] + ([(tuple(rest), k, ())] if rest else [])
    return _replaced(old, new, set(by_part), [i for out in by_part.values() for i in out])


def reach(graph: GridGraph, sources: Iterable[int], passable: Sequence[bool],
          limit: int | None = None) -> dict[int, int]:
    """Breadth-first distance from the sources (distance 0) through passable cells, up to
    `limit` steps. Sources need not be passable themselves."""
    dist = {s: 0 for s in sources}
    frontier = list(dist)
    d = 0
    nbrs = graph.neighbours
    while frontier and (limit is None or d < limit):
        d += 1
        nxt = []
        for i in frontier:
            for n in nbrs[i]:
                if passable[n] and n not in dist:
                    dist[n] = d
                    nxt.append(n)
        frontier = nxt
    return dist


def splits_marked(graph: GridGraph, passable: Sequence[bool], removed: set[int] | frozenset[int],
                  seeds: Iterable[int], marked: set[int] | frozenset[int], total: int,
                  reached: set[int] | None = None) -> bool:
    """Whether taking `removed` out of an area that was connected leaves the `marked` cells
    (`total` of them, all in the area) in more than one piece. Every piece then touches a
    removed cell, so it is enough to race floods from the seeds (the area's cells beside the
    removed ones; see pieces_cut_off, which fills `reached`)."""
    for piece in pieces_cut_off(graph, passable, removed, seeds, reached):
        count = sum(1 for i in piece if i in marked)
        if count:
            return count < total
    return False


def pieces_cut_off(graph: GridGraph, passable: Sequence[bool], removed: set[int] | frozenset[int],
                   seeds: Iterable[int], reached: set[int] | None = None) -> Iterator[list[int]]:
    """The pieces an area that was connected falls into once `removed` is taken out, but the
    last: floods start from the seeds (the area's cells beside the removed ones; every piece
    holds one) and grow one cell each in turn, merging where they meet, and a flood with
    nowhere left to go is a whole piece. The work is about the smallest pieces times the
    seeds, not the whole area. Most often the seeds already meet in the ring of cells around
    the removed ones, which settles it at once (no pieces).

    `reached`, when given, gains every cell the floods took in (seeds included) by the time
    the caller stops: when no piece came out, a connected set of passable cells that holds
    every seed, so a caller can tell a later area with all of them passable needs no look."""
    nbrs = graph.neighbours
    seeds = [s for s in dict.fromkeys(seeds) if s not in removed and passable[s]]
    if len(seeds) < 2:
        return
    near = _meet_nearby(graph, passable, removed, seeds)
    if near is not None:
        if reached is not None:
            reached.update(near)
        return
    owner: dict[int, int] = {s: k for k, s in enumerate(seeds)}
    parent = list(range(len(seeds)))
    queues = [[s] for s in seeds]
    members = [[s] for s in seeds]
    heads = [0] * len(seeds)

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    live = list(range(len(seeds)))
    done: set[int] = set()
    if reached is not None:
        reached.update(seeds)
    while len(live) > 1:
        for r in live:
            if parent[r] != r or r in done:
                continue            # merged into another flood this round
            q = queues[r]
            if heads[r] == len(q):
                done.add(r)
                yield members[r]
                continue
            v = q[heads[r]]
            heads[r] += 1
            for u in nbrs[v]:
                if u in removed or not passable[u]:
                    continue
                o = owner.get(u, -1)
                if o == r:
                    continue
                if o < 0:
                    owner[u] = r
                    q.append(u)
                    members[r].append(u)
                    if reached is not None:
                        reached.add(u)
                else:
                    o = find(o)
                    if o != r:
                        parent[o] = r
                        q.extend(queues[o][heads[o]:])
                        members[r].extend(members[o])
        live = [r for r in live if parent[r] == r and r not in done]


def _meet_nearby(graph: GridGraph, passable: Sequence[bool], removed, seeds: list[int]) -> set[int] | None:
    """The cells that join the seeds through passable cells next to (or diagonal to) a
    removed cell, or None when those do not join them."""
    nbrs, corners = graph.neighbours, graph.diagonal_neighbours
    ring = {j for x in removed for around in (nbrs[x], corners[x]) for j in around
            if passable[j] and j not in removed}
    seen = {seeds[0]}
    stack = [seeds[0]]
    while stack:
        v = stack.pop()
        for u in nbrs[v]:
            if u in ring and u not in seen:
                seen.add(u)
                stack.append(u)
    return seen if all(s in seen for s in seeds) else None


class Walk:
    """One iterative depth-first walk (Tarjan) over root's component of `possible` cells.

    The three questions below share it; each passes `on_split`, called whenever a child's
    subtree hangs off its parent alone (low[child] >= disc[parent]), so without the parent
    the subtree loses touch with the root (for the root itself: when it has two children or
    more, each child's subtree). Arguments: (the walk, parent, child, grandparent or -1). By
    then the child's subtree is done: `walk.size[child]` counts its cells (sizes=True) and, when
    `decided` is given, `walk.witness[child]` is a decided cell in it (or -1)."""

    __slots__ = ("disc", "low", "size", "witness", "root_children", "count")

    def __init__(self, graph: GridGraph, possible: Sequence[bool], root: int,
                 on_split: Callable[["Walk", int, int, int], None], decided: Sequence[bool] | None = None,
                 sizes: bool = False):
        nbrs = graph.neighbours
        n = graph.size
        # Lists indexed by cell (-1: not reached yet) are quicker to read than dicts.
        disc = [-1] * n
        low = [0] * n
        size = [1] * n if sizes else []
        witness = [-1] * n if decided is not None else []
        disc[root] = 0
        if decided is not None and decided[root]:
            witness[root] = root
        self.disc, self.low, self.size, self.witness = disc, low, size, witness
        children = self.root_children = []
        stack: list[tuple[int, int, Iterator[int]]] = [(root, -1, iter(nbrs[root]))]
        counter = 1
        while stack:
            v, parent, it = stack[-1]
            for w in it:
                if not possible[w]:
                    continue
                if disc[w] < 0:
                    disc[w] = low[w] = counter
                    counter += 1
                    if decided is not None and decided[w]:
                        witness[w] = w
                    if parent < 0:
                        children.append(w)
                    stack.append((w, v, iter(nbrs[w])))
                    break
                if w != parent and disc[w] < low[v]:
                    low[v] = disc[w]
            else:
                stack.pop()
                if parent >= 0:
                    if low[v] < low[parent]:
                        low[parent] = low[v]
                    if sizes:
                        size[parent] += size[v]
                    if decided is not None and witness[parent] < 0:
                        witness[parent] = witness[v]
                    if low[v] >= disc[parent]:
                        on_split(self, parent, v, stack[-1][1])
        self.count = counter


def articulation_cuts(graph: GridGraph, possible: Sequence[bool], decided: Sequence[bool],
                      root: int) -> dict[int, tuple[int, int]]:
    """Undecided cells of root's component of `possible` whose removal separates decided
    cells. `root` must be decided. Returns {cell: (a decided cell cut off, root)}: a non-root
    cell separates the subtree of a child from the root, so if that subtree holds a decided
    cell, the cell is needed to join them."""
    out: dict[int, tuple[int, int]] = {}

    def on_split(walk: Walk, parent: int, child: int, _: int) -> None:
        if parent != root and walk.witness[child] >= 0 and not decided[parent]:
            out.setdefault(parent, (walk.witness[child], root))
    Walk(graph, possible, root, on_split, decided)
    return out


def articulation_points(graph: GridGraph, possible: Sequence[bool], root: int
                        ) -> dict[int, tuple[int, int]]:
    """Every articulation point of root's component of `possible`, with two of its
    neighbours that end up apart without it: {cell: (a, b)}."""
    out: dict[int, tuple[int, int]] = {}

    def on_split(_: Walk, parent: int, child: int, grand: int) -> None:
        if parent != root:
            out.setdefault(parent, (child, grand))
    walk = Walk(graph, possible, root, on_split)
    if len(walk.root_children) >= 2:
        out[root] = (walk.root_children[0], walk.root_children[1])
    return out


def cut_sizes(graph: GridGraph, possible: Sequence[bool], root: int) -> dict[int, int]:
    """For each articulation point v (other than root) of root's component of `possible`:
    how many cells stay joined to root once v is taken away. Linear time."""
    cut_off: dict[int, int] = {}

    def on_split(walk: Walk, parent: int, child: int, _: int) -> None:
        if parent != root:
            cut_off[parent] = cut_off.get(parent, 0) + walk.size[child]
    total = Walk(graph, possible, root, on_split, sizes=True).count - 1
    return {v: total - s for v, s in cut_off.items()}


class Side:
    """What one state says about the cells of one colour (`bit`); see the module docstring.
    Build it with side(graph, state, bit) so it is computed once per state."""

    def __init__(self, graph: GridGraph, cands: Sequence[int], bit: int, like: "Side | None" = None):
        """`like` (optional): the Side of `bit` in another state. When its possible cells are
        the same, what depends on them alone (possible_parts, possible_splits) is taken over
        as far as it was worked out there."""
        self.graph, self.bit = graph, bit
        self.possible = [bool(m & bit) for m in cands]
        self.decided = [m == bit for m in cands]
        if like is not None and like.bit == bit and like.possible == self.possible:
            known = like.__dict__
            for name in ("possible_parts", "possible_splits"):
                if name in known:
                    self.__dict__[name] = known[name]

    def narrowed(self, cands: Sequence[int], changed: Iterable[int]) -> "Side | None":
        """The Side of a state that only narrows this one's, where the cells `changed`
        changed: the components worked out here are updated, not found again (see
        components_grown and components_shrunk). None when a cell lost every candidate."""
        bit = self.bit
        possible, decided = self.possible.copy(), self.decided.copy()
        lost, gained = [], []
        for v in changed:
            m = cands[v]
            if not m:
                return None
            if possible[v] and not m & bit:
                possible[v] = False
                lost.append(v)
            if m == bit and not decided[v]:
                decided[v] = True
                gained.append(v)
        new = Side.__new__(Side)
        new.graph, new.bit, new.possible, new.decided = self.graph, bit, possible, decided
        known = self.__dict__
        if "decided_parts" in known:
            new.decided_parts = (components_grown(self.graph, self.decided_parts, decided, gained)
                                 if gained else self.decided_parts)
        if "possible_parts" in known:
            new.possible_parts = (components_shrunk(self.graph, self.possible_parts, possible, lost)
                                  if lost else self.possible_parts)
        if not lost and "possible_splits" in known:
            new.possible_splits = self.possible_splits      # a fact of the possible cells alone
        if "decided_cells" in known:
            new.decided_cells = tuple(sorted(self.decided_cells + tuple(gained))) if gained else self.decided_cells
        return new

    @functools.cached_property
    def decided_parts(self) -> Parts:
        return components(self.graph, self.decided)

    @functools.cached_property
    def possible_parts(self) -> Parts:
        return components(self.graph, self.possible)

    @functools.cached_property
    def decided_cells(self) -> tuple[int, ...]:
        return tuple(i for i, d in enumerate(self.decided) if d)

    @functools.cached_property
    def _hosts(self) -> list[int]:
        """Possible components that hold at least one decided cell."""
        of = self.possible_parts.of
        return sorted({of[i] for i in self.decided_cells})

    @property
    def hosts(self) -> list[int]:
        """Indices (in possible_parts) of the possible components holding a decided cell."""
        return self._hosts

    @functools.cached_property
    def apart(self) -> list[tuple[int, ...]]:
        """Decided cells, grouped by possible component, when there is more than one group:
        for a side that must form one area, these groups can no longer meet."""
        if len(self._hosts) < 2:
            return []
        of = self.possible_parts.of
        return [tuple(i for i in self.decided_cells if of[i] == k) for k in self._hosts]

    @functools.cached_property
    def stranded(self) -> tuple[int, ...]:
        """Undecided cells that could take `bit` but cannot reach any decided cell of it.
        For a side that must form one area (with a decided cell), they cannot take `bit`."""
        hosts = set(self._hosts)
        if not hosts:
            return ()
        of = self.possible_parts.of
        return tuple(i for i, p in enumerate(self.possible)
                     if p and not self.decided[i] and of[i] not in hosts)

    @functools.cached_property
    def cuts(self) -> dict[int, tuple[int, int]]:
        """Articulation points: undecided cells without which decided cells of this side
        could not connect. For a side that must form one area, they must take `bit`."""
        if len(self._hosts) != 1:
            return {}
        return articulation_cuts(self.graph, self.possible, self.decided, self.decided_cells[0])

    @functools.cached_property
    def splits(self) -> dict[int, tuple[int, int]]:
        """Articulation points of the possible cells (undecided ones only), each with two of
        its neighbours that would be separated without it."""
        return {v: ab for v, ab in self.possible_splits.items() if not self.decided[v]}

    @functools.cached_property
    def possible_splits(self) -> dict[int, tuple[int, int]]:
        """splits, decided cells included: a fact of the possible cells alone."""
        out: dict[int, tuple[int, int]] = {}
        for part in self.possible_parts.cells:
            if len(part) > 2:
                out.update(articulation_points(self.graph, self.possible, part[0]))
        return out

    def liberties(self, k: int) -> list[int]:
        """Undecided cells beside decided part k that could still take `bit`."""
        out = set()
        for i in self.decided_parts.cells[k]:
            for n in self.graph.neighbours[i]:
                if self.possible[n] and not self.decided[n]:
                    out.add(n)
        return sorted(out)

    def touching(self, i: int) -> list[int]:
        """The decided parts beside cell i."""
        of = self.decided_parts.of
        return sorted({of[n] for n in self.graph.neighbours[i] if of[n] >= 0})


def side(graph: GridGraph, state: State, bit: int) -> Side:
    """The Side of `bit` in this state, computed once per state and shared."""
    return state.derived(("connectivity.side", bit), lambda: Side(graph, state.cands, bit))


# --- no two shaded cells adjacent --------------------------------------------------------

def shaded_neighbours(graph: GridGraph, cands: Sequence[int], shaded: int,
                      cells: Iterable[int] | None = None) -> Iterator[tuple[int, list[int]]]:
    """(shaded cell, its neighbours that could still be shaded) for decided shaded cells,
    optionally only those in `cells`: what "no two shaded cells touch" rules out."""
    for i in (range(graph.size) if cells is None else sorted(set(cells))):
        if cands[i] == shaded:
            free = [n for n in graph.neighbours[i] if cands[n] & shaded and cands[n] != shaded]
            if free:
                yield i, free


def adjacent_pairs(graph: GridGraph, cands: Sequence[int], shaded: int) -> list[tuple[int, int]]:
    """Pairs of touching cells that are both decided shaded."""
    return [(i, n) for i in range(graph.size) if cands[i] == shaded
            for n in graph.neighbours[i] if n > i and cands[n] == shaded]


# --- 2x2 pools ----------------------------------------------------------------------------

def pool_blocks(graph: GridGraph, cands: Sequence[int], bit: int,
                blocks: Iterable[int] | None = None) -> Iterator[tuple[tuple[int, ...], list[int]]]:
    """(block, its cells not yet decided `bit`) for every 2x2 block whose cells could all
    still take `bit`, optionally only the blocks with the given indices."""
    for k in (range(len(graph.blocks)) if blocks is None else sorted(set(blocks))):
        block = graph.blocks[k]
        if all(cands[i] & bit for i in block):
            yield block, [i for i in block if cands[i] != bit]


def blocks_near(graph: GridGraph, focus: Iterable[int]) -> set[int]:
    """Indices of the 2x2 blocks that contain a focus cell."""
    return {k for f in focus for k in graph.blocks_of[f]}


# --- violations ----------------------------------------------------------------------------

def disconnected(s: Side, what: str) -> list[Violation]:
    """`what` (e.g. "the walls") can no longer form one connected area."""
    if not s.apart:
        return []
    reps = [s.graph.cell(group[0]) for group in s.apart]
    names = ", ".join(str(c) for c in reps[:-1]) + f" and {reps[-1]}"
    return [Violation(f"{what} at {names} can no longer connect", tuple(reps))]


def adjacent_shaded(graph: GridGraph, cands: Sequence[int], shaded: int,
                    what: str = "shaded cells") -> list[Violation]:
    return [Violation(f"the {what} at {graph.cell(a)} and {graph.cell(b)} touch",
                      (graph.cell(a), graph.cell(b)), (a, b))
            for a, b in adjacent_pairs(graph, cands, shaded)]


def any_pool(graph: GridGraph, cands: Sequence[int], bit: int) -> bool:
    """Whether some 2x2 block has its four cells decided `bit`: each row read as a number
    with one byte a cell (1 where the cell is decided `bit`), so two rows' product is a pair
    of touching cells in both (C-level: far quicker than looking at every block)."""
    if max(cands, default=0) > 255:
        return any(not rest for _, rest in pool_blocks(graph, cands, bit))
    table = bytearray(256)
    table[bit] = 1
    marks = bytes(cands).translate(table)
    cols = graph.cols
    above = 0
    for r in range(0, len(marks), cols):
        row = int.from_bytes(marks[r:r + cols], "big")
        both = above & row
        if both & (both >> 8):
            return True
        above = row
    return False


def pools(graph: GridGraph, cands: Sequence[int], bit: int, what: str = "shaded cells") -> list[Violation]:
    """2x2 blocks whose four cells are all decided `bit`."""
    if not any_pool(graph, cands, bit):
        return []
    return [Violation(f"the {what} at {graph.cell(block[0])}-{graph.cell(block[3])} form a 2x2 block",
                      tuple(graph.cell(i) for i in block), block)
            for block in graph.blocks if cands[block[0]] == bit and cands[block[1]] == bit
            and cands[block[2]] == bit and cands[block[3]] == bit]
