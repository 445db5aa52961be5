"""Templates to sentences, in r3c4 notation."""
from __future__ import annotations

import string
from typing import Any, Iterable

from grader.core.model import Cell, Puzzle, State, single_value, values_of
from grader.core.steps import Step


def phrase_list(items: Iterable[Any]) -> str:
    """'r1c1', 'r1c1 and r1c2', 'r1c1, r1c2 and r1c3'."""
    words = [str(i) for i in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


class _Formatter(string.Formatter):
    def format_field(self, value: Any, spec: str) -> str:
        if isinstance(value, (list, tuple, set, frozenset)):
            items = sorted(value) if isinstance(value, (set, frozenset)) else value
            return phrase_list(items)
        return super().format_field(value if spec else str(value), spec)


_FMT = _Formatter()


def fill(template: str, params: dict) -> str:
    return _FMT.format(template, **params)


def sentence(step: Step) -> str:
    return fill(step.heuristic.template, dict(step.deduction.params))


def nudge(step: Step) -> str:
    return fill(step.heuristic.nudge, dict(step.deduction.params))


def var_name(puzzle: Puzzle, var: int) -> str:
    return puzzle.genre.var_name(puzzle, var)


def value_phrase(puzzle: Puzzle, value: int, negated: bool = False) -> str:
    return puzzle.genre.value_phrases[value][1 if negated else 0]


def counted(n: int, noun: str) -> str:
    """'1 bulb', '3 bulbs' (a noun with a regular plural)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def with_article(noun: str) -> str:
    """'an akari', 'a masyu': the indefinite article a noun takes (by its first letter)."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def plural(phrase: str) -> str:
    """'is empty' -> 'are empty', 'holds a bulb' -> 'hold bulbs' (for grouped cells)."""
    for one, many in (("is ", "are "), ("has ", "have "), ("holds a ", "hold "), ("holds ", "hold "),
                      ("gets a ", "get "), ("gets ", "get "), ("lies ", "lie "), ("belongs ", "belong "),
                      ("runs ", "run "), ("stays ", "stay "), ("carries ", "carry "), ("turns ", "turn "),
                      ("sends ", "send "), ("does not ", "do not ")):
        if phrase.startswith(one):
            rest = phrase[len(one):]
            if one.endswith("a ") and not rest.endswith("s"):
                rest += "s"
            return many + rest
    return phrase


def describe_removals(puzzle: Puzzle, state: State, removals: Iterable[tuple[int, int]]) -> str:
    """'r1c2 and r1c3 are empty, r2c2 holds a bulb': what a deduction establishes."""
    groups: dict[str, list[str]] = {}
    for var, mask in removals:
        after = state.cands[var] & ~mask
        v = single_value(after)
        if v is not None:
            phrase = value_phrase(puzzle, v)
            groups.setdefault(phrase, []).append(var_name(puzzle, var))
        else:
            for val in values_of(mask):
                groups.setdefault(value_phrase(puzzle, val, negated=True), []).append(var_name(puzzle, var))
    parts = [f"{phrase_list(names)} {phrase if len(names) == 1 else plural(phrase)}"
             for phrase, names in groups.items()]
    return phrase_list(parts)


def cell_list(cells: Iterable[Cell]) -> str:
    return phrase_list(sorted(cells))


def branches(step: Step, max_steps: int = 12) -> list[dict]:
    """The hypotheses behind a level-5 step: each assumption, its easier steps (up to
    `max_steps` of them) and how the branch ended, for reports and `explain`."""
    out = []
    for b in step.deduction.detail:
        trace = getattr(b, "trace", None)
        if trace is None:
            continue
        steps = [{"level": s.level, "technique": s.heuristic.id, "text": sentence(s)}
                 for s in trace.steps[:max_steps]]
        out.append({"assumption": b.label, "status": trace.status.value, "reason": trace.reason,
                    "steps": steps, "more_steps": max(0, len(trace.steps) - max_steps)})
    return out
