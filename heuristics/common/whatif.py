"""Short what-ifs at one subject (a pearl, a number, a loose end, an edge), shared by the loop
genres: every way the subject can go is drawn and followed a few steps with the easier rules.
The first subject where the ways tell something gives the step; the genre words it.

A subject whose ways told nothing is not followed again until something they read changes
(kernels.recent.Remembered, under `memory`). `around(finals, options)` says what they read: the
variables the ways set or their fills changed (`finals`: each way's last state) and what lies
beside them.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator, Sequence

from grader.core.engine import out_of_time
from grader.core.model import State
from grader.core.probing import Branch, Look, explore, failing_ways
from grader.core.registry import Heuristic
from grader.core.steps import Deduction, Trace
from grader.kernels.recent import Remembered

Options = Sequence[tuple[str, dict[int, int]]]       # (label, {var: value}): every way, together
Around = Callable[[list[State], Options], Iterable[int]]


def what_if(puzzle, state: State, subjects: Iterable[tuple[Any, Options]], memory: str,
            rules: Sequence[Heuristic], level: int, steps: int,
            conclude: Callable[[Options, list[Branch]], Deduction | None],
            around: Around, fill_with: Callable[..., Trace] | None = None) -> Iterator[tuple[Any, Deduction]]:
    """(key, deduction) for the first subject (key, options) whose ways, each followed `steps`
    steps with `rules` (levels up to `level`), let conclude(options, branches) find something.
    `fill_with`: a genre's own fill (see probing.explore)."""
    told_nothing = Remembered.in_solve(memory, state)
    for key, options in subjects:
        if told_nothing.get(key, False):
            continue
        if out_of_time():
            return
        assumptions = [(label, state.assume(put), tuple(put)) for label, put in options]
        branches = explore(puzzle, state, assumptions, level, steps, rules, stop_on_refutation=False,
                           fill_with=fill_with)
        d = conclude(options, branches)
        if d is not None:
            yield key, d
            return
        told_nothing.put(key, around([b.trace.final for b in branches], options))


def ways_that_fail(puzzle, state: State, subjects: Iterable[tuple[Any, Options]], memory: str,
                   rules: Sequence[Heuristic], passes: Sequence[int], around: Around,
                   exact: bool = True, look_with: Callable[..., Look] | None = None,
                   fill_with: Callable[..., Trace] | None = None) -> Iterator[tuple[Any, Deduction]]:
    """(key, deduction) for the first subject (key, options) where some ways, followed with
    `rules` first passes[0] steps (the short failures a reader sees first), then passes[1]...,
    reach a contradiction and what the ways left share is new (probing.failing_ways, which
    takes `look_with` and `fill_with`)."""
    told_nothing = Remembered.in_solve(memory, state)
    subjects = [(key, options) for key, options in subjects if not told_nothing.get(key, False)]
    looks: dict = {}        # (key, way) -> how far it was followed (see probing.failing_ways)
    for steps in passes:
        for key, options in subjects:
            if out_of_time():
                return
            d = failing_ways(puzzle, state, key, options, rules, steps, looks, exact=exact, look_with=look_with,
                             fill_with=fill_with)
            if d is not None:
                yield key, d
                return
    for key, options in subjects:
        told_nothing.put(key, around([looks[key, i].trace.final for i in range(len(options))
                                     if (key, i) in looks], options))
