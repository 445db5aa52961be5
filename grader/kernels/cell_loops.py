"""Loops through the centres of grid cells (Masyu, Yajilin): the grid topology of such a
loop (`GridLoop`, a mixin for puzzles with rows and cols), the direction letters a cell's
lines leave by, and the tokens that spell them (janko and native solutions, player marks).

The edges are those of `LoopGraph.cell_grid`: horizontal links row by row, then vertical ones.
"""
from __future__ import annotations

import functools
from typing import Any, Iterable, Sequence

from grader.core.model import Cell, State
from grader.kernels.loops import B_CROSS, B_LINE, LoopGraph

DIRS = "nesw"                                   # N, E, S, W as (dr, dc)
DELTA = {"n": (-1, 0), "e": (0, 1), "s": (1, 0), "w": (0, -1)}
OPPOSITE = {"n": "s", "s": "n", "e": "w", "w": "e"}
TURNS = {"n": "ew", "s": "ew", "e": "ns", "w": "ns"}
SIDE = {"n": "north", "e": "east", "s": "south", "w": "west"}
EDGE_PHRASES = (("is crossed out", "is not crossed out"), ("carries the loop", "does not carry the loop"))


class GridLoop:
    """Grid topology for loops through cell centres; a mixin for puzzles with rows and cols."""
    rows: int
    cols: int
    first_edge_var = 0

    def cell(self, i: int) -> Cell:
        return Cell(*divmod(i, self.cols))

    @functools.cached_property
    def graph(self) -> LoopGraph:
        return LoopGraph.cell_grid(self.rows, self.cols, self.first_edge_var, self.vertex_vars())

    def vertex_vars(self) -> Sequence[int | None] | None:
        return None

    @functools.cached_property
    def step(self) -> tuple[dict[str, tuple[int, int]], ...]:
        """For each cell, direction letter -> (edge, neighbour cell)."""
        g = self.graph
        out: list[dict[str, tuple[int, int]]] = [{} for _ in range(self.rows * self.cols)]
        for e, (a, b) in enumerate(g.ends):
            if b == a + 1:
                out[a]["e"], out[b]["w"] = (e, b), (e, a)
            else:
                out[a]["s"], out[b]["n"] = (e, b), (e, a)
        return tuple(out)

    @functools.cached_property
    def dir_vars(self) -> tuple[dict[str, int], ...]:
        return tuple({d: self.graph.edge_vars[e] for d, (e, _) in s.items()} for s in self.step)

    @functools.cached_property
    def dir_cells(self) -> tuple[dict[str, int], ...]:
        return tuple({d: j for d, (_, j) in s.items()} for s in self.step)

    def edge_var(self, i: int, d: str) -> int | None:
        """The variable of the edge leaving cell i in direction d, or None at the border."""
        return self.dir_vars[i].get(d)

    def next_cell(self, i: int, d: str) -> int | None:
        return self.dir_cells[i].get(d)


# --- direction tokens (janko solutions, native solutions and marks) -------------------------

def read_directions(token: str) -> set[str] | None:
    """The directions of a token (`ns`, `ow` with German o = east), or None if it is not one."""
    t = token.lower().replace("o", "e")
    if not t or any(ch not in DIRS for ch in t) or len(set(t)) != len(t) or len(t) > 2:
        return None
    return set(t)


def lines_from_tokens(p: GridLoop, tokens: Iterable[tuple[int, str]], error) -> set[int]:
    """Edges (graph indices) named by direction tokens per cell; `error(i, message)` raises.
    Both cells of an edge must agree when both are given."""
    said: dict[int, bool] = {}
    for i, tok in tokens:
        dirs = read_directions(tok)
        if dirs is None:
            continue
        for d in DIRS:
            s = p.step[i].get(d)
            if d in dirs and s is None:
                raise error(i, f"the line at {p.cell(i)} leaves the grid to the {'north east south west'.split()[DIRS.index(d)]}")
            if s is not None and (d in dirs or len(dirs) == 2):
                e = s[0]
                if e in said and said[e] != (d in dirs):
                    raise error(i, f"{p.cell(i)} and {p.cell(s[1])} disagree about the line between them")
                said[e] = d in dirs
    return {e for e, on in said.items() if on}


def direction_token(p: GridLoop, state: State, i: int, visited: bool | None = None) -> str:
    """A cell as a token: the directions of its lines, `-` off the loop, `.` undecided."""
    lines, open_ = "", False
    for d in DIRS:
        var = p.edge_var(i, d)
        if var is None:
            continue
        m = state.cands[var]
        if m == B_LINE:
            lines += d
        elif m != B_CROSS:
            open_ = True
    if lines:
        return _order(lines)
    if visited is False or (not open_ and visited is not True):
        return "-"
    return "."


def _order(dirs: str) -> str:
    """Janko's spelling: ns, ew, ne, se, sw, nw."""
    for word in ("ns", "ew", "ne", "se", "sw", "nw"):
        if set(word) == set(dirs):
            return word
    return dirs


def edge_atoms(p: GridLoop, atoms: Sequence[Any]) -> set[int]:
    """Edges from `h(R,C)` (r,c)-(r,c+1) and `v(R,C)` (r,c)-(r+1,c) atoms of a model."""
    out = set()
    for a in atoms:
        if a.name in ("h", "v") and len(a.arguments) == 2:
            r, c = a.arguments[0].number, a.arguments[1].number
            i = r * p.cols + c
            out.add(p.step[i]["e" if a.name == "h" else "s"][0])
    return out


def loop_answer(p: GridLoop, state: State) -> list[str]:
    return [" ".join(direction_token(p, state, r * p.cols + c) for c in range(p.cols)) for r in range(p.rows)]
