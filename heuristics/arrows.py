"""Japanese Arrows techniques: the rules of rules/arrows.yaml, compiled into heuristics.

This module supplies the genre's signature (the functions and relations rules may use, with
their meaning on a puzzle and a state) and registers every rule, so its ids read
"arrows.<rule-id>" and its level is the rule's complexity. BacktrackRule entries become the
hypothesis heuristics of spec/solver-design.md.
"""
from __future__ import annotations

from grader.dsl import compile_rules, load_rules
from grader.dsl.ast import Type
from grader.dsl.signature import NIL, OOB, Signature, Symbol
from grader.core.explain import phrase_list
from grader.genres.arrows.model import ArrowsPuzzle, seen_values
from grader.core.model import State, values_of
from grader.core.probing import register_last_resort
from grader.core.resources import rules_origin, rules_text

GENRE = "arrows"
RULES = "arrows.yaml"          # in rules/, shipped as package data
POS, NUM, DIR = Type.POS, Type.NUM, Type.DIR


class ArrowsWorld:
    """A puzzle and a state, as the rules see them. Per-cell counts are computed on demand
    and shared through the state, so every rule evaluated on one state reuses them."""

    def __init__(self, puzzle: ArrowsPuzzle, state: State):
        # no state kept: the state keeps the evaluator that keeps this world (derived), and a
        # cycle would leave every state of a solve to the collector
        self.puzzle, self.cands = puzzle, state.cands
        self._seen = state.derived("arrows.seen", lambda: [None] * puzzle.size)
        self._free = state.derived("arrows.free", lambda: [None] * puzzle.size)
        self._reach = state.derived("arrows.reach", lambda: [None] * puzzle.size)
        self._new = state.derived("arrows.new", lambda: [None] * puzzle.size)

    def positions(self) -> range:
        return range(self.puzzle.size)

    def numbers(self) -> range:
        return range(self.puzzle.n + 1)

    def seen(self, p: int) -> int:
        got = self._seen[p]
        if got is None:
            got = self._seen[p] = seen_values(self.puzzle, self.cands, p).bit_count()
        return got

    def free(self, p: int) -> int:
        got = self._free[p]
        if got is None:
            c = self.cands
            got = self._free[p] = sum(1 for q in self.puzzle.rays[p] if c[q] & (c[q] - 1))
        return got

    def reach(self, p: int) -> int:
        got = self._reach[p]
        if got is None:
            mask = 0
            for q in self.puzzle.rays[p]:
                mask |= self.cands[q]
            got = self._reach[p] = mask.bit_count()
        return got


    def describe_change(self, removed) -> str:
        """'r1c3 holds 2', 'r1c4 cannot hold 4 or 5': what a rule step establishes."""
        parts = []
        for var, mask in removed:
            left = self.cands[var] & ~mask
            cell = self.puzzle.cell(var)
            if left and not left & (left - 1):
                parts.append(f"{cell} holds {left.bit_length() - 1}")
            elif not left:
                parts.append(f"{cell} has no number left")
            else:
                gone = values_of(mask)
                words = " or ".join(map(str, gone)) if len(gone) <= 2 else \
                    ", ".join(map(str, gone[:-1])) + " or " + str(gone[-1])
                parts.append(f"{cell} cannot hold {words}")
        return phrase_list(parts)

    def may_add(self, p: int) -> int:
        """At most how many numbers the empty cells ahead of p can add to those it sees: no
        more than the empty cells that can still hold an unseen number, nor than the unseen
        numbers they can hold."""
        got = self._new[p]
        if got is None:
            c = self.cands
            seen = seen_values(self.puzzle, c, p)
            cells, union = 0, 0
            for q in self.puzzle.rays[p]:
                m = c[q]
                if m & (m - 1) and m & ~seen:
                    cells += 1
                    union |= m & ~seen
            got = self._new[p] = min(cells, union.bit_count())
        return got


def _between_free(w: ArrowsWorld, p: int, q: int):
    ray = w.puzzle.rays[p]
    if q not in w.puzzle.ray_sets[p]:
        return NIL
    c = w.cands
    return sum(1 for r in ray[:ray.index(q)] if c[r] & (c[r] - 1))


def _pointing_first(w: ArrowsWorld, q) -> list[int] | None:
    """The arrows whose first cell is q, in order (None for OOB: those are not listed)."""
    if not isinstance(q, int) or not 0 <= q < w.puzzle.size:
        return None
    rays = w.puzzle.rays
    return [p for p in w.puzzle.watchers[q] if rays[p][0] == q]


# single_value as one lookup (val is read more than anything else): a one-bit mask's number;
# an empty or undecided cell is not listed, so it reads nil
_DECIDED = {1 << v: v for v in range(64)}

SIGNATURE = Signature.of(
    Symbol("next", (POS,), POS, lambda w, p: w.puzzle.rays[p][0] if w.puzzle.rays[p] else OOB,
           "the cell the arrow at p points at first, or OOB", fixed=True, preimage=_pointing_first),
    Symbol("points_at", (POS, POS), None, lambda w, p, q: q in w.puzzle.ray_sets[p],
           "the arrow at p points at q, directly or further along its line",
           successors=lambda w, p: w.puzzle.rays[p], predecessors=lambda w, q: w.puzzle.watchers[q],
           fixed=True),
    Symbol("val", (POS,), NUM, lambda w, p: _DECIDED.get(w.cands[p]),
           "the number at p, or nil while p is empty"),
    Symbol("sees_distinct", (POS,), NUM, lambda w, p: w.seen(p),
           "how many different numbers are already written in the cells p points at"),
    Symbol("candidate", (POS, NUM), None, lambda w, p, i: bool(w.cands[p] >> i & 1) if i >= 0 else False,
           "i is still possible at p (or is its number)",
           successors=lambda w, p: values_of(w.cands[p])),
    Symbol("ahead", (POS,), NUM, lambda w, p: len(w.puzzle.rays[p]),
           "how many cells the arrow at p points at", fixed=True),
    Symbol("behind", (POS,), NUM, lambda w, p: w.puzzle.behind_counts[p],
           "how many cells lie behind p on its line", fixed=True),
    Symbol("ahead_free", (POS,), NUM, lambda w, p: w.free(p),
           "how many of the cells p points at are still empty"),
    Symbol("between_free", (POS, POS), NUM, _between_free,
           "empty cells strictly between p and q, or nil when p does not point at q"),
    Symbol("dir", (POS,), DIR, lambda w, p: w.puzzle.dirs[p], "the direction of the arrow at p", fixed=True),
    Symbol("reachable", (POS,), NUM, lambda w, p: w.reach(p),
           "how many different numbers the cells p points at can still hold between them"),
    Symbol("may_add", (POS,), NUM, lambda w, p: w.may_add(p),
           "at most how many numbers the empty cells p points at can add to those p sees"),
    # Every function of p reads only p and the cells p points at, so a change at a cell
    # matters to that cell and to the arrows pointing at it.
    affected=lambda w, changed: {x for c in changed for x in (c, *w.puzzle.watchers[c])},
    local_relation="points_at", local_readers=("val", "candidate"),
)


def load() -> list:
    return load_rules(rules_text(RULES), SIGNATURE, rules_origin(RULES))


HEURISTICS = compile_rules(load(), SIGNATURE, ArrowsWorld, GENRE)

register_last_resort(GENRE)      # the deepening nested trial, unless registered above
