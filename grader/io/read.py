"""Read puzzles from any supported source: a native YAML file, a janko .jsonl record, a
genre's own file format, a puzz.link URL or a Simon Tatham game ID."""
from __future__ import annotations

import itertools
import json
import os
import re
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from grader.core.errors import InputError, Source
from grader.core.model import Puzzle
from grader.io import janko, limits, puzzlink, tatham
from grader.io.native import NativeSource, genre_named, load_native  # noqa: F401  (load_native is read from here too)

if TYPE_CHECKING:
    from grader.io import pzprv3
# pzprv3 board files are read by a large module of their own, imported only for a file that
# may be one (not for native YAML, a janko record, a URL or a game ID).

NATIVE_SUFFIXES = (".yaml", ".yml")
# Files a puzzle folder may hold that are not puzzles: a batch skips them silently.
NOT_PUZZLES = frozenset((".py", ".pyc", ".md", ".rst", ".sh", ".toml", ".cfg", ".ini", ".json", ".csv"))


# What each genre's own text format looks like, for the error when none matches.
_TEXT_KINDS = {"arrows": "a boxed Japanese Arrows grid ('| ↓. | →1 |')",
               "numberlink": "a Numberlink grid (a first line '<width> <height>')",
               "picross": "a .non nonogram", "slitherlink": "ASP facts (edge(1,2).)"}


def from_record(rec: janko.Record) -> Puzzle:
    """The genre comes from the record's file path (FORMATS.md §4.1: its `puzzle` field can be
    garbled); a `puzzle` field that plainly names another of our genres is a contradiction."""
    from grader.genres import find
    folder = rec.janko_name.lower()
    by_path = find(lambda g: folder in (n.lower() for n in g.janko_names), guess=folder)
    claimed = _claimedgenre_named(rec.data.get("puzzle"))
    if by_path is None and not rec.janko_name and claimed is not None:
        by_path = claimed       # no file path: the field is all there is
    if by_path is None:
        if not rec.janko_name:
            raise rec.src.error("the record names no genre: its 'file' is not /<Name>/<NNN>...",
                                part="file")
        raise rec.src.error(f"no genre reads janko '{rec.janko_name}' records", part="file")
    if claimed is not None and claimed is not by_path:
        raise rec.src.error(f"the record's puzzle is {claimed.name!s} but its file path says "
                            f"'{rec.janko_name}' ({by_path.name})", part="puzzle")
    return by_path.from_janko(rec.data, rec.src)


def _claimedgenre_named(field: object):
    """The genre a janko `puzzle` field names exactly (its first word, any case), else None:
    'Akari' and 'nonogram' name a genre; 'nurikabeinfo Pack2' names none."""
    from grader.genres import find
    if not isinstance(field, str) or not field.split():
        return None
    word = field.split()[0].lower()

    def named(g) -> bool:
        names = {g.name, *g.aliases, *(n.lower() for n in g.janko_names)}
        return word in names or word + "s" in names
    return find(named, guess=word)


def load_file(path: Path, genre: str | None = None) -> Puzzle:
    from grader.genres import all_genres
    origin = str(path)
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        items = list(itertools.islice(janko.read_records(path), 2))   # not a whole corpus
        if len(items) != 1:
            many = "no records" if not items else "more than one record"
            raise InputError(origin, f"holds {many}: grade it with "
                             "`grader batch`, or pick one as FILE.jsonl#N (N = line number)")
        return _record_or_raise(items[0])
    text = read_text(path)
    if suffix in NATIVE_SUFFIXES:
        return load_native(text, origin)
    from grader.io import pzprv3
    if pzprv3.looks_like_board(text):
        return pzprv3.load(text, origin)
    src = Source(origin, text)
    candidates = [g for g in all_genres() if suffix in getattr(g, "file_suffixes", ())]
    if genre:
        g = genre_named(genre, src)
        if g in candidates or not candidates:
            return g.from_text(text, src)  # type: ignore[attr-defined]
    for g in candidates:
        if g.sniff(text):  # type: ignore[attr-defined]
            return g.from_text(text, src)  # type: ignore[attr-defined]
    if len(candidates) == 1:
        # the one format of this suffix: its reader names the line that is wrong
        return candidates[0].from_text(text, src)  # type: ignore[attr-defined]
    if candidates:
        raise src.error(f"unknown file type '{suffix}': expected "
                        + " or ".join(_TEXT_KINDS.get(g.name, g.name) for g in candidates), 1, 1)
    raise InputError(origin, f"unknown file type '{suffix or path.name}': expected .yaml, "
                     ".jsonl or a genre's own format (see `grader genres`)")


