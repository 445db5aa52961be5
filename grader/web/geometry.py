"""Where each variable of a board sits on the genre's SVG, and how a click changes it, so the
page's script stays the same for every genre.

A target is a cell (a square to click) or a segment (a line between two points: an edge of a
Slitherlink cell, a line between two cell centres, a bridge between two islands). Coordinates
are those of the SVG the genre draws (grader.io.svg.Canvas: 32-pixel cells, an 8-pixel margin).
"""
from __future__ import annotations

import re
from typing import Any

from grader.core.model import Puzzle, State
from grader.io.svg import Canvas

CELL_NAME = re.compile(r"^r(\d+)c(\d+)$")
PAIR_NAME = re.compile(r"^r(\d+)c(\d+)\s*[-–]\s*r(\d+)c(\d+)$")

# How a player marks each genre (the page's input mode):
#   cells: click cycles a cell's marks; edges: click a Slitherlink edge; lines: drag between
#   cell centres (and click a cell or a line); links: drag between cells that hold the shape
#   (Numberlink); bridges: click between islands; values: digits in cells (Arrows).
INPUT_KIND = {"slitherlink": "edges", "masyu": "lines", "yajilin": "lines", "numberlink": "links",
              "hashiwokakero": "bridges", "arrows": "values"}

DIRECTIONS = {"up": (-1, 0), "right": (0, 1), "down": (1, 0), "left": (0, -1)}


def grid_origin(puzzle: Puzzle) -> tuple[int, int]:
    """(rows, columns) of clue margin the genre draws before the first cell (Picross)."""
    if puzzle.genre.name == "picross":
        left = max((len(c) for c in puzzle.row_clues), default=0) or 1     # type: ignore[attr-defined]
        top = max((len(c) for c in puzzle.col_clues), default=0) or 1      # type: ignore[attr-defined]
        return top, left
    return 0, 0


def layout(puzzle: Puzzle) -> dict[str, Any]:
    """The grid the page maps pointer positions to: origin, cell size, rows, columns."""
    canvas = Canvas(1, 1)
    top, left = grid_origin(puzzle)
    return {"x0": canvas.margin + left * canvas.cell, "y0": canvas.margin + top * canvas.cell,
            "size": canvas.cell, "rows": getattr(puzzle, "rows", 0), "cols": getattr(puzzle, "cols", 0)}


def targets(puzzle: Puzzle) -> list[dict[str, Any]]:
    """One clickable target per variable a player can mark (fixed clue cells left out)."""
    genre = puzzle.genre
    start = genre.initial_state(puzzle)
    if genre.name == "slitherlink":
        return _slitherlink_edges(puzzle, start)
    grid = layout(puzzle)
    x0, y0, size = grid["x0"], grid["y0"], grid["size"]
    out: list[dict[str, Any]] = []
    for var, cands in enumerate(start.cands):
        if not cands & (cands - 1):
            continue                            # decided from the start: a clue, a given
        name = genre.var_name(puzzle, var)
        cell, pair = CELL_NAME.match(name), PAIR_NAME.match(name)
        if cell:
            r, c = int(cell.group(1)) - 1, int(cell.group(2)) - 1
            out.append({"var": var, "name": name, "kind": "cell", "r": r, "c": c,
                        "x": x0 + c * size, "y": y0 + r * size, "w": size, "h": size})
        elif pair:
            r1, c1, r2, c2 = (int(g) - 1 for g in pair.groups())
            out.append({"var": var, "name": name, "kind": "segment", "a": [r1, c1], "b": [r2, c2],
                        "x1": x0 + (c1 + 0.5) * size, "y1": y0 + (r1 + 0.5) * size,
                        "x2": x0 + (c2 + 0.5) * size, "y2": y0 + (r2 + 0.5) * size})
    return out


def _slitherlink_edges(puzzle: Any, start: State) -> list[dict[str, Any]]:
    canvas = Canvas(1, 1)
    s, m = canvas.cell, canvas.margin
    if puzzle.square:
        pos = [(m + x * s, m + y * s) for x, y in puzzle.graph.coords]
    else:
        pos = [(m + x * s * 12, m + y * s * 12) for x, y in puzzle.layout]
    out = []
    for e, (a, b) in enumerate(puzzle.ends):
        if not start.cands[e] & (start.cands[e] - 1):
            continue
        (x1, y1), (x2, y2) = pos[a], pos[b]
        out.append({"var": e, "name": puzzle.genre.var_name(puzzle, e), "kind": "segment",
                    "x1": x1, "y1": y1, "x2": x2, "y2": y2})
    return out


def choices(puzzle: Puzzle, var: int) -> list[int]:
    """The candidate masks a click steps through: undecided, then each value on its own
    (what a player draws first: a bulb, a shaded cell, a line; the blank value last)."""
    genre = puzzle.genre
    start = genre.initial_state(puzzle).cands[var]
    values = [v for v in range(start.bit_length()) if start >> v & 1]
    if genre.name == "numberlink":          # shapes are drawn by dragging; a click marks empty
        values = [v for v in values if v == 0]
    blank = genre.blank
    drawn = [v for v in values if v != blank] + [v for v in values if v == blank]
    return [start] + [1 << v for v in drawn]


def shape_directions(phrase: str) -> set[str]:
    """The directions a Numberlink shape's phrase names ('turns the line up and right')."""
    words = set(re.findall(r"[a-z]+", phrase))
    found = {d for d in DIRECTIONS if d in words}
    if "across" in words:
        found |= {"left", "right"}
    return found


def link_masks(puzzle: Puzzle, direction: str) -> int:
    """The values of a Numberlink cell whose line leaves it in `direction`."""
    phrases = puzzle.genre.value_phrases
    return sum(1 << v for v, (yes, _) in enumerate(phrases) if direction in shape_directions(yes))
