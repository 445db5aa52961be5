"""Small helpers shared by the Slitherlink technique modules."""
from __future__ import annotations

from typing import Iterable

from grader.genres.slitherlink.model import SlitherPuzzle
from grader.core.model import State
from grader.core.probing import trial_rules
from grader.core.registry import Heuristic
from grader.kernels.loops import B_CROSS, B_LINE, OPEN
from grader.kernels.recent import last_answer

GENRE = "slitherlink"

# the what-ifs of level 4 (heuristics/slitherlink/whatif.py): searches of their own, left out of
# the fills of the trials of level 5
WHAT_IFS = ("slitherlink.clue-what-if", "slitherlink.end-what-if", "slitherlink.edge-what-if",
            "slitherlink.clue-way-fails", "slitherlink.end-way-fails")

# the patterns of the clues alone (heuristics/slitherlink/patterns.py), which look only at the
# whole board (no focus), once at the start of a solve. A fill always looks from what it
# assumed (a focus), so there they never find anything: they are left out of its rules rather
# than asked at every step of every fill (tests/test_slitherlink.py checks that they find
# nothing with a focus)
CLUES_ONLY = ("slitherlink.diagonal-threes", "slitherlink.three-one-border", "slitherlink.two-in-corner",
              "slitherlink.diagonal-three-two-three")


def fill_rules(level: int, puzzle: SlitherPuzzle | None = None, state: State | None = None
               ) -> list[Heuristic]:
    """The techniques a fill (a what-if's, a trial's) follows an assumption with: those up to
    `level` but the what-ifs of level 4, which are searches of their own (a trial followed by
    what-ifs at every step would cost many times as much and find what the trial's own fill
    finds a few steps later), and the patterns of the clues alone (CLUES_ONLY). Given the
    state the fills start from (an assumption sets only open edges), also the rules that can
    find nothing there nor in any state a fill reaches from it (done_for_good)."""
    rules = trial_rules(GENRE, level, WHAT_IFS + CLUES_ONLY)
    if state is None:
        return rules
    return [h for h in rules if not (h.id in DONE_FOR_GOOD and DONE_FOR_GOOD[h.id](puzzle, state))]


def zeros_done(puzzle: SlitherPuzzle, state: State) -> bool:
    """Whether no 0 has an open edge: `zero` reads nothing else, and an edge once decided stays
    so, so it finds nothing here nor in any state that narrows this one. (So from the opening
    steps on; a fill calls it at every step, first of all its rules.)"""
    cands = state.cands
    return not any(cands[e] == OPEN for k in _zeros(puzzle) for e in puzzle.cells[k])


def _zeros(puzzle: SlitherPuzzle) -> tuple[int, ...]:
    return puzzle.once("_slitherlink_zeros", lambda: tuple(k for k in puzzle.clued if puzzle.clues[k] == 0))


# rules that find nothing in a state nor in any narrowing of it when the test holds there (a
# rule's module adds its own test beside the rule: patterns.py adds adjacent-threes')
DONE_FOR_GOOD = {"slitherlink.zero": zeros_done}


def cells_near(puzzle: SlitherPuzzle, focus: frozenset[int] | None, clued_only: bool = True
               ) -> Iterable[int]:
    """Cells with an edge in `focus` (every cell when focus is None)."""
    if focus is None:
        return puzzle.clued if clued_only else range(len(puzzle.cells))
    near = clued_cells_of_edge(puzzle) if clued_only else puzzle.cells_of_edge
    if len(focus) == 1:
        for e in focus:
            return near[e]          # (most steps of a fill change one edge or a few)
    # several focuses take turns within a step (a technique's own, one grown by a ring of
    # edges), so a few answers are kept, not only the last
    memo = puzzle.memo("_slitherlink_cells_near", NEAR_REMEMBERED)
    key = (clued_only, focus)
    found = memo.get(key)
    if found is None:
        found = memo[key] = tuple(sorted({k for e in focus for k in near[e]}))
    return found


def clued_cells_of_edge(puzzle: SlitherPuzzle) -> tuple[tuple[int, ...], ...]:
    """For each edge, its cells with a number, smallest first (once per puzzle: a forced chain
    asks for every edge it sets, a focused look for every edge in its focus)."""
    kept = puzzle.__dict__.get(CLUED_CELLS_KEY)       # (asked thousands of times a solve)
    if kept is None:
        clues = puzzle.clues
        kept = puzzle.once(CLUED_CELLS_KEY, lambda: tuple(
            tuple(k for k in ks if clues[k] is not None) for ks in puzzle.cells_of_edge))
    return kept


CLUED_CELLS_KEY = "_slitherlink_clued_cells_of_edge"


NEAR_REMEMBERED = 256       # focuses whose cells are kept (those of the latest steps)


def grown_focus(puzzle: SlitherPuzzle, focus: frozenset[int] | None) -> frozenset[int] | None:
    """The changed edges plus every edge at their dots (a corner change matters to a cell),
    kept for the next technique of the step, which asks with the same focus."""
    if focus is None:
        return None
    return last_answer(puzzle, "_slitherlink_grown_focus", focus, lambda: frozenset().union(
        *map(_edges_at_ends(puzzle).__getitem__, focus)))


def _edges_at_ends(puzzle: SlitherPuzzle) -> tuple[tuple[int, ...], ...]:
    """For each edge, every edge at its two dots, itself included (once per puzzle)."""
    g = puzzle.graph
    return puzzle.shape_once("_slitherlink_edges_at_ends", lambda: tuple(
        tuple(e2 for d in g.ends[e] for e2 in g.incident[d]) for e in range(len(g.ends))))


def edges_around(puzzle: SlitherPuzzle, edges: Iterable[int]) -> set[int]:
    """The edges, every edge at their dots and every edge of their cells: where a change can
    matter to what was read off them."""
    return set().union(*map(_around_edge(puzzle).__getitem__, edges))


def _around_edge(puzzle: SlitherPuzzle) -> tuple[frozenset[int], ...]:
    """For each edge, edges_around of it alone (once per puzzle)."""
    g, cells = puzzle.graph, puzzle.cells
    return puzzle.shape_once("_slitherlink_around_edge", lambda: tuple(
        frozenset(f for v in g.ends[e] for f in g.incident[v]).union(
            *(cells[k] for k in puzzle.cells_of_edge[e])) for e in range(len(g.ends))))


def lines_word(n: int) -> str:
    return "1 line" if n == 1 else f"{n} lines"


def is_are(items) -> str:
    """'is' for one item, 'are' for several (for "{edges} {are} crossed")."""
    return "is" if len(items) == 1 else "are"


def carry(items) -> str:
    return "carries" if len(items) == 1 else "carry"


def could_be_whole_loop(puzzle: SlitherPuzzle, state: State, edges: Iterable[int]) -> bool:
    """Could these edges alone be the whole loop? (none of them crossed, no line elsewhere,
    every clue met). Patterns that argue "else these cells' outline would close a loop" hold
    only when that small loop is not itself the answer. The caller knows the edges form one
    simple cycle."""
    mine = set(edges)
    for e, m in enumerate(state.cands):
        if not m & (B_LINE if e in mine else B_CROSS):
            return False
    cells = puzzle.cells
    return all(sum(1 for e in cells[k] if e in mine) == puzzle.clues[k] for k in puzzle.clued)
