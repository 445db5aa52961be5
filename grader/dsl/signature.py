"""The signature a genre supplies to the rule language: its functions and relations, typed,
with their meaning in a world (a puzzle and a state of candidates).

The rule language itself knows only the logic, the constants OOB, nil and the numbers, `=`,
comparisons and `+`/`-`. Everything about a genre comes from its Signature, so another genre
can expose its own functions and relations and have its heuristics written as rules too.

Values in a world: a position is a variable index (int >= 0) or OOB; a number is an int or
NIL; a direction is any hashable value, or None where undefined.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

import attrs

from grader.dsl.ast import Type

OOB = -1          # the position outside the grid
NIL = None        # "no number" (an empty cell), also the result of arithmetic on nil


class World(Protocol):
    """What rules are evaluated against: the domains to quantify over, plus whatever the
    signature's functions need (they receive the world as their first argument)."""

    def positions(self) -> Iterable[int]: ...
    def numbers(self) -> Iterable[int]: ...


@attrs.frozen
class Symbol:
    """A function (result is a Type) or a relation (result None) of the signature.

    fn(world, *args) gives the value (or truth). For a binary relation, `successors(world, a)`
    may list every b with (a, b) in the relation and `predecessors(world, b)` every a (those
    and no others), so rules can bind one side without trying every value. For a function of one argument,
    `preimage(world, value)` may list, in increasing order, every argument it maps to value (a
    superset will do; None: it cannot say), so `f(x) = value` need not try every x. `fixed`:
    it reads only the puzzle, never the state's candidates.
    """
    name: str
    args: tuple[Type, ...]
    result: Type | None
    fn: Callable[..., Any]
    doc: str = ""
    successors: Callable[[Any, Any], Iterable[Any]] | None = None
    predecessors: Callable[[Any, Any], Iterable[Any]] | None = None
    preimage: Callable[[Any, Any], Iterable[Any] | None] | None = None
    fixed: bool = False

    @property
    def is_relation(self) -> bool:
        return self.result is None


@attrs.frozen
class Signature:
    """The table of a genre's functions and relations, by name.

    `affected(world, changed)` may name the positions whose functions can read a changed cell
    (for arrows: the changed cells and every arrow pointing at one). Rules whose inner
    quantifiers only look along a witness's own line then re-check only witnesses there.
    `local_relation` is the relation such a guard uses (points_at for arrows).
    """
    symbols: dict[str, Symbol]
    affected: Callable[[Any, frozenset[int]], Iterable[int]] | None = None
    local_relation: str | None = None
    local_readers: frozenset[str] = frozenset()

    @staticmethod
    def of(*symbols: Symbol, affected=None, local_relation: str | None = None,
           local_readers: Iterable[str] = ()) -> Signature:
        table: dict[str, Symbol] = {}
        for s in symbols:
            if s.name in table:
                raise ValueError(f"symbol {s.name!r} defined twice")
            table[s.name] = s
        return Signature(table, affected, local_relation, frozenset(local_readers))

    def get(self, name: str) -> Symbol | None:
        return self.symbols.get(name)

    def describe(self) -> list[str]:
        out = []
        for s in self.symbols.values():
            args = ", ".join(a.value for a in s.args)
            kind = f"-> {s.result.value}" if s.result else "(relation)"
            out.append(f"{s.name}({args}) {kind}: {s.doc}")
        return out


def function(name: str, args: tuple[Type, ...], result: Type, doc: str = ""):
    """Decorator form: `@function("ahead", (Type.POS,), Type.NUM)`."""
    def wrap(fn: Callable[..., Any]) -> Symbol:
        return Symbol(name, args, result, fn, doc)
    return wrap
