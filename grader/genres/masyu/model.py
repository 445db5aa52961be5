"""Masyu (Pearl): draw one closed loop through the centres of cells. It passes every pearl;
at a black pearl it turns and runs straight through the next cell on both sides; at a white
pearl it runs straight and turns in at least one of the two cells beside it.

Variables: one per edge between orthogonally adjacent cells, CROSS / LINE, numbered as in
`LoopGraph.cell_grid` (horizontal links row by row, then vertical ones).
Grid syntax: `.` (or `-`) no pearl, `W` white, `B` black. Solutions and marks give each cell
the directions its lines leave by (`ns`, `ew`, `se`, ...; a single letter for a loose end),
`-` for a cell off the loop and `.` for nothing known.

The grid-loop topology and direction tokens are grader/kernels/cell_loops.py (shared with
Yajilin); the pearl rules are grader/kernels/pearls.py (violations and techniques read them).
"""
from __future__ import annotations

import functools
from typing import Any, Sequence

import attrs

from grader.core.errors import Source
from grader.io import puzzlink, tatham
from grader.core.genre import TATHAM
from grader.io import board
from grader.io.cell_loops import draw_highlights, draw_loop, lines_state, loop_board, off_loop
from grader.io.grid_marks import GridMarks
from grader.io.janko import grid as janko_grid, meta as janko_meta, problem as janko_problem
from grader.io.native import Grid, NativeSource, bad_token, grid_text, meta_to_native
from grader.core.model import Cell, Meta, Puzzle, State, Violation
from grader.io import svg, text
from grader.genres import register
from grader.core.genre import Genre
from grader.kernels.cell_loops import (EDGE_PHRASES, GridLoop, direction_token, edge_atoms,
                                       lines_from_tokens, loop_answer, read_directions)
from grader.kernels.loops import B_CROSS, B_LINE, OPEN, local_loop_problem, loop_violations, violations_since
from grader.kernels.pearls import BLACK, NONE, WHITE, pearl_inputs, pearl_problem
from grader.genres.masyu import ALIASES, JANKO_NAMES, PUZZLINK_PIDS

