"""Lines through cell centres where each cell's value is a shape (Numberlink): the sides of a
cell, the shapes as side masks, and the pieces of line a state already fixes.

A cell's candidates are a bitmask over SHAPES (EMPTY, the four endpoints, the six links);
SIDES_CAN / SIDES_MUST give, per mask, the sides some / every candidate uses. `Chains` are the
pieces certain so far, with the label each carries (what violations checks and most
techniques read); `free_areas` and `areas_beside` say whether two ends can still meet.

The puzzle is anything with `labels` (per cell, 0 or the label of an end number), `edges`
((cell, side, neighbour) once per adjacent pair), `neighbour` (per cell, side -> cell) and
`pairs` (label -> its two end cells).
"""
from __future__ import annotations

from typing import Sequence

from grader.core.model import State
from grader.kernels.recent import recent_of

N, E, S, W = 1, 2, 4, 8
SIDES = (N, E, S, W)
OPPOSITE = {N: S, S: N, E: W, W: E}
STEP = {N: (-1, 0), E: (0, 1), S: (1, 0), W: (0, -1)}
SIDE_NAME = {N: "north", E: "east", S: "south", W: "west"}

EMPTY = 0
# value -> side mask: EMPTY, the four endpoint shapes, the six link shapes
SHAPES = (0, N, E, S, W, N | E, E | S, S | W, N | W, N | S, E | W)
B_EMPTY = 1


def _sides_can(mask: int) -> int:
    out = 0
    for v in range(len(SHAPES)):
        if mask >> v & 1:
            out |= SHAPES[v]
    return out


def _sides_must(mask: int) -> int:
    out = N | E | S | W
    for v in range(len(SHAPES)):
        if mask >> v & 1:
            out &= SHAPES[v]
    return out if mask else 0


# one entry per candidate mask (11 bits), looked up on every cell of every state
SIDES_CAN = tuple(_sides_can(m) for m in range(1 << len(SHAPES)))
SIDES_MUST = tuple(_sides_must(m) for m in range(1 << len(SHAPES)))
# the sides some candidate leaves unused
SIDES_LACK = tuple((N | E | S | W) & ~must if m else 0 for m, must in enumerate(SIDES_MUST))


def sides_can(mask: int) -> int:
    """Sides used by at least one candidate."""
    return SIDES_CAN[mask]


def sides_must(mask: int) -> int:
    """Sides used by every candidate."""
    return SIDES_MUST[mask]


class Chains:
    """Derived from a state: the line pieces certain so far (cells joined by sides every
    candidate of both cells uses), which endpoint label each piece carries, and whether a
    piece closes on itself. Built from scratch once, then updated from a recent state's
    (`updated`): pieces only ever grow, so an update joins what the changed cells join."""

    can: list[int]                       # per cell, sides some candidate uses
    must: list[int]                      # per cell, sides every candidate uses
    root: list[int]                      # per cell, its piece (one cell of it)
    members: dict[int, list[int]]        # piece -> its cells, for pieces of two cells or more
    label_of_root: dict[int, int]        # piece -> the label of an end number on it
    labels: list[int]                    # per cell, the label of its piece (0: none yet)
    loop: int | None                     # a cell whose piece closes on itself
    clash: tuple[int, int] | None        # two labels joined by one piece
    memo: dict                           # facts about the pieces, worked out when asked
    _own: bool                           # whether the pieces are this one's, or shared (updated)

    def __init__(self, puzzle, state: State):
        n = puzzle.rows * puzzle.cols
        self.can = [SIDES_CAN[m] for m in state.cands]
        self.must = [SIDES_MUST[m] for m in state.cands]
        self.root = list(range(n))
        self.members = {}
        self.label_of_root = {i: lab for i, lab in enumerate(puzzle.labels) if lab}
        self.labels = list(puzzle.labels)
        self.loop = self.clash = None
        self.memo = {}
        self._own = True                 # root, labels, members, label_of_root: not shared
        must = self.must
        for i, d, j in puzzle.edges:
            if must[i] & d and must[j] & OPPOSITE[d]:
                self._join(i, j)

    def _join(self, i: int, j: int) -> None:
        if not self._own:
            self._take_pieces()
        root, members = self.root, self.members
        a, b = root[i], root[j]
        if a == b:
            if self.loop is None:
                self.loop = i
            return
        ma, mb = members.get(a) or [a], members.get(b) or [b]
        if len(ma) < len(mb):
            a, b, ma, mb = b, a, mb, ma
        for x in mb:
            root[x] = a
        members[a] = ma + mb
        members.pop(b, None)
        la, lb = self.label_of_root.get(a, 0), self.label_of_root.pop(b, 0)
        if la and lb and la != lb:
            if self.clash is None:
                self.clash = (la, lb)
        elif lb:
            self.label_of_root[a] = la = lb
        if la:
            labels = self.labels
            for x in mb if labels[a] == la else ma + mb:
                labels[x] = la

    def _take_pieces(self) -> None:
        """Copies the pieces shared with the chains this was updated from, before a join
        changes them (the lists in `members` are replaced on a join, never changed)."""
        self.root, self.labels = self.root[:], self.labels[:]
        self.members, self.label_of_root = dict(self.members), dict(self.label_of_root)
        self._own = True

    def updated(self, puzzle, cands: Sequence[int], changed: list[int]) -> "Chains | None":
        """The chains of a state that narrows this one's at the `changed` cells (None if one
        of them is left with no candidate). Most steps
        draw no new join, so what did not change is shared with this one's (copied on a
        join, or where a cell's sides change): a step on a big board copies nothing it need
        not."""
        can, must = old_can, old = self.can, self.must
        for i in changed:
            mask = cands[i]
            if not mask:
                return None         # a cell emptied: no update (see chains)
            c, m = SIDES_CAN[mask], SIDES_MUST[mask]
            if c != can[i]:
                if can is old_can:
                    can = old_can[:]
                can[i] = c
            if m != must[i]:
                if must is old:
                    must = old[:]
                must[i] = m
        new = Chains.__new__(Chains)
        new.can, new.must = can, must
        new.root, new.labels, new.members, new.label_of_root = self.root, self.labels, self.members, self.label_of_root
        new._own = False
        new.loop, new.clash = self.loop, self.clash
        new.memo = {}
        if must is old:
            return new              # no side newly used everywhere: no new join
        nb = puzzle.neighbour
        for i in changed:
            for d in SIDES:
                if must[i] & d and not old[i] & d:
                    j = nb[i].get(d)
                    # a join is new when either cell newly uses it; seen from i only once
                    if j is not None and must[j] & OPPOSITE[d] and (old[j] & OPPOSITE[d] or i < j):
                        new._join(i, j)
        return new

    def label(self, i: int) -> int:
        return self.labels[i]

    def along(self, cells: frozenset[int] | None) -> frozenset[int] | None:
        """The cells with every piece they lie on (None stays None: everywhere)."""
        if cells is None:
            return None
        members = self.members
        out: set[int] = set()
        for r in set(map(self.root.__getitem__, cells)):
            out.update(members.get(r) or (r,))
        return frozenset(out)

    def joined(self, lab: int, puzzle) -> bool:
        a, b = puzzle.pairs[lab]
        return self.root[a] == self.root[b]


