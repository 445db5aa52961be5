"""janko.at applet records, one JSON object per line (FORMATS.md §4)."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import attrs

from ..errors import InputError, Source


@attrs.frozen
class Record:
    id: str               # e.g. "akari/001"
    janko_name: str       # the <Name> of the record's file path: chooses the genre
    data: dict
    src: Source


def read_records(path: Path) -> Iterator[Record | InputError]:
    """Every record of a .jsonl file; a bad line becomes an InputError in the stream."""
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            src = Source(f"{path}:{n}")
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                yield InputError(str(path), f"not valid JSON: {exc.msg}", n, exc.colno)
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
            return int(data["rows"]), int(data["cols"])
        return int(data["size"]), int(data["size"])
    except (KeyError, TypeError, ValueError):
        raise src.error("record has no usable size (size, or rows and cols)") from None


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
            if not isinstance(t, (str, int)) or isinstance(t, bool):
                raise src.error(f"'{key}' has {json.dumps(t)} at r{r + 1}c{c + 1}: expected a "
                                "text or a number", part=key)
    return [[str(t) for t in r] for r in rows]
