"""Hitori (Simon Tatham's Singles): shade cells so that no number repeats among the unshaded
cells of a row or column, no two shaded cells touch, and the unshaded cells form one area.

Variables: every cell, values WHITE (unshaded) / BLACK (shaded). Var = r * cols + c.
Grid syntax: one number per cell (0 or `.` for a cell without a number). In solutions and
player marks `#` is a shaded cell; in marks `+` or `o` is a cell marked unshaded and a number
or `.` is undecided; in solutions a number or `.` is unshaded.
"""
from __future__ import annotations

import functools
from typing import Any, Sequence

import attrs

from grader.kernels import connectivity as cn

from grader.core.errors import Source
from grader.io import puzzlink, tatham
from grader.core.genre import PUZZLINK, TATHAM, CannotWrite
from grader.io.janko import meta as janko_meta, problem as janko_problem
from grader.io.native import Grid, NativeSource, bad_token
from grader.core.model import Cell, Meta, State, Violation
from grader.io import svg, text
from grader.genres import register
from grader.io import board
from grader.io.marked_cells import MarkedCellsGenre, mark_tok
from grader.kernels.grid import GridPuzzle
from grader.genres.hitori import ALIASES, JANKO_NAMES, PUZZLINK_PIDS

WHITE, BLACK = 0, 1
B_WHITE, B_BLACK = 1 << WHITE, 1 << BLACK
FREE = B_WHITE | B_BLACK
NO_NUMBER = 0
TATHAM_DIGITS = "123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


