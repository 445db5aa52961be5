"""Hashiwokakero (Bridges): join the islands with horizontal and vertical bridges so that each
island has as many bridge ends as its number, at most `max_bridges` (normally 2) join one
pair, bridges never cross, and all islands form one connected group. Simon Tatham's `L`
variant also forbids loops.

Variables: one per slot, a pair of islands that see each other across water; its values are
the number of bridges 0..max_bridges. Slots are numbered in row-major order of their first
island, the horizontal one first.
Grid syntax: `.` water, `1`-`8` (or up to 4 * max_bridges) an island; in solutions and marks
a water cell may show `-` / `=` (one / two horizontal bridges), `|` / `H` (vertical), and in
marks `x` for "no bridge here".
"""
from __future__ import annotations

import functools
import re
from typing import Any, Sequence

import attrs

from grader.core.errors import Source
from grader.io import puzzlink, tatham
from grader.core.genre import PUZZLINK, TATHAM, CannotWrite
from grader.io.janko import grid as janko_grid, meta as janko_meta, problem as janko_problem
from grader.io.native import Grid, NativeSource, bad_token, grid_text, meta_to_native
from grader.core.model import Cell, Meta, Puzzle, State, Violation
from grader.io import board, svg, text
from grader.genres import register
from grader.core.genre import Genre
from grader.io.grid_marks import GridMarks
from grader.kernels.recent import last_answer
from grader.kernels.union_find import UnionFind
from grader.genres.hashiwokakero import ALIASES, JANKO_NAMES, PUZZLINK_PIDS

WATER = 0                                  # board value of a water cell; islands hold their clue
H_GLYPHS = {1: "-", 2: "=", 3: "3", 4: "4"}     # bridges drawn across a water cell
V_GLYPHS = {1: "|", 2: "H", 3: "3", 4: "4"}
GLYPH_VALUE = {"-": (True, 1), "=": (True, 2), "|": (False, 1), "H": (False, 2), '"': (False, 2)}


@attrs.frozen
class Slot:
    """Two islands that see each other across `water` (cell indices between them)."""
    a: int            # island cell index (the top or left one)
    b: int
    water: tuple[int, ...]
    horizontal: bool


@attrs.frozen(kw_only=True, slots=False)
class HashiPuzzle(Puzzle):
    rows: int
    cols: int
    board: tuple[int, ...]        # WATER or the island's number, row-major
    max_bridges: int = 2
    no_loops: bool = False        # Tatham's `L`: the bridges must form a tree

    def cell(self, i: int) -> Cell:
        return self.cell_table[i]

    @functools.cached_property
    def cell_table(self) -> tuple[Cell, ...]:
        """The Cell of each board index (explanations name them at every step)."""
        return tuple(Cell(*divmod(i, self.cols)) for i in range(self.rows * self.cols))

    @functools.cached_property
    def islands(self) -> tuple[int, ...]:
        return tuple(i for i, b in enumerate(self.board) if b != WATER)

    @functools.cached_property
    def slots(self) -> tuple[Slot, ...]:
        out = []
        for i in self.islands:
            r, c = divmod(i, self.cols)
            for dr, dc, horizontal in ((0, 1, True), (1, 0, False)):
                water, r2, c2 = [], r + dr, c + dc
                while r2 < self.rows and c2 < self.cols and self.board[r2 * self.cols + c2] == WATER:
                    water.append(r2 * self.cols + c2)
                    r2, c2 = r2 + dr, c2 + dc
                if r2 < self.rows and c2 < self.cols:
                    out.append(Slot(i, r2 * self.cols + c2, tuple(water), horizontal))
        return tuple(out)

    @functools.cached_property
    def ends(self) -> tuple[tuple[int, int], ...]:
        """The two islands of each slot."""
        return tuple((slot.a, slot.b) for slot in self.slots)

    @functools.cached_property
    def slots_of(self) -> dict[int, tuple[int, ...]]:
        """Slots at each island."""
        out: dict[int, list[int]] = {i: [] for i in self.islands}
        for s, slot in enumerate(self.slots):
            out[slot.a].append(s)
            out[slot.b].append(s)
        return {i: tuple(v) for i, v in out.items()}

    @functools.cached_property
    def crossings(self) -> tuple[tuple[int, ...], ...]:
        """Slots whose bridges would cross each slot's bridges."""
        over: dict[int, list[int]] = {}
        for s, slot in enumerate(self.slots):
            for w in slot.water:
                over.setdefault(w, []).append(s)
        out: list[set[int]] = [set() for _ in self.slots]
        for ss in over.values():
            for s in ss:
                out[s].update(t for t in ss if t != s)
        return tuple(tuple(sorted(x)) for x in out)

    @functools.cached_property
    def slot_at(self) -> dict[int, int]:
        """The slot across each water cell (a horizontal one first)."""
        out: dict[int, int] = {}
        for s, slot in enumerate(self.slots):
            for w in slot.water:
                out.setdefault(w, s)
        return out

    def other(self, s: int, island: int) -> int:
        slot = self.slots[s]
        return slot.b if slot.a == island else slot.a

    def slot_name(self, s: int) -> str:
        return self.slot_names[s]

    @functools.cached_property
    def slot_names(self) -> tuple[str, ...]:
        return tuple(f"{self.cell(slot.a)}–{self.cell(slot.b)}" for slot in self.slots)


