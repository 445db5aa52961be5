"""The rules of Masyu's pearls on a partial state: what a pearl's lines already get wrong
(`pearl_problem`, which violations reports), and why a black pearl cannot send a leg one way
(`leg_blocker`) or a white pearl cannot be passed along an axis (`axis_blocker`).

The puzzle is a GridLoop with `pearls` (NONE, WHITE or BLACK per cell) and `pearl_memo` (a dict
for `question`).
"""
from __future__ import annotations

import operator
from typing import Callable, Hashable, Sequence

import attrs

from grader.core.model import State
from grader.kernels.cell_loops import DIRS, SIDE, TURNS
from grader.kernels.loops import B_CROSS, B_LINE

NONE, WHITE, BLACK = 0, 1, 2


def _pearl_problem(puzzle, state: State, i: int) -> str:
    """What a pearl's lines already get wrong, or ''."""
    cands, at = state.cands, puzzle.dir_vars[i]
    # in the fixed order of DIRS (a set's order changes with the hash seed: so would the reason)
    lines = tuple(d for d in DIRS if (v := at.get(d)) is not None and cands[v] == B_LINE)
    straight = set(lines) in ({"n", "s"}, {"e", "w"})
    if puzzle.pearls[i] == BLACK:
        if straight:
            return "has the loop running straight through it"
        for d in lines:
            j = puzzle.dir_cells[i][d]
            at_j = puzzle.dir_vars[j]
            on = at_j.get(d)
            if on is None or cands[on] == B_CROSS:
                return f"has a line towards {puzzle.cell(j)} that cannot run straight on"
            if any((v := at_j.get(t)) is not None and cands[v] == B_LINE for t in TURNS[d]):
                return f"has a line towards {puzzle.cell(j)} that turns there"
        for axis in ("ns", "ew"):       # (remembered as a whole: the parts are computed)
            a = _leg_blocker(puzzle, state, i, axis[0])
            if a:
                b = _leg_blocker(puzzle, state, i, axis[1])
                if b:
                    return f"can leave it neither {SIDE[axis[0]]} nor {SIDE[axis[1]]}: {a}; {b}"
        return ""
    a = _axis_blocker(puzzle, state, i, "ew")
    if a:
        b = _axis_blocker(puzzle, state, i, "ns")
        if b:
            return f"cannot be passed straight: {a}; {b}"
    if len(lines) == 2 and not straight:
        return "has the loop turning on it"
    if straight:
        ends = [puzzle.next_cell(i, d) for d in lines]
        if all(state.cands[v] == B_LINE for j, d in zip(ends, lines)
               if (v := puzzle.edge_var(j, d)) is not None) and \
                all(puzzle.edge_var(j, d) is not None for j, d in zip(ends, lines)):
            return "has the loop running straight on through both neighbours"
    return ""


# These three run hundreds of thousands of times in trials; each reads only a few edges near
# the pearl (the *_inputs below), so its answer is remembered per pearl, question and the
# candidates of those edges.

ANSWERS_PER_QUESTION = 4096     # remembered answers per pearl and question (a few MB at most)


@attrs.define(eq=False)
class Question:
    """One rule asked about one pearl (and side or axis), its answers remembered per the
    candidates of the edges it reads. It holds no puzzle (the puzzle keeps it: a cycle would
    leave the puzzle and all it keeps to the collector), so the puzzle comes with each ask."""
    inputs: Callable[[Sequence[int]], Hashable]     # the candidates of those edges
    rule: Callable[..., str]                        # the rule itself: rule(puzzle, state, *args)
    args: tuple                                     # the pearl (and side or axis)
    answers: dict = attrs.Factory(dict)

    def answer(self, puzzle, state: State) -> str:
        key = self.inputs(state.cands)
        out = self.answers.get(key)
        if out is None:
            if len(self.answers) >= ANSWERS_PER_QUESTION:
                self.answers.clear()
            out = self.answers[key] = self.rule(puzzle, state, *self.args)
        return out


def question(puzzle, kind: str, i: int, arg: str | None = None) -> Question:
    """The puzzle's Question of `kind` ('pearl', 'leg' or 'axis') about pearl i (and arg: the
    leg's direction or the axis), made once."""
    memo = puzzle.pearl_memo
    q = memo.get((kind, i, arg))
    if q is None:
        inputs, rule = _RULES[kind]
        args = (i,) if arg is None else (i, arg)
        q = memo[kind, i, arg] = Question(_getter(inputs(puzzle, *args)), rule, args)
    return q


def _getter(variables: tuple[int, ...]) -> Callable[[Sequence[int]], Hashable]:
    """A function giving the candidates of `variables` as one hashable value."""
    if not variables:
        return lambda cands: ()
    return operator.itemgetter(*variables)


def pearl_problem(puzzle, state: State, i: int) -> str:
    """What a pearl's lines already get wrong, or ''. (Asked the most, in trials: its
    Question is also kept under the bare cell number, a key with nothing to build.)"""
    q = puzzle.pearl_memo.get(i)
    if q is None:
        q = puzzle.pearl_memo[i] = question(puzzle, "pearl", i)
    return q.answer(puzzle, state)


def leg_blocker(puzzle, state: State, i: int, d: str) -> str:
    """Why the black pearl at i cannot send its line two cells in direction d, or ''."""
    return question(puzzle, "leg", i, d).answer(puzzle, state)


