"""Levels 1 and 2: the cell and its neighbours (do the lines join up?), and the lines already
drawn (different numbers never meet, no loops, a line never runs beside itself)."""
from __future__ import annotations

from typing import Iterator

from grader.genres.numberlink.model import WAYS
from grader.genres.numberlink.model import WITH_SIDE, WITHOUT_SIDE, NumberlinkPuzzle
from grader.kernels.cell_shapes import (OPPOSITE, SHAPES, SIDES, SIDES_CAN, SIDES_LACK, Chains, chains,
                                        side_steps, sides_can)
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.steps import Deduction, Later

from heuristics.numberlink.common import (GENRE, along, cells_near, join_off, join_on, listed_at, min_mask, the,
                                          two_removals)

# the two sides of each link shape (values 5 to 10), in the order of SIDES
LINK_SIDES = {v: tuple(d for d in SIDES if SHAPES[v] & d) for v in range(5, len(SHAPES))}
# per candidate mask, its link values in increasing order (looked up for every cell of a look)
LINKS_IN = tuple(tuple(v for v in range(5, len(SHAPES)) if m >> v & 1) for m in range(1 << len(SHAPES)))
# per candidate mask, the sides some candidate uses and another leaves unused (still open)
SIDES_OPEN = tuple(can & lack for can, lack in zip(SIDES_CAN, SIDES_LACK))

# --- level 1 ------------------------------------------------------------------------------

