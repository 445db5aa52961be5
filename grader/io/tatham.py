"""Simon Tatham game IDs: `<params>:<desc>` (FORMATS.md §2)."""
from __future__ import annotations

import re
from typing import Any, Callable

from grader.core.errors import Source

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