def parse_state(puzzle: Puzzle, text: str, origin: str):
    """A player's marks: the genre's native marks grid, or a pzprv3 board file of the puzzle."""
    from grader.io import pzprv3
    if pzprv3.looks_like_board(text):
        return pzprv3.marks_for(puzzle, text, origin).marks
    return puzzle.genre.parse_marks(puzzle, text, Source(origin, text))


def board_marks(spec: str, puzzle: Puzzle):
    """The player's marks carried by the puzzle file itself (a pzprv3 board), else None."""
    board = board_read(spec, puzzle)
    return None if board is None else board.marks


def board_read(spec: str, puzzle: Puzzle) -> "pzprv3.Read | None":
    """The puzzle file as a pzprv3 board (puzzle and progress), else None."""
    path = Path(spec)
    if path_kind(path) != "file" or path.suffix.lower() in NATIVE_SUFFIXES + (".jsonl",):
        return None
    try:
        text = read_text(path)
    except InputError:
        return None
    from grader.io import pzprv3
    return pzprv3.marks_for(puzzle, text, spec) if pzprv3.looks_like_board(text) else None


def path_kind(path: Path) -> str | None:
    """'file', 'folder', 'other' (a device or pipe) or None when nothing is there. A game ID or
    URL longer than a file name can be is simply not a file."""
    try:
        mode = path.stat().st_mode
    except (OSError, ValueError):
        return None
    return "file" if stat.S_ISREG(mode) else "folder" if stat.S_ISDIR(mode) else "other"


def read_text(path: Path) -> str:
    """A puzzle file's text: UTF-8, at most limits.MAX_BYTES (checked before reading)."""
    origin = str(path)
    try:
        with open(path, "rb") as fh:
            limits.check_bytes(os.fstat(fh.fileno()).st_size, origin)
            data = fh.read(limits.MAX_BYTES + 1)
    except OSError as exc:
        raise InputError(origin, f"cannot read: {exc.strerror or exc}") from None
    limits.check_bytes(len(data), origin)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise InputError(origin, "not a UTF-8 text file", line) from None


def _record_or_raise(item: janko.Record | InputError) -> Puzzle:
    if isinstance(item, InputError):
        raise item
    return from_record(item)


def load(spec: str, genre: str | None = None) -> Puzzle:
    """A puzzle from a path, `file.jsonl#N`, a puzz.link URL or a Tatham game ID."""
    if not spec.strip():
        raise InputError(repr(spec), "an empty argument: give a puzzle file, a puzz.link URL or a "
                         "Simon Tatham game ID")
    path = Path(spec)
    if "#" in spec and spec.split("#")[0].endswith(".jsonl") and path_kind(Path(spec.split("#")[0])) == "file":
        file, wanted = spec.rsplit("#", 1)
        for item in janko.read_records(Path(file)):
            line = item.line if isinstance(item, InputError) else int(item.src.origin.rsplit(":", 1)[1])
            rid = None if isinstance(item, InputError) else item.id
            if wanted == (str(line) if wanted.isdigit() else rid):
                return _record_or_raise(item)
        raise InputError(file, f"no record '{wanted}' (give a line number, or an id such as akari/001)")
    kind = path_kind(path)
    if kind == "file":
        return load_file(path, genre)
    if kind == "folder":
        raise InputError(spec, "is a folder, not a puzzle file (`grader batch` reads folders)")
    if kind == "other":
        raise InputError(spec, "is not a regular file (a device, pipe or socket)")
    found = load_url_or_game_id(spec, genre)
    if found is not None:
        return found
    if path.suffix or "/" in spec:
        raise InputError(spec, "no such file")
    raise InputError(spec, "not a file, a puzz.link URL or a Simon Tatham game ID")