@heuristic(id="numberlink.join-up", genre=GENRE)
def join_up(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Where is this square: a shape is kept only if the neighbour on each side agrees."""
    cands = state.cands
    if focus is None:       # candidates only shrink, so the border is settled once and for all
        edge = {i: min_mask(sides_can(cands[i]) & ~puzzle.border_sides[i]) for i in range(len(cands))}
        yield Deduction.build(state, keep={i: m for i, m in edge.items() if m != -1}, params={
            "cell": "the border", "reason": "lines stay inside the grid",
            "result": "no line leaves a cell across the edge"})
    # a join reads its two cells only: the joins at what changed, each once from its first
    # cell (it settles alike from either), in board order
    edges = puzzle.edges
    for k in (range(len(edges)) if focus is None else listed_at(puzzle, "edges_of", focus)):
        i, d, j = edges[k]
        ci, cj, e = cands[i], cands[j], OPPOSITE[d]
        open_i = SIDES_OPEN[ci]
        if open_i & d and SIDES_OPEN[cj] & e:
            continue                # the join may still be on or off: nothing to settle
        can_i, lack_i, can_j, lack_j = SIDES_CAN[ci], SIDES_LACK[ci], SIDES_CAN[cj], SIDES_LACK[cj]
        on = can_i & d and can_j & e
        off = lack_i & d and lack_j & e
        # only a join that still has something to settle is worth explaining
        if not on and not (can_i & d or can_j & e):
            continue
        if on and not off and not (lack_i & d or lack_j & e):
            continue
        first = not (lack_i if on else can_i) & d       # whether i is the cell that decides
        # (join_on / join_off made directly: the fills' commonest deduction, made by the thousand)
        drop = WITHOUT_SIDE if on else WITH_SIDE
        a, b = ci & drop[d], cj & drop[e]
        if a or b:
            yield Deduction(two_removals(i, a, j, b), Later(join_words, puzzle, i, j, first, bool(on)),
                            (i if first else j,))


def join_words(puzzle: NumberlinkPuzzle, i: int, j: int, first: bool, on: bool) -> dict:
    here, there = puzzle.cell(i), puzzle.cell(j)
    who, other = (here, there) if first else (there, here)
    if on:
        return {"cell": who, "reason": f"every way left for the line at {who} goes towards {other}",
                "result": f"the line runs between {here} and {there}"}
    return {"cell": who, "reason": f"{who} cannot send a line towards {other}",
            "result": f"no line runs between {here} and {there}"}


@heuristic(id="numberlink.numbers-apart", genre=GENRE)
def numbers_apart(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Two different numbers side by side are never joined: the glance that starts an easy
    puzzle, before any line is drawn (different-lines does the same for the lines drawn)."""
    labels = puzzle.labels
    pairs = numbers_side_by_side(puzzle)
    if focus is not None:
        # it last looked at every pair and found each settled, and a join once settled stays
        # so: only pairs at what changed since can be new (a fill asks at every step)
        at = numbers_side_by_side_at(puzzle)
        pairs = [pairs[k] for k in sorted({k for x in focus for k in at.get(x, ())})]
    for i, d, j in pairs:
        found = join_off(state, i, d, j, params=Later(lambda i, j: {
            "a": puzzle.cell(i), "b": puzzle.cell(j), "first": puzzle.name(labels[i]),
            "second": puzzle.name(labels[j])}, i, j))
        if found:
            yield found


def numbers_side_by_side_at(puzzle: NumberlinkPuzzle) -> dict[int, tuple[int, ...]]:
    """Per numbered cell, where its joins stand in numbers_side_by_side."""
    def make() -> dict[int, tuple[int, ...]]:
        at: dict[int, list[int]] = {}
        for k, (i, _, j) in enumerate(numbers_side_by_side(puzzle)):
            at.setdefault(i, []).append(k)
            at.setdefault(j, []).append(k)
        return {x: tuple(ks) for x, ks in at.items()}
    return puzzle.once("_numbers_side_by_side_at", make)


def numbers_side_by_side(puzzle: NumberlinkPuzzle) -> tuple[tuple[int, int, int], ...]:
    """The joins (cell, side, neighbour) between two different numbers, found once per puzzle:
    the technique is asked at every step of every fill, and there are only a few."""
    labels = puzzle.labels
    return puzzle.once("_numbers_side_by_side", lambda: tuple(
        (i, d, j) for i, d, j in puzzle.edges if labels[i] and labels[j] and labels[i] != labels[j]))


@heuristic(id="numberlink.broken-line", genre=GENRE)
def broken_line(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """A drawn line that joins two numbers, closes a loop or runs beside itself: the state
    is impossible. Never fires on the way to the solution; inside a trial it ends the branch
    at once instead of many steps later, when the fill gets stuck."""
    ch = chains(puzzle, state)
    problem, at = None, None
    if ch.clash:
        at = next(i for i, lab in enumerate(puzzle.labels) if lab and ch.labels[i] != lab)
        a, b = ch.labels[at], puzzle.labels[at]
        problem = f"the lines of {puzzle.name(a)} and {puzzle.name(b)} are joined"
    elif ch.loop is not None:
        at, problem = ch.loop, f"the line through {puzzle.cell(ch.loop)} closes a loop"
    else:
        # both cells lie on one piece: only the pieces through what changed can have grown
        # beside themselves (the others were looked at when they last grew)
        found = first_beside_itself(puzzle, ch, ch.members if focus is None else {ch.root[x] for x in focus})
        if found is not None:
            at, beside = found
            problem = f"the line runs beside itself at {puzzle.cell(at)} and {puzzle.cell(beside)}"
    if at is not None:
        yield Deduction(((at, state.cands[at]),), {"problem": problem[0].upper() + problem[1:],
                                                   "cell": puzzle.cell(at)}, (at,))


def first_beside_itself(puzzle: NumberlinkPuzzle, ch: Chains, roots) -> tuple[int, int] | None:
    """On the pieces `roots`, the first cell in board order with a drawn neighbour on its
    own piece that it is not joined to (end numbers left out), and the first such neighbour.
    (Taken piece by piece, the lowest found: the cells need no sorting.)"""
    root, must, labels, nb, pieces = ch.root, ch.must, puzzle.labels, puzzle.neighbour, ch.members
    best = None
    for r in roots:
        for i in pieces.get(r, ()):     # (a cell on no piece is beside none)
            mi = must[i]
            if not mi or labels[i] or (best is not None and i > best[0]):
                continue
            for d, j in nb[i].items():
                if root[j] == r and not mi & d and must[j] and not labels[j]:
                    best = (i, j)
                    break
    return best


# --- level 2 ------------------------------------------------------------------------------

@heuristic(id="numberlink.different-lines", genre=GENRE)
def different_lines(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    ch = chains(puzzle, state)
    labels = ch.labels
    made: set[tuple[int, int]] = set()     # joins found already, from their other cell (join-up)
    # a join at the focus gives a number to every cell of the piece it joins: all of it is near
    for i in cells_near(puzzle, along(ch, focus)):
        la = labels[i]
        if not la:
            continue
        for d, j in puzzle.neighbour[i].items():
            lb = labels[j]
            if lb and lb != la and state.cands[i] & WITH_SIDE[d]:
                join = (i, j) if i < j else (j, i)
                if join in made:
                    continue
                made.add(join)
                yield join_off(state, i, d, j, params=Later(lambda i, j, la, lb: {
                    "a": puzzle.cell(i), "b": puzzle.cell(j), "first": the(puzzle, [la])[0],
                    "second": the(puzzle, [lb])[0]}, i, j, la, lb))


@heuristic(id="numberlink.between-lines", genre=GENRE)
def between_lines(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """A shape of a cell that joins two neighbours on the lines of different numbers, or on one
    piece of line (a loop), is impossible: "different numbers never meet" and "no loop" one
    cell further on."""
    ch = chains(puzzle, state)
    root, labels, cands, pieces = ch.root, ch.labels, state.cands, ch.members
    links = link_neighbours(puzzle)
    for x in cells_near(puzzle, along(ch, focus)):
        m = cands[x]
        if puzzle.labels[x] or not m & (m - 1):
            continue
        # a loop needs two neighbours on one piece, a clash two on numbers' lines
        if not on_lines_beside(puzzle.neighbour[x], labels, root, pieces, 2):
            continue
        at = links[x]
        for v in LINKS_IN[m]:
            y, z, _ = at[v]
            if y is None or z is None:
                continue
            if y > z:
                y, z = z, y
            if root[y] == root[z] or (labels[y] and labels[z] and labels[y] != labels[z]):
                yield Deduction(((x, 1 << v),), Later(between_words, puzzle, x, v, y, z, root[y] == root[z],
                                                      labels[y], labels[z]), (y, z))


def on_lines_beside(nb: dict[int, int], labels: list[int], root: list[int], pieces: dict, count: int) -> bool:
    """Whether at least `count` of these neighbours lie on a number's line or a drawn piece."""
    for z in nb.values():
        if labels[z] or root[z] in pieces:
            count -= 1
            if not count:
                return True
    return False


def between_words(puzzle: NumberlinkPuzzle, x: int, v: int, y: int, z: int, loop: bool, ly: int, lz: int
                  ) -> dict:
    if loop:
        what = f"{puzzle.cell(y)} and {puzzle.cell(z)}, already on one line, into a loop"
    else:
        what = f"the line of {puzzle.name(ly)} at {puzzle.cell(y)} to the line of {puzzle.name(lz)} at {puzzle.cell(z)}"
    return {"cell": puzzle.cell(x), "way": WAYS[SHAPES[v]], "what": what}


@heuristic(id="numberlink.no-loop", genre=GENRE)
def no_loop(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    ch = chains(puzzle, state)
    root, must, cands, steps = ch.root, ch.must, state.cands, side_steps(puzzle)
    for i in cells_near(puzzle, focus):
        for d, j, e in steps[i]:
            if root[i] == root[j] and not (must[i] & d) and cands[i] & WITH_SIDE[d] and cands[j] & WITH_SIDE[e]:
                yield join_off(state, i, d, j, params={"a": puzzle.cell(i), "b": puzzle.cell(j)})


def side_by_side(puzzle: NumberlinkPuzzle, ch: Chains, r1: int, r2: int) -> list[tuple[int, int]]:
    """Where drawn pieces r1 and r2 lie side by side away from the end numbers: the pairs
    (cell of r1, cell of r2), at least one of the two drawn, in board order. Asked of a few
    pieces at a time (and again for each shape of a cell beside them), so looked up from the
    smaller piece and remembered with the chains.
    Two pieces of two cells or more are asked again on later boards, in other steps and fills:
    their cells are all drawn, so the answer reads nothing but the two pieces' member lists
    (never changed: a join makes a new one), and the puzzle keeps it with those lists, to be
    used while a board has the very same ones."""
    memo = ch.memo.get("side by side")
    if memo is None:
        memo = ch.memo["side by side"] = {}
    else:
        found = memo.get((r1, r2))
        if found is not None:
            return found
    m1, m2 = ch.members.get(r1), ch.members.get(r2)
    both = m1 is not None and m2 is not None
    if both:
        kept = puzzle.memo("_numberlink_side_by_side", SIDE_BY_SIDE_KEPT)
        seen = kept.get((r1, r2))
        if seen is not None and seen[0] is m1 and seen[1] is m2:
            memo[r1, r2] = seen[2]
            return seen[2]
    labels, root, must, nb = puzzle.labels, ch.root, ch.must, puzzle.neighbour
    m1, m2 = m1 or [r1], m2 or [r2]
    small, other, flip = (m1, r2, False) if len(m1) <= len(m2) else (m2, r1, True)
    out = []
    for u in small:
        if labels[u]:
            continue
        for w in nb[u].values():
            if root[w] == other and not labels[w] and (must[u] or must[w]):
                out.append((w, u) if flip else (u, w))
    if len(out) > 1:
        out.sort(key=lambda p: (min(p), max(p)))
    memo[r1, r2] = out
    if both:
        kept[r1, r2] = (m1, m2, out)
    return out


SIDE_BY_SIDE_KEPT = 20_000      # pairs of pieces whose side_by_side the puzzle keeps


def link_neighbours(puzzle: NumberlinkPuzzle) -> tuple[tuple, ...]:
    """Per cell, per link value (5 to 10; None below): the neighbours on the shape's two sides
    (None off the grid) and, in the neighbour dict's order, the other neighbours that carry no
    number; made once per puzzle: no-touch asks for nearly every shape of every cell near a
    change, in every step of every fill."""
    numbered = puzzle.labels

    def of(nb: dict[int, int], v: int) -> tuple[int | None, int | None, tuple[int, ...]]:
        d1, d2 = LINK_SIDES[v]
        return nb.get(d1), nb.get(d2), tuple(z for d, z in nb.items() if d != d1 and d != d2 and not numbered[z])
    return puzzle.once("_numberlink_link_neighbours", lambda: tuple(
        tuple(of(nb, v) if v in LINK_SIDES else None for v in range(len(SHAPES))) for nb in puzzle.neighbour))


def beside_itself(puzzle: NumberlinkPuzzle, ch: Chains, x: int, v: int,
                  links: tuple[tuple, ...] | None = None) -> tuple[int, ...] | None:
    """Cells of the line x would be on as link shape `v` that would lie beside that line
    without being next to it along the line: a neighbour of x, or two pieces it would join;
    None if there are none. End numbers may touch their own line, so they are left out.
    (`links`: link_neighbours(puzzle), passed by a caller that asks many times.)"""
    root, labels = ch.root, ch.labels
    y1, y2, others = (links or link_neighbours(puzzle))[x][v]
    if y1 is None or y2 is None:        # at the border: nothing to close or cross
        y = y1 if y2 is None else y2
        if y is None:
            return None
        r1 = r2 = root[y]
        name = labels[y]
    else:
        r1, r2 = root[y1], root[y2]
        if r1 == r2:
            return None                 # a loop: "a line never meets itself" says so
        l1, l2 = labels[y1], labels[y2]
        if l1 and l2 and l1 != l2:
            return None                 # two numbers: "different numbers never meet" says so
        name = l1 or l2
    for z in others:
        rz = root[z]
        if rz == r1 or rz == r2 or (name and labels[z] == name):
            return (z,)
    pieces = ch.members
    if r1 == r2 or not (r1 in pieces or r2 in pieces):
        return None                     # two lone cells on two sides of x are never side by side
    if r1 not in pieces or r2 not in pieces:
        return lone_cell_beside(puzzle, ch, x, r1, r2)
    for pair in side_by_side(puzzle, ch, r1, r2):
        if x not in pair:               # x beside a piece it joins is the join itself
            return pair
    return None


def lone_cell_beside(puzzle: NumberlinkPuzzle, ch: Chains, x: int, r1: int, r2: int) -> tuple[int, int] | None:
    """The first pair of side_by_side(r1, r2) without x, where one of r1 and r2 is a lone cell
    (on no piece) and the other a piece: beside_itself asks this for nearly every shape of a
    loose end, and the answer is the lone cell's lowest neighbour that qualifies (the pairs
    all hold the lone cell, so their board order is that of the other cells)."""
    numbered, root, must = puzzle.labels, ch.root, ch.must
    lone, piece = (r2, r1) if r1 in ch.members else (r1, r2)
    if numbered[lone]:
        return None
    drawn = must[lone]
    first = None
    for u in puzzle.neighbour[lone].values():
        if root[u] == piece and u != x and not numbered[u] and (drawn or must[u]) and (first is None or u < first):
            first = u
    if first is None:
        return None
    return (first, lone) if piece == r1 else (lone, first)


@heuristic(id="numberlink.no-touch", genre=GENRE)
def no_touch(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """The notes' rule "a line must not touch itself": two cells of one line side by side
    are consecutive on it. Janko's own solutions keep this everywhere but at the end numbers
    (one 35x48 record has an end beside its own line), so ends are left out. A shape is
    ruled out when it would bring its own line beside x, or join two pieces of line that
    already lie side by side, or pieces that carry the same number."""
    ch = chains(puzzle, state)
    root, pieces, labels, cands = ch.root, ch.members, puzzle.labels, state.cands
    neighbour, links = puzzle.neighbour, link_neighbours(puzzle)
    for x in cells_near(puzzle, along(ch, focus)):     # a join far away can bring a line beside x
        m = cands[x]
        if labels[x] or not m & (m - 1):
            continue
        # with no piece of line beside x, no shape of x brings one beside itself
        for z in neighbour[x].values():
            if root[z] in pieces:
                break
        else:
            continue
        for v in LINKS_IN[m]:
            near = beside_itself(puzzle, ch, x, v, links)
            if near is not None:
                yield Deduction(((x, 1 << v),), Later(lambda x, v, near: {
                    "cell": puzzle.cell(x), "way": WAYS[SHAPES[v]],
                    "other": " and ".join(str(puzzle.cell(z)) for z in sorted(near))}, x, v, near), near)


def joined_neighbours(puzzle: NumberlinkPuzzle, state: State, owner: list[int],
                      cells: frozenset[int] | None = None) -> Iterator[Deduction]:
    """Side-by-side cells (away from the end numbers) certainly on the same pair's line are
    consecutive on it, since a line may not touch itself. Looks at the pairs of `cells`
    (None: everywhere)."""
    labels, edges = puzzle.labels, puzzle.edges
    which = range(len(edges)) if cells is None else listed_at(puzzle, "edges_of", cells)
    for k in which:
        i, d, j = edges[k]
        lab = owner[i]
        if not lab or owner[j] != lab or labels[i] or labels[j]:
            continue
        found = join_on(state, i, d, j, params={"a": puzzle.cell(i), "b": puzzle.cell(j), "name": puzzle.name(lab)})
        if found:
            yield found


@heuristic(id="numberlink.same-line-drawn", genre=GENRE)
def same_line_drawn(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    ch = chains(puzzle, state)
    # a pair's owner changes only where pieces joined: along the lines through what changed
    yield from joined_neighbours(puzzle, state, ch.labels, along(ch, focus))
