"""Counting a clue's cells: how many already hold the value it counts, and which are still open
(Akari's walls, Minesweeper's numbers, Slitherlink's corners all ask this, in hot loops)."""
from __future__ import annotations

from typing import Iterable, Sequence


def tally(cands: Sequence[int], items: Iterable[int], decided: int, undecided: int) -> tuple[int, list[int]]:
    """(how many of `items` have exactly the mask `decided`, those whose mask is `undecided`)."""
    count, open_ = 0, []
    for i in items:
        m = cands[i]
        if m == decided:
            count += 1
        elif m == undecided:
            open_.append(i)
    return count, open_
