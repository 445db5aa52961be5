"""Loop techniques shared by every loop genre (Slitherlink, Masyu, Yajilin), on the facts of
grader/kernels/loops.py (the graph, the pieces of line, the loop rules).

The finders yield `Deduction`s with these template fields, so each genre registers them as
its own heuristics with its own wording:

    vertex_full       {vertex} {lines} {edges}   two lines meet: the other edges are crossed
    vertex_extend     {vertex} {line} {edge}     one line in, one way out: take it
    vertex_required   {vertex} {edges}           must be visited, exactly two ways: take both
    vertex_dead_end   {vertex} {edge}            one open edge, no line: a dead end, crossed
    vertex_forbidden  {vertex} {edges}           cannot be visited: its edges are crossed
    premature_loop    {edge} {ends} {reason}     closing this path would end the loop too soon
    isolated_areas    {edges} {vertex}           an area cut off from every line: crossed
    dead_end_areas    {edge} {vertex}            the only way into an area: crossed (no way back)
    two_ways_across   {edges} {a} {b}            edges any two of which cut the board, with places
                                                 to visit on both sides: all carry the loop
    loop_closed       {cell} {count}             the lines close one loop: every open edge is crossed

A genre registers those it uses with `register_families(genre, family(closes_ok, required))`:
the rows of its table (rules/techniques/<genre>.yaml) that name one of them, in its own words.
"""
from __future__ import annotations

import collections
from typing import Any, Callable, Iterable, Iterator, Sequence

import attrs

from grader.core.model import State
from grader.core.registry import Family
from grader.core.steps import Deduction, resuming
from grader.kernels.loops import (B_CROSS, B_LINE, CROSS, LINE, OPEN, LoopGraph, Paths, Required, by_crossings,
                                  cycle_through, label_parts, names_of, open_regions, paths, split, vars_of)


# --- vertex degree rules (level 1) -----------------------------------------------------------

# A vertex rule reads only the vertex's edges (and its own variable): a vertex its look passed
# gives nothing until one of those changes, so the next look goes on from where this one found
# something (Deduction.resume), asked for by each later vertex's key (LoopGraph.vertex_keys).
# A solve whose level-1 rules keep finding no longer rescans the board from its first vertex.

def vertex_full(graph: LoopGraph, state: State, focus=None) -> Iterator[Deduction]:
    """Two lines meet at a vertex: its other edges are crossed."""
    sites = graph.vertices_to_check(focus)
    for at, v in enumerate(sites):
        lines, open_ = split(graph, state.cands, v)
        if len(lines) == 2 and open_:
            yield resuming(Deduction.build(state, put={graph.edge_vars[e]: CROSS for e in open_},
                                           premises=vars_of(graph, lines),
                                           params={"vertex": graph.vertex_names[v],
                                                   "lines": names_of(graph, lines), "edges": names_of(graph, open_)}),
                           sites, at, graph.vertex_keys)


def vertex_extend(graph: LoopGraph, state: State, focus=None) -> Iterator[Deduction]:
    """One line reaches a vertex with a single open edge left: the line goes on through it."""
    sites = graph.vertices_to_check(focus)
    for at, v in enumerate(sites):
        lines, open_ = split(graph, state.cands, v)
        if len(lines) == 1 and len(open_) == 1:
            crossed = [e for e in graph.incident[v] if e not in lines and e not in open_]
            yield resuming(Deduction.build(state, put={graph.edge_vars[open_[0]]: LINE},
                                           premises=vars_of(graph, lines + crossed),
                                           params={"vertex": graph.vertex_names[v],
                                                   "line": graph.edge_names[lines[0]],
                                                   "edge": graph.edge_names[open_[0]]}),
                           sites, at, graph.vertex_keys)


def vertex_required(graph: LoopGraph, state: State, required: Required,
                    focus=None) -> Iterator[Deduction]:
    """A vertex the loop must visit, with exactly two edges not crossed: both carry the line."""
    sites = graph.vertices_to_check(focus)
    for at, v in enumerate(sites):
        if not required(state, v):
            continue                # (asked first: cheaper than the edges)
        lines, open_ = split(graph, state.cands, v)
        if open_ and len(lines) < 2 and len(lines) + len(open_) == 2:
            crossed = [e for e in graph.incident[v] if e not in lines and e not in open_]
            yield resuming(Deduction.build(state, put={graph.edge_vars[e]: LINE for e in open_},
                                           premises=vars_of(graph, crossed),
                                           params={"vertex": graph.vertex_names[v], "edges": names_of(graph, open_)}),
                           sites, at, graph.vertex_keys)


