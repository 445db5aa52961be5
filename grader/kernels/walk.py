"""Labelling components by a depth-first walk, for the floods whose step is too particular
for a neighbour list (side masks, parity links): the walk here, the step at the caller."""
from __future__ import annotations

from typing import Iterable, Iterator


def label_walk(label: list[int], starts: Iterable[int]) -> Iterator[tuple[int, int, list[int]]]:
    """Walks, depth first, the component of each start in `starts` that `label` does not
    label yet (-1), labelling the start with itself: yields (start, x, stack) for each member
    x as it is taken. The caller labels each cell y it joins to x's component with `start`
    (label[y] = start) and pushes it on `stack`."""
    for start in starts:
        if label[start] >= 0:
            continue
        label[start] = start
        stack = [start]
        while stack:
            yield start, stack.pop(), stack
