"""The fills of a solve's hypotheses, each made once: the what-ifs of level 4 and the short
pass of the trials of level 5 follow the same assumption from the same state with the same
rules (an edge either way, the two ways of a number or of a loose end), and the later one
takes the trace the first one made.

Exact: a fill with the rules of levels 1-3 reads only its start, where it starts looking, its
rules and its step budget (those rules keep nothing in the solve's memory that could change
what they find: only facts of a state, such as the parts of the board, by its crossings)."""
from __future__ import annotations

from typing import Iterable, Sequence

from grader.core.engine import out_of_time, solve_memory
from grader.core.model import State
from grader.core.probing import fill
from grader.core.registry import Heuristic
from grader.core.steps import Trace
from grader.genres.slitherlink.model import SlitherPuzzle

FILLS_KEY = "slitherlink.fills"
# The fills kept, as candidates of their starts: a trace holds about two states of the board
# (its start is the key), so some 16 MB on the biggest boards (1,500 edges: 660 fills); the
# what-ifs' fills come back within a few hundred fills (the trials' short pass after them)
KEPT_CANDIDATES = 1_000_000
PURE_LEVEL = 3          # the highest level of a fill's rules for its trace to be kept


def remembered_fill(puzzle: SlitherPuzzle, state: State, changed: Iterable[int], max_level: int,
                    max_steps: int, heuristics: Sequence[Heuristic] | None = None,
                    greedy: bool = False) -> Trace:
    """grader.core.probing.fill, or the same fill made earlier in the solve (given rules of
    levels 1-3 only; `max_level` does not matter then: the fill uses the rules given)."""
    if heuristics is None or any(h.level > PURE_LEVEL for h in heuristics):
        return fill(puzzle, state, changed, max_level, max_steps, heuristics, greedy)
    kept = solve_memory().setdefault(FILLS_KEY, {})
    changed = frozenset(changed)
    key = (state.cands, changed, max_steps, tuple(heuristics), greedy)
    trace = kept.get(key)
    if trace is None:
        trace = fill(puzzle, state, changed, max_level, max_steps, heuristics, greedy)
        if not out_of_time():           # (a fill the solve's deadline cut short is not kept)
            if len(kept) >= max(64, KEPT_CANDIDATES // max(len(state.cands), 1)):
                del kept[next(iter(kept))]          # the oldest
            kept[key] = trace
    return trace
