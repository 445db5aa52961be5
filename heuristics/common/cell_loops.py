"""Loop reasoning for loops through cell centres (Masyu, Yajilin), on top of loops.py.

    cut_parity      {cut} {edge} {lines} {value}   a straight cut across the grid is crossed an
                                                   even number of times (Jordan curve)
    inside_outside  {edge} {a} {b} {lines} {sides} {value}   the same along any chain of
                                                   decided edges between two corners
    end_lookahead   {end} {edge} {refuted}         every other way on from a loose end, followed
                                                   while it is forced, breaks a rule
    case_analysis   {subject} {outcome} ...        every way to satisfy something, filled in
    every_way_through {cell} {count} {refuted} {result}   every way the loop can treat one cell
                                                   (two of its edges, or none), each checked
                                                   nearby, optionally for closing a small loop
    enclosure_ways  {ends} {cells} {ways} {alive} {refuted} {pairs} {result}
                                                   every way to tie the loose ends around a small
                                                   closed-off area (plain, or by uniqueness)
    forced_lookahead {subject} {count} {refuted} {result}   every way to do something, each line
                                                   followed while forced, then checked nearby

Each technique's wording is a *_TEXT dict beside it. `family` gives them, with the loop family
of loops.py in cell-loop words, for `register_families`; `cases` and `enclosure_techniques`
make a genre's own case analyses and enclosure techniques. All know no genre: the puzzle is a
`GridLoop` (grader.kernels.cell_loops) whose genre's `local_problem` and `violations` are the
rules.
"""
from __future__ import annotations

import functools
import itertools
from typing import Any, Callable, Iterable, Iterator

import attrs

from grader.core.model import State
from grader.core.engine import Budget, Solver, out_of_time, solve_memory
from grader.core.probing import PASSES, branch_deduction
from grader.core.steps import Deduction, Status, Trace
from grader.core.registry import Family

from grader.kernels.loops import (B_CROSS, B_LINE, CROSS, LINE, OPEN, LoopGraph, loose_ends, paths,
                                  split)
from grader.kernels.recent import last_answer, narrowed, recent_of
from grader.kernels.union_find import UnionFind

from heuristics.common import loops


# How Masyu and Yajilin word the rules of loops.py that they share (Slitherlink words them
# for its dots); the wording of the techniques below sits beside each.
CELL_FULL_TEXT = {
    "name": "Two lines meet",
    "template": "{vertex} already has two lines ({lines}), so the loop cannot also use "
                "{edges}.",
    "nudge": "Look at the lines that meet at {vertex}.",
}


LOOSE_END_TEXT = {
    "name": "A loose end with one way on",
    "template": "The line {line} ends at {vertex}, which has only one other way out, so "
                "{edge} carries the loop.",
    "nudge": "Where can the line that ends at {vertex} go?",
}


NO_EARLY_LOOP_TEXT = {
    "name": "Do not close the loop too early",
    "template": "{edge} would join {ends}, the two ends of one line, into a closed loop, but "
                "{reason}: it is crossed out.",
    "nudge": "Which edge would close the loop too early?",
}


@functools.lru_cache(maxsize=64)
def _cuts(rows: int, cols: int, first_var: int) -> tuple[tuple[tuple[str, tuple[int, ...]], ...],
                                                      dict[int, int]]:
    """The straight cuts of a grid: for each boundary between two rows (or columns), the
    edges that cross it; and which cut each edge variable lies on."""
    graph = LoopGraph.cell_grid(rows, cols, first_var)
    horizontal = rows * (cols - 1)
    cuts: list[tuple[str, tuple[int, ...]]] = []
    for r in range(rows - 1):
        cuts.append((f"the line between rows {r + 1} and {r + 2}",
                     tuple(graph.edge_vars[horizontal + r * cols + c] for c in range(cols))))
    for c in range(cols - 1):
        cuts.append((f"the line between columns {c + 1} and {c + 2}",
                     tuple(graph.edge_vars[r * (cols - 1) + c] for r in range(rows))))
    on_cut = {var: k for k, (_, vs) in enumerate(cuts) for var in vs}
    return tuple(cuts), on_cut


PARITY_TEXT = {
    "name": "The loop crosses a line an even number of times",
    "template": "The loop crosses {cut} an even number of times; {lines} of its other edges "
                "there carry the loop, so {edge} {value}.",
    "nudge": "Count the lines that cross {cut}.",
}


def cut_parity(graph: LoopGraph, rows: int, cols: int, state: State, focus=None) -> Iterator[Deduction]:
    """A closed loop crosses any straight line across the grid an even number of times, so
    when one edge across the line is still open the others decide it."""
    cuts, on_cut = _cuts(rows, cols, graph.edge_vars[0] if graph.edge_vars else 0)
    todo = range(len(cuts)) if focus is None else sorted({on_cut[v] for v in focus if v in on_cut})
    cands = state.cands
    for k in todo:
        name, vs = cuts[k]
        open_ = [v for v in vs if cands[v] == OPEN]
        if len(open_) != 1:
            continue
        lines = [v for v in vs if cands[v] == B_LINE]
        value = LINE if len(lines) % 2 else CROSS
        e = graph.edge_of_var[open_[0]]
        yield Deduction.build(state, put={open_[0]: value}, premises=[v for v in vs if v != open_[0]],
                              params={"cut": name, "edge": graph.edge_names[e], "lines": len(lines),
                                      "value": "must carry the loop" if value == LINE else "is crossed out"})


def _point(rows: int, cols: int, i: int, j: int) -> int:
    """The corner above-left of cell (i, j) (from 0); every corner on the border is the
    outside, numbered last."""
    return (i - 1) * (cols - 1) + (j - 1) if 0 < i < rows and 0 < j < cols else (rows - 1) * (cols - 1)


@functools.cache
def _corners(rows: int, cols: int, first_var: int) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...],
                                                         tuple[str, ...]]:
    """The corners where four cells meet, seen as the faces of the loop's drawing (every
    corner on the grid's border is one face, the outside, numbered last): the edge variables
    in graph order, the two corners each edge passes between, and each corner's name."""
    graph = LoopGraph.cell_grid(rows, cols, first_var)
    pairs = []
    for a, b in graph.ends:
        r, c = divmod(a, cols)
        pairs.append((_point(rows, cols, r, c + 1), _point(rows, cols, r + 1, c + 1)) if b == a + 1
                     else (_point(rows, cols, r + 1, c), _point(rows, cols, r + 1, c + 1)))
    names = tuple(f"the corner between r{i}c{j} and r{i + 1}c{j + 1}"
                  for i in range(1, rows) for j in range(1, cols)) + ("the outside",)
    return tuple(graph.edge_vars), tuple(pairs), names