def axis_blocker(puzzle, state: State, i: int, axis: str) -> str:
    """Why the line cannot run through the white pearl at i along axis ('ew' or 'ns'), or ''."""
    return question(puzzle, "axis", i, axis).answer(puzzle, state)


# --- the edges each rule reads -----------------------------------------------------------------

def _edges_of(puzzle, cells) -> tuple[int, ...]:
    return tuple(sorted({v for c in cells if c is not None for v in puzzle.dir_vars[c].values()}))


def leg_inputs(puzzle, i: int, d: str) -> tuple[int, ...]:
    """The edges _leg_blocker(i, d) reads: those of the next two cells in direction d, and of
    the third when the second holds a white pearl."""
    j = puzzle.next_cell(i, d)
    k = None if j is None else puzzle.next_cell(j, d)
    if k is None:
        return ()
    m = puzzle.next_cell(k, d) if puzzle.pearls[k] == WHITE else None
    return _edges_of(puzzle, (j, k, m))


def axis_inputs(puzzle, i: int, axis: str) -> tuple[int, ...]:
    """The edges _axis_blocker(i, axis) reads: those of the pearl and its two cells on the axis."""
    return _edges_of(puzzle, (i, *(puzzle.next_cell(i, d) for d in axis)))


def pearl_inputs(puzzle, i: int) -> tuple[int, ...]:
    """The edges _pearl_problem(i) reads: a white pearl's and its neighbours'; for a black one
    also all its legs read."""
    near = _edges_of(puzzle, (i, *puzzle.dir_cells[i].values()))
    if puzzle.pearls[i] == WHITE:
        return near
    return tuple(sorted(set(near).union(*(leg_inputs(puzzle, i, d) for d in DIRS))))


def _crossed(puzzle, state: State, i: int, d: str) -> bool:
    """The edge is crossed out, or there is none (the border)."""
    v = puzzle.dir_vars[i].get(d)
    return v is None or state.cands[v] == B_CROSS


def can_turn(puzzle, state: State, j: int | None, d: str) -> bool:
    """Could a line arriving at cell j while heading in direction d turn there?"""
    if j is None or puzzle.pearls[j] == WHITE:
        return False
    cands, at = state.cands, puzzle.dir_vars[j]
    v = at.get(d)
    if v is not None and cands[v] == B_LINE:
        return False
    for t in TURNS[d]:          # (a loop, not any() over a generator: asked in every trial)
        v = at.get(t)
        if v is not None and cands[v] != B_CROSS:
            return True
    return False


# The two below read the grid through dir_vars and dir_cells directly (not edge_var and
# next_cell): they run hundreds of thousands of times in a solve with trials.

def _leg_blocker(puzzle, state: State, i: int, d: str) -> str:
    """Why the black pearl at i cannot send its line two cells in direction d, or ''."""
    cells, edges, cands = puzzle.dir_cells, puzzle.dir_vars, state.cands
    j = cells[i].get(d)
    k = None if j is None else cells[j].get(d)
    if j is None or k is None:
        return "it would run into the border"
    for a in (i, j):
        v = edges[a][d]
        if cands[v] == B_CROSS:
            return f"{puzzle.graph.edge_names[puzzle.graph.edge_of_var[v]]} is crossed out"
    if puzzle.pearls[j] == BLACK:
        return f"the loop would run straight through the black pearl at {puzzle.cell(j)}"
    at_j = edges[j]
    for t in TURNS[d]:
        v = at_j.get(t)
        if v is not None and cands[v] == B_LINE:
            return f"a line already turns at {puzzle.cell(j)}"
    if cands[at_j[d]] != B_LINE and [cands[v] for v in edges[k].values()].count(B_LINE) >= 2:
        return f"{puzzle.cell(k)} already has two lines"
    if puzzle.pearls[k] == WHITE:
        if _crossed(puzzle, state, k, d):
            return f"the white pearl at {puzzle.cell(k)} could not run straight on"
        m = cells[k].get(d)
        if not can_turn(puzzle, state, m, d):
            return (f"the white pearl at {puzzle.cell(k)} would need a turn at "
                    f"{puzzle.cell(m) if m is not None else 'the border'}, "
                    f"which cannot happen")
    return ""


def _axis_blocker(puzzle, state: State, i: int, axis: str) -> str:
    """Why the line cannot run through the white pearl at i along axis ('ew' or 'ns'), or ''."""
    cells, at, cands = puzzle.dir_cells[i], puzzle.dir_vars[i], state.cands
    for d in axis:
        if d not in cells:
            return f"it would run into the border to the {SIDE[d]}"
        if cands[at[d]] == B_CROSS:
            return f"{edge_name(puzzle, i, d)} is crossed out"
    for t in TURNS[axis[0]]:
        v = at.get(t)
        if v is not None and cands[v] == B_LINE:
            return f"a line already leaves it to the {SIDE[t]}"
    a, b = cells[axis[0]], cells[axis[1]]
    if not can_turn(puzzle, state, a, axis[0]) and not can_turn(puzzle, state, b, axis[1]):
        return f"the line could turn neither at {puzzle.cell(a)} nor at {puzzle.cell(b)}"
    return ""


def edge_name(puzzle, i: int, d: str) -> str:
    return puzzle.graph.edge_names[puzzle.graph.edge_of_var[puzzle.edge_var(i, d)]]


_RULES = {"pearl": (pearl_inputs, _pearl_problem), "leg": (leg_inputs, _leg_blocker),
          "axis": (axis_inputs, _axis_blocker)}
