"""Errors that reach the user as one clear line, never as a traceback."""
from __future__ import annotations


class InputError(Exception):
    """Bad input: names the file (or URL), the place in it, and what is wrong."""

    def __init__(self, origin: str, message: str, line: int | None = None, column: int | None = None,
                 part: str | None = None):
        self.origin, self.message, self.line, self.column, self.part = origin, message, line, column, part
        super().__init__(str(self))

    def __str__(self) -> str:
        place = one_line(self.origin or "<input>", 160)
        if self.line is not None:
            place += f":{self.line}"
            if self.column is not None:
                place += f":{self.column}"
        if self.part:
            place += f" ({self.part})"
        return f"{place}: {one_line(self.message, 600)}"


def one_line(text: str, limit: int) -> str:
    """`text` on one printable line: control characters escaped, a long middle cut out (an
    argument pasted from a file can hold line breaks, or be a megabyte long)."""
    text = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in str(text))
    if len(text) > limit:
        keep = (limit - 1) // 2
        text = text[:keep] + "…" + text[-keep:]
    return text


class Source:
    """Where input came from, so every error can name the file and the place."""

    def __init__(self, origin: str, text: str | None = None):
        self.origin, self.text = origin, text

    def error(self, message: str, line: int | None = None, column: int | None = None,
              part: str | None = None) -> InputError:
        return InputError(self.origin, message, line, column, part)
