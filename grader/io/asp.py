"""ASP facts for Generalized Slitherlink (FORMATS.md §6): `edge/2`, `cell_contains/3`,
`clue/2` in, `link/2` out. Our own optional `vertex_at(V,X,Y).` gives where to draw vertex V
(whole numbers, any scale, y downwards); solvers ignore it, and without it the drawing is laid
out from the graph alone.

Only ground facts are read: `name(arg, ...).` with integer or constant arguments, `%` comments.
Every fact keeps its line and column so an error can point at it. Whether the facts form a
graph (no edge twice, cells naming real edges, clues within their cell) is checked here, once.
"""
from __future__ import annotations

import re

import attrs

from grader.core.errors import Source
from grader.io import limits

# a 200x200 square grid has 80,400 edges; other tilings of 40,000 cells a few more
MAX_EDGES = 3 * limits.MAX_CELLS

_TERM = r'(?:-?\d+|[a-z_][A-Za-z0-9_]*|"[^"\\]*")'
_FACT = re.compile(rf'\s*([a-z_][A-Za-z0-9_]*)\s*(?:\(\s*({_TERM}(?:\s*,\s*{_TERM})*)\s*\))?\s*\.')


@attrs.frozen
class Fact:
    name: str
    args: tuple[str, ...]
    line: int
    col: int


def facts(text: str, src: Source) -> list[Fact]:
    """Every fact of an ASP text; anything else is an error naming line and column."""
    out: list[Fact] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("%", 1)[0]
        pos = 0
        while pos < len(line):
            if line[pos].isspace():
                pos += 1
                continue
            m = _FACT.match(line, pos)
            if not m:
                snippet = line[pos:pos + 20].strip()
                raise src.error(f"expected a fact such as edge(1,2). but found '{snippet}'", n, pos + 1)
            args = tuple(a.strip() for a in m.group(2).split(",")) if m.group(2) else ()
            out.append(Fact(m.group(1), args, n, pos + 1 + (len(m.group(0)) - len(m.group(0).lstrip()))))
            pos = m.end()
    return out


@attrs.frozen
class GraphFacts:
    """A generalized Slitherlink instance read from facts, in input order.

    vertices: the vertex terms; ends: each edge as vertex indices in its input orientation;
    cells: (name, edge indices) per cell; clues: cell index -> number; links: edges of a given
    solution (link/2 facts), or None."""
    vertices: tuple[str, ...]
    ends: tuple[tuple[int, int], ...]
    cells: tuple[tuple[str, tuple[int, ...]], ...]
    clues: dict[int, int]
    links: frozenset[int] | None
    positions: tuple[tuple[int, int], ...] = ()     # per vertex, from vertex_at/3; () if none


