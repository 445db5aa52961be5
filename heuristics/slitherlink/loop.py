"""Never close a loop too early: level 1 (the edge joins the two ends of one path; a loop
already closed crosses everything else) and the catalogue's level 4 (drawing the edge forces
a chain of moves at dots and numbers that closes a loop too early)."""
from __future__ import annotations

from operator import itemgetter
from typing import Iterator, Sequence

import attrs

from grader.core.engine import solve_memory
from grader.genres.slitherlink.model import SlitherPuzzle, closes_ok
from grader.core.registry import heuristic, register_families
from grader.core.model import State
from grader.core.steps import Deduction
from heuristics.common import loops
from grader.kernels.loops import B_CROSS, B_LINE, CROSS, OPEN, Paths, paths

from heuristics.slitherlink.common import GENRE, clued_cells_of_edge


@attrs.frozen
class Chain:
    """What drawing one edge forces (see forced_chain), and what the forcing read: in a later
    state where none of those dots' and numbers' edges changed, it forces the same."""
    puts: tuple[tuple[int, int], ...]        # (edge, B_LINE or B_CROSS), in order
    drawn: tuple[int, ...]                   # the edges given a line, in order
    broken: str                              # why it stopped at a broken rule, or ''
    dots: frozenset[int]                     # the dots whose edges it read
    cells: frozenset[int]                    # the numbers whose edges it read


def follow(puzzle: SlitherPuzzle, state: State, e: int, limit: int = 400) -> Chain:
    """Draw edge e and follow only the forced moves: at dots (a line with one way on goes on,
    two lines cross the rest) and at numbers (a satisfied number crosses its other edges, one
    that needs all its open edges takes them), until a rule breaks or nothing is forced.

    The hottest loop of the trials' fills, so drawing is written out inline."""
    g = puzzle.graph
    incident, ends = g.incident, g.ends
    cell_edges, clues, clued_of = puzzle.cells, puzzle.clues, clued_cells_of_edge(puzzle)
    cands = list(state.cands)
    cands[e] = B_LINE
    todo: list[int] = list(ends[e])
    cells: list[int] = list(clued_of[e])
    puts: list[tuple[int, int]] = [(e, B_LINE)]
    dots_read: set[int] = set()
    cells_read: set[int] = set()
    broken = ""
    steps = 0
    while (todo or cells) and steps < limit:
        steps += 1
        if cells:
            v = -1
            k = cells.pop()
            cells_read.add(k)
            edges = cell_edges[k]
        else:
            v = todo.pop()
            dots_read.add(v)
            edges = incident[v]
        lines = open_ = 0               # (counted inline: a million times a solve)
        for f in edges:
            m = cands[f]
            if m == B_LINE:
                lines += 1
            elif m == OPEN:
                open_ += 1
        if v < 0:                       # at a number
            if not open_:
                continue
            if lines == clues[k]:
                value = B_CROSS
            elif lines + open_ == clues[k]:
                value = B_LINE
            else:
                continue
        else:                           # at a dot
            if lines > 2:
                broken = f"three lines would meet at {g.vertex_names[v]}"
                break
            if lines == 2:
                value = B_CROSS
            elif lines == 1 and open_ == 1:
                value = B_LINE
            elif lines == 1 and not open_:
                broken = f"the line would end at {g.vertex_names[v]}"
                break
            else:
                continue
        for f in edges:             # every edge still open takes the forced value, in order
            if cands[f] == OPEN:
                cands[f] = value
                todo.extend(ends[f])
                cells.extend(clued_of[f])
                puts.append((f, value))
    return Chain(tuple(puts), tuple(f for f, value in puts if value == B_LINE), broken,
                 frozenset(dots_read), frozenset(cells_read))


def forced_chain(puzzle: SlitherPuzzle, state: State, e: int, limit: int = 400) -> tuple[State, str] | None:
    """Draw edge e and follow only the forced moves (see `follow`). Returns the state and why
    it breaks the loop rule, or None."""
    return _verdict(puzzle, state, e, follow(puzzle, state, e, limit))