def vertex_dead_end(graph: LoopGraph, state: State, required: Required | None = None,
                    focus=None) -> Iterator[Deduction]:
    """A vertex without a line and only one open edge: the loop cannot pass, so it is crossed.
    (A vertex that must be visited is left to violations: that is a contradiction.)"""
    sites = graph.vertices_to_check(focus)
    for at, v in enumerate(sites):
        lines, open_ = split(graph, state.cands, v)
        if not lines and len(open_) == 1 and not (required and required(state, v)):
            crossed = [e for e in graph.incident[v] if e != open_[0]]
            yield resuming(Deduction.build(state, put={graph.edge_vars[open_[0]]: CROSS},
                                           premises=vars_of(graph, crossed),
                                           params={"vertex": graph.vertex_names[v], "edge": graph.edge_names[open_[0]]}),
                           sites, at, graph.vertex_keys)


def vertex_forbidden(graph: LoopGraph, state: State, required: Required,
                     focus=None) -> Iterator[Deduction]:
    """A vertex the loop cannot visit: every open edge at it is crossed."""
    sites = graph.vertices_to_check(focus)
    for at, v in enumerate(sites):
        if required(state, v) is not False:
            continue                # (asked first: cheaper than the edges)
        lines, open_ = split(graph, state.cands, v)
        if open_:
            yield resuming(Deduction.build(state, put={graph.edge_vars[e]: CROSS for e in open_},
                                           params={"vertex": graph.vertex_names[v], "edges": names_of(graph, open_)}),
                           sites, at, graph.vertex_keys)


def loop_closed(graph: LoopGraph, state: State, focus=None) -> Iterator[Deduction]:
    """The lines already form one closed loop, and there is only one loop: every edge still
    open is crossed out.   Params: {cell} (a cell on the loop), {count}"""
    if focus is not None:
        # a loop can only have closed through an edge that changed
        if not any(state.cands[var] == B_LINE and cycle_through(graph, state, graph.edge_of_var[var])
                   for var in focus if var in graph.edge_of_var):
            return
    p = paths(graph, state)
    if p.pieces != 1 or len(p.loops) != 1:
        return
    open_ = [var for var in graph.edge_vars if state.cands[var] == OPEN]
    if open_:
        first = next(v for v in range(graph.n_vertices) if p.degree[v])
        yield Deduction.build(state, put={v: CROSS for v in open_},
                              params={"cell": graph.vertex_names[first], "count": len(open_)})


def premature_loop(graph: LoopGraph, state: State, closes_ok: Callable[[State], bool],
                   required: Required | None = None, focus=None) -> Iterator[Deduction]:
    """An open edge joining the two ends of one path closes a loop; the loop is the whole
    answer, so unless closing it completes a valid solution, the edge is crossed.

    closes_ok(state) gets the complete state with that edge drawn and every other open edge
    crossed and says whether it is a solution (the genre's other rules: clues, pearls). It is
    only asked when no other line and no required vertex is left outside."""
    p = paths(graph, state)
    # a change anywhere can finish or spoil the rest of the board, so every end is checked;
    # only a path whose ends an edge joins can close (looked up before sorting: most cannot)
    between = graph.between
    for a in sorted(a for a, b in p.end_of.items() if a < b and (a, b) in between):
        b = p.end_of[a]
        for e in between[a, b]:
            var = graph.edge_vars[e]
            if state.cands[var] != OPEN:
                continue
            reason = _closing_fails(graph, state, p, a, e, closes_ok, required)
            if reason:
                yield Deduction.build(state, put={var: CROSS},
                                      params={"edge": graph.edge_names[e],
                                              "ends": [graph.vertex_names[a], graph.vertex_names[b]],
                                              "reason": reason})


