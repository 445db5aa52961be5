"""Facts of a state kept up to date from a recent state's instead of recomputed.

A solve moves from a state to one with a few candidates fewer, so a per-state fact (the
pieces of line, a colouring, the chains of a Numberlink board) is usually cheapest as an
update of the fact for a state seen just before: `Recent` remembers a few, `narrowed` says
what changed.
"""
from __future__ import annotations

import collections
from typing import Any, Callable, Iterable

from grader.core.model import State


def narrowed(old: tuple[int, ...], new: tuple[int, ...], limit: int) -> list[int] | None:
    """The variables whose candidates differ, when `new` only removes candidates from `old`
    and at most `limit` changed; otherwise None. Compares slices first, so unchanged stretches
    of a big board cost almost nothing."""
    if len(old) != len(new):
        return None
    out: list[int] = []
    n = len(new)
    for i in range(0, n, 64):
        j = i + 64
        if old[i:j] != new[i:j]:
            for v in range(i, min(j, n)):
                a, b = old[v], new[v]
                if a != b:
                    if b & ~a:
                        return None
                    out.append(v)
            if len(out) > limit:
                return None
    return out


def differing(old: tuple[int, ...], new: tuple[int, ...], limit: int) -> list[int] | None:
    """The cells whose candidates differ between two states in any way, when at most
    `limit` do; otherwise None. Compares slices first, as narrowed does."""
    out: list[int] = []
    n = len(new)
    for i in range(0, n, 64):
        j = i + 64
        if old[i:j] != new[i:j]:
            out.extend(v for v in range(i, min(j, n)) if old[v] != new[v])
            if len(out) > limit:
                return None
    return out


MAX_LIVE = 16                       # caches that keep their states (a few puzzles' worth)
_LIVE: "collections.deque[Recent]" = collections.deque()


class Recent:
    """The last few states a per-state fact was computed for, with the fact.

    A solve moves from a state to one with a few candidates fewer, and a trial starts one
    assumption away from the state it tests; so a fact for a new state is usually an update of
    the fact for a recent one, from the few variables that changed. Facts must depend only on
    the state (an update must give what a full computation gives, up to arbitrary labels). A
    broken position (a variable emptied, a clash, a conflict) is where updates most often fall
    short, since what they name follows the order the changes came in: most facts are found
    afresh there. tests/test_recent_facts.py checks each fact against a fresh one."""

    def __init__(self, size: int = 48, limit: int = 96, pins: int = 4):
        self.size, self.limit, self.pins = size, limit, pins
        self.items: list[tuple[tuple[int, ...], Any]] = []
        # states come back to after a detour (the state a trial starts from, again and again
        # after each branch): kept apart so long branches do not push them out
        self.pinned: list[tuple[tuple[int, ...], Any]] = []
        # the newest entry of `items` for each candidates object, by id: a state's origin is
        # found without a walk along `items` (the entries hold their candidates, so ids stay theirs)
        self.by_id: dict[int, tuple[tuple[int, ...], Any]] = {}
        # a batch keeps every puzzle it lists: only the newest caches keep their states
        _LIVE.append(self)
        while len(_LIVE) > MAX_LIVE:
            _LIVE.popleft().clear()

    def clear(self) -> None:
        self.items, self.pinned, self.by_id = [], [], {}

    def get(self, state: State, full: Callable[[], Any],
            update: Callable[[Any, tuple[int, ...], list[int]], Any]) -> Any:
        """The fact for `state`: update(old fact, old candidates, changed variables) from the
        remembered state it was made from (State.origin), else from the newest remembered
        state it narrows (update may return None to ask for `full`)."""
        cands = state.cands
        value = None
        items = self.items
        origin = state.origin
        if origin is not None and len(origin[1]) <= self.limit:
            # made by narrowing a remembered state: what changed is known
            base, changed = origin
            entry = self.by_id.get(id(base))
            if entry is None:
                entry = next((kept for kept in reversed(self.pinned) if kept[0] is base), None)
            if entry is not None:
                old, fact = entry
                value = update(fact, base, changed) if changed else fact
                if value is not None and entry is not (items[-1] if items else None):
                    self._pin(old, fact)
        order = [] if value is not None else items[-1:] + self.pinned[::-1] + items[-2::-1]
        for i, (old, fact) in enumerate(order):
            changed = narrowed(old, cands, self.limit)
            if changed is None:
                continue
            value = update(fact, old, changed) if changed else fact
            if value is not None:
                if i > 0:
                    self._pin(old, fact)
                break
        if value is None:
            value = full()
        entry = (cands, value)
        items.append(entry)
        self.by_id[id(cands)] = entry
        if len(items) > self.size:
            gone = items.pop(0)
            if self.by_id.get(id(gone[0])) is gone:
                del self.by_id[id(gone[0])]
        return value

    def _pin(self, old: tuple[int, ...], fact: Any) -> None:
        """Keep a state an update came back to past the newest (see `pinned`), once."""
        if all(old is not p for p, _ in self.pinned):
            self.pinned.append((old, fact))
            del self.pinned[:-self.pins]


