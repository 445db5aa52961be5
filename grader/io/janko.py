"""janko.at applet records, one JSON object per line (FORMATS.md §4)."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Callable, Iterator

import attrs

from grader.core.errors import InputError, Source
from grader.core.model import Cell, Meta
from grader.io import limits
from grader.io.native import MAX_TOKEN


@attrs.frozen
class Record:
    id: str               # e.g. "akari/001"
    janko_name: str       # the <Name> of the record's file path: chooses the genre
    data: dict
    src: Source


def read_records(path: Path) -> Iterator[Record | InputError]:
    """Every record of a .jsonl file; a bad line becomes an InputError in the stream."""
    try:
        fh = open(path, "rb")
    except OSError as exc:
        yield InputError(str(path), f"cannot read: {exc.strerror or exc}")
        return
    with fh:
        for n, raw in enumerate(iter(lambda: fh.readline(limits.MAX_BYTES + 1), b""), 1):
            if len(raw) > limits.MAX_BYTES:
                while raw and not raw.endswith(b"\n"):     # skip the rest of that line
                    raw = fh.readline(1 << 20)
                yield InputError(str(path), f"the record is longer than {limits.MAX_BYTES} "
                                 "bytes", n)
                continue
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield InputError(str(path), "not a UTF-8 text file", n,
                                 len(raw[:exc.start].decode("utf-8")) + 1)
                continue
            if not line.strip():
                continue
            src = Source(f"{path}:{n}")
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                yield InputError(str(path), f"not valid JSON: {exc.msg}", n, exc.colno)
                continue
            except (ValueError, RecursionError) as exc:     # a number of 5000 digits, deep nesting
                yield InputError(str(path), f"not valid JSON: {type(exc).__name__}", n)
                continue
            if not isinstance(obj, dict) or not isinstance(obj.get("data"), dict):
                yield InputError(str(path), "expected an object with 'file' and 'data'", n)
                continue
            m = re.match(r"/?([^/]+)/([^/.]+)", str(obj.get("file", "")))
            name, number = (m.group(1), m.group(2)) if m else ("", str(n))
            yield Record(f"{name.lower()}/{number}" if name else str(n), name, obj["data"], src)


def field(data: dict[str, Any], key: str) -> Any:
    """A key, ignoring the scraper's '_' duplicates (the first copy wins)."""
    return data.get(key, data.get(key + "_"))


def size(data: dict[str, Any], src: Source) -> tuple[int, int]:
    """(rows, cols)."""
    try:
        if "rows" in data and "cols" in data:
            rows, cols = _whole(data["rows"]), _whole(data["cols"])
        else:
            rows = cols = _whole(data["size"])
    except (KeyError, TypeError, ValueError, OverflowError):
        raise src.error("record has no usable size (size, or rows and cols)", part="size") from None
    names = ("rows", "cols") if "rows" in data and "cols" in data else ("size", "size")
    for n, what in zip((rows, cols), names):
        limits.check_side(n, f"'{what}'", src, part="size")
    return rows, cols


def _whole(value: Any) -> int:
    """A size as janko writes it: a number or a numeral, never a fraction or true/false."""
    if isinstance(value, bool) or isinstance(value, float) and not value.is_integer():
        raise ValueError(value)
    if isinstance(value, str) and len(value) > 10:
        raise ValueError(value)
    return int(value)


def problem(data: dict[str, Any], src: Source) -> tuple[int, int, list[list[str]]]:
    """(rows, cols, the problem grid): where every grid genre's record reading starts."""
    rows, cols = size(data, src)
    tokens = grid(data, "problem", src, (rows, cols))
    if tokens is None:
        raise src.error("record has no 'problem'", part="problem")
    return rows, cols, tokens


def grid(data: dict[str, Any], key: str, src: Source, shape: tuple[int, int]) -> list[list[str]] | None:
    rows = field(data, key)
    if rows is None:
        return None
    if isinstance(rows, str):
        rows = [r.split() for r in rows.strip().splitlines()]
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise src.error(f"'{key}' is not a grid: expected rows of cells", part=key)
    if len(rows) != shape[0] or any(len(r) != shape[1] for r in rows):
        raise src.error(f"'{key}' is not {shape[0]}x{shape[1]}", part=key)
    for r, row in enumerate(rows):
        for c, t in enumerate(row):
            if not isinstance(t, (str, int)) or isinstance(t, bool) or len(str(t)) > MAX_TOKEN:
                raise src.error(f"'{key}' has {json.dumps(t)[:40]} at r{r + 1}c{c + 1}: expected a "
                                "short text or a number", part=key)
    return [[str(t) for t in r] for r in rows]


def cells(data: dict[str, Any], src: Source, read: Callable[[str], int | None],
          expected: str = " in 'problem'") -> tuple[int, int, list[int]]:
    """(rows, cols, each cell's value) from a janko record's 'problem' grid: `read` gives a
    token's value, None for a token the genre does not know (an error that ends `expected`)."""
    rows, cols, grid_ = problem(data, src)
    values = []
    for r, row in enumerate(grid_):
        for c, t in enumerate(row):
            value = read(t)
            if value is None:
                raise src.error(f"unexpected '{t}' at {Cell(r, c)}{expected}", part="problem")
            values.append(value)
    return rows, cols, values


def meta(data: dict[str, Any], src: Source) -> Meta:
    return Meta(author=data.get("author"), source=data.get("source"), origin=src.origin,
                title=data.get("title"))
