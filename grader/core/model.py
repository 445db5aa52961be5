"""The core model: puzzles, candidate-bitmask states, cells and violations.

A State gives every variable of a puzzle a set of remaining candidates as an int bitmask
(bit v set = value v still possible). States are immutable values: applying a deduction
returns a new State. Variables and their values are defined by each genre.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterable, Mapping

import attrs

if TYPE_CHECKING:
    from grader.core.genre import Genre


@attrs.frozen(order=True)
class Cell:
    """A grid cell, 0-based inside the code, printed 1-based as r3c4 everywhere else."""
    r: int
    c: int

    def __str__(self) -> str:
        return f"r{self.r + 1}c{self.c + 1}"


@attrs.frozen
class Meta:
    """What we know about a puzzle besides its clues."""
    title: str | None = None
    author: str | None = None
    source: str | None = None
    licence: str | None = None
    label: str | None = None          # the publisher's difficulty label
    provenance: str | None = None     # how the project obtained or generated it
    origin: str = ""                  # the file, URL or id it was read from
    id: str | None = None             # identifier within a collection (janko record, ...)


@attrs.frozen(kw_only=True, slots=False)
class Puzzle:
    """Base class of every genre's immutable puzzle.

    Subclasses add their clues. They are not slotted so that per-puzzle topology can be
    computed once with functools.cached_property (which writes straight into __dict__).
    """
    meta: Meta = Meta()
    solution: Any = None              # the given solution in the genre's own form, if any

    # The puzzle's Genre (rules, formats, rendering), set once when the genre registers.
    genre: ClassVar["Genre"]

    def once(self, name: str, make: Callable[[], Any]) -> Any:
        """A fact of the puzzle alone (a lookup table, say) made on first use and kept with it:
        cached_property for code outside the genre's class, such as a technique's tables."""
        try:
            return self.__dict__[name]
        except KeyError:
            value = self.__dict__[name] = make()
            return value

    def memo(self, name: str, limit: int) -> dict:
        """A dict of remembered answers kept with the puzzle (each keyed on all it read, so
        it holds in any state and any solve), emptied once it holds more than `limit`."""
        memo = self.__dict__.setdefault(name, {})
        if len(memo) > limit:
            memo.clear()
        return memo


def bit(value: int) -> int:
    return 1 << value


def values_of(mask: int) -> list[int]:
    """The candidate values in a mask, smallest first."""
    out, v = [], 0
    while mask:
        if mask & 1:
            out.append(v)
        mask >>= 1
        v += 1
    return out


def single_value(mask: int) -> int | None:
    """The value of a decided mask, or None when zero or several candidates remain."""
    if mask and not mask & (mask - 1):
        return mask.bit_length() - 1
    return None


@attrs.frozen(eq=False)
class State:
    """Candidates of every variable, as a tuple of bitmasks; immutable.

    `memo` caches facts derived from this state (lit cells, components, ...) so heuristics
    that run on the same state share the work. It never changes what the state means.
    """
    cands: tuple[int, ...]
    memo: dict = attrs.field(factory=dict, repr=False)
    # the candidates this state narrows and the variables that changed, when it was made by
    # narrowing another: lets per-state facts be updated without comparing the boards
    origin: tuple[tuple[int, ...], list[int]] | None = attrs.field(default=None, repr=False)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.cands == other.cands

    def __hash__(self) -> int:
        return hash(self.cands)

    def __len__(self) -> int:
        return len(self.cands)

    def __getitem__(self, var: int) -> int:
        return self.cands[var]

    def decided(self, var: int) -> bool:
        m = self.cands[var]
        return m != 0 and not m & (m - 1)

    def value(self, var: int) -> int | None:
        return single_value(self.cands[var])

    def has(self, var: int, value: int) -> bool:
        return bool(self.cands[var] >> value & 1)

    def holds(self, var: int, value: int) -> bool:
        """`var` is decided, and its value is `value`."""
        return self.cands[var] == 1 << value

    @property
    def complete(self) -> bool:
        return all(m and not m & (m - 1) for m in self.cands)

    @property
    def broken(self) -> bool:
        """Some variable has no candidate left."""
        return 0 in self.cands

    def undecided(self) -> list[int]:
        return [v for v, m in enumerate(self.cands) if m & (m - 1)]

    def remove(self, removals: Iterable[tuple[int, int]]) -> "State":
        cands = list(self.cands)
        changed = set()
        for var, mask in removals:
            if cands[var] & mask:
                cands[var] &= ~mask
                changed.add(var)
        if self.origin is not None and not self.memo:
            # nothing was worked out from this state (a step in the middle of a batch): the
            # new one is better known as a narrowing of the state this one narrows
            base, before = self.origin
            return State(tuple(cands), origin=(base, sorted(changed.union(before))))
        return State(tuple(cands), origin=(self.cands, sorted(changed)))

    def assume(self, put: Mapping[int, int]) -> "State":
        """A hypothesis: this state with each variable of `put` set to its value (a value no
        longer a candidate empties the variable)."""
        cands = list(self.cands)
        for var, value in put.items():
            cands[var] &= 1 << value
        # known as a narrowing of this state, so facts kept for this one update to it
        changed = sorted(var for var in put if cands[var] != self.cands[var])
        return State(tuple(cands), origin=(self.cands, changed))

    def restrict(self, var: int, mask: int) -> "State":
        """This state with `var` limited to the candidates in `mask`."""
        return self.remove(((var, self.cands[var] & ~mask),))

    def derived(self, key: Any, compute: Callable[[], Any]) -> Any:
        """A fact computed from this state once and shared by every heuristic."""
        try:
            return self.memo[key]
        except KeyError:
            value = self.memo[key] = compute()
            return value

    def diff(self, other: "State") -> list[int]:
        """Variables whose candidates differ between two states of one puzzle."""
        return [v for v, (a, b) in enumerate(zip(self.cands, other.cands)) if a != b]


@attrs.frozen
class Violation:
    """A broken rule in a (partial) state: the 'verifyboard' of the catalogue."""
    message: str
    cells: tuple[Cell, ...] = ()
    vars: tuple[int, ...] = ()
