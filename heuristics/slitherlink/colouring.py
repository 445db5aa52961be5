"""Inside/outside colouring where the faces are known (square grids).

Every face is inside or outside the loop, the area beyond the grid is outside, and an edge
carries the line exactly when its two faces differ. Decided edges join faces into groups of
known relative colour (a parity union-find); that is the Jordan curve rule (level 2). With
those groups, a clue's neighbours that share a group move together, which limits how its
count can be made (parity, Simon Tatham's hard tier; level 4).
"""
from __future__ import annotations

from itertools import compress, product
from typing import Iterator

from grader.genres.slitherlink.model import SlitherPuzzle
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.steps import Deduction
from grader.kernels.face_colouring import OUTSIDE, Colouring, face_pairs, full_colouring
from grader.kernels.face_colouring import colouring as decided_colouring
from grader.kernels.loops import B_LINE, CROSS, LINE, OPEN

from heuristics.slitherlink.common import GENRE


def colouring(puzzle: SlitherPuzzle, state: State, corners: bool = False) -> Colouring:
    """Colour groups from the decided edges; with corners, also from corner counts: exactly
    one of a cell's two edges at a corner means the faces beyond them differ, both or
    neither means they match (Simon Tatham's hard tier)."""
    if not corners:
        return decided_colouring(puzzle, state)
    return state.derived(("slitherlink.colouring", True),
                         lambda: full_colouring(puzzle, state, _corner_links(puzzle, state)))


def _corner_links(puzzle: SlitherPuzzle, state: State) -> dict[int, list[tuple[int, int, int]]]:
    """Per face, (edge, face beyond, relation) for the faces that corner counts relate."""
    from heuristics.slitherlink.angles import corner_facts
    facts = corner_facts(puzzle, state)
    faces = _corner_faces(puzzle)
    extra: dict[int, list[tuple[int, int, int]]] = {}
    X = facts.X
    for i in compress(range(len(X)), map(RELATING_COUNTS.__contains__, X)):    # (a scan at C speed)
        ea, fa, fb = faces[i]
        rel = 1 if X[i] == 0b010 else 0
        extra.setdefault(fa, []).append((ea, fb, rel))
        extra.setdefault(fb, []).append((ea, fa, rel))
    return extra


# the corner counts that relate the faces beyond a corner: exactly one edge (differ), or
# none or both (match)
RELATING_COUNTS = frozenset((0b010, 0b101))


def _corner_faces(puzzle: SlitherPuzzle) -> tuple[tuple[int, int, int], ...]:
    """For each corner (a cell's edges ea and eb at a dot): ea, and the faces beyond ea and
    beyond eb, the outside numbered len(cells) (once per puzzle)."""
    def make() -> tuple[tuple[int, int, int], ...]:
        out = []
        for _, k, (ea, eb) in puzzle.angles.pairs:
            fa = [f for f in puzzle.faces_of_edge[ea] if f != k][0]
            fb = [f for f in puzzle.faces_of_edge[eb] if f != k][0]
            out.append((ea, face(puzzle, fa), face(puzzle, fb)))
        return tuple(out)
    return puzzle.shape_once("_slitherlink_corner_faces", make)


def face(puzzle: SlitherPuzzle, f: int) -> int:
    return len(puzzle.cells) if f == OUTSIDE else f


def face_name(puzzle: SlitherPuzzle, f: int) -> str:
    return "the outside" if f in (OUTSIDE, len(puzzle.cells)) else str(puzzle.cell(f))


@heuristic(id="slitherlink.jordan", genre=GENRE)
def jordan(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    if puzzle.faces_of_edge is None:
        return
    yield from _same_or_opposite(puzzle, state, colouring(puzzle, state))


def _same_or_opposite(puzzle: SlitherPuzzle, state: State, col: Colouring) -> Iterator[Deduction]:
    cands, flip, pairs = state.cands, col.flip, face_pairs(puzzle)
    for e in sorted(col.known_open):    # (the open edges whose faces share a group)
        if cands[e] != OPEN:
            continue
        fa, fb = pairs[e]
        a, b = puzzle.faces_of_edge[e]
        rel = flip[fa] ^ flip[fb]
        yield Deduction.build(state, put={e: LINE if rel else CROSS},
                              params={"a": face_name(puzzle, a), "b": face_name(puzzle, b),
                                      "edge": puzzle.edge_label(e), "parity": "odd" if rel else "even",
                                      "sides": "opposite sides" if rel else "the same side",
                                      "verdict": "carries the line" if rel else "is crossed"})
        return


@heuristic(id="slitherlink.clue-parity", genre=GENRE)
def clue_parity(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    if puzzle.faces_of_edge is None:
        return
    yield from _clue_groups(puzzle, state, colouring(puzzle, state))


def _clue_groups(puzzle: SlitherPuzzle, state: State, col: Colouring) -> Iterator[Deduction]:
    from grader.core.explain import describe_removals
    cands, cells, faces_of_edge, root, flip = state.cands, puzzle.cells, puzzle.faces_of_edge, col.root, col.flip
    for k in puzzle.clued:
        n = puzzle.clues[k]
        edges = [e for e in cells[k] if cands[e] == OPEN]
        if len(edges) < 2:
            continue
        lines_now = sum(1 for e in cells[k] if cands[e] == B_LINE)
        # group the open edges by the colour group of the neighbour across them
        groups: dict[int, list[tuple[int, int]]] = {}
        for e in edges:
            a, b = faces_of_edge[e]
            other = face(puzzle, b if a == k else a)
            groups.setdefault(root[other], []).append((e, flip[other]))
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


@heuristic(id="slitherlink.corner-colours", genre=GENRE)
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
