"""Yajilin: shade some cells and draw one closed loop through the centres of all the others.
Shaded cells never touch orthogonally; a clue cell (a number and an arrow) is neither shaded
nor on the loop, and counts the shaded cells in its arrow's direction up to the border.

Variables: one per cell (var = r * cols + c) with values LOOP / SHADED, clue and blocked cells
fixed to CLUE; then one per edge between adjacent cells, CROSS / LINE, numbered as in
`LoopGraph.cell_grid` from rows * cols on.
Grid syntax: `.` a free cell, `2s` a clue (2 shaded cells to the south; n e s w), `#` a blocked
cell without a clue. Solutions and marks: directions such as `ns`, `se` for loop cells, `x`
shaded, `-` for clue cells (and, in marks, `+` a cell known to be on the loop, `.` unknown).
"""
from __future__ import annotations

import functools
import operator
from typing import Any, Sequence

import attrs

from grader.core.errors import Source
from grader.io import puzzlink
from grader.core.genre import PUZZLINK, CannotWrite
from grader.io import board
from grader.io.cell_loops import draw_highlights, draw_loop, lines_state, loop_board
from grader.io.grid_marks import GridMarks
from grader.io.janko import grid as janko_grid, meta as janko_meta, problem as janko_problem
from grader.io.native import Grid, NativeSource, grid_text, meta_to_native
from grader.core.model import Cell, Puzzle, State, Violation
from grader.io import svg, text
from grader.genres import register
from grader.core.genre import Genre
from grader.kernels.cell_loops import (DIRS, EDGE_PHRASES, GridLoop, direction_token, edge_atoms,
                                       lines_from_tokens, read_directions)
from grader.kernels.loops import B_CROSS, B_LINE, OPEN, local_loop_problem, loop_violations, violations_since
from grader.genres.yajilin import ALIASES, JANKO_NAMES, PUZZLINK_PIDS

CROSS, LINE, LOOP, SHADED, CLUE = 0, 1, 2, 3, 4
B_LOOP, B_SHADED, B_CLUE = 1 << LOOP, 1 << SHADED, 1 << CLUE
FREE = B_LOOP | B_SHADED
ARROW = {"n": "↑", "e": "→", "s": "↓", "w": "←"}


@attrs.frozen
class Clue:
    n: int | None          # None: no usable number (a blocked cell, or '?')
    d: str                 # n e s w, or '' without an arrow

    def token(self) -> str:
        if not self.d:
            return "#"
        return f"{'?' if self.n is None else self.n}{self.d}"


