"""What a click, a key or a drag does to the marks (the page sends these as actions):

    {"op": "cycle", "var": V}            the next of the variable's choices (geometry.choices)
    {"op": "set", "var": V, "value": K}  the variable takes value K (a digit in Arrows)
    {"op": "clear", "var": V}            the variable back to undecided
    {"op": "line", "var": V}             a line on the edge or bridge V, or none if it has one
    {"op": "link", "a": [r, c], "b": [r, c]}   Numberlink: the line runs between two cells
"""
from __future__ import annotations

from typing import Any

from grader.core.model import State
from grader.web import geometry
from grader.web.session import ApiError, Entry


def apply(entry: Entry, state: State, action: dict[str, Any]) -> State:
    op = action.get("op")
    if op == "link":
        return _link(entry, state, action)
    var = _var(entry, action)
    start = entry.start.cands[var]
    cands = state.cands[var]
    if op == "cycle":
        options = geometry.choices(entry.puzzle, var)
        new = options[(options.index(cands) + 1) % len(options)] if cands in options else options[0]
    elif op == "clear":
        new = start
    elif op == "set":
        value = action.get("value")
        if not isinstance(value, int) or isinstance(value, bool) or not start >> value & 1 or value < 0:
            raise ApiError(400, f"{_name(entry, var)} cannot take value {value!r}")
        new = start if cands == 1 << value else 1 << value     # setting it again clears it
    elif op == "line":
        drawn = geometry.choices(entry.puzzle, var)[1]          # the first thing a click draws
        new = start if cands == drawn else drawn
    else:
        raise ApiError(400, f"unknown action '{op}': expected cycle, set, clear, line or link")
    return _with(state, var, new)


def _with(state: State, var: int, cands: int) -> State:
    return State(tuple(cands if v == var else m for v, m in enumerate(state.cands)))


def _name(entry: Entry, var: int) -> str:
    return entry.puzzle.genre.var_name(entry.puzzle, var)


def _var(entry: Entry, action: dict[str, Any]) -> int:
    var = action.get("var")
    n = len(entry.start.cands)
    if not isinstance(var, int) or isinstance(var, bool) or not 0 <= var < n:
        raise ApiError(400, f"'var' must be a variable number from 0 to {n - 1}")
    if not entry.start.cands[var] & (entry.start.cands[var] - 1):
        raise ApiError(400, f"{_name(entry, var)} is given by the puzzle and cannot be changed")
    return var


def _cell(entry: Entry, value: Any, what: str) -> tuple[int, int]:
    rows, cols = getattr(entry.puzzle, "rows", 0), getattr(entry.puzzle, "cols", 0)
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)
            or not (0 <= value[0] < rows and 0 <= value[1] < cols)):
        raise ApiError(400, f"'{what}' must be a cell [row, column] counted from 0 inside the "
                            f"{rows}x{cols} grid")
    return value[0], value[1]


def _link(entry: Entry, state: State, action: dict[str, Any]) -> State:
    """Numberlink: draw (or, when it is there, erase) the line between two neighbouring cells."""
    if entry.puzzle.genre.name != "numberlink":
        raise ApiError(400, "'link' is for Numberlink: other genres draw lines with 'line'")
    a, b = _cell(entry, action.get("a"), "a"), _cell(entry, action.get("b"), "b")
    step = (b[0] - a[0], b[1] - a[1])
    direction = next((d for d, delta in geometry.DIRECTIONS.items() if delta == step), None)
    if direction is None:
        raise ApiError(400, f"r{a[0] + 1}c{a[1] + 1} and r{b[0] + 1}c{b[1] + 1} are not neighbours")
    back = {"up": "down", "down": "up", "left": "right", "right": "left"}[direction]
    genre, puzzle = entry.puzzle.genre, entry.puzzle
    va, vb = genre.cell_var(puzzle, *a), genre.cell_var(puzzle, *b)
    has_a, has_b = geometry.link_masks(puzzle, direction), geometry.link_masks(puzzle, back)
    linked = not state.cands[va] & ~has_a and not state.cands[vb] & ~has_b
    out = list(state.cands)
    for var, has in ((va, has_a), (vb, has_b)):
        start = entry.start.cands[var]
        if linked:                  # erase: the cell is undecided again
            out[var] = start
        else:
            out[var] = (state.cands[var] & has) or (start & has) or state.cands[var]
    return State(tuple(out))
