"""Level 5: hypotheses about where a line goes on, or a cell's shape, filled in with the
easier levels."""
from __future__ import annotations

import threading
import weakref
from typing import Iterator

from grader.engine import out_of_time
from grader.genres.numberlink import OPPOSITE, WITH_SIDE, NumberlinkPuzzle, chains
from grader.heuristic import REGISTRY, heuristic
from grader.model import State
from grader.probing import PROBE_TEMPLATE, probe_cell, probe_order
from grader.steps import Deduction

from . import territory
from .common import GENRE

# --- level 5 ------------------------------------------------------------------------------

def heads(puzzle: NumberlinkPuzzle, state: State) -> list[tuple[int, int, list[tuple[int, int]]]]:
    """Loose ends of the lines drawn so far: of each number's line not yet joined, then of each
    drawn piece no number reaches yet (label 0): (label, cell, [(side, neighbour) it may go on])."""
    ch = chains(puzzle, state)
    cands, must = state.cands, ch.must

    def ways(x: int) -> list[tuple[int, int]]:
        return [(d, y) for d, y in puzzle.neighbour[x].items()
                if not must[x] & d and cands[x] & WITH_SIDE[d] and cands[y] & WITH_SIDE[OPPOSITE[d]]]
    out = []
    for lab, (a, b) in puzzle.pairs.items():
        if ch.joined(lab, puzzle):
            continue
        for end in (a, b):
            piece = ch.members.get(ch.root[end]) or [end]
            x = next((x for x in piece if x != end and must[x].bit_count() == 1), end)
            out.append((lab, x, ways(x)))
    for root, piece in sorted(ch.members.items()):
        if not ch.label_of_root.get(root):
            out.extend((0, x, ways(x)) for x in sorted(piece) if must[x].bit_count() == 1)
    return out


# Passes over the loose ends: (steps per branch, highest level in the fill). A refutation is
# mostly a long chain of level-1 and level-2 steps with one or two whole-board steps in it (a
# cell no line can reach, two cells together), so one pass with long fills at every level.
HEAD_PASSES = ((300, 4),)


def fill_heuristics(level: int) -> list:
    """The techniques a trial fills in with, up to `level`: the easiest first, except that
    the territory of level 3 (territory.py), worked out over the whole board, comes after the
    pair product of level 4: it is the costliest and seldom finds anything, so a fill asks it
    last."""
    lower = REGISTRY.for_genre(GENRE, level)
    costly = [h for h in lower if h.fn.__module__ == territory.__name__]
    return [h for h in lower if h not in costly] + costly


# A sweep stops at the first refutation, or once it has this many case analyses that agree on
# something: the others are kept for later (below), and the next sweep goes on from where this
# one stopped, so every end gets its turn.
ENOUGH = 4


def sweep(puzzle: NumberlinkPuzzle, hid: str, items: list, attempt) -> tuple[Deduction | None, list[Deduction]]:
    """Try `attempt` on the items, from where the last sweep of `hid` stopped: the first
    deduction with a refuted branch, else the first one at all; and the others found."""
    with _KEPT_LOCK:
        start = _START.setdefault(puzzle, {}).get(hid, 0) % len(items) if items else 0
    seen: list[Deduction] = []
    tried = 0
    for item in items[start:] + items[:start]:
        if out_of_time():
            break
        tried += 1
        d = attempt(item)
        if d is None:
            continue
        seen.append(d)
        if any(b.refuted for b in d.detail) or len(seen) >= ENOUGH:
            break
    with _KEPT_LOCK:
        _START.setdefault(puzzle, {})[hid] = start + tried
    if not seen:
        return None, []
    best = next((d for d in seen if any(b.refuted for b in d.detail)), seen[0])
    return best, [d for d in seen if d is not best]


# Case analyses a sweep found besides the one it used, kept per puzzle and heuristic with the
# state they were made in: what was impossible there stays impossible in every later state of
# the same solve (one whose candidates are a subset), so the next call can use them before
# sweeping again.
_KEPT: weakref.WeakKeyDictionary[NumberlinkPuzzle, dict[str, list[tuple[tuple[int, ...], Deduction]]]] = \
    weakref.WeakKeyDictionary()
_KEPT_LOCK = threading.Lock()
_START: weakref.WeakKeyDictionary[NumberlinkPuzzle, dict[str, int]] = weakref.WeakKeyDictionary()