def _verdict(puzzle: SlitherPuzzle, state: State, e: int, chain: Chain) -> tuple[State, str] | None:
    """The state a chain drawn from edge e leads to and why it breaks the loop rule, or None."""
    g = puzzle.graph
    closed, pieces = _joins(g, paths(g, state), chain.drawn)
    if not closed:
        return (_after(state, chain), chain.broken) if chain.broken else None
    after = _after(state, chain)
    if pieces > 1:
        return after, "it would close a loop with other lines left outside"
    if not closes_ok(puzzle)(loops.closed_state(g, after, e)):
        return after, "it would close a loop that leaves a clue unsatisfied"
    return None


def _after(state: State, chain: Chain) -> State:
    cands = list(state.cands)
    for f, value in chain.puts:
        cands[f] = value
    return State(tuple(cands))


def _joins(g, p: Paths, drawn: Sequence[int]) -> tuple[bool, int]:
    """Add the drawn edges to the pieces of line: does one close a loop, and how many pieces
    are left? (Union-find over the pieces, so a long line costs nothing to follow; written out
    on a dict, since every candidate chain of every look asks.)"""
    comp, ends_of = p.comp, g.ends
    parent: dict[int, int] = {}          # piece number, or -1 - v for a dot v without a line
    pieces, closed = p.pieces, False
    for f in drawn:
        roots = []
        for v in ends_of[f]:
            c = comp[v]
            x = c if c >= 0 else -1 - v
            if x not in parent:
                parent[x] = x
                if c < 0:
                    pieces += 1              # a dot without a line so far: a piece of its own
            else:
                while (up := parent[x]) != x:
                    parent[x] = x = parent[up]      # (path halving)
            roots.append(x)
        a, b = roots
        if a == b:
            closed = True
        else:
            parent[a] = b
            pieces -= 1
    return closed, pieces


@heuristic(id="slitherlink.illegal-loop", genre=GENRE)
def illegal_loop(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    g = puzzle.graph
    ends = paths(g, state).end_of
    if not ends:
        return
    # an edge touching a loose end is where a line could be drawn towards a closing loop
    candidates = sorted({f for v in ends for f in g.incident[v] if state.cands[f] == OPEN})
    kept = solve_memory().setdefault(CHAINS_KEY, {})
    for e in candidates:
        found = _verdict(puzzle, state, e, _chain(puzzle, state, e, kept))
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


CHAINS_KEY = "slitherlink.illegal-loop.chains"
CHAINS_PER_EDGE = 4     # the chains of one edge kept (the fills of a trial's branches differ)


def _chain(puzzle: SlitherPuzzle, state: State, e: int, kept: dict) -> Chain:
    """follow(puzzle, state, e), or a chain of e followed earlier in this solve (`kept`: its
    scratch dict) whose edges at the dots and numbers it read have the same candidates here: a
    chain reads nothing else, so it draws the same here, in any branch of any trial."""
    cands = state.cands
    mine = kept.get(e)
    if mine is not None:
        for read, values, chain in mine:
            if read(cands) == values:
                return chain
    chain = follow(puzzle, state, e)
    incident, cell_edges = puzzle.graph.incident, puzzle.cells
    read = itemgetter(*{f for v in chain.dots for f in incident[v]}.union(
        *(cell_edges[k] for k in chain.cells)))
    if mine is None:
        mine = kept[e] = []
    mine.append((read, read(cands), chain))
    del mine[:-CHAINS_PER_EDGE]
    return chain


@heuristic(id="slitherlink.isolated-area", genre=GENRE)
def isolated_area(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for d in loops.isolated_areas(puzzle.graph, state, None, focus):
        yield Deduction(d.removals, {**d.params, "are": "is" if len(d.params["edges"]) == 1 else "are"})


# the loop's own rules (heuristics/common/loops.py) on a Slitherlink graph, where no dot must be
# visited: the rows of rules/techniques/slitherlink.yaml that name a family, in Slitherlink's words
register_families(GENRE, loops.family(lambda puzzle, closed: closes_ok(puzzle)(closed),
                                      required=lambda puzzle: None))
