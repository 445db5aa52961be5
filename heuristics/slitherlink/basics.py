"""Level 1 on every graph: count the lines around a clue, and at a dot."""
from __future__ import annotations

from typing import Iterator

from grader.genres.slitherlink.model import SlitherPuzzle
from grader.core.registry import heuristic
from grader.core.model import State
from grader.core.steps import Deduction
from heuristics.common import loops
from grader.kernels.loops import B_LINE, CROSS, LINE, OPEN

from heuristics.slitherlink.common import GENRE, carry, cells_near, is_are, lines_word


@heuristic(id="slitherlink.zero", genre=GENRE)
def zero(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for k, n, _, open_ in clue_lines(puzzle, state, focus):
        if n == 0:
            yield Deduction.build(state, put={e: CROSS for e in open_}, cells=_cells(puzzle, k),
                                  params={"cell": puzzle.cell_label(k), "are": is_are(open_),
                                          "edges": [puzzle.edge_label(e) for e in open_]})


def clue_lines(puzzle: SlitherPuzzle, state: State, focus) -> tuple[tuple[int, int, list[int], list[int]], ...]:
    """(cell, its number, its edges with a line, its open edges) for each clued cell near focus
    with an open edge. The three counts at numbers look one after another at every step of a
    fill, in one state with one focus: the last answer is kept with the puzzle, by the state's
    candidates themselves. (Not in the state's memo: a state whose memo stays empty lets the
    next one be known as a narrowing of the state before it, whose facts the caches hold.)"""
    cands = state.cands
    kept = puzzle.__dict__.get(CLUE_LINES_KEY)
    if kept is not None and kept[0] is cands and kept[1] == focus:
        return kept[2]
    rows = []
    clues, cells = puzzle.clues, puzzle.cells
    for k in cells_near(puzzle, focus):         # (clue_counts, inlined: asked at every step)
        lines, open_ = [], []
        for e in cells[k]:
            m = cands[e]
            if m == B_LINE:
                lines.append(e)
            elif m == OPEN:
                open_.append(e)
        if open_:
            rows.append((k, clues[k], lines, open_))
    found = tuple(rows)
    puzzle.__dict__[CLUE_LINES_KEY] = (cands, focus, found)
    return found


CLUE_LINES_KEY = "_slitherlink_clue_lines"


@heuristic(id="slitherlink.clue-satisfied", genre=GENRE)
def clue_satisfied(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for k, n, lines, open_ in clue_lines(puzzle, state, focus):
        if len(lines) == n:
            yield Deduction.build(state, put={e: CROSS for e in open_}, premises=lines,
                                  cells=_cells(puzzle, k),
                                  params={"n": n, "cell": puzzle.cell_label(k), "lines": lines_word(n),
                                          "are": is_are(open_), "edges": [puzzle.edge_label(e) for e in open_]})


@heuristic(id="slitherlink.clue-needs-all", genre=GENRE)
def clue_needs_all(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for k, n, lines, open_ in clue_lines(puzzle, state, focus):
        if len(lines) + len(open_) == n:
            crossed = [e for e in puzzle.cells[k] if e not in lines and e not in open_]
            yield Deduction.build(state, put={e: LINE for e in open_}, premises=crossed,
                                  cells=_cells(puzzle, k),
                                  params={"n": n, "cell": puzzle.cell_label(k),
                                          "need": (lines_word(n - len(lines)).replace("line", "more line")
                                                   if lines else lines_word(n)),
                                          "carry": carry(open_), "edges": [puzzle.edge_label(e) for e in open_]})


@heuristic(id="slitherlink.dot-full", genre=GENRE)
def dot_full(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    for d in loops.vertex_full(puzzle.graph, state, focus):
        yield Deduction(d.removals, {**d.params, "are": is_are(d.params["edges"])}, d.premises)


def _cells(puzzle: SlitherPuzzle, k: int):
    return (puzzle.cell(k),) if puzzle.square else ()
