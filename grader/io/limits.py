"""The largest input every importer accepts, checked before anything is allocated.

The published puzzles are at most 50x57; puzz.link and Simon Tatham's IDs allow sides up to 200
here. A board of 200x200 cells (40,000 cells, or as many edges and vertices in an ASP graph) is
the maximum for every format; a file larger than MAX_BYTES is refused unread.
"""
from __future__ import annotations

from grader.core.errors import InputError, Source

MAX_SIDE = 200
MAX_CELLS = MAX_SIDE * MAX_SIDE
MAX_BYTES = 2 * 1024 * 1024


def check_side(n: int, what: str, src: Source, line: int | None = None, column: int | None = None,
               part: str | None = None) -> int:
    """`n` as a board side (rows or columns): 1..MAX_SIDE."""
    if not 1 <= n <= MAX_SIDE:
        raise src.error(f"{what} is {n}: expected 1 to {MAX_SIDE}", line, column, part)
    return n


def check_count(n: int, what: str, src: Source, limit: int = MAX_CELLS, line: int | None = None,
                column: int | None = None) -> int:
    """A count of things to allocate (cells, edges, facts) within `limit`."""
    if n > limit:
        raise src.error(f"too many {what}: {n} (at most {limit})", line, column)
    return n


def check_bytes(size: int, origin: str) -> None:
    if size > MAX_BYTES:
        raise InputError(origin, f"the file is {size} bytes: puzzle files are at most {MAX_BYTES}")
