"""Disjoint sets (union-find) over 0..n-1, for the pieces that lines and bridges join.

A flat list of parents with path halving: these run inside trials, hundreds of thousands of
times a solve, so no ranks or per-element objects. `union(a, b)` always hangs a's root under
b's, so the roots (which callers use as group labels) do not depend on the set sizes.
"""
from __future__ import annotations

from typing import Iterable


class UnionFind:
    __slots__ = ("parent",)

    def __init__(self, n: int = 0, parent: Iterable[int] | None = None):
        """n singletons, or a forest given by its parents (each root its own parent)."""
        self.parent = list(range(n)) if parent is None else list(parent)

    def add(self) -> int:
        """A new singleton; its element."""
        x = len(self.parent)
        self.parent.append(x)
        return x

    def find(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            parent[x] = x = parent[parent[x]]
        return x

    def union(self, a: int, b: int) -> bool:
        """Join a's set to b's (a's root goes under b's); False when they were already one."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        self.parent[ra] = rb
        return True
