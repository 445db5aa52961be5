"""puzz.link / pzprjs URLs: the URL shape and the codecs genres share (FORMATS.md §3)."""
from __future__ import annotations

from typing import Sequence

import attrs

from grader.core.errors import InputError, Source
from grader.core.genre import CannotWrite
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


# --- encoders: the inverse of the codecs above, written as pzprjs writes them -------------

NO_VALUE, UNKNOWN_VALUE = -1, -2        # a cell without a number, a '?' (as the decoders give)


def url_of(pid: str, cols: int, rows: int, body: str, flags: str = "") -> str:
    """The full URL: https://puzz.link/p?<pid>/[<flags>/]<cols>/<rows>/<body>."""
    return f"https://puzz.link/p?{pid}/{flags + '/' if flags else ''}{cols}/{rows}/{body}"


def with_skips(tokens: Sequence[str | None], first: str = "g", longest: int = 20) -> str:
    """Tokens in order, None being one empty cell: each run of empty cells becomes one letter,
    `first` for 1 cell up to a run of `longest` (a longer run takes several letters)."""
    out: list[str] = []
    run = 0
    for tok in tokens:
        if tok is None:
            run += 1
            if run == longest:
                out.append(chr(ord(first) + run - 1))
                run = 0
            continue
        if run:
            out.append(chr(ord(first) + run - 1))
            run = 0
        out.append(tok)
    if run:
        out.append(chr(ord(first) + run - 1))
    return "".join(out)


# Number16 widths: (prefix, offset, hex digits, largest value), smallest first (FORMATS.md §3.3)
_NUMBER16_TIERS = (("", 0, 1, 15), ("-", 0, 2, 255), ("+", 0, 3, 4095), ("=", 4096, 3, 8191),
                   ("%", 8192, 3, 12239), ("*", 12240, 4, 77775), ("$", 77776, 5, 77776 + 0xFFFFF))


def number16_token(n: int) -> str:
    """One Number16 value: -2 is '?' ('.'), 0 or more in the narrowest form that holds it."""
    if n == UNKNOWN_VALUE:
        return "."
    for prefix, offset, width, largest in _NUMBER16_TIERS:
        if n <= largest:
            return prefix + format(n - offset, f"0{width}x")
    raise CannotWrite(f"{n} is too large for a puzz.link number")


def encode_number16(values: Sequence[int]) -> str:
    """Number16 over cells (or rooms, or clue slots): -1 none, -2 '?', else the number."""
    return with_skips([None if v == NO_VALUE else number16_token(v) for v in values])


def encode_4cell(values: Sequence[int]) -> str:
    """4Cell: -1 none, -2 '.', 0..4 a clue, which swallows the next one or two empty cells
    exactly as pzprjs does (at the end of the board a clue always takes the widest form)."""
    tokens: list[str | None] = []
    n, c = len(values), 0
    while c < n:
        v = values[c]
        if v >= 0:
            if c + 1 < n and values[c + 1] != NO_VALUE:
                tokens.append(str(v)); c += 1
            elif c + 2 < n and values[c + 2] != NO_VALUE:
                tokens.append(str(v + 5)); c += 2
            else:
                tokens.append("abcde"[v]); c += 3
        else:
            tokens.append("." if v == UNKNOWN_VALUE else None); c += 1
    return with_skips(tokens)


_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def encode_circle(values: Sequence[int]) -> str:
    """Circle (Masyu pearls): 0 none, 1 white, 2 black; three cells per base-27 digit."""
    return "".join(_DIGITS[sum(v * w for v, w in zip(list(values[k:k + 3]) + [0, 0], (9, 3, 1)))]
                   for k in range(0, len(values), 3))


def encode_bits(bits: Sequence[int]) -> str:
    """Five bits per base-32 digit, most significant first; the last digit padded with 0s."""
    return "".join(_DIGITS[int("".join(str(b) for b in bits[k:k + 5]).ljust(5, "0"), 2)]
                   for k in range(0, len(bits), 5))


def encode_border(labels: Sequence[object], cols: int, rows: int) -> str:
    """Border: a wall between side-by-side cells whose labels differ; the vertical walls
    (row by row, c1|c2 first) then the horizontal ones (each row boundary, left to right)."""
    vertical = [int(labels[r * cols + c] != labels[r * cols + c + 1])
                for r in range(rows) for c in range(cols - 1)]
    horizontal = [int(labels[r * cols + c] != labels[(r + 1) * cols + c])
                  for r in range(rows - 1) for c in range(cols)]
    return encode_bits(vertical) + encode_bits(horizontal)


# ArrowNumber16 direction digits (FORMATS.md §3.3): none, up, down, left, right
ARROW_DIGITS = {"": 0, "n": 1, "s": 2, "w": 3, "e": 4}
BLANK_CLUE = "+"


def arrow_number16_token(direction: str, n: int | None) -> str:
    """One clue cell: its direction (n s w e or ''), and its number (None: '?')."""
    d = ARROW_DIGITS[direction]
    if n is None:
        return f"{d}."
    if n < 16:
        return f"{d}{n:x}"
    if n < 256:
        return f"{d + 5}{n:02x}"
    if n < 4096:
        return f"-{d}{n:03x}"
    raise CannotWrite(f"{n} is too large for a puzz.link arrow clue")


def encode_arrow_number16(tokens: Sequence[str | None]) -> str:
    """ArrowNumber16 from one token per cell (arrow_number16_token, BLANK_CLUE, or None for a
    cell without a clue); runs of empty cells are a..z (1..26)."""
    return with_skips(tokens, first="a", longest=26)


def encode_base36_cells(values: Sequence[int]) -> str:
    """Hitori cells: one token per cell, -1 an empty cell ('.'), -2 '?' ('@'), a number in
    base 36 (two digits after '-' from 36 to 1295)."""
    out = []
    for v in values:
        if v == NO_VALUE:
            out.append(".")
        elif v == UNKNOWN_VALUE:
            out.append("@")
        elif v < 36:
            out.append(_DIGITS[v])
        elif v < 1296:
            out.append("-" + _DIGITS[v // 36] + _DIGITS[v % 36])
        else:
            raise CannotWrite(f"{v} is too large for a puzz.link Hitori number")
    return "".join(out)
