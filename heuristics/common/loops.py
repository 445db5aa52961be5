"""Loop reasoning shared by every loop genre (Slitherlink, Masyu, Yajilin).

A loop genre draws one closed loop, without crossings or branches, along the edges of a
graph. `LoopGraph` is that graph, built once per puzzle (a cached_property on the puzzle):
vertices, edges, the edges at each vertex, and the state variable of each edge, whose
candidates are CROSS (0, no line) and LINE (1).

Whether a vertex must be visited differs by genre, so every rule that cares takes a
`required(state, v)` callback answering True (must be visited: a Masyu pearl), False (cannot
be visited: a shaded Yajilin cell) or None (not known, or not a rule: a Slitherlink dot).

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

`loop_violations` lists what a partial state already breaks (degree 3, a dead end, a closed
loop leaving lines or required vertices outside, lines that crossed edges keep apart); on a
complete state it is exact for the loop rule. `paths(graph, state)` gives the pieces of line
(shared per state); `open_regions` the areas the loop could still use.
"""
from __future__ import annotations

import collections
import functools
import itertools
import random
from typing import Any, Callable, Iterable, Iterator, Sequence

import attrs

from grader.core.model import State, Violation
from grader.core.steps import Deduction

CROSS, LINE = 0, 1
B_CROSS, B_LINE = 1 << CROSS, 1 << LINE
OPEN = B_CROSS | B_LINE

Required = Callable[[State, int], "bool | None"]


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

    @functools.cached_property
    def _recent(self) -> dict[str, "Recent"]:
        return {}

    def recent(self, name: str) -> "Recent":
        """The snapshot cache of one per-state fact on this graph (see Recent)."""
        try:
            return self._recent[name]
        except KeyError:
            return self._recent.setdefault(name, Recent())

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
        near: set[int] = set()
        for var in focus:
            near.update(self.vertices_of_var.get(var, ()))
        return sorted(near)

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


# --- per-state facts kept up to date instead of recomputed ---------------------------------

def narrowed(old: tuple[int, ...], new: tuple[int, ...], limit: int) -> list[int] | None:
    """The variables whose candidates differ, when `new` only removes candidates from `old`
    and at most `limit` changed; otherwise None. Compares slices first, so unchanged stretches
    of a big board cost almost nothing."""
    if len(old) != len(new):
        return None
    out: list[int] = []
    n = len(new)
    for i in range(0, n, 64):
        j = i + 64
        if old[i:j] != new[i:j]:
            for v in range(i, min(j, n)):
                a, b = old[v], new[v]
                if a != b:
                    if b & ~a:
                        return None
                    out.append(v)
            if len(out) > limit:
                return None
    return out


MAX_LIVE = 16                       # caches that keep their states (a few puzzles' worth)
_LIVE: "collections.deque[Recent]" = collections.deque()


class Recent:
    """The last few states a per-state fact was computed for, with the fact.

    A solve moves from a state to one with a few candidates fewer, and a trial starts one
    assumption away from the state it tests; so a fact for a new state is usually an update of
    the fact for a recent one, from the few variables that changed. Facts must depend only on
    the state (an update must give what a full computation gives, up to arbitrary labels)."""

    def __init__(self, size: int = 48, limit: int = 96, pins: int = 4):
        self.size, self.limit, self.pins = size, limit, pins
        self.items: list[tuple[tuple[int, ...], Any]] = []
        # states come back to after a detour (the state a trial starts from, again and again
        # after each branch): kept apart so long branches do not push them out
        self.pinned: list[tuple[tuple[int, ...], Any]] = []
        # a batch keeps every puzzle it lists: only the newest caches keep their states
        _LIVE.append(self)
        while len(_LIVE) > MAX_LIVE:
            _LIVE.popleft().clear()

    def clear(self) -> None:
        self.items, self.pinned = [], []

    def get(self, state: State, full: Callable[[], Any],
            update: Callable[[Any, tuple[int, ...], list[int]], Any]) -> Any:
        """The fact for `state`: update(old fact, old candidates, changed variables) from the
        remembered state it was made from (State.origin), else from the newest remembered
        state it narrows (update may return None to ask for `full`)."""
        cands = state.cands
        value = None
        items = self.items
        origin = state.origin
        if origin is not None and len(origin[1]) <= self.limit:
            # made by narrowing a remembered state: what changed is known
            base, changed = origin
            for k, (old, fact) in enumerate(itertools.chain(reversed(items), reversed(self.pinned))):
                if old is base:
                    value = update(fact, base, changed) if changed else fact
                    if value is not None and k > 0 and all(old is not p for p, _ in self.pinned):
                        self.pinned.append((old, fact))
                        del self.pinned[:-self.pins]
                    break
        order = [] if value is not None else items[-1:] + self.pinned[::-1] + items[-2::-1]
        for i, (old, fact) in enumerate(order):
            changed = narrowed(old, cands, self.limit)
            if changed is None:
                continue
            value = update(fact, old, changed) if changed else fact
            if value is not None:
                if i > 0 and all(old is not p for p, _ in self.pinned):
                    self.pinned.append((old, fact))
                    del self.pinned[:-self.pins]
                break
        if value is None:
            value = full()
        items.append((cands, value))
        if len(items) > self.size:
            del items[0]
        return value


