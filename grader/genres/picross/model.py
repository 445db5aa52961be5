"""Picross (nonograms): fill cells so that each row and column shows its clue, the lengths of
its blocks of filled cells in order, with at least one empty cell between blocks.

Variables: every cell, values EMPTY / FILLED. Var = r * cols + c. Lines are numbered rows first
(0..rows-1), then columns.
Native file: `rows:` and `columns:` (one clue per line, numbers separated by spaces or commas,
`0` or `-` for a line with no block; or a YAML list of clues such as `[[3, 1], []]`) and an optional `solution:` (or `goal:`) grid, `#` filled
and `.` empty. Player marks: `#` filled, `+` (or `x`, `-`) empty, `.` unknown.
"""
from __future__ import annotations

import functools
import re
from typing import Any, Sequence

import attrs

from grader.core.errors import Source
from grader.io import puzzlink, tatham
from grader.core.genre import PUZZLINK, TATHAM, CannotWrite
from grader.io.janko import field as janko_field, grid as janko_grid, meta as janko_meta, size as janko_size
from grader.io.limits import MAX_SIDE
from grader.io.native import NativeSource, bad_token, parse_grid_text
from grader.core.model import Cell, Meta, Puzzle, State, Violation
from grader.io import board, svg, text
from grader.genres import register
from grader.core.genre import Genre
from grader.kernels.lines import Line, minimum_length, runs, solve_line
from grader.genres.picross import ALIASES, JANKO_NAMES, PUZZLINK_PIDS

EMPTY, FILLED = 0, 1
B_EMPTY, B_FILLED = 1 << EMPTY, 1 << FILLED
FREE = B_EMPTY | B_FILLED

Clue = tuple[int, ...]