# Masyu and Yajilin word the technique alike.
INSIDE_OUTSIDE_TEXT = {
    "name": "Inside and outside",
    "template": "Every corner where four cells meet is inside the loop or outside it. Going from {a} to {b} "
                "along decided edges{via} crosses the loop {lines} number of times, so they are on "
                "{sides} and {edge} {value}.",
    "nudge": "Which side of the loop are the corners on either side of {edge}?",
}


def inside_outside(graph: LoopGraph, rows: int, cols: int, state: State, focus=None,
                   straight: Iterable[int] = ()) -> Iterator[Deduction]:
    """Jordan curve: every corner where four cells meet is inside or outside the loop, the
    grid's border is outside, and an edge carries the loop exactly when the corners on its
    two sides differ. Decided edges link corners into groups of known relative side; so do
    the `straight` cells, which the loop passes straight (a white pearl): whichever way it
    runs, each pair of opposite corners lies on opposite sides. An open edge between two
    corners of one group is decided. Generalizes cut_parity from straight cuts to any chain
    of decided edges. With a focus, only the edges at the groups of the edges it decided: an
    edge between two corners of one group now, but of two at the last look, which found
    nothing, is at a group some new link joined (groups only grow as edges are decided)."""
    first_var = graph.edge_vars[0] if graph.edge_vars else 0
    evars, pairs, names = _corners(rows, cols, first_var)
    cands = state.cands
    straight = tuple(straight)
    sides = _shared_sides(rows, cols, first_var, graph, state, straight)
    root, side, linked = sides.root, sides.side, sides.linked
    links = None
    todo = range(len(evars))
    if focus is not None and not sides.broken and all(cands[var] for var in focus):
        todo = _edges_at_groups(rows, cols, first_var, sides, cands, focus)
    for k in todo:
        var, (a, b) = evars[k], pairs[k]
        if cands[var] != OPEN or not linked[a] or root[a] != root[b]:
            continue
        other = side[a] ^ side[b]
        links = links or _corner_links(rows, cols, first_var, cands, straight)
        used = _shortest_link(links, a, b)          # the reasons a reader checks
        through = sorted(-1 - v for v in used if v < 0)
        e = graph.edge_of_var[var]
        via = ""
        if through:
            pearls, it = ("white pearl", "it") if len(through) == 1 else ("white pearls", "each")
            via = (f" and across the {pearls} at {', '.join(graph.vertex_names[x] for x in through)} (the "
                   f"loop runs straight through {it}, so its opposite corners lie on opposite sides)")
        yield Deduction.build(state, put={var: LINE if other else CROSS}, premises=sorted(v for v in used if v >= 0),
                              region=through, params={
            "edge": graph.edge_names[e], "a": names[a], "b": names[b], "lines": "an odd" if other else "an even",
            "via": via, "sides": "opposite sides" if other else "the same side",
            "value": "must carry the loop" if other else "is crossed out"})


def _edges_at_groups(rows: int, cols: int, first_var: int, sides: "Sides", cands, focus) -> list[int]:
    """The edges (by their place in graph order) at a corner of a group that holds a corner
    of a decided edge of `focus`, in graph order."""
    pair_of_var = _corner_pairs_of_var(rows, cols, first_var)
    roots = {sides.root[x] for var in focus if (pair := pair_of_var.get(var)) is not None
             and (cands[var] == B_LINE or cands[var] == B_CROSS) for x in pair}
    edges_at = _corner_edges(rows, cols, first_var)
    return sorted({k for r in roots for x in sides.members.get(r, (r,)) for k in edges_at[x]})


@functools.cache
def _corner_edges(rows: int, cols: int, first_var: int) -> tuple[tuple[int, ...], ...]:
    """For each corner, the edges (by their place in graph order) that pass it."""
    _, pairs, names = _corners(rows, cols, first_var)
    out: list[list[int]] = [[] for _ in names]
    for k, (a, b) in enumerate(pairs):
        out[a].append(k)
        out[b].append(k)
    return tuple(map(tuple, out))


def _corner_links(rows: int, cols: int, first_var: int, cands, straight: tuple[int, ...]
                  ) -> list[list[tuple[int, int, int]]]:
    """For each corner, its links (corner beyond, 1 if the sides differ, edge variable or -1 - cell)."""
    evars, pairs, names = _corners(rows, cols, first_var)
    links: list[list[tuple[int, int, int]]] = [[] for _ in names]
    for var, (a, b) in zip(evars, pairs):
        m = cands[var]
        if m == B_LINE or m == B_CROSS:
            side = 1 if m == B_LINE else 0
            links[a].append((b, side, var))
            links[b].append((a, side, var))
    for x in straight:                          # a link through cell x is written -1 - x
        for a, b in _straight_pairs(rows, cols, x):
            links[a].append((b, 1, -1 - x))
            links[b].append((a, 1, -1 - x))
    return links


