"""Masyu techniques, by level (spec/heuristics-catalogue.txt, MASYU).

The pearl rules reason about "legs" (a black pearl's two straight stretches of two edges)
and "axes" (the straight line through a white pearl). The catalogue's many level-1 patterns
(black by the border, two blacks in a row, three whites in a row, `*.oo`, ...) are all cases of
"this leg / this axis is impossible"; each blocker is named in the explanation.
Loop rules (degree, loose ends, premature loop) come from heuristics/common/loops.py.
Level 4 adds short what-ifs about one pearl or loose end (every way followed a few steps with
the level-1 rules, or further with the loop patterns of level 3 where only failures count):
the recurring shapes of the level-5 trials on the janko puzzles, kept bounded and readable.
"""
from __future__ import annotations

import operator
from typing import Callable, Iterable, Iterator, Sequence

import attrs

from grader.genres.masyu.model import MasyuPuzzle
from grader.core.registry import REGISTRY, heuristic, register_families
from grader.core.model import State
from grader.core.probing import register_probing, register_last_resort
from grader.core.steps import Deduction, resuming
from heuristics.common import cell_loops, whatif
from heuristics.common.focus import near_then_the_rest
from heuristics.common.loops import premature_loop
from grader.kernels.cell_loops import DIRS, OPPOSITE, SIDE, TURNS
from grader.kernels.loops import B_CROSS, B_LINE, CROSS, LINE, OPEN, loose_ends, paths, split
from grader.kernels.pearls import (BLACK, NONE, WHITE, axis_blocker, axis_inputs, can_turn, edge_name,
                                   leg_blocker, leg_inputs, pearl_inputs, pearl_problem, question)
from grader.kernels.recent import last_answer, narrowed

GENRE = "masyu"


# --- what a pearl can still do ---------------------------------------------------------------

def _leg_vars(puzzle: MasyuPuzzle, i: int, d: str) -> list[int]:
    j = puzzle.next_cell(i, d)
    out = [puzzle.edge_var(i, d)]
    if j is not None:
        out.append(puzzle.edge_var(j, d))
    return [v for v in out if v is not None]


def pearls_to_check(puzzle: MasyuPuzzle, kind: int, focus) -> Iterable[int]:
    """The pearls of `kind` near what changed (within 4 cells; all without a focus), for the
    what-ifs' subjects: the last answer for each kind is kept."""
    if focus is None:
        return puzzle.pearls_of[kind]
    near = puzzle.pearls_near_of[kind]
    return last_answer(puzzle, f"_masyu_last_pearls_{kind}", focus,
                       lambda: sorted({p for v in focus for p in near.get(v, ())}))


def pearls_reading(puzzle: MasyuPuzzle, rule: str, reads, focus) -> Sequence[int]:
    """The pearls (in order) where the level-1 pearl rule `rule` reads a changed edge, all its
    pearls without a focus. `reads(puzzle)` gives {pearl: the edges the rule reads there}: a
    pearl where none of them changed since the rule last found nothing still gives nothing."""
    readers = puzzle.once(f"_masyu_readers_{rule}", lambda: _readers(reads(puzzle)))
    if focus is None:
        return readers[None]
    return last_answer(puzzle, f"_masyu_last_readers_{rule}", focus,
                       lambda: sorted({p for v in focus for p in readers.get(v, ())}))


def pearls_and_keys(puzzle: MasyuPuzzle, rule: str, reads, focus) -> tuple[Sequence[int], dict[int, int]]:
    """pearls_reading, and per pearl an edge the rule reads there that as few other pearls
    read as can be: a look resumed at a pearl (Deduction.resume) asks for it by that edge."""
    def keys() -> dict[int, int]:
        readers = puzzle.once(f"_masyu_readers_{rule}", lambda: _readers(reads(puzzle)))
        return {p: min(set(vs), key=lambda v: (len(readers[v]), v)) for p, vs in reads(puzzle).items()}
    return pearls_reading(puzzle, rule, reads, focus), puzzle.once(f"_masyu_resume_keys_{rule}", keys)


