"""Masyu (Pearl): draw one closed loop through the centres of cells. It passes every pearl;
at a black pearl it turns and runs straight through the next cell on both sides; at a white
pearl it runs straight and turns in at least one of the two cells beside it.

Variables: one per edge between orthogonally adjacent cells, CROSS / LINE, numbered as in
`LoopGraph.cell_grid` (horizontal links row by row, then vertical ones).
Grid syntax: `.` (or `-`) no pearl, `W` white, `B` black. Solutions and marks give each cell
the directions its lines leave by (`ns`, `ew`, `se`, ...; a single letter for a loose end),
`-` for a cell off the loop and `.` for nothing known.

The grid-loop helpers here (direction tokens, loop drawing, edge facts) are shared with
Yajilin, which draws the same kind of loop.
"""
from __future__ import annotations

import functools
import operator
from typing import Any, Iterable, Sequence

import attrs

from grader.kernels.loops import (B_CROSS, B_LINE, OPEN, LoopGraph, degree, local_loop_problem,
                                  loop_violations)

from grader.core.errors import Source
from grader.io import puzzlink, tatham
from grader.io.janko import grid as janko_grid, problem as janko_problem
from grader.io.native import (Grid, NativeSource, bad_token, expect_size, grid_text, meta_to_native,
                              parse_marks_grid)
from grader.core.model import Cell, Meta, Puzzle, State, Violation
from grader.io import svg, text
from grader.genres import register
from grader.core.genre import Genre

NONE, WHITE, BLACK = 0, 1, 2
PEARL_GLYPH = {NONE: ".", WHITE: "W", BLACK: "B"}
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


def draw_loop(canvas: svg.Canvas, p: GridLoop, state: State | None) -> None:
    """Lines between cell centres, and a small cross on crossed-out edges."""
    if state is None:
        return
    g = p.graph
    for e, (a, b) in enumerate(g.ends):
        m = state.cands[g.edge_vars[e]]
        (x1, y1), (x2, y2) = canvas.centre(p.cell(a)), canvas.centre(p.cell(b))
        if m == B_LINE:
            canvas.line(x1, y1, x2, y2, "#1a237e", 4)
        elif m == B_CROSS:
            mx, my, d = (x1 + x2) / 2, (y1 + y2) / 2, canvas.cell * 0.08
            canvas.items.append(f'<path d="M{mx - d},{my - d}L{mx + d},{my + d}M{mx - d},{my + d}'
                                f'L{mx + d},{my - d}" stroke="#c62828" stroke-width="1.5"/>')


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