def _straight_pairs(rows: int, cols: int, x: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two pairs of opposite corners of cell x."""
    r, c = divmod(x, cols)
    return ((_point(rows, cols, r, c), _point(rows, cols, r + 1, c + 1)),
            (_point(rows, cols, r, c + 1), _point(rows, cols, r + 1, c)))


@attrs.define
class Sides:
    """Corners joined by links (decided edges, straight cells) into groups, each corner with
    its side relative to its group: root[x] names x's group, side[x] is 0 or 1, and two
    corners of one group are on opposite sides when their sides differ. A group joining
    another takes the larger one's name (every member relabelled: a look then reads two
    lists, no search). `broken` when a ring of links disagrees (a contradiction); a search
    then gives the sides, as before."""
    root: list[int]
    side: list[int]
    linked: bytearray               # corners with a link
    members: dict[int, list[int]]   # of each group of two or more corners, by name
    broken: bool = False

    @classmethod
    def empty(cls, n: int) -> "Sides":
        return cls(list(range(n)), [0] * n, bytearray(n), {})

    def copy(self) -> "Sides":
        return Sides(list(self.root), list(self.side), bytearray(self.linked), dict(self.members), self.broken)

    def link(self, a: int, b: int, side: int) -> None:
        """Corners a and b are on opposite sides (side 1) or on the same side (side 0)."""
        root, side_of = self.root, self.side
        self.linked[a] = self.linked[b] = 1
        ra, rb = root[a], root[b]
        if ra == rb:
            if side_of[a] ^ side_of[b] != side:
                self.broken = True
            return
        small, large = self.members.pop(ra, [ra]), self.members.get(rb, [rb])
        if len(small) > len(large):
            (small, ra), (large, rb) = (large, rb), (small, ra)
            self.members.pop(ra, None)
        flip = side_of[a] ^ side_of[b] ^ side
        for y in small:
            root[y] = rb
            side_of[y] ^= flip
        self.members[rb] = large + small

    def relation(self, a: int, b: int) -> int | None:
        """1 if corners a and b are on opposite sides, 0 if on the same, None if not known."""
        if not self.linked[a] or self.root[a] != self.root[b]:
            return None
        return self.side[a] ^ self.side[b]


def _searched_sides(links: list[list[tuple[int, int, int]]]) -> Sides:
    """The sides by a search along links (for a state whose links disagree somewhere: which
    side each corner gets then depends on the search's order, as it always did)."""
    n = len(links)
    group, flip = [-1] * n, [0] * n
    for start in range(n):
        if group[start] >= 0 or not links[start]:
            continue
        group[start], stack = start, [start]
        while stack:
            a = stack.pop()
            for b, side, _ in links[a]:
                if group[b] < 0:
                    group[b], flip[b] = start, flip[a] ^ side
                    stack.append(b)
    return Sides(group, flip, bytearray(g >= 0 for g in group), {}, broken=True)


def _shared_sides(rows: int, cols: int, first_var: int, graph: LoopGraph, state: State,
                  straight: tuple[int, ...]) -> Sides:
    """The sides of the corners in a state (once per state; a recent state's, with the edges
    decided since linked in)."""
    evars, pairs, names = _corners(rows, cols, first_var)
    pair_of_var = _corner_pairs_of_var(rows, cols, first_var)

    def full() -> tuple[tuple[int, ...], Sides]:
        sides = Sides.empty(len(names))
        cands = state.cands
        for var, (a, b) in zip(evars, pairs):
            m = cands[var]
            if m == B_LINE or m == B_CROSS:
                sides.link(a, b, 1 if m == B_LINE else 0)
        for x in straight:
            for a, b in _straight_pairs(rows, cols, x):
                sides.link(a, b, 1)
        return straight, sides

    def update(fact, old: tuple[int, ...], changed: list[int]):
        kept, sides = fact
        if kept != straight:
            return None
        cands = state.cands
        fresh = None
        for var in changed:
            pair = pair_of_var.get(var)
            if pair is None:
                continue
            m = cands[var]
            if m == B_LINE or m == B_CROSS:
                if old[var] != OPEN:
                    return None
                fresh = fresh or sides.copy()
                fresh.link(pair[0], pair[1], 1 if m == B_LINE else 0)
            elif old[var] != OPEN and old[var] != m:
                return None                 # a link is gone (an emptied edge): search again
        return (straight, fresh or sides)

    def compute():
        sides = recent_of(graph, "corner sides").get(state, full, update)[1]
        return sides if not sides.broken else _searched_sides(_corner_links(rows, cols, first_var, state.cands, straight))
    return state.derived(("cell_loops.sides", id(graph)), compute)


@functools.cache
def _corner_pairs_of_var(rows: int, cols: int, first_var: int) -> dict[int, tuple[int, int]]:
    """The two corners each edge variable passes between."""
    evars, pairs, _ = _corners(rows, cols, first_var)
    return dict(zip(evars, pairs))


def _shortest_link(links: list[list[tuple[int, int, int]]], a: int, b: int) -> list[int]:
    """The links on a shortest way from corner a to corner b (breadth first)."""
    came: dict[int, tuple[int, int]] = {a: (-1, 0)}
    todo = [a]
    for x in todo:
        if x == b:
            break
        for y, _, link in links[x]:
            if y not in came:
                came[y] = (x, link)
                todo.append(y)
    out = []
    while b != a:
        b, link = came[b]
        out.append(link)
    return out


def follow(graph: LoopGraph, state: State, var: int, limit: int = 10_000) -> tuple[State, list[int]]:
    """Draw edge `var` and keep extending the line while its end has exactly one way on;
    where two lines meet, cross the rest. Only forced moves, so it is sound from `var`.
    Returns the new state and the variables it changed."""
    cands = list(state.cands)
    changed: list[int] = []
    follow_on(graph, cands, var, changed, limit)
    return State(tuple(cands)), changed


def follow_on(graph: LoopGraph, cands: list[int], var: int, changed: list[int], limit: int = 10_000) -> None:
    """follow, drawn on a list of candidates; the variables it changes are added to `changed`."""
    cands[var] &= B_LINE
    changed.append(var)
    e = graph.edge_of_var[var]
    todo = list(graph.ends[e])
    while todo and limit:
        limit -= 1
        v = todo.pop()
        lines, open_ = split(graph, cands, v)
        if len(lines) >= 2 and open_:
            for f in open_:
                cands[graph.edge_vars[f]] = B_CROSS
                changed.append(graph.edge_vars[f])
                todo.append(graph.other(f, v))
        elif len(lines) == 1 and len(open_) == 1:
            cands[graph.edge_vars[open_[0]]] = B_LINE
            changed.append(graph.edge_vars[open_[0]])
            todo.append(graph.other(open_[0], v))


END_LOOKAHEAD_TEXT = {
    "name": "Follow every way on from a loose end",
    "template": "From the loose end at {end}, every other way on breaks a rule once followed: "
                "{refuted}. So {edge} carries the loop.",
    "nudge": "Try each way on from the loose end at {end}.",
}


def end_lookahead(graph: LoopGraph, state: State, check: Callable[[State, list[int]], str],
                  focus=None) -> Iterator[Deduction]:
    """From a loose end, try each way on, follow it while forced and check the rules near what
    changed (verifyboard): if all ways but one break a rule, the line takes that one.
    check(trial, changed variables) names a broken rule, or ''."""
    p = paths(graph, state)
    ends = sorted(p.end_of)
    if focus is not None:
        # only ends near what changed: far changes rarely matter, and this runs inside every
        # trial branch (skipping an end is always sound)
        near: set[int] = set()
        for var in focus:
            for v in graph.vertices_of_var.get(var, ()):
                near.add(v)
                near.update(graph.other(f, v) for f in graph.incident[v])
        ends = [a for a in ends if a in near]
    for a in ends:
        lines, open_ = split(graph, state.cands, a)
        if len(lines) != 1 or len(open_) < 2:
            continue
        alive, refuted = [], []
        for e in open_:
            trial, changed = follow(graph, state, graph.edge_vars[e])
            broken = check(trial, changed)
            if broken:
                refuted.append(f"{graph.edge_names[e]} ({broken})")
            else:
                alive.append(e)
            if len(alive) > 1:
                break
        if len(alive) == 1:
            e = alive[0]
            yield Deduction.build(state, put={graph.edge_vars[e]: LINE},
                                  premises=[graph.edge_vars[f] for f in lines],
                                  params={"end": graph.vertex_names[a], "edge": graph.edge_names[e],
                                          "refuted": refuted})


# --- level 5: case analyses ------------------------------------------------------------------

def case_analysis(puzzle, state: State, max_level: int, subjects, memo: str | None = None,
                  passes: tuple[tuple[int, int], ...] | None = None) -> Iterator[Deduction]:
    """Every way to satisfy one subject (a pearl, a loose end, a clue, a cell), filled in
    greedily; what all surviving cases agree on holds. subjects yields (name, options) with
    options [(label, {var: value})] covering every possibility. All subjects get a short
    look first, then a long one, so the shortest case analysis is the one shown. `passes`
    ((steps, highest level of the fill), ...) replaces grader.core.probing's two looks.

    With `memo` (a key on the puzzle), a subject whose look found nothing at the last call,
    with nothing changed near it since, is not looked at again in the early passes, and goes
    last in the final one: like a person who does not repeat a trial that just told nothing.
    The final pass still tries every subject, so this changes which deduction comes first,
    never whether one is found. A later pass's fill of a case goes on from the earlier pass's
    (see PassFills).
    Params: subject, outcome, cases, steps."""
    passes = passes or tuple((steps, min(level, max_level)) for steps, level in PASSES)
    subjects = [(name, options) for name, options in subjects if len(options) >= 2]
    failed = _recall(puzzle, state, memo, len(passes)) if memo else [set() for _ in passes]
    where = {name: {v for _, put in options for var in put for v in puzzle.graph.vertices_of_var.get(var, ())}
             for name, options in subjects}
    found = None
    cases_of: dict[str, list[tuple[str, State, tuple[int, ...]]]] = {}     # made once for every pass
    fills = PassFills() if len(passes) > 1 else None
    for k, (steps, level) in enumerate(passes):
        todo = [s for s in subjects if s[0] not in failed[k]]
        if k == len(passes) - 1:
            todo += [s for s in subjects if s[0] in failed[k]]
        for name, options in todo:
            if out_of_time():
                return
            assumptions = cases_of.get(name)
            if assumptions is None:
                assumptions = cases_of[name] = [(label, state.assume(put), tuple(put)) for label, put in options]
            d = branch_deduction(puzzle, state, assumptions, max_level=level, max_steps=steps,
                                 fill_with=fills and fills.fill)
            if d:
                found = Deduction(d.removals, {**d.params, "subject": name}, detail=d.detail)
                break
            failed[k].add(name)
        if found:
            break
    if memo:
        solve_memory()[memo] = (state.cands, failed, where)
    if found:
        yield found


RECALL = 4      # a failed case analysis is tried early again once something changes this close


class PassFills:
    """The fills of one case analysis, by the assumed state they start from (each made once,
    for every pass): a later pass fills a case with more rules than the earlier one did, and
    until the earlier rules find nothing the later ones are never asked, so an earlier fill
    that stopped stuck is the start of the later one (Solver.go_on_past), and one that
    stopped on an emptied variable or a full board is all of it. Exact, as the earlier
    rules (the short pass's levels 1-2) read nothing the fills in between could change."""

    def __init__(self) -> None:
        # by id of an assumed state: case_analysis keeps every case's state for all its passes,
        # so an id is never reused within one analysis (hashing a state's candidates costs more)
        self.kept: dict[int, tuple[list, Trace]] = {}

    def fill(self, puzzle, state: State, changed: Iterable[int], max_level: int, max_steps: int,
             heuristics=None, greedy: bool = False) -> Trace:
        """grader.core.probing.fill, going on from this analysis's earlier fill of `state`."""
        focus = frozenset(changed)
        solver = Solver(puzzle, max_level=max_level, heuristics=heuristics, budget=Budget.steps_only(max_steps),
                        greedy=greedy)
        earlier = self.kept.get(id(state))
        trace = earlier and _went_on(solver, *earlier, focus)
        trace = trace or solver.solve(state, focus=focus)
        self.kept[id(state)] = (solver.heuristics, trace)
        return trace


def _went_on(solver: Solver, rules: list, trace: Trace, focus: frozenset[int]) -> Trace | None:
    """What `solver` finds from the start of `trace`, a fill with the first of its rules (and
    fewer steps than its budget), or None."""
    first, now = len(rules), solver.heuristics
    if (solver.greedy or first >= len(now) or any(a is not b for a, b in zip(rules, now))
            or trace.status is Status.BUDGET or len(trace.steps) >= solver.budget.max_steps):
        return None
    final = trace.final.cands
    if trace.status is Status.STUCK or (0 not in final and any(m & (m - 1) for m in final)):
        return solver.go_on_past(trace, first, focus)      # stuck (a broken rule found then)
    return trace                                           # a variable emptied, a full board


def end_options(graph: LoopGraph, state: State):
    """Case-analysis subjects (see case_analysis): each loose end of the drawn line, with every
    edge it may go on along."""
    for a in loose_ends(graph, state):
        _, open_ = split(graph, state.cands, a)
        yield graph.vertex_names[a], [(f"the line goes on along {graph.edge_names[e]}",
                                       {graph.edge_vars[e]: LINE}) for e in open_]


def _recall(puzzle, state: State, memo: str, n: int) -> list[set]:
    """Per pass, the subjects whose look failed at the last call, minus those near anything
    that changed since (nothing when this state is not a later one)."""
    kept = solve_memory().get(memo)
    if kept is None or len(kept[1]) != n:
        return [set() for _ in range(n)]
    cands, failed, where = kept
    changed = narrowed(cands, state.cands, len(cands))
    if changed is None:
        return [set() for _ in range(n)]
    spots = {divmod(v, puzzle.cols) for var in changed for v in puzzle.graph.vertices_of_var.get(var, ())}
    near = {(r + dr, c + dc) for r, c in spots for dr in range(-RECALL, RECALL + 1)
            for dc in range(abs(dr) - RECALL, RECALL - abs(dr) + 1)}
    cols = puzzle.cols
    moved = {name for name, vs in where.items() if any(divmod(v, cols) in near for v in vs)}
    return [set(f) - moved for f in failed]


# --- every way through a cell ------------------------------------------------------------------

@attrs.frozen
class Way:
    """One way the loop can treat a vertex: the two edges it uses, or none (stays empty)."""
    edges: tuple[int, ...]
    put: dict[int, int] = attrs.field(eq=False)      # variable -> value

    @property
    def empty(self) -> bool:
        return not self.edges


def ways_through(graph: LoopGraph, state: State, v: int, may_stay_empty: bool,
                 visit_values: tuple[int, int] | None = None) -> list[Way]:
    """Every way the loop could pass vertex v that its decided edges allow: two edges (keeping
    the lines already there), or none when `may_stay_empty` and no line reaches it.
    visit_values (off, on) also sets the vertex's own variable (a Yajilin cell's shading)."""
    lines, open_ = split(graph, state.cands, v)
    usable = lines + open_
    if len(lines) >= 2:
        return []
    var = graph.vertex_vars[v]
    out = []
    if not lines and may_stay_empty:
        put = {graph.edge_vars[e]: CROSS for e in open_}
        if visit_values is not None and var is not None:
            put[var] = visit_values[0]
        out.append(Way((), put))
    for a in range(len(usable)):
        for b in range(a + 1, len(usable)):
            pair = (usable[a], usable[b])
            if any(e not in pair for e in lines):
                continue
            put = {graph.edge_vars[e]: (LINE if e in pair else CROSS) for e in open_}
            if visit_values is not None and var is not None:
                put[var] = visit_values[1]
            out.append(Way(tuple(sorted(pair)), put))
    return out


def closes_small_loop(graph: LoopGraph, state: State, v: int, way: Way) -> bool:
    """Would this way join the two ends of one line into a closed loop while other lines are
    left outside it? Read off the pieces of line, without drawing anything."""
    if not way.edges:
        return False
    p = paths(graph, state)
    if p.pieces <= 1:
        return False           # closing the only line is the premature-loop rule's question
    new = [graph.other(e, v) for e in way.edges if state.cands[graph.edge_vars[e]] != B_LINE]
    if len(new) == 2:           # v has no line yet: it joins the pieces at its two neighbours
        x, y = new
        return p.degree[x] == 1 and p.end_of.get(x) == y
    if len(new) == 1:           # v is a loose end: it reaches the other end of its own line
        return p.end_of.get(v) == new[0]
    return False


def every_way_through(puzzle, graph: LoopGraph, state: State, vertices: Iterable[int],
                      ways: Callable[[int], list[Way]], problem: Callable[[State, int, Way], str],
                      self_loops: bool, board: list[int] | None = None) -> Iterator[Deduction]:
    """For each vertex, try every way through it (`ways(v)`): a way that breaks a rule nearby
    (`problem(trial, v, way)` names it) or, with `self_loops`, closes a small loop is refuted;
    what all the ways left agree on holds. `board`, a list of the state's candidates, is drawn
    on and restored for each way instead of a copy of the board per way (the cost on large
    boards): then `problem` must read its trial only while it runs (no state.derived).
    Params: {cell} {count} {refuted} (a sentence per refuted way) {result}."""
    from grader.core.explain import describe_removals
    for v in vertices:
        options = ways(v)
        if len(options) < 2:
            continue
        # the candidates no way left keeps so far (what they agree on): once there are none,
        # nothing can be said of this vertex, and its other ways are not drawn
        unkept = {var: m for var in {var for way in options for var in way.put} if (m := state.cands[var])}
        alive, dead = False, []
        for way in options:
            why = ""
            if self_loops and closes_small_loop(graph, state, v, way):
                why = "the line would close into a loop with other lines left outside it"
            else:
                why, drawn = _try_way(state, board, way, lambda trial: problem(trial, v, way))
                if not why:
                    alive = True
                    unkept = {var: left for var, m in unkept.items() if (left := m & ~drawn.get(var, state.cands[var]))}
            if why:
                dead.append((way, why))
            if not unkept:
                break
        if not dead or not alive or not unkept:
            continue
        if 0 in state.cands:
            # a variable was empty already, so every way breaks a rule and none is left: asked
            # only here, as a look along the whole board costs more than the ways on a big one
            return
        removals = tuple(sorted(unkept.items()))
        refuted = "; ".join(f"if it {way_name(graph, v, w)}, {why}" for w, why in dead)
        yield Deduction(removals, {"cell": graph.vertex_names[v], "count": len(options), "refuted": refuted,
                                   "result": describe_removals(puzzle, state, removals)},
                        cells=(puzzle.cell(v),))


def _try_way(state: State, board: list[int] | None, way: Way,
             problem: Callable[[State], str]) -> tuple[str, dict[int, int]]:
    """(what drawing the way breaks or '', the candidates it leaves to the way's variables),
    on a trial state or on a scratch `board` (drawn on and restored). A variable left empty is
    looked for among the way's own only (see every_way_through)."""
    if board is None:
        trial = state.assume(way.put)
        return _emptied(trial.cands, way) or problem(trial), {var: trial.cands[var] for var in way.put}
    saved = [(var, board[var]) for var in way.put]
    for var, val in way.put.items():
        board[var] &= 1 << val
    try:
        return _emptied(board, way) or problem(State(board)), {var: board[var] for var in way.put}
    finally:
        for var, mask in saved:
            board[var] = mask


def _emptied(cands, way: Way) -> str:
    return "a cell would be left with no value" if not all(cands[var] for var in way.put) else ""


def agreed_on(state: State, finals: list[dict[int, int]], vars_: Iterable[int]) -> tuple[tuple[int, int], ...]:
    """Candidates of `vars_` (the only variables the trials set) that no trial keeps: each
    final gives what a trial left to the variables it set, the others keep the state's."""
    cands = state.cands
    out = []
    for v in sorted(vars_):
        union = 0
        for f in finals:
            union |= f.get(v, cands[v])
        if cands[v] & ~union:
            out.append((v, cands[v] & ~union))
    return tuple(out)


def way_name(graph: LoopGraph, v: int, way: Way) -> str:
    if way.empty:
        return "stays empty"
    return "runs to " + " and ".join(graph.vertex_names[graph.other(e, v)] for e in way.edges)


# --- enclosures: every way to tie the loose ends that lead into a closed-off area --------------

@attrs.frozen
class Enclosure:
    """An area of vertices without lines, joined by open edges, that the loop can only enter
    from the loose ends around it, each of which has no way on except into the area (or
    straight to another of them). Those ends must be tied in pairs by lines through the area."""
    cells: frozenset[int]
    ends: tuple[int, ...]


@attrs.frozen
class Tying:
    """One way to tie an enclosure's ends: the line edges, the pairs, the trial state."""
    lines: frozenset[int]
    pairs: frozenset[frozenset[int]]
    state: State


def enclosures(graph: LoopGraph, state: State, usable: Callable[[int], bool],
               max_cells: int = 14, max_ends: int = 4) -> list[Enclosure]:
    """The small enclosures of a state (at most `max_cells` vertices and `max_ends` ends).
    usable(v): the loop may still pass v. Areas that share a loose end count as one (an end
    between two of them may turn into either)."""
    p = paths(graph, state)
    if not p.lines or p.loops:
        return []
    cands, ev, n = state.cands, graph.edge_vars, graph.n_vertices
    free = [p.degree[v] == 0 and usable(v) for v in range(n)]
    seen = [False] * n
    groups: list[tuple[list[int], set[int]]] = []
    for s in range(n):
        if seen[s] or not free[s]:
            continue
        seen[s] = True
        group, ends, k = [s], set(), 0
        while k < len(group):
            v = group[k]
            k += 1
            for e in graph.incident[v]:
                if cands[ev[e]] != OPEN:
                    continue
                w = graph.other(e, v)
                if free[w]:
                    if not seen[w]:
                        seen[w] = True
                        group.append(w)
                elif p.degree[w] == 1:
                    ends.add(w)
        groups.append((group, ends))
    # join the areas that share an end
    joined = UnionFind(len(groups))
    first: dict[int, int] = {}
    for k, (_, ends) in enumerate(groups):
        for a in ends:
            joined.union(k, first.setdefault(a, k))
    merged: dict[int, tuple[list[int], set[int]]] = {}
    for k, (group, ends) in enumerate(groups):
        cells, all_ends = merged.setdefault(joined.find(k), ([], set()))
        cells.extend(group)
        all_ends |= ends
    out = []
    for group, ends in merged.values():
        if len(group) > max_cells or not ends or len(ends) > max_ends or len(ends) % 2:
            continue
        cells = frozenset(group)
        if all(graph.other(e, a) in cells or graph.other(e, a) in ends
               for a in ends for e in graph.incident[a] if cands[ev[e]] == OPEN):
            out.append(Enclosure(cells, tuple(sorted(ends))))
    return sorted(out, key=lambda enc: min(enc.cells))


def tyings(graph: LoopGraph, state: State, enc: Enclosure, must_visit: Callable[[int], bool],
           visit_values: tuple[int, int] | None = None, budget: int = 20_000,
           limit: int = 400) -> list[Tying] | None:
    """Every way to tie the ends of an enclosure by lines through it (none closing a loop that
    leaves other lines outside), each as a trial state where the area's unused vertices stay
    empty (with visit_values, their own variable says so). None when there are too many."""
    search = _TyingSearch(graph, state, enc, must_visit, visit_values, budget, limit)
    return search.out if search.start(sorted(enc.ends)) else None


class _TyingSearch:
    """The depth-first search of tyings: methods that call each other rather than nested
    functions, which would leave each search in reference cycles for the collector."""

    def __init__(self, graph: LoopGraph, state: State, enc: Enclosure, must_visit: Callable[[int], bool],
                 visit_values: tuple[int, int] | None, budget: int, limit: int):
        self.graph, self.state, self.must_visit, self.visit_values = graph, state, must_visit, visit_values
        self.budget, self.limit = budget, limit
        self.p = p = paths(graph, state)
        self.cands, ev = state.cands, graph.edge_vars
        self.cells = cells = enc.cells
        self.every_piece_here = len({p.comp[a] for a in enc.ends}) == p.pieces
        self.touched = sorted({e for v in cells | set(enc.ends) for e in graph.incident[v]
                               if self.cands[ev[e]] == OPEN})
        self.out: list[Tying] = []
        self.used: set[int] = set()
        self.chosen: list[int] = []
        self.pairs: list[frozenset[int]] = []
        self.parent = {c: c for c in {p.comp[a] for a in enc.ends}}
        self.steps = 0

    def find(self, c: int) -> int:
        parent = self.parent
        while parent[c] != c:
            c = parent[c]
        return c

    def tie(self, a: int, b: int, rest: list[int]) -> bool:
        ra, rb = self.find(self.p.comp[a]), self.find(self.p.comp[b])
        if ra == rb and (rest or not self.every_piece_here):
            return True                       # a small closed loop: not a way
        self.parent[ra] = rb
        self.pairs.append(frozenset((a, b)))
        ok = self.start(rest)
        self.pairs.pop()
        self.parent[ra] = ra
        return ok

    def walk(self, v: int, a: int, rest: list[int]) -> bool:
        self.steps += 1
        if self.steps > self.budget or len(self.out) > self.limit:
            return False
        graph, cands, ev, chosen, used = self.graph, self.cands, self.graph.edge_vars, self.chosen, self.used
        for e in graph.incident[v]:
            if cands[ev[e]] != OPEN or (chosen and e == chosen[-1]):
                continue
            w = graph.other(e, v)
            if w in self.cells and w not in used:
                used.add(w)
                chosen.append(e)
                ok = self.walk(w, a, rest)
                chosen.pop()
                used.discard(w)
                if not ok:
                    return False
            elif w in rest:                  # (from a itself: two ends side by side, joined)
                chosen.append(e)
                ok = self.tie(a, w, [x for x in rest if x != w])
                chosen.pop()
                if not ok:
                    return False
        return True

    def start(self, rest: list[int]) -> bool:
        if not rest:
            if any(self.must_visit(v) for v in self.cells if v not in self.used):
                return True
            self.out.append(_tying(self.graph, self.state, self.touched, set(self.chosen), frozenset(self.pairs),
                                   self.cells, self.used, self.visit_values))
            return len(self.out) <= self.limit
        a = rest[0]
        return self.walk(a, a, rest[1:])


def _tying(graph: LoopGraph, state: State, touched: list[int], lines: set[int],
           pairs: frozenset[frozenset[int]], cells: frozenset[int], used: set[int],
           visit_values: tuple[int, int] | None) -> Tying:
    cands = list(state.cands)
    for e in touched:
        cands[graph.edge_vars[e]] &= B_LINE if e in lines else B_CROSS
    if visit_values is not None:
        for v in cells:
            var = graph.vertex_vars[v]
            if var is not None:
                cands[var] &= 1 << visit_values[1 if v in used else 0]
    return Tying(frozenset(lines), pairs, State(tuple(cands)))


def tying_removals(state: State, ways: list[Tying], vars_: Iterable[int]) -> tuple[tuple[int, int], ...]:
    if not ways:
        return ()
    vars_ = list(vars_)
    return agreed_on(state, [{v: w.state.cands[v] for v in vars_} for w in ways], vars_)


def enclosure_ways(puzzle, graph: LoopGraph, state: State, usable: Callable[[int], bool],
                   must_visit: Callable[[int], bool], problem: Callable[[State, list[int]], str],
                   visit_values: tuple[int, int] | None = None,
                   unique_ok: Callable[[Enclosure, list[Tying]], bool] | None = None,
                   max_cells: int = 14, max_ends: int = 4) -> Iterator[Deduction]:
    """Tie the loose ends around each small enclosure in every possible way; check each with
    the rules (`problem(trial, changed variables)` names what it breaks); what all the ways left agree
    on holds. With `unique_ok` (the uniqueness variant), a pairing of the ends that can be
    drawn in two or more ways is dropped first, since swapping the two drawings would give
    a second solution; unique_ok says whether the area is free of clues that could tell the
    drawings apart. The enclosures of the last state asked and their checked tyings are kept
    with the graph, for the other variant's look at the same state (so a genre's callbacks
    must depend only on the state: the same for both).
    Params: {ends} {cells} {ways} {alive} {refuted} {result} (and {pairs} dropped as not unique)."""
    from grader.core.explain import describe_removals
    found, checked = last_answer(graph, "_cell_loops_enclosures", (state.cands, max_cells, max_ends, visit_values),
                                 lambda: (enclosures(graph, state, usable, max_cells=max_cells, max_ends=max_ends), {}))
    for enc in found:
        if enc not in checked:
            checked[enc] = _checked_tyings(graph, state, enc, must_visit, problem, visit_values)
        n_ways, alive, reasons, changed = checked[enc]
        if not alive:
            continue
        dropped: list[frozenset[frozenset[int]]] = []
        if unique_ok is not None:
            by_pairs: dict[frozenset[frozenset[int]], list[Tying]] = {}
            for w in alive:
                by_pairs.setdefault(w.pairs, []).append(w)
            dropped = [k for k, ws in by_pairs.items() if len(ws) > 1 and unique_ok(enc, ws)]
            if not dropped or len(dropped) == len(by_pairs):
                continue
            plain = tying_removals(state, alive, changed)
            alive = [w for w in alive if w.pairs not in dropped]
            removals = tying_removals(state, alive, changed)
            if removals == plain:
                continue              # uniqueness adds nothing: the plain technique's job
        else:
            removals = tying_removals(state, alive, changed)
        if not removals:
            continue
        names = graph.vertex_names
        yield Deduction(removals, {
            "ends": [names[a] for a in enc.ends], "cells": len(enc.cells), "ways": n_ways,
            "alive": len(alive), "refuted": _reasons(reasons),
            "pairs": "; ".join(" and ".join(f"{names[a]} to {names[b]}" for a, b in sorted(map(sorted, k)))
                               for k in dropped) if dropped else "none",
            "result": describe_removals(puzzle, state, removals)},
            cells=tuple(puzzle.cell(a) for a in enc.ends), region=tuple(puzzle.cell(v) for v in sorted(enc.cells)))
        return


def _checked_tyings(graph: LoopGraph, state: State, enc: Enclosure, must_visit: Callable[[int], bool],
                    problem: Callable[[State, list[int]], str], visit_values: tuple[int, int] | None
                    ) -> tuple[int, list[Tying], list[str], list[int]]:
    """(how many tyings an enclosure has, those that break no rule, what the others break, the
    variables they set); no tyings when there are too many."""
    ways = tyings(graph, state, enc, must_visit, visit_values)
    if not ways:
        return 0, [], [], []
    changed = sorted({graph.edge_vars[e] for v in enc.cells | set(enc.ends) for e in graph.incident[v]}
                     | {var for v in enc.cells if (var := graph.vertex_vars[v]) is not None})
    alive, reasons = [], []
    for w in ways:
        why = "" if all(w.state.cands) else "a cell would be left with no value"
        why = why or problem(w.state, changed)
        if why:
            reasons.append(why)
        else:
            alive.append(w)
    return len(ways), alive, reasons, changed


def _reasons(reasons: list[str]) -> str:
    """'3 ways break a rule (the line would end at r2c3; ...)' in a few words."""
    if not reasons:
        return "none breaks a rule"
    shown = sorted(set(reasons))[:3]
    more = "; ..." if len(set(reasons)) > 3 else ""
    return f"{len(reasons)} break a rule ({'; '.join(shown)}{more})"


def cells_by_ends(graph: LoopGraph, state: State, vertices: Iterable[int]) -> list[int]:
    """The vertices (of those given, in their order) where some way through would join the
    two ends of one line: a loose end beside its own other end, or an empty vertex beside
    both ends. Found from the ends (a few vertices per line), not by asking every vertex."""
    p = paths(graph, state)
    if p.pieces <= 1:
        return []
    cands, links, degree = state.cands, graph.links, p.degree
    joining = set()
    for a, b in p.end_of.items():
        for var, w in links[a]:
            if cands[var] != OPEN:
                continue
            if w == b:
                joining.add(a)
            elif not degree[w] and any(u == b and cands[wvar] == OPEN for wvar, u in links[w]):
                joining.add(w)
    return [v for v in vertices if v in joining] if joining else []


# --- level 4: every way to do something, each followed while forced --------------------------

def forced_lookahead(puzzle, graph: LoopGraph, state: State, subjects,
                     check: Callable[[State, list[int]], str]) -> Iterator[Deduction]:
    """For each subject (name, [(label, {var: value})] covering every possibility), draw each
    option, extend its new lines while each has only one way on (`follow`), and check the
    rules near what changed (`check(trial, changed)` names a broken one). What every option
    left agrees on holds. No filling with other techniques: only forced line moves. Each
    option is drawn on one scratch board and rubbed out again (a copy of the board per option
    was most of the cost on large boards): `check` reads its trial only while it runs.
    Params: {subject} {count} {refuted} {result}."""
    from grader.core.explain import describe_removals
    if 0 in state.cands:
        return              # every option would leave a variable empty: none is left
    board = list(state.cands)
    for name, options in subjects:
        if len(options) < 2:
            continue
        alive, dead, touched = [], [], set()
        for label, put in options:
            why, drawn = _follow_option(graph, state, board, put, check)
            touched.update(drawn)
            if why:
                dead.append(f"if {label}, {why}")
            else:
                alive.append(drawn)
        if not alive:
            continue
        removals = agreed_on(state, alive, touched)
        if removals:
            yield Deduction(removals, {"subject": name, "count": len(options),
                                       "refuted": "; ".join(dead) if dead else "none breaks a rule at once",
                                       "result": describe_removals(puzzle, state, removals)})
            return


def _follow_option(graph: LoopGraph, state: State, board: list[int], put: dict[int, int],
                   check: Callable[[State, list[int]], str]) -> tuple[str, dict[int, int]]:
    """(what the option breaks or '', the candidates it left to the variables it changed):
    `put` drawn on `board` (the state's candidates) and followed while forced, then rubbed out."""
    changed = list(put)
    try:
        for var, val in put.items():
            board[var] &= 1 << val
        if not all(board[var] for var in put):
            why = "a cell would be left with no value"
        else:
            for var, val in put.items():
                if val == LINE and var in graph.edge_of_var:
                    follow_on(graph, board, var, changed)
            why = check(State(board), changed)
        return why, {var: board[var] for var in changed}
    finally:
        cands = state.cands
        for var in changed:
            board[var] = cands[var]


# --- the family every cell-loop genre registers ------------------------------------------------

CASES = "Trial at {subject}: {outcome}."
# a deep case analysis: when nothing else works, each case filled in with level 4 too (a person
# following each case much further before giving up)
DEEP_PASSES = ((PASSES[-1][0], 4),)


def cases(name: str, *subjects: Callable[[Any, State], Iterable], level: int,
          passes: tuple[tuple[int, int], ...] | None = None):
    """A find function: case_analysis over the subjects each of `subjects` (puzzle, state)
    gives, in turn, remembered under `_<genre>_<name>`."""
    def find(puzzle, state: State, focus=None) -> Iterator[Deduction]:
        return case_analysis(puzzle, state, level, itertools.chain.from_iterable(s(puzzle, state) for s in subjects),
                             memo=f"_{puzzle.genre.name}_{name}", passes=passes)
    return find


ENCLOSURE_CELLS, ENCLOSURE_ENDS = 16, 6     # small enough to tie every way by hand


def enclosure_techniques(ways: Callable[[Any, State, bool], Iterator[Deduction]]) -> dict[str, Family]:
    """"enclosure" and "enclosure-unique", from the genre's ways(puzzle, state, unique)
    (enclosure_ways with its rules). Each genre's table gives the template: how its area is
    closed off and tied, and (unique) why nothing tells two drawings apart."""
    return {
        "enclosure": ({"name": "Tie the loose ends around an enclosed area",
                       "nudge": "Which loose ends lead into the area around {ends}?"},
                      lambda puzzle, state, focus=None: ways(puzzle, state, False)),
        "enclosure-unique": ({"name": "An enclosed area tied in two ways",
                              "nudge": "How could the loose ends at {ends} be tied without giving a second solution?"},
                             lambda puzzle, state, focus=None: ways(puzzle, state, True)),
    }


def lookahead(*subjects: Callable[[Any, State], Iterable],
              check: Callable[[Any, State, list[int]], str] | None = None):
    """A find function: forced_lookahead over the subjects each of `subjects` (puzzle, state)
    gives, in turn; check(puzzle, trial, changed) names a broken rule (default: the genre's
    local_problem)."""
    def find(puzzle, state: State, focus=None) -> Iterator[Deduction]:
        rules = check or puzzle.genre.local_problem
        return forced_lookahead(puzzle, puzzle.graph, state,
                                itertools.chain.from_iterable(s(puzzle, state) for s in subjects),
                                lambda trial, changed: rules(puzzle, trial, changed))
    return find


def end_subjects(puzzle, state: State):
    """Case-analysis subjects: each loose end, with every edge it may go on along."""
    return end_options(puzzle.graph, state)

END_CASES_TEXT = {"name": "Every way on from a loose end", "template": CASES,
                  "nudge": "Try each way on from the loose end at {subject}."}


def family(closes_ok: Callable[[Any, State], bool], branch_level: int,
           straight: Callable[[Any], Iterable[int]] = lambda puzzle: ()) -> dict[str, Family]:
    """The techniques Masyu and Yajilin share, for `register_families`: the loop family with
    the cell-loop wording, and parity, inside-outside, look-ahead and case analysis from loose
    ends. The puzzle is a GridLoop whose genre has `local_problem`; closes_ok(puzzle, closed
    state): would closing the loop this way finish a solution; straight(puzzle): the cells
    the loop runs straight through (Masyu's white pearls), for inside-outside; branch_level:
    the highest level of a case's fill."""
    def local_problem(puzzle):
        return lambda trial, changed: puzzle.genre.local_problem(puzzle, trial, changed)

    loop = loops.family(closes_ok)
    return {
        **loop,
        "cell-full": (CELL_FULL_TEXT, loop["vertex-full"][1]),
        "loose-end": (LOOSE_END_TEXT, loop["vertex-extend"][1]),
        "no-early-loop": (NO_EARLY_LOOP_TEXT, loop["premature-loop"][1]),
        "parity": (PARITY_TEXT, lambda puzzle, state, focus=None:
                   cut_parity(puzzle.graph, puzzle.rows, puzzle.cols, state, focus)),
        "inside-outside": (INSIDE_OUTSIDE_TEXT, lambda puzzle, state, focus=None: inside_outside(
            puzzle.graph, puzzle.rows, puzzle.cols, state, focus, straight=straight(puzzle))),
        "end-lookahead": (END_LOOKAHEAD_TEXT, lambda puzzle, state, focus=None:
                          end_lookahead(puzzle.graph, state, local_problem(puzzle), focus)),
        "end-cases": (END_CASES_TEXT, cases("end_cases", end_subjects, level=branch_level)),
    }