def _readers(reads: dict[int, Iterable[int]]) -> dict:
    """{edge: the pearls reading it}, and under None every pearl, in order."""
    out: dict = {None: tuple(sorted(reads))}
    for p in out[None]:
        for v in set(reads[p]):
            out.setdefault(v, []).append(p)
    return out


# --- level 1: pearls -------------------------------------------------------------------------

def _table(puzzle: MasyuPuzzle, name: str, make) -> dict:
    """A per-puzzle table of what a level-1 pearl rule would put at each pearl and side (it
    depends only on the grid): a rule skips a pearl whose put is already decided before it
    reads the pearl's surroundings, as most pearls near what changed are."""
    return puzzle.once(f"_masyu_puts_{name}", lambda: make(puzzle))


@attrs.frozen(eq=False)
class Put:
    """What a rule puts ({var: value}), with a quick test of whether it is all there already."""
    values: dict[int, int]
    read: Callable[[Sequence[int]], object]     # the candidates of the put's variables
    done_when: object                           # what `read` gives when every value is put

    @classmethod
    def of(cls, values: dict[int, int]) -> "Put":
        variables = tuple(values)
        masks = tuple(1 << values[v] for v in variables)
        if len(variables) == 1:             # (itemgetter of one index gives the item itself)
            return cls(values, operator.itemgetter(variables[0]), masks[0])
        return cls(values, operator.itemgetter(*variables) if variables else lambda cands: (), masks)

    def done(self, cands: Sequence[int]) -> bool:
        return self.read(cands) == self.done_when


def _blocked_puts(puzzle: MasyuPuzzle) -> dict:
    """(black pearl, blocked side d) -> (put, the legs drawn on the other side, the question
    whether d is blocked)."""
    out = {}
    for i in puzzle.pearls_of[BLACK]:
        for d in DIRS:
            legs = _leg_vars(puzzle, i, OPPOSITE[d])
            put = {v: LINE for v in legs}
            first = puzzle.edge_var(i, d)
            if first is not None:
                put[first] = CROSS
            out[i, d] = Put.of(put), legs, question(puzzle, "leg", i, d)
    return out


def _blocked_reads(puzzle: MasyuPuzzle) -> dict[int, list[int]]:
    """Black pearl -> what black-leg-blocked reads there: its puts and the legs' questions."""
    puts = _table(puzzle, "blocked", _blocked_puts)
    return {i: [v for d in DIRS for v in (*puts[i, d][0].values, *leg_inputs(puzzle, i, d))]
            for i in puzzle.pearls_of[BLACK]}


