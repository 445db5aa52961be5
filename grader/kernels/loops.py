"""The loop genres' shared facts (Slitherlink, Masyu, Yajilin): the graph a loop is drawn
on, the pieces of line a state holds, and the loop rules a state already breaks.

A loop genre draws one closed loop, without crossings or branches, along the edges of a
graph. `LoopGraph` is that graph, built once per puzzle (a cached_property on the puzzle):
vertices, edges, the edges at each vertex, and the state variable of each edge, whose
candidates are CROSS (0, no line) and LINE (1).

Whether a vertex must be visited differs by genre, so every rule that cares takes a
`required(state, v)` callback answering True (must be visited: a Masyu pearl), False (cannot
be visited: a shaded Yajilin cell) or None (not known, or not a rule: a Slitherlink dot).

`loop_violations` lists what a partial state already breaks (degree 3, a dead end, a closed
loop leaving lines or required vertices outside, lines that crossed edges keep apart); on a
complete state it is exact for the loop rule. `local_loop_problem` is the quick version near a
few changed edges (look-ahead). `paths(graph, state)` gives the pieces of line (shared per
state); `open_regions` the areas the loop could still use. A fact that depends only on which
edges are crossed out (`open_parts`, the cut tree of heuristics/common/loops.py) is kept by the
running solve under those crossings (`by_crossings`): trials come back to them again and
again. The techniques built on these are in heuristics/common/loops.py.
"""
from __future__ import annotations

import functools
import random
from typing import Any, Callable, Collection, Iterable, Sequence

import attrs

from grader.core.model import State, Violation
from grader.kernels.recent import narrowed, recent_of

CROSS, LINE = 0, 1
B_CROSS, B_LINE = 1 << CROSS, 1 << LINE
OPEN = B_CROSS | B_LINE

Required = Callable[[State, int], "bool | None"]


VERTICES_NEAR_REMEMBERED = 256        # focuses whose vertices are kept (those of the latest steps)


