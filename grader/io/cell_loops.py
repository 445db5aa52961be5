"""Reading and drawing loops through cell centres (Masyu, Yajilin): a state from a grid of
direction tokens, and the loop and highlights on an SVG canvas."""
from __future__ import annotations

from typing import Any

from grader.core.errors import Source
from grader.core.model import Cell, State
from grader.io import board, svg
from grader.io.native import Grid, bad_token
from grader.kernels.cell_loops import GridLoop, lines_from_tokens, read_directions
from grader.kernels.loops import B_CROSS, B_LINE


def lines_state(puzzle: GridLoop, grid: Grid, src: Source, marks: bool, start: State,
                visit: dict[int, Any] | None = None) -> State:
    """A state from direction tokens: letters draw lines; in a solution every other edge is
    crossed, in marks `-` crosses a cell's edges and `.` leaves them open.
    `visit` (Yajilin) maps extra tokens to a handler(i, token) -> bool (True if it used it)."""
    cands = list(start.cands)
    tokens, off = [], []
    for r, c, tok in grid.cells():
        i = r * puzzle.cols + c
        t = tok.text
        if visit and t in visit:
            visit[t](i, cands)
            if not marks:
                off.append(i)
            continue
        if t in ("-", "x", "X") or (t == "." and not marks):
            off.append(i)
        elif t != "." and read_directions(t) is None:
            raise bad_token(src, tok, "directions such as 'ns', 'ew', 'se', '-' for a cell off the loop or '.'")
        else:
            tokens.append((i, t))
    where = {r * puzzle.cols + c: tok for r, c, tok in grid.cells()}
    lines = lines_from_tokens(puzzle, tokens, lambda i, msg: src.error(msg, where[i].line, where[i].col))
    g = puzzle.graph
    for e in lines:
        cands[g.edge_vars[e]] = B_LINE
    for i in off:
        for e in g.incident[i]:
            if e in lines:
                raise src.error(f"{puzzle.cell(i)} is off the loop but a line reaches it",
                                where[i].line, where[i].col)
            cands[g.edge_vars[e]] = B_CROSS
    if not marks:
        for i, _ in tokens:
            for e in g.incident[i]:
                if e not in lines:
                    cands[g.edge_vars[e]] = B_CROSS
    return State(tuple(cands))


def draw_loop(canvas: svg.Canvas, p: GridLoop, state: State | None) -> None:
    """Lines between cell centres, and a small cross on crossed-out edges (left out once the
    board is complete, so a solution reads as drawn)."""
    if state is None:
        return
    g = p.graph
    for e, (a, b) in enumerate(g.ends):
        m = state.cands[g.edge_vars[e]]
        (x1, y1), (x2, y2) = canvas.centre(p.cell(a)), canvas.centre(p.cell(b))
        if m == B_LINE:
            canvas.line(x1, y1, x2, y2, "#1a237e", 4)
        elif m == B_CROSS and not state.complete:
            canvas.edge_cross(x1, y1, x2, y2, canvas.cell * 0.08)


def draw_highlights(canvas: svg.Canvas, p: GridLoop, highlights) -> None:
    """Cells get a frame; edge variables a coloured stroke over the edge."""
    g = p.graph
    for role, items in highlights:
        cells = []
        for item in items:
            if isinstance(item, Cell):
                cells.append(item)
            elif item in g.edge_of_var:
                a, b = g.ends[g.edge_of_var[item]]
                (x1, y1), (x2, y2) = canvas.centre(p.cell(a)), canvas.centre(p.cell(b))
                canvas.items.append(f'<line class="hl-{role}" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
                                    f'stroke="{svg.ROLE_COLOURS[role]}" stroke-width="8" '
                                    f'stroke-opacity="0.5" stroke-linecap="round"/>')
            elif 0 <= item < p.rows * p.cols:
                cells.append(p.cell(item))
        canvas.highlight(cells, role)


def loop_board(p: GridLoop, state: State | None, centre, shaded=lambda i: None, quiet=None) -> str:
    """A loop through cell centres on a board for people (grader.io.board.centre_lines): the
    edge variables of `state` as strokes and crosses; `centre(i, arms)` and `shaded(i)` as there."""
    def edge(i: int, d: str) -> str:
        var = p.edge_var(i, d)
        if var is None or state is None:
            return board.OPEN_EDGE
        m = state.cands[var]
        return {B_LINE: board.LINE, B_CROSS: board.CROSS, 0: board.NO_EDGE}.get(m, board.OPEN_EDGE)
    return board.centre_lines(p.rows, p.cols, edge, centre, shaded, state is not None and state.complete, quiet)


def off_loop(p: GridLoop, state: State | None, i: int) -> bool:
    """Every edge of cell i is crossed out: the loop does not pass it."""
    return state is not None and all(state.cands[v] == B_CROSS for v in p.dir_vars[i].values())
