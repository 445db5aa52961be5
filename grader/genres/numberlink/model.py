"""Numberlink (Arukone): join each pair of equal labels with a line through cell centres,
horizontally and vertically; lines never cross, branch or share a cell, and (the notes'
"must not touch itself") two side-by-side cells of one line are consecutive on it, except
at its end numbers, where janko's own solutions sometimes let a line come back beside its
end. In the `cover` variant (puzz.link arukone without `e`) the lines also use every cell.

Variables: every cell, whose value is its shape (spec/numberlink-notes.txt): an endpoint
leaving N, E, S or W, a link joining two sides (┗ ┏ ┓ ┛ ┃ ━), or EMPTY (not in `cover`).
Shapes are side masks N=1, E=2, S=4, W=8. Var = r * cols + c.
Grid syntax: `.` an empty cell, any other token a label (each used exactly twice); in
solutions and marks a cell may show a link glyph (┗┏┓┛┃━ or └┌┐┘│─), and in marks `x` for a
cell the lines do not use.
"""
from __future__ import annotations

import functools
import re
from typing import Any, Sequence

import attrs


from grader.core.engine import solve_memory
from grader.core.errors import Source
from grader.io import puzzlink
from grader.core.genre import PUZZLINK, CannotWrite
from grader.io.janko import grid as janko_grid, meta as janko_meta
from grader.io.janko import problem as janko_problem
from grader.io.native import Grid, NativeSource, grid_text, meta_to_native
from grader.core.model import Cell, Meta, Puzzle, State, Violation
from grader.io import board, svg, text
from grader.genres import register
from grader.kernels.cell_shapes import (B_EMPTY, E, N, OPPOSITE, S, SHAPES, SIDES, STEP, W, areas_beside,
                                        chains, free_areas, sides_must)
from grader.core.genre import Genre
from grader.io.grid_marks import GridMarks
from grader.genres.numberlink import ALIASES, JANKO_NAMES, PUZZLINK_PIDS

ENDS = 0b11110               # values 1..4
LINKS = 0b11111100000        # values 5..10
GLYPHS = {N | E: "┗", E | S: "┏", S | W: "┓", N | W: "┛", N | S: "┃", E | W: "━"}
# How a line passes a cell, for sentences ("the line through r3c4 cannot turn up and left")
WAYS = {N | E: "turn up and right", E | S: "turn down and right", S | W: "turn down and left",
        N | W: "turn up and left", N | S: "run straight up and down", E | W: "run straight across"}
GLYPH_SIDES = {**{g: m for m, g in GLYPHS.items()},
               "└": N | E, "┌": E | S, "┐": S | W, "┘": N | W, "│": N | S, "─": E | W}
VALUE_OF_SIDES = {m: v for v, m in enumerate(SHAPES) if v}

# how many cells' worth of boards a solve keeps the answers of in Numberlink.violations
VIOLATIONS_KEPT = 2_000_000

# values whose shape uses / does not use each side
WITH_SIDE = {d: sum(1 << v for v, m in enumerate(SHAPES) if m & d) for d in SIDES}
WITHOUT_SIDE = {d: sum(1 << v for v, m in enumerate(SHAPES) if not m & d) for d in SIDES}