# --- what a state says about a vertex ------------------------------------------------------

def split(graph: LoopGraph, state: State, v: int) -> tuple[list[int], list[int]]:
    """(edges with a line, edges still open) at vertex v."""
    cands, lines, open_ = state.cands, [], []
    for e in graph.incident[v]:
        m = cands[graph.edge_vars[e]]
        if m == B_LINE:
            lines.append(e)
        elif m == OPEN:
            open_.append(e)
    return lines, open_


def degree(graph: LoopGraph, state: State, v: int) -> int:
    return sum(1 for e in graph.incident[v] if state.cands[graph.edge_vars[e]] == B_LINE)


def _names(graph: LoopGraph, edges: Iterable[int]) -> list[str]:
    return [graph.edge_names[e] for e in edges]


def _vars(graph: LoopGraph, edges: Iterable[int]) -> list[int]:
    return [graph.edge_vars[e] for e in edges]


# --- vertex degree rules (level 1) -----------------------------------------------------------

def vertex_full(graph: LoopGraph, state: State, focus=None) -> Iterator[Deduction]:
    """Two lines meet at a vertex: its other edges are crossed."""
    for v in graph.vertices_to_check(focus):
        lines, open_ = split(graph, state, v)
        if len(lines) == 2 and open_:
            yield Deduction.build(state, put={graph.edge_vars[e]: CROSS for e in open_},
                                  premises=_vars(graph, lines),
                                  params={"vertex": graph.vertex_names[v],
                                          "lines": _names(graph, lines), "edges": _names(graph, open_)})


def vertex_extend(graph: LoopGraph, state: State, focus=None) -> Iterator[Deduction]:
    """One line reaches a vertex with a single open edge left: the line goes on through it."""
    for v in graph.vertices_to_check(focus):
        lines, open_ = split(graph, state, v)
        if len(lines) == 1 and len(open_) == 1:
            crossed = [e for e in graph.incident[v] if e not in lines and e not in open_]
            yield Deduction.build(state, put={graph.edge_vars[open_[0]]: LINE},
                                  premises=_vars(graph, lines + crossed),
                                  params={"vertex": graph.vertex_names[v],
                                          "line": graph.edge_names[lines[0]],
                                          "edge": graph.edge_names[open_[0]]})


def vertex_required(graph: LoopGraph, state: State, required: Required,
                    focus=None) -> Iterator[Deduction]:
    """A vertex the loop must visit, with exactly two edges not crossed: both carry the line."""
    for v in graph.vertices_to_check(focus):
        lines, open_ = split(graph, state, v)
        if open_ and len(lines) < 2 and len(lines) + len(open_) == 2 and required(state, v):
            crossed = [e for e in graph.incident[v] if e not in lines and e not in open_]
            yield Deduction.build(state, put={graph.edge_vars[e]: LINE for e in open_},
                                  premises=_vars(graph, crossed),
                                  params={"vertex": graph.vertex_names[v], "edges": _names(graph, open_)})


def vertex_dead_end(graph: LoopGraph, state: State, required: Required | None = None,
                    focus=None) -> Iterator[Deduction]:
    """A vertex without a line and only one open edge: the loop cannot pass, so it is crossed.
    (A vertex that must be visited is left to violations: that is a contradiction.)"""
    for v in graph.vertices_to_check(focus):
        lines, open_ = split(graph, state, v)
        if not lines and len(open_) == 1 and not (required and required(state, v)):
            crossed = [e for e in graph.incident[v] if e != open_[0]]
            yield Deduction.build(state, put={graph.edge_vars[open_[0]]: CROSS},
                                  premises=_vars(graph, crossed),
                                  params={"vertex": graph.vertex_names[v], "edge": graph.edge_names[open_[0]]})


