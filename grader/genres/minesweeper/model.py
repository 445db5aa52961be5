"""Minesweeper as a logic puzzle: some cells are revealed and show how many of their (up to 8)
neighbours hold a mine; find every mine. The total number of mines may be given.

Variables: every cell, values SAFE / MINE; revealed cells and void cells (not part of the
board) are fixed SAFE. Var = r * cols + c. The answer is the set of mines (MarkedCellsGenre).
Native grid: `.` unknown, `0`-`8` a revealed number, `?` revealed without a number, `#` a void
cell; optional `mines:` (the total). Solutions and marks also use `*` mine and `+` safe.

Simon Tatham's Mines is progressive: the game shows the number of every cell once it is proved
safe. A game ID becomes a static puzzle by playing that game with our own techniques: open the
first click, then, round by round, reveal the cells the techniques prove safe (a 0 cascades)
until the revealed numbers and the mine count decide every cell. No round guesses, so the result
is a unique static puzzle whose numbers are exactly those a player would have seen.
"""
from __future__ import annotations

import functools
from typing import Any, Sequence

import attrs

from grader.core.errors import Source
from grader.io import puzzlink, tatham
from grader.core.genre import PUZZLINK, TATHAM, CannotWrite
from grader.io.janko import cells as janko_cells, field as janko_field, meta as janko_meta
from grader.io.native import Grid, NativeSource, bad_token
from grader.core.model import Cell, Meta, State, Violation
from grader.io import svg
from grader.genres import register
from grader.io import board
from grader.io.marked_cells import MarkedCellsGenre, mark_tok
from grader.kernels.grid import GRAPHS_KEPT, GridPuzzle
from grader.kernels.tally import tally
from grader.genres.minesweeper import ALIASES, JANKO_NAMES, PUZZLINK_PIDS

SAFE, MINE = 0, 1
B_SAFE, B_MINE = 1 << SAFE, 1 << MINE
FREE = B_SAFE | B_MINE
UNKNOWN, VOID, QUESTION = -1, -2, -3        # board values; 0..8 are revealed numbers
JANKO_TOKENS = {"-": UNKNOWN, "x": VOID}


@attrs.frozen(kw_only=True, slots=False)
class MinesPuzzle(GridPuzzle):
    board: tuple[int, ...]       # UNKNOWN, VOID, QUESTION or a revealed number, row-major
    total: int | None = None     # the number of mines, when given

    @functools.cached_property
    def surrounding(self) -> tuple[tuple[int, ...], ...]:
        """The up to eight cells around each cell, diagonals included (a number counts these;
        GridPuzzle.neighbours are only the orthogonal ones), in reading order."""
        return surrounding_cells(self.rows, self.cols)

    @functools.cached_property
    def unknowns(self) -> tuple[int, ...]:
        return tuple([i for i, b in enumerate(self.board) if b == UNKNOWN])

    @functools.cached_property
    def numbers(self) -> tuple[int, ...]:
        """The revealed numbers."""
        return tuple([i for i, b in enumerate(self.board) if b >= 0])

    @functools.cached_property
    def around(self) -> tuple[tuple[int, ...], ...]:
        """The unknown cells beside each cell."""
        board = self.board
        return tuple([tuple([n for n in ns if board[n] == UNKNOWN]) for ns in self.surrounding])

    @functools.cached_property
    def numbers_next_to(self) -> tuple[tuple[int, ...], ...]:
        board = self.board
        return tuple([tuple([n for n in ns if board[n] >= 0]) for ns in self.surrounding])

    @functools.cached_property
    def nearby_numbers(self) -> tuple[tuple[int, ...], ...]:
        """For each number, the other numbers whose unknown cells overlap its own."""
        out: list[tuple[int, ...]] = [()] * self.size
        numbers_next_to = self.numbers_next_to
        for i in self.numbers:
            near = {m for u in self.around[i] for m in numbers_next_to[u]}
            near.discard(i)
            out[i] = tuple(sorted(near))
        return tuple(out)

    def numbers_near(self, focus) -> list[int]:
        """Numbers that touch any cell in `focus`."""
        return sorted({m for f in focus for m in self.numbers_next_to[f]})


