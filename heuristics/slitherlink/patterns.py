"""The square-grid patterns of the catalogue (level 1) and the diagonal 3-2-...-2-3 (level 2).

They apply where the faces are squares. Patterns that depend only on the clues are found once
(focus None); the others look at cells next to what changed.
"""
from __future__ import annotations

from typing import Iterator

import attrs

from grader.genres.slitherlink.model import SlitherPuzzle
from grader.core.registry import heuristic
from grader.core.model import Cell, State
from grader.core.steps import Deduction
from grader.kernels.loops import B_CROSS, B_LINE, CROSS, LINE

from heuristics.slitherlink.common import DONE_FOR_GOOD, GENRE, cells_near, could_be_whole_loop, grown_focus


def corner_table(puzzle: SlitherPuzzle) -> tuple[tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...], ...]:
    """For each cell, (dot, the cell's two edges there, the other edges there) for each of its
    corners (listed once per puzzle: the patterns ask at every step of a fill)."""
    def make():
        A = puzzle.angles
        return tuple(tuple((A.pairs[i][0], A.pairs[i][2], A.dot_rest[i]) for i in of)
                     for of in A.of_cell)
    return puzzle.shape_once("_slitherlink_corners", make)


def clue_at(puzzle: SlitherPuzzle, r: int, c: int) -> int | None:
    if 0 <= r < puzzle.rows and 0 <= c < puzzle.cols:
        return puzzle.clues[r * puzzle.cols + c]
    return None


def _names(puzzle: SlitherPuzzle, edges) -> list[str]:
    return [puzzle.edge_label(e) for e in edges]


@attrs.frozen
class ThreePair:
    """Two 3s side by side: the edges the pattern draws and crosses, and the two cells' outline."""
    first: Cell
    second: Cell
    lines: tuple[int, int, int]          # the outer edges, then the middle one (between the 3s)
    crosses: tuple[int, ...]
    outline: tuple[int, ...]


