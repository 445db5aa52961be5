"""Where a focused look goes when some of its sites read beyond the focus.

The engine asks a technique that found nothing last time to look only at what changed since
(its focus). A site whose answer reads far off (a line's other end, the white area) must be
looked at again after a change anywhere: such looks visit the sites near the focus first, in
their usual order, then the rest, so they find first what a look near the focus finds first
and miss nothing a look at the whole board finds (tests/focus_check.py checks it).
"""
from __future__ import annotations

from typing import Hashable, Iterable, Sequence, TypeVar

Site = TypeVar("Site", bound=Hashable)


def near_then_the_rest(near: Sequence[Site], every: Iterable[Site]) -> list[Site]:
    """`near`, then the rest of `every` in its order."""
    first = set(near)
    return [*near, *(i for i in every if i not in first)]