def kept_deduction(puzzle: NumberlinkPuzzle, state: State, hid: str) -> Deduction | None:
    """A kept case analysis that still removes something in `state`."""
    import attrs
    with _KEPT_LOCK:
        kept = _KEPT.get(puzzle, {}).get(hid, [])
        while kept:
            made_in, d = kept.pop(0)
            if any(c & ~c0 for c, c0 in zip(state.cands, made_in)):
                kept.clear()            # not a later state of the one it was made in
                return None
            removals = tuple((v, m & state.cands[v]) for v, m in d.removals if m & state.cands[v])
            if removals:
                return attrs.evolve(d, removals=removals)
    return None


def keep_deductions(puzzle: NumberlinkPuzzle, state: State, hid: str, found: list[Deduction]) -> None:
    with _KEPT_LOCK:
        _KEPT.setdefault(puzzle, {})[hid] = [(state.cands, d) for d in found]


@heuristic(id="numberlink.head-ways", name="Try every way a line can go on", genre=GENRE, level=5, order=10,
           template="Try every way {line} can go on from {cell}: {outcome}.",
           nudge="Where can {line} at {cell} go next?")
def head_ways(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    import attrs

    from grader.probing import branch_deduction
    # fewest ways first, the lines of numbers before pieces no number reaches yet
    options = sorted((len(ways), not lab, lab, x, ways) for lab, x, ways in heads(puzzle, state) if len(ways) >= 2)

    def attempt(option, steps: int, level: int, lower) -> Deduction | None:
        _, _, lab, x, ways = option
        assumptions = []
        for d, y in ways:
            label = f"the line goes from {puzzle.cell(x)} to {puzzle.cell(y)}"
            assumed = state.restrict(x, WITH_SIDE[d]).restrict(y, WITH_SIDE[OPPOSITE[d]])
            assumptions.append((label, assumed, (x, y)))
        found = branch_deduction(puzzle, state, assumptions, max_level=level, max_steps=steps, heuristics=lower)
        line = f"the line of {puzzle.name(lab)}" if lab else "the drawn line"
        return found and attrs.evolve(found, params={**found.params, "line": line, "cell": puzzle.cell(x)},
                                      cells=(puzzle.cell(x),))
    found = kept_deduction(puzzle, state, "head-ways")
    if found is not None:
        yield found
        return
    for steps, level in HEAD_PASSES:
        lower = fill_heuristics(level)
        found, others = sweep(puzzle, f"head-ways {level}", options,
                              lambda option, steps=steps, level=level, lower=lower: attempt(option, steps, level, lower))
        if found is not None:
            keep_deductions(puzzle, state, "head-ways", others)
            yield found
            return


def near_heads(puzzle: NumberlinkPuzzle, state: State) -> list[int]:
    """Cells beside the loose ends, where a trial is most likely to decide something."""
    return sorted({y for _, _, ways in heads(puzzle, state) for _, y in ways})


# Passes of the cell trials: (steps per branch, highest level in the fill), as for the loose
# ends.
TRIAL_PASSES = ((300, 4),)


@heuristic(id="numberlink.trial-and-error", name="Trial and error", genre=GENRE, level=5, order=90,
           template=PROBE_TEMPLATE, nudge="Try a hypothesis at {cell}.")
def trial_and_error(puzzle: NumberlinkPuzzle, state: State, focus=None) -> Iterator[Deduction]:
    """Try each shape of a cell, as the generic trial does (grader.probing), with Numberlink's
    own passes: the cells beside the loose ends first, then the others, fewest shapes first."""
    near = near_heads(puzzle, state)
    rest = sorted(set(range(len(state.cands))) - set(near))
    found = kept_deduction(puzzle, state, "trial-and-error")
    if found is not None:
        yield found
        return
    for where, cells in (("near", near), ("far", rest)):
        for steps, level in TRIAL_PASSES:
            lower = fill_heuristics(level)
            found, others = sweep(puzzle, f"trial {where} {level}", probe_order(state, cells),
                                  lambda var, steps=steps, level=level, lower=lower:
                                  probe_cell(puzzle, state, var, level, steps, lower))
            if found is not None:
                keep_deductions(puzzle, state, "trial-and-error", others)
                yield found
                return
