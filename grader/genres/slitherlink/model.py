"""Slitherlink on a square grid, and Generalized Slitherlink on any graph.

Draw one closed loop along the edges, without branches or crossings, so that each clued cell
has exactly its number of loop edges.

Variables: one per edge of the graph, values CROSS (0, no line) / LINE (1).
Square grid (H rows, W columns): dots are numbered i*(W+1)+j (FORMATS.md §6); edge variables
are first the horizontal edges (dot row i, column j: i*W + j), then the vertical ones
((H+1)*W + i*(W+1) + j). A general graph keeps its edges in input order.

Native grid syntax: `.` (or `-`) a cell without clue, `0`-`4` a clue. Native solutions are the
inside/outside shading (`x` inside, `.` outside), as on janko.at. Player marks and the text
rendering draw the dots: `+` a dot, `-` or `|` a line, `x` a crossed edge, `.` or a space an
undecided edge.
"""
from __future__ import annotations

import functools
import math
import operator
from typing import Any, Callable, Sequence

import attrs

from grader.core.errors import Source
from grader.io import asp, puzzlink, tatham
from grader.core.genre import PUZZLINK, TATHAM, CannotWrite
from grader.io.janko import grid as janko_grid, meta as janko_meta, problem as janko_problem
from grader.io.native import NativeSource, bad_token, expect_size, grid_text, meta_to_native
from grader.core.model import Cell, Meta, Puzzle, State, Violation
from grader.io import board, svg
from grader.genres import register
from grader.core.genre import Genre
from grader.kernels.face_colouring import colouring, full_colouring
from grader.kernels.loops import B_CROSS, B_LINE, OPEN, LoopGraph, loop_violations, violations_since
from grader.kernels.tilings import square_grid
from grader.kernels import layout
from grader.genres.slitherlink import ALIASES, JANKO_NAMES, PUZZLINK_PIDS

GRAPH_UNITS = 12

NO_CLUE = None