@attrs.frozen(kw_only=True, slots=False)
class YajilinPuzzle(GridLoop, Puzzle):
    rows: int
    cols: int
    clues: tuple[Clue | None, ...]     # per cell, row-major; None = a free cell

    @property
    def first_edge_var(self) -> int:  # type: ignore[override]
        return self.rows * self.cols

    def vertex_vars(self) -> Sequence[int | None]:
        return tuple(range(self.rows * self.cols))

    @functools.cached_property
    def free_cells(self) -> tuple[int, ...]:
        return tuple(i for i, c in enumerate(self.clues) if c is None)

    @functools.cached_property
    def counted(self) -> tuple[int, ...]:
        """Clue cells whose number counts something."""
        return tuple(i for i, c in enumerate(self.clues) if c is not None and c.n is not None and c.d)

    @functools.cached_property
    def rays(self) -> dict[int, tuple[int, ...]]:
        """For each counting clue, the free cells in its arrow's direction, nearest first."""
        out = {}
        for i in self.counted:
            d = self.clues[i].d
            cells, j = [], self.next_cell(i, d)
            while j is not None:
                if self.clues[j] is None:
                    cells.append(j)
                j = self.next_cell(j, d)
            out[i] = tuple(cells)
        return out

    @functools.cached_property
    def ray_getters(self) -> dict[int, operator.itemgetter | None]:
        """For each counting clue, the candidates along its ray in one call (None for an empty
        ray): the key under which clue_problem remembers its answer."""
        return {k: operator.itemgetter(*cells) if cells else None for k, cells in self.rays.items()}

    @functools.cached_property
    def clues_seeing(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the clues that count it."""
        out: list[list[int]] = [[] for _ in self.clues]
        for k, cells in self.rays.items():
            for j in cells:
                out[j].append(k)
        return tuple(tuple(x) for x in out)

    @functools.cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(self.dir_cells[i].values()) for i in range(self.rows * self.cols))

    @functools.cached_property
    def cell_links(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """For each cell, (edge variable, cell beyond) in each direction (read for every cell
        near each change, inside every trial: an attribute, not a lookup)."""
        return tuple(tuple((var, self.dir_cells[i][d]) for d, var in self.dir_vars[i].items())
                     for i in range(self.rows * self.cols))

    def required(self, state: State, v: int) -> bool | None:
        """Loop cells must be visited; shaded and clue cells must not."""
        m = state.cands[v]
        if m == B_LOOP:
            return True
        if m & B_LOOP:
            return None
        return False


class Yajilin(GridMarks, Genre):
    name = "yajilin"
    title = "Yajilin"
    aliases = ALIASES
    puzzle_type = YajilinPuzzle
    value_phrases = EDGE_PHRASES + (("is on the loop", "is not on the loop"), ("is shaded", "is not shaded"),
                                    ("holds a clue", "holds no clue"))
    puzzlink_pids = PUZZLINK_PIDS
    janko_names = JANKO_NAMES

    # --- variables and rules -----------------------------------------------------------
    def initial_state(self, puzzle: YajilinPuzzle) -> State:
        cells = [FREE if c is None else B_CLUE for c in puzzle.clues]
        g = puzzle.graph
        edges = [B_CROSS if puzzle.clues[a] is not None or puzzle.clues[b] is not None else OPEN
                 for a, b in g.ends]
        return State(tuple(cells + edges))

    def var_name(self, puzzle: YajilinPuzzle, var: int) -> str:
        n = puzzle.rows * puzzle.cols
        return str(puzzle.cell(var)) if var < n else puzzle.graph.edge_names[var - n]

    def var_cell(self, puzzle: YajilinPuzzle, var: int) -> Cell:
        n = puzzle.rows * puzzle.cols
        return puzzle.cell(var if var < n else puzzle.graph.ends[var - n][0])

    def violations(self, puzzle: YajilinPuzzle, state: State) -> list[Violation]:
        out = loop_violations(puzzle.graph, state, puzzle.required)
        cands = state.cands
        for i in puzzle.free_cells:
            if cands[i] == B_SHADED:
                for j in puzzle.neighbours[i]:
                    if j > i and cands[j] == B_SHADED:
                        out.append(Violation(f"the shaded cells {puzzle.cell(i)} and {puzzle.cell(j)} touch",
                                             (puzzle.cell(i), puzzle.cell(j))))
        for k in puzzle.counted:
            problem = clue_problem(puzzle, state, k)
            if problem:
                out.append(Violation(problem, (puzzle.cell(k),)))
        return out

    def violations_after(self, puzzle: YajilinPuzzle, start: State, state: State) -> list[Violation]:
        """violations, looked for near what changed since the state the solve's start was made
        from when that broke none (see violations_since): two shaded cells that touch include a
        changed one, a clue whose count is broken sees a changed cell."""
        def cells_broken(state: State, changed: list[int]) -> bool:
            cands, n = state.cands, puzzle.rows * puzzle.cols
            cells = [i for i in changed if i < n]
            if any(cands[i] == B_SHADED and any(cands[j] == B_SHADED for j in puzzle.neighbours[i]) for i in cells):
                return True
            return any(clue_problem(puzzle, state, k) for k in {k for i in cells for k in puzzle.clues_seeing[i]})
        return violations_since(puzzle.graph, start, state, puzzle.required,
                                lambda state: self.violations(puzzle, state), cells_broken)

    def local_problem(self, puzzle: YajilinPuzzle, state: State, changed: list[int]) -> str:
        """A rule broken near the changed edges (for quick look-ahead), or ''."""
        return local_loop_problem(puzzle.graph, state, changed, puzzle.required)

    def solution_state(self, puzzle: YajilinPuzzle) -> State | None:
        if puzzle.solution is None:
            return None
        shaded, lines = puzzle.solution
        cells = [B_CLUE if c is not None else (B_SHADED if i in shaded else B_LOOP)
                 for i, c in enumerate(puzzle.clues)]
        edges = [B_LINE if e in lines else B_CROSS for e in range(puzzle.graph.n_edges)]
        return State(tuple(cells + edges))

    def solution_from_state(self, puzzle: YajilinPuzzle, state: State) -> tuple[frozenset[int], frozenset[int]]:
        g = puzzle.graph
        return (frozenset(i for i in puzzle.free_cells if state.cands[i] == B_SHADED),
                frozenset(e for e, var in enumerate(g.edge_vars) if state.cands[var] == B_LINE))

    # --- formats -----------------------------------------------------------------------
    def _clue(self, t: str) -> Clue | None | str:
        """A problem token as a clue, None for a free cell, or an error message."""
        if t in (".", "-"):
            return None
        if t in ("#", "x", "X", "@", "+"):
            return Clue(None, "")
        d = t[-1:].lower().replace("o", "e")
        num = t[:-1]
        if d in DIRS and (num.isdecimal() or num == "?"):
            return Clue(int(num) if num.isdecimal() else None, d)
        return "a number with a direction such as '2s' (n e s w), '#' for a blocked cell or '.'"

    def from_native(self, doc: dict[str, Any], src: NativeSource) -> YajilinPuzzle:
        grid = src.grid("grid")
        clues = []
        for _, _, tok in grid.cells():
            c = self._clue(tok.text)
            if isinstance(c, str):
                raise src.error(f"unexpected '{tok.text}' in grid: expected {c}", tok.line, tok.col)
            clues.append(c)
        puzzle = YajilinPuzzle(rows=grid.height, cols=grid.width, clues=tuple(clues), meta=src.meta())
        return self.with_native_solution(puzzle, grid, src)

    def read_grid(self, puzzle: YajilinPuzzle, grid: Grid, src: Source, marks: bool) -> State:
        start = self.initial_state(puzzle)
        where = {r * puzzle.cols + c: tok for r, c, tok in grid.cells()}

        def set_cell(value: int):
            def handler(i: int, cands: list[int]) -> None:
                if puzzle.clues[i] is not None:
                    if value != B_CLUE:
                        tok = where[i]
                        raise src.error(f"{puzzle.cell(i)} is a clue cell in the puzzle", tok.line, tok.col)
                    return
                if value == B_CLUE:
                    if marks:
                        return
                    tok = where[i]
                    raise src.error(f"{puzzle.cell(i)} is not a clue cell: give directions or 'x'",
                                    tok.line, tok.col)
                cands[i] = value
            return handler
        visit = {"x": set_cell(B_SHADED), "X": set_cell(B_SHADED), "#": set_cell(B_SHADED),
                 "-": set_cell(B_CLUE), "+": set_cell(B_LOOP)}
        state = lines_state(puzzle, grid, src, marks, start, visit)
        cands = list(state.cands)
        g = puzzle.graph
        for i in puzzle.free_cells:
            if cands[i] == B_SHADED:
                if any(state.cands[g.edge_vars[e]] == B_LINE for e in g.incident[i]):
                    tok = where[i]
                    raise src.error(f"{puzzle.cell(i)} is shaded but a line reaches it", tok.line, tok.col)
                for e in g.incident[i]:
                    cands[g.edge_vars[e]] = B_CROSS
            elif any(state.cands[g.edge_vars[e]] == B_LINE for e in g.incident[i]):
                cands[i] = B_LOOP
            elif not marks:
                tok = where[i]
                raise src.error(f"{puzzle.cell(i)} is neither shaded nor on the loop", tok.line, tok.col)
        return State(tuple(cands))

    def to_native(self, puzzle: YajilinPuzzle) -> dict[str, Any]:
        rows = [[self._glyph(puzzle, r * puzzle.cols + c) for c in range(puzzle.cols)] for r in range(puzzle.rows)]
        doc: dict[str, Any] = {"genre": self.name, **meta_to_native(puzzle.meta), "grid": grid_text(rows)}
        sol = self.solution_state(puzzle)
        if sol is not None:
            doc["solution"] = self.render_text(puzzle, sol) + "\n"
        return doc

    def _glyph(self, puzzle: YajilinPuzzle, i: int) -> str:
        c = puzzle.clues[i]
        return "." if c is None else c.token()

    def from_janko(self, data: dict[str, Any], src: Source) -> YajilinPuzzle:
        rows, cols, problem = janko_problem(data, src)
        clues = []
        for r, row in enumerate(problem):
            for c, t in enumerate(row):
                clue = self._clue(t)
                if isinstance(clue, str):
                    raise src.error(f"unexpected '{t}' at {Cell(r, c)} in 'problem'", part="problem")
                clues.append(clue)
        meta = janko_meta(data, src)
        puzzle = YajilinPuzzle(rows=rows, cols=cols, clues=tuple(clues), meta=meta)
        solution = janko_grid(data, "solution", src, (rows, cols))
        if solution is None:
            return puzzle
        shaded, tokens = set(), []
        for r, row in enumerate(solution):
            for c, t in enumerate(row):
                i = r * cols + c
                if t == "x":
                    shaded.add(i)
                elif t != "-":
                    if read_directions(t) is None:
                        raise src.error(f"unexpected '{t}' at {Cell(r, c)} in 'solution'", part="solution")
                    tokens.append((i, t))
        lines = lines_from_tokens(puzzle, tokens, lambda i, msg: src.error(msg, part="solution"))
        return attrs.evolve(puzzle, solution=(frozenset(shaded), frozenset(lines)))

    def from_puzzlink(self, url: puzzlink.PuzzLink) -> YajilinPuzzle:
        if "o" in url.flags:
            raise url.error("the variant 'shaded cells outside the loop' (flag o) is not supported",
                            part="flags")
        n = url.rows * url.cols
        clues: list[Clue | None] = [None] * n
        body, i, pos = url.body, 0, 0
        arrows = {"0": "", "1": "n", "2": "s", "3": "w", "4": "e"}

        def hexnum(k: int, w: int) -> int | None:
            digits = body[k:k + w]
            if len(digits) < w:
                raise url.error(f"the body ends inside the clue at character {k}")
            if w == 1 and digits == ".":
                return None
            try:
                return int(digits, 16)
            except ValueError:
                raise url.error(f"bad number '{digits}' at character {k + 1}") from None

        while i < n and pos < len(body):
            ch = body[pos]
            if ch in "01234":
                clues[i] = Clue(hexnum(pos + 1, 1), arrows[ch]); i += 1; pos += 2
            elif ch in "56789":
                clues[i] = Clue(hexnum(pos + 1, 2), arrows[str(int(ch) - 5)]); i += 1; pos += 3
            elif ch == "-":
                d = body[pos + 1:pos + 2]
                if d not in arrows:
                    raise url.error(f"bad direction '{d}' at character {pos + 2}")
                clues[i] = Clue(hexnum(pos + 2, 3), arrows[d]); i += 1; pos += 5
            elif ch == "+":
                clues[i] = Clue(None, ""); i += 1; pos += 1
            elif "a" <= ch <= "z":
                i += ord(ch) - 96; pos += 1
            else:
                raise url.error(f"unexpected '{ch}' at character {pos + 1}")
        puzzlink.expect_end(url, pos, i, n)
        clues = [Clue(None, "") if c is not None and not c.d else c for c in clues]
        return YajilinPuzzle(rows=url.rows, cols=url.cols, clues=tuple(clues), meta=url.meta)

    # --- writers -----------------------------------------------------------------------
    def to_puzzlink(self, puzzle: YajilinPuzzle) -> str:
        """ArrowNumber16: an arrow clue, or '+' for a blocked cell without one."""
        with self.writing(puzzle, PUZZLINK):
            tokens: list[str | None] = []
            for i, clue in enumerate(puzzle.clues):
                if clue is None:
                    tokens.append(None)
                elif not clue.d:
                    if clue.n is not None:
                        raise CannotWrite(f"the {clue.n} at {puzzle.cell(i)} has no arrow: puzz.link would "
                                          "read it as a blocked cell")
                    tokens.append(puzzlink.BLANK_CLUE)
                else:
                    tokens.append(puzzlink.arrow_number16_token(clue.d, clue.n))
            return puzzlink.url_of(self.puzzlink_pids[0], puzzle.cols, puzzle.rows,
                                   puzzlink.encode_arrow_number16(tokens))

    # --- rendering ---------------------------------------------------------------------
    def render_text(self, puzzle: YajilinPuzzle, state: State | None = None) -> str:
        rows = []
        for r in range(puzzle.rows):
            row = []
            for c in range(puzzle.cols):
                i = r * puzzle.cols + c
                if puzzle.clues[i] is not None or state is None:
                    row.append(self._glyph(puzzle, i) if state is None else "-")
                elif state.cands[i] == B_SHADED:
                    row.append("x")
                else:
                    t = direction_token(puzzle, state, i, True)
                    row.append("+" if t == "." and state.cands[i] == B_LOOP else t)
            rows.append(row)
        return text.grid(rows)

    def render_board(self, puzzle: YajilinPuzzle, state: State | None = None) -> str:
        """Clues as a number and an arrow (2→, ←1; a blocked cell ▓), shaded cells █, the loop
        as strokes through cell centres, crossed-out edges ×; + a cell known to be on the loop
        before any of its lines is."""
        def centre(i: int, arms: int) -> str | None:
            clue = puzzle.clues[i]
            if clue is not None:
                n = "?" if clue.n is None else str(clue.n)
                return ARROW[clue.d] + n if clue.d in "wn" else n + ARROW[clue.d]
            m = None if state is None else state.cands[i]
            if m == 0:
                return board.BROKEN
            if m == B_LOOP and not arms:
                return "+"
            return None

        def shaded(i: int) -> str | None:
            clue = puzzle.clues[i]
            if clue is not None:
                return None if clue.d else board.BLOCK
            if state is not None and state.cands[i] == B_SHADED:
                return board.SHADE
            return None
        return loop_board(puzzle, state, centre, shaded,
                          quiet=lambda i: puzzle.clues[i] is not None or shaded(i) is not None)

    def render_svg(self, puzzle: YajilinPuzzle, state: State | None = None,
                   highlights: Sequence[tuple[str, Sequence[int | Cell]]] = ()) -> str:
        canvas = svg.Canvas(puzzle.rows, puzzle.cols)
        for i, clue in enumerate(puzzle.clues):
            cell = puzzle.cell(i)
            if clue is not None:
                canvas.fill(cell, "#e0e0e0")
                label = "" if clue.n is None and not clue.d else f"{'?' if clue.n is None else clue.n}{ARROW.get(clue.d, '')}"
                if label:
                    canvas.text(cell, label, "#000", 0.4)
            elif state is not None and state.cands[i] == B_SHADED:
                canvas.fill(cell, "#222")
        draw_loop(canvas, puzzle, state)
        draw_highlights(canvas, puzzle, highlights)
        return canvas.to_svg()

    def answer_json(self, puzzle: YajilinPuzzle, state: State) -> Any:
        return self.render_text(puzzle, state).splitlines()

    # --- exact solver ------------------------------------------------------------------
    def asp_facts(self, puzzle: YajilinPuzzle) -> str:
        out = [f"cell(0..{puzzle.rows - 1},0..{puzzle.cols - 1})."]
        for i, c in enumerate(puzzle.clues):
            r, col = divmod(i, puzzle.cols)
            out.append(f"idx({r},{col},{i}).")
            if c is not None:
                out.append(f"clue({r},{col}).")
        for k, cells in puzzle.rays.items():
            out.append(f"count({k},{puzzle.clues[k].n}).")
            out.extend(f"ray({k},{j // puzzle.cols},{j % puzzle.cols})." for j in cells)
        return "\n".join(out)

    def state_from_model(self, puzzle: YajilinPuzzle, atoms: Sequence[Any]) -> State:
        lines = edge_atoms(puzzle, atoms)
        shaded = {a.arguments[0].number * puzzle.cols + a.arguments[1].number
                  for a in atoms if a.name == "shade"}
        cells = [B_CLUE if c is not None else (B_SHADED if i in shaded else B_LOOP)
                 for i, c in enumerate(puzzle.clues)]
        return State(tuple(cells + [B_LINE if e in lines else B_CROSS for e in range(puzzle.graph.n_edges)]))


def clue_problem(puzzle: YajilinPuzzle, state: State, k: int) -> str:
    """A clue already over its count, or one that can no longer reach it, or ''. Remembered
    per clue and the candidates along its ray (every trial asks again, mostly unchanged);
    at most CLUE_ANSWERS kept."""
    get = puzzle.ray_getters[k]
    key = (k, get(state.cands) if get is not None else ())
    memo = puzzle.memo("_yajilin_clue_problems", CLUE_ANSWERS)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _clue_problem(puzzle, state, k)
    return found


CLUE_ANSWERS = 50_000       # each a key of a ray's candidates: a few MB at most


def _clue_problem(puzzle: YajilinPuzzle, state: State, k: int) -> str:
    n = puzzle.clues[k].n
    shaded, room = shade_room(puzzle, state, puzzle.rays[k])
    if shaded > n:
        return f"the {n} at {puzzle.cell(k)} already sees {shaded} shaded cells"
    if room < n:
        return f"the {n} at {puzzle.cell(k)} can no longer see {n} shaded cells"
    return ""


def shade_room(puzzle: YajilinPuzzle, state: State, cells: Sequence[int]) -> tuple[int, int]:
    """Shaded cells in a line of free cells (nearest first), and the most it could hold:
    a run of k undecided cells side by side holds at most (k + 1) // 2, since shaded cells
    never touch."""
    cands = state.cands
    shaded = room = run = 0
    prev = None
    for j in cells:
        m = cands[j]
        if run and (m != FREE or prev is None or j not in puzzle.neighbours[prev]):
            room += (run + 1) // 2
            run = 0
        if m == B_SHADED:
            shaded += 1
        elif m == FREE:
            run += 1
        prev = j
    room += (run + 1) // 2
    return shaded, shaded + room


GENRE = register(Yajilin())
