"""Never close a loop too early: level 1 (the edge joins the two ends of one path; a loop
already closed crosses everything else) and the catalogue's level 4 (drawing the edge forces
a chain of moves at dots and numbers that closes a loop too early)."""
from __future__ import annotations

from typing import Iterator

from grader.genres.slitherlink.model import SlitherPuzzle, closes_ok
from grader.core.registry import heuristic, register_families
from grader.core.model import State
from grader.core.steps import Deduction
from heuristics.common import loops
from grader.kernels.loops import B_CROSS, B_LINE, CROSS, OPEN, Paths, paths
from grader.kernels.union_find import UnionFind

from heuristics.slitherlink.common import GENRE


def forced_chain(puzzle: SlitherPuzzle, state: State, e: int, limit: int = 400) -> tuple[State, str] | None:
    """Draw edge e and follow only the forced moves: at dots (a line with one way on goes on,
    two lines cross the rest) and at numbers (a satisfied number crosses its other edges, one
    that needs all its open edges takes them). Returns the state and why it breaks the loop
    rule, or None."""
    g = puzzle.graph
    incident, ends = g.incident, g.ends
    cell_edges, clues, clued_of = puzzle.cells, puzzle.clues, _clued_cells_of_edge(puzzle)
    cands = list(state.cands)
    todo: list[int] = []
    cells: list[int] = []
    drawn: list[int] = []

    def put(f: int, value: int) -> None:
        cands[f] = value
        todo.extend(ends[f])
        cells.extend(clued_of[f])
        if value == B_LINE:
            drawn.append(f)

    put(e, B_LINE)
    broken = ""
    steps = 0
    while (todo or cells) and steps < limit:
        steps += 1
        if cells:
            k = cells.pop()
            lines, open_ = _counts(cands, cell_edges[k])
            if open_ and lines == clues[k]:
                _put_open(cands, cell_edges[k], B_CROSS, put)
            elif open_ and lines + open_ == clues[k]:
                _put_open(cands, cell_edges[k], B_LINE, put)
            continue
        v = todo.pop()
        lines, open_ = _counts(cands, incident[v])
        if lines > 2:
            broken = f"three lines would meet at {g.vertex_names[v]}"
            break
        if lines == 2:
            _put_open(cands, incident[v], B_CROSS, put)
        elif lines == 1 and open_ == 1:
            _put_open(cands, incident[v], B_LINE, put)
        elif lines == 1 and not open_:
            broken = f"the line would end at {g.vertex_names[v]}"
            break
    closed, pieces = _joins(g, paths(g, state), drawn)
    if not closed:
        return (State(tuple(cands)), broken) if broken else None
    after = State(tuple(cands))
    if pieces > 1:
        return after, "it would close a loop with other lines left outside"
    if not closes_ok(puzzle)(loops.closed_state(g, after, e)):
        return after, "it would close a loop that leaves a clue unsatisfied"
    return None


def _counts(cands: list[int], edges: tuple[int, ...]) -> tuple[int, int]:
    """(lines, open edges) among the edges."""
    lines = open_ = 0
    for f in edges:
        m = cands[f]
        if m == B_LINE:
            lines += 1
        elif m == OPEN:
            open_ += 1
    return lines, open_


def _put_open(cands: list[int], edges: tuple[int, ...], value: int, put) -> None:
    """Put `value` on each of the edges still open, in order."""
    for f in edges:
        if cands[f] == OPEN:
            put(f, value)


def _clued_cells_of_edge(puzzle: SlitherPuzzle) -> tuple[tuple[int, ...], ...]:
    """The clued cells beside each edge (once per puzzle: forced_chain asks for every edge it sets)."""
    table = puzzle.__dict__.get("_slitherlink_clued_of_edge")
    if table is None:
        table = puzzle.__dict__["_slitherlink_clued_of_edge"] = tuple(
            tuple(k for k in ks if puzzle.clues[k] is not None) for ks in puzzle.cells_of_edge)
    return table


def _joins(g, p: Paths, drawn: list[int]) -> tuple[bool, int]:
    """Add the drawn edges to the pieces of line: does one close a loop, and how many pieces
    are left? (Union-find over the pieces, so a long line costs nothing to follow.)"""
    joined = UnionFind()
    element: dict[int, int] = {}         # piece number, or -1 - v for a dot v without a line
    pieces, closed = p.pieces, False
    for f in drawn:
        ends = []
        for v in g.ends[f]:
            c = p.comp[v]
            key = c if c >= 0 else -1 - v
            x = element.get(key)
            if x is None:
                x = element[key] = joined.add()
                if c < 0:
                    pieces += 1              # a dot without a line so far: a piece of its own
            ends.append(x)
        if joined.union(*ends):
            pieces -= 1
        else:
            closed = True
    return closed, pieces


@heuristic(id="slitherlink.illegal-loop", genre=GENRE)
def illegal_loop(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    g = puzzle.graph
    ends = paths(g, state).end_of
    if not ends:
        return
    # an edge touching a loose end is where a line could be drawn towards a closing loop
    candidates = sorted({f for v in ends for f in g.incident[v] if state.cands[f] == OPEN})
    for e in candidates:
        found = forced_chain(puzzle, state, e)
        if found is None:
            continue
        after, reason = found
        if "loop" not in reason:
            continue
        moved = [puzzle.edge_label(f) for f in state.diff(after) if after.cands[f] == B_LINE and f != e]
        yield Deduction.build(state, put={e: CROSS},
                              params={"edge": puzzle.edge_label(e), "reason": reason,
                                      "moves": ", ".join(moved[:6]) + (" ..." if len(moved) > 6 else "")
                                      if moved else "none"})
        return


@heuristic(id="slitherlink.isolated-area", genre=GENRE)
def isolated_area(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for d in loops.isolated_areas(puzzle.graph, state, None, focus):
        yield Deduction(d.removals, {**d.params, "are": "is" if len(d.params["edges"]) == 1 else "are"})


# the loop's own rules (heuristics/common/loops.py) on a Slitherlink graph, where no dot must be
# visited: the rows of rules/techniques/slitherlink.yaml that name a family, in Slitherlink's words
register_families(GENRE, loops.family(lambda puzzle, closed: closes_ok(puzzle)(closed),
                                      required=lambda puzzle: None))
