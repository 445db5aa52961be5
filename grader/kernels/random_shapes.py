"""Random shapes the planters share: board sizes that favour the extremes."""
from __future__ import annotations

import random


def board_size(rng: random.Random, smallest: int = 1, largest: int = 10) -> tuple[int, int]:
    """(rows, cols): often tiny or thin boards, sometimes square, sometimes as large as allowed."""
    pick = rng.random()
    if pick < 0.3:                                   # tiny
        return rng.randint(smallest, min(smallest + 2, largest)), rng.randint(smallest, min(smallest + 2, largest))
    if pick < 0.45:                                  # one thin line
        n = rng.randint(smallest, largest)
        return (smallest, n) if rng.random() < 0.5 else (n, smallest)
    if pick < 0.55:                                  # the largest
        return largest, largest
    return rng.randint(smallest, largest), rng.randint(smallest, largest)


def share(rng: random.Random) -> float:
    """The share of clues to keep: all of them often, else anything from none up."""
    pick = rng.random()
    if pick < 0.35:
        return 1.0
    if pick < 0.45:
        return 0.0
    return rng.random()
