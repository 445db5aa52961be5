"""A report as a list of blocks, written once and rendered as Markdown or as HTML."""
from __future__ import annotations

from typing import Any, Sequence

import attrs


@attrs.frozen
class Link:
    text: str
    anchor: str                     # an id inside the same report


Span = str | Link


@attrs.frozen
class Heading:
    level: int
    text: str
    anchor: str | None = None


@attrs.frozen
class Para:
    spans: tuple[Span, ...]

    @classmethod
    def of(cls, *spans: Span) -> "Para":
        return cls(tuple(spans))


@attrs.frozen
class Facts:
    """Name: value pairs, like the header of a puzzle book page."""
    items: tuple[tuple[str, str], ...]


@attrs.frozen
class Table:
    headers: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]


@attrs.frozen
class Bars:
    """A histogram: (label, count) rows drawn as bars."""
    rows: tuple[tuple[str, int], ...]


@attrs.frozen
class Board:
    caption: str
    svg: str
    text: str


@attrs.frozen
class Boards:
    """Boards shown side by side in HTML, as text boards in Markdown."""
    boards: tuple[Board, ...]


@attrs.frozen
class StepBlock:
    """One step of a solve path: the sentence, and the board before and after it."""
    number: int
    level: int
    technique: str
    text: str
    effect: str
    before: Board
    after: Board
    bottleneck: bool = False

    @property
    def anchor(self) -> str:
        return f"step-{self.number}"


@attrs.frozen
class Steps:
    steps: tuple[StepBlock, ...]


Block = Heading | Para | Facts | Table | Bars | Boards | Steps


@attrs.frozen
class Document:
    title: str
    blocks: tuple[Block, ...]
    legend: bool = False            # explain the highlight colours (reports with boards)


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> Table:
    return Table(tuple(headers), tuple(tuple(r) for r in rows))