def vertex_forbidden(graph: LoopGraph, state: State, required: Required,
                     focus=None) -> Iterator[Deduction]:
    """A vertex the loop cannot visit: every open edge at it is crossed."""
    for v in graph.vertices_to_check(focus):
        lines, open_ = split(graph, state, v)
        if open_ and required(state, v) is False:
            yield Deduction.build(state, put={graph.edge_vars[e]: CROSS for e in open_},
                                  params={"vertex": graph.vertex_names[v], "edges": _names(graph, open_)})


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
        return graph.recent("paths").get(
            state, lambda: _compute_paths(graph, state),
            lambda p, old, changed: _add_lines(graph, p, old, state.cands, changed))
    return state.derived(("loops.paths", id(graph)), compute)


def premature_loop(graph: LoopGraph, state: State, closes_ok: Callable[[State], bool],
                   required: Required | None = None, focus=None) -> Iterator[Deduction]:
    """An open edge joining the two ends of one path closes a loop; the loop is the whole
    answer, so unless closing it completes a valid solution, the edge is crossed.

    closes_ok(state) gets the complete state with that edge drawn and every other open edge
    crossed and says whether it is a solution (the genre's other rules: clues, pearls). It is
    only asked when no other line and no required vertex is left outside."""
    p = paths(graph, state)
    # a change anywhere can finish or spoil the rest of the board, so every end is checked
    starts = sorted(p.end_of)
    for a in starts:
        b = p.end_of[a]
        if b < a:
            continue
        for e in graph.edges_between(a, b):
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
        lines, _ = split(graph, state, v)
        out.append(Violation(f"{len(lines)} lines meet at {graph.vertex_names[v]}",
                             vars=tuple(_vars(graph, lines))))
    # without required vertices only line ends can be stuck
    check = (range(graph.n_vertices) if required is not None
             else sorted(v for es in p.ends.values() for v in es))
    for v in check:
        d = p.degree[v]
        if d > 2:
            continue
        if d == 1 or (required is not None and required(state, v)):
            lines, open_ = split(graph, state, v)
            if len(lines) + len(open_) < 2:
                what = "the line ends" if d == 1 else "the loop cannot pass"
                out.append(Violation(f"{what} at {graph.vertex_names[v]}",
                                     vars=tuple(_vars(graph, lines))))
        if d and required is not None and required(state, v) is False:
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
    reach through edges that are not crossed: the loop could never be one piece."""
    start = next(iter(p.members.values()))[0]
    seen = bytearray(graph.n_vertices)
    seen[start] = 1
    stack = [start]
    cands, links = state.cands, graph.links
    while stack:
        for var, w in links[stack.pop()]:
            if not seen[w] and cands[var] & B_LINE:
                seen[w] = 1
                stack.append(w)
    cut = [min(piece) for piece in p.members.values() if not seen[piece[0]]]
    if cut:
        return min(cut)
    if required is not None:
        for v in range(graph.n_vertices):
            if not seen[v] and required(state, v):
                return v
    return None


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
    for s in range(n):
        if seen[s] or (allowed and not allowed(s)):
            continue
        seen[s] = True
        group, stack = [], [s]
        while stack:
            v = stack.pop()
            group.append(v)
            for e in graph.incident[v]:
                if state.cands[graph.edge_vars[e]] & B_LINE:
                    w = graph.other(e, v)
                    if not seen[w] and not (allowed and not allowed(w)):
                        seen[w] = True
                        stack.append(w)
        out.append(sorted(group))
    return out


# --- connectivity: the loop is one piece ----------------------------------------------------------

def _must_visit(graph: LoopGraph, state: State, p: Paths, required: Required | None) -> list[bool]:
    return [bool(p.degree[v]) or bool(required is not None and required(state, v))
            for v in range(graph.n_vertices)]


def isolated_areas(graph: LoopGraph, state: State, required: Required | None = None,
                   focus=None) -> Iterator[Deduction]:
    """Once some line is drawn, an area that crossed edges cut off from every line can never
    hold part of the loop: its open edges are crossed.   Params: {edges} {vertex}"""
    p = paths(graph, state)
    if not p.lines or p.loops:
        return
    must = _must_visit(graph, state, p, required)
    for group in open_regions(graph, state):
        if any(must[v] for v in group):
            continue
        members = set(group)
        edges = sorted({e for v in group for e in graph.incident[v]
                        if state.cands[graph.edge_vars[e]] == OPEN and graph.other(e, v) in members})
        if edges:
            yield Deduction.build(state, put={graph.edge_vars[e]: CROSS for e in edges},
                                  params={"edges": _names(graph, edges), "vertex": graph.vertex_names[group[0]]})
            return


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
    depth: list[int]
    root_of: list[int]
    label: dict[int, int]        # tree edge -> XOR of the labels of the edges jumping over it
    off_tree: list[int]          # the other edges (each jumps from a vertex to an ancestor)
    bridges: list[int]           # vertices whose tree edge up is a bridge (label 0)
    classes: list[tuple[list[int], list[int]]]   # see _classes


def _shared_tree(graph: LoopGraph, state: State) -> _Tree:
    """The tree of a state, kept while only lines are drawn: it depends only on which edges
    are not crossed out, so a recent state's tree serves until an edge is crossed."""
    edge_of = graph.edge_of_var

    def update(t: _Tree, old: tuple[int, ...], changed: list[int]) -> _Tree | None:
        cands = state.cands
        for var in changed:
            if var in edge_of and not cands[var] & B_LINE:
                return None
        return t
    return state.derived(("loops.tree", id(graph)), lambda: graph.recent("tree").get(
        state, lambda: _tree(graph, state), update))


