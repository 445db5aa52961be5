"""puzz.link / pzprjs URLs: the URL shape and the codecs genres share (FORMATS.md §3)."""
from __future__ import annotations

import attrs

from grader.core.errors import InputError, Source
from grader.core.model import Cell, Meta
from grader.io.limits import MAX_SIDE


@attrs.frozen
class PuzzLink:
    pid: str
    flags: str
    cols: int
    rows: int
    body: str
    src: Source

    def error(self, message: str, part: str = "body") -> InputError:
        return self.src.error(message, part=part)

    @property
    def meta(self) -> Meta:
        """What a puzzle read from this URL knows of itself: where it came from."""
        return Meta(origin=self.src.origin, source="puzz.link")


def looks_like_url(text: str) -> bool:
    return "?" in text and ("://" in text or text.startswith(("p?", "puzz.link")))


def parse_url(url: str) -> tuple[str, list[str], Source]:
    """The pid and the remaining '/'-separated parts of a puzz.link URL."""
    src = Source(url)
    if "?" not in url:
        raise src.error("not a puzz.link URL: no '?' before the puzzle", part="query")
    query = url.split("?", 1)[1]
    while "=" in query.split("/", 1)[0] and "&" in query:
        query = query.split("&", 1)[1]
    parts = query.split("/")
    if parts and parts[-1] == "":
        parts.pop()
    if not parts or not parts[0]:
        raise src.error("no puzzle type in the URL", part="pid")
    pid = parts[0]
    if pid.startswith("pzprv3"):
        raise src.error("URLs that hold a whole pzprv3 file are not supported", part="pid")
    for suffix in ("_edit", "_play"):
        pid = pid.removesuffix(suffix)
    rest = parts[1:]
    if rest and rest[0].startswith("v:"):
        rest = rest[1:]
    return pid, rest, src


def split(pid: str, rest: list[str], src: Source) -> PuzzLink:
    flags = ""
    if rest and not rest[0].isdecimal():
        flags, rest = rest[0], rest[1:]
    if len(rest) < 2 or not rest[0].isdecimal() or not rest[1].isdecimal():
        raise src.error("expected <columns>/<rows> after the puzzle type", part="size")
    cols, rows = int(rest[0][-4:]), int(rest[1][-4:])
    if not (1 <= cols <= MAX_SIDE and 1 <= rows <= MAX_SIDE) or len(rest[0]) > 4 or len(rest[1]) > 4:
        raise src.error(f"size {rest[0][:6]}x{rest[1][:6]} is out of range (1 to {MAX_SIDE} a side)",
                        part="size")
    return PuzzLink(pid, flags, cols, rows, "/".join(rest[2:]), src)


def decode_4cell(link: PuzzLink, dot_value: int = -2) -> list[int]:
    """4Cell: clues 0..4 with skips; -1 = no clue, `dot_value` for '.'. The body must cover
    every cell and end there."""
    n = link.cols * link.rows
    out = [-1] * n
    i = pos = 0
    body = link.body
    while i < n and pos < len(body):
        ch = body[pos]
        if "0" <= ch <= "4":
            out[i] = int(ch); i += 1
        elif "5" <= ch <= "9":
            out[i] = int(ch) - 5; i += 2
        elif "a" <= ch <= "e":
            out[i] = ord(ch) - ord("a"); i += 3
        elif "g" <= ch <= "z":
            i += ord(ch) - ord("f")
        elif ch == ".":
            out[i] = dot_value; i += 1
        else:
            raise unexpected(link, ch, pos)
        pos += 1
    expect_end(link, pos, i, n)
    return out


def expect_end(link: PuzzLink, pos: int, filled: int, needed: int, what: str = "cells") -> None:
    """FORMATS.md §3.3: a codec stops once every cell is filled. A body that ends sooner was cut
    short, and characters after that are not part of this puzzle; both are refused rather than
    read as some other puzzle."""
    if filled < needed:
        raise link.error(f"the body ends after {filled} of the {needed} {what} of a "
                         f"{link.cols}x{link.rows} grid: it looks cut short")
    if pos < len(link.body):
        raise link.error(f"unexpected {link.body[pos:pos + 12]!r} at character {pos + 1}: the "
                         f"{what} are all filled before it")


def unexpected(link: PuzzLink, ch: str, pos: int) -> InputError:
    """The error for a character no codec knows; `pos` counts from 0 in the whole body."""
    return link.error(f"unexpected character {ch!r} at character {pos + 1}")


def decode_number16(link: PuzzLink, count: int | None = None, body: str | None = None
                    ) -> tuple[list[int], int]:
    """Number16 over `count` cells (default all): -1 = none, -2 = '?'. Returns the values and
    how many characters of the body were used. The values must all be given; over the whole
    body (no `body` given) nothing may follow them."""
    n = link.cols * link.rows if count is None else count
    s = link.body if body is None else body
    out = [-1] * n
    i = pos = 0
    widths = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192), "@": (3, 8192),
              "*": (4, 12240), "$": (5, 77776)}
    while i < n and pos < len(s):
        ch = s[pos]
        if ch in "0123456789abcdef":
            out[i] = int(ch, 16); i += 1; pos += 1
        elif ch in widths:
            w, base = widths[ch]
            digits = s[pos + 1:pos + 1 + w]
            try:
                out[i] = base + int(digits, 16)
            except ValueError:
                raise link.error(f"bad number '{ch}{digits}' at character "
                                 f"{pos + 1 + len(link.body) - len(s)}") from None
            i += 1; pos += 1 + w
        elif ch == ".":
            out[i] = -2; i += 1; pos += 1
        elif "g" <= ch <= "z":
            i += ord(ch) - ord("f"); pos += 1
        else:
            raise unexpected(link, ch, pos + len(link.body) - len(s))
    if body is None:
        expect_end(link, pos, i, n)
    elif i < n:
        expect_end(link, len(link.body), i, n, "rooms" if count is not None else "cells")
    return out, pos


def decode_known_numbers(link: PuzzLink, unknown: str) -> list[int]:
    """Number16 over every cell (-1 = none) for a genre that cannot take a '?' number:
    `unknown`, with {cell} for the cell, says what a '.' would be ("the number at {cell} is
    unknown"), and the error adds that it is not supported."""
    values, _ = decode_number16(link)
    for k, v in enumerate(values):
        if v == -2:
            raise link.error(unknown.format(cell=Cell(*divmod(k, link.cols))) + " ('.'), which is not supported")
    return values