@heuristic(id="masyu.black-leg-blocked", genre=GENRE)
def black_leg_blocked(puzzle: MasyuPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    puts, cands = _table(puzzle, "blocked", _blocked_puts), state.cands
    pearls, keys = pearls_and_keys(puzzle, "blocked", _blocked_reads, focus)
    for at, i in enumerate(pearls):
        for d in DIRS:
            put, legs, blocked = puts[i, d]
            if put.done(cands):
                continue
            reason = blocked.answer(puzzle, state)
            if not reason:
                continue
            yield resuming(Deduction.build(
                state, put=put.values, cells=[puzzle.cell(i)],
                params={"pearl": puzzle.cell(i), "side": SIDE[d], "reason": reason, "opposite": SIDE[OPPOSITE[d]],
                        "edges": [puzzle.graph.edge_names[puzzle.graph.edge_of_var[v]] for v in legs]}),
                pearls, at, keys)


def _extend_puts(puzzle: MasyuPuzzle) -> dict:
    """Black pearl -> [(side d, the edge to d, put)] for each side with a next cell: when that
    edge carries the loop, the leg runs on two cells, the other side and the turns at the
    next cell are crossed out."""
    out = {}
    for i in puzzle.pearls_of[BLACK]:
        out[i] = sides = []
        for d in DIRS:
            j = puzzle.next_cell(i, d)
            if j is None:
                continue
            put = {v: LINE for v in _leg_vars(puzzle, i, d)}
            back = puzzle.edge_var(i, OPPOSITE[d])
            if back is not None:
                put[back] = CROSS
            for t in TURNS[d]:
                v = puzzle.edge_var(j, t)
                if v is not None:
                    put[v] = CROSS
            sides.append((d, puzzle.edge_var(i, d), Put.of(put)))
    return out


def _extend_reads(puzzle: MasyuPuzzle) -> dict[int, list[int]]:
    """Black pearl -> what black-leg-extend reads there: each side's first edge and put."""
    puts = _table(puzzle, "extend", _extend_puts)
    return {i: [v for _, first, put in sides for v in (first, *put.values)] for i, sides in puts.items()}


@heuristic(id="masyu.black-leg-extend", genre=GENRE)
def black_leg_extend(puzzle: MasyuPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    puts, cands = _table(puzzle, "extend", _extend_puts), state.cands
    pearls, keys = pearls_and_keys(puzzle, "extend", _extend_reads, focus)
    for at, i in enumerate(pearls):
        for d, first, put in puts[i]:
            if cands[first] != B_LINE or put.done(cands):
                continue
            j = puzzle.next_cell(i, d)
            edge = edge_name(puzzle, j, d) if puzzle.edge_var(j, d) is not None else "the border"
            yield resuming(Deduction.build(state, put=put.values, premises=[first], cells=[puzzle.cell(i)],
                                           params={"pearl": puzzle.cell(i), "side": SIDE[d], "edge": edge,
                                                   "opposite": SIDE[OPPOSITE[d]]}), pearls, at, keys)


def _axis_puts(puzzle: MasyuPuzzle) -> dict:
    """(white pearl, blocked axis) -> (put, the edges drawn along the other axis, the question
    whether the axis is blocked)."""
    out = {}
    for i in puzzle.pearls_of[WHITE]:
        for axis, other in (("ew", "ns"), ("ns", "ew")):
            put = {v: CROSS for d in axis if (v := puzzle.edge_var(i, d)) is not None}
            keep = [v for d in other if (v := puzzle.edge_var(i, d)) is not None]
            put.update({v: LINE for v in keep})
            out[i, axis] = Put.of(put), keep, question(puzzle, "axis", i, axis)
    return out


def _axis_reads(puzzle: MasyuPuzzle) -> dict[int, list[int]]:
    """White pearl -> what white-axis reads there: its puts and the axes' questions."""
    puts = _table(puzzle, "axis", _axis_puts)
    return {i: [v for axis in ("ew", "ns") for v in (*puts[i, axis][0].values, *axis_inputs(puzzle, i, axis))]
            for i in puzzle.pearls_of[WHITE]}


@heuristic(id="masyu.white-axis", genre=GENRE)
def white_axis(puzzle: MasyuPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    words = {"ew": "across", "ns": "up and down"}
    puts, cands = _table(puzzle, "axis", _axis_puts), state.cands
    pearls, keys = pearls_and_keys(puzzle, "axis", _axis_reads, focus)
    for at, i in enumerate(pearls):
        for axis, other in (("ew", "ns"), ("ns", "ew")):
            put, keep, blocked = puts[i, axis]
            if put.done(cands):
                continue
            reason = blocked.answer(puzzle, state)
            if not reason:
                continue
            yield resuming(Deduction.build(
                state, put=put.values, cells=[puzzle.cell(i)],
                params={"pearl": puzzle.cell(i), "axis": words[axis], "other": words[other], "reason": reason,
                        "edges": [puzzle.graph.edge_names[puzzle.graph.edge_of_var[v]] for v in keep]}),
                pearls, at, keys)


def _turn_checks(puzzle: MasyuPuzzle) -> dict:
    """White pearl -> [(its two edges along an axis, [(d, the cell a beyond the pearl to d, the
    cell b to the other side, the edge from b on away from the pearl)])], for the axes with both
    edges and the sides whose far edge exists: the rest never gives a deduction."""
    out = {}
    for i in puzzle.pearls_of[WHITE]:
        out[i] = axes = []
        for axis in ("ew", "ns"):
            pair = tuple(puzzle.edge_var(i, d) for d in axis)
            if None in pair:
                continue
            sides = []
            for d in axis:
                o = OPPOSITE[d]
                b = puzzle.next_cell(i, o)
                v = puzzle.edge_var(b, o)
                if v is not None:
                    sides.append((d, puzzle.next_cell(i, d), b, v))
            axes.append((pair, sides))
    return out


def _turn_reads(puzzle: MasyuPuzzle) -> dict[int, list[int]]:
    """White pearl -> what white-turn reads there: the axis, the far edge and the cell
    where the line would have to turn (can_turn reads its edges)."""
    checks = _table(puzzle, "turn", _turn_checks)
    return {i: [v for pair, sides in axes for v in (*pair, *(w for _, a, _, far in sides
                                                            for w in (far, *puzzle.dir_vars[a].values())))]
            for i, axes in checks.items()}


@heuristic(id="masyu.white-turn", genre=GENRE)
def white_turn(puzzle: MasyuPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    checks, cands = _table(puzzle, "turn", _turn_checks), state.cands
    pearls, keys = pearls_and_keys(puzzle, "turn", _turn_reads, focus)
    for at, i in enumerate(pearls):
        for (x, y), sides in checks[i]:
            if cands[x] != B_LINE or cands[y] != B_LINE:
                continue
            for d, a, b, v in sides:
                if cands[v] == B_CROSS or can_turn(puzzle, state, a, d):
                    continue        # (already crossed out: nothing new to put)
                o = OPPOSITE[d]
                yield resuming(Deduction.build(state, put={v: CROSS}, cells=[puzzle.cell(i)], premises=[x, y],
                                               params={"pearl": puzzle.cell(i), "blocked": puzzle.cell(a),
                                                       "cell": puzzle.cell(b), "edge": edge_name(puzzle, b, o)}),
                               pearls, at, keys)


# --- level 1: the loop ------------------------------------------------------------------------

# --- level 2 ----------------------------------------------------------------------------------

def cells_near(puzzle: MasyuPuzzle, focus, radius: int = 2) -> Iterable[int]:
    """Cells within `radius` steps of a changed edge (all cells without a focus)."""
    if focus is None:
        return range(puzzle.rows * puzzle.cols)
    out: set[int] = set()
    for var in focus:
        for v in puzzle.graph.vertices_of_var.get(var, ()):
            out.update(puzzle.cells_within(v, radius))
    return sorted(out)


def near_problem(puzzle: MasyuPuzzle, trial: State, i: int) -> str:
    """What a way through cell i breaks right beside it: a neighbour with three lines or a
    line that ends there, or a pearl within two cells."""
    cands = trial.cands
    for j, read in _neighbour_reads(puzzle)[i]:
        marks = read(cands)
        lines = marks.count(B_LINE)
        if lines > 2:
            return f"{puzzle.cell(j)} would get three lines"
        if lines and lines + marks.count(OPEN) < 2:
            return f"the line would end at {puzzle.cell(j)}"
    for p in puzzle.pearls_close[i]:
        if settled(puzzle, trial, p):
            continue
        why = pearl_problem(puzzle, trial, p)
        if why:
            return f"the {'black' if puzzle.pearls[p] == BLACK else 'white'} pearl at {puzzle.cell(p)} {why}"
    return ""


def _edge_reader(puzzle: MasyuPuzzle, i: int) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """A getter of the candidates of cell i's edges, always as a tuple (to count marks in C)."""
    vars_ = tuple(puzzle.dir_vars[i].values())
    if len(vars_) < 2:          # (itemgetter of one index gives the item itself)
        return lambda cands: tuple(cands[v] for v in vars_)
    return operator.itemgetter(*vars_)


def _neighbour_reads(puzzle: MasyuPuzzle) -> tuple:
    """For each cell, (neighbour j, the getter of j's edge candidates) for its neighbours:
    near_problem and settled read these for every way through a cell."""
    return puzzle.once("_masyu_neighbour_reads", lambda: tuple(
        tuple((j, _edge_reader(puzzle, j)) for j in puzzle.dir_cells[i].values())
        for i in range(puzzle.rows * puzzle.cols)))


def settled(puzzle: MasyuPuzzle, state: State, p: int) -> bool:
    """The pearl has its two lines and so does each cell beside it on the loop: whatever is
    still open elsewhere cannot break its rule without breaking a degree rule first."""
    cands = state.cands
    seen = 0
    for v, (_, read) in zip(puzzle.dir_vars[p].values(), _neighbour_reads(puzzle)[p]):
        if cands[v] == B_LINE:
            seen += 1
            if read(cands).count(B_LINE) != 2:
                return False
    return seen == 2


def _ways(puzzle: MasyuPuzzle, state: State):
    return lambda i: cell_loops.ways_through(puzzle.graph, state, i, may_stay_empty=puzzle.pearls[i] == NONE)


def _problem(puzzle: MasyuPuzzle):
    return lambda trial, i, way: near_problem(puzzle, trial, i)


@heuristic(id="masyu.cell-shapes", genre=GENRE)
def cell_shapes_rule(puzzle: MasyuPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    ways, problem = _ways(puzzle, state), _problem(puzzle)
    memo = puzzle.once("_masyu_shapes", dict)
    board = None        # the ways are drawn on one copy of the board (near_problem keeps nothing)
    reads = _own_reads(puzzle)
    for i in cells_near(puzzle, focus, 1):
        if not puzzle.pearls_close[i] or not _several_ways(puzzle, reads[i](state.cands), i):
            continue
        # what every way through a cell gives depends only on the edges it reads (trials ask
        # the same cells the same question again and again): remembered per those edges
        key = (i, _shape_inputs(puzzle, i)(state.cands))
        found = memo.get(key)
        if found is None:
            if len(memo) > 60_000:
                memo.clear()
            if board is None:
                board = list(state.cands)
            found = memo[key] = tuple(cell_loops.every_way_through(puzzle, puzzle.graph, state, [i], ways, problem,
                                                                   self_loops=False, board=board))
        yield from found


def _own_reads(puzzle: MasyuPuzzle) -> tuple:
    """For each cell, the getter of its edge candidates."""
    return puzzle.once("_masyu_own_reads", lambda: tuple(_edge_reader(puzzle, i) for i in range(puzzle.rows * puzzle.cols)))


def _several_ways(puzzle: MasyuPuzzle, marks: tuple[int, ...], i: int) -> bool:
    """Could the loop still pass cell i (with these marks on its edges) in two ways or more?
    Else every_way_through has nothing to compare there (the count of cell_loops.ways_through)."""
    lines, open_ = marks.count(B_LINE), marks.count(OPEN)
    if lines == 1:
        return open_ >= 2
    return not lines and (open_ >= 3 or (open_ == 2 and puzzle.pearls[i] == NONE))


def _shape_inputs(puzzle: MasyuPuzzle, i: int):
    """A getter for every edge `cell-shapes` reads at cell i: the edges of i and of the cells
    beside it (degrees) and the inputs of the pearls within two steps (pearl rules)."""
    getters = puzzle.once("_masyu_shape_getters", dict)
    got = getters.get(i)
    if got is None:
        vars_ = {v for j in (i, *puzzle.dir_cells[i].values()) for v in puzzle.dir_vars[j].values()}
        inputs = puzzle.once("_masyu_pearl_inputs", dict)     # (each pearl's, for the ~13 cells near it)
        for p in puzzle.pearls_close[i]:
            if p not in inputs:
                inputs[p] = pearl_inputs(puzzle, p)
            vars_.update(inputs[p])
        got = getters[i] = operator.itemgetter(*sorted(vars_))
    return got


SHORT_LINE = 7     # edges: the loop it would close has at most 8 cells (a ring round one cell)


@heuristic(id="masyu.short-loop", genre=GENRE)
def short_loop(puzzle: MasyuPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """No early loop, for a line seen at a glance: a short line (a few cells, bending round)
    whose two ends are side by side is not closed unless that small loop is the whole answer.
    Tracing a long line round the board stays level 3 (masyu.no-early-loop)."""
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


# --- level 3 ----------------------------------------------------------------------------------

@heuristic(id="masyu.small-loop", genre=GENRE)
def small_loop(puzzle: MasyuPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    # a cell qualifies by the ends of one line beside it, which a line drawn far off (joining
    # two lines, or starting a second) changes: the cells far off follow those near the focus
    # (only cells beside a loose end qualify, so the whole board costs little more)
    near = cells_near(puzzle, focus, 1)
    cells = cell_loops.cells_by_ends(puzzle.graph, state, near if focus is None else
                                     near_then_the_rest(near, range(puzzle.rows * puzzle.cols)))
    return cell_loops.every_way_through(puzzle, puzzle.graph, state, cells, _ways(puzzle, state),
                                        _problem(puzzle), self_loops=True, board=list(state.cands))


# --- level 4 ----------------------------------------------------------------------------------

def _unique_ok(puzzle: MasyuPuzzle, enc: cell_loops.Enclosure, ways) -> bool:
    """Two drawings of the same pairing are interchangeable when no pearl is inside and no
    white pearl sits at or beside a loose end (it could tell where the line turns)."""
    if any(puzzle.pearls[v] for v in enc.cells):
        return False
    return not any(puzzle.pearls[j] == WHITE for a in enc.ends for j in (a, *puzzle.dir_cells[a].values()))


def _enclosure_ways(puzzle: MasyuPuzzle, state: State, unique: bool):
    return cell_loops.enclosure_ways(
        puzzle, puzzle.graph, state, usable=lambda v: True, must_visit=lambda v: puzzle.pearls[v] != NONE,
        problem=lambda trial, changed: puzzle.genre.local_problem(puzzle, trial, changed),
        unique_ok=(lambda enc, ws: _unique_ok(puzzle, enc, ws)) if unique else None,
        max_cells=cell_loops.ENCLOSURE_CELLS, max_ends=cell_loops.ENCLOSURE_ENDS)


# --- level 4: short what-ifs -----------------------------------------------------------------
# What a solver does at a pearl or a loose end that could go more than one way: draw one way,
# follow it with the simple rules (pearl legs and axes, cells with two lines, loose ends, dead
# ends) for a few steps, then the next way. A way that breaks a rule is refuted; what both ways draw holds.
# Only level-1 rules and a handful of steps: a short chain next to the pearl that a reader can
# follow in the step's branches, never a greedy fill with everything (that stays level 5).

WHAT_IF_STEPS = 12     # steps of level-1 rules per way (as far as a reader follows a chain by eye)


def _what_if(puzzle: MasyuPuzzle, state: State, subjects, field: str = "pearl", level: int = 1,
             steps: int = WHAT_IF_STEPS) -> Iterator[Deduction]:
    """Each subject (cell, [(label, {var: value})] covering every possibility): every option
    followed `steps` steps with the techniques up to `level`; the first subject where a way
    breaks a rule or all ways agree gives the deduction (params: field, outcome, cases, steps).
    A subject that told nothing is not followed again until something near its ways changes."""
    from grader.core.probing import cases_deduction
    found = whatif.what_if(puzzle, state, ((cell, options) for cell, options in subjects if len(options) >= 2),
                           f"masyu.what-if.{field}", REGISTRY.for_genre(GENRE, level), level, steps,
                           lambda options, branches: cases_deduction(puzzle, state, branches),
                           lambda finals, options: _around(puzzle, state, finals, options))
    for cell, d in found:
        yield Deduction(d.removals, {**d.params, field: cell}, cells=(cell,), detail=d.detail)


def _around(puzzle: MasyuPuzzle, state: State, finals, options) -> set[int]:
    """The edges the ways drew or crossed and the edges beside them: while these stay as they
    are, following the ways again most likely tells nothing new."""
    graph, cands = puzzle.graph, state.cands
    touched = {v for _, put in options for v in put}
    for f in finals:
        touched.update(narrowed(cands, f.cands, len(cands)))
    near = set()
    for var in touched:
        for x in graph.vertices_of_var.get(var, ()):
            near.update(graph.edge_vars[e] for e in graph.incident[x])
    return near


def _near_focus(puzzle: MasyuPuzzle, subjects, kind: int, focus, radius: int = 4):
    """The subjects (pearl name, options) of pearls of `kind` near what changed (within
    `radius` steps; all without a focus)."""
    if focus is None or radius >= 4:
        near = {puzzle.cell(i) for i in pearls_to_check(puzzle, kind, focus)}
    else:
        near = {puzzle.cell(i) for i in cells_near(puzzle, focus, radius) if puzzle.pearls[i] == kind}
    return ((cell, options) for cell, options in subjects if cell in near)


FAILS_SUBJECTS = 8     # a longer what-if looks at this many pearls or ends nearest what changed


def _nearest(puzzle: MasyuPuzzle, subjects, focus):
    """The FAILS_SUBJECTS subjects nearest what changed (without a focus, the first ones, with
    the fewest ways first)."""
    subjects = list(subjects)
    if len(subjects) <= FAILS_SUBJECTS:
        return subjects
    if focus is None:
        return sorted(subjects, key=lambda item: (len(item[1]), item[0]))[:FAILS_SUBJECTS]
    spots = {divmod(v, puzzle.cols) for var in focus for v in puzzle.graph.vertices_of_var.get(var, ())}

    def distance(item):
        cell = item[0]
        return min((abs(cell.r - r) + abs(cell.c - c) for r, c in spots), default=0), cell
    return sorted(subjects, key=distance)[:FAILS_SUBJECTS]


@heuristic(id="masyu.white-what-if", genre=GENRE)
def white_what_if(puzzle: MasyuPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    return _what_if(puzzle, state, _near_focus(puzzle, _white_options(puzzle, state), WHITE, focus))


@heuristic(id="masyu.black-what-if", genre=GENRE)
def black_what_if(puzzle: MasyuPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    return _what_if(puzzle, state, _near_focus(puzzle, _black_options(puzzle, state), BLACK, focus))


@heuristic(id="masyu.end-what-if", genre=GENRE)
def end_what_if(puzzle: MasyuPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    return _what_if(puzzle, state, _end_subjects(puzzle, state, focus), field="end")


# A longer what-if that only counts a failure: one way is followed further, with the loop
# patterns of level 3 too (a turn that would close a small loop, parity across a cut, an area
# with one way in, ...), and dropped when it breaks a rule. What the ways left share holds.
# Still one pearl or loose end and a bounded chain; agreement of long fills stays level 5.

FAILS_STEPS = 30       # steps of the levels 1-3 per way


def _fail_rules():
    """Levels 1-3 but the every-way-through-a-cell looks (cell-shapes, small-loop), which in
    such chains hardly ever find what the pearl and loop rules do not, and cost the most."""
    return [h for h in REGISTRY.for_genre(GENRE, 3) if h.id not in ("masyu.cell-shapes", "masyu.small-loop")]


def _ways_that_fail(puzzle: MasyuPuzzle, state: State, subjects, kind: str) -> Iterator[Deduction]:
    """Each subject (cell, [(label, {var: value})] covering every possibility): each way
    followed with levels 1-3, first a few steps (the short failures a reader sees first), then
    up to FAILS_STEPS; ways that reach a contradiction drop out and what the ways left share
    holds. A subject that told nothing is not followed again until something near its ways
    changes. Params: kind (the cell), count, refuted, result."""
    found = whatif.ways_that_fail(puzzle, state, [(cell, options) for cell, options in subjects if len(options) >= 2],
                                  f"masyu.way-fails.{kind}", _fail_rules(), (WHAT_IF_STEPS, FAILS_STEPS),
                                  lambda finals, options: _around(puzzle, state, finals, options))
    for cell, d in found:
        yield Deduction(d.removals, {kind: cell, **d.params}, cells=(cell,), detail=d.detail)


def _end_subjects(puzzle: MasyuPuzzle, state: State, focus):
    graph = puzzle.graph
    ends = loose_ends(graph, state)
    if focus is not None:
        near = set(cells_near(puzzle, focus, 2))
        ends = [a for a in ends if a in near]
    for a in ends:
        _, open_ = split(graph, state.cands, a)
        yield puzzle.cell(a), [(f"the line goes on along {graph.edge_names[e]}", {graph.edge_vars[e]: LINE})
                               for e in open_]


@heuristic(id="masyu.white-way-fails", genre=GENRE)
def white_way_fails(puzzle: MasyuPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    return _ways_that_fail(puzzle, state, _nearest(puzzle, _near_focus(puzzle, _white_options(puzzle, state), WHITE,
                                                                       focus, 2), focus), "pearl")


@heuristic(id="masyu.black-way-fails", genre=GENRE)
def black_way_fails(puzzle: MasyuPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    return _ways_that_fail(puzzle, state, _nearest(puzzle, _near_focus(puzzle, _black_options(puzzle, state), BLACK,
                                                                       focus, 2), focus), "pearl")


@heuristic(id="masyu.end-way-fails", genre=GENRE)
def end_way_fails(puzzle: MasyuPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    return _ways_that_fail(puzzle, state, _nearest(puzzle, _end_subjects(puzzle, state, focus), focus), "end")


# --- level 5 ----------------------------------------------------------------------------------

BRANCH_LEVEL = 3      # trials fill in with levels 1-3: fast, and enough in practice


def _undecided_pearls(puzzle: MasyuPuzzle, state: State, kind: int) -> list[int]:
    return [i for i in puzzle.pearls_of[kind]
            if any(state.cands[puzzle.graph.edge_vars[e]] == OPEN for e in puzzle.graph.incident[i])]


def _black_options(puzzle: MasyuPuzzle, state: State):
    for i in _undecided_pearls(puzzle, state, BLACK):
        options = []
        for a in "ns":
            for b in "ew":
                if leg_blocker(puzzle, state, i, a) or leg_blocker(puzzle, state, i, b):
                    continue
                put = {v: LINE for d in (a, b) for v in _leg_vars(puzzle, i, d)}
                put.update({v: CROSS for d in (OPPOSITE[a], OPPOSITE[b]) if (v := puzzle.edge_var(i, d)) is not None})
                options.append((f"the line leaves {puzzle.cell(i)} {SIDE[a]} and {SIDE[b]}", put))
        yield puzzle.cell(i), options


def _white_options(puzzle: MasyuPuzzle, state: State):
    words = {"ew": "across", "ns": "up and down"}
    for i in _undecided_pearls(puzzle, state, WHITE):
        options = []
        for axis, other in (("ew", "ns"), ("ns", "ew")):
            if axis_blocker(puzzle, state, i, axis):
                continue
            put = {v: LINE for d in axis if (v := puzzle.edge_var(i, d)) is not None}
            put.update({v: CROSS for d in other if (v := puzzle.edge_var(i, d)) is not None})
            options.append((f"the line runs {words[axis]} through {puzzle.cell(i)}", put))
        yield puzzle.cell(i), options


register_probing(GENRE, max_level=BRANCH_LEVEL)

# The techniques made from the families of heuristics/common/loops.py and cell_loops.py (shared
# with Yajilin and Slitherlink): the rows of rules/techniques/masyu.yaml that name a family.
register_families(GENRE, {
    **cell_loops.family(closes_ok=lambda puzzle, closed: not puzzle.genre.violations(puzzle, closed),
                        branch_level=BRANCH_LEVEL,
                        straight=lambda puzzle: puzzle.pearls_of[WHITE]),
    **cell_loops.enclosure_techniques(_enclosure_ways),
    "pearl-lookahead": (None, cell_loops.lookahead(_white_options, _black_options)),
    "white-cases": (None, cell_loops.cases("white_cases", _white_options, level=BRANCH_LEVEL)),
    "black-cases": (None, cell_loops.cases("black_cases", _black_options, level=BRANCH_LEVEL)),
    "deep-cases": (None, cell_loops.cases("deep_cases", _white_options, _black_options, cell_loops.end_subjects,
                                          level=4, passes=cell_loops.DEEP_PASSES))})


register_last_resort(GENRE)      # the deepening nested trial, unless registered above