def lo(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def hi(mask: int) -> int:
    return mask.bit_length() - 1


# lo and hi of every candidate mask (slots carry at most 4 bridges), for the hot loops: a
# table look-up costs a fraction of a call
LEAST = tuple(lo(m) for m in range(1 << 5))
MOST = tuple(hi(m) for m in range(1 << 5))


class Groups:
    """The groups of islands already joined by bridges: made from each slot's least count
    (`least`), and read only."""

    def __init__(self, puzzle: HashiPuzzle, least: tuple[int, ...]):
        joined = UnionFind(len(puzzle.board))
        self.loop: int | None = None        # a slot that closes a loop of certain bridges
        for s, slot in enumerate(puzzle.slots):
            if least[s] >= 1 and not joined.union(slot.a, slot.b) and self.loop is None:
                self.loop = s
        self.root = {i: joined.find(i) for i in puzzle.islands}
        members: dict[int, list[int]] = {}
        for i in puzzle.islands:
            members.setdefault(self.root[i], []).append(i)
        self.members = members
        self.have = {i: sum([least[s] for s in puzzle.slots_of[i]]) for i in puzzle.islands}
        # root -> its islands that still lack a certain bridge (most groups hold none or few)
        self.short: dict[int, list[int]] = {}
        for i in puzzle.islands:
            if self.have[i] != puzzle.board[i]:
                self.short.setdefault(self.root[i], []).append(i)

    def group(self, island: int) -> list[int]:
        return self.members[self.root[island]]


def groups(puzzle: HashiPuzzle, state: State) -> Groups:
    """A state's groups, made once; the last ones serve again while no slot's least count
    changes (a step that only rules out more bridges keeps them)."""
    def make() -> Groups:
        least = tuple(map(LEAST.__getitem__, state.cands))
        return last_answer(puzzle, "_hashi_groups", least, lambda: Groups(puzzle, least))
    return state.derived("hashi.groups", make)


def reachable(puzzle: HashiPuzzle, state: State, start: int) -> set[int]:
    """Islands that can still be reached from `start` over slots that may hold a bridge."""
    seen, todo = {start}, [start]
    while todo:
        x = todo.pop()
        for s in puzzle.slots_of[x]:
            if state.cands[s] & ~1:
                y = puzzle.other(s, x)
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
    return seen


class Hashiwokakero(GridMarks, Genre):
    name = "hashiwokakero"
    title = "Hashiwokakero (Bridges)"
    aliases = ALIASES
    puzzle_type = HashiPuzzle
    blank = 0                           # no bridge
    value_phrases = (("has no bridge", "has a bridge"),
                     ("has one bridge", "does not have exactly one bridge"),
                     ("has two bridges", "does not have two bridges"),
                     ("has three bridges", "does not have three bridges"),
                     ("has four bridges", "does not have four bridges"))
    puzzlink_pids = PUZZLINK_PIDS
    janko_names = JANKO_NAMES
    has_tatham = True

    # --- variables ---------------------------------------------------------------------
    def initial_state(self, puzzle: HashiPuzzle) -> State:
        return State(tuple((1 << (puzzle.max_bridges + 1)) - 1 for _ in puzzle.slots))

    def var_name(self, puzzle: HashiPuzzle, var: int) -> str:
        return puzzle.slot_name(var)

    def var_cell(self, puzzle: HashiPuzzle, var: int) -> Cell:
        slot = puzzle.slots[var]
        return puzzle.cell(slot.water[0] if slot.water else slot.a)

    def cell_var(self, puzzle: HashiPuzzle, r: int, c: int) -> int:
        i = r * puzzle.cols + c
        if i in puzzle.slot_at:
            return puzzle.slot_at[i]
        if puzzle.board[i] != WATER and puzzle.slots_of[i]:
            return puzzle.slots_of[i][0]
        return 0

    # --- rules -------------------------------------------------------------------------
    def violations(self, puzzle: HashiPuzzle, state: State) -> list[Violation]:
        out = []
        cands = state.cands
        for i in puzzle.islands:
            n = puzzle.board[i]
            least = sum(lo(cands[s]) for s in puzzle.slots_of[i])
            most = sum(hi(cands[s]) for s in puzzle.slots_of[i])
            if least > n:
                out.append(Violation(f"the {n} at {puzzle.cell(i)} has {least} bridges", (puzzle.cell(i),)))
            elif most < n:
                out.append(Violation(f"the {n} at {puzzle.cell(i)} can no longer get {n} bridges",
                                     (puzzle.cell(i),)))
        for s in range(len(puzzle.slots)):
            if lo(cands[s]) >= 1:
                for t in puzzle.crossings[s]:
                    if t > s and lo(cands[t]) >= 1:
                        out.append(Violation(f"the bridges {puzzle.slot_name(s)} and {puzzle.slot_name(t)} "
                                             "cross", vars=(s, t)))
        if puzzle.islands:
            seen = reachable(puzzle, state, puzzle.islands[0])
            if len(seen) < len(puzzle.islands):
                lost = sorted(set(puzzle.islands) - seen)
                out.append(Violation(f"{puzzle.cell(lost[0])} can no longer be joined to "
                                     f"{puzzle.cell(puzzle.islands[0])}", (puzzle.cell(lost[0]),)))
        g = groups(puzzle, state)
        if len(g.members) > 1:
            for members in g.members.values():
                if all(g.have[i] == puzzle.board[i] for i in members):
                    out.append(Violation(f"the group of {puzzle.cell(members[0])} is complete but cut off "
                                         "from the other islands", (puzzle.cell(members[0]),)))
                    break
        if puzzle.no_loops and g.loop is not None:
            out.append(Violation(f"the bridge {puzzle.slot_name(g.loop)} closes a loop", vars=(g.loop,)))
        return out

    def solution_state(self, puzzle: HashiPuzzle) -> State | None:
        if puzzle.solution is None:
            return None
        return State(tuple(1 << k for k in puzzle.solution))

    def solution_from_state(self, puzzle: HashiPuzzle, state: State) -> tuple[int, ...]:
        return tuple(lo(m) for m in state.cands)

    # --- formats -----------------------------------------------------------------------
    def _check_islands(self, puzzle: HashiPuzzle, where) -> HashiPuzzle:
        """Reject numbers no island can hold: `where(i)` gives the error for cell i."""
        top = 4 * puzzle.max_bridges
        for i in puzzle.islands:
            n = puzzle.board[i]
            room = len(puzzle.slots_of[i]) * puzzle.max_bridges
            room_n = sum(min(puzzle.max_bridges, puzzle.board[puzzle.other(s, i)]) for s in puzzle.slots_of[i])
            if n < 1 or n > top:
                raise where(i, f"island {puzzle.cell(i)} needs {n} bridges: it must be 1 to {top}")
            if n > room or n > room_n:
                raise where(i, f"island {puzzle.cell(i)} needs {n} bridges but its neighbours allow at "
                               f"most {min(room, room_n)}")
        return puzzle

    def _glyph(self, puzzle: HashiPuzzle, i: int, state: State | None) -> str:
        b = puzzle.board[i]
        if b != WATER:
            return str(b)
        if state is None:
            return "."
        for s in (t for t, slot in enumerate(puzzle.slots) if i in slot.water):
            k = lo(state.cands[s])
            if k:
                return (H_GLYPHS if puzzle.slots[s].horizontal else V_GLYPHS)[k]
        return "."

    def _rows(self, puzzle: HashiPuzzle, state: State | None) -> list[list[str]]:
        return [[self._glyph(puzzle, r * puzzle.cols + c, state) for c in range(puzzle.cols)]
                for r in range(puzzle.rows)]

    def read_grid(self, puzzle: HashiPuzzle, grid: Grid, src: Source, marks: bool) -> State:
        """Bridges drawn on a grid: a solution (exact), or a player's marks (at least, or `x`)."""
        cands = list(self.initial_state(puzzle).cands)
        seen: dict[int, tuple[int, Any]] = {}
        for r, c, tok in grid.cells():
            i = r * puzzle.cols + c
            t = tok.text
            if puzzle.board[i] != WATER:
                if t != str(puzzle.board[i]):
                    raise src.error(f"{Cell(r, c)} is the island {puzzle.board[i]} but '{t}' here",
                                    tok.line, tok.col)
                continue
            if t == "." or (t in ("x", "X") and marks):
                if t != "." and i in puzzle.slot_at:
                    for s, slot in enumerate(puzzle.slots):
                        if i in slot.water:
                            cands[s] &= 1
                continue
            if t not in GLYPH_VALUE:
                raise bad_token(src, tok, "'.', '-', '=', '|' or 'H'" + (" or 'x'" if marks else ""))
            horizontal, k = GLYPH_VALUE[t]
            s = next((s for s, slot in enumerate(puzzle.slots)
                      if i in slot.water and slot.horizontal == horizontal), None)
            if s is None or k > puzzle.max_bridges:
                raise src.error(f"no bridge '{t}' can run through {Cell(r, c)}", tok.line, tok.col)
            if s in seen and seen[s][0] != k:
                raise src.error(f"the bridge {puzzle.slot_name(s)} is drawn with different counts",
                                tok.line, tok.col)
            seen[s] = (k, tok)
            cands[s] &= ~((1 << k) - 1) if marks else (1 << k)
        if not marks:
            cands = [m if s in seen else 1 for s, m in enumerate(cands)]
        return State(tuple(cands))

    def from_native(self, doc: dict[str, Any], src: NativeSource) -> HashiPuzzle:
        grid = src.grid("grid")
        maxb = doc.get("max_bridges", 2)
        if not isinstance(maxb, int) or not 1 <= maxb <= 4:
            raise src.error("max_bridges must be 1 to 4", src.key_line("max_bridges"))
        board = []
        for _, _, tok in grid.cells():
            if tok.text in (".", "-"):
                board.append(WATER)
            elif tok.text.isdecimal() and 1 <= int(tok.text) <= 4 * maxb:
                board.append(int(tok.text))
            else:
                raise bad_token(src, tok, f"'.' for water or 1-{4 * maxb} for an island")
        puzzle = HashiPuzzle(rows=grid.height, cols=grid.width, board=tuple(board), max_bridges=maxb,
                             no_loops=bool(doc.get("no_loops", False)), meta=src.meta())
        toks = {r * grid.width + c: tok for r, c, tok in grid.cells()}
        self._check_islands(puzzle, lambda i, msg: src.error(msg, toks[i].line, toks[i].col))
        return self.with_native_solution(puzzle, grid, src)

    def to_native(self, puzzle: HashiPuzzle) -> dict[str, Any]:
        doc: dict[str, Any] = {"genre": self.name, **meta_to_native(puzzle.meta)}
        if puzzle.max_bridges != 2:
            doc["max_bridges"] = puzzle.max_bridges
        if puzzle.no_loops:
            doc["no_loops"] = True
        doc["grid"] = grid_text(self._rows(puzzle, None))
        sol = self.solution_state(puzzle)
        if sol is not None:
            doc["solution"] = grid_text(self._rows(puzzle, sol))
        return doc

    def from_janko(self, data: dict[str, Any], src: Source) -> HashiPuzzle:
        rows, cols, problem = janko_problem(data, src)
        board = []
        for r, row in enumerate(problem):
            for c, t in enumerate(row):
                if t == "-":
                    board.append(WATER)
                elif t.isdecimal() and 1 <= int(t) <= 8:
                    board.append(int(t))
                else:
                    raise src.error(f"unexpected '{t}' at {Cell(r, c)}: expected '-' or an island 1-8",
                                    part="problem")
        meta = janko_meta(data, src)
        puzzle = HashiPuzzle(rows=rows, cols=cols, board=tuple(board), meta=meta)
        self._check_islands(puzzle, lambda i, msg: src.error(msg, part="problem"))
        solution = janko_grid(data, "solution", src, (rows, cols))
        if solution is not None:
            values = []
            for slot in puzzle.slots:
                t = solution[slot.water[0] // cols][slot.water[0] % cols] if slot.water else "-"
                k = {"1": 1, "2": 2} if slot.horizontal else {"a": 1, "b": 2}
                values.append(k.get(t, 0))
            puzzle = attrs.evolve(puzzle, solution=tuple(values))
        return puzzle

    def from_puzzlink(self, url: puzzlink.PuzzLink) -> HashiPuzzle:
        values = puzzlink.decode_known_numbers(url, "the island at {cell} has an unknown count")
        board = tuple(WATER if v < 0 else v for v in values)
        puzzle = HashiPuzzle(rows=url.rows, cols=url.cols, board=board, meta=url.meta)
        return self._check_islands(puzzle, lambda i, msg: url.error(msg))

    def from_tatham(self, params: str, desc: str, src: Source) -> HashiPuzzle:
        w, h, rest = tatham.parse_size(params, src, minimum=3)
        maxb, no_loops = 2, False
        for m in re.finditer(r"([a-zA-Z])(\d*)", rest):
            key, num = m.group(1), m.group(2)
            if key == "m" and num:
                maxb = int(num)
            elif key == "L":
                no_loops = True
        if not 1 <= maxb <= 4:
            raise src.error(f"m{maxb}: at most 1 to 4 bridges may join two islands", part="params")
        board: list[int] = []
        for k, ch in enumerate(desc):
            run = tatham.run_length(ch)
            if run is not None:
                board.extend([WATER] * run)
            elif ch in "123456789":
                board.append(int(ch))
            elif "A" <= ch <= "G":
                board.append(ord(ch) - ord("A") + 10)
            else:
                raise src.error(f"unexpected '{ch}' at character {k + 1} of the description",
                                part="description")
        if len(board) != w * h:
            raise src.error(f"the description covers {len(board)} cells, {w}x{h} needs {w * h}",
                            part="description")
        puzzle = HashiPuzzle(rows=h, cols=w, board=tuple(board), max_bridges=maxb, no_loops=no_loops,
                             meta=Meta(origin=src.origin, source="Simon Tatham's Bridges"))
        return self._check_islands(puzzle, lambda i, msg: src.error(msg, part="description"))

    # --- writers -----------------------------------------------------------------------
    def to_puzzlink(self, puzzle: HashiPuzzle) -> str:
        with self.writing(puzzle, PUZZLINK):
            if puzzle.max_bridges != 2 or puzzle.no_loops:
                raise CannotWrite(f"puzz.link Hashikake has no rule for {self._variant(puzzle)}")
            values = [puzzlink.NO_VALUE if b == WATER else b for b in puzzle.board]
            return puzzlink.url_of(self.puzzlink_pids[0], puzzle.cols, puzzle.rows, puzzlink.encode_number16(values))

    def to_tatham(self, puzzle: HashiPuzzle) -> str:
        """Bridges keeps `m` and `L` in its short params: they change the rules."""
        with self.writing(puzzle, TATHAM):
            params = tatham.size_params(puzzle.cols, puzzle.rows, "Bridges", minimum=3)
            params += f"m{puzzle.max_bridges}" + ("L" if puzzle.no_loops else "")
            self._no_joined_islands(puzzle)
            return tatham.game_id(params, tatham.encode_cells(puzzle.board, WATER, self._bridges_island))

    @staticmethod
    def _no_joined_islands(puzzle: HashiPuzzle) -> None:
        """Bridges refuses islands side by side ("joined islands")."""
        w = puzzle.cols
        for i, b in enumerate(puzzle.board):
            for j in ((i + 1,) if (i + 1) % w else ()) + (i + w,):
                if b != WATER and j < len(puzzle.board) and puzzle.board[j] != WATER:
                    raise CannotWrite(f"the islands at {Cell(*divmod(i, w))} and {Cell(*divmod(j, w))} "
                                      "are side by side, which Bridges refuses")

    @staticmethod
    def _bridges_island(n: int) -> str:
        if not 1 <= n <= 16:
            raise CannotWrite(f"Bridges islands need 1 to 16 bridge ends, not {n}")
        return str(n) if n <= 9 else chr(ord("A") + n - 10)

    @staticmethod
    def _variant(puzzle: HashiPuzzle) -> str:
        parts = [f"at most {puzzle.max_bridges} bridges between two islands"] if puzzle.max_bridges != 2 else []
        return " and ".join(parts + (["bridges that may not form a loop"] if puzzle.no_loops else []))

    # --- rendering ---------------------------------------------------------------------
    def render_text(self, puzzle: HashiPuzzle, state: State | None = None) -> str:
        return text.grid(self._rows(puzzle, state))

    def render_board(self, puzzle: HashiPuzzle, state: State | None = None) -> str:
        """Islands as (3), bridges ─ ═ (│ ║ down; ≡ three or more) between them, at least as
        many as every value left allows; a pair that gets no bridge × while unfinished."""
        complete = state is not None and state.complete
        cv = board.Canvas(2 * puzzle.rows - 1, 4 * puzzle.cols + 1)
        if state is not None:
            for s, slot in enumerate(puzzle.slots):
                m = state.cands[s]
                k = lo(m) if m else -1
                (ra, ca), (rb, cb) = divmod(slot.a, puzzle.cols), divmod(slot.b, puzzle.cols)
                if slot.horizontal:
                    x1, x2, y = 4 * ca + 3, 4 * cb, 2 * ra
                    ch = {1: "─", 2: "═"}.get(k, "≡")
                    span = [(y, x) for x in range(x1, x2)]
                else:
                    y1, y2, x = 2 * ra + 1, 2 * rb, 4 * ca + 1
                    ch = {1: "│", 2: "║"}.get(k, "≡")
                    span = [(y, x) for y in range(y1, y2)]
                if k > 0:
                    for y, x in span:
                        cv.put(y, x, ch)
                elif span and (k < 0 or (k == 0 and m == 1 and not complete)):
                    y, x = span[len(span) // 2]
                    cv.put(y, x, board.BROKEN if k < 0 else board.EMPTY)
        for i in puzzle.islands:
            r, c = divmod(i, puzzle.cols)
            cv.put(2 * r, 4 * c, f"({puzzle.board[i]})")
        return cv.text()

    def render_svg(self, puzzle: HashiPuzzle, state: State | None = None,
                   highlights: Sequence[tuple[str, Sequence[int | Cell]]] = ()) -> str:
        canvas = svg.Canvas(puzzle.rows, puzzle.cols)
        if state is not None:
            for s, slot in enumerate(puzzle.slots):
                k = lo(state.cands[s])
                (x1, y1), (x2, y2) = canvas.centre(puzzle.cell(slot.a)), canvas.centre(puzzle.cell(slot.b))
                gap = canvas.cell * 0.12
                for j in range(k):
                    off = (j - (k - 1) / 2) * gap
                    dx, dy = (0, off) if slot.horizontal else (off, 0)
                    canvas.line(x1 + dx, y1 + dy, x2 + dx, y2 + dy, "#1a237e", 2.5)
        for i in puzzle.islands:
            canvas.circle(puzzle.cell(i), 0.4, "#fff", "#000")
            canvas.text(puzzle.cell(i), str(puzzle.board[i]))
        for role, items in highlights:
            cells: list[Cell] = []
            for it in items:
                if isinstance(it, Cell):
                    cells.append(it)
                else:
                    slot = puzzle.slots[it]
                    cells.extend(puzzle.cell(w) for w in slot.water or (slot.a, slot.b))
            canvas.highlight(cells, role)
        return canvas.to_svg(grid_lines=False)

    # --- exact solver ------------------------------------------------------------------
    def asp_facts(self, puzzle: HashiPuzzle) -> str:
        out = [f"maxb({puzzle.max_bridges})."]
        if puzzle.no_loops:
            out.append("noloops.")
        out += [f"island({i},{puzzle.board[i]})." for i in puzzle.islands]
        out += [f"slot({s},{slot.a},{slot.b})." for s, slot in enumerate(puzzle.slots)]
        out += [f"cross({s},{t})." for s in range(len(puzzle.slots)) for t in puzzle.crossings[s] if s < t]
        return "\n".join(out)

    def state_from_model(self, puzzle: HashiPuzzle, atoms: Sequence[Any]) -> State:
        values = [0] * len(puzzle.slots)
        for a in atoms:
            if a.name == "bridges":
                values[a.arguments[0].number] = a.arguments[1].number
        return State(tuple(1 << k for k in values))

    def answer_json(self, puzzle: HashiPuzzle, state: State) -> Any:
        return {"bridges": [{"from": str(puzzle.cell(slot.a)), "to": str(puzzle.cell(slot.b)),
                             "count": lo(state.cands[s])}
                            for s, slot in enumerate(puzzle.slots) if lo(state.cands[s])]}

    def answer_asp(self, puzzle: HashiPuzzle, state: State) -> str:
        return "\n".join(f"bridges({s},{lo(m)})." for s, m in enumerate(state.cands))


GENRE = register(Hashiwokakero())