def _closing_fails(graph: LoopGraph, state: State, p: Paths, a: int, e: int,
                   closes_ok: Callable[[State], bool], required: Required | None) -> str:
    """Why closing the path ending at `a` with edge `e` cannot be the answer, or ''."""
    if p.pieces > 1:
        return "other lines would be left outside the loop"
    if required is not None:
        for v in range(graph.n_vertices):
            if p.comp[v] == -1 and required(state, v):
                return f"{graph.vertex_names[v]} would be left off the loop"
    closed = closed_state(graph, state, e)
    if not closes_ok(closed):
        return "the finished loop would break a clue"
    return ""


def closed_state(graph: LoopGraph, state: State, e: int) -> State:
    """The complete state with edge e drawn and every other open edge crossed."""
    cands = list(state.cands)
    for f, var in enumerate(graph.edge_vars):
        if cands[var] == OPEN:
            cands[var] = B_LINE if f == e else B_CROSS
    return State(tuple(cands))


# --- connectivity: the loop is one piece ----------------------------------------------------------

def _must_visit(graph: LoopGraph, state: State, p: Paths, required: Required | None) -> list[bool]:
    if required is None:
        return [d > 0 for d in p.degree]
    return [d > 0 or bool(required(state, v)) for v, d in enumerate(p.degree)]


def isolated_areas(graph: LoopGraph, state: State, required: Required | None = None,
                   focus=None) -> Iterator[Deduction]:
    """Once some line is drawn, an area that crossed edges cut off from every line can never
    hold part of the loop: its open edges are crossed.   Params: {edges} {vertex}"""
    p = paths(graph, state)
    if not p.lines or p.loops:
        return
    if focus is not None and _looked_with_lines(graph, state, p, focus):
        groups = _areas_split_off(graph, state, p, required, focus)
    else:
        must = _must_visit(graph, state, p, required)
        groups = [group for group in open_regions(graph, state) if not any(must[v] for v in group)]
    for group in groups:
        members = set(group)
        edges = sorted({e for v in group for e in graph.incident[v]
                        if state.cands[graph.edge_vars[e]] == OPEN and graph.other(e, v) in members})
        if edges:
            yield Deduction.build(state, put={graph.edge_vars[e]: CROSS for e in edges},
                                  params={"edges": names_of(graph, edges), "vertex": graph.vertex_names[group[0]]})
            return


def _looked_with_lines(graph: LoopGraph, state: State, p: Paths, focus: frozenset[int]) -> bool:
    """Did the look that last found nothing (before the changes in `focus`) see a line, in a
    state that was not broken? Then every area it passed held a vertex the loop must visit, or
    no open edge: a line is never taken back, nor is a vertex the loop must visit."""
    cands, edge_of_var = state.cands, graph.edge_of_var
    if any(not cands[var] for var in focus):
        return False
    new_lines = sum(1 for var in focus if var in edge_of_var and cands[var] == B_LINE)
    return p.lines > new_lines


def _areas_split_off(graph: LoopGraph, state: State, p: Paths, required: Required | None,
                     focus: frozenset[int]) -> list[list[int]]:
    """The areas without a vertex the loop must visit that edges crossed out since the last
    look split off, by their smallest vertex (the order of open_regions). Every other area is
    one that look passed. The walk from an end of a crossed edge stops at the first vertex the
    loop must visit: usually a step or two into the board's big area."""
    cands, links, degree = state.cands, graph.links, p.degree
    seeds = sorted({v for var in focus if var in graph.edge_of_var and not cands[var] & B_LINE
                    for v in graph.ends[graph.edge_of_var[var]]})
    walk_of: dict[int, int] = {}        # vertex -> the seed whose walk reached it
    out = []
    for s in seeds:
        if s in walk_of:
            continue            # (in an area walked already: split off, or one with a must-visit)
        walk_of[s] = s
        group, stack, needed = [], [s], False
        while stack and not needed:
            v = stack.pop()
            group.append(v)
            if degree[v] or (required is not None and required(state, v)):
                needed = True
            for var, w in links[v]:
                if cands[var] & B_LINE:
                    if w not in walk_of:
                        walk_of[w] = s
                        stack.append(w)
                    elif walk_of[w] != s:
                        needed = True   # the area of an earlier walk, which stopped at a must-visit
        if not needed:
            out.append(sorted(group))
    return sorted(out)