@attrs.frozen(kw_only=True, slots=False)
class SlitherPuzzle(Puzzle):
    """rows/cols > 0: a square grid whose cells are its faces, clues row-major (None = no
    clue). rows == cols == 0: a general graph from ASP facts (vertex terms, edge ends in
    input order, named cells with their edges), clues per cell."""
    rows: int = 0
    cols: int = 0
    clues: tuple[int | None, ...]
    vertex_terms: tuple[str, ...] = ()
    edge_ends: tuple[tuple[int, int], ...] = ()
    cell_names: tuple[str, ...] = ()
    cell_edge_lists: tuple[tuple[int, ...], ...] = ()
    vertex_positions: tuple[tuple[int, int], ...] = ()   # where to draw them, when the facts say

    @property
    def square(self) -> bool:
        return self.rows > 0

    # --- square-grid numbering -----------------------------------------------------
    def h(self, i: int, j: int) -> int:
        """Horizontal edge from dot (i, j) to dot (i, j+1)."""
        return i * self.cols + j

    def v(self, i: int, j: int) -> int:
        """Vertical edge from dot (i, j) to dot (i+1, j)."""
        return (self.rows + 1) * self.cols + i * (self.cols + 1) + j

    def dot(self, i: int, j: int) -> int:
        return i * (self.cols + 1) + j

    def cell(self, k: int) -> Cell:
        return Cell(*divmod(k, self.cols))

    def face_edges(self, r: int, c: int) -> tuple[int, int, int, int]:
        """Top, right, bottom, left edges of cell (r, c)."""
        return self.h(r, c), self.v(r, c + 1), self.h(r + 1, c), self.v(r, c)

    @functools.cached_property
    def ends(self) -> tuple[tuple[int, int], ...]:
        if not self.square:
            return self.edge_ends
        return square_grid(self.rows, self.cols)[0]

    @functools.cached_property
    def cells(self) -> tuple[tuple[int, ...], ...]:
        """The edges of every cell (square grid: every face, row-major)."""
        if not self.square:
            return self.cell_edge_lists
        return square_grid(self.rows, self.cols)[1]

    @functools.cached_property
    def clued(self) -> tuple[int, ...]:
        return tuple(k for k, n in enumerate(self.clues) if n is not None)

    @functools.cached_property
    def clue_marks(self) -> tuple[tuple[int, int, Callable[[Sequence[int]], tuple[int, ...]]], ...]:
        """(cell, its number, a getter of its edges' marks) for each number (made once: the end
        of every fill checks every number)."""
        return tuple((k, self.clues[k], _getter(self.cells[k])) for k in self.clued)

    @functools.cached_property
    def cells_of_edge(self) -> tuple[tuple[int, ...], ...]:
        def make() -> tuple[tuple[int, ...], ...]:
            out: list[list[int]] = [[] for _ in self.ends]
            for k, es in enumerate(self.cells):
                for e in es:
                    out[e].append(k)
            return tuple(tuple(x) for x in out)
        return self.shape_once("_slitherlink_cells_of_edge", make)

    @functools.cached_property
    def faces_of_edge(self) -> tuple[tuple[int, int], ...] | None:
        """For a square grid, the two faces beside each edge (-1 = outside the grid); the
        colouring rules need a true planar face structure, so None for general graphs."""
        if not self.square:
            return None
        return self.shape_once("_slitherlink_faces_of_edge", lambda: tuple(
            (ks[0], ks[1]) if len(ks) == 2 else (ks[0], -1) for ks in self.cells_of_edge))

    @functools.cached_property
    def layout(self) -> list[tuple[float, float]]:
        """Where to draw each vertex of a general graph, in [0, 1]²: as the facts place them,
        else laid out from the graph; computed once, drawn at every step."""
        if self.vertex_positions:
            return layout.fit(self.vertex_positions)
        return layout.stress_layout(len(self.vertex_terms), self.ends)

    @functools.cached_property
    def graph(self) -> LoopGraph:
        if self.square:
            W = self.cols
            names = tuple(f"dot ({i},{j})" for i in range(self.rows + 1) for j in range(W + 1))
            coords = tuple((j, i) for i in range(self.rows + 1) for j in range(W + 1))
            return LoopGraph(names, self.ends, tuple(range(len(self.ends))),
                             edge_names=tuple(self.edge_label(e) for e in range(len(self.ends))),
                             coords=coords)
        names = tuple(f"vertex {t}" for t in self.vertex_terms)
        return LoopGraph(names, self.ends, tuple(range(len(self.ends))),
                         edge_names=tuple(f"edge {self.vertex_terms[a]}-{self.vertex_terms[b]}"
                                          for a, b in self.ends))

    @functools.cached_property
    def angles(self) -> "Angles":
        """Every corner of every cell: a dot where the cell has exactly two edges. On a square
        grid the size alone decides them, so puzzles of one size share them (a batch grades
        hundreds of 10x10 boards; making them is most of what a puzzle costs before its first
        step)."""
        return self.shape_once("_slitherlink_angles", lambda: Angles.build(self))

    def shape_once(self, name: str, make: Callable[[], Any]) -> Any:
        """A table the board's shape alone decides (its dots, edges and cells: never its
        numbers), made on first use and kept with the puzzle (Puzzle.once); on a square grid
        also with every puzzle of its size."""
        if not self.square:
            return self.once(name, make)
        def shared() -> Any:
            tables = _SQUARE_TABLES.get((self.rows, self.cols))
            if tables is None:
                if len(_SQUARE_TABLES) >= SQUARE_SIZES_KEPT:
                    _SQUARE_TABLES.clear()
                tables = _SQUARE_TABLES[self.rows, self.cols] = {}
            if name not in tables:
                tables[name] = make()
            return tables[name]
        return self.once(name, shared)

    def edge_label(self, e: int) -> str:
        return self.edge_labels[e]

    @functools.cached_property
    def edge_labels(self) -> tuple[str, ...]:
        """Each edge's name (made once per shape: the steps of fills name the edges they set)."""
        return self.shape_once("_slitherlink_edge_labels",
                               lambda: tuple(map(self._edge_label, range(len(self.ends)))))

    def _edge_label(self, e: int) -> str:
        if not self.square:
            a, b = self.ends[e]
            return f"edge {self.vertex_terms[a]}-{self.vertex_terms[b]}"
        H, W = self.rows, self.cols
        if e < (H + 1) * W:
            i, j = divmod(e, W)
            if i == 0:
                return f"the top of r1c{j + 1}"
            if i == H:
                return f"the bottom of r{H}c{j + 1}"
            return f"r{i}c{j + 1}|r{i + 1}c{j + 1}"
        i, j = divmod(e - (H + 1) * W, W + 1)
        if j == 0:
            return f"the left of r{i + 1}c1"
        if j == W:
            return f"the right of r{i + 1}c{W}"
        return f"r{i + 1}c{j}|r{i + 1}c{j + 1}"

    def cell_label(self, k: int) -> str:
        return str(self.cell(k)) if self.square else f"cell {self.cell_names[k]}"

    def edge_cell(self, e: int) -> Cell:
        """A cell beside the edge (for highlights and "why r3c4")."""
        if not self.square:
            return Cell(0, e)
        H, W = self.rows, self.cols
        if e < (H + 1) * W:
            i, j = divmod(e, W)
            return Cell(min(i, H - 1), j)
        i, j = divmod(e - (H + 1) * W, W + 1)
        return Cell(i, min(j, W - 1))