def chains(puzzle, state: State) -> Chains:
    """The chains of `state`, once per state (State.derived, written out: most techniques of
    every step of every fill ask, and nearly always find them made)."""
    memo = state.memo
    found = memo.get(CHAINS)
    if found is None:
        found = memo[CHAINS] = _recent_chains(puzzle, state)
    return found


CHAINS = "numberlink.chains"        # where a state's memo keeps its chains


def _recent_chains(puzzle, state: State) -> Chains:
    def update(old: Chains, _, changed: list[int]) -> Chains:
        # an update joins pieces in the order the changes come: a broken position (a cell
        # emptied, which leaves its pieces; a clash or a loop, named by the join that made
        # it, and the labels it spread) is found afresh, the same whatever came before
        new = old.updated(puzzle, state.cands, changed)
        return Chains(puzzle, state) if new is None or new.clash or new.loop is not None else new
    caches = puzzle.__dict__.get("_recent_caches")      # (recent_of, without its look-up's dict)
    recent = caches.get("chains") if caches is not None else None
    if recent is None:
        recent = recent_of(puzzle, "chains")
    return recent.get(state, lambda: Chains(puzzle, state), update)


def free_areas(puzzle, cands: Sequence[int], ch: Chains) -> list[int]:
    """Per cell, the area it belongs to among cells on no number's line yet (not certainly
    empty), joined over sides both cells may use; -1 for the other cells. Any line may cross
    such an area, so whether a pair can still be joined is a question about these areas.
    An area is named by its first cell. (The walk is written out here, not label_walk: it
    runs at the end of every fill of every look-ahead.)"""
    can, steps = ch.can, open_steps(puzzle)
    comp = [-1] * len(cands)
    # the cells named already, or in no area: one look per neighbour in the walk
    done = [m <= B_EMPTY or lab > 0 for m, lab in zip(cands, ch.labels)]
    for start in range(len(cands)):
        if done[start]:
            continue
        done[start] = True
        comp[start] = start
        todo = [start]
        while todo:
            x = todo.pop()
            for y, e in steps[x][can[x]]:
                if not done[y] and can[y] & e:
                    done[y] = True
                    comp[y] = start
                    todo.append(y)
    return comp


def side_steps(puzzle) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per cell, (side, neighbour, the neighbour's side facing back), made once per puzzle."""
    return puzzle.once("_side_steps", lambda: tuple(
        tuple((d, y, OPPOSITE[d]) for d, y in nb.items()) for nb in puzzle.neighbour))


def open_steps(puzzle) -> tuple[tuple[tuple[tuple[int, int], ...], ...], ...]:
    """Per cell, per mask of sides it may use: (neighbour, the neighbour's side facing back)
    across each of those sides, made once per puzzle (the walks of free_areas and
    areas_beside then step only where the cell may go)."""
    return puzzle.once("_open_steps", lambda: tuple(
        tuple(tuple((y, e) for d, y, e in steps if sides & d) for sides in range(16))
        for steps in side_steps(puzzle)))


def areas_beside(puzzle, cands: Sequence[int], ch: Chains, comp: list[int],
                 a: int, b: int) -> set[int]:
    """The free areas (see free_areas) the drawn line from end a can step into, with -1 among
    them when it can step straight onto the line drawn from b."""
    can, root, steps = ch.can, ch.root, open_steps(puzzle)
    rb = root[b]
    out: set[int] = set()
    for x in ch.members.get(root[a]) or (a,):
        for y, e in steps[x][can[x]]:
            if can[y] & e and cands[y] > B_EMPTY:
                if comp[y] >= 0:
                    out.add(comp[y])
                elif root[y] == rb:
                    out.add(-1)
    return out