# --- cuts: a loop crosses any cut of the board an even number of times ------------------------

@attrs.frozen
class Gaps:
    """Where the edges that are not crossed out leave only one or two ways between parts of
    the board.

    bridges: (edge, a vertex beyond it) for each edge whose removal splits its part in two:
    no loop can use it, since it could never come back; classes: groups of two or more edges,
    removing any two of which splits the board (the parts form a ring joined by these edges),
    kept only when at least two of the parts hold vertices the loop must visit."""
    bridges: tuple[tuple[int, int], ...]
    classes: tuple[tuple[int, ...], ...]


def gaps(graph: LoopGraph, state: State, required: Required | None) -> Gaps:
    """Bridges and two-edge cuts of the edges not crossed out (once per state).

    Each edge off a depth-first spanning tree gets a random label and each tree edge the XOR
    of the labels of the edges that jump over it: a tree edge labelled 0 is a bridge, and
    edges with equal labels are exactly the pairs that cut the board. Labels are fixed per
    graph, so the result is reproducible; every claim is checked by a search before use."""
    return state.derived(("loops.gaps", id(graph), required is None),
                         lambda: _gaps(graph, state, required))


@attrs.frozen
class _Tree:
    """A depth-first spanning forest of the edges not crossed out, with cut labels."""
    order: list[int]             # vertices, parents first
    up: list[int]                # the tree edge to the parent, or -1 at a root
    parent: list[int]            # the vertex at the other end of that edge, or -1
    depth: list[int]
    root_of: list[int]
    label: dict[int, int]        # tree edge -> XOR of the labels of the edges jumping over it
    off_tree: list[int]          # the other edges (each jumps from a vertex to an ancestor)
    bridges: list[int]           # vertices whose tree edge up is a bridge (label 0)
    classes: list[tuple[list[int], list[int]]]   # see _classes


def _shared_tree(graph: LoopGraph, state: State) -> _Tree:
    """The tree of a state: it depends only on which edges are crossed out (kept by the solve
    under its crossings, see by_crossings)."""
    def kept() -> _Tree:
        t = by_crossings(graph, state, "loops.tree", lambda: _tree(graph, state))
        # each tree's root is the smallest vertex of its part: the parts of the board, too
        by_crossings(graph, state, "loops.open_parts", lambda: t.root_of)
        return t
    return state.derived(("loops.tree", id(graph)), kept)


def _tree(graph: LoopGraph, state: State) -> _Tree:
    n, cands, adj = graph.n_vertices, state.cands, graph.arcs
    labels = graph.cut_labels
    depth, up, parent, root_of, acc = [-1] * n, [-1] * n, [-1] * n, [-1] * n, [0] * n
    order: list[int] = []
    off_tree: list[int] = []
    for root in range(n):
        if depth[root] >= 0:
            continue
        depth[root], root_of[root] = 0, root
        order.append(root)
        stack = [(root, iter(adj[root]))]
        while stack:
            v, it = stack[-1]
            came, dv = up[v], depth[v]
            for e, var, w in it:
                if e == came or not cands[var] & B_LINE:
                    continue
                if depth[w] < 0:
                    depth[w], up[w], parent[w], root_of[w] = dv + 1, e, v, root
                    order.append(w)
                    stack.append((w, iter(adj[w])))
                    break
                if depth[w] < dv:                # an edge back to an ancestor, seen from below
                    acc[v] ^= labels[e]
                    acc[w] ^= labels[e]
                    off_tree.append(e)
            else:
                stack.pop()
    label = {}
    for v in reversed(order):
        e = up[v]
        if e >= 0:
            acc[parent[v]] ^= acc[v]
            label[e] = acc[v]
    bridges = [v for v in order if up[v] >= 0 and not label[up[v]]]
    return _Tree(order, up, parent, depth, root_of, label, off_tree, bridges,
                 _classes(order, up, label, off_tree, labels))


