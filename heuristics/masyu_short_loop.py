"""Masyu, level 2: a short line must not close on itself.

A person sees at a glance that a short stretch of line (a few cells, bending round) would close
into a small loop if its two ends, side by side, were joined; the loop is one and must pass
every pearl, so unless that small loop were the whole answer the edge between the ends is
crossed out. Tracing a long line round the board to find where its other end is stays the
level-3 technique (masyu.no-early-loop): this one looks only at lines of a few edges, whose
whole length lies next to the edge.
"""
from __future__ import annotations

from typing import Iterator

import attrs

from grader.core.model import State
from grader.core.registry import heuristic
from grader.core.steps import Deduction
from grader.genres.masyu.model import MasyuPuzzle
from grader.kernels.loops import paths
from heuristics.common.loops import premature_loop

GENRE = "masyu"
SHORT_LINE = 7     # edges: the loop it would close has at most 8 cells (a ring round one cell)


@heuristic(id="masyu.short-loop", genre=GENRE)
def short_loop(puzzle: MasyuPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    graph = puzzle.graph
    lines = paths(graph, state)
    if not any(lines.edges_in[lines.comp[end]] <= SHORT_LINE for end in lines.end_of):
        return      # no short line: spare the family its closing checks of long lines (level 3's)
    for d in premature_loop(graph, state, lambda closed: not puzzle.genre.violations(puzzle, closed),
                            puzzle.required, focus):
        (var, _), = d.removals
        length = lines.edges_in[lines.comp[graph.ends[graph.edge_of_var[var]][0]]]
        if length <= SHORT_LINE:
            yield attrs.evolve(d, params={**d.params, "length": length})
