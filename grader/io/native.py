"""The native YAML puzzle file, and the grid syntax shared by puzzles and player marks.

    genre: akari
    title: ...            # optional metadata: title, author, source, licence,
    difficulty: hard      #   difficulty (the publisher's label), provenance, id
    grid: |
      . 2 . . # . .
    solution: |           # optional, same shape as grid
      * 2 * . # . *

A grid row is split on whitespace; a row without whitespace is one token per character.
Every token keeps its line and column so errors can point at it.
"""
from __future__ import annotations

from typing import Any, Iterator

import attrs
import yaml

from grader.core.errors import InputError, Source
from grader.io import limits
from grader.core.model import Meta, Puzzle
from grader.genres import all_genres, get

META_KEYS = ("title", "author", "source", "licence", "difficulty", "provenance", "id")


@attrs.frozen
class Token:
    text: str
    line: int      # 1-based, in the file
    col: int       # 1-based


@attrs.frozen
class Grid:
    rows: tuple[tuple[Token, ...], ...]
    key: str

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0]) if self.rows else 0

    def cells(self) -> Iterator[tuple[int, int, Token]]:
        for r, row in enumerate(self.rows):
            for c, tok in enumerate(row):
                yield r, c, tok


def tokens_of_line(text: str, line: int, col0: int) -> tuple[Token, ...]:
    if not any(ch.isspace() for ch in text.strip()):
        stripped = text.lstrip()
        start = col0 + len(text) - len(stripped)
        return tuple(Token(ch, line, start + i) for i, ch in enumerate(stripped.rstrip()))
    out, i = [], 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        j = i
        while j < len(text) and not text[j].isspace():
            j += 1
        out.append(Token(text[i:j], line, col0 + i))
        i = j
    return tuple(out)


MAX_TOKEN = 16     # the longest grid token any genre writes is 4 characters


def check_tokens(row: tuple[Token, ...], src: Source, key: str) -> tuple[Token, ...]:
    """A long token is never a cell (and a long run of digits is not a number Python reads)."""
    for tok in row:
        if len(tok.text) > MAX_TOKEN:
            raise src.error(f"'{tok.text[:MAX_TOKEN]}...' in {key} is not a cell: "
                            f"{len(tok.text)} characters", tok.line, tok.col)
    return row


def parse_grid_text(text: str, src: Source, key: str = "grid", first_line: int = 1,
                    col0: int = 1, rectangular: bool = True) -> Grid:
    rows = []
    for k, raw in enumerate(text.splitlines()):
        if raw.strip() and not raw.lstrip().startswith("#!"):
            rows.append(check_tokens(tokens_of_line(raw, first_line + k, col0), src, key))
            if len(rows) > limits.MAX_SIDE or len(rows[-1]) > limits.MAX_SIDE:
                where = rows[-1][min(len(rows[-1]), limits.MAX_SIDE + 1) - 1]
                raise src.error(f"{key} is larger than {limits.MAX_SIDE}x{limits.MAX_SIDE}, the "
                                "largest board read", where.line, where.col)
    if not rows:
        raise src.error(f"{key} is empty", first_line)
    if rectangular:
        width = len(rows[0])
        for row in rows[1:]:
            if len(row) != width:
                raise src.error(f"{key} row has {len(row)} cells, the first row has {width}",
                                row[0].line, row[0].col)
    return Grid(tuple(rows), key)


def parse_marks_grid(text: str, src: Source, rows: int, cols: int) -> Grid:
    """A player's marks: a grid of the puzzle's own size."""
    grid = parse_grid_text(text, src, "marks")
    if (grid.height, grid.width) != (rows, cols):
        raise src.error(f"marks are {grid.height}x{grid.width} but the puzzle is {rows}x{cols}", 1, 1)
    return grid


class _AliasFound(Exception):
    def __init__(self, mark: yaml.Mark):
        self.mark = mark


class _Loader(yaml.SafeLoader):
    """The safe loader without aliases: a puzzle never needs one, and a few nested aliases
    expand to billions of nodes ("billion laughs")."""

    def compose_node(self, parent, index):  # type: ignore[override]
        if self.check_event(yaml.AliasEvent):
            raise _AliasFound(self.peek_event().start_mark)
        return super().compose_node(parent, index)


def plain_yaml(text: str, origin: str) -> Any:
    """A small YAML file beside a puzzle (metadata): safe, without aliases; errors name it."""
    try:
        loader = _Loader(text)
        node = loader.get_single_node()
        return None if node is None else loader.construct_document(node)
    except _AliasFound as alias:
        raise InputError(origin, "YAML aliases (*name) are not allowed in puzzle files",
                         alias.mark.line + 1, alias.mark.column + 1) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise InputError(origin, f"not valid YAML: {getattr(exc, 'problem', None) or exc}",
                         mark.line + 1 if mark else None, mark.column + 1 if mark else None) from None
    except (ValueError, OverflowError, RecursionError) as exc:
        raise InputError(origin, f"not valid YAML: {type(exc).__name__}") from None