def _classes(order: list[int], up: list[int], label: dict[int, int], off_tree: list[int],
             labels: Sequence[int]) -> list[tuple[list[int], list[int]]]:
    """Groups of two or more edges with one label: (tree vertices below their edges, shallowest
    first; edges off the tree, at most one)."""
    # most labels are on one edge only: find the others first, at C speed
    on_tree = collections.Counter(label.values())
    off = set(map(labels.__getitem__, off_tree))
    shared = {x for x, n in on_tree.items() if x and (n > 1 or x in off)}
    by_label: dict[int, tuple[list[int], list[int]]] = {}
    if shared:
        for v in order:
            e = up[v]
            if e >= 0 and label[e] in shared:
                by_label.setdefault(label[e], ([], []))[0].append(v)
        for e in off_tree:
            if labels[e] in shared:
                by_label[labels[e]][1].append(e)
    return list(by_label.values())


def _cut_classes(graph: LoopGraph, state: State) -> list[tuple[int, ...]]:
    """Every group of edges any two of which cut the board (for tests)."""
    t = _tree(graph, state)
    return sorted(tuple(sorted([t.up[v] for v in vs] + extra)) for vs, extra in t.classes)


def _gaps(graph: LoopGraph, state: State, required: Required | None) -> Gaps:
    p = paths(graph, state)
    must = _must_visit(graph, state, p, required)
    t = _shared_tree(graph, state)
    sub = [0] * graph.n_vertices          # must-visit vertices in each subtree
    parent = t.parent
    for v in reversed(t.order):
        sub[v] += must[v]
        if parent[v] >= 0:
            sub[parent[v]] += sub[v]
    bridges = []
    for v in t.bridges:
        e = t.up[v]
        total = sub[t.root_of[v]]
        # name a vertex on a side the loop cannot need (the far side when both do)
        beyond = v if sub[v] == 0 or total - sub[v] else graph.other(e, v)
        bridges.append((e, beyond))
    classes = []
    for vs, extra in t.classes:
        # the parts between consecutive tree edges, the one below the last, and the one above
        # the first (which joins the one below unless an edge off the tree is in the group)
        total = sub[t.root_of[vs[0]]] if vs else 0
        parts = [sub[a] - sub[b] for a, b in zip(vs, vs[1:])]
        if vs:
            bottom, top = sub[vs[-1]], total - sub[vs[0]]
            parts += [bottom, top] if extra else [bottom + top]
        if sum(1 for x in parts if x) >= 2:
            classes.append(tuple(sorted([t.up[v] for v in vs] + extra)))
    return Gaps(tuple(sorted(bridges)), tuple(sorted(classes)))


def _parts_without(graph: LoopGraph, state: State, removed: Iterable[int]) -> list[int]:
    """The part of every vertex once the `removed` edges (and crossed ones) are gone."""
    return label_parts(graph, state.cands, {graph.edge_vars[e] for e in removed})


def _ring(graph: LoopGraph, comp: list[int], edges: Sequence[int]) -> bool:
    """Do the edges join the parts they touch into one ring (each part met exactly twice)?"""
    seen: dict[int, int] = {}
    for e in edges:
        a, b = graph.ends[e]
        if comp[a] == comp[b]:
            return False
        for c in (comp[a], comp[b]):
            seen[c] = seen.get(c, 0) + 1
    return len(seen) == len(edges) and all(x == 2 for x in seen.values())


# Sentences for these (every loop genre words them the same way)
DEAD_END_AREA = ("{edge} is the only way between the area around {vertex} and the rest of the board: "
                 "a loop that crossed it could never come back, so it is crossed out.")
DEAD_END_AREA_NUDGE = "Could the loop ever get back out of the area around {vertex}?"
TWO_WAYS = ("The loop must pass {a} and {b}, and the only ways between them are {edges}, any two of "
            "which cut the board in two. The loop crosses every such cut an even number of times, so it "
            "uses all of them: {edges} carry the loop.")
TWO_WAYS_NUDGE = "How many ways are left between {a} and {b}?"


