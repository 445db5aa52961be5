"""Simon Tatham game IDs: `<params>:<desc>` (FORMATS.md §2)."""
from __future__ import annotations

import re
from typing import Any, Callable, Sequence

from grader.core.errors import Source
from grader.core.genre import CannotWrite

_SIZE = re.compile(r"^(\d{1,6})x(\d{1,6})(?!\d)")


def looks_like_game_id(text: str) -> bool:
    return bool(re.match(r"^\d+x\d+[^:/\s]*[:#]", text))


def split_game_id(text: str, src: Source) -> tuple[str, str]:
    if ":" not in text:
        if "#" in text:
            raise src.error("this is a random seed, not a puzzle: only the generator can "
                            "reproduce it; give the game ID (params:description)", part="seed")
        raise src.error("expected a game ID of the form <params>:<description>", part="params")
    params, desc = text.split(":", 1)
    return params, desc


def parse_size(params: str, src: Source, minimum: int = 1, maximum: int = 200) -> tuple[int, int, str]:
    """Width, height and the rest of the params."""
    m = _SIZE.match(params)
    if not m:
        raise src.error(f"params '{params}' do not start with <width>x<height>", part="params")
    w, h = int(m.group(1)), int(m.group(2))
    if not (minimum <= w <= maximum and minimum <= h <= maximum):
        raise src.error(f"size {w}x{h} is out of range", part="params")
    return w, h, params[m.end():]


def run_length(ch: str) -> int | None:
    """`a`..`z` = runs of 1..26 empty cells (Light Up, Bridges, Loopy, Range, Pearl)."""
    return ord(ch) - 96 if "a" <= ch <= "z" else None


def cells(desc: str, src: Source, w: int, h: int, blank: Any,
          read: Callable[[str], Any]) -> list[Any]:
    """Each cell's value from a Tatham game description: a letter a-z is a run of that many
    `blank` cells, any other character one cell, whose value `read` gives (None: not allowed)."""
    values: list[Any] = []
    for k, ch in enumerate(desc):
        run = run_length(ch)
        if run is not None:
            values.extend([blank] * run)
            continue
        value = read(ch)
        if value is None:
            raise src.error(f"unexpected '{ch}' at character {k + 1} of the description", part="description")
        values.append(value)
    if len(values) != w * h:
        raise src.error(f"the description covers {len(values)} cells, {w}x{h} needs {w * h}",
                        part="description")
    return values


# --- encoders: the inverse of the readers above, as the games' own --generate writes them ---

def game_id(params: str, desc: str) -> str:
    return f"{params}:{desc}"


def size_params(w: int, h: int, game: str, minimum: int = 1, maximum: int = 200) -> str:
    """`WxH`, for a size the game accepts."""
    if not (minimum <= w <= maximum and minimum <= h <= maximum):
        raise CannotWrite(f"{game} takes {minimum} to {maximum} cells a side, not {w}x{h}")
    return f"{w}x{h}"


def run_letters(run: int) -> str:
    """A run of `run` empty cells: `a`..`z` for 1..26, longer runs as `z`s and the rest (30 = zd)."""
    return "z" * (run // 26) + (chr(96 + run % 26) if run % 26 else "")


def encode_cells(values: Sequence[Any], blank: Any, write: Callable[[Any], str],
                 between: str = "") -> str:
    """A Tatham description from each cell's value: runs of `blank` cells as letters, any other
    cell as `write(value)`; `between` separates two written cells side by side (Range's `_`)."""
    out: list[str] = []
    run = 0
    last_written = False
    for v in values:
        if v == blank:
            run += 1
            continue
        if run:
            out.append(run_letters(run))
        elif last_written:
            out.append(between)
        out.append(write(v))
        run, last_written = 0, True
    if run:
        out.append(run_letters(run))
    return "".join(out)


# --- Mines bitmaps (FORMATS.md §2.8) -----------------------------------------------------

def bitmap_bytes(bits: Sequence[bool]) -> bytearray:
    """Cell i is bit 0x80 >> (i mod 8) of byte i // 8; pad bits are 0."""
    data = bytearray((len(bits) + 7) // 8)
    for i, b in enumerate(bits):
        if b:
            data[i // 8] |= 0x80 >> (i % 8)
    return data


def _xor_stream(seed: bytes, data: bytearray, start: int, length: int) -> None:
    """XOR SHA-1(seed‖"0") ‖ SHA-1(seed‖"1") ‖ ... into data[start:start + length]."""
    import hashlib      # OpenSSL's: slow to import, and only obfuscated game IDs need it
    stream, counter = b"", 0
    while len(stream) < length:
        stream += hashlib.sha1(seed + str(counter).encode()).digest()
        counter += 1
    for k in range(length):
        data[start + k] ^= stream[k]


def _clear_pad(data: bytearray, nbits: int) -> None:
    if nbits % 8:
        data[-1] &= (0xFF << (8 - nbits % 8)) & 0xFF


def unmask_bitmap(data: bytearray, nbits: int) -> bytearray:
    """Undo the masking of a Mines bitmap (two SHA-1 XOR rounds, pad bits cleared after each)."""
    first = len(data) // 2
    _xor_stream(bytes(data[:first]), data, first, len(data) - first)
    _clear_pad(data, nbits)
    _xor_stream(bytes(data[first:]), data, 0, first)
    _clear_pad(data, nbits)
    return data


def mask_bitmap(data: bytearray, nbits: int) -> bytearray:
    """Mask a Mines bitmap as the game does before writing it (`m`): the unmasking rounds in
    the opposite order."""
    first = len(data) // 2
    _xor_stream(bytes(data[first:]), data, 0, first)
    _clear_pad(data, nbits)
    _xor_stream(bytes(data[:first]), data, first, len(data) - first)
    _clear_pad(data, nbits)
    return data


def masked_bitmap_hex(bits: Sequence[bool]) -> str:
    """The `m` bitmap of a Mines game ID: ceil(N/4) lower-case hex digits."""
    return mask_bitmap(bitmap_bytes(bits), len(bits)).hex()[: (len(bits) + 3) // 4]
