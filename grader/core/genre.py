"""What a genre supplies to the engine. One subclass per genre, registered once."""
from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Sequence

import attrs

from grader.core.errors import InputError, Source
from grader.core.model import Cell, Puzzle, State, Violation

if TYPE_CHECKING:       # type names only: the readers sit above this layer
    from grader.io.native import NativeSource
    from grader.io.puzzlink import PuzzLink


PUZZLINK, TATHAM = "a puzz.link URL", "a Simon Tatham game ID"     # the formats genres write


class CannotWrite(Exception):
    """Why a puzzle cannot be written in a format: one line, raised by the writers and their
    shared encoders, and turned into an InputError naming the puzzle by Genre.writing."""


@attrs.frozen
class Plant:
    """A puzzle and one of its solutions (the planted one) as a complete state."""
    puzzle: Puzzle
    solution: State


class Genre:
    name: ClassVar[str]                      # canonical name, e.g. "akari"
    title: ClassVar[str]                     # for people, e.g. "Akari (Light Up)"
    aliases: ClassVar[tuple[str, ...]] = ()
    puzzle_type: ClassVar[type[Puzzle]]
    # (positive, negative) phrases per candidate value: ("holds a bulb", "holds no bulb")
    value_phrases: ClassVar[tuple[tuple[str, str], ...]]
    # The value a finished board may leave unmarked (an empty cell, a white cell, a crossed-out
    # edge): a board with every other mark right is solved without it. None: every mark counts.
    blank: ClassVar[int | None] = None
    puzzlink_pids: ClassVar[tuple[str, ...]] = ()
    janko_names: ClassVar[tuple[str, ...]] = ()   # janko "<Name>" folders
    has_tatham: ClassVar[bool] = False

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"<genre {self.name}>"

    # --- variables -------------------------------------------------------------------
    def initial_state(self, puzzle: Puzzle) -> State:
        raise NotImplementedError

    def var_name(self, puzzle: Puzzle, var: int) -> str:
        return str(self.var_cell(puzzle, var))

    def cell_var(self, puzzle: Puzzle, r: int, c: int) -> int:
        """The variable that decides cell (r, c), for "why is r3c4 ...?" (grid genres)."""
        return r * puzzle.cols + c  # type: ignore[attr-defined]

    def var_cell(self, puzzle: Puzzle, var: int) -> Cell:
        """The cell a variable sits in (grid genres: var = r * cols + c)."""
        return Cell(*divmod(var, puzzle.cols))  # type: ignore[attr-defined]

    # --- rules -----------------------------------------------------------------------
    def violations(self, puzzle: Puzzle, state: State) -> list[Violation]:
        """Rules already broken by a partial state (never guesses)."""
        raise NotImplementedError

    def violations_after(self, puzzle: Puzzle, start: State, state: State) -> list[Violation]:
        """violations(state), for a state a solve reached from `start` by removing candidates
        (at the end of every trial): a genre may look only near what changed since a state
        known to break nothing, as long as the answer is the same."""
        return self.violations(puzzle, state)

    def solution_state(self, puzzle: Puzzle) -> State | None:
        """The given solution as a complete state, when the input carried one."""
        return None

    def solution_from_state(self, puzzle: Puzzle, state: State) -> Any:
        """The inverse: a complete state in the form of `puzzle.solution`."""
        raise NotImplementedError

    # --- formats ---------------------------------------------------------------------
    def from_native(self, doc: dict[str, Any], src: "NativeSource") -> Puzzle:
        raise NotImplementedError

    def to_native(self, puzzle: Puzzle) -> dict[str, Any]:
        raise NotImplementedError

    def from_janko(self, data: dict[str, Any], src: Source) -> Puzzle:
        raise src.error(f"janko records are not supported for {self.name}")

    def from_puzzlink(self, url: "PuzzLink") -> Puzzle:
        raise url.src.error(f"puzz.link URLs are not supported for {self.name}")

    def from_tatham(self, params: str, desc: str, src: Source) -> Puzzle:
        raise src.error(f"Simon Tatham game IDs are not supported for {self.name}")

    # --- writers: the inverse of from_puzzlink and from_tatham -------------------------
    def to_puzzlink(self, puzzle: Puzzle) -> str:
        """The puzzle as a full puzz.link URL (https://puzz.link/p?<pid>/...), in the first pid
        the genre reads unless a rule needs another (Arukone's cover-every-cell)."""
        raise self.unwritable(puzzle, PUZZLINK, f"{self.name} has no puzz.link format")

    def to_tatham(self, puzzle: Puzzle) -> str:
        """The puzzle as a Simon Tatham game ID "params:desc", as the game's own --generate
        prints it: only the params the description needs."""
        raise self.unwritable(puzzle, TATHAM, f"{self.name} has no Simon Tatham game")

    @property
    def writes_puzzlink(self) -> bool:
        return type(self).to_puzzlink is not Genre.to_puzzlink

    @property
    def writes_tatham(self) -> bool:
        return type(self).to_tatham is not Genre.to_tatham

    def unwritable(self, puzzle: Puzzle, fmt: str, why: str) -> InputError:
        """The one-line error for a puzzle that `fmt` cannot hold, naming the puzzle and why."""
        return InputError(puzzle.meta.origin or f"<{self.name} puzzle>", f"cannot write it as {fmt}: {why}")

    @contextlib.contextmanager
    def writing(self, puzzle: Puzzle, fmt: str):
        """Around a writer: a CannotWrite inside becomes the one-line InputError."""
        try:
            yield
        except CannotWrite as exc:
            raise self.unwritable(puzzle, fmt, str(exc)) from None

    # A genre's own file formats (e.g. `.non`, `.lp`, boxed arrow grids): suffixes it reads,
    # a sniff test when several genres share a suffix, and the reader.
    file_suffixes: ClassVar[tuple[str, ...]] = ()

    def sniff(self, text: str) -> bool:
        return True

    def from_text(self, text: str, src: Source) -> Puzzle:
        raise src.error(f"{self.name} has no plain-text format")

    def parse_marks(self, puzzle: Puzzle, text: str, src: Source) -> State:
        """A player's marks, in the native grid syntax, as a state."""
        raise src.error(f"player marks are not supported for {self.name}")

    # --- rendering -------------------------------------------------------------------
    def render_text(self, puzzle: Puzzle, state: State | None = None) -> str:
        raise NotImplementedError

    def render_board(self, puzzle: Puzzle, state: State | None = None) -> str:
        """The board for people (grader.io.board): every clue, room and mark drawn in a Unicode
        grid that lines up in a terminal. render_text stays the native grid syntax; a genre
        without a board of its own shows that."""
        return self.render_text(puzzle, state)

    def render_svg(self, puzzle: Puzzle, state: State | None = None,
                   highlights: Sequence[tuple[str, Sequence[int | Cell]]] = ()) -> str:
        """An SVG board. highlights: (role, items) with role target/premise/region/mistake
        and items that are variables (ints) or Cells (clue cells)."""
        raise NotImplementedError

    # --- exact solver ----------------------------------------------------------------
    @property
    def encoding(self) -> str:
        """File name of the ASP encoding beside the module: `<name>.lp` (a genre whose file is
        named otherwise sets `encoding` itself)."""
        return f"{self.name}.lp"

    def encoding_text(self) -> str:
        return (Path(sys.modules[type(self).__module__].__file__).parent / self.encoding).read_text()

    def asp_facts(self, puzzle: Puzzle) -> str:
        raise NotImplementedError

    def state_from_model(self, puzzle: Puzzle, atoms: Sequence[Any]) -> State:
        """A complete state from the shown atoms of a clingo model."""
        raise NotImplementedError

    def answer_text(self, puzzle: Puzzle, state: State) -> str:
        """The solution as text (default: the text rendering of the final state)."""
        return self.render_text(puzzle, state)

    def answer_json(self, puzzle: Puzzle, state: State) -> Any:
        return self.render_text(puzzle, state).splitlines()

    def answer_asp(self, puzzle: Puzzle, state: State) -> str:
        """The solution as ASP facts (`grader solve --format asp`)."""
        raise NotImplementedError(f"{self.name} has no ASP answer format")