@attrs.frozen(kw_only=True, slots=False)
class PicrossPuzzle(Puzzle):
    rows: int
    cols: int
    row_clues: tuple[Clue, ...]
    col_clues: tuple[Clue, ...]
    givens: tuple[tuple[int, int], ...] = ()     # (cell, value) preset by the source

    def cell(self, i: int) -> Cell:
        return Cell(*divmod(i, self.cols))

    @functools.cached_property
    def lines(self) -> tuple[tuple[int, ...], ...]:
        """The cells of every line: rows top to bottom, then columns left to right."""
        rows = tuple(tuple(range(r * self.cols, (r + 1) * self.cols)) for r in range(self.rows))
        cols = tuple(tuple(range(c, self.rows * self.cols, self.cols)) for c in range(self.cols))
        return rows + cols

    @functools.cached_property
    def clues(self) -> tuple[Clue, ...]:
        return self.row_clues + self.col_clues

    @functools.cached_property
    def lines_of(self) -> tuple[tuple[int, int], ...]:
        """The row line and the column line through each cell."""
        return tuple((i // self.cols, self.rows + i % self.cols) for i in range(self.rows * self.cols))

    def line_name(self, line: int) -> str:
        return f"row {line + 1}" if line < self.rows else f"column {line - self.rows + 1}"

    def clue_text(self, line: int) -> str:
        return " ".join(map(str, self.clues[line])) or "0"

    @functools.cached_property
    def last_line_views(self) -> dict[int, Line]:
        """The last line solver view made of each line (see line_solver): a cache only."""
        return {}

    def lines_through(self, cells) -> list[int]:
        """The lines that hold any of `cells`, in order."""
        return sorted({line for i in cells for line in self.lines_of[i]})


def line_cands(puzzle: PicrossPuzzle, state: State, line: int) -> tuple[int, ...]:
    """The candidates of one line's cells, in order (tuple slices: this runs very often)."""
    if line < puzzle.rows:
        return state.cands[line * puzzle.cols:(line + 1) * puzzle.cols]
    return state.cands[line - puzzle.rows::puzzle.cols]


def line_solver(puzzle: PicrossPuzzle, state: State, line: int) -> Line:
    """The line solver's view of one line, computed once per state. The line's last view
    answers while the line has the same solutions (Line.same_solutions): a deduction leaves
    its own line so, and often the lines it crosses."""
    def compute() -> Line:
        now = line_cands(puzzle, state, line)
        last = puzzle.last_line_views.get(line)
        if last is None or not last.same_solutions(now):
            last = puzzle.last_line_views[line] = solve_line(now, puzzle.clues[line])
        return last
    return state.derived(("picross.line", line), compute)


def check_clues(rows: int, cols: int, row_clues: Sequence[Clue], col_clues: Sequence[Clue],
                src: Source, where: Sequence[tuple[int | None, int | None]] | None = None,
                part: str | None = None) -> None:
    """Every clue fits its line and both sides fill the same number of cells.
    `where` gives (line, column) in the file for each clue, rows then columns."""
    for k, clue in enumerate(tuple(row_clues) + tuple(col_clues)):
        is_row = k < rows
        length = cols if is_row else rows
        name = f"row {k + 1}" if is_row else f"column {k - rows + 1}"
        line, col = where[k] if where else (None, None)
        if any(b <= 0 for b in clue):
            raise src.error(f"{name}: block lengths must be positive", line, col, part=part)
        if minimum_length(clue) > length:
            raise src.error(f"{name}: the clue {' '.join(map(str, clue))} needs "
                            f"{minimum_length(clue)} cells but the line has {length}", line, col, part=part)
    total_r, total_c = sum(map(sum, row_clues)), sum(map(sum, col_clues))
    if total_r != total_c:
        line, col = where[0] if where else (None, None)
        raise src.error(f"the row clues fill {total_r} cells but the column clues fill {total_c}",
                        line, col, part=part)


def clues_of(rows: int, cols: int, filled: frozenset[int]) -> tuple[tuple[Clue, ...], tuple[Clue, ...]]:
    row_clues = tuple(tuple(runs([r * cols + c in filled for c in range(cols)])) for r in range(rows))
    col_clues = tuple(tuple(runs([r * cols + c in filled for r in range(rows)])) for c in range(cols))
    return row_clues, col_clues


def parse_clue(token_text: str) -> Clue | None:
    """'3 1 2', '3,1,2', '0' or '-' -> a clue; None when it is not one."""
    parts = [p for p in re.split(r"[\s,]+", token_text.strip()) if p]
    if parts in ([], ["0"], ["-"]):
        return ()
    if not all(p.isdecimal() and len(p) <= 6 for p in parts):
        return None
    return tuple(int(p) for p in parts)


class Picross(Genre):
    name = "picross"
    title = "Picross (nonograms)"
    aliases = ALIASES
    puzzle_type = PicrossPuzzle
    value_phrases = (("is empty", "is not empty"), ("is filled", "is not filled"))
    blank = 0                           # empty
    puzzlink_pids = PUZZLINK_PIDS
    janko_names = JANKO_NAMES
    has_tatham = True
    file_suffixes = (".non",)

    # --- variables and rules -----------------------------------------------------------
    def initial_state(self, puzzle: PicrossPuzzle) -> State:
        cands = [FREE] * (puzzle.rows * puzzle.cols)
        for i, v in puzzle.givens:
            cands[i] = 1 << v
        return State(tuple(cands))

    def violations(self, puzzle: PicrossPuzzle, state: State) -> list[Violation]:
        out = []
        for line, cells in enumerate(puzzle.lines):
            if line_solver(puzzle, state, line).allowed() is None:
                out.append(Violation(f"{puzzle.line_name(line)} can no longer show its clue "
                                     f"{puzzle.clue_text(line)}", (puzzle.cell(cells[0]),), cells))
        return out

    def solution_state(self, puzzle: PicrossPuzzle) -> State | None:
        if puzzle.solution is None:
            return None
        return State(tuple(B_FILLED if i in puzzle.solution else B_EMPTY
                           for i in range(puzzle.rows * puzzle.cols)))

    def solution_from_state(self, puzzle: PicrossPuzzle, state: State) -> frozenset[int]:
        return frozenset(i for i, m in enumerate(state.cands) if m == B_FILLED)

    # --- formats -----------------------------------------------------------------------
    def _native_clues(self, src: NativeSource, keys: Sequence[str]) -> tuple[list[Clue], list[tuple[int, int]]]:
        """The clues under the first of `keys`, one per line, with where each one starts."""
        import yaml
        key = next((k for k in keys if k in src.doc), None)
        if key is None:
            raise src.error(f"missing key '{keys[0]}'", 1)
        node = next(v for k, v in src.node.value if k.value == key)
        items: list[tuple[str, int, int]] = []
        if isinstance(node, yaml.SequenceNode):
            for item in node.value:
                if isinstance(item, yaml.SequenceNode) and all(isinstance(x, yaml.ScalarNode) for x in item.value):
                    raw = " ".join(str(x.value) for x in item.value)       # [3, 1, 2]
                elif isinstance(item, yaml.ScalarNode):
                    raw = str(item.value)                                   # '3 1 2'
                else:
                    raise src.error(f"each entry of '{key}' must be one clue such as '3 1 2'",
                                    item.start_mark.line + 1, item.start_mark.column + 1)
                items.append((raw, item.start_mark.line + 1, item.start_mark.column + 1))
        elif isinstance(node, yaml.ScalarNode) and node.style in ("|", ">"):
            first = node.start_mark.line + 2
            lines = str(node.value).rstrip("\n").split("\n")
            file_lines = src.text.splitlines()
            for k, raw in enumerate(lines):
                here = file_lines[first + k - 1] if first + k - 1 < len(file_lines) else ""
                items.append((raw, first + k, 1 + len(here) - len(here.lstrip())))
        else:
            raise src.error(f"'{key}' must be a block of lines or a list, one clue per line",
                            node.start_mark.line + 1, node.start_mark.column + 1)
        clues, where = [], []
        for raw, line, col in items:
            clue = parse_clue(raw)
            if clue is None:
                raise src.error(f"'{raw.strip()}' in '{key}' is not a clue: expected block lengths "
                                "such as '3 1 2', or 0 for an empty line", line, col)
            clues.append(clue)
            where.append((line, col))
        return clues, where

    def _cells_from_grid(self, puzzle: PicrossPuzzle, grid, src: Source, marks: bool) -> State:
        if (grid.height, grid.width) != (puzzle.rows, puzzle.cols):
            t = grid.rows[0][0]
            raise src.error(f"{grid.key} is {grid.height}x{grid.width} but the clues make "
                            f"{puzzle.rows}x{puzzle.cols} (rows x columns)", t.line, t.col)
        cands = list(self.initial_state(puzzle).cands)
        for r, c, tok in grid.cells():
            i = r * puzzle.cols + c
            t = tok.text
            if t in ("#", "1", "*", "X", "■"):
                cands[i] = B_FILLED
            elif t in ("+", "x", "-", "0") or (t == "." and not marks):
                cands[i] = B_EMPTY
            elif t != ".":
                raise bad_token(src, tok, "'#' for a filled cell, '+' for an empty one or '.'")
        return State(tuple(cands))

    def from_native(self, doc: dict[str, Any], src: NativeSource) -> PicrossPuzzle:
        row_clues, row_where = self._native_clues(src, ("rows",))
        col_clues, col_where = self._native_clues(src, ("columns", "cols"))
        rows, cols = len(row_clues), len(col_clues)
        for count, where, what in ((rows, row_where, "rows"), (cols, col_where, "columns")):
            if count > MAX_SIDE:
                raise src.error(f"{count} {what}: the largest board read is {MAX_SIDE}x{MAX_SIDE}",
                                *where[MAX_SIDE])
        check_clues(rows, cols, row_clues, col_clues, src, row_where + col_where)
        puzzle = PicrossPuzzle(rows=rows, cols=cols, row_clues=tuple(row_clues),
                               col_clues=tuple(col_clues), meta=src.meta())
        key = "solution" if "solution" in doc else "goal" if "goal" in doc else None
        if key:
            state = self._cells_from_grid(puzzle, src.grid(key), src, marks=False)
            filled = self.solution_from_state(puzzle, state)
            if clues_of(rows, cols, filled) != (puzzle.row_clues, puzzle.col_clues):
                raise src.error(f"the {key} does not show the clues", src.key_line(key))
            puzzle = attrs.evolve(puzzle, solution=filled)
        return puzzle

    def to_native(self, puzzle: PicrossPuzzle) -> dict[str, Any]:
        from grader.io.native import meta_to_native
        doc: dict[str, Any] = {"genre": self.name, **meta_to_native(puzzle.meta),
                               "rows": "\n".join(puzzle.clue_text(k) for k in range(puzzle.rows)) + "\n",
                               "columns": "\n".join(puzzle.clue_text(puzzle.rows + k)
                                                    for k in range(puzzle.cols)) + "\n"}
        sol = self.solution_state(puzzle)
        if sol is not None:
            doc["solution"] = self.render_text(puzzle, sol).replace("+", ".") + "\n"
        return doc

    def parse_marks(self, puzzle: PicrossPuzzle, text_: str, src: Source) -> State:
        return self._cells_from_grid(puzzle, parse_grid_text(text_, src, "marks"), src, marks=True)

    def from_janko(self, data: dict[str, Any], src: Source) -> PicrossPuzzle:
        rows, cols = janko_size(data, src)
        solution = janko_grid(data, "solution", src, (rows, cols))
        filled = None
        if solution is not None:
            bad = {t for row in solution for t in row} - {"x", "-", "."}
            if bad:
                raise src.error(f"unexpected '{sorted(bad)[0]}' in 'solution': expected x or -",
                                part="solution")
            filled = frozenset(r * cols + c for r, row in enumerate(solution)
                               for c, t in enumerate(row) if t == "x")
        labels = janko_field(data, "rlabels"), janko_field(data, "clabels")
        if labels[0] is not None and labels[1] is not None:
            clue_sets = []
            for key, want, lab in (("rlabels", rows, labels[0]), ("clabels", cols, labels[1])):
                if not isinstance(lab, list) or len(lab) != want:
                    raise src.error(f"'{key}' should list {want} clues", part=key)
                clues = []
                for k, entry in enumerate(lab):
                    clue = parse_clue(" ".join(map(str, entry)) if isinstance(entry, list) else str(entry))
                    if clue is None:
                        raise src.error(f"entry {k + 1} of '{key}' is not a clue", part=key)
                    clues.append(clue)
                clue_sets.append(tuple(clues))
            row_clues, col_clues = clue_sets
        elif filled is not None:
            row_clues, col_clues = clues_of(rows, cols, filled)
        else:
            raise src.error("record has neither a 'solution' nor 'rlabels' and 'clabels'")
        check_clues(rows, cols, row_clues, col_clues, src, part="clues")
        return PicrossPuzzle(rows=rows, cols=cols, row_clues=tuple(row_clues), col_clues=tuple(col_clues),
                             solution=filled, meta=janko_meta(data, src))

    def from_puzzlink(self, url: puzzlink.PuzzLink) -> PicrossPuzzle:
        rows, cols = url.rows, url.cols
        col_slots, row_slots = (rows + 1) // 2, (cols + 1) // 2
        total = cols * col_slots + rows * row_slots
        slots: list[int | None] = [None] * total
        i = pos = 0
        body = url.body
        while i < total and pos < len(body):
            ch = body[pos]
            if ch in "0123456789abcdef":
                slots[i] = int(ch, 16); i += 1; pos += 1
            elif ch == "-":
                digits = body[pos + 1:pos + 3]
                try:
                    slots[i] = int(digits, 16)
                except ValueError:
                    raise url.error(f"bad number '-{digits}' at character {pos + 1}") from None
                i += 1; pos += 3
            elif ch == ".":
                raise url.error(f"a '?' clue at character {pos + 1}: unknown clues are not supported")
            elif "g" <= ch <= "z":
                i += ord(ch) - ord("f"); pos += 1
            else:
                raise url.error(f"unexpected '{ch}' at character {pos + 1}")
        puzzlink.expect_end(url, pos, i, total, "clue slots")

        def clue_at(start: int, count: int) -> Clue:
            return tuple(v for v in reversed(slots[start:start + count]) if v is not None and v > 0)
        col_clues = tuple(clue_at(c * col_slots, col_slots) for c in range(cols))
        base = cols * col_slots
        row_clues = tuple(clue_at(base + r * row_slots, row_slots) for r in range(rows))
        check_clues(rows, cols, row_clues, col_clues, url.src, part="body")
        return PicrossPuzzle(rows=rows, cols=cols, row_clues=row_clues, col_clues=col_clues, meta=url.meta)

    def from_tatham(self, params: str, desc: str, src: Source) -> PicrossPuzzle:
        w, h, _ = tatham.parse_size(params, src)
        desc, _, preset = desc.partition(",")
        sections = desc.split("/")
        if len(sections) != w + h:
            raise src.error(f"the description has {len(sections)} sections, {w}x{h} needs {w + h} "
                            f"({w} columns then {h} rows)", part="description")
        clues = []
        for k, sec in enumerate(sections):
            parts = sec.split(".") if sec else []
            if not all(p.isdecimal() and len(p) <= 6 for p in parts):
                raise src.error(f"section {k + 1} '{sec}' is not a list of block lengths",
                                part="description")
            clues.append(tuple(int(p) for p in parts if int(p) > 0))
        col_clues, row_clues = tuple(clues[:w]), tuple(clues[w:])
        check_clues(h, w, row_clues, col_clues, src, part="description")
        givens, i = [], 0
        for k, ch in enumerate(preset):
            if not ch.isalpha():
                raise src.error(f"unexpected '{ch}' in the preset cells", part="description")
            i += ord(ch.lower()) - ord("a")
            if ch.lower() == "z":
                continue
            if i == w * h and k == len(preset) - 1:
                break       # a last letter whose run reaches the end of the grid fixes no cell
            if i >= w * h:
                raise src.error("the preset cells run past the grid", part="description")
            givens.append((i, FILLED if ch.isupper() else EMPTY))
            i += 1
        return PicrossPuzzle(rows=h, cols=w, row_clues=row_clues, col_clues=col_clues,
                             givens=tuple(givens),
                             meta=Meta(origin=src.origin, source="Simon Tatham's Pattern"))

    def sniff(self, text_: str) -> bool:
        return bool(re.search(r"^\s*(rows|columns)\s*$", text_, re.M))

    def from_text(self, text_: str, src: Source) -> PicrossPuzzle:
        """The `.non` format (nonogram-db FORMAT.md): keys, then `rows` and `columns` blocks
        of `height` and `width` lines; unknown lines are ignored."""
        lines = text_.splitlines()
        info: dict[str, str] = {}
        sizes: dict[str, int] = {}
        blocks: dict[str, list[Clue]] = {}
        block_where: dict[str, list[tuple[int, int]]] = {}     # (line, column) of each clue
        goal: tuple[str, int] | None = None
        colours: set[str] = set()         # colour letters after block lengths ("3b,1d")
        k = 0
        while k < len(lines):
            raw = lines[k].strip()
            word, _, rest = raw.partition(" ")
            rest = rest.strip()
            if word in ("width", "height"):
                if not rest.isdecimal() or not 1 <= int(rest[-7:]) <= MAX_SIDE or len(rest) > 7:
                    raise src.error(f"'{word}' needs a whole number from 1 to {MAX_SIDE}", k + 1)
                sizes[word] = int(rest)
            elif word in ("rows", "columns") and not rest:
                count = sizes.get("height" if word == "rows" else "width")
                if count is None:
                    raise src.error(f"'{word}' comes before 'width' and 'height'", k + 1)
                clues = []
                for n in range(count):
                    j = k + 1 + n
                    if j >= len(lines):
                        raise src.error(f"'{word}' needs {count} lines, the file ends after {n}", j)
                    tokens = [p.strip() for p in lines[j].strip().split(",") if p.strip()]
                    parts = [re.match(r"\d{1,6}(?!\d)", t) for t in tokens]
                    if any(m is None for m in parts):
                        raise src.error(f"'{lines[j].strip()}' is not a clue", j + 1, 1)
                    colours.update(t[m.end():m.end() + 1] for t, m in zip(tokens, parts) if t[m.end():])
                    clues.append(tuple(int(m.group()) for m in parts if int(m.group()) > 0))
                blocks[word] = clues
                block_where[word] = [(k + 2 + n, 1) for n in range(count)]
                k += count
            elif word == "goal":
                goal = (rest.strip('"'), k + 1)
            elif word in ("title", "by", "copyright", "catalogue", "license"):
                info[word] = rest.strip('"')
            k += 1
        if len(colours) > 1:
            raise src.error(f"a colour nonogram ({len(colours)} colours): only black-and-white "
                            "puzzles are supported", 1)
        for key in ("width", "height"):
            if key not in sizes:
                raise src.error(f"missing '{key}'", 1)
        for key in ("rows", "columns"):
            if key not in blocks:
                raise src.error(f"missing '{key}'", 1)
        w, h = sizes["width"], sizes["height"]
        check_clues(h, w, blocks["rows"], blocks["columns"], src,
                    block_where["rows"] + block_where["columns"])
        filled = None
        if goal is not None:
            g, line = goal
            if len(g) != w * h:
                raise src.error(f"the goal has {len(g)} cells, {w}x{h} needs {w * h}", line)
            filled = frozenset(i for i, ch in enumerate(g) if ch != "0")
            if clues_of(h, w, filled) != (tuple(blocks["rows"]), tuple(blocks["columns"])):
                raise src.error("the goal does not show the clues", line)
        meta = Meta(title=info.get("title"), author=info.get("by"), licence=info.get("license"),
                    source=info.get("catalogue"), origin=src.origin)
        return PicrossPuzzle(rows=h, cols=w, row_clues=tuple(blocks["rows"]),
                             col_clues=tuple(blocks["columns"]), solution=filled, meta=meta)

    # --- writers -----------------------------------------------------------------------
    def to_puzzlink(self, puzzle: PicrossPuzzle) -> str:
        """Clue slots (ExCell): ceil(rows/2) per column, then ceil(cols/2) per row, each line's
        clues stored from the grid outwards."""
        with self.writing(puzzle, PUZZLINK):
            if puzzle.givens:
                n = len(puzzle.givens)
                raise CannotWrite(f"it has {n} preset cell{'s' * (n != 1)}, which puzz.link nonograms cannot hold")
            slots: list[int] = []
            for clues, count in ((puzzle.col_clues, (puzzle.rows + 1) // 2),
                                 (puzzle.row_clues, (puzzle.cols + 1) // 2)):
                for clue in clues:
                    slots += list(reversed(clue)) + [puzzlink.NO_VALUE] * (count - len(clue))
            return puzzlink.url_of(self.puzzlink_pids[0], puzzle.cols, puzzle.rows, puzzlink.encode_number16(slots))

    def to_tatham(self, puzzle: PicrossPuzzle) -> str:
        """Pattern: the columns then the rows, `/` between lines and `.` between blocks; preset
        cells after a `,`."""
        with self.writing(puzzle, TATHAM):
            params = tatham.size_params(puzzle.cols, puzzle.rows, "Pattern")
            desc = "/".join(".".join(map(str, clue)) for clue in puzzle.col_clues + puzzle.row_clues)
            if puzzle.givens:
                desc += "," + _pattern_presets(puzzle.rows * puzzle.cols, dict(puzzle.givens))
            return tatham.game_id(params, desc)

    # --- rendering ---------------------------------------------------------------------
    def _glyph(self, state: State | None, i: int) -> str:
        if state is None:
            return "."
        return {B_FILLED: "#", B_EMPTY: "+", 0: "!"}.get(state.cands[i], ".")

    def render_text(self, puzzle: PicrossPuzzle, state: State | None = None) -> str:
        return text.grid([[self._glyph(state, r * puzzle.cols + c) for c in range(puzzle.cols)]
                          for r in range(puzzle.rows)])

    def render_board(self, puzzle: PicrossPuzzle, state: State | None = None) -> str:
        """Column clues stacked above the grid, row clues to its left, filled cells █, cells
        marked empty × (blank when solved), undecided ·."""
        if state is None:
            state = self.initial_state(puzzle)
        complete = state.complete
        w = max((len(str(n)) for clue in puzzle.col_clues for n in clue), default=1) + 1
        row_texts = [" ".join(map(str, clue or (0,))) for clue in puzzle.row_clues]
        left = max((len(t) for t in row_texts), default=1)
        top = max((len(clue) for clue in puzzle.col_clues), default=1) or 1
        pad = " " * (left + 1)
        lines = []
        for k in range(top):
            row = []
            for clue in puzzle.col_clues:
                nums = clue or (0,)
                j = k - (top - len(nums))
                row.append(str(nums[j]).rjust(w) if j >= 0 else " " * w)
            lines.append(pad + " " + "".join(row) + " ")
        lines.append(pad + "┌" + "─" * (w * puzzle.cols) + "┐")
        for r in range(puzzle.rows):
            cells = []
            for c in range(puzzle.cols):
                m = state.cands[r * puzzle.cols + c]
                if m == B_FILLED:
                    cells.append(board.SHADE * w)
                elif m == B_EMPTY:
                    cells.append(("" if complete else board.EMPTY).rjust(w))
                else:
                    cells.append((board.BROKEN if m == 0 else board.UNDECIDED).rjust(w))
            lines.append(row_texts[r].rjust(left) + " │" + "".join(cells) + "│")
        lines.append(pad + "└" + "─" * (w * puzzle.cols) + "┘")
        return "\n".join(lines)

    def render_svg(self, puzzle: PicrossPuzzle, state: State | None = None,
                   highlights: Sequence[tuple[str, Sequence[int | Cell]]] = ()) -> str:
        left = max((len(c) for c in puzzle.row_clues), default=0) or 1
        top = max((len(c) for c in puzzle.col_clues), default=0) or 1
        canvas = svg.Canvas(puzzle.rows + top, puzzle.cols + left)

        def at(cell: Cell) -> Cell:
            return Cell(cell.r + top, cell.c + left)
        for r, clue in enumerate(puzzle.row_clues):
            for k, n in enumerate(reversed(clue or (0,))):
                canvas.text(Cell(r + top, left - 1 - k), str(n), size=0.5)
        for c, clue in enumerate(puzzle.col_clues):
            for k, n in enumerate(reversed(clue or (0,))):
                canvas.text(Cell(top - 1 - k, c + left), str(n), size=0.5)
        for i in range(puzzle.rows * puzzle.cols):
            cell = at(puzzle.cell(i))
            if state is not None and state.cands[i] == B_FILLED:
                canvas.fill(cell, "#222")
            elif state is not None and state.cands[i] == B_EMPTY:
                canvas.dot(cell)
        for role, items in highlights:
            canvas.highlight([at(i if isinstance(i, Cell) else puzzle.cell(i)) for i in items], role)
        return canvas.to_svg()

    # --- exact solver ------------------------------------------------------------------
    def asp_facts(self, puzzle: PicrossPuzzle) -> str:
        out = [f"width({puzzle.cols}).", f"height({puzzle.rows})."]
        for kind, clues, length in (("rclue", puzzle.row_clues, puzzle.cols),
                                    ("cclue", puzzle.col_clues, puzzle.rows)):
            for line, clue in enumerate(clues):
                for k, n in enumerate(clue):
                    lo = minimum_length(clue[:k]) + (1 if k else 0)
                    hi = length - minimum_length(clue[k:])
                    out.append(f"{kind}({line},{k},{n},{lo},{hi}).")
        out += [f"given({i // puzzle.cols},{i % puzzle.cols},{v})." for i, v in puzzle.givens]
        return "\n".join(out)

    def state_from_model(self, puzzle: PicrossPuzzle, atoms: Sequence[Any]) -> State:
        filled = {a.arguments[0].number * puzzle.cols + a.arguments[1].number
                  for a in atoms if a.name == "filled"}
        return State(tuple(B_FILLED if i in filled else B_EMPTY for i in range(puzzle.rows * puzzle.cols)))

    def answer_json(self, puzzle: PicrossPuzzle, state: State) -> Any:
        return self.render_text(puzzle, state).replace("+", ".").splitlines()

    def answer_asp(self, puzzle: PicrossPuzzle, state: State) -> str:
        return "\n".join(f"filled({i // puzzle.cols},{i % puzzle.cols})."
                         for i, m in enumerate(state.cands) if m == B_FILLED)


def _pattern_presets(cells: int, givens: dict[int, int]) -> str:
    """Pattern's preset cells: a letter skips (letter - a) cells, then fixes one (upper case
    filled, lower case empty); `z` skips 25 and fixes none; a last run ends the grid."""
    out, run = [], 0
    for i in range(cells):
        if i not in givens:
            run += 1
            if run == 25:
                out.append("z")
                run = 0
            continue
        out.append(chr(run + (ord("A") if givens[i] == FILLED else ord("a"))))
        run = 0
    if run:
        out.append(chr(run + ord("a")))
    return "".join(out)


GENRE = register(Picross())