@attrs.frozen(kw_only=True, slots=False)
class NumberlinkPuzzle(Puzzle):
    rows: int
    cols: int
    labels: tuple[int, ...]           # 0 = no label, else 1..k (index into names)
    names: tuple[str, ...]            # names[k - 1] is how label k is written
    cover: bool = False               # the lines must use every cell

    def cell(self, i: int) -> Cell:
        return self.cells[i]

    @functools.cached_property
    def cells(self) -> tuple[Cell, ...]:
        """Each cell's name (r3c4), made once: explanations ask for them on every step."""
        return tuple(Cell(*divmod(i, self.cols)) for i in range(self.rows * self.cols))

    def name(self, label: int) -> str:
        return self.names[label - 1]

    @functools.cached_property
    def neighbour(self) -> tuple[dict[int, int], ...]:
        """For each cell, side -> the cell on that side (sides at the border are absent)."""
        out = []
        for i in range(self.rows * self.cols):
            r, c = divmod(i, self.cols)
            out.append({d: (r + dr) * self.cols + c + dc for d, (dr, dc) in STEP.items()
                        if 0 <= r + dr < self.rows and 0 <= c + dc < self.cols})
        return tuple(out)

    @functools.cached_property
    def around(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, itself and its neighbours."""
        return tuple((i, *nb.values()) for i, nb in enumerate(self.neighbour))

    @functools.cached_property
    def border_sides(self) -> tuple[int, ...]:
        """For each cell, the sides that have a neighbour."""
        return tuple(sum(nb) for nb in self.neighbour)

    @functools.cached_property
    def border_cells(self) -> tuple[tuple[int, int], ...]:
        """(cell, the sides that have a neighbour) for the cells at the border, in order."""
        return tuple((i, sides) for i, sides in enumerate(self.border_sides) if sides != N | E | S | W)

    @functools.cached_property
    def pairs(self) -> dict[int, tuple[int, int]]:
        """Label -> its two endpoint cells."""
        out: dict[int, list[int]] = {}
        for i, lab in enumerate(self.labels):
            if lab:
                out.setdefault(lab, []).append(i)
        return {lab: (a, b) for lab, (a, b) in sorted(out.items())}

    @functools.cached_property
    def blocks(self) -> tuple[tuple[int, int, int, int], ...]:
        """Each 2x2 block of cells: (top left, top right, bottom left, bottom right)."""
        c = self.cols
        return tuple((r * c + k, r * c + k + 1, (r + 1) * c + k, (r + 1) * c + k + 1)
                     for r in range(self.rows - 1) for k in range(c - 1))

    @functools.cached_property
    def block_numbered(self) -> tuple[tuple[bool, bool, bool, bool], ...]:
        """For each 2x2 block, which of its cells hold a number."""
        return tuple(tuple(bool(self.labels[i]) for i in block) for block in self.blocks)

    @functools.cached_property
    def blocks_of(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the indices of the 2x2 blocks it belongs to."""
        out: list[list[int]] = [[] for _ in range(self.rows * self.cols)]
        for k, block in enumerate(self.blocks):
            for i in block:
                out[i].append(k)
        return tuple(tuple(b) for b in out)

    @functools.cached_property
    def edges(self) -> tuple[tuple[int, int, int], ...]:
        """(cell, side, neighbour) for each pair of adjacent cells, once (sides E and S)."""
        return tuple((i, d, j) for i in range(self.rows * self.cols)
                     for d, j in self.neighbour[i].items() if d in (E, S))

    @functools.cached_property
    def edges_of(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the indices in `edges` of the pairs it belongs to."""
        out: list[list[int]] = [[] for _ in range(self.rows * self.cols)]
        for k, (i, _, j) in enumerate(self.edges):
            out[i].append(k)
            out[j].append(k)
        return tuple(tuple(e) for e in out)


class Numberlink(GridMarks, Genre):
    name = "numberlink"
    title = "Numberlink (Arukone)"
    aliases = ALIASES
    puzzle_type = NumberlinkPuzzle
    # in a solver's words, as the line through the cell goes (no shape glyphs: issue 23)
    value_phrases = (
        ("stays empty", "is used by a line"),
        ("sends the line up", "does not send the line up"),
        ("sends the line right", "does not send the line right"),
        ("sends the line down", "does not send the line down"),
        ("sends the line left", "does not send the line left"),
        *((f"turns the line {way}", f"does not turn the line {way}")
          for way in ("up and right", "down and right", "down and left", "up and left")),
        ("carries the line straight up and down", "does not carry the line straight up and down"),
        ("carries the line straight across", "does not carry the line straight across"))
    puzzlink_pids = PUZZLINK_PIDS
    janko_names = JANKO_NAMES
    file_suffixes = (".txt",)

    # --- variables and rules -----------------------------------------------------------
    def initial_state(self, puzzle: NumberlinkPuzzle) -> State:
        """What each square is: an endpoint where a label stands, else a link (or empty)."""
        inner = LINKS if puzzle.cover else LINKS | B_EMPTY
        return State(tuple(ENDS if lab else inner for lab in puzzle.labels))

    def violations(self, puzzle: NumberlinkPuzzle, state: State) -> list[Violation]:
        """The first rule the board breaks (an empty list: none). A fill of a look-ahead ends
        here, and fills often end on a board an earlier one ended on (janko 426: 1212 checks
        of 562 boards), so a solve keeps the answers by board: on a 20x20 board this check
        (the free areas) was a quarter of the time."""
        memory = solve_memory()
        owner, kept = memory.get("numberlink.violations", (None, None))
        if owner is not puzzle:         # (a solve's memory serves one puzzle: checked all the same)
            owner, kept = memory["numberlink.violations"] = (puzzle, {})
        found = kept.get(state.cands)
        if found is None:
            if len(kept) >= VIOLATIONS_KEPT // len(state.cands):
                kept.clear()
            found = kept[state.cands] = tuple(self._violations(puzzle, state))
        return list(found)

    def _violations(self, puzzle: NumberlinkPuzzle, state: State) -> list[Violation]:
        out = []
        cands = state.cands
        ch = chains(puzzle, state)
        can, must, labels, root = ch.can, ch.must, puzzle.labels, ch.root
        # one pass over the pairs of neighbours for the first that does not join up and the
        # first where a line runs beside itself (the notes' "must not touch itself", ends
        # excepted); the second is reported only if nothing before it is
        apart = beside = None
        for i, d, j in puzzle.edges:
            mi, mj = must[i], must[j]
            if not (mi or mj):
                continue
            e = OPPOSITE[d]
            if (mi & d and not can[j] & e) or (mj & e and not can[i] & d):
                apart = (i, j)
                break
            if beside is None and mi and mj and root[i] == root[j] and not mi & d and not labels[i] \
                    and not labels[j]:
                beside = (i, j)
        if apart is not None:
            i, j = apart
            out.append(Violation(f"the line at {puzzle.cell(i)} and {puzzle.cell(j)} does not join up",
                                 (puzzle.cell(i), puzzle.cell(j))))
            return out
        for i, sides in puzzle.border_cells:
            if must[i] & ~sides:
                out.append(Violation(f"the line at {puzzle.cell(i)} leaves the grid", (puzzle.cell(i),)))
                return out
        if ch.clash:
            a, b = ch.clash
            out.append(Violation(f"the lines of {puzzle.name(a)} and {puzzle.name(b)} are joined"))
            return out
        if ch.loop is not None:
            out.append(Violation(f"the line through {puzzle.cell(ch.loop)} closes a loop", (puzzle.cell(ch.loop),)))
            return out
        if beside is not None:
            i, j = beside
            out.append(Violation(f"the line runs beside itself at {puzzle.cell(i)} and {puzzle.cell(j)}",
                                 (puzzle.cell(i), puzzle.cell(j))))
            return out
        comp = free_areas(puzzle, cands, ch)
        reached: set[int] = set()
        for lab, (a, b) in puzzle.pairs.items():
            if ch.root[a] == ch.root[b]:
                continue
            near_a, near_b = areas_beside(puzzle, cands, ch, comp, a, b), areas_beside(puzzle, cands, ch, comp, b, a)
            if -1 not in near_a and not near_a & near_b:
                out.append(Violation(f"the two {puzzle.name(lab)}s at {puzzle.cell(a)} and {puzzle.cell(b)} "
                                     "can no longer be joined", (puzzle.cell(a), puzzle.cell(b))))
                return out
            reached |= near_a | near_b
        reached.discard(-1)
        if puzzle.cover:    # every cell is used, so some line must still be able to get there
            for i in range(len(cands)):
                if not ch.labels[i] and comp[i] not in reached:
                    out.append(Violation(f"no line can reach {puzzle.cell(i)}", (puzzle.cell(i),)))
                    return out
        if state.complete:
            for i, m in enumerate(cands):
                if m != B_EMPTY and ch.label(i) == 0:
                    out.append(Violation(f"the line through {puzzle.cell(i)} joins no numbers",
                                         (puzzle.cell(i),)))
                    break
        return out

    def solution_state(self, puzzle: NumberlinkPuzzle) -> State | None:
        if puzzle.solution is None:
            return None
        return State(tuple(1 << VALUE_OF_SIDES[m] if m else B_EMPTY for m in puzzle.solution))

    def solution_from_state(self, puzzle: NumberlinkPuzzle, state: State) -> tuple[int, ...]:
        return tuple(SHAPES[(m & -m).bit_length() - 1] for m in state.cands)

    # --- formats -----------------------------------------------------------------------
    def _make(self, rows: int, cols: int, tokens: list[str | None], where, cover: bool, meta: Meta
              ) -> NumberlinkPuzzle:
        """A puzzle from one label (or None) per cell; `where(i, message)` makes the error."""
        names: list[str] = []
        count: dict[str, list[int]] = {}
        for i, t in enumerate(tokens):
            if t is not None:
                count.setdefault(t, []).append(i)
        for t, cells in count.items():
            if len(cells) != 2:
                times = "once" if len(cells) == 1 else f"{len(cells)} times"
                raise where(cells[-1 if len(cells) > 2 else 0],
                            f"label '{t}' appears {times}: each label must appear exactly twice")
        order = sorted(count, key=lambda t: (not t.isdecimal(), int(t) if t.isdecimal() else 0, t))
        number = {t: k + 1 for k, t in enumerate(order)}
        names = order
        labels = tuple(number[t] if t is not None else 0 for t in tokens)
        return NumberlinkPuzzle(rows=rows, cols=cols, labels=labels, names=tuple(names), cover=cover, meta=meta)

    def read_grid(self, puzzle: NumberlinkPuzzle, grid: Grid, src: Source, marks: bool) -> State:
        """Link glyphs drawn on a grid: a solution (every cell), or a player's marks."""
        cands = list(self.initial_state(puzzle).cands)
        for r, c, tok in grid.cells():
            i = r * puzzle.cols + c
            t = tok.text
            if puzzle.labels[i]:
                if t != puzzle.name(puzzle.labels[i]):
                    raise src.error(f"{Cell(r, c)} holds '{puzzle.name(puzzle.labels[i])}' in the puzzle "
                                    f"but '{t}' here", tok.line, tok.col)
                continue
            if t in GLYPH_SIDES:
                cands[i] &= 1 << VALUE_OF_SIDES[GLYPH_SIDES[t]]
            elif t in ("x", "X") or (t == "." and not marks):
                cands[i] &= B_EMPTY
            elif t != ".":
                raise src.error(f"unexpected '{t}' in {grid.key}: expected '.', "
                                f"{'x, ' if marks else ''}a label or a line piece ┗┏┓┛┃━",
                                tok.line, tok.col)
            if not cands[i]:
                raise src.error(f"'{t}' at {Cell(r, c)} is not allowed here"
                                + (" (every cell must be used)" if puzzle.cover else ""), tok.line, tok.col)
        state = State(tuple(cands))
        if not marks:    # endpoints face the one neighbour whose line comes in
            ends = list(state.cands)
            for lab, pair in puzzle.pairs.items():
                for i in pair:
                    into = [d for d, j in puzzle.neighbour[i].items()
                            if sides_must(state.cands[j]) & OPPOSITE[d] and not puzzle.labels[j]]
                    if not into:    # the two ends touch and the line is just that join
                        into = [d for d, j in puzzle.neighbour[i].items() if puzzle.labels[j] == lab]
                    if len(into) == 1:
                        ends[i] = 1 << VALUE_OF_SIDES[into[0]]
            state = State(tuple(ends))
        return state

    def from_native(self, doc: dict[str, Any], src: NativeSource) -> NumberlinkPuzzle:
        grid = src.grid("grid")
        tokens = [None if tok.text == "." else tok.text for _, _, tok in grid.cells()]
        toks = [tok for _, _, tok in grid.cells()]
        puzzle = self._make(grid.height, grid.width, tokens,
                            lambda i, msg: src.error(msg, toks[i].line, toks[i].col),
                            bool(doc.get("cover", False)), src.meta())
        state = self.native_solution(puzzle, grid, src)
        if state is not None:
            line = src.key_line("solution")
            if not state.complete:
                loose = puzzle.cell(next(i for i in range(len(state.cands)) if not state.decided(i)))
                raise src.error(f"the solution does not show which way the line leaves {loose}", line)
            broken = self.violations(puzzle, state)
            if broken:
                raise src.error(f"the solution breaks the rules: {broken[0].message}", line)
            puzzle = attrs.evolve(puzzle, solution=self.solution_from_state(puzzle, state))
        return puzzle

    def _rows(self, puzzle: NumberlinkPuzzle, state: State | None, solution: bool = False) -> list[list[str]]:
        out = []
        for r in range(puzzle.rows):
            row = []
            for c in range(puzzle.cols):
                i = r * puzzle.cols + c
                if puzzle.labels[i]:
                    row.append(puzzle.name(puzzle.labels[i]))
                elif state is None or not state.decided(i):
                    row.append("." if state is None or state.cands[i] else "!")
                else:
                    m = SHAPES[state.value(i)]
                    row.append(GLYPHS[m] if m else ("." if solution else "x"))
            out.append(row)
        return out

    def to_native(self, puzzle: NumberlinkPuzzle) -> dict[str, Any]:
        doc: dict[str, Any] = {"genre": self.name, **meta_to_native(puzzle.meta)}
        if puzzle.cover:
            doc["cover"] = True
        doc["grid"] = grid_text(self._rows(puzzle, None))
        sol = self.solution_state(puzzle)
        if sol is not None:
            doc["solution"] = grid_text(self._rows(puzzle, sol, solution=True))
        return doc

    def from_janko(self, data: dict[str, Any], src: Source) -> NumberlinkPuzzle:
        rows, cols, problem = janko_problem(data, src)
        tokens: list[str | None] = []
        for r, row in enumerate(problem):
            for c, t in enumerate(row):
                if t == "-":
                    tokens.append(None)
                elif t.isdecimal():
                    tokens.append(str(int(t)))
                else:
                    raise src.error(f"unexpected '{t}' at {Cell(r, c)}: expected '-' or a number",
                                    part="problem")
        meta = janko_meta(data, src)
        solution = janko_grid(data, "solution", src, (rows, cols))
        # janko's Arukone uses every cell (puzz.link's arukone rule); the few records whose own
        # solution leaves cells empty are read with the numlin rule instead
        cover = solution is None or all(t != "-" for row in solution for t in row)
        puzzle = self._make(rows, cols, tokens, lambda i, msg: src.error(f"{msg} (at {Cell(*divmod(i, cols))})",
                                                                         part="problem"), cover, meta)
        if solution is not None:
            letters = {"n": N, "e": E, "o": E, "s": S, "w": W}
            shapes = []
            for r, row in enumerate(solution):
                for c, t in enumerate(row):
                    m = 0
                    for ch in ("" if t == "-" else t):
                        if ch not in letters:
                            raise src.error(f"unexpected '{t}' at {Cell(r, c)} in 'solution'", part="solution")
                        m |= letters[ch]
                    if m and m not in VALUE_OF_SIDES:
                        raise src.error(f"'{t}' at {Cell(r, c)} is not a line piece", part="solution")
                    shapes.append(m)
            puzzle = attrs.evolve(puzzle, solution=tuple(shapes))
        return puzzle

    def from_puzzlink(self, url: puzzlink.PuzzLink) -> NumberlinkPuzzle:
        values = puzzlink.decode_known_numbers(url, "the number at {cell} is unknown")
        cover = url.pid == "arukone" and "e" not in url.flags
        tokens = [None if v < 0 else str(v) for v in values]
        return self._make(url.rows, url.cols, tokens, lambda i, msg: url.error(f"{msg} (at {Cell(*divmod(i, url.cols))})"),
                          cover, url.meta)

    # The plain `W H` grid used by Numberlink solvers: a size line, then rows of letters,
    # digits and dots.
    def sniff(self, text_: str) -> bool:
        lines = [l for l in text_.splitlines() if l.strip()]
        return bool(lines) and re.fullmatch(r"\s*\d+\s+\d+\s*", lines[0]) is not None and all(
            re.fullmatch(r"[A-Za-z0-9.]+", l.strip()) for l in lines[1:])

    def from_text(self, text_: str, src: Source) -> NumberlinkPuzzle:
        lines = text_.splitlines()
        first = next((k for k, l in enumerate(lines) if l.strip()), None)
        m = re.fullmatch(r"\s*(\d{1,6})\s+(\d{1,6})\s*", lines[first]) if first is not None else None
        if m is None:
            raise src.error("expected a first line '<width> <height>'", (first or 0) + 1, 1)
        w, h = int(m.group(1)), int(m.group(2))
        if not (1 <= w <= 200 and 1 <= h <= 200):
            raise src.error(f"size {w}x{h} is out of range", first + 1, 1)
        rows = [(k, l) for k, l in enumerate(lines) if k > first and l.strip()]
        if len(rows) != h:
            raise src.error(f"expected {h} rows after the size line, found {len(rows)}",
                            (rows[-1][0] + 1) if rows else first + 1)
        tokens: list[str | None] = []
        places: list[tuple[int, int]] = []
        for k, line in rows:
            body = line.strip()
            col0 = len(line) - len(line.lstrip()) + 1
            if len(body) != w:
                raise src.error(f"row has {len(body)} cells, expected {w}", k + 1, col0)
            for j, ch in enumerate(body):
                if not (ch.isalnum() or ch == "."):
                    raise src.error(f"unexpected '{ch}': expected a letter, a digit or '.'", k + 1, col0 + j)
                tokens.append(None if ch == "." else ch)
                places.append((k + 1, col0 + j))
        return self._make(h, w, tokens, lambda i, msg: src.error(msg, *places[i]), False,
                          Meta(origin=src.origin))

    # --- writers -----------------------------------------------------------------------
    def to_puzzlink(self, puzzle: NumberlinkPuzzle) -> str:
        """Number16 of the labels: `numlin`, or `arukone` when the lines must cover every cell.
        puzz.link holds numbers only, so every label must be a number written plainly."""
        with self.writing(puzzle, PUZZLINK):
            for name in puzzle.names:
                if not (name.isdecimal() and str(int(name)) == name):
                    raise CannotWrite(f"label '{name}' is not a number; puzz.link holds numbers only")
            values = [puzzlink.NO_VALUE if k == 0 else int(puzzle.names[k - 1]) for k in puzzle.labels]
            pid = "arukone" if puzzle.cover else "numlin"
            return puzzlink.url_of(pid, puzzle.cols, puzzle.rows, puzzlink.encode_number16(values))

    # --- rendering ---------------------------------------------------------------------
    def render_text(self, puzzle: NumberlinkPuzzle, state: State | None = None) -> str:
        return text.grid(self._rows(puzzle, state))

    def render_board(self, puzzle: NumberlinkPuzzle, state: State | None = None) -> str:
        """The labels, the lines as strokes through cell centres (a side one cell is sure of),
        cells no line uses × (blank when solved), undecided cells with no stroke yet ·."""
        ch = chains(puzzle, state) if state is not None else None
        complete = state is not None and state.complete

        def edge(i: int, d: str) -> str:
            if ch is None:
                return board.OPEN_EDGE
            side = E if d == "e" else S
            j = puzzle.neighbour[i][side]
            if ch.must[i] & side or ch.must[j] & OPPOSITE[side]:
                return board.LINE
            return board.OPEN_EDGE      # (sides no line takes are many: not crossed, to stay readable)

        def centre(i: int, arms: int) -> str | None:
            if puzzle.labels[i]:
                return puzzle.name(puzzle.labels[i])
            if state is not None and state.cands[i] == 0:
                return board.BROKEN
            if state is not None and state.cands[i] == B_EMPTY:
                return " " if complete else board.EMPTY
            return None
        return board.centre_lines(puzzle.rows, puzzle.cols, edge, centre, lambda i: None, complete)

    def render_svg(self, puzzle: NumberlinkPuzzle, state: State | None = None,
                   highlights: Sequence[tuple[str, Sequence[int | Cell]]] = ()) -> str:
        canvas = svg.Canvas(puzzle.rows, puzzle.cols)
        palette = ("#e53935", "#1e88e5", "#43a047", "#fdd835", "#8e24aa", "#fb8c00", "#00acc1",
                   "#6d4c41", "#d81b60", "#3949ab", "#7cb342", "#546e7a")
        if state is not None:
            ch = chains(puzzle, state)
            for i, m in enumerate(state.cands):
                lab = ch.label(i)
                colour = palette[(lab - 1) % len(palette)] if lab else "#555"
                x, y = canvas.centre(puzzle.cell(i))
                for d in SIDES:
                    if ch.must[i] & d and d in puzzle.neighbour[i]:
                        dr, dc = STEP[d]
                        canvas.line(x, y, x + dc * canvas.cell / 2, y + dr * canvas.cell / 2, colour, 5)
                if m == B_EMPTY:
                    canvas.cross(puzzle.cell(i))
        for i, lab in enumerate(puzzle.labels):
            if lab:
                colour = palette[(lab - 1) % len(palette)]
                canvas.circle(puzzle.cell(i), 0.36, "#fff", colour)
                canvas.text(puzzle.cell(i), puzzle.name(lab), size=0.45)
        for role, items in highlights:
            canvas.highlight([it if isinstance(it, Cell) else puzzle.cell(it) for it in items], role)
        return canvas.to_svg()

    # --- exact solver ------------------------------------------------------------------
    def asp_facts(self, puzzle: NumberlinkPuzzle) -> str:
        out = [f"cell({r},{c})." for r in range(puzzle.rows) for c in range(puzzle.cols)]
        out += [f"end({i // puzzle.cols},{i % puzzle.cols},{lab})." for i, lab in enumerate(puzzle.labels) if lab]
        if puzzle.cover:
            out.append("cover.")
        return "\n".join(out)

    def state_from_model(self, puzzle: NumberlinkPuzzle, atoms: Sequence[Any]) -> State:
        sides = [0] * (puzzle.rows * puzzle.cols)
        names = {"n": N, "e": E, "s": S, "w": W}
        for a in atoms:
            if a.name == "link":
                r, c, d = a.arguments
                sides[r.number * puzzle.cols + c.number] |= names[d.name]
        return State(tuple(1 << VALUE_OF_SIDES[m] if m else B_EMPTY for m in sides))

    def answer_json(self, puzzle: NumberlinkPuzzle, state: State) -> Any:
        ch = chains(puzzle, state)
        paths = {}
        for lab, (a, b) in puzzle.pairs.items():
            path, prev, x = [a], None, a
            while x != b and len(path) <= len(state.cands):
                nxt = [j for d, j in puzzle.neighbour[x].items() if ch.must[x] & d and j != prev]
                if not nxt:
                    break
                prev, x = x, nxt[0]
                path.append(x)
            paths[puzzle.name(lab)] = [str(puzzle.cell(i)) for i in path]
        return {"paths": paths}


GENRE = register(Numberlink())