def _tree(graph: LoopGraph, state: State) -> _Tree:
    n, cands, adj = graph.n_vertices, state.cands, graph.arcs
    labels = graph.cut_labels
    depth, up, root_of, acc = [-1] * n, [-1] * n, [-1] * n, [0] * n
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
            for e, var, w in it:
                if e == up[v] or not cands[var] & B_LINE:
                    continue
                if depth[w] < 0:
                    depth[w], up[w], root_of[w] = depth[v] + 1, e, root
                    order.append(w)
                    stack.append((w, iter(adj[w])))
                    break
                if depth[w] < depth[v]:          # an edge back to an ancestor, seen from below
                    acc[v] ^= labels[e]
                    acc[w] ^= labels[e]
                    off_tree.append(e)
            else:
                stack.pop()
    label = {}
    ends = graph.ends
    for v in reversed(order):
        e = up[v]
        if e >= 0:
            a, b = ends[e]
            acc[b if a == v else a] ^= acc[v]
            label[e] = acc[v]
    bridges = [v for v in order if up[v] >= 0 and not label[up[v]]]
    return _Tree(order, up, depth, root_of, label, off_tree, bridges,
                 _classes(order, up, label, off_tree, labels))


def _classes(order: list[int], up: list[int], label: dict[int, int], off_tree: list[int],
             labels: Sequence[int]) -> list[tuple[list[int], list[int]]]:
    """Groups of two or more edges with one label: (tree vertices below their edges, shallowest
    first; edges off the tree, at most one)."""
    by_label: dict[int, tuple[list[int], list[int]]] = {}
    for v in order:
        e = up[v]
        if e >= 0 and label[e]:
            by_label.setdefault(label[e], ([], []))[0].append(v)
    for e in off_tree:
        if labels[e] in by_label:
            by_label[labels[e]][1].append(e)
    return [(vs, extra) for vs, extra in by_label.values() if len(vs) + len(extra) >= 2]


def _cut_classes(graph: LoopGraph, state: State) -> list[tuple[int, ...]]:
    """Every group of edges any two of which cut the board (for tests)."""
    t = _tree(graph, state)
    return sorted(tuple(sorted([t.up[v] for v in vs] + extra)) for vs, extra in t.classes)


def _gaps(graph: LoopGraph, state: State, required: Required | None) -> Gaps:
    p = paths(graph, state)
    must = _must_visit(graph, state, p, required)
    t = _shared_tree(graph, state)
    sub = [0] * graph.n_vertices          # must-visit vertices in each subtree
    for v in reversed(t.order):
        sub[v] += must[v]
        if t.up[v] >= 0:
            sub[graph.other(t.up[v], v)] += sub[v]
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
    gone = set(removed)
    comp = [-1] * graph.n_vertices
    cands, incident, links = state.cands, graph.incident, graph.links
    k = 0
    for s in range(graph.n_vertices):
        if comp[s] >= 0:
            continue
        comp[s] = k
        stack = [s]
        while stack:
            v = stack.pop()
            for e, (var, w) in zip(incident[v], links[v]):
                if comp[w] < 0 and e not in gone and cands[var] & B_LINE:
                    comp[w] = k
                    stack.append(w)
        k += 1
    return comp


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
                              params={"edges": _names(graph, edges), "a": graph.vertex_names[apart[0]],
                                      "b": graph.vertex_names[apart[1]]})
        return
