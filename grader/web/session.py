"""What the server keeps per puzzle: the parsed puzzle and, once asked for, its reference
solution, solve path and exact count, in a bounded LRU keyed by the puzzle text and genre."""
from __future__ import annotations

from collections import OrderedDict
from typing import Any

from grader.core import exact
from grader.core.engine import Budget
from grader.core.errors import InputError, Source
from grader.core.model import Puzzle, State
from grader.io import pzprv3
from grader.io.native import genre_named
from grader.io.read import load_text, parse_state

MAX_BODY_BYTES = 512 * 1024      # a request body; a 50x50 board's YAML is about 10 KB
MAX_BOARD_CELLS = 50 * 50        # the page plays boards up to 50x50 (variables: twice that)
MAX_VARIABLES = 2 * MAX_BOARD_CELLS + 200
CACHED_PUZZLES = 64


class ApiError(Exception):
    """A request the API refuses: an HTTP status and one line naming the problem."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


class Entry:
    """One puzzle and what has been worked out about it, each part computed on first use."""

    def __init__(self, text: str, puzzle: Puzzle, seconds: float):
        self.text, self.puzzle, self.seconds = text, puzzle, seconds
        self.start = puzzle.genre.initial_state(puzzle)
        self._known: tuple[State | None, bool] | None = None
        self._analysis: Any = None
        self._exact: exact.ExactResult | None = None
        self._targets: list[dict[str, Any]] | None = None

    @property
    def budget(self) -> Budget:
        return Budget(max_seconds=self.seconds)

    def known(self) -> tuple[State | None, bool]:
        """The solution marks are judged by, and whether the puzzle has exactly one."""
        if self._known is None:
            given = self.puzzle.genre.solution_state(self.puzzle)
            self._known = (given, True) if given is not None else (
                self.exact().solution, self.exact().unique is True)
        return self._known

    def exact(self) -> exact.ExactResult:
        if self._exact is None:
            self._exact = exact.solve(self.puzzle, seconds=max(5.0, self.seconds))
        return self._exact

    def analysis(self) -> Any:
        """The solve path and grade `grader grade` gives."""
        if self._analysis is None:
            from grader.core.analysis import analyse
            self._analysis = analyse(self.puzzle, budget=self.budget)
        return self._analysis

    def targets(self) -> list[dict[str, Any]]:
        if self._targets is None:
            from grader.web.geometry import targets
            self._targets = targets(self.puzzle)
        return self._targets


class Cache:
    """An LRU of Entry by (puzzle text, genre)."""

    def __init__(self, size: int = CACHED_PUZZLES, seconds: float = 10.0):
        self.size, self.seconds = size, seconds
        self.entries: OrderedDict[tuple[str, str | None], Entry] = OrderedDict()

    def get(self, text: Any, genre: Any) -> Entry:
        if not isinstance(text, str):
            raise ApiError(400, "'puzzle' must be a string: a puzz.link URL, a Simon Tatham game ID, "
                                "native YAML or a pzprv3 board")
        if genre is not None and not isinstance(genre, str):
            raise ApiError(400, "'genre' must be a string or null")
        key = (text, genre or None)
        entry = self.entries.get(key)
        if entry is None:
            if genre:
                genre_named(genre, Source("genre"))
            puzzle = load_text(text, genre or None, origin="puzzle")
            _check_size(puzzle)
            entry = Entry(text, puzzle, self.seconds)
            self.entries[key] = entry
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)
        self.entries.move_to_end(key)
        return entry


def _check_size(puzzle: Puzzle) -> None:
    rows, cols = getattr(puzzle, "rows", 0), getattr(puzzle, "cols", 0)
    if rows * cols > MAX_BOARD_CELLS:
        raise ApiError(413, f"the board is {rows}x{cols}: the page plays boards of at most "
                            f"{MAX_BOARD_CELLS} cells (50x50)")
    n = len(puzzle.genre.initial_state(puzzle).cands)
    if n > MAX_VARIABLES:
        raise ApiError(413, f"the board has {n} variables: at most {MAX_VARIABLES}")


def marks_of(entry: Entry, body: dict[str, Any]) -> State:
    """The player's marks: `state` (the candidate masks the API returns), `marks` (the genre's
    marks text or a pzprv3 board), the progress a pzprv3 puzzle carries, else an empty board."""
    state, text = body.get("state"), body.get("marks")
    if state is not None:
        return state_from_list(entry, state)
    if text is not None:
        if not isinstance(text, str):
            raise ApiError(400, "'marks' must be a string: the genre's marks grid or a pzprv3 board")
        return parse_state(entry.puzzle, text, "marks")
    if pzprv3.looks_like_board(entry.text.strip()):
        return pzprv3.marks_for(entry.puzzle, entry.text, "puzzle").marks
    return entry.start


def state_from_list(entry: Entry, state: Any) -> State:
    start = entry.start.cands
    if not isinstance(state, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in state):
        raise ApiError(400, "'state' must be a list of integers (candidate masks, as the API returns them)")
    if len(state) != len(start):
        raise ApiError(400, f"'state' has {len(state)} entries: this puzzle has {len(start)} variables")
    for v, (m, s) in enumerate(zip(state, start)):
        if m <= 0 or m & ~s:
            name = entry.puzzle.genre.var_name(entry.puzzle, v)
            raise ApiError(400, f"'state' entry {v} ({name}) is {m}: expected a non-empty part of {s}")
    return State(tuple(state))


def genre_text(entry: Entry, state: State) -> str:
    """The marks as the genre's marks text (what `grader hint --state` reads)."""
    return entry.puzzle.genre.render_text(entry.puzzle, state)


def input_error(exc: InputError) -> ApiError:
    return ApiError(400, str(exc))