class NativeSource(Source):
    """A parsed native file: its mapping, plus positions of every grid token."""

    def __init__(self, origin: str, text: str):
        super().__init__(origin, text)
        limits.check_bytes(len(text.encode("utf-8", "surrogatepass")), origin)
        try:
            loader = _Loader(text)
            self.node = loader.get_single_node()
            self.doc = loader.construct_document(self.node) if self.node is not None else None
        except _AliasFound as alias:
            raise self.error("YAML aliases (*name) are not allowed in puzzle files",
                             alias.mark.line + 1, alias.mark.column + 1) from None
        except yaml.reader.ReaderError as exc:     # a control character: no mark, a position
            before = text[:exc.position]
            ch = chr(exc.character) if isinstance(exc.character, int) else str(exc.character)
            raise self.error(f"not valid YAML: character {ascii(ch)} is not allowed",
                             before.count("\n") + 1, len(before) - before.rfind("\n")) from None
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            raise self.error(f"not valid YAML: {problem}", mark.line + 1 if mark else None,
                             mark.column + 1 if mark else None) from None
        except (ValueError, OverflowError, RecursionError) as exc:
            # the safe constructor's own failures (a timestamp out of range, nesting too deep)
            raise self.error(f"not valid YAML: {type(exc).__name__}: {exc}") from None
        if not isinstance(self.doc, dict):
            raise self.error("expected a YAML mapping with genre and grid", 1)

    def key_line(self, key: str) -> int | None:
        for k, v in getattr(self.node, "value", []):
            if k.value == key:
                return v.start_mark.line + 1
        return None

    def require(self, key: str) -> Any:
        if key not in self.doc:
            raise self.error(f"missing key '{key}'", 1)
        return self.doc[key]

    def grid(self, key: str = "grid", rectangular: bool = True) -> Grid:
        node = next((v for k, v in getattr(self.node, "value", []) if k.value == key), None)
        if node is None:
            raise self.error(f"missing key '{key}'", 1)
        if isinstance(node, yaml.SequenceNode):
            rows = []
            limits.check_count(len(node.value), f"rows in {key}", self, limits.MAX_SIDE,
                               node.start_mark.line + 1)
            for item in node.value:
                if not isinstance(item, yaml.ScalarNode):
                    raise self.error(f"{key}: each row must be a line of text, not a list or "
                                     "mapping", item.start_mark.line + 1, item.start_mark.column + 1)
                rows.append(tokens_of_line(str(item.value), item.start_mark.line + 1,
                                           item.start_mark.column + 1 + (1 if item.style else 0)))
                check_tokens(rows[-1], self, key)
                if len(rows[-1]) > limits.MAX_SIDE:
                    raise self.error(f"{key} row has {len(rows[-1])} cells: at most "
                                     f"{limits.MAX_SIDE}", item.start_mark.line + 1,
                                     item.start_mark.column + 1)
            text_rows = [r for r in rows if r]
            if not text_rows:
                raise self.error(f"{key} is empty", node.start_mark.line + 1)
            grid = Grid(tuple(text_rows), key)
            if rectangular:
                parse_grid_text("\n".join(" ".join(t.text for t in r) for r in text_rows), self, key)
            return grid
        if not isinstance(node, yaml.ScalarNode):
            raise self.error(f"{key} must be a block of text or a list of rows",
                             node.start_mark.line + 1, node.start_mark.column + 1)
        if node.style in ("|", ">"):
            first = node.start_mark.line + 2
            lines = self.text.splitlines()[first - 1:]
            indent = min((len(l) - len(l.lstrip()) for l in lines[:1] if l.strip()), default=0)
            return parse_grid_text(str(node.value), self, key, first, indent + 1, rectangular)
        return parse_grid_text(str(node.value), self, key, node.start_mark.line + 1,
                               node.start_mark.column + 1, rectangular)

    def meta(self) -> Meta:
        d = self.doc
        get = lambda k: None if d.get(k) is None else str(d.get(k))  # noqa: E731
        return Meta(title=get("title"), author=get("author"), source=get("source"),
                    licence=get("licence") or get("license"), label=get("difficulty"),
                    provenance=get("provenance"), origin=self.origin, id=get("id"))


def meta_to_native(meta: Meta) -> dict[str, Any]:
    out = {"title": meta.title, "author": meta.author, "source": meta.source,
           "licence": meta.licence, "difficulty": meta.label, "provenance": meta.provenance,
           "id": meta.id}
    return {k: v for k, v in out.items() if v is not None}


def grid_text(rows: list[list[str]]) -> str:
    return "\n".join(" ".join(row) for row in rows) + "\n"


def dump(doc: dict[str, Any]) -> str:
    """YAML with grids as literal blocks, keys in the order given."""
    class _Dumper(yaml.SafeDumper):
        pass

    def text(dumper: yaml.SafeDumper, value: str):
        style = "|" if "\n" in value else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)
    _Dumper.add_representer(str, text)
    return yaml.dump(doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1000)


def expect_size(grid: Grid, other: Grid, src: Source) -> None:
    if (grid.height, grid.width) != (other.height, other.width):
        t = other.rows[0][0]
        raise src.error(f"{other.key} is {other.height}x{other.width} but {grid.key} is "
                        f"{grid.height}x{grid.width} (rows x columns)", t.line, t.col)


def bad_token(src: Source, tok: Token, what: str) -> InputError:
    return src.error(f"unexpected '{tok.text}' in grid: expected {what}", tok.line, tok.col)


def genre_named(name: str, src: Source, part: str | None = None, line: int | None = None):
    """The genre a file names, or a one-line error listing the known ones."""
    g = get(str(name)) if isinstance(name, (str, int)) else None
    if g is None:
        known = ", ".join(x.name for x in all_genres())
        raise src.error(f"unknown genre '{name}' (known: {known})", line, part=part)
    return g


def load_native(text: str, origin: str) -> Puzzle:
    src = NativeSource(origin, text)
    genre = genre_named(src.require("genre"), src, line=src.key_line("genre"))
    return genre.from_native(src.doc, src)