@attrs.frozen(kw_only=True, slots=False)
class HitoriPuzzle(GridPuzzle):
    numbers: tuple[int, ...]     # row-major; NO_NUMBER for a cell without a number

    @functools.cached_property
    def lines(self) -> tuple[tuple[int, ...], ...]:
        """Every row, then every column."""
        c = self.cols
        return (tuple(tuple(range(r * c, r * c + c)) for r in range(self.rows))
                + tuple(tuple(range(k, self.rows * c, c)) for k in range(c)))

    @functools.cached_property
    def runs(self) -> tuple[tuple[int, int, int], ...]:
        """Every three consecutive cells of a row or column."""
        return tuple((line[k], line[k + 1], line[k + 2]) for line in self.lines for k in range(len(line) - 2))

    @functools.cached_property
    def equal_ends(self) -> tuple[tuple[tuple[int, int, int], ...], tuple[tuple[int, int, int], ...]]:
        """The runs whose ends hold the same number and whose middle does too (triples), and
        all runs whose ends hold the same number (sandwiches), in the order of `runs`."""
        nums = self.numbers
        ends = tuple((a, b, c) for a, b, c in self.runs if nums[a] != NO_NUMBER and nums[a] == nums[c])
        return tuple(t for t in ends if nums[t[1]] == nums[t[0]]), ends

    @functools.cached_property
    def twins(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the other cells of its row and column holding the same number."""
        out: list[set[int]] = [set() for _ in self.numbers]
        for line in self.lines:
            for a in line:
                for b in line:
                    if a != b and self.numbers[a] != NO_NUMBER and self.numbers[a] == self.numbers[b]:
                        out[a].add(b)
        return tuple(tuple(sorted(s)) for s in out)

    @functools.cached_property
    def duplicates(self) -> tuple[tuple[int, ...], ...]:
        """Per line, the groups of two or more cells that share a number."""
        groups = []
        for line in self.lines:
            by: dict[int, list[int]] = {}
            for i in line:
                if self.numbers[i] != NO_NUMBER:
                    by.setdefault(self.numbers[i], []).append(i)
            groups.extend(tuple(g) for g in by.values() if len(g) > 1)
        return tuple(groups)


class Hitori(MarkedCellsGenre):
    name = "hitori"
    title = "Hitori (Singles)"
    aliases = ALIASES
    puzzle_type = HitoriPuzzle
    value_phrases = (("is unshaded", "is shaded"), ("is shaded", "is unshaded"))
    puzzlink_pids = PUZZLINK_PIDS
    janko_names = JANKO_NAMES
    has_tatham = True
    MARKED, UNMARKED, marked_atom, marked_key = BLACK, WHITE, "black", "shaded"

    # --- rules -------------------------------------------------------------------------

    def violations(self, puzzle: HitoriPuzzle, state: State) -> list[Violation]:
        cands, g = state.cands, puzzle.graph
        out = cn.adjacent_shaded(g, cands, B_BLACK)
        for group in puzzle.duplicates:
            white = [i for i in group if cands[i] == B_WHITE]
            if len(white) > 1:
                out.append(Violation(f"the {puzzle.numbers[white[0]]}s at {g.cell(white[0])} and "
                                     f"{g.cell(white[1])} are both unshaded", tuple(g.cells(white[:2]))))
        out += cn.disconnected(cn.side(g, state, B_WHITE), "the unshaded cells")
        return out

    # --- formats -----------------------------------------------------------------------
    def _numbers(self, grid: Grid, src: Source) -> tuple[int, ...]:
        out = []
        for _, _, tok in grid.cells():
            if tok.text == ".":
                out.append(NO_NUMBER)
            elif tok.text.isdecimal():
                out.append(int(tok.text))
            else:
                raise bad_token(src, tok, "a number in every cell (or '.' for a cell without one)")
        return tuple(out)

    def read_grid(self, puzzle: HitoriPuzzle, grid: Grid, src: Source, marks: bool) -> State:
        cands = []
        for r, c, tok in grid.cells():
            t = tok.text
            i = r * puzzle.cols + c
            if t in ("#", "x", "X"):
                cands.append(B_BLACK)
            elif t in ("+", "o", "O"):
                cands.append(B_WHITE)
            elif t == "." or t == str(puzzle.numbers[i]):
                cands.append(FREE if marks else B_WHITE)
            else:
                raise bad_token(src, tok, f"'#' for a shaded cell, '+' for an unshaded one or "
                                          f"the cell's number {puzzle.numbers[i]}")
        return State(tuple(cands))

    def from_native(self, doc: dict[str, Any], src: NativeSource) -> HitoriPuzzle:
        grid = src.grid("grid")
        puzzle = HitoriPuzzle(rows=grid.height, cols=grid.width, numbers=self._numbers(grid, src),
                              meta=src.meta())
        return self.with_native_solution(puzzle, grid, src)

    def glyph(self, puzzle: HitoriPuzzle, i: int, state: State | None, solution: bool = False) -> str:
        n = puzzle.numbers[i]
        number = str(n) if n != NO_NUMBER else "."
        if state is None:
            return number
        m = state.cands[i]
        if m == B_BLACK:
            return "#"
        if m == B_WHITE and not solution:
            return "+" if n == NO_NUMBER else number
        return {0: "!"}.get(m, number if solution else ".")

    def board_tok(self, puzzle: HitoriPuzzle, i: int, state: State | None, complete: bool) -> board.Tok:
        """Every number; shaded █5█, marked unshaded (5) while the board is unfinished."""
        n = puzzle.numbers[i]
        m = None if state is None else state.cands[i]
        if n == NO_NUMBER:
            return mark_tok(m, B_BLACK, B_WHITE, complete)
        if m == B_WHITE and not complete:
            return board.Tok(str(n), wrap="()")
        return board.Tok(board.BROKEN if m == 0 else str(n), board.SHADE if m == B_BLACK else " ")

    def from_janko(self, data: dict[str, Any], src: Source) -> HitoriPuzzle:
        rows, cols, problem = janko_problem(data, src)
        numbers = []
        for r, row in enumerate(problem):
            for c, t in enumerate(row):
                digits = t.strip().removesuffix('">')    # records 763-786 end rows with '">'
                if not digits.isdecimal():
                    raise src.error(f"'{t}' at {Cell(r, c)} in 'problem' is not a number", part="problem")
                numbers.append(int(digits))
        return HitoriPuzzle(rows=rows, cols=cols, numbers=tuple(numbers),
                            solution=self.janko_solution(data, src, rows, cols), meta=janko_meta(data, src))

    def from_puzzlink(self, url: puzzlink.PuzzLink) -> HitoriPuzzle:
        n = url.rows * url.cols
        numbers: list[int] = []
        body, pos = url.body, 0
        while len(numbers) < n and pos < len(body):
            ch = body[pos]
            if ch == "-":
                digits = body[pos + 1:pos + 3]
                if len(digits) < 2 or not digits.isalnum():
                    raise url.error(f"bad number '-{digits}' at character {pos + 1}")
                numbers.append(int(digits, 36))
                pos += 3
                continue
            if ch in "%@.":
                numbers.append(NO_NUMBER)
            elif ch.isdecimal() or "a" <= ch <= "z":
                numbers.append(int(ch, 36))
            else:
                raise url.error(f"unexpected '{ch}' at character {pos + 1}")
            pos += 1
        if len(numbers) < n:
            raise url.error(f"the body covers {len(numbers)} cells, {url.cols}x{url.rows} needs {n}")
        puzzlink.expect_end(url, pos, n, n)
        return HitoriPuzzle(rows=url.rows, cols=url.cols, numbers=tuple(numbers), meta=url.meta)

    def from_tatham(self, params: str, desc: str, src: Source) -> HitoriPuzzle:
        w, h, rest = tatham.parse_size(params, src, maximum=62)
        label = {"de": "easy", "dk": "tricky"}.get(rest[:2]) if rest.startswith("d") else None
        if rest.startswith("d") and label is None:
            raise src.error(f"unknown difficulty '{rest}': expected de (easy) or dk (tricky)",
                            part="params")
        top = max(w, h)
        numbers = []
        for k, ch in enumerate(desc):
            v = TATHAM_DIGITS.find(ch) + 1
            if v == 0 or v > top:
                raise src.error(f"'{ch}' at character {k + 1} is not a number from 1 to {top}",
                                part="description")
            numbers.append(v)
        if len(numbers) != w * h:
            raise src.error(f"the description covers {len(numbers)} cells, {w}x{h} needs {w * h}",
                            part="description")
        return HitoriPuzzle(rows=h, cols=w, numbers=tuple(numbers),
                            meta=Meta(origin=src.origin, source="Simon Tatham's Singles", label=label))

    # --- writers -----------------------------------------------------------------------
    def to_puzzlink(self, puzzle: HitoriPuzzle) -> str:
        """One base-36 token a cell; a cell without a number is '.'."""
        with self.writing(puzzle, PUZZLINK):
            values = [puzzlink.NO_VALUE if n == NO_NUMBER else n for n in puzzle.numbers]
            return puzzlink.url_of(self.puzzlink_pids[0], puzzle.cols, puzzle.rows,
                                   puzzlink.encode_base36_cells(values))

    def to_tatham(self, puzzle: HitoriPuzzle) -> str:
        """Singles: one character a cell, every cell numbered 1 to max(W, H)."""
        with self.writing(puzzle, TATHAM):
            params = tatham.size_params(puzzle.cols, puzzle.rows, "Singles", minimum=2, maximum=62)
            top = max(puzzle.rows, puzzle.cols)
            for i, n in enumerate(puzzle.numbers):
                if not 1 <= n <= top:
                    what = "has no number" if n == NO_NUMBER else f"holds {n}"
                    raise CannotWrite(f"{puzzle.cell(i)} {what}: Singles numbers every cell from 1 to {top}")
            return tatham.game_id(params, "".join(TATHAM_DIGITS[n - 1] for n in puzzle.numbers))

    # --- rendering ---------------------------------------------------------------------
    def answer_text(self, puzzle: HitoriPuzzle, state: State) -> str:
        return text.grid(self.glyph_rows(puzzle, state, solution=True))

    def render_svg(self, puzzle: HitoriPuzzle, state: State | None = None,
                   highlights: Sequence[tuple[str, Sequence[int | Cell]]] = ()) -> str:
        canvas = svg.Canvas(puzzle.rows, puzzle.cols)
        for i, n in enumerate(puzzle.numbers):
            cell = puzzle.cell(i)
            m = state.cands[i] if state is not None else FREE
            if m == B_BLACK:
                canvas.fill(cell, "#222")
            elif m == B_WHITE:
                canvas.circle(cell, 0.4, "none", "#4a8")
            if n != NO_NUMBER:
                canvas.text(cell, str(n), "#fff" if m == B_BLACK else "#000")
        for role, items in highlights:
            canvas.highlight([i if isinstance(i, Cell) else puzzle.cell(i) for i in items], role)
        return canvas.to_svg()

    # --- exact solver ------------------------------------------------------------------
    def asp_facts(self, puzzle: HitoriPuzzle) -> str:
        out = [f"size({puzzle.rows},{puzzle.cols})."]
        for i, n in enumerate(puzzle.numbers):
            r, c = divmod(i, puzzle.cols)
            out.append(f"cell({r},{c},{n}).")
        return "\n".join(out)


GENRE = register(Hitori())
