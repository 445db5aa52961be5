"""Errors that reach the user as one clear line, never as a traceback."""
from __future__ import annotations


class InputError(Exception):
    """Bad input: names the file (or URL), the place in it, and what is wrong."""

    def __init__(self, origin: str, message: str, line: int | None = None, column: int | None = None,
                 part: str | None = None):
        self.origin, self.message, self.line, self.column, self.part = origin, message, line, column, part
        super().__init__(str(self))

    def __str__(self) -> str:
        place = self.origin or "<input>"
        if self.line is not None:
            place += f":{self.line}"
            if self.column is not None:
                place += f":{self.column}"
        if self.part:
            place += f" ({self.part})"
        return f"{place}: {self.message}"


class Source:
    """Where input came from, so every error can name the file and the place."""

    def __init__(self, origin: str, text: str | None = None):
        self.origin, self.text = origin, text

    def error(self, message: str, line: int | None = None, column: int | None = None,
              part: str | None = None) -> InputError:
        return InputError(self.origin, message, line, column, part)
