"""Loop reasoning for loops through cell centres (Masyu, Yajilin), on top of loops.py.

    cut_parity      {cut} {edge} {lines} {value}   a straight cut across the grid is crossed an
                                                   even number of times (Jordan curve)
    end_lookahead   {end} {edge} {refuted}         every other way on from a loose end, followed
                                                   while it is forced, breaks a rule
    case_analysis   {subject} {outcome} ...        every way to satisfy something, filled in

Both know no genre: the puzzle is a `GridLoop` (grader.genres.masyu) and rules come in as a
`violations(state)` callback.
"""
from __future__ import annotations

import functools
from typing import Callable, Iterator

from grader.model import State
from grader.steps import Deduction

from .loops import B_CROSS, B_LINE, CROSS, LINE, OPEN, LoopGraph, paths, split


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


def follow(graph: LoopGraph, state: State, var: int, limit: int = 10_000) -> tuple[State, list[int]]:
    """Draw edge `var` and keep extending the line while its end has exactly one way on;
    where two lines meet, cross the rest. Only forced moves, so it is sound from `var`.
    Returns the new state and the variables it changed."""
    cands = list(state.cands)
    cands[var] &= B_LINE
    changed = [var]
    e = graph.edge_of_var[var]
    todo = list(graph.ends[e])
    while todo and limit:
        limit -= 1
        v = todo.pop()
        lines, open_ = [], []
        for f in graph.incident[v]:
            m = cands[graph.edge_vars[f]]
            if m == B_LINE:
                lines.append(f)
            elif m == OPEN:
                open_.append(f)
        if len(lines) >= 2 and open_:
            for f in open_:
                cands[graph.edge_vars[f]] = B_CROSS
                changed.append(graph.edge_vars[f])
                todo.append(graph.other(f, v))
        elif len(lines) == 1 and len(open_) == 1:
            cands[graph.edge_vars[open_[0]]] = B_LINE
            changed.append(graph.edge_vars[open_[0]])
            todo.append(graph.other(open_[0], v))
    return State(tuple(cands)), changed


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
        lines, open_ = split(graph, state, v)
        if len(lines) > 2:
            return f"{len(lines)} lines would meet at {graph.vertex_names[v]}"
        if (lines or required(state, v)) and len(lines) + len(open_) < 2:
            return f"the line would end at {graph.vertex_names[v]}"
    for e in new_lines:
        cycle = _cycle_through(graph, state, e)
        if cycle is None:
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


def _cycle_through(graph: LoopGraph, state: State, e: int) -> list[int] | None:
    """The vertices of the closed loop of lines through edge e, or None if it is a path."""
    a, b = graph.ends[e]
    out, prev_edge, v = [a], e, a
    for _ in range(graph.n_vertices):
        nxt = [f for f in graph.incident[v] if f != prev_edge and state.cands[graph.edge_vars[f]] == B_LINE]
        if len(nxt) != 1:
            return None
        prev_edge = nxt[0]
        v = graph.other(prev_edge, v)
        if v == a:
            return out
        out.append(v)
    return None


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
        lines, open_ = split(graph, state, a)
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


def loop_closed(graph: LoopGraph, state: State, focus=None) -> Iterator[Deduction]:
    """The lines already form one closed loop, and there is only one loop: every edge still
    open is crossed out.   Params: {cell} (a cell on the loop), {count}"""
    if focus is not None:
        # a loop can only have closed through an edge that changed
        if not any(state.cands[var] == B_LINE and _cycle_through(graph, state, graph.edge_of_var[var])
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


# --- level 5: case analyses ------------------------------------------------------------------

def case_analysis(puzzle, state: State, max_level: int, subjects) -> Iterator[Deduction]:
    """Every way to satisfy one subject (a pearl, a loose end, a clue, a cell), filled in
    greedily; what all surviving cases agree on holds. subjects yields (name, options) with
    options [(label, {var: value})] covering every possibility. All subjects get a short
    look first, then a long one, so the shortest case analysis is the one shown.
    Params: subject, outcome, cases, steps."""
    from grader.probing import PASSES, branch_deduction
    subjects = [(name, options) for name, options in subjects if len(options) >= 2]
    for steps, level in PASSES:
        for name, options in subjects:
            assumptions = []
            for label, put in options:
                cands = list(state.cands)
                for v, val in put.items():
                    cands[v] &= 1 << val
                assumptions.append((label, State(tuple(cands)), tuple(put)))
            d = branch_deduction(puzzle, state, assumptions, max_level=min(level, max_level), max_steps=steps)
            if d:
                yield Deduction(d.removals, {**d.params, "subject": name}, detail=d.detail)
                return
