"""Plain-text boards: one token per cell, columns aligned."""
from __future__ import annotations

from typing import Sequence


def grid(rows: Sequence[Sequence[str]]) -> str:
    width = max((len(t) for row in rows for t in row), default=1)
    return "\n".join(" ".join(t.rjust(width) for t in row).rstrip() for row in rows)