@attrs.frozen(kw_only=True, slots=False)
class MasyuPuzzle(GridLoop, Puzzle):
    rows: int
    cols: int
    pearls: tuple[int, ...]            # NONE, WHITE or BLACK per cell, row-major


    @functools.cached_property
    def pearl_cells(self) -> tuple[int, ...]:
        return tuple(i for i, p in enumerate(self.pearls) if p != NONE)

    @functools.cached_property
    def pearls_near(self) -> dict[int, tuple[int, ...]]:
        """For each edge variable, the pearls whose legs or axes it may affect (within 4 cells)."""
        g = self.graph
        near: dict[int, set[int]] = {}
        for p in self.pearl_cells:
            pr, pc = divmod(p, self.cols)
            for r in range(max(0, pr - 4), min(self.rows, pr + 5)):
                for c in range(max(0, pc - 4), min(self.cols, pc + 5)):
                    if abs(r - pr) + abs(c - pc) <= 4:
                        for e in g.incident[r * self.cols + c]:
                            near.setdefault(g.edge_vars[e], set()).add(p)
        return {v: tuple(sorted(ps)) for v, ps in near.items()}

    @functools.cached_property
    def pearl_memo(self) -> dict:
        """Answers of pearl_problem, leg_blocker and axis_blocker (see there)."""
        return {}

    @functools.cached_property
    def _pearl_getters(self) -> dict:
        return {}

    def pearl_input_vars(self, i: int) -> tuple[int, ...]:
        """The edges at the cells up to three steps from cell i in a straight line: all that
        the pearl rules at i read."""
        cells = {i}
        for d in DIRS:
            j = i
            for _ in range(3):
                j = self.next_cell(j, d)
                if j is None:
                    break
                cells.add(j)
        return tuple(sorted({v for c in cells for v in self.dir_vars[c].values()}))

    def pearl_inputs(self, i: int):
        """A getter for the candidates of pearl_input_vars(i)."""
        got = self._pearl_getters.get(i)
        if got is None:
            got = self._pearl_getters[i] = operator.itemgetter(*self.pearl_input_vars(i))
        return got

    @functools.cached_property
    def pearls_close(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the pearls at most two steps away (what a way through it can affect)."""
        out = []
        for i in range(self.rows * self.cols):
            r0, c0 = divmod(i, self.cols)
            out.append(tuple(p for p in self.pearl_cells
                             if abs(p // self.cols - r0) + abs(p % self.cols - c0) <= 2))
        return tuple(out)

    def required(self, state: State, v: int) -> bool | None:
        """Pearls must be visited; other cells may be."""
        return True if self.pearls[v] != NONE else None


class Masyu(Genre):
    name = "masyu"
    title = "Masyu (Pearl)"
    aliases = ("pearl", "mashu")
    puzzle_type = MasyuPuzzle
    value_phrases = EDGE_PHRASES
    puzzlink_pids = ("mashu", "masyu", "pearl")
    janko_names = ("Masyu",)
    has_tatham = True
    encoding = "masyu.lp"

    # --- variables and rules -----------------------------------------------------------
    def initial_state(self, puzzle: MasyuPuzzle) -> State:
        return State((OPEN,) * puzzle.graph.n_edges)

    def var_name(self, puzzle: MasyuPuzzle, var: int) -> str:
        return puzzle.graph.edge_names[var]

    def var_cell(self, puzzle: MasyuPuzzle, var: int) -> Cell:
        return puzzle.cell(puzzle.graph.ends[var][0])

    def cell_var(self, puzzle: MasyuPuzzle, r: int, c: int) -> int:
        """A cell has no variable of its own: its first edge stands for it."""
        i = r * puzzle.cols + c
        return puzzle.graph.edge_vars[puzzle.graph.incident[i][0]]

    def violations(self, puzzle: MasyuPuzzle, state: State) -> list[Violation]:
        out = loop_violations(puzzle.graph, state, puzzle.required)
        for i in puzzle.pearl_cells:
            problem = pearl_problem(puzzle, state, i)
            if problem:
                kind = "black" if puzzle.pearls[i] == BLACK else "white"
                out.append(Violation(f"the {kind} pearl at {puzzle.cell(i)} {problem}", (puzzle.cell(i),)))
        return out

    def local_problem(self, puzzle: MasyuPuzzle, state: State, changed: list[int]) -> str:
        """A rule broken near the changed edges (for quick look-ahead), or ''."""
        problem = local_loop_problem(puzzle.graph, state, changed, puzzle.required)
        if problem:
            return problem
        near = puzzle.pearls_near
        for i in sorted({p for v in changed for p in near.get(v, ())}):
            problem = pearl_problem(puzzle, state, i)
            if problem:
                return f"the {'black' if puzzle.pearls[i] == BLACK else 'white'} pearl at {puzzle.cell(i)} {problem}"
        return ""

    def solution_state(self, puzzle: MasyuPuzzle) -> State | None:
        if puzzle.solution is None:
            return None
        return State(tuple(B_LINE if e in puzzle.solution else B_CROSS for e in range(puzzle.graph.n_edges)))

    def solution_from_state(self, puzzle: MasyuPuzzle, state: State) -> frozenset[int]:
        return frozenset(e for e, var in enumerate(puzzle.graph.edge_vars) if state.cands[var] == B_LINE)

    # --- formats -----------------------------------------------------------------------
    def from_native(self, doc: dict[str, Any], src: NativeSource) -> MasyuPuzzle:
        grid = src.grid("grid")
        pearls = []
        for _, _, tok in grid.cells():
            t = tok.text
            if t in (".", "-", "0"):
                pearls.append(NONE)
            elif t in ("W", "w", "1", "o", "O"):
                pearls.append(WHITE)
            elif t in ("B", "b", "2", "*"):
                pearls.append(BLACK)
            else:
                raise bad_token(src, tok, "'.' for no pearl, 'W' for a white pearl or 'B' for a black one")
        puzzle = MasyuPuzzle(rows=grid.height, cols=grid.width, pearls=tuple(pearls), meta=src.meta())
        if "solution" in doc:
            sol = src.grid("solution")
            expect_size(grid, sol, src)
            state = self._lines_from_grid(puzzle, sol, src, marks=False)
            puzzle = attrs.evolve(puzzle, solution=self.solution_from_state(puzzle, state))
        return puzzle

    def _lines_from_grid(self, puzzle: MasyuPuzzle, grid: Grid, src: Source, marks: bool) -> State:
        return lines_state(puzzle, grid, src, marks, self.initial_state(puzzle))

    def to_native(self, puzzle: MasyuPuzzle) -> dict[str, Any]:
        rows = [[PEARL_GLYPH[puzzle.pearls[r * puzzle.cols + c]] for c in range(puzzle.cols)]
                for r in range(puzzle.rows)]
        doc: dict[str, Any] = {"genre": self.name, **meta_to_native(puzzle.meta), "grid": grid_text(rows)}
        sol = self.solution_state(puzzle)
        if sol is not None:
            doc["solution"] = "\n".join(loop_answer(puzzle, sol)) + "\n"
        return doc

    def parse_marks(self, puzzle: MasyuPuzzle, text_: str, src: Source) -> State:
        grid = parse_marks_grid(text_, src, puzzle.rows, puzzle.cols)
        return self._lines_from_grid(puzzle, grid, src, marks=True)

    def from_janko(self, data: dict[str, Any], src: Source) -> MasyuPuzzle:
        rows, cols, problem = janko_problem(data, src)
        codes = {"-": NONE, "w": WHITE, "1": WHITE, "b": BLACK, "2": BLACK}
        pearls = []
        for r, row in enumerate(problem):
            for c, t in enumerate(row):
                if t.lower() not in codes:
                    raise src.error(f"unexpected '{t}' at {Cell(r, c)} in 'problem'", part="problem")
                pearls.append(codes[t.lower()])
        meta = Meta(author=data.get("author"), source=data.get("source"), origin=src.origin,
                    title=data.get("title"))
        puzzle = MasyuPuzzle(rows=rows, cols=cols, pearls=tuple(pearls), meta=meta)
        solution = janko_grid(data, "solution", src, (rows, cols))
        if solution is None:
            return puzzle
        tokens = []
        for r, row in enumerate(solution):
            for c, t in enumerate(row):
                if t != "-" and read_directions(t) is None:
                    raise src.error(f"unexpected '{t}' at {Cell(r, c)} in 'solution'", part="solution")
                tokens.append((r * cols + c, t))
        lines = lines_from_tokens(puzzle, tokens, lambda i, msg: src.error(msg, part="solution"))
        return attrs.evolve(puzzle, solution=frozenset(lines))

    def from_puzzlink(self, url: puzzlink.PuzzLink) -> MasyuPuzzle:
        if "f" in url.flags:
            raise url.error("the variant 'every cell visited' (flag f) is not supported", part="flags")
        n = url.rows * url.cols
        need = -(-n // 3)
        body = url.body
        if len(body) < need:
            raise url.error(f"the body has {len(body)} characters, a {url.cols}x{url.rows} grid needs {need}")
        pearls = []
        for k, ch in enumerate(body[:need]):
            try:
                v = int(ch, 27)
            except ValueError:
                raise url.error(f"unexpected '{ch}' at character {k + 1}: expected 0-9 or a-q") from None
            pearls.extend((v // 9, v // 3 % 3, v % 3))
        puzzlink.expect_end(url, need, n, n)
        return MasyuPuzzle(rows=url.rows, cols=url.cols, pearls=tuple(pearls[:n]),
                           meta=Meta(origin=url.src.origin, source="puzz.link"))

    def from_tatham(self, params: str, desc: str, src: Source) -> MasyuPuzzle:
        w, h, rest = tatham.parse_size(params, src, minimum=3)
        pearls: list[int] = []
        for k, ch in enumerate(desc):
            run = tatham.run_length(ch)
            if run is not None:
                pearls.extend([NONE] * run)
            elif ch in "BW":
                pearls.append(BLACK if ch == "B" else WHITE)
            else:
                raise src.error(f"unexpected '{ch}' at character {k + 1} of the description",
                                part="description")
        if len(pearls) != w * h:
            raise src.error(f"the description covers {len(pearls)} cells, {w}x{h} needs {w * h}",
                            part="description")
        label = {"e": "easy", "t": "tricky"}.get(rest[1:2]) if rest.startswith("d") else None
        return MasyuPuzzle(rows=h, cols=w, pearls=tuple(pearls),
                           meta=Meta(origin=src.origin, source="Simon Tatham's Pearl", label=label))

    # --- rendering ---------------------------------------------------------------------
    def render_text(self, puzzle: MasyuPuzzle, state: State | None = None) -> str:
        if state is None:
            return text.grid([[PEARL_GLYPH[puzzle.pearls[r * puzzle.cols + c]] for c in range(puzzle.cols)]
                              for r in range(puzzle.rows)])
        return text.grid([[direction_token(puzzle, state, r * puzzle.cols + c,
                                           True if puzzle.pearls[r * puzzle.cols + c] else None)
                           for c in range(puzzle.cols)] for r in range(puzzle.rows)])

    def render_svg(self, puzzle: MasyuPuzzle, state: State | None = None,
                   highlights: Sequence[tuple[str, Sequence[int | Cell]]] = ()) -> str:
        canvas = svg.Canvas(puzzle.rows, puzzle.cols)
        draw_loop(canvas, puzzle, state)
        for i in puzzle.pearl_cells:
            if puzzle.pearls[i] == BLACK:
                canvas.circle(puzzle.cell(i), 0.3, "#111", "#111")
            else:
                canvas.circle(puzzle.cell(i), 0.3, "#fff", "#111")
        draw_highlights(canvas, puzzle, highlights)
        return canvas.to_svg()

    def answer_json(self, puzzle: MasyuPuzzle, state: State) -> Any:
        return loop_answer(puzzle, state)

    # --- exact solver ------------------------------------------------------------------
    def asp_facts(self, puzzle: MasyuPuzzle) -> str:
        out = [f"cell(0..{puzzle.rows - 1},0..{puzzle.cols - 1})."]
        for i in puzzle.pearl_cells:
            r, c = divmod(i, puzzle.cols)
            out.append(f"{'black' if puzzle.pearls[i] == BLACK else 'white'}({r},{c}).")
        if puzzle.pearl_cells:
            r, c = divmod(puzzle.pearl_cells[0], puzzle.cols)
            out.append(f"root({r},{c}).")
        else:
            # no pearl: the root is the loop's first cell in row order (a root chosen freely
            # made one answer per loop cell, and the 2x2 board "several solutions"); there is a loop
            out.append(f"idx(R,C,R*{puzzle.cols}+C) :- cell(R,C).")
            out.append("seen(I) :- idx(R,C,I), on(R,C). seen(I) :- seen(I-1), idx(_,_,I).")
            out.append("root(R,C) :- idx(R,C,I), on(R,C), not seen(I-1).")
            out.append("has_loop :- on(_,_). :- not has_loop.")
        return "\n".join(out)

    def state_from_model(self, puzzle: MasyuPuzzle, atoms: Sequence[Any]) -> State:
        lines = edge_atoms(puzzle, atoms)
        return State(tuple(B_LINE if e in lines else B_CROSS for e in range(puzzle.graph.n_edges)))


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


def _pearl_problem(puzzle: MasyuPuzzle, state: State, i: int) -> str:
    """What a pearl's lines already get wrong, or ''."""
    lines = {d for d in DIRS if (v := puzzle.edge_var(i, d)) is not None and state.cands[v] == B_LINE}
    straight = lines in ({"n", "s"}, {"e", "w"})
    if puzzle.pearls[i] == BLACK:
        if straight:
            return "has the loop running straight through it"
        for d in lines:
            j = puzzle.next_cell(i, d)
            on = puzzle.edge_var(j, d)
            if on is None or state.cands[on] == B_CROSS:
                return f"has a line towards {puzzle.cell(j)} that cannot run straight on"
            if any((v := puzzle.edge_var(j, t)) is not None and state.cands[v] == B_LINE for t in TURNS[d]):
                return f"has a line towards {puzzle.cell(j)} that turns there"
        for axis in ("ns", "ew"):
            a = leg_blocker(puzzle, state, i, axis[0])
            if a:
                b = leg_blocker(puzzle, state, i, axis[1])
                if b:
                    return f"can leave it neither {SIDE[axis[0]]} nor {SIDE[axis[1]]}: {a}; {b}"
        return ""
    a = axis_blocker(puzzle, state, i, "ew")
    if a:
        b = axis_blocker(puzzle, state, i, "ns")
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


# --- what a pearl can still do (shared with heuristics/masyu.py) --------------------------

# These three run hundreds of thousands of times in trials; each reads only the edges of the
# cells up to three steps from the pearl in a straight line, so its answer is remembered per
# pearl and those edges' candidates.

def _memo(puzzle: MasyuPuzzle, state: State, kind: str, i: int, arg, compute) -> str:
    key = (kind, i, arg, puzzle.pearl_inputs(i)(state.cands))
    memo = puzzle.pearl_memo
    out = memo.get(key)
    if out is None:
        if len(memo) > 60_000:          # a few tens of MB at most per puzzle
            memo.clear()
        out = memo[key] = compute(puzzle, state, i, arg) if arg is not None else compute(puzzle, state, i)
    return out


def pearl_problem(puzzle: MasyuPuzzle, state: State, i: int) -> str:
    """What a pearl's lines already get wrong, or ''."""
    return _memo(puzzle, state, "pearl", i, None, _pearl_problem)


def leg_blocker(puzzle: MasyuPuzzle, state: State, i: int, d: str) -> str:
    """Why the black pearl at i cannot send its line two cells in direction d, or ''."""
    return _memo(puzzle, state, "leg", i, d, _leg_blocker)


def axis_blocker(puzzle: MasyuPuzzle, state: State, i: int, axis: str) -> str:
    """Why the line cannot run through the white pearl at i along axis ('ew' or 'ns'), or ''."""
    return _memo(puzzle, state, "axis", i, axis, _axis_blocker)


def _line(puzzle: MasyuPuzzle, state: State, i: int, d: str) -> bool:
    v = puzzle.edge_var(i, d)
    return v is not None and state.cands[v] == B_LINE


def _crossed(puzzle: MasyuPuzzle, state: State, i: int, d: str) -> bool:
    """The edge is crossed out, or there is none (the border)."""
    v = puzzle.edge_var(i, d)
    return v is None or state.cands[v] == B_CROSS


def can_turn(puzzle: MasyuPuzzle, state: State, j: int | None, d: str) -> bool:
    """Could a line arriving at cell j while heading in direction d turn there?"""
    if j is None or puzzle.pearls[j] == WHITE or _line(puzzle, state, j, d):
        return False
    return any(not _crossed(puzzle, state, j, t) for t in TURNS[d])


def _leg_blocker(puzzle: MasyuPuzzle, state: State, i: int, d: str) -> str:
    """Why the black pearl at i cannot send its line two cells in direction d, or ''."""
    j = puzzle.next_cell(i, d)
    k = None if j is None else puzzle.next_cell(j, d)
    if j is None or k is None:
        return "it would run into the border"
    for a, b in ((i, j), (j, k)):
        if _crossed(puzzle, state, a, d):
            return f"{puzzle.graph.edge_names[puzzle.graph.edge_of_var[puzzle.edge_var(a, d)]]} is crossed out"
    if puzzle.pearls[j] == BLACK:
        return f"the loop would run straight through the black pearl at {puzzle.cell(j)}"
    if any(_line(puzzle, state, j, t) for t in TURNS[d]):
        return f"a line already turns at {puzzle.cell(j)}"
    if not _line(puzzle, state, j, d) and degree(puzzle.graph, state, k) >= 2:
        return f"{puzzle.cell(k)} already has two lines"
    if puzzle.pearls[k] == WHITE:
        if _crossed(puzzle, state, k, d):
            return f"the white pearl at {puzzle.cell(k)} could not run straight on"
        if not can_turn(puzzle, state, puzzle.next_cell(k, d), d):
            return (f"the white pearl at {puzzle.cell(k)} would need a turn at "
                    f"{puzzle.cell(puzzle.next_cell(k, d)) if puzzle.next_cell(k, d) is not None else 'the border'}, "
                    f"which cannot happen")
    return ""


def _axis_blocker(puzzle: MasyuPuzzle, state: State, i: int, axis: str) -> str:
    """Why the line cannot run through the white pearl at i along axis ('ew' or 'ns'), or ''."""
    for d in axis:
        if puzzle.next_cell(i, d) is None:
            return f"it would run into the border to the {SIDE[d]}"
        if _crossed(puzzle, state, i, d):
            return f"{_edge(puzzle, i, d)} is crossed out"
    for t in TURNS[axis[0]]:
        if _line(puzzle, state, i, t):
            return f"a line already leaves it to the {SIDE[t]}"
    a, b = (puzzle.next_cell(i, d) for d in axis)
    if not can_turn(puzzle, state, a, axis[0]) and not can_turn(puzzle, state, b, axis[1]):
        return f"the line could turn neither at {puzzle.cell(a)} nor at {puzzle.cell(b)}"
    return ""


def _edge(puzzle: MasyuPuzzle, i: int, d: str) -> str:
    return puzzle.graph.edge_names[puzzle.graph.edge_of_var[puzzle.edge_var(i, d)]]


GENRE = register(Masyu())