@attrs.frozen(slots=False)
class LoopGraph:
    """The graph a loop is drawn on. Vertices and edges are numbered from 0.

    vertex_names: how each vertex is written in sentences (a dot, a cell such as r3c4);
    ends: the two vertices of each edge; edge_vars: the state variable of each edge;
    edge_names: how each edge is written (default "a-b" from the vertex names);
    vertex_vars: an extra variable per vertex that decides whether it is visited (a
    Yajilin cell's shading), or None, so a change there re-checks the vertex;
    coords: optional (x, y) per vertex for drawing general graphs.
    """
    vertex_names: tuple[str, ...]
    ends: tuple[tuple[int, int], ...]
    edge_vars: tuple[int, ...]
    edge_names: tuple[str, ...] = attrs.field()
    vertex_vars: tuple[int | None, ...] = attrs.field()
    coords: tuple[tuple[float, float], ...] | None = None

    @edge_names.default
    def _edge_names(self) -> tuple[str, ...]:
        return tuple(f"{self.vertex_names[a]}-{self.vertex_names[b]}" for a, b in self.ends)

    @vertex_vars.default
    def _vertex_vars(self) -> tuple[int | None, ...]:
        return (None,) * len(self.vertex_names)

    @property
    def n_vertices(self) -> int:
        return len(self.vertex_names)

    @property
    def n_edges(self) -> int:
        return len(self.ends)

    @functools.cached_property
    def incident(self) -> tuple[tuple[int, ...], ...]:
        """The edges at each vertex."""
        out: list[list[int]] = [[] for _ in self.vertex_names]
        for e, (a, b) in enumerate(self.ends):
            out[a].append(e)
            if b != a:
                out[b].append(e)
        return tuple(tuple(x) for x in out)

    @functools.cached_property
    def edge_of_var(self) -> dict[int, int]:
        return {var: e for e, var in enumerate(self.edge_vars)}

    @functools.cached_property
    def vertices_of_var(self) -> dict[int, tuple[int, ...]]:
        """The vertices a variable's change can affect (the ends of an edge, a vertex's own var)."""
        out: dict[int, set[int]] = {}
        for e, var in enumerate(self.edge_vars):
            out.setdefault(var, set()).update(self.ends[e])
        for v, var in enumerate(self.vertex_vars):
            if var is not None:
                out.setdefault(var, set()).add(v)
        return {var: tuple(sorted(vs)) for var, vs in out.items()}

    @functools.cached_property
    def vertex_keys(self) -> tuple[int | None, ...]:
        """For each vertex, a variable whose focused look visits it (see vertices_to_check):
        its own, else its first edge's (None for a vertex without either, which no vertex
        rule can act on)."""
        return tuple(var if var is not None else (self.edge_vars[es[0]] if es else None)
                     for var, es in zip(self.vertex_vars, self.incident))

    @functools.cached_property
    def between(self) -> dict[tuple[int, int], tuple[int, ...]]:
        """The edges joining two vertices, keyed by (smaller, larger)."""
        out: dict[tuple[int, int], list[int]] = {}
        for e, (a, b) in enumerate(self.ends):
            out.setdefault((min(a, b), max(a, b)), []).append(e)
        return {k: tuple(v) for k, v in out.items()}

    @functools.cached_property
    def links(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """For each vertex, its (edge variable, vertex beyond) pairs: walks without lookups."""
        return tuple(tuple((self.edge_vars[e], self.other(e, v)) for e in es)
                     for v, es in enumerate(self.incident))

    @functools.cached_property
    def arcs(self) -> tuple[tuple[tuple[int, int, int], ...], ...]:
        """For each vertex, its (edge, edge variable, vertex beyond) triples."""
        return tuple(tuple((e, self.edge_vars[e], self.other(e, v)) for e in es)
                     for v, es in enumerate(self.incident))

    @functools.cached_property
    def cut_labels(self) -> tuple[int, ...]:
        """A fixed random 62-bit label per edge (see `gaps`)."""
        rng = random.Random(len(self.ends) * 7919 + self.n_vertices)
        return tuple(rng.getrandbits(62) | 1 for _ in self.ends)

    def other(self, e: int, v: int) -> int:
        a, b = self.ends[e]
        return b if a == v else a

    def edges_between(self, a: int, b: int) -> tuple[int, ...]:
        return self.between.get((min(a, b), max(a, b)), ())

    def edge_var(self, e: int) -> int:
        return self.edge_vars[e]

    def vertices_to_check(self, focus: frozenset[int] | None) -> Iterable[int]:
        """Every vertex, or only those next to a changed variable."""
        if focus is None:
            return range(self.n_vertices)
        near = self.vertices_of_var
        if len(focus) == 1:
            for var in focus:
                return near.get(var, ())        # (already sorted: most steps of a fill change one)
        # each rule's look has its own focus, and the rules take turns: a few answers are kept
        memo = self.__dict__.setdefault("_vertices_to_check", {})
        focus = frozenset(focus)            # (the same object when it is one already)
        found = memo.get(focus)
        if found is None:
            if len(memo) >= VERTICES_NEAR_REMEMBERED:
                memo.clear()
            found = memo[focus] = tuple(sorted({v for var in focus for v in near.get(var, ())}))
        return found

    @classmethod
    def cell_grid(cls, rows: int, cols: int, first_var: int = 0,
                  vertex_vars: Sequence[int | None] | None = None) -> "LoopGraph":
        """The grid graph of cells (Masyu, Yajilin): vertex r*cols+c, named r3c4.

        Edges: first every horizontal link r(i)c(j)-r(i)c(j+1) row by row, then every vertical
        link r(i)c(j)-r(i+1)c(j); edge e has variable first_var + e."""
        names = tuple(f"r{r + 1}c{c + 1}" for r in range(rows) for c in range(cols))
        ends = [(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)]
        ends += [(r * cols + c, (r + 1) * cols + c) for r in range(rows - 1) for c in range(cols)]
        coords = tuple((c + 0.5, r + 0.5) for r in range(rows) for c in range(cols))
        return cls(names, tuple(ends), tuple(range(first_var, first_var + len(ends))),
                   vertex_vars=tuple(vertex_vars) if vertex_vars is not None else (None,) * len(names),
                   coords=coords)


# --- what a state says about a vertex ------------------------------------------------------

def split(graph: LoopGraph, cands: Sequence[int], v: int) -> tuple[list[int], list[int]]:
    """(edges with a line, edges still open) at vertex v, given the candidates of a state."""
    lines, open_ = [], []
    for e, var, _ in graph.arcs[v]:
        m = cands[var]
        if m == B_LINE:
            lines.append(e)
        elif m == OPEN:
            open_.append(e)
    return lines, open_


def degree(graph: LoopGraph, state: State, v: int) -> int:
    return sum(1 for e in graph.incident[v] if state.cands[graph.edge_vars[e]] == B_LINE)


def line_span(cands: Sequence[int], edge_vars: Iterable[int]) -> tuple[int, int]:
    """(lines, lines at most) among the edge variables: those drawn, and those drawn or open."""
    lines = most = 0
    for var in edge_vars:
        m = cands[var]
        if m == B_LINE:
            lines += 1
            most += 1
        elif m == OPEN:
            most += 1
    return lines, most


def names_of(graph: LoopGraph, edges: Iterable[int]) -> list[str]:
    return [graph.edge_names[e] for e in edges]


def vars_of(graph: LoopGraph, edges: Iterable[int]) -> list[int]:
    return [graph.edge_vars[e] for e in edges]


# --- paths of lines ----------------------------------------------------------------------------

@attrs.frozen
class Paths:
    """The lines of a state, grouped into connected pieces.

    comp: the piece of each vertex (-1 without lines); piece numbers are labels, not
    positions; degree: lines at each vertex; end_of: for each end of a simple open path, the
    other end; loops: pieces that are closed (every vertex has two lines); pieces: number of
    pieces; lines: number of line edges; edges_in: line edges per piece; branching: vertices
    with three or more lines; members and ends: the vertices, and those with one line, of each
    piece; branched: pieces with a branching vertex.
    """
    comp: tuple[int, ...]
    degree: tuple[int, ...]
    end_of: dict[int, int]
    loops: tuple[int, ...]
    pieces: int
    lines: int
    edges_in: dict[int, int]
    branching: tuple[int, ...]
    members: dict[int, tuple[int, ...]] = attrs.field(factory=dict, eq=False, repr=False)
    ends: dict[int, tuple[int, ...]] = attrs.field(factory=dict, eq=False, repr=False)
    branched: frozenset[int] = frozenset()


def _compute_paths(graph: LoopGraph, state: State) -> Paths:
    n = graph.n_vertices
    cands, ends_of = state.cands, graph.ends
    line_edges = [e for e, var in enumerate(graph.edge_vars) if cands[var] == B_LINE]
    deg = [0] * n
    nbrs: dict[int, list[int]] = {}
    for e in line_edges:
        a, b = ends_of[e]
        deg[a] += 1
        deg[b] += 1
        nbrs.setdefault(a, []).append(b)
        nbrs.setdefault(b, []).append(a)
    comp = [-1] * n
    members: dict[int, tuple[int, ...]] = {}
    ends: dict[int, tuple[int, ...]] = {}
    branched: set[int] = set()
    k = 0
    for s in sorted(nbrs):
        if comp[s] >= 0:
            continue
        comp[s] = k
        stack, mine = [s], [s]
        while stack:
            v = stack.pop()
            for w in nbrs[v]:
                if comp[w] < 0:
                    comp[w] = k
                    stack.append(w)
                    mine.append(w)
        members[k] = tuple(mine)
        ends[k] = tuple(sorted(v for v in mine if deg[v] == 1))
        if any(deg[v] > 2 for v in mine):
            branched.add(k)
        k += 1
    edges_in = dict.fromkeys(members, 0)
    for e in line_edges:
        edges_in[comp[ends_of[e][0]]] += 1
    return _finish(comp, deg, members, ends, branched, edges_in, len(line_edges),
                   sorted(v for v in nbrs if deg[v] > 2))


def _finish(comp, deg, members, ends, branched, edges_in, lines, branching) -> Paths:
    end_of: dict[int, int] = {}
    loops = []
    for c, es in ends.items():
        if c in branched:
            continue
        if len(es) == 2:
            a, b = es
            end_of[a], end_of[b] = b, a
        elif not es:
            loops.append(c)
    return Paths(tuple(comp), tuple(deg), end_of, tuple(sorted(loops)), len(members), lines,
                 edges_in, tuple(branching), members, ends, frozenset(branched))


def _add_lines(graph: LoopGraph, p: Paths, old: tuple[int, ...], cands: tuple[int, ...],
               changed: list[int]) -> Paths | None:
    """Paths after the changed variables: new lines join pieces (None when a line vanished,
    which only a broken state does: recompute then)."""
    edge_of = graph.edge_of_var
    new_lines = []
    for var in changed:
        e = edge_of.get(var)
        if e is None:
            continue
        if old[var] == B_LINE:
            return None
        if cands[var] == B_LINE:
            new_lines.append(e)
    if not new_lines:
        return p
    comp, deg = list(p.comp), list(p.degree)
    members, ends, edges_in = dict(p.members), dict(p.ends), dict(p.edges_in)
    branched, branching = set(p.branched), set(p.branching)
    fresh = max(members, default=-1) + 1
    for e in new_lines:
        a, b = graph.ends[e]
        ca, cb = comp[a], comp[b]
        if ca < 0 and cb < 0:
            c, fresh = fresh, fresh + 1
            members[c], ends[c], edges_in[c] = (a, b), (), 0
            comp[a] = comp[b] = c
        elif ca < 0 or cb < 0:
            c, v = (cb, a) if ca < 0 else (ca, b)
            members[c] = members[c] + (v,)
            comp[v] = c
        elif ca != cb:
            c, small = (ca, cb) if len(members[ca]) >= len(members[cb]) else (cb, ca)
            for v in members[small]:
                comp[v] = c
            members[c] = members[c] + members.pop(small)
            ends[c] = ends[c] + ends.pop(small)
            edges_in[c] += edges_in.pop(small)
            if small in branched:
                branched.discard(small)
                branched.add(c)
        else:
            c = ca
        edges_in[c] += 1
        deg[a] += 1
        deg[b] += 1
        mine = set(ends[c])
        for v in (a, b):
            if deg[v] == 1:
                mine.add(v)
            else:
                mine.discard(v)
            if deg[v] > 2:
                branched.add(c)
                branching.add(v)
        ends[c] = tuple(sorted(mine))
    return _finish(comp, deg, members, ends, branched, edges_in, p.lines + len(new_lines),
                   sorted(branching))


def paths(graph: LoopGraph, state: State) -> Paths:
    """The pieces of line in a state (once per state, shared by every heuristic; updated from
    a recent state's pieces when only a few edges changed)."""
    def compute() -> Paths:
        return recent_of(graph, "paths", size=PATHS_REMEMBERED).get(
            state, lambda: _compute_paths(graph, state),
            lambda p, old, changed: _add_lines(graph, p, old, state.cands, changed))
    return state.derived(("loops.paths", id(graph)), compute)


# States whose pieces are kept. Every state of a solve asks for its pieces, so a trial's
# fill of 150 steps pushed out of 48 the state the trial started from, and each next branch
# counted the pieces afresh (Slitherlink 0091 and 0095: 678 full counts; with 200, 2)
PATHS_REMEMBERED = 200


# --- violations ----------------------------------------------------------------------------------

def loop_violations(graph: LoopGraph, state: State, required: Required | None = None
                    ) -> list[Violation]:
    """Loop rules a partial state already breaks; exact on a complete state of the edges.

    A branch (three lines at a vertex), a dead end (one line and no way on), a required vertex
    with fewer than two usable edges, a closed loop with other lines or required vertices
    outside it, or (when every edge is decided) no loop at all."""
    out: list[Violation] = []
    p = paths(graph, state)
    for v in p.branching:
        lines, _ = split(graph, state.cands, v)
        out.append(Violation(f"{len(lines)} lines meet at {graph.vertex_names[v]}",
                             vars=tuple(vars_of(graph, lines))))
    # without required vertices only line ends can be stuck
    check = (range(graph.n_vertices) if required is not None
             else sorted(v for es in p.ends.values() for v in es))
    # (counted at the line ends alone when only they are checked: a big board's fills end here)
    ways = open_degrees(graph, state) if required is not None else {v: _open_degree(graph, state.cands, v)
                                                                     for v in check}
    for v in check:
        d = p.degree[v]
        if d > 2 or (not d and ways[v] > 1):
            continue                            # (no line, and room to pass: nothing broken)
        must = required(state, v) if required is not None else None
        if (d == 1 or (must and not d)) and ways[v] < 2:    # (two lines pass: never stuck)
            lines, _ = split(graph, state.cands, v)
            what = "the line ends" if d == 1 else "the loop cannot pass"
            out.append(Violation(f"{what} at {graph.vertex_names[v]}", vars=tuple(vars_of(graph, lines))))
        if d and must is False:
            out.append(Violation(f"the loop passes {graph.vertex_names[v]}, which it must not visit"))
    if p.loops and (p.pieces > 1 or len(p.loops) > 1):
        out.append(Violation("a closed loop leaves other lines outside it"))
    elif p.loops and required is not None:
        for v in range(graph.n_vertices):
            if p.comp[v] == -1 and required(state, v):
                out.append(Violation(f"the loop is closed but leaves out {graph.vertex_names[v]}"))
                break
    if not out and p.lines and not p.loops:
        cut = _cut_off(graph, state, p, required)
        if cut is not None:
            out.append(Violation(f"crossed edges cut {graph.vertex_names[cut]} off from the rest of the loop"))
    if not out and p.lines == 0 and all(state.cands[var] == B_CROSS for var in graph.edge_vars):
        out.append(Violation("there is no loop"))
    return out


def _cut_off(graph: LoopGraph, state: State, p: Paths, required: Required | None) -> int | None:
    """A vertex with a line (or one that must be visited) that the other lines can no longer
    reach through edges that are not crossed: the loop could never be one piece. Named from
    the part of the first vertex with a line, whatever order the pieces are kept in (an update
    and a full count of the pieces may list them differently)."""
    part = open_parts(graph, state)
    lows = [min(piece) for piece in p.members.values()]
    mine = part[min(lows)]
    cut = [low for low in lows if part[low] != mine]
    if cut:
        return min(cut)
    if required is not None:
        for v in range(graph.n_vertices):
            if part[v] != mine and required(state, v):
                return v
    return None


# --- violations after a trial, from a state that broke none ---------------------------------------

@attrs.frozen(eq=False)
class CleanBase:
    """A state that breaks no rule, with lines and no closed loop: every line and every vertex
    the loop must visit lies in one part (`mine`) of its board of edges not crossed out
    (`part`, as open_parts gives)."""
    cands: tuple[int, ...]
    part: list[int]
    mine: int


# Bases kept per solve (the states trials start from): each holds two lists of the board's size.
CLEAN_BASES = 32


def violations_since(graph: LoopGraph, start: State, state: State, required: Required | None,
                     full: Callable[[State], list[Violation]],
                     nearby: Callable[[State, list[int]], bool]) -> list[Violation]:
    """full(state), the genre's violations, for a state a solve reached from `start`: [] at once
    when the state it started from (the state `start` assumed something of, shared by every
    trial from there) broke no rule and nothing near what changed since breaks one. Every rule
    a state breaks that its base did not reads a changed variable (a degree, a crossing that
    cuts the board, a pearl or clue); `nearby(state, changed)` asks the genre's own rules there
    (True when one may be broken). Anything else gets the full check, so the answer, down to
    the first violation's wording, is always full(state)'s. (`required(state, v)` must read
    only v's own variable, if any, as every loop genre's does.)"""
    base = _clean_base(graph, start, required, full)
    if base is not None:
        changed = narrowed(base.cands, state.cands, len(state.cands))
        if changed is not None and not _loop_maybe_broken(graph, base, state, changed, required) \
                and not nearby(state, changed):
            return []
    return full(state)


def _clean_base(graph: LoopGraph, start: State, required: Required | None,
                full: Callable[[State], list[Violation]]) -> CleanBase | None:
    """The CleanBase of the state `start` was made from, or None. Checked (in full) the second
    time a solve starts from it: a state only one solve starts from is not worth a check."""
    from grader.core.engine import solve_memory      # (the engine needs no kernel to load)
    if start.origin is None:
        return None
    cands = start.origin[0]
    bases = solve_memory().setdefault(("loops.clean_bases", id(graph)), {})
    kept = bases.get(id(cands))
    if kept is None or kept[0] is not cands:
        bases[id(cands)] = (cands, None)        # (the tuple is kept, so its id stays its own)
        if len(bases) > CLEAN_BASES:
            del bases[next(iter(bases))]        # the oldest
        return None
    if kept[1] is None:
        kept = bases[id(cands)] = (cands, _checked_base(graph, State(cands), required, full) or False)
    return kept[1] or None


def _checked_base(graph: LoopGraph, base: State, required: Required | None,
                  full: Callable[[State], list[Violation]]) -> CleanBase | None:
    if full(base):
        return None
    p = paths(graph, base)
    if not p.lines or p.loops:
        return None         # (its check never asked whether crossings cut the lines apart)
    part = open_parts(graph, base)
    return CleanBase(base.cands, part, part[min(min(piece) for piece in p.members.values())])


# How far a look goes round from one end of a newly crossed edge to the other, or round an area
# the crossings closed off (a few cells)
NEAR_VERTICES = 40


def _loop_maybe_broken(graph: LoopGraph, base: CleanBase, state: State, changed: list[int],
                       required: Required | None) -> bool:
    """Could `state` break a loop rule (loop_violations) its clean base did not? False only
    when no loop is closed, the vertices the changes touch keep their degrees within the rules,
    and no line or must-visit vertex is cut off from the rest: known when each new one is in
    the base's part of the lines and the newly crossed edges cut nothing apart that the loop
    needs (see _cut_apart), else asked of the whole board."""
    cands = state.cands
    p = paths(graph, state)
    if 0 in cands or p.loops:
        return True
    degree = p.degree
    edge_of_var, vertices_of_var = graph.edge_of_var, graph.vertices_of_var
    touched: set[int] = set()
    crossed = []
    for var in changed:
        touched.update(vertices_of_var.get(var, ()))
        if cands[var] == B_CROSS and var in edge_of_var:
            crossed.append(edge_of_var[var])
    arcs = graph.arcs
    moved = False           # a vertex the loop needs now may be outside the base's part
    for v in touched:
        d = degree[v]
        ways = sum(1 for _, var, _ in arcs[v] if cands[var] & B_LINE)
        must = required(state, v) if required is not None else None
        if d > 2 or ((d == 1 or (must and not d)) and ways < 2) or (d and must is False):
            return True
        moved = moved or bool((d or must) and base.part[v] != base.mine)

    def needed(v: int) -> bool:
        return bool(degree[v]) or (required is not None and bool(required(state, v)))
    if moved or _cut_apart(graph, base, cands, crossed, needed):
        # the one rule left, asked of the whole board (the full check asks it last)
        return _cut_off(graph, state, p, required) is not None
    return False


def _cut_apart(graph: LoopGraph, base: CleanBase, cands: Sequence[int], crossed: list[int],
               needed: Callable[[int], bool]) -> bool:
    """Could the crossed edges have cut the base's part of the lines in two? False when the two
    ends of each are still joined, or one end lies in a small area they closed off with no
    line nor must-visit vertex in it, whose rim (the vertices the base joined it to) is still
    joined: a way through such an area can go round it. (True may be wrong: only ever a reason
    to check in full.)"""
    links = graph.links
    dead: set[int] = set()
    for e in crossed:
        a, b = graph.ends[e]
        if a in dead or b in dead or _joined(links, cands, a, b):
            continue
        area = _closed_off(links, cands, a, needed) or _closed_off(links, cands, b, needed)
        if area is None:
            return True
        rim = sorted({w for v in area for var, w in links[v] if w not in area and base.cands[var] & B_LINE})
        if any(w in dead for w in rim) or not all(_joined(links, cands, rim[0], w) for w in rim[1:]):
            return True
        dead.update(area)
    return False


def _joined(links, cands: Sequence[int], a: int, b: int) -> bool:
    """Are vertices a and b joined by edges not crossed out, within NEAR_VERTICES of a?"""
    seen, todo = {a}, [a]
    for v in todo:
        for var, w in links[v]:
            if w not in seen and cands[var] & B_LINE:
                if w == b:
                    return True
                seen.add(w)
                todo.append(w)
        if len(seen) > NEAR_VERTICES:
            return False
    return False


def _closed_off(links, cands: Sequence[int], s: int, needed: Callable[[int], bool]) -> set[int] | None:
    """The area of vertex s (joined by edges not crossed out) when it has at most NEAR_VERTICES
    vertices and none the loop needs, else None."""
    seen, todo = {s}, [s]
    for v in todo:
        if needed(v):
            return None
        for var, w in links[v]:
            if w not in seen and cands[var] & B_LINE:
                seen.add(w)
                todo.append(w)
        if len(seen) > NEAR_VERTICES:
            return None
    return seen


# --- facts of the edges not crossed out ------------------------------------------------------

# How many facts a solve keeps per kind, by their crossings: as many as make this many
# vertices in all (a cut tree is about 200 bytes a vertex: some 40 MB), and at least 128.
KEPT_VERTICES = 200_000
_OPEN_OR_LINE = bytes(m & B_LINE for m in range(256))   # a byte per edge: 0 when crossed out


def crossings(graph: LoopGraph, cands: Sequence[int]) -> bytes:
    """Which edges are crossed out, as a key (the edges' variables are one run on every graph
    of ours: read at C speed then)."""
    ev = graph.edge_vars
    if ev and ev[-1] - ev[0] == len(ev) - 1:
        return bytes(cands[ev[0]:ev[-1] + 1]).translate(_OPEN_OR_LINE)
    return bytes(cands[var] & B_LINE for var in ev)


def by_crossings(graph: LoopGraph, state: State, kind: str, compute: Callable[[], Any]) -> Any:
    """compute(): a fact that depends only on which edges are crossed out, kept by the running
    solve under those crossings. The fills of trials come back to the same crossings again and
    again (each case of a case analysis, at every step of the solve)."""
    from grader.core.engine import solve_memory      # (the engine needs no kernel to load)
    facts = solve_memory().setdefault((kind, id(graph)), {})
    key = crossings(graph, state.cands)
    value = facts.get(key)
    if value is None:
        value = facts[key] = compute()
        if len(facts) > max(128, KEPT_VERTICES // max(graph.n_vertices, 1)):
            del facts[next(iter(facts))]            # the oldest
    return value


def open_parts(graph: LoopGraph, state: State) -> list[int]:
    """For each vertex, a label of its part of the board: vertices joined by edges not crossed
    out share one (once per state, and per crossings in a solve)."""
    return state.derived(("loops.open_parts", id(graph)), lambda: by_crossings(
        graph, state, "loops.open_parts", lambda: label_parts(graph, state.cands)))


def open_degrees(graph: LoopGraph, state: State) -> list[int]:
    """For each vertex, how many of its edges are not crossed out (once per state, and per
    crossings in a solve)."""
    return state.derived(("loops.open_degrees", id(graph)), lambda: by_crossings(
        graph, state, "loops.open_degrees", lambda: _count_open(graph, state.cands)))


def _open_degree(graph: LoopGraph, cands: Sequence[int], v: int) -> int:
    """_count_open's count at one vertex (an edge from v to itself counts twice)."""
    ends, edge_vars = graph.ends, graph.edge_vars
    return sum(1 + (ends[e][0] == ends[e][1]) for e in graph.incident[v] if cands[edge_vars[e]] & B_LINE)


def _count_open(graph: LoopGraph, cands: Sequence[int]) -> list[int]:
    out = [0] * graph.n_vertices
    for (a, b), var in zip(graph.ends, graph.edge_vars):
        if cands[var] & B_LINE:
            out[a] += 1
            out[b] += 1
    return out


def label_parts(graph: LoopGraph, cands: Sequence[int], gone: Collection[int] = ()) -> list[int]:
    """For each vertex, the smallest vertex of its part of the board: the vertices joined by
    edges neither crossed out nor among the edge variables `gone`."""
    part = [-1] * graph.n_vertices
    links = graph.links
    for s in range(graph.n_vertices):
        if part[s] >= 0:
            continue
        part[s] = s
        reached = [s]
        for v in reached:               # (grows as it goes: every vertex of the part, once)
            for var, w in links[v]:
                if part[w] < 0 and cands[var] & B_LINE and (not gone or var not in gone):
                    part[w] = s
                    reached.append(w)
    return part


def is_loop_done(graph: LoopGraph, state: State) -> bool:
    """The lines already form one closed loop (whatever is still open must be crossed)."""
    p = paths(graph, state)
    return p.pieces == 1 and len(p.loops) == 1


# --- helpers for regions and parity --------------------------------------------------------

def loose_ends(graph: LoopGraph, state: State) -> list[int]:
    """Vertices where a line stops (one line drawn), smallest first."""
    p = paths(graph, state)
    return [v for v in range(graph.n_vertices) if p.degree[v] == 1]


def open_regions(graph: LoopGraph, state: State, allowed: Callable[[int], bool] | None = None
                 ) -> list[list[int]]:
    """Groups of vertices joined by edges that are not crossed (lines or open), optionally only
    through vertices `allowed` accepts: the loop can never leave such a group."""
    n = graph.n_vertices
    seen = [False] * n
    out = []
    cands, links = state.cands, graph.links
    for s in range(n):
        if seen[s] or (allowed and not allowed(s)):
            continue
        seen[s] = True
        group, stack = [], [s]
        while stack:
            v = stack.pop()
            group.append(v)
            for var, w in links[v]:         # (the edges at v, in the order of graph.incident)
                if cands[var] & B_LINE and not seen[w] and not (allowed and not allowed(w)):
                    seen[w] = True
                    stack.append(w)
        out.append(sorted(group))
    return out


def local_loop_problem(graph: LoopGraph, state: State, changed: list[int], required) -> str:
    """Loop rules broken near the changed edges: a branch, a dead end, a must-visit cell that
    can no longer be passed, or a closed loop that leaves lines or must-visit cells outside."""
    cands = state.cands
    touched: set[int] = set()
    new_lines = []
    for var in changed:
        e = graph.edge_of_var.get(var)
        if e is None:
            continue
        touched.update(graph.ends[e])
        if cands[var] == B_LINE:
            new_lines.append(e)
    for v in touched:
        lines, open_ = split(graph, state.cands, v)
        if len(lines) > 2:
            return f"{len(lines)} lines would meet at {graph.vertex_names[v]}"
        if (lines or required(state, v)) and len(lines) + len(open_) < 2:
            return f"the line would end at {graph.vertex_names[v]}"
    on_open_lines: set[int] = set()     # vertices of pieces already walked and found open
    for e in new_lines:
        if graph.ends[e][0] in on_open_lines:
            continue        # (a piece is one closed loop from every edge of it, or from none)
        closed, cycle = _walk_line(graph, cands, e)
        if not closed:
            on_open_lines.update(cycle)
            continue
        n_lines = sum(1 for var in graph.edge_vars if cands[var] == B_LINE)
        if n_lines > len(cycle):
            return "the loop would close with other lines outside it"
        on = set(cycle)
        for v in range(graph.n_vertices):
            if v not in on and required(state, v):
                return f"the loop would close without {graph.vertex_names[v]}"
        break
    return ""


def cycle_through(graph: LoopGraph, state: State, e: int) -> list[int] | None:
    """The vertices of the closed loop of lines through edge e, or None if it is a path."""
    closed, walked = _walk_line(graph, state.cands, e)
    return walked if closed else None


def _walk_line(graph: LoopGraph, cands: Sequence[int], e: int) -> tuple[bool, list[int]]:
    """(whether the line through edge e closes into a simple loop, the vertices walked): the
    walk leaves e at one end and follows the line until it returns, ends or branches."""
    a = graph.ends[e][0]
    arcs = graph.arcs
    out, prev_edge, v = [a], e, a
    for _ in range(graph.n_vertices):
        nxt = None
        for f, var, w in arcs[v]:
            if f != prev_edge and cands[var] == B_LINE:
                if nxt is not None:
                    return False, out       # a branch: not a simple loop
                nxt = (f, w)
        if nxt is None:
            return False, out
        prev_edge, v = nxt
        if v == a:
            return True, out
        out.append(v)
    return False, out