@attrs.frozen
class Angles:
    """Corners of cells, for reasoning about the pair of edges a cell has at a dot.

    pairs[i] = (dot, cell, (a, b)); at_dot[i]: the corner whose pair is the dot's other two
    edges (the diagonal neighbour on a square grid), or -1; in_cell[i]: the corner of the
    same cell whose pair is the cell's other edges (the opposite corner of a square), or -1."""
    pairs: tuple[tuple[int, int, tuple[int, int]], ...]
    at_dot: tuple[int, ...]
    in_cell: tuple[int, ...]
    dot_rest: tuple[tuple[int, ...], ...]      # the dot's other edges
    cell_rest: tuple[tuple[int, ...], ...]     # the cell's other edges
    of_cell: tuple[tuple[int, ...], ...]       # the corners of each cell

    @staticmethod
    def build(puzzle: "SlitherPuzzle") -> "Angles":
        # (made once per puzzle, before the first step: written with lists, not generators)
        g = puzzle.graph
        ends, incident, cells = g.ends, g.incident, puzzle.cells
        pairs = []
        for k, es in enumerate(cells):
            mine = set(es)
            for d in sorted({v for e in es for v in ends[e]}):
                pair = tuple(sorted([e for e in incident[d] if e in mine]))
                if len(pair) == 2:
                    pairs.append((d, k, pair))
        index = {(d, pair): i for i, (d, _, pair) in enumerate(pairs)}
        by_cell = {(k, pair): i for i, (_, k, pair) in enumerate(pairs)}
        at_dot, in_cell, dot_rest, cell_rest = [], [], [], []
        of_cell: list[list[int]] = [[] for _ in cells]
        for i, (d, k, pair) in enumerate(pairs):
            rest = tuple(sorted([e for e in incident[d] if e not in pair]))
            at_dot.append(index.get((d, rest), -1) if len(rest) == 2 else -1)
            other = tuple(sorted([e for e in cells[k] if e not in pair]))
            in_cell.append(by_cell.get((k, other), -1) if len(other) == 2 else -1)
            dot_rest.append(rest)
            cell_rest.append(other)
            of_cell[k].append(i)
        return Angles(tuple(pairs), tuple(at_dot), tuple(in_cell), tuple(dot_rest), tuple(cell_rest),
                      tuple(tuple(x) for x in of_cell))


# the tables of square grids by size (SlitherPuzzle.shape_once): values only, nothing a solve
# changes; a batch meets a few dozen sizes
_SQUARE_TABLES: dict[tuple[int, int], dict[str, Any]] = {}
SQUARE_SIZES_KEPT = 64


