"""Inside/outside colouring where the faces are known (square grids).

Every face is inside or outside the loop, the area beyond the grid is outside, and an edge
carries the line exactly when its two faces differ. Decided edges join faces into groups of
known relative colour (a parity union-find); that is the Jordan curve rule (level 2). With
those groups, a clue's neighbours that share a group move together, which limits how its
count can be made (parity, Simon Tatham's hard tier; level 4).
"""
from __future__ import annotations

from itertools import product
from typing import Iterator

import attrs

from grader.genres.slitherlink.model import SlitherPuzzle
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.steps import Deduction
from grader.kernels.loops import B_CROSS, B_LINE, CROSS, LINE, OPEN
from grader.kernels.recent import Recent

from heuristics.slitherlink.common import GENRE

OUTSIDE = -1


@attrs.frozen
class Colouring:
    """root[f]: the group of face f (the outer area is index n; group numbers are labels);
    flip[f]: 1 when f's colour is the opposite of its group root's; members: the faces of
    each group (kept so a new edge can merge two groups without a full recount)."""
    root: tuple[int, ...]
    flip: tuple[int, ...]
    conflict: int = -1       # an edge whose value contradicts the colours, or -1
    members: dict[int, tuple[int, ...]] | None = attrs.field(default=None, eq=False, repr=False)

    def relation(self, a: int, b: int) -> int | None:
        """0 same colour, 1 different, None unknown."""
        if self.root[a] != self.root[b]:
            return None
        return self.flip[a] ^ self.flip[b]