def dead_end_areas(graph: LoopGraph, state: State, required: Required | None = None,
                   focus=None) -> Iterator[Deduction]:
    """An edge that is the only link between two parts of the board: a loop that crossed it
    could never come back, so it is crossed out (a contradiction if it has a line).
    Params: {edge} {vertex} (a vertex beyond it)"""
    if focus is not None and all(var not in graph.edge_of_var or state.cands[var] & B_LINE for var in focus):
        return          # no edge crossed out since this found nothing: the bridges are the same
    if not _shared_tree(graph, state).bridges:
        return          # (kept by crossings) no bridge: no need for the parts the loop must visit
    for e, beyond in gaps(graph, state, required).bridges:
        comp = _parts_without(graph, state, (e,))
        a, b = graph.ends[e]
        if comp[a] == comp[b]:
            continue                      # labels collided: not a bridge after all
        yield Deduction.build(state, put={graph.edge_vars[e]: CROSS},
                              params={"edge": graph.edge_names[e], "vertex": graph.vertex_names[beyond]})
        return


def two_ways_across(graph: LoopGraph, state: State, required: Required | None = None,
                    focus=None) -> Iterator[Deduction]:
    """Edges of which any two split the board, with places the loop must visit in two of the
    parts: the loop crosses each such split an even number of times, and at least once, so
    it uses every one of these edges.   Params: {edges} {a} {b} (must-visit vertices apart)"""
    p = None
    for edges in gaps(graph, state, required).classes:
        if all(state.cands[graph.edge_vars[e]] == B_LINE for e in edges):
            continue
        comp = _parts_without(graph, state, edges)
        if not _ring(graph, comp, edges):
            continue
        p = p or paths(graph, state)
        must = _must_visit(graph, state, p, required)
        where: dict[int, int] = {}
        for v in range(graph.n_vertices):
            if must[v] and comp[v] not in where:
                where[comp[v]] = v
        parts = {comp[x] for e in edges for x in graph.ends[e]}
        apart = [v for c, v in where.items() if c in parts]
        if len(apart) < 2:
            continue
        yield Deduction.build(state, put={graph.edge_vars[e]: LINE for e in edges},
                              params={"edges": names_of(graph, edges), "a": graph.vertex_names[apart[0]],
                                      "b": graph.vertex_names[apart[1]]})
        return


# --- the family, for grader.core.registry.register_families ---------------------------------------

DEAD_END_AREA_TEXT = {"name": "An area with one way in", "template": DEAD_END_AREA, "nudge": DEAD_END_AREA_NUDGE}
TWO_WAYS_TEXT = {"name": "Every way across is needed", "template": TWO_WAYS, "nudge": TWO_WAYS_NUDGE}


def family(closes_ok: Callable[[Any, State], bool],
           required: Callable[[Any], Required | None] = lambda puzzle: puzzle.required
           ) -> dict[str, Family]:
    """The techniques above as find functions of a puzzle with a `graph`, for
    `register_families` (those without a wording here are worded in each genre's table).
    closes_ok(puzzle, closed state): would closing the loop this way finish a solution;
    required(puzzle): the puzzle's Required callback, or None where no vertex must be visited."""
    return {
        "vertex-full": (None, lambda puzzle, state, focus=None: vertex_full(puzzle.graph, state, focus)),
        "vertex-extend": (None, lambda puzzle, state, focus=None: vertex_extend(puzzle.graph, state, focus)),
        "vertex-required": (None, lambda puzzle, state, focus=None:
                            vertex_required(puzzle.graph, state, required(puzzle), focus)),
        "vertex-dead-end": (None, lambda puzzle, state, focus=None:
                            vertex_dead_end(puzzle.graph, state, required(puzzle), focus)),
        "loop-closed": (None, lambda puzzle, state, focus=None: loop_closed(puzzle.graph, state, focus)),
        "premature-loop": (None, lambda puzzle, state, focus=None: premature_loop(
            puzzle.graph, state, lambda closed: closes_ok(puzzle, closed), required(puzzle), focus)),
        "isolated-areas": (None, lambda puzzle, state, focus=None:
                           isolated_areas(puzzle.graph, state, required(puzzle), focus)),
        "dead-end-area": (DEAD_END_AREA_TEXT, lambda puzzle, state, focus=None:
                          dead_end_areas(puzzle.graph, state, required(puzzle), focus)),
        "two-ways-across": (TWO_WAYS_TEXT, lambda puzzle, state, focus=None:
                            two_ways_across(puzzle.graph, state, required(puzzle), focus)),
    }