def _getter(items: Sequence[int]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """The items of a sequence at these indices, as a tuple (read at C speed)."""
    if len(items) == 1:
        return lambda seq, i=items[0]: (seq[i],)
    return operator.itemgetter(*items)


def clue_counts(puzzle: SlitherPuzzle, state: State, k: int) -> tuple[list[int], list[int]]:
    """(edges with a line, open edges) of cell k."""
    lines, open_ = [], []
    for e in puzzle.cells[k]:
        m = state.cands[e]
        if m == B_LINE:
            lines.append(e)
        elif m == OPEN:
            open_.append(e)
    return lines, open_


def closes_ok(puzzle: SlitherPuzzle):
    """For premature-loop checks: is this complete state (one loop) a solution?"""
    def ok(state: State) -> bool:
        for k in puzzle.clued:
            if sum(1 for e in puzzle.cells[k] if state.cands[e] == B_LINE) != puzzle.clues[k]:
                return False
        return True
    return ok


def shading_to_edges(puzzle: SlitherPuzzle, inside: Sequence[bool]) -> frozenset[int]:
    """Loop edges from an inside/outside shading: an edge whose two sides differ."""
    faces = puzzle.faces_of_edge
    assert faces is not None
    return frozenset(e for e, (a, b) in enumerate(faces)
                     if inside[a] != (inside[b] if b >= 0 else False))


def inside_from_edges(puzzle: SlitherPuzzle, edges: frozenset[int]) -> list[bool]:
    """The shading of a square grid from its loop: flip on every loop edge crossed going down."""
    out = []
    for r in range(puzzle.rows):
        inside = False
        for c in range(puzzle.cols):
            if puzzle.v(r, c) in edges:
                inside = not inside
            out.append(inside)
    return out


class Slitherlink(Genre):
    name = "slitherlink"
    title = "Slitherlink (square grid and general graphs)"
    aliases = ALIASES
    puzzle_type = SlitherPuzzle
    value_phrases = (("is crossed", "is not crossed"), ("carries the line", "carries no line"))
    blank = 0                           # crossed
    puzzlink_pids = PUZZLINK_PIDS
    janko_names = JANKO_NAMES
    has_tatham = True
    file_suffixes = (".lp",)

    # --- variables and rules -----------------------------------------------------------
    def initial_state(self, puzzle: SlitherPuzzle) -> State:
        return State((OPEN,) * len(puzzle.ends))

    def var_name(self, puzzle: SlitherPuzzle, var: int) -> str:
        return puzzle.edge_label(var)

    def var_cell(self, puzzle: SlitherPuzzle, var: int) -> Cell:
        return puzzle.edge_cell(var)

    def cell_var(self, puzzle: SlitherPuzzle, r: int, c: int) -> int:
        return puzzle.h(r, c) if puzzle.square else c

    def violations_after(self, puzzle: SlitherPuzzle, start: State, state: State) -> list[Violation]:
        """violations, looked for near what changed since the state the solve's start was made
        from when that broke none (see violations_since): a number's count reads only its own
        edges; whether the colouring clashes is asked of the state itself (a fact kept per state)."""
        def clue_or_colour_broken(state: State, changed: list[int]) -> bool:
            cells_of_edge, clues = puzzle.cells_of_edge, puzzle.clues
            for k in {k for e in changed for k in cells_of_edge[e] if clues[k] is not None}:
                lines, open_ = clue_counts(puzzle, state, k)
                if not len(lines) <= clues[k] <= len(lines) + len(open_):
                    return True
            return puzzle.faces_of_edge is not None and colouring(puzzle, state).conflict >= 0
        return violations_since(puzzle.graph, start, state, None, lambda state: self.violations(puzzle, state),
                                clue_or_colour_broken)

    def violations(self, puzzle: SlitherPuzzle, state: State) -> list[Violation]:
        out = loop_violations(puzzle.graph, state)
        cands = state.cands
        for k, n, marks_of in puzzle.clue_marks:
            marks = marks_of(cands)
            lines = marks.count(B_LINE)
            most = lines + marks.count(OPEN)
            if lines <= n <= most:
                continue
            cells = (puzzle.cell(k),) if puzzle.square else ()
            if lines > n:
                out.append(Violation(f"the {n} in {puzzle.cell_label(k)} has {lines} lines", cells))
            else:
                out.append(Violation(f"the {n} in {puzzle.cell_label(k)} can no longer get {n} lines", cells))
        if puzzle.faces_of_edge is not None and not out:
            e = colouring(puzzle, state).conflict
            if e >= 0:
                # named from a fresh count: an update meets the conflict where its changes
                # happen to be, so the same state could be explained two ways
                fresh = full_colouring(puzzle, state).conflict
                e = fresh if fresh >= 0 else e
                out.append(Violation(f"the lines cross a closed path of cells an odd number of times "
                                     f"(at {puzzle.edge_label(e)}), so no loop fits", vars=(e,)))
        return out

    def solution_state(self, puzzle: SlitherPuzzle) -> State | None:
        if puzzle.solution is None:
            return None
        return State(tuple(B_LINE if e in puzzle.solution else B_CROSS for e in range(len(puzzle.ends))))

    def solution_from_state(self, puzzle: SlitherPuzzle, state: State) -> frozenset[int]:
        return frozenset(e for e, m in enumerate(state.cands) if m == B_LINE)

    # --- native ------------------------------------------------------------------------
    def from_native(self, doc: dict[str, Any], src: NativeSource) -> SlitherPuzzle:
        grid = src.grid("grid")
        clues: list[int | None] = []
        for _, _, tok in grid.cells():
            if tok.text in (".", "-"):
                clues.append(None)
            elif tok.text in ("0", "1", "2", "3", "4"):
                clues.append(int(tok.text))
            else:
                raise bad_token(src, tok, "'.' for a cell without a clue or a clue 0-4")
        puzzle = SlitherPuzzle(rows=grid.height, cols=grid.width, clues=tuple(clues), meta=src.meta())
        if "solution" in doc:
            sol = src.grid("solution")
            expect_size(grid, sol, src)
            inside = []
            for _, _, tok in sol.cells():
                if tok.text not in ("x", "X", "#", ".", "-"):
                    raise bad_token(src, tok, "'x' for a cell inside the loop or '.' outside")
                inside.append(tok.text in ("x", "X", "#"))
            puzzle = attrs.evolve(puzzle, solution=shading_to_edges(puzzle, inside))
        return puzzle

    def to_native(self, puzzle: SlitherPuzzle) -> dict[str, Any]:
        if not puzzle.square:
            raise NotImplementedError("a general graph is written as ASP facts")
        rows = [["." if puzzle.clues[r * puzzle.cols + c] is None else str(puzzle.clues[r * puzzle.cols + c])
                 for c in range(puzzle.cols)] for r in range(puzzle.rows)]
        doc: dict[str, Any] = {"genre": self.name, **meta_to_native(puzzle.meta), "grid": grid_text(rows)}
        if puzzle.solution is not None:
            inside = inside_from_edges(puzzle, puzzle.solution)
            doc["solution"] = grid_text([["x" if inside[r * puzzle.cols + c] else "."
                                          for c in range(puzzle.cols)] for r in range(puzzle.rows)])
        return doc

    def parse_marks(self, puzzle: SlitherPuzzle, text_: str, src: Source) -> State:
        if not puzzle.square:
            return self._marks_from_facts(puzzle, text_, src)
        H, W = puzzle.rows, puzzle.cols
        lines = text_.splitlines()
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1].strip():
            lines.pop()
        if len(lines) != 2 * H + 1:
            raise src.error(f"marks have {len(lines)} lines; a {H}x{W} grid is drawn with {2 * H + 1} "
                            "(dots and edges)", 1, 1)
        cands = list(self.initial_state(puzzle).cands)
        indent = min((len(l) - len(l.lstrip()) for l in lines if l.strip()), default=0)
        for y, raw in enumerate(lines):
            row = raw[indent:].ljust(2 * W + 1)
            if len(row) > 2 * W + 1:
                raise src.error(f"line is {len(row)} characters wide, expected {2 * W + 1}", y + 1, 2 * W + 2)
            for x, ch in enumerate(row):
                if y % 2 == 0 and x % 2 == 1:
                    e = puzzle.h(y // 2, x // 2)
                    lineish = "-"
                elif y % 2 == 1 and x % 2 == 0:
                    e = puzzle.v(y // 2, x // 2)
                    lineish = "|"
                else:
                    continue
                if ch in (lineish, "#", "="):
                    cands[e] = B_LINE
                elif ch in ("x", "X"):
                    cands[e] = B_CROSS
                elif ch not in (" ", "."):
                    raise src.error(f"unexpected '{ch}' for an edge: expected '{lineish}', 'x' or '.'",
                                    y + 1, x + 1 + indent)
        return State(tuple(cands))

    def _marks_from_facts(self, puzzle: SlitherPuzzle, text_: str, src: Source) -> State:
        """Marks on a general graph: link(a,b). for lines, cross(a,b). for crossed edges."""
        index = {(puzzle.vertex_terms[a], puzzle.vertex_terms[b]): e for e, (a, b) in enumerate(puzzle.ends)}
        cands = list(self.initial_state(puzzle).cands)
        for f in asp.facts(text_, src):
            if f.name not in ("link", "cross") or len(f.args) != 2 or f.args not in index:
                raise src.error(f"expected link(a,b). or cross(a,b). naming an edge, found {f.name}",
                                f.line, f.col)
            cands[index[f.args]] = B_LINE if f.name == "link" else B_CROSS
        return State(tuple(cands))

    # --- janko, puzz.link, Tatham, ASP ---------------------------------------------------
    def from_janko(self, data: dict[str, Any], src: Source) -> SlitherPuzzle:
        rows, cols, problem = janko_problem(data, src)
        clues: list[int | None] = []
        for r, row in enumerate(problem):
            for c, t in enumerate(row):
                if t == "-":
                    clues.append(None)
                elif t in ("0", "1", "2", "3", "4"):
                    clues.append(int(t))
                else:
                    raise src.error(f"unexpected '{t}' at {Cell(r, c)} in 'problem'", part="problem")
        meta = janko_meta(data, src)
        puzzle = SlitherPuzzle(rows=rows, cols=cols, clues=tuple(clues), meta=meta)
        solution = janko_grid(data, "solution", src, (rows, cols))
        if solution is not None:
            inside = [t == "x" for row in solution for t in row]
            puzzle = attrs.evolve(puzzle, solution=shading_to_edges(puzzle, inside))
        return puzzle

    def from_puzzlink(self, url: puzzlink.PuzzLink) -> SlitherPuzzle:
        if "f" in url.flags:
            raise url.error("the 'f' variant (every dot visited) is not supported", part="flags")
        if not url.body:
            raise url.error("the URL has no clues after the size")
        values = puzzlink.decode_4cell(url, dot_value=-2)
        return SlitherPuzzle(rows=url.rows, cols=url.cols,
                             clues=tuple(None if v < 0 else v for v in values), meta=url.meta)

    def from_tatham(self, params: str, desc: str, src: Source) -> SlitherPuzzle:
        w, h, rest = tatham.parse_size(params, src)
        kind = "0"
        label = None
        k = 0
        while k < len(rest):
            ch = rest[k]
            k += 1
            digits = ""
            while k < len(rest) and rest[k].isdecimal():
                digits += rest[k]
                k += 1
            if ch == "t":
                kind = digits or "0"
            elif ch == "d" and k < len(rest):
                label = {"e": "easy", "n": "normal", "t": "tricky", "h": "hard"}.get(rest[k], rest[k])
                k += 1
        if kind != "0":
            raise src.error(f"Loopy grid type t{kind} is not supported: only t0 (squares)", part="params")
        if "_" in desc:
            raise src.error("a grid description prefix is not used on square grids", part="description")
        clues: list[int | None] = []
        for pos, ch in enumerate(desc):
            run = tatham.run_length(ch)
            if run is not None:
                clues.extend([None] * run)
            elif ch in "01234":
                clues.append(int(ch))
            else:
                raise src.error(f"unexpected '{ch}' at character {pos + 1} of the description",
                                part="description")
        if len(clues) != w * h:
            raise src.error(f"the description covers {len(clues)} faces, {w}x{h} needs {w * h}",
                            part="description")
        return SlitherPuzzle(rows=h, cols=w, clues=tuple(clues),
                             meta=Meta(origin=src.origin, source="Simon Tatham's Loopy", label=label))

    def sniff(self, text_: str) -> bool:
        return asp.looks_like_facts(text_)

    def from_text(self, text_: str, src: Source) -> SlitherPuzzle:
        g = asp.read_graph(text_, src)
        names = tuple(n for n, _ in g.cells)
        return SlitherPuzzle(clues=tuple(g.clues.get(k) for k in range(len(g.cells))),
                             vertex_terms=g.vertices, edge_ends=g.ends, cell_names=names,
                             cell_edge_lists=tuple(es for _, es in g.cells), solution=g.links,
                             vertex_positions=g.positions,
                             meta=Meta(origin=src.origin))

    def facts_text(self, puzzle: SlitherPuzzle, with_solution: bool = False) -> str:
        """The puzzle as input facts (FORMATS.md §6; a square grid lists its clued faces)."""
        terms = puzzle.vertex_terms or tuple(str(i) for i in range((puzzle.rows + 1) * (puzzle.cols + 1)))
        names = puzzle.cell_names or tuple(f"c{k}" for k in range(len(puzzle.cells)))
        out = [f"edge({terms[a]},{terms[b]})." for a, b in puzzle.ends]
        for k in puzzle.clued:
            out += [f"cell_contains({names[k]},{terms[puzzle.ends[e][0]]},{terms[puzzle.ends[e][1]]})."
                    for e in puzzle.cells[k]]
        out += [f"clue({names[k]},{puzzle.clues[k]})." for k in puzzle.clued]
        out += [f"vertex_at({terms[v]},{x},{y})." for v, (x, y) in enumerate(puzzle.vertex_positions)]
        if with_solution and puzzle.solution is not None:
            out.append(asp.links_text(terms, puzzle.ends, puzzle.solution))
        return "\n".join(out) + "\n"

    def answer_asp(self, puzzle: SlitherPuzzle, state: State) -> str:
        terms = puzzle.vertex_terms or tuple(str(i) for i in range((puzzle.rows + 1) * (puzzle.cols + 1)))
        return asp.links_text(terms, puzzle.ends, self.solution_from_state(puzzle, state))

    # --- writers -----------------------------------------------------------------------
    def to_puzzlink(self, puzzle: SlitherPuzzle) -> str:
        with self.writing(puzzle, PUZZLINK):
            self._square_only(puzzle, "puzz.link")
            values = [puzzlink.NO_VALUE if n is None else n for n in puzzle.clues]
            return puzzlink.url_of(self.puzzlink_pids[0], puzzle.cols, puzzle.rows, puzzlink.encode_4cell(values))

    def to_tatham(self, puzzle: SlitherPuzzle) -> str:
        """Loopy on squares (`t0`), the only grid type whose faces are our cells."""
        with self.writing(puzzle, TATHAM):
            self._square_only(puzzle, "Loopy's square grid (t0)")
            params = tatham.size_params(puzzle.cols, puzzle.rows, "Loopy", minimum=3) + "t0"
            return tatham.game_id(params, tatham.encode_cells(puzzle.clues, None, str))

    @staticmethod
    def _square_only(puzzle: SlitherPuzzle, fmt: str) -> None:
        if not puzzle.square:
            raise CannotWrite(f"it is a general graph from ASP facts; {fmt} holds only square grids")

    # --- rendering ---------------------------------------------------------------------
    def render_text(self, puzzle: SlitherPuzzle, state: State | None = None) -> str:
        if not puzzle.square:
            if state is None:
                return self.facts_text(puzzle)
            out = []
            for e, (a, b) in enumerate(puzzle.ends):
                m = state.cands[e]
                word = {B_LINE: "link", B_CROSS: "cross"}.get(m)
                if word:
                    out.append(f"{word}({puzzle.vertex_terms[a]},{puzzle.vertex_terms[b]}).")
            return "\n".join(out) + "\n"
        H, W = puzzle.rows, puzzle.cols

        def mark(e: int, line: str) -> str:
            if state is None:
                return " "
            return {B_LINE: line, B_CROSS: "x", 0: "!"}.get(state.cands[e], ".")
        lines = []
        for i in range(H + 1):
            lines.append("+" + "+".join(mark(puzzle.h(i, j), "-") for j in range(W)) + "+")
            if i < H:
                row = ""
                for j in range(W + 1):
                    row += mark(puzzle.v(i, j), "|")
                    if j < W:
                        n = puzzle.clues[i * W + j]
                        row += " " if n is None else str(n)
                lines.append(row)
        return "\n".join(lines) + "\n"

    def render_board(self, puzzle: SlitherPuzzle, state: State | None = None) -> str:
        """Dots ·, the clues between them, the loop's edges ─ │ (joined at the dots: ┌ ┐ └ ┘),
        crossed-out edges × (not drawn once solved). A general graph keeps render_text."""
        if not puzzle.square:
            return self.render_text(puzzle, state)
        H, W = puzzle.rows, puzzle.cols
        complete = state is not None and state.complete
        cv = board.Canvas(2 * H + 1, 4 * W + 1)

        def mark(e: int) -> str:
            m = None if state is None else state.cands[e]
            if m == B_LINE:
                return "line"
            if m == 0:
                return board.BROKEN
            return board.EMPTY if m == B_CROSS and not complete else ""
        arms = [[0] * (W + 1) for _ in range(H + 1)]
        for i in range(H + 1):
            for j in range(W):
                k = mark(puzzle.h(i, j))
                if k == "line":
                    cv.put(2 * i, 4 * j + 1, "───")
                    arms[i][j] |= board.E_
                    arms[i][j + 1] |= board.W_
                elif k:
                    cv.put(2 * i, 4 * j + 2, k)
        for i in range(H):
            for j in range(W + 1):
                k = mark(puzzle.v(i, j))
                if k == "line":
                    cv.put(2 * i + 1, 4 * j, "│")
                    arms[i][j] |= board.S_
                    arms[i + 1][j] |= board.N_
                elif k:
                    cv.put(2 * i + 1, 4 * j, k)
                if j < W and puzzle.clues[i * W + j] is not None:
                    cv.put(2 * i + 1, 4 * j + 2, str(puzzle.clues[i * W + j]))
        for i in range(H + 1):
            for j in range(W + 1):
                cv.put(2 * i, 4 * j, board.BOX[arms[i][j]] if arms[i][j] else "·")
        return cv.text()

    def answer_json(self, puzzle: SlitherPuzzle, state: State) -> Any:
        return {"links": [puzzle.edge_label(e) for e in sorted(self.solution_from_state(puzzle, state))]}

    def render_svg(self, puzzle: SlitherPuzzle, state: State | None = None,
                   highlights: Sequence[tuple[str, Sequence[int | Cell]]] = ()) -> str:
        if puzzle.square:
            canvas = svg.Canvas(puzzle.rows, puzzle.cols)
            s, m = canvas.cell, canvas.margin
            pos = [(m + x * s, m + y * s) for x, y in puzzle.graph.coords]
        else:
            units = GRAPH_UNITS          # the longer side of the drawing, in cell widths
            pos = puzzle.layout
            canvas = svg.Canvas(max(1, math.ceil(units * max(y for _, y in pos))),
                                max(1, math.ceil(units * max(x for x, _ in pos))))
            s, m = canvas.cell, canvas.margin
            pos = [(round(m + x * s * units, 1), round(m + y * s * units, 1)) for x, y in pos]
        roles = {}
        for role, items in highlights:
            for it in items:
                if isinstance(it, int):
                    roles[it] = role
        for e, (a, b) in enumerate(puzzle.ends):
            (x1, y1), (x2, y2) = pos[a], pos[b]
            mk = state.cands[e] if state is not None else OPEN
            if e in roles:
                canvas.line(x1, y1, x2, y2, svg.ROLE_COLOURS[roles[e]], 7)
            if mk == B_LINE:
                canvas.line(x1, y1, x2, y2, "#000", 3.5)
            elif mk == B_CROSS and not state.complete:      # a solution reads as drawn
                canvas.edge_cross(x1, y1, x2, y2, s * 0.1)
            elif not puzzle.square:
                canvas.line(x1, y1, x2, y2, "#bbb", 1)
        for x, y in pos:
            canvas.items.append(f'<circle cx="{x}" cy="{y}" r="2.5" fill="#000"/>')
        for k in puzzle.clued:
            if puzzle.square:
                canvas.text(puzzle.cell(k), str(puzzle.clues[k]))
            else:
                vs = {v for e in puzzle.cells[k] for v in puzzle.ends[e]}
                cx = sum(pos[v][0] for v in vs) / len(vs)
                cy = sum(pos[v][1] for v in vs) / len(vs)
                canvas.items.append(f'<text x="{cx}" y="{cy}" font-size="14" text-anchor="middle" '
                                    f'dominant-baseline="central" font-family="sans-serif">'
                                    f'{puzzle.clues[k]}</text>')
        for role, items in highlights:
            cells = [it for it in items if isinstance(it, Cell)]
            if cells and puzzle.square:
                canvas.highlight(cells, role)
        return canvas.to_svg(grid_lines=False)

    # --- exact solver ------------------------------------------------------------------
    def asp_facts(self, puzzle: SlitherPuzzle) -> str:
        out = [f"edge({a},{b})." for a, b in puzzle.ends]
        for k in puzzle.clued:
            out += [f"cell_contains({k},{puzzle.ends[e][0]},{puzzle.ends[e][1]})." for e in puzzle.cells[k]]
            out.append(f"clue({k},{puzzle.clues[k]}).")
        return "\n".join(out)

    def state_from_model(self, puzzle: SlitherPuzzle, atoms: Sequence[Any]) -> State:
        index = {ends: e for e, ends in enumerate(puzzle.ends)}
        chosen = {index[(a.arguments[0].number, a.arguments[1].number)] for a in atoms if a.name == "link"}
        return State(tuple(B_LINE if e in chosen else B_CROSS for e in range(len(puzzle.ends))))


GENRE = register(Slitherlink())