def load_url_or_game_id(spec: str, genre: str | None = None, genre_hint: str = "--genre") -> Puzzle | None:
    """A puzzle from a puzz.link URL or a Tatham game ID (never a file), else None.
    genre_hint: how the caller names the genre option in the error when it is missing."""
    if puzzlink.looks_like_url(spec):
        pid, rest, src = puzzlink.parse_url(spec)
        from grader.genres import find
        g = find(lambda g: pid in g.puzzlink_pids, guess=pid)
        if g is None:
            raise src.error(f"puzzle type '{pid}' is not supported", part="pid")
        return g.from_puzzlink(puzzlink.split(pid, rest, src))
    if tatham.looks_like_game_id(spec):
        src = Source(spec)
        if not genre:
            raise src.error(f"a Simon Tatham game ID does not say its game: add {genre_hint} "
                            f"(for example {genre_hint} akari for Light Up)")
        g = genre_named(genre, src)
        if not g.has_tatham:
            raise src.error(f"{g.name} has no Simon Tatham game")
        params, desc = tatham.split_game_id(spec, src)
        return g.from_tatham(params, desc, src)
    return None


def load_text(text: str, genre: str | None = None, origin: str = "the puzzle") -> Puzzle:
    """A puzzle from text alone, never opening a file: a puzz.link URL, a Tatham game ID (with
    `genre`), a pzprv3 board, native YAML, or (with `genre`) the genre's own text format."""
    from grader.genres import all_genres
    limits.check_bytes(len(text.encode("utf-8", "replace")), origin)
    spec = text.strip()
    if not spec:
        raise InputError(origin, "is empty: give a puzz.link URL, a Simon Tatham game ID, "
                         "native YAML or a pzprv3 board")
    if "\n" not in spec:
        found = load_url_or_game_id(spec, genre, genre_hint="a genre")
        if found is not None:
            return found
    from grader.io import pzprv3
    if pzprv3.looks_like_board(spec):
        return pzprv3.load(text, origin)
    if re.search(r"^genre\s*:", text, re.M):
        return load_native(text, origin)
    src = Source(origin, text)
    if genre:
        g = genre_named(genre, src)
        if g.file_suffixes:     # the genre's own format (a .non nonogram, a boxed Arrows grid)
            return g.from_text(text, src)  # type: ignore[attr-defined]
    for g in all_genres():
        if g.file_suffixes and g.sniff(text):
            try:
                return g.from_text(text, src)  # type: ignore[attr-defined]
            except InputError:
                continue
    raise InputError(origin, "is not a puzz.link URL, a Simon Tatham game ID (with its genre), "
                     "native YAML (a 'genre:' line first) or a pzprv3 board")


def is_label_set(path: Path) -> bool:
    """Whether a .jsonl file is a label set (`grader validate`): its first line is a header
    {"labels": [...]} or a puzzle with its "label", not a janko record."""
    try:
        with open(path, encoding="utf-8") as f:
            first = json.loads(f.readline() or "null")
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return False
    return isinstance(first, dict) and ("labels" in first or "label" in first)


def iter_puzzles(spec: str, genre: str | None = None) -> Iterator[tuple[str, Puzzle | InputError]]:
    """(id, puzzle or the error that stopped it) for a folder, a .jsonl file or one puzzle."""
    path = Path(spec)
    kind = path_kind(path)
    if kind == "folder":
        for f in sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith(".")):
            if f.suffix.lower() in NOT_PUZZLES or "__pycache__" in f.parts:
                continue  # scripts and notes kept beside puzzles; anything else gets a row
            if f.name == "solution.txt" and f.with_name("puzzle.txt").is_file():
                continue  # a puzzle folder's answer (Japanese Arrows); puzzle.txt reads it
            if f.name == "metadata.yaml" and f.with_name("puzzle.txt").is_file():
                continue
            if f.suffix.lower() == ".jsonl" and is_label_set(f):
                continue  # difficulty labels for `grader validate`, naming puzzles found elsewhere
            try:
                if f.suffix.lower() == ".jsonl":
                    yield from iter_puzzles(str(f), genre)
                else:
                    yield str(f), load_file(f, genre)
            except InputError as exc:
                yield str(f), exc
    elif path.suffix.lower() == ".jsonl" and kind == "file":
        for item in janko.read_records(path):
            if isinstance(item, InputError):
                yield f"{spec}:{item.line}", item
                continue
            try:
                yield item.id, from_record(item)
            except InputError as exc:
                yield item.id, exc
    else:
        try:
            yield spec, load(spec, genre)
        except InputError as exc:
            yield spec, exc
