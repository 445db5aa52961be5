"""Inside/outside colouring of the faces of a loop's drawing (Slitherlink on a square grid).

Every face is inside or outside the loop, the area beyond the grid is outside, and an edge
carries the line exactly when its two faces differ. Decided edges join faces into groups of
known relative colour (a parity union-find). A group that contradicts itself (`conflict`)
means no loop fits: the genre's violations report it, and the techniques read the groups.

The puzzle is anything with `cells` (the faces), `faces_of_edge` (the two faces of each
edge, OUTSIDE for the area beyond the grid) and `shape_once` (SlitherPuzzle's: tables of the
shape alone, shared by boards of one size).
"""
from __future__ import annotations

import attrs

from grader.core.model import State
from grader.kernels.loops import B_CROSS, B_LINE, OPEN
from grader.kernels.recent import recent_of
from grader.kernels.walk import label_walk

OUTSIDE = -1


@attrs.frozen
class Colouring:
    """root[f]: the group of face f (the outer area is index n; group numbers are labels);
    flip[f]: 1 when f's colour is the opposite of its group root's; members: the faces of
    each group (kept so a new edge can merge two groups without a full recount); known_open:
    the edges not decided in the state whose two faces are in one group, so whose value the
    colours tell (Jordan's rule), kept up to date with the groups so no look scans the board."""
    root: tuple[int, ...]
    flip: tuple[int, ...]
    conflict: int = -1       # an edge whose value contradicts the colours, or -1
    members: dict[int, tuple[int, ...]] | None = attrs.field(default=None, eq=False, repr=False)
    known_open: frozenset[int] = attrs.field(default=frozenset(), eq=False, repr=False)

    def relation(self, a: int, b: int) -> int | None:
        """0 same colour, 1 different, None unknown."""
        if self.root[a] != self.root[b]:
            return None
        return self.flip[a] ^ self.flip[b]


def face_links(puzzle) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each face (the outside is index len(cells)), its (edge, face beyond) pairs."""
    def make() -> tuple[tuple[tuple[int, int], ...], ...]:
        n = len(puzzle.cells)
        out: list[list[tuple[int, int]]] = [[] for _ in range(n + 1)]
        for e, (a, b) in enumerate(puzzle.faces_of_edge):
            b = n if b == OUTSIDE else b
            out[a].append((e, b))
            out[b].append((e, a))
        return tuple(tuple(x) for x in out)
    return puzzle.shape_once("_slitherlink_face_links", make)


def face_pairs(puzzle) -> tuple[tuple[int, int], ...]:
    """The two faces of each edge, the outside numbered len(cells) (once per puzzle)."""
    n = len(puzzle.cells)
    return puzzle.shape_once("_slitherlink_face_pairs", lambda: tuple(
        (n if a == OUTSIDE else a, n if b == OUTSIDE else b) for a, b in puzzle.faces_of_edge))


def colouring(puzzle, state: State) -> Colouring:
    """Colour groups from the decided edges (once per state, updated from a recent state's)."""
    return state.derived(("slitherlink.colouring", False), lambda: recent_of(puzzle, "colouring").get(
        state, lambda: full_colouring(puzzle, state),
        lambda col, old, changed: _add_edges(puzzle, col, old, state.cands, changed)))


def _add_edges(puzzle, col: Colouring, old: tuple[int, ...], cands: tuple[int, ...],
               changed: list[int]) -> Colouring | None:
    """The colouring after newly decided edges: each joins two groups (None when a decided
    edge lost its value, which only a broken state does: recount then)."""
    if col.members is None:
        return None
    root, flip, members, known = None, None, None, None
    conflict = col.conflict
    faces, links = face_pairs(puzzle), face_links(puzzle)
    for e in changed:
        if old[e] != OPEN:
            return None
        m = cands[e]
        if m not in (B_LINE, B_CROSS):
            continue
        if root is None:
            root, flip, members, known = list(col.root), list(col.flip), dict(col.members), set(col.known_open)
        known.discard(e)
        a, b = faces[e]
        ra, rb = root[a], root[b]
        rel = 1 if m == B_LINE else 0
        if ra == rb:
            if flip[a] ^ flip[b] != rel and conflict < 0:
                conflict = e
            continue
        if len(members[ra]) < len(members[rb]):
            a, b, ra, rb = b, a, rb, ra
        turn = flip[a] ^ flip[b] ^ rel
        for f in members[rb]:
            root[f] = ra
            flip[f] ^= turn
        for f in members[rb]:           # the edges between the two groups, now tied
            for edge, beyond in links[f]:
                if root[beyond] == ra and cands[edge] not in (B_LINE, B_CROSS):
                    known.add(edge)
        members[ra] = members[ra] + members.pop(rb)
    if root is None:
        return col
    return Colouring(tuple(root), tuple(flip), conflict, members, frozenset(known))


def full_colouring(puzzle, state: State,
                   extra: dict[int, list[tuple[int, int, int]]] | None = None) -> Colouring:
    """The colour groups counted afresh; `extra` adds, per face, (edge, face beyond, relation)
    links that something other than a decided edge gives (Slitherlink's corner counts)."""
    n = len(puzzle.cells)
    cands = state.cands
    adj = _open_links(puzzle)
    extra = extra or {}
    root = [-1] * (n + 1)
    flip = [0] * (n + 1)
    conflict = -1
    for start, f, stack in label_walk(root, range(n + 1)):
        pf = flip[f]
        links = adj[f]
        if f in extra:
            links = links + tuple(extra[f])
        for e, g, rel in links:
            if rel < 0:                 # an edge: its value says, if decided
                m = cands[e]
                if m == B_LINE:
                    rel = 1
                elif m == B_CROSS:
                    rel = 0
                else:
                    continue
            if root[g] < 0:
                root[g], flip[g] = start, pf ^ rel
                stack.append(g)
            elif flip[g] != pf ^ rel and conflict < 0:
                conflict = e
    groups: dict[int, list[int]] = {}
    for f, r in enumerate(root):
        groups.setdefault(r, []).append(f)
    known = frozenset(e for e, (a, b) in enumerate(face_pairs(puzzle))
                      if root[a] == root[b] and cands[e] not in (B_LINE, B_CROSS))
    return Colouring(tuple(root), tuple(flip), conflict, {r: tuple(fs) for r, fs in groups.items()}, known)


def _open_links(puzzle) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """face_links with a relation of -1 on each link: read it from the edge's value."""
    return puzzle.shape_once("_slitherlink_open_links", lambda: tuple(
        tuple((e, g, -1) for e, g in links) for links in face_links(puzzle)))