PEARL_GLYPH = {NONE: ".", WHITE: "W", BLACK: "B"}


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
        return self._pearls_near_edges(self.pearl_cells)

    @functools.cached_property
    def pearls_reading(self) -> dict[int, tuple[int, ...]]:
        """For each edge variable, the pearls whose rule (pearl_problem) reads it, in order."""
        out: dict[int, list[int]] = {}
        for p in self.pearl_cells:
            for var in pearl_inputs(self, p):
                out.setdefault(var, []).append(p)
        return {var: tuple(ps) for var, ps in out.items()}

    @functools.cached_property
    def pearls_of(self) -> dict[int, tuple[int, ...]]:
        """WHITE and BLACK -> the pearls of that colour."""
        return {kind: tuple(p for p in self.pearl_cells if self.pearls[p] == kind) for kind in (WHITE, BLACK)}

    @functools.cached_property
    def pearls_near_of(self) -> dict[int, dict[int, tuple[int, ...]]]:
        """WHITE and BLACK -> pearls_near for the pearls of that colour only."""
        return {kind: self._pearls_near_edges(pearls) for kind, pearls in self.pearls_of.items()}

    def _pearls_near_edges(self, pearls: Sequence[int]) -> dict[int, tuple[int, ...]]:
        """{edge variable: the pearls (of those given, in order) within 4 cells of either end},
        for the edges with some: made from each cell's pearls, not each pearl's edges."""
        around: list[list[int]] = [[] for _ in range(self.rows * self.cols)]
        for p in pearls:
            for i in self.cells_within(p, 4):
                around[i].append(p)
        out = {}
        for var, (a, b) in zip(self.graph.edge_vars, self.graph.ends):
            near_a, near_b = around[a], around[b]
            if near_a or near_b:
                out[var] = tuple(near_b if not near_a else near_a if not near_b else sorted({*near_a, *near_b}))
        return out

    @functools.cached_property
    def pearl_memo(self) -> dict:
        """The Questions of grader.kernels.pearls.question, which remember their answers."""
        return {}

    @functools.cached_property
    def pearls_close(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the pearls at most two steps away (what a way through it can affect)."""
        out: list[list[int]] = [[] for _ in range(self.rows * self.cols)]
        for p in self.pearl_cells:          # (in order, so each cell's pearls come sorted)
            for i in self.cells_within(p, 2):
                out[i].append(p)
        return tuple(map(tuple, out))

    def cells_within(self, i: int, radius: int) -> tuple[int, ...]:
        """The cells at most `radius` steps from cell i, in row-major order (made once)."""
        got = self._cells_within.get((i, radius))
        if got is None:
            r0, c0 = divmod(i, self.cols)
            got = self._cells_within[i, radius] = tuple(
                r * self.cols + c for r in range(max(0, r0 - radius), min(self.rows, r0 + radius + 1))
                for c in range(max(0, c0 - radius), min(self.cols, c0 + radius + 1))
                if abs(r - r0) + abs(c - c0) <= radius)
        return got

    @functools.cached_property
    def _cells_within(self) -> dict[tuple[int, int], tuple[int, ...]]:
        return {}

    def required(self, state: State, v: int) -> bool | None:
        """Pearls must be visited; other cells may be."""
        return True if self.pearls[v] != NONE else None


class Masyu(GridMarks, Genre):
    name = "masyu"
    title = "Masyu (Pearl)"
    aliases = ALIASES
    puzzle_type = MasyuPuzzle
    value_phrases = EDGE_PHRASES
    blank = 0                           # crossed out
    puzzlink_pids = PUZZLINK_PIDS
    janko_names = JANKO_NAMES
    has_tatham = True

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

    def violations_after(self, puzzle: MasyuPuzzle, start: State, state: State) -> list[Violation]:
        """violations, looked for near what changed since the state the solve's start was made
        from when that broke none (see violations_since): a pearl rule only reads edges nearby."""
        def pearl_broken(state: State, changed: list[int]) -> bool:
            reading = puzzle.pearls_reading
            return any(pearl_problem(puzzle, state, p) for p in {p for var in changed for p in reading.get(var, ())})
        return violations_since(puzzle.graph, start, state, puzzle.required,
                                lambda state: self.violations(puzzle, state), pearl_broken)

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
        return self.with_native_solution(puzzle, grid, src)

    def read_grid(self, puzzle: MasyuPuzzle, grid: Grid, src: Source, marks: bool) -> State:
        return lines_state(puzzle, grid, src, marks, self.initial_state(puzzle))

    def to_native(self, puzzle: MasyuPuzzle) -> dict[str, Any]:
        rows = [[PEARL_GLYPH[puzzle.pearls[r * puzzle.cols + c]] for c in range(puzzle.cols)]
                for r in range(puzzle.rows)]
        doc: dict[str, Any] = {"genre": self.name, **meta_to_native(puzzle.meta), "grid": grid_text(rows)}
        sol = self.solution_state(puzzle)
        if sol is not None:
            doc["solution"] = "\n".join(loop_answer(puzzle, sol)) + "\n"
        return doc

    def from_janko(self, data: dict[str, Any], src: Source) -> MasyuPuzzle:
        rows, cols, problem = janko_problem(data, src)
        codes = {"-": NONE, "w": WHITE, "1": WHITE, "b": BLACK, "2": BLACK}
        pearls = []
        for r, row in enumerate(problem):
            for c, t in enumerate(row):
                if t.lower() not in codes:
                    raise src.error(f"unexpected '{t}' at {Cell(r, c)} in 'problem'", part="problem")
                pearls.append(codes[t.lower()])
        meta = janko_meta(data, src)
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
        return MasyuPuzzle(rows=url.rows, cols=url.cols, pearls=tuple(pearls[:n]), meta=url.meta)

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

    # --- writers -----------------------------------------------------------------------
    def to_puzzlink(self, puzzle: MasyuPuzzle) -> str:
        """Circle: 0 none, 1 white, 2 black."""
        digits = {NONE: 0, WHITE: 1, BLACK: 2}
        return puzzlink.url_of(self.puzzlink_pids[0], puzzle.cols, puzzle.rows,
                               puzzlink.encode_circle([digits[p] for p in puzzle.pearls]))

    def to_tatham(self, puzzle: MasyuPuzzle) -> str:
        with self.writing(puzzle, TATHAM):
            params = tatham.size_params(puzzle.cols, puzzle.rows, "Pearl", minimum=5)
            desc = tatham.encode_cells(puzzle.pearls, NONE, {BLACK: "B", WHITE: "W"}.__getitem__)
            return tatham.game_id(params, desc)

    # --- rendering ---------------------------------------------------------------------
    def render_text(self, puzzle: MasyuPuzzle, state: State | None = None) -> str:
        if state is None:
            return text.grid([[PEARL_GLYPH[puzzle.pearls[r * puzzle.cols + c]] for c in range(puzzle.cols)]
                              for r in range(puzzle.rows)])
        return text.grid([[direction_token(puzzle, state, r * puzzle.cols + c,
                                           True if puzzle.pearls[r * puzzle.cols + c] else None)
                           for c in range(puzzle.cols)] for r in range(puzzle.rows)])

    def render_board(self, puzzle: MasyuPuzzle, state: State | None = None) -> str:
        """Pearls ○ ●, the loop as strokes through cell centres, crossed-out edges ×; a cell
        the loop cannot pass × (blank when solved)."""
        complete = state is not None and state.complete

        def centre(i: int, arms: int) -> str | None:
            if puzzle.pearls[i] != NONE:
                return "●" if puzzle.pearls[i] == BLACK else "○"
            if not arms and off_loop(puzzle, state, i):
                return " " if complete else board.EMPTY
            return None
        return loop_board(puzzle, state, centre)

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


GENRE = register(Masyu())