@functools.lru_cache(maxsize=GRAPHS_KEPT)
def surrounding_cells(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Each cell's up to eight neighbours in reading order: a fact of the grid's size alone,
    made once per size in a process (a batch grades many boards of the same few sizes)."""
    out = []
    for r in range(rows):
        near_rows = range(max(r - 1, 0), min(r + 2, rows))
        for c in range(cols):
            near_cols = range(max(c - 1, 0), min(c + 2, cols))
            i = r * cols + c
            out.append(tuple([j for j in (r2 * cols + c2 for r2 in near_rows for c2 in near_cols) if j != i]))
    return tuple(out)


def number_counts(puzzle: MinesPuzzle, state: State, i: int) -> tuple[int, list[int]]:
    """Mines beside a number, and its undecided neighbours."""
    return tally(state.cands, puzzle.around[i], B_MINE, FREE)


def mine_totals(puzzle: MinesPuzzle, state: State) -> tuple[int, list[int]]:
    """Mines placed so far on the whole board, and the undecided cells."""
    def compute():
        cands = state.cands
        return (sum(1 for i in puzzle.unknowns if cands[i] == B_MINE),
                [i for i in puzzle.unknowns if cands[i] == FREE])
    return state.derived("minesweeper.totals", compute)


# --- Simon Tatham's Mines: the layout, the opening and the progressive reveal ------------

def decode_layout(w: int, h: int, hexdigits: str, masked: bool, src: Source) -> list[bool]:
    n = w * h
    want = (n + 3) // 4
    if len(hexdigits) not in (want, want - 1) or any(ch not in "0123456789abcdefABCDEF" for ch in hexdigits):
        raise src.error(f"the mine bitmap should be {want} hex digits for {w}x{h}", part="description")
    digits = hexdigits.ljust(want, "0")
    if len(digits) % 2:
        digits += "0"
    data = bytearray(bytes.fromhex(digits))[: (n + 7) // 8]
    if masked:
        data = tatham.unmask_bitmap(data, n)
    return [bool(data[i // 8] & (0x80 >> (i % 8))) for i in range(n)]


def counts_of(w: int, h: int, layout: Sequence[bool]) -> list[int]:
    out = []
    for i in range(w * h):
        r, c = divmod(i, w)
        out.append(sum(layout[r2 * w + c2] for r2 in (r - 1, r, r + 1) for c2 in (c - 1, c, c + 1)
                       if (r2, c2) != (r, c) and 0 <= r2 < h and 0 <= c2 < w))
    return out


def open_cells(w: int, h: int, layout: Sequence[bool], counts: Sequence[int], start: Sequence[int],
               revealed: set[int]) -> None:
    """Reveal cells as the game does: a 0 opens all its neighbours in turn."""
    queue = [i for i in start if i not in revealed]
    revealed.update(queue)
    while queue:
        i = queue.pop()
        if counts[i] == 0 and not layout[i]:
            r, c = divmod(i, w)
            for r2 in (r - 1, r, r + 1):
                for c2 in (c - 1, c, c + 1):
                    j = r2 * w + c2
                    if 0 <= r2 < h and 0 <= c2 < w and j not in revealed:
                        revealed.add(j)
                        queue.append(j)


def progressive_puzzle(w: int, h: int, layout: Sequence[bool], click: int, meta: Meta) -> "MinesPuzzle":
    """Play Mines from the first click with our techniques, revealing the number of every cell
    they prove safe, until the revealed numbers and the mine count settle the board."""
    from grader.core import exact
    from grader.core.engine import Solver
    from grader.core.steps import Status
    counts = counts_of(w, h, layout)
    revealed: set[int] = set()
    open_cells(w, h, layout, counts, [click], revealed)
    total = sum(layout)
    rounds, hardest = 0, 0          # reveal rounds played, and the hardest level they needed
    while True:
        board = tuple(counts[i] if i in revealed else UNKNOWN for i in range(w * h))
        puzzle = MinesPuzzle(rows=h, cols=w, board=board, total=total, meta=meta,
                             solution=frozenset(i for i in range(w * h) if layout[i]))
        safe: list[int] = []

        def one_solution(puzzle: MinesPuzzle = puzzle) -> bool:
            # a board in play has several solutions as a rule: level 5's last resort would
            # then search until its time is up (two minutes per round) for nothing
            return exact.solve(puzzle, seconds=5.0).verdict in (exact.Verdict.UNIQUE,
                                                                 exact.Verdict.UNKNOWN)
        for level in (4, 5):
            trace = Solver(puzzle, max_level=level, one_solution=one_solution).solve()
            if trace.status is Status.SOLVED:
                note = f"; static after {rounds} reveal rounds" + (
                    f" that needed level {hardest}" if rounds else "")
                return attrs.evolve(puzzle, meta=attrs.evolve(meta, provenance=(meta.provenance or "") + note))
            safe = [i for i in puzzle.unknowns if trace.final.cands[i] == B_SAFE]
            if safe:
                hardest = max([hardest] + [s.level for s in trace.steps])
                break
        if not safe:
            return puzzle          # the techniques are stuck: left as it is, graded as stuck
        open_cells(w, h, layout, counts, safe, revealed)
        rounds += 1


class Minesweeper(MarkedCellsGenre):
    name = "minesweeper"
    title = "Minesweeper"
    aliases = ALIASES
    puzzle_type = MinesPuzzle
    value_phrases = (("is safe", "is not safe"), ("holds a mine", "holds no mine"))
    puzzlink_pids = PUZZLINK_PIDS
    janko_names = JANKO_NAMES
    has_tatham = True
    MARKED, UNMARKED, marked_atom, marked_key = MINE, SAFE, "mine", "mines"

    # --- variables and rules -----------------------------------------------------------
    def given_unmarked(self, puzzle: MinesPuzzle, i: int) -> bool:
        return puzzle.board[i] != UNKNOWN        # a revealed cell is safe

    def violations(self, puzzle: MinesPuzzle, state: State) -> list[Violation]:
        out = []
        for i in puzzle.numbers:
            n = puzzle.board[i]
            mines, free = number_counts(puzzle, state, i)
            if mines > n:
                out.append(Violation(f"the {n} at {puzzle.cell(i)} touches {mines} mines", (puzzle.cell(i),)))
            elif mines + len(free) < n:
                out.append(Violation(f"the {n} at {puzzle.cell(i)} can no longer touch {n} mines",
                                     (puzzle.cell(i),)))
        if puzzle.total is not None:
            mines, free = mine_totals(puzzle, state)
            if mines > puzzle.total:
                out.append(Violation(f"{mines} mines are placed but the board has {puzzle.total}"))
            elif mines + len(free) < puzzle.total:
                out.append(Violation(f"only {mines + len(free)} cells are left for {puzzle.total} mines"))
        return out

    # --- formats -----------------------------------------------------------------------
    def _board_from_grid(self, grid: Grid, src: Source) -> tuple[int, ...]:
        board = []
        for _, _, tok in grid.cells():
            t = tok.text
            if t in (".", "*", "+", "-"):
                board.append(UNKNOWN)
            elif t == "#":
                board.append(VOID)
            elif t == "?":
                board.append(QUESTION)
            elif t.isdecimal():
                if int(t) > 8:
                    raise src.error(f"{t} is not a Minesweeper number: a cell has only 8 neighbours",
                                    tok.line, tok.col)
                board.append(int(t))
            else:
                raise bad_token(src, tok, "'.' for an unknown cell, 0-8 for a revealed number, "
                                          "'?' or '#' for a void cell")
        return tuple(board)

    def read_grid(self, puzzle: MinesPuzzle, grid: Grid, src: Source, marks: bool) -> State:
        cands = list(self.initial_state(puzzle).cands)
        for r, c, tok in grid.cells():
            i = puzzle.index(r, c)
            t = tok.text
            if puzzle.board[i] != UNKNOWN:
                if t in ("*", "x", "X"):
                    raise src.error(f"{Cell(r, c)} is revealed in the puzzle and cannot hold a mine",
                                    tok.line, tok.col)
                continue
            if t in ("*", "x", "X"):
                cands[i] = B_MINE
            elif t in ("+", "-") or (t == "." and not marks):
                cands[i] = B_SAFE
            elif t != ".":
                raise bad_token(src, tok, "'*' for a mine, '+' for a safe cell or '.'")
        return State(tuple(cands))

    def _check_total(self, puzzle: MinesPuzzle, src: Source, **where) -> None:
        if puzzle.total is not None and not 0 <= puzzle.total <= len(puzzle.unknowns):
            raise src.error(f"{puzzle.total} mines do not fit in {len(puzzle.unknowns)} unknown cells",
                            **where)

    def from_native(self, doc: dict[str, Any], src: NativeSource) -> MinesPuzzle:
        grid = src.grid("grid")
        board = self._board_from_grid(grid, src)
        total = doc.get("mines")
        if total is not None and (not isinstance(total, int) or isinstance(total, bool)):
            raise src.error("'mines' must be a whole number (the total count of mines)", src.key_line("mines"))
        puzzle = MinesPuzzle(rows=grid.height, cols=grid.width, board=board, total=total, meta=src.meta())
        self._check_total(puzzle, src, line=src.key_line("mines"))
        return self.with_native_solution(puzzle, grid, src)

    def native_fields(self, puzzle: MinesPuzzle) -> dict[str, Any]:
        return {} if puzzle.total is None else {"mines": puzzle.total}

    def glyph(self, puzzle: MinesPuzzle, i: int, state: State | None, solution: bool = False) -> str:
        b = puzzle.board[i]
        if b >= 0:
            return str(b)
        if b == VOID:
            return "#"
        if b == QUESTION:
            return "?"
        if state is None:
            return "."
        return {B_MINE: "*", B_SAFE: "." if solution else "+", 0: "!"}.get(state.cands[i], ".")

    def board_tok(self, puzzle: MinesPuzzle, i: int, state: State | None, complete: bool) -> board.Tok:
        """Revealed numbers, void cells ▓, mines ●, safe cells × (blank when solved)."""
        b = puzzle.board[i]
        if b >= 0:
            return board.Tok(str(b))
        if b == VOID:
            return board.BLOCK_TOK
        if b == QUESTION:
            return board.Tok("?")
        return mark_tok(None if state is None else state.cands[i], B_MINE, B_SAFE, complete, board.Tok("●"))

    def from_janko(self, data: dict[str, Any], src: Source) -> MinesPuzzle:
        rows, cols, board = janko_cells(data, src, lambda t: int(t) if t.isdecimal() else JANKO_TOKENS.get(t))
        for i, b in enumerate(board):
            if b > 8:
                raise src.error(f"{b} at {Cell(*divmod(i, cols))} is above 8", part="problem")
        total = janko_field(data, "mines")
        if total is not None:
            try:
                total = int(total)
            except (TypeError, ValueError):
                raise src.error(f"'mines' is '{total}', not a number", part="mines") from None
        mines = self.janko_solution(data, src, rows, cols, "x", [b == UNKNOWN for b in board])
        puzzle = MinesPuzzle(rows=rows, cols=cols, board=tuple(board), total=total, solution=mines,
                             meta=janko_meta(data, src))
        self._check_total(puzzle, src, part="mines")
        return puzzle

    def from_puzzlink(self, url: puzzlink.PuzzLink) -> MinesPuzzle:
        values, _ = puzzlink.decode_number16(url)
        board = []
        for i, v in enumerate(values):
            if v > 8:
                raise url.error(f"{v} at {Cell(*divmod(i, url.cols))} is above 8")
            board.append(UNKNOWN if v == -1 else QUESTION if v == -2 else v)
        return MinesPuzzle(rows=url.rows, cols=url.cols, board=tuple(board), meta=url.meta)

    def from_tatham(self, params: str, desc: str, src: Source) -> MinesPuzzle:
        w, h, rest = tatham.parse_size(params, src)
        if desc.startswith("r"):
            raise src.error("this game ID makes its layout at the first click (r...): it cannot be "
                            "imported; use the ID the game shows after the first click", part="description")
        click = None
        body = desc
        parts = desc.split(",")
        if len(parts) == 3:
            try:
                x, y = int(parts[0]), int(parts[1])
            except ValueError:
                raise src.error("the first click should be <x>,<y>", part="description") from None
            if not (0 <= x < w and 0 <= y < h):
                raise src.error(f"the first click {x},{y} is outside the {w}x{h} board", part="description")
            click, body = y * w + x, parts[2]
        elif len(parts) != 1:
            raise src.error("expected <x>,<y>,m<hex> or a bitmap", part="description")
        masked = body.startswith("m")
        if body[:1] in ("m", "u"):
            body = body[1:]
        layout = decode_layout(w, h, body, masked, src)
        mines = sum(layout)
        if "n" in rest:
            digits = rest.split("n", 1)[1].rstrip("a")
            if digits.isdecimal() and int(digits) != mines:
                raise src.error(f"the params say {digits} mines but the layout has {mines}", part="params")
        meta = Meta(origin=src.origin, source="Simon Tatham's Mines",
                    provenance=f"Mines {params}:{desc} played from the first click")
        if click is None:
            raise src.error("this game ID has no first click, so nothing is revealed: add <x>,<y>, "
                            "before the bitmap", part="description")
        if layout[click]:
            raise src.error(f"the first click {Cell(*divmod(click, w))} is a mine", part="description")
        return progressive_puzzle(w, h, layout, click, meta)

    # --- writers -----------------------------------------------------------------------
    def to_puzzlink(self, puzzle: MinesPuzzle) -> str:
        """Number16 of the revealed numbers ('?' as '.'); puzz.link has no mine count."""
        with self.writing(puzzle, PUZZLINK):
            if VOID in puzzle.board:
                raise CannotWrite(f"{puzzle.cell(puzzle.board.index(VOID))} is void; puzz.link boards have none")
            if puzzle.total is not None:
                raise CannotWrite(f"it gives the mine count ({puzzle.total}), which puzz.link cannot hold "
                                  "(drop it first if the numbers alone decide the board)")
            values = [puzzlink.NO_VALUE if b == UNKNOWN else puzzlink.UNKNOWN_VALUE if b == QUESTION else b
                      for b in puzzle.board]
            return puzzlink.url_of(self.puzzlink_pids[0], puzzle.cols, puzzle.rows, puzzlink.encode_number16(values))

    def to_tatham(self, puzzle: MinesPuzzle) -> str:
        """A Mines game ID is a layout and a first click: the layout is the puzzle's solution,
        and the click one whose game, played as from_tatham plays it, reveals exactly this
        board. Any cell of the first opening's 0s plays the same game; the first is written."""
        with self.writing(puzzle, TATHAM):
            w, h = puzzle.cols, puzzle.rows
            params = tatham.size_params(w, h, "Mines")
            layout = self._mines_layout(puzzle)
            counts = counts_of(w, h, layout)
            for click in _first_clicks(puzzle, layout, counts):
                if progressive_puzzle(w, h, layout, click, puzzle.meta).board == puzzle.board:
                    x, y = click % w, click // w
                    return tatham.game_id(params, f"{x},{y},m{tatham.masked_bitmap_hex(layout)}")
            raise CannotWrite("no first click on its mine layout plays to this board: it is not a "
                              "Mines position (the numbers Mines reveals from one click)")

    @staticmethod
    def _mines_layout(puzzle: MinesPuzzle) -> list[bool]:
        """The mines as Mines keeps them, after checking the board is one Mines can show."""
        for bad, what in ((VOID, "void"), (QUESTION, "a '?'")):
            if bad in puzzle.board:
                raise CannotWrite(f"{puzzle.cell(puzzle.board.index(bad))} is {what}; Mines has none")
        if puzzle.solution is None:
            raise CannotWrite("a Mines game ID is its mine layout, and this puzzle gives no solution")
        layout = [i in puzzle.solution for i in range(puzzle.size)]
        if puzzle.total != sum(layout):
            given = "none" if puzzle.total is None else f"{puzzle.total} for {sum(layout)} mines"
            raise CannotWrite(f"Mines shows the mine count, and this puzzle gives {given}")
        counts = counts_of(puzzle.cols, puzzle.rows, layout)
        wrong = [i for i, b in enumerate(puzzle.board) if b >= 0 and (b != counts[i] or layout[i])]
        if wrong:
            raise CannotWrite(f"the number at {puzzle.cell(wrong[0])} does not count the mines of its solution")
        return layout

    # --- rendering ---------------------------------------------------------------------
    def render_svg(self, puzzle: MinesPuzzle, state: State | None = None,
                   highlights: Sequence[tuple[str, Sequence[int | Cell]]] = ()) -> str:
        canvas = svg.Canvas(puzzle.rows, puzzle.cols)
        for i, b in enumerate(puzzle.board):
            cell = puzzle.cell(i)
            if b == VOID:
                canvas.fill(cell, "#222")
                continue
            if b != UNKNOWN:
                canvas.fill(cell, "#e8e8e8")
                if b > 0:
                    canvas.text(cell, str(b))
                elif b == QUESTION:
                    canvas.text(cell, "?")
                continue
            canvas.fill(cell, "#b0b8c0")
            if state is not None and state.cands[i] == B_MINE:
                canvas.circle(cell, 0.28, "#222")
            elif state is not None and state.cands[i] == B_SAFE:
                canvas.dot(cell)
        for role, items in highlights:
            canvas.highlight([i if isinstance(i, Cell) else puzzle.cell(i) for i in items], role)
        return canvas.to_svg()

    # --- exact solver ------------------------------------------------------------------
    def asp_facts(self, puzzle: MinesPuzzle) -> str:
        out = []
        for i, b in enumerate(puzzle.board):
            r, c = divmod(i, puzzle.cols)
            if b == UNKNOWN:
                out.append(f"unknown({r},{c}).")
            elif b >= 0:
                out.append(f"number({r},{c},{b}).")
        if puzzle.total is not None:
            out.append(f"total({puzzle.total}).")
        return "\n".join(out)


def _first_clicks(puzzle: MinesPuzzle, layout: Sequence[bool], counts: Sequence[int]) -> list[int]:
    """Cells a first click may have hit: revealed 0s whose opening the board shows, one per
    opening (the first cell of each), in row-major order."""
    revealed = {i for i, b in enumerate(puzzle.board) if b >= 0}
    clicks, openings = [], set()
    for i in sorted(revealed):
        if counts[i] != 0:
            continue
        opened: set[int] = set()
        open_cells(puzzle.cols, puzzle.rows, layout, counts, [i], opened)
        key = frozenset(opened)
        if key not in openings and opened <= revealed:
            openings.add(key)
            clicks.append(i)
    return clicks


GENRE = register(Minesweeper())
