"""Level 5: for one edge, assume a line and assume a cross; fill in greedily with the easier
techniques; keep what both agree on, or drop the assumption that breaks a rule.

Edges are tried where a person would look first: at the loose ends of lines, then around
clues, then anywhere (any order is sound; this one finds refutations sooner)."""
from __future__ import annotations

from grader.genres.slitherlink import SlitherPuzzle
from grader.model import State
from grader.probing import register_probing
from heuristics.common import loops
from heuristics.common.loops import OPEN

from .common import GENRE


def probe_candidates(puzzle: SlitherPuzzle, state: State) -> list[int]:
    g = puzzle.graph
    p = loops.paths(g, state)
    first = [e for v in sorted(p.end_of) for e in g.incident[v] if state.cands[e] == OPEN]
    second = [e for k in puzzle.clued for e in puzzle.cells[k] if state.cands[e] == OPEN]
    seen: set[int] = set()
    out = []
    for e in first + second + [e for e in range(len(state.cands)) if state.cands[e] == OPEN]:
        if e not in seen:
            seen.add(e)
            out.append(e)
    return out


trial_and_error = register_probing(
    GENRE, candidates=probe_candidates,
    catalogue="for one edge: assume edge, and assume empty. fill in greedily and do the usual stuff")