def face_links(puzzle: SlitherPuzzle) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each face (the outside is index len(cells)), its (edge, face beyond) pairs."""
    cache = puzzle.__dict__.get("_slitherlink_face_links")
    if cache is None:
        n = len(puzzle.cells)
        out: list[list[tuple[int, int]]] = [[] for _ in range(n + 1)]
        for e, (a, b) in enumerate(puzzle.faces_of_edge):
            b = n if b == OUTSIDE else b
            out[a].append((e, b))
            out[b].append((e, a))
        cache = puzzle.__dict__["_slitherlink_face_links"] = tuple(tuple(x) for x in out)
    return cache


def colouring(puzzle: SlitherPuzzle, state: State, corners: bool = False) -> Colouring:
    """Colour groups from the decided edges; with corners, also from corner counts: exactly
    one of a cell's two edges at a corner means the faces beyond them differ, both or
    neither means they match (Simon Tatham's hard tier)."""
    if not corners:
        return state.derived(("slitherlink.colouring", False), lambda: _recent(puzzle).get(
            state, lambda: _full(puzzle, state, False),
            lambda col, old, changed: _add_edges(puzzle, col, old, state.cands, changed)))
    return state.derived(("slitherlink.colouring", True), lambda: _full(puzzle, state, True))


def _recent(puzzle: SlitherPuzzle) -> Recent:
    cache = puzzle.__dict__.get("_slitherlink_recent_colouring")
    if cache is None:
        cache = puzzle.__dict__["_slitherlink_recent_colouring"] = Recent()
    return cache


def _add_edges(puzzle: SlitherPuzzle, col: Colouring, old: tuple[int, ...], cands: tuple[int, ...],
               changed: list[int]) -> Colouring | None:
    """The colouring after newly decided edges: each joins two groups (None when a decided
    edge lost its value, which only a broken state does: recount then)."""
    if col.members is None:
        return None
    root, flip, members = None, None, None
    conflict = col.conflict
    faces = puzzle.faces_of_edge
    n = len(puzzle.cells)
    for e in changed:
        if old[e] != OPEN:
            return None
        m = cands[e]
        if m not in (B_LINE, B_CROSS):
            continue
        if root is None:
            root, flip, members = list(col.root), list(col.flip), dict(col.members)
        a, b = faces[e]
        b = n if b == OUTSIDE else b
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
        members[ra] = members[ra] + members.pop(rb)
    if root is None:
        return col
    return Colouring(tuple(root), tuple(flip), conflict, members)


def _full(puzzle: SlitherPuzzle, state: State, corners: bool) -> Colouring:
    faces = puzzle.faces_of_edge
    n = len(puzzle.cells)
    cands = state.cands
    adj = face_links(puzzle)
    extra: dict[int, list[tuple[int, int, int]]] = {}
    if corners:
        from heuristics.slitherlink.angles import corner_facts
        facts = corner_facts(puzzle, state)
        for i, (d, k, (ea, eb)) in enumerate(puzzle.angles.pairs):
            xs = facts.X[i]
            if xs in (0b010, 0b101):
                fa = [f for f in faces[ea] if f != k][0]
                fb = [f for f in faces[eb] if f != k][0]
                fa, fb = (n if fa == OUTSIDE else fa), (n if fb == OUTSIDE else fb)
                rel = 1 if xs == 0b010 else 0
                extra.setdefault(fa, []).append((ea, fb, rel))
                extra.setdefault(fb, []).append((ea, fa, rel))
    root = [-1] * (n + 1)
    flip = [0] * (n + 1)
    conflict = -1
    for start in range(n + 1):
        if root[start] >= 0:
            continue
        root[start] = start
        stack = [start]
        while stack:
            f = stack.pop()
            pf = flip[f]
            for e, g in adj[f]:
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
            for e, g, rel in extra.get(f, ()):
                if root[g] < 0:
                    root[g], flip[g] = start, pf ^ rel
                    stack.append(g)
                elif flip[g] != pf ^ rel and conflict < 0:
                    conflict = e
    groups: dict[int, list[int]] = {}
    for f, r in enumerate(root):
        groups.setdefault(r, []).append(f)
    return Colouring(tuple(root), tuple(flip), conflict, {r: tuple(fs) for r, fs in groups.items()})


def face(puzzle: SlitherPuzzle, f: int) -> int:
    return len(puzzle.cells) if f == OUTSIDE else f


def face_name(puzzle: SlitherPuzzle, f: int) -> str:
    return "the outside" if f in (OUTSIDE, len(puzzle.cells)) else str(puzzle.cell(f))


@heuristic(id="slitherlink.jordan", name="Inside and outside", genre=GENRE, level=2, order=30,
           template="The loop separates inside from outside: going from {a} to {b} around {edge} "
                    "already crosses the line an {parity} number of times, so {a} and {b} are on "
                    "{sides} and {edge} {verdict}.",
           nudge="Is {a} on the same side of the loop as {b}?",
           catalogue="jordan curve theorem")
def jordan(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    if puzzle.faces_of_edge is None:
        return
    yield from _same_or_opposite(puzzle, state, colouring(puzzle, state))


def face_pairs(puzzle: SlitherPuzzle) -> tuple[tuple[int, int], ...]:
    """The two faces of each edge, the outside numbered len(cells) (once per puzzle)."""
    cache = puzzle.__dict__.get("_slitherlink_face_pairs")
    if cache is None:
        cache = puzzle.__dict__["_slitherlink_face_pairs"] = tuple(
            (face(puzzle, a), face(puzzle, b)) for a, b in puzzle.faces_of_edge)
    return cache


def _same_or_opposite(puzzle: SlitherPuzzle, state: State, col: Colouring) -> Iterator[Deduction]:
    cands, root, flip = state.cands, col.root, col.flip
    for e, (fa, fb) in enumerate(face_pairs(puzzle)):
        if cands[e] != OPEN or root[fa] != root[fb]:
            continue
        a, b = puzzle.faces_of_edge[e]
        rel = flip[fa] ^ flip[fb]
        yield Deduction.build(state, put={e: LINE if rel else CROSS},
                              params={"a": face_name(puzzle, a), "b": face_name(puzzle, b),
                                      "edge": puzzle.edge_label(e), "parity": "odd" if rel else "even",
                                      "sides": "opposite sides" if rel else "the same side",
                                      "verdict": "carries the line" if rel else "is crossed"})
        return


@heuristic(id="slitherlink.clue-parity", name="Neighbours that share a colour", genre=GENRE, level=4,
           order=20,
           template="Around the {n} in {cell}, {groups}; the only ways to make {n} from these "
                    "give {result}.",
           nudge="Which neighbours of the {n} in {cell} are known to be on the same side as each other?",
           catalogue="")
def clue_parity(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    if puzzle.faces_of_edge is None:
        return
    yield from _clue_groups(puzzle, state, colouring(puzzle, state))


def _clue_groups(puzzle: SlitherPuzzle, state: State, col: Colouring) -> Iterator[Deduction]:
    from grader.core.explain import describe_removals
    for k in puzzle.clued:
        n = puzzle.clues[k]
        edges = [e for e in puzzle.cells[k] if state.cands[e] == OPEN]
        if len(edges) < 2:
            continue
        lines_now = sum(1 for e in puzzle.cells[k] if state.cands[e] == B_LINE)
        # group the open edges by the colour group of the neighbour across them
        groups: dict[int, list[tuple[int, int]]] = {}
        for e in edges:
            a, b = puzzle.faces_of_edge[e]
            other = face(puzzle, b if a == k else a)
            groups.setdefault(col.root[other], []).append((e, col.flip[other]))
        if len(groups) == len(edges) or col.root[k] in groups:
            continue     # nothing moves together (or the clue's own group: Jordan handles it)
        keys = sorted(groups)
        # choose, per group, the cell's colour relative to the group root: 0 or 1
        ok_choices = []
        for choice in product((0, 1), repeat=len(keys)):
            count = lines_now + sum(1 for key, c in zip(keys, choice) for _, fl in groups[key] if fl != c)
            if count == n:
                ok_choices.append(choice)
        if not ok_choices:
            continue
        put: dict[int, int] = {}
        for i, key in enumerate(keys):
            vals = {ch[i] for ch in ok_choices}
            if len(vals) == 1 and len(groups[key]) >= 1:
                c = vals.pop()
                for e, fl in groups[key]:
                    put[e] = LINE if fl != c else CROSS
        ded = Deduction.build(state, put=put)
        if ded:
            shared = [g for g in groups.values() if len(g) > 1]
            words = "; ".join(f"the faces beyond {', '.join(puzzle.edge_label(e) for e, _ in g)} are "
                              "tied together by the lines already drawn" for g in shared)
            yield Deduction.build(state, put=put, cells=[puzzle.cell(k)],
                                  params={"n": n, "cell": puzzle.cell(k), "groups": words,
                                          "result": describe_removals(puzzle, state, ded.removals)})


@heuristic(id="slitherlink.corner-colours", name="Colours carried by corners", genre=GENRE, level=4,
           order=30,
           template="Where exactly one of a cell's two edges at a corner carries the line, the cells "
                    "beyond them lie on opposite sides of the loop (and on the same side for both or "
                    "neither). Looking at {anchor} with that, {detail}",
           nudge="Which cells must lie on the same side of the loop as {anchor}?",
           catalogue="")
def corner_colours(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    if puzzle.faces_of_edge is None:
        return
    from grader.core.explain import fill
    col = colouring(puzzle, state, corners=True)
    for d in _same_or_opposite(puzzle, state, col):
        text = fill(jordan.info.template, dict(d.params))
        yield Deduction(d.removals, {"detail": text[0].lower() + text[1:], "anchor": d.params["a"]})
        return
    for d in _clue_groups(puzzle, state, col):
        text = fill(clue_parity.info.template, dict(d.params))
        yield Deduction(d.removals, {"detail": text[0].lower() + text[1:], "anchor": d.params["cell"]},
                        cells=d.cells)
        return