@heuristic(id="slitherlink.adjacent-threes", genre=GENRE)
def adjacent_threes(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    # looked at again after changes too: the middle edge may wait until the outline is ruled out
    if not puzzle.square:
        return
    for pair in three_pairs(puzzle):
        if settled_three_pair(state, pair):
            continue                  # (the costly outline check below can wait)
        lines, crosses = pair.lines, pair.crosses
        # Without the middle edge both 3s take their other three edges: the outline of the
        # two cells, a closed loop. That is wrong only when it cannot be the whole answer.
        middle = ""
        if could_be_whole_loop(puzzle, state, pair.outline):
            lines = (lines[0], lines[2])
            middle = (" (the edge between them stays open: the loop could be just the outline of the "
                      "two cells)")
        yield Deduction.build(state, put={**{e: LINE for e in lines}, **{e: CROSS for e in crosses}},
                              cells=[pair.first, pair.second],
                              params={"first": pair.first, "second": pair.second, "lines": _names(puzzle, lines),
                                      "edges": _names(puzzle, crosses) or "no edges",
                                      "are": "is" if len(crosses) == 1 else "are", "middle": middle})


def settled_three_pair(state: State, pair: ThreePair) -> bool:
    """The pattern would draw and cross nothing new at this pair."""
    return _nothing_new(state, pair.lines, LINE) and _nothing_new(state, pair.crosses, CROSS)


def three_pairs(puzzle: SlitherPuzzle) -> tuple[ThreePair, ...]:
    """Each 3 with a 3 to the right (else below), with the pattern's edges (once per puzzle:
    the pattern is looked at after every change, and most boards have few such pairs)."""
    return puzzle.once("_slitherlink_adjacent_threes", lambda: tuple(
        pair for k in puzzle.clued if puzzle.clues[k] == 3 if (pair := _three_pair(puzzle, k))))


def three_pairs_done(puzzle: SlitherPuzzle, state: State) -> bool:
    """Whether every two 3s side by side have their lines drawn and their crosses made (or
    emptied): adjacent-threes passes such a pair by, and a narrowing keeps it so (a decided
    edge stays so or empties). (Off a square grid it never looks.)"""
    return not puzzle.square or all(settled_three_pair(state, pair) for pair in three_pairs(puzzle))


DONE_FOR_GOOD["slitherlink.adjacent-threes"] = three_pairs_done


def _three_pair(puzzle: SlitherPuzzle, k: int) -> ThreePair | None:
    H, W = puzzle.rows, puzzle.cols
    r, c = divmod(k, W)
    if clue_at(puzzle, r, c + 1) == 3:
        lines = (puzzle.v(r, c), puzzle.v(r, c + 1), puzzle.v(r, c + 2))
        crosses = tuple(puzzle.v(r2, c + 1) for r2 in (r - 1, r + 1) if 0 <= r2 < H)
        second = Cell(r, c + 1)
    elif clue_at(puzzle, r + 1, c) == 3:
        lines = (puzzle.h(r, c), puzzle.h(r + 1, c), puzzle.h(r + 2, c))
        crosses = tuple(puzzle.h(r + 1, c2) for c2 in (c - 1, c + 1) if 0 <= c2 < W)
        second = Cell(r + 1, c)
    else:
        return None
    outline = tuple(sorted(set(puzzle.cells[k]) ^ set(puzzle.cells[second.r * W + second.c])))
    return ThreePair(Cell(r, c), second, lines, crosses, outline)


@heuristic(id="slitherlink.diagonal-threes", genre=GENRE)
def diagonal_threes(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    if not puzzle.square or focus is not None:
        return
    yield from _diagonal_chains(puzzle, state, max_twos=0)


def _diagonal_chains(puzzle: SlitherPuzzle, state: State, max_twos: int | None,
                     min_twos: int = 0) -> Iterator[Deduction]:
    """3, then 2s, then 3 along a diagonal: the outer edges of both 3s carry the line."""
    W = puzzle.cols
    for k in puzzle.clued:
        if puzzle.clues[k] != 3:
            continue
        r, c = divmod(k, W)
        for dc in (1, -1):
            twos = 0
            r2, c2 = r + 1, c + dc
            while clue_at(puzzle, r2, c2) == 2:
                twos += 1
                r2, c2 = r2 + 1, c2 + dc
            if clue_at(puzzle, r2, c2) != 3 or twos < min_twos or (max_twos is not None and twos > max_twos):
                continue
            top, right, bottom, left = puzzle.face_edges(r, c)
            t2, r2e, b2, l2 = puzzle.face_edges(r2, c2)
            lines = [top, left if dc == 1 else right, b2, r2e if dc == 1 else l2]
            d = Deduction.build(state, put={e: LINE for e in lines}, cells=[Cell(r, c), Cell(r2, c2)],
                                params={"first": Cell(r, c), "second": Cell(r2, c2),
                                        "lines": _names(puzzle, lines),
                                        "twos": [Cell(r + i, c + dc * i) for i in range(1, twos + 1)]})
            if d:
                yield d


@heuristic(id="slitherlink.diagonal-three-two-three", genre=GENRE)
def diagonal_three_two_three(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    if not puzzle.square or focus is not None:
        return
    yield from _diagonal_chains(puzzle, state, max_twos=None, min_twos=1)


@heuristic(id="slitherlink.three-line-in", genre=GENRE)
def three_line_in(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    if not puzzle.square:
        return
    cands, clues, table = state.cands, puzzle.clues, corner_table(puzzle)
    for k in cells_near(puzzle, grown_focus(puzzle, focus)):
        if clues[k] != 3:
            continue
        for d, mine, others in table[k]:
            incoming = [e for e in others if cands[e] == B_LINE]
            if len(incoming) != 1:
                continue
            far = [e for e in puzzle.cells[k] if e not in mine]
            if _nothing_new(state, far, LINE):
                continue
            yield Deduction.build(state, put={e: LINE for e in far}, premises=incoming, cells=[puzzle.cell(k)],
                                  params={"line": puzzle.edge_label(incoming[0]), "vertex": puzzle.graph.vertex_names[d],
                                          "cell": puzzle.cell(k), "edges": _names(puzzle, far)})


@heuristic(id="slitherlink.three-blocked-corner", genre=GENRE)
def three_blocked_corner(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    yield from _blocked_corner(puzzle, state, focus, 3, LINE)


@heuristic(id="slitherlink.one-blocked-corner", genre=GENRE)
def one_blocked_corner(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    yield from _blocked_corner(puzzle, state, focus, 1, CROSS)


def _blocked_corner(puzzle: SlitherPuzzle, state: State, focus, n: int, value: int) -> Iterator[Deduction]:
    if not puzzle.square:
        return
    cands, clues, table = state.cands, puzzle.clues, corner_table(puzzle)
    for k in cells_near(puzzle, grown_focus(puzzle, focus)):
        if clues[k] != n:
            continue
        for d, mine, others in table[k]:
            if _all_crossed(cands, others) and not _nothing_new(state, mine, value):
                ded = Deduction.build(state, put={e: value for e in mine}, premises=others,
                                      cells=[puzzle.cell(k)],
                                      params={"vertex": puzzle.graph.vertex_names[d], "cell": puzzle.cell(k),
                                              "edges": _names(puzzle, mine)})
                if ded:
                    yield ded


@heuristic(id="slitherlink.three-one-border", genre=GENRE)
def three_one_border(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    if not puzzle.square or focus is not None:
        return
    for k in puzzle.clued:
        if puzzle.clues[k] != 3:
            continue
        for d, mine, others in corner_table(puzzle)[k]:
            if len(others) != 1:
                continue          # not a border dot (or a grid corner)
            shared = others[0]
            ones = [j for j in puzzle.cells_of_edge[shared] if puzzle.clues[j] == 1]
            # the shared edge must be the 1's, and the 3's edge at d along the border is the one
            if not ones:
                continue
            for edge in mine:
                if len(puzzle.cells_of_edge[edge]) == 1:   # the 3's border edge at this dot
                    yield Deduction.build(state, put={edge: LINE}, cells=[puzzle.cell(k), puzzle.cell(ones[0])],
                                          params={"three": puzzle.cell(k), "one": puzzle.cell(ones[0]),
                                                  "vertex": puzzle.graph.vertex_names[d],
                                                  "edge": puzzle.edge_label(edge)})


@heuristic(id="slitherlink.two-in-corner", genre=GENRE)
def two_in_corner(puzzle: SlitherPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    if not puzzle.square or focus is not None or puzzle.rows < 2 or puzzle.cols < 2:
        return
    H, W = puzzle.rows, puzzle.cols
    spots = {(0, 0): (puzzle.h(0, 1), puzzle.v(1, 0)),
             (0, W - 1): (puzzle.h(0, W - 2), puzzle.v(1, W)),
             (H - 1, 0): (puzzle.h(H, 1), puzzle.v(H - 2, 0)),
             (H - 1, W - 1): (puzzle.h(H, W - 2), puzzle.v(H - 2, W))}
    for (r, c), lines in spots.items():
        if clue_at(puzzle, r, c) == 2:
            yield Deduction.build(state, put={e: LINE for e in lines}, cells=[Cell(r, c)],
                                  params={"cell": Cell(r, c), "lines": _names(puzzle, lines)})


def _all_crossed(cands: tuple[int, ...], edges) -> bool:
    """Every one of the edges is crossed (a loop, not all(): asked for every corner near a change)."""
    for e in edges:
        if cands[e] != B_CROSS:
            return False
    return True


def _nothing_new(state: State, edges, value: int) -> bool:
    """Putting `value` on the edges would remove nothing (Deduction.build would give None): a
    pattern seen again after every change skips its wording then."""
    cands, want = state.cands, 1 << value
    return all(cands[e] == want or not cands[e] for e in edges)