def read_graph(text: str, src: Source) -> GraphFacts:
    vertex_index: dict[str, int] = {}
    ends: list[tuple[int, int]] = []
    edge_at: dict[tuple[str, str], int] = {}
    cell_index: dict[str, int] = {}
    cells: list[tuple[str, list[int]]] = []
    in_cell: list[set[int]] = []         # the edges of each cell, to skip a repeated fact
    clue_facts: list[Fact] = []
    link_facts: list[Fact] = []
    position_facts: list[Fact] = []

    def vertex(term: str) -> int:
        return vertex_index.setdefault(term, len(vertex_index))

    all_facts = facts(text, src)
    for f in all_facts:
        if f.name == "edge":
            _arity(f, 2, src)
            a, b = f.args
            if a == b:
                raise src.error(f"edge({a},{b}) joins a vertex to itself", f.line, f.col)
            if (b, a) in edge_at:
                raise src.error(f"edge({a},{b}) repeats edge({b},{a}) in the other orientation; "
                                "list each edge once", f.line, f.col)
            if (a, b) in edge_at:
                continue          # the same fact twice means the same thing
            edge_at[(a, b)] = len(ends)
            ends.append((vertex(a), vertex(b)))
            limits.check_count(len(ends), "edges", src, MAX_EDGES, f.line, f.col)
    if not ends:
        raise src.error("no edge/2 facts: the input is not a graph", 1, 1)
    for f in all_facts:
        if f.name == "cell_contains":
            _arity(f, 3, src)
            c, a, b = f.args
            e = edge_at.get((a, b))
            if e is None:
                hint = (f" (the edge is written edge({b},{a}))" if (b, a) in edge_at else "")
                raise src.error(f"cell {c} names edge ({a},{b}), which is not an edge{hint}", f.line, f.col)
            k = cell_index.setdefault(c, len(cells))
            if k == len(cells):
                cells.append((c, []))
                in_cell.append(set())
                limits.check_count(len(cells), "cells", src, limits.MAX_CELLS, f.line, f.col)
            if e not in in_cell[k]:
                in_cell[k].add(e)
                cells[k][1].append(e)
        elif f.name == "clue":
            _arity(f, 2, src)
            clue_facts.append(f)
        elif f.name == "link":
            _arity(f, 2, src)
            link_facts.append(f)
        elif f.name == "vertex_at":
            _arity(f, 3, src)
            position_facts.append(f)
        elif f.name != "edge":
            raise src.error(f"unexpected fact {f.name}/{len(f.args)}: expected edge/2, "
                            "cell_contains/3, clue/2, link/2 or vertex_at/3", f.line, f.col)
    clues: dict[int, int] = {}
    for f in clue_facts:
        c, n = f.args
        if c not in cell_index:
            raise src.error(f"clue for cell {c}, which has no cell_contains facts", f.line, f.col)
        k = cell_index[c]
        if not re.fullmatch(r"\d{1,6}", n):
            raise src.error(f"clue({c},{n}): the number must be a whole number 0 or more", f.line, f.col)
        size = len(cells[k][1])
        if int(n) > size:
            raise src.error(f"clue({c},{n}) is above the size of cell {c}, which has {size} edges",
                            f.line, f.col)
        if k in clues and clues[k] != int(n):
            raise src.error(f"cell {c} has two clues ({clues[k]} and {n})", f.line, f.col)
        clues[k] = int(n)
    links = None
    if link_facts:
        chosen = set()
        for f in link_facts:
            e = edge_at.get(f.args)  # type: ignore[arg-type]
            if e is None:
                raise src.error(f"link({f.args[0]},{f.args[1]}) is not an edge in its edge/2 orientation",
                                f.line, f.col)
            chosen.add(e)
        links = frozenset(chosen)
    return GraphFacts(tuple(vertex_index), tuple(ends), tuple((n, tuple(es)) for n, es in cells),
                      clues, links, _positions(position_facts, vertex_index, src))


def _positions(found: list[Fact], vertex_index: dict[str, int], src: Source) -> tuple[tuple[int, int], ...]:
    """Where to draw each vertex, when vertex_at/3 facts give all of them."""
    if not found:
        return ()
    at: dict[int, tuple[int, int]] = {}
    for f in found:
        v, x, y = f.args
        if v not in vertex_index:
            raise src.error(f"vertex_at({v},...) names a vertex that is in no edge", f.line, f.col)
        if not (re.fullmatch(r"-?\d{1,9}", x) and re.fullmatch(r"-?\d{1,9}", y)):
            raise src.error(f"vertex_at({v},{x},{y}): the position must be two whole numbers",
                            f.line, f.col)
        if vertex_index[v] in at and at[vertex_index[v]] != (int(x), int(y)):
            raise src.error(f"vertex {v} has two positions", f.line, f.col)
        at[vertex_index[v]] = (int(x), int(y))
    if len(at) != len(vertex_index):
        missing = next(v for v, i in vertex_index.items() if i not in at)
        raise src.error(f"vertex_at gives {len(at)} of the {len(vertex_index)} vertices (none for "
                        f"{missing}): give every vertex a position, or none", found[0].line, found[0].col)
    return tuple(at[i] for i in range(len(vertex_index)))


def _arity(f: Fact, n: int, src: Source) -> None:
    if len(f.args) != n:
        raise src.error(f"{f.name} takes {n} arguments, this fact has {len(f.args)}", f.line, f.col)


def looks_like_facts(text: str) -> bool:
    return bool(re.search(r"^\s*edge\s*\(", text, re.M))


def links_text(vertices: tuple[str, ...], ends: tuple[tuple[int, int], ...], edges) -> str:
    """`link(a,b).` for each chosen edge, in its input orientation."""
    return "\n".join(f"link({vertices[ends[e][0]]},{vertices[ends[e][1]]})." for e in sorted(edges))