def recent_of(owner: Any, name: str, limit: int = 96, size: int = 48) -> Recent:
    """The Recent cache of one per-state fact of `owner` (a puzzle or a loop graph: anything
    with a __dict__), made on first use; one per owner, so puzzles never mix their states.
    limit: the most changed variables an update is asked to handle; size: the states kept
    (see Recent)."""
    caches = owner.__dict__.setdefault("_recent_caches", {})
    cache = caches.get(name)
    if cache is None:
        cache = caches[name] = Recent(size=size, limit=limit)
    return cache


class Remembered:
    """Results worked out earlier in a solve, each with the variables it read: in a state where
    none of those variables changed, a result still holds, so it is not worked out again. Only
    saves time, decides nothing. `entries` is where they live (a solve's scratch memory, so
    they die with the solve).

    A result is looked up only in a state that narrows the one it was worked out in (the
    solve's path): decided variables never change there, so only the undecided ones read are
    kept. (Looking it up in another branch of a trial as well was tried and never hit.)"""

    def __init__(self, entries: dict, state: State, diffs: dict | None = None):
        self.entries = entries
        self.cands = state.cands
        # what changed since each state a result was worked out in; `diffs`, when given, is
        # shared with other lookups in the same state (each diff is a look along the board)
        self.diffs: dict[int, tuple[tuple[int, ...], frozenset[int] | None]] = {} if diffs is None else diffs

    @classmethod
    def in_solve(cls, name: str, state: State) -> "Remembered":
        """The results kept under `name` in the running solve's scratch memory."""
        from grader.core.engine import solve_memory      # not needed to read a puzzle
        return cls(solve_memory().setdefault(name, {}), state)

    def get(self, key: Any, default: Any = None) -> Any:
        got = self.entries.get(key)
        if got is None:
            return default
        then, read, value = got
        diff = self.changed_since(then)
        return value if diff is not None and diff.isdisjoint(read) else default

    def changed_since(self, then: tuple[int, ...]) -> frozenset[int] | None:
        """The variables changed since the candidates `then`; None unless this state narrows
        them. Found once per earlier state (shared through `diffs`)."""
        seen = self.diffs.get(id(then))
        if seen is None:
            changed = narrowed(then, self.cands, len(then))
            seen = self.diffs[id(then)] = (then, None if changed is None else frozenset(changed))
            # `then` is kept with it: its id stays its own
        return seen[1]

    def put(self, key: Any, read: Iterable[int], value: Any = True) -> None:
        """Remember `value` for `key`, read off the variables `read`."""
        cands = self.cands
        self.entries[key] = (cands, frozenset(j for j in read if cands[j] & (cands[j] - 1)), value)


def last_answer(owner: Any, name: str, key: Any, compute: Callable[[], Any]) -> Any:
    """compute(), or the answer of the last call with an equal key, kept with `owner` (a
    puzzle or a graph): the techniques of a level ask one after another with the same focus."""
    kept = owner.__dict__.get(name)
    if kept is not None and kept[0] == key:
        return kept[1]
    value = compute()
    owner.__dict__[name] = (key, value)
    return value
