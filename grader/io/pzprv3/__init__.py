"""pzprv3 board files: what puzz.link (pzprjs) writes with "File > Save": the puzzle and the
player's progress.

    pzprv3            (or pzprv3.1: a newer layout of some genres)
    lightup           the puzzle type, as in puzz.link URLs
    6                 rows (rows first, unlike URLs)
    6                 columns
    . . # . . .       the body: genre-specific sections, one line per row of cells
    ...
    info:{...}        optional: metadata and the move history, ignored

pzprjs's own test scripts write the same file on one line with `/` for each line break
(`pzprv3/lightup/6/6/. . # . . . /...`); both forms are read.

A board becomes the genre's native puzzle text and native marks text, so each genre's own
readers (`from_native`, `parse_marks`) stay the one place for its rules. Every error names
the file, the line and column of the offending item, and the problem.
"""
from __future__ import annotations

import attrs

from grader.core.errors import InputError, Source
from grader.core.explain import with_article
from grader.core.model import Puzzle, State
from grader.io.native import dump, load_native
from grader.io.pzprv3 import cells, lines  # noqa: F401  (their converters register themselves)
from grader.io.pzprv3.board import CONVERTERS, Board, Converted, Mark, looks_like_board

__all__ = ["Board", "CONVERTERS", "Read", "load", "looks_like_board", "marks_for", "read"]

@attrs.frozen
class Read:
    puzzle: Puzzle
    marks: State                    # what the player marked (or the solution it completes)
    finished: State | None = None   # the board with unmarked cells empty, when that is complete

    def verdict(self) -> tuple[str, list[str]]:
        """'solved', 'mistake' (with the rules the marks already break) or 'unfinished'. Unlike
        pzprjs's check, a board still being played is unfinished, not wrong: only what the
        player marked can be a mistake."""
        broken = [v.message for v in self.puzzle.genre.violations(self.puzzle, self.marks)]
        if broken:
            return "mistake", broken
        return ("solved" if self.marks.complete else "unfinished"), []


def _convert(board: Board) -> tuple[str, Converted]:
    if board.pid not in CONVERTERS:
        known = ", ".join(sorted(CONVERTERS))
        raise board.src.error(f"puzzle type '{board.pid}' is not supported in board files "
                              f"(supported: {known})", *board.pid_place)
    genre, fn = CONVERTERS[board.pid]
    conv = fn(board)
    rest = next(((t, line, col) for t, line, col in board.body[board.pos:] if t.strip()), None)
    if rest is not None:
        # pzprjs writes nothing between the last section and the metadata: more lines mean
        # a file of another layout, or two boards run together
        text, line, col = rest
        raise board.src.error(f"unexpected '{text.strip()[:20]}' after the board's last section",
                              line, col + len(text) - len(text.lstrip()))
    return genre, conv


def _puzzle(board: Board, conv: Converted) -> Puzzle:
    try:
        return load_native(dump(conv.doc), board.src.origin)
    except InputError as exc:
        # The genre rejects the puzzle itself (say, a number too big for its room).
        raise board.src.error(exc.message, *board.pid_place) from None


def _marks_text(conv: Converted, finished: bool) -> tuple[str, int]:
    """The marks as native text, and the width of one mark in it (to map errors back)."""
    k = 1 if finished else 0
    if conv.joined:
        return "\n".join("".join(m[k] for m in row) for row in conv.marks) + "\n", 1
    width = max(len(m[k]) for row in conv.marks for m in row) + 1
    return "\n".join("".join(m[k].ljust(width) for m in row).rstrip() for row in conv.marks) + "\n", width


def _parse_marks(board: Board, puzzle: Puzzle, conv: Converted, finished: bool) -> State:
    text, width = _marks_text(conv, finished)
    try:
        return puzzle.genre.parse_marks(puzzle, text, Source(board.src.origin, text))
    except InputError as exc:
        tok = None
        if exc.line is not None and 1 <= exc.line <= len(conv.marks):
            row = conv.marks[exc.line - 1]
            tok = row[min(((exc.column or 1) - 1) // width, len(row) - 1)][2]
        if tok is not None and tok.line:
            raise board.src.error(exc.message, tok.line, tok.col) from None
        raise board.src.error(exc.message, *board.pid_place) from None


def _placed(mark: Mark) -> bool:
    """A shaded cell, a bulb, a mine or a line: something the player put there (not a clue)."""
    marked, finished, _ = mark
    return marked == finished and marked not in (".", "+", "?", " ") and not marked[0].isdecimal()


def _marks(board: Board, puzzle: Puzzle, conv: Converted) -> tuple[State, State | None]:
    """The marks as a state, and the board as pzprjs judges it, where unmarked cells count as
    unshaded or empty (None when that is no complete board, or nothing was placed). A finished
    board that breaks no rule reads as that solution."""
    state = _parse_marks(board, puzzle, conv, finished=False)
    if state.complete:
        return state, state
    if not any(_placed(m) for row in conv.marks for m in row):
        return state, None      # pzprjs too calls a board without anything placed unfinished
    try:
        if conv.finish_as_solution:
            # marks cannot say "this endpoint's line leaves east" or "exactly one bridge";
            # the genre's solution reader can
            solved = load_native(dump({**conv.doc, "solution": _marks_text(conv, True)[0]}),
                                 board.src.origin)
            done = puzzle.genre.solution_state(solved)
        else:
            done = _parse_marks(board, puzzle, conv, finished=True)
    except InputError:
        return state, None
    if done is None or not done.complete:
        return state, None
    return (state if puzzle.genre.violations(puzzle, done) else done), done


def read(text: str, origin: str) -> Read:
    """The puzzle and the player's marks of a board file."""
    board = Board(text, origin)
    _, conv = _convert(board)
    puzzle = _puzzle(board, conv)
    return Read(puzzle, *_marks(board, puzzle, conv))


def load(text: str, origin: str) -> Puzzle:
    return read(text, origin).puzzle


def marks_for(puzzle: Puzzle, text: str, origin: str) -> Read:
    """A board file given as the player's marks for a puzzle read elsewhere (a URL): the board's
    puzzle must be the same puzzle."""
    board = Board(text, origin)
    genre, conv = _convert(board)
    g = puzzle.genre
    if genre != g.name:
        raise board.src.error(f"this board is {with_article(genre)} puzzle, not {g.name}", *board.pid_place)
    own = _puzzle(board, conv)
    if g.render_text(own) != g.render_text(puzzle):
        raise board.src.error("the board holds a different puzzle from the one given", 1, 1)
    return Read(puzzle, *_marks(board, puzzle, conv))
