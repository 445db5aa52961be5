"""Rules become ordinary heuristics: level = complexity, order = place in the file, the rule's
explanation as the template. So the solve loop, grading, hints and reports serve rules
unchanged.

A rule heuristic proves its condition, takes the first witness whose conclusions change the
state, and reports them as one Deduction. A conclusion that contradicts the state (set a
value that is no longer a candidate) empties that cell, which the engine reports as a
contradiction: the rule engine's NoSolution.

A BacktrackRule (spec/solver-design.md) orders the empty cells by how many candidates they
have, fewest first; for each candidate it assumes it, verifies the hypothesis in mock mode
(the rules up to max_rule_complexity, from the assumed state, which is a separate value, so
the real state never changes), and on a contradiction eliminates that candidate for good.
"""
from __future__ import annotations

import itertools
from typing import Any, Callable, Iterator, Sequence

from ..heuristic import Heuristic, REGISTRY, Registry, heuristic
from ..model import Puzzle, State, values_of
from ..steps import Deduction, Status
from . import ast
from .evaluate import Evaluator
from .rules import BacktrackRule, Rule
from .signature import Signature, World

WorldFactory = Callable[[Puzzle, State], World]

BACKTRACK_TEMPLATE = ("Suppose {cell} held {value}: then {steps} lead to a contradiction "
                      "({reason}). So {cell} cannot hold {value}.")


def witnesses(rule: Rule, ev: Evaluator) -> Iterator[dict[str, Any]]:
    """Every witness of the rule's existential prefix that makes its condition true."""
    _, body = ast.existential_prefix(rule.condition)
    names = [v.name for v in rule.prefix]
    for env in ev.solve(body, {}):
        missing = [n for n in names if n not in env]
        if not missing:
            yield env
            continue
        # A prefix variable the body never mentions: any value of its domain will do.
        for values in itertools.product(*(ev.domain(n) for n in missing)):
            yield {**env, **dict(zip(missing, values))}


def rule_deduction(rule: Rule, ev: Evaluator, puzzle: Puzzle, state: State, env: dict[str, Any],
                   describe: Callable[[Puzzle, int], Any]) -> Deduction | None:
    """The conclusions under one witness, applied one by one, as a deduction (None if nothing
    changes)."""
    from ..explain import describe_removals
    keep: dict[int, int] = {}
    width = max(state.cands, default=0).bit_length()
    for c in rule.conclusions:
        got = ev.keep_mask(c, env, width)
        if got is None:
            continue
        pos, mask = got
        keep[pos] = keep.get(pos, -1) & mask
    if not keep:
        return None
    removed = tuple(sorted((v, state.cands[v] & ~m) for v, m in keep.items() if state.cands[v] & ~m))
    if not removed:
        return None
    params: dict[str, Any] = {}
    premises = []
    for var in rule.prefix:
        value = env[var.name]
        if var.type is ast.Type.POS:
            params[var.name] = describe(puzzle, value)
            if value not in keep and state.decided(value):
                premises.append(value)
        else:
            params[var.name] = value
    params["conclusion"] = describe_removals(puzzle, state, removed)
    return Deduction(removed, params, tuple(premises))


def compile_rule(rule: Rule, sig: Signature, world_of: WorldFactory, genre: str,
                 registry: Registry | None = None, order: int = 50) -> Heuristic:
    from ..genres import genre_of

    def find(puzzle: Puzzle, state: State, focus: frozenset[int] | None = None) -> Iterator[Deduction]:
        ev = Evaluator(sig, world_of(puzzle, state))
        describe = genre_of(puzzle).var_cell
        for env in witnesses(rule, ev):
            d = rule_deduction(rule, ev, puzzle, state, env, describe)
            if d is not None:
                yield d

    return heuristic(id=f"{genre}.{rule.id}", name=rule.name, genre=genre, level=rule.complexity,
                     order=order, template=rule.explanation, nudge=rule.nudge,
                     registry=registry)(find)


def compile_backtrack(rule: BacktrackRule, genre: str, lower: Callable[[], Sequence[Heuristic]],
                      registry: Registry | None = None, order: int = 50) -> Heuristic:
    from ..explain import var_name
    from ..probing import Branch, fill, probe_order

    def find(puzzle: Puzzle, state: State, focus: frozenset[int] | None = None) -> Iterator[Deduction]:
        rules = list(lower())
        for var in probe_order(state):
            for value in values_of(state.cands[var]):
                hypothesis = state.restrict(var, 1 << value)
                trace = fill(puzzle, hypothesis, (var,), rule.max_rule_complexity, rule.depth, rules)
                if trace.status is Status.CONTRADICTION:
                    n = len(trace.steps)
                    steps = ("the rules at once" if n == 0 else "one rule step" if n == 1
                             else f"{n} rule steps")
                    yield Deduction(((var, 1 << value),),
                                    {"cell": var_name(puzzle, var), "value": value, "steps": steps,
                                     "reason": trace.reason or "a rule is broken"},
                                    detail=(Branch(f"{var_name(puzzle, var)} holds {value}", trace),))

    return heuristic(id=f"{genre}.{rule.id}", name=rule.name, genre=genre, level=rule.complexity,
                     order=order, template=rule.explanation or BACKTRACK_TEMPLATE,
                     nudge=rule.nudge or "Try a hypothesis at {cell}.", registry=registry)(find)


def compile_rules(rules: Sequence[Rule | BacktrackRule], sig: Signature, world_of: WorldFactory,
                  genre: str, registry: Registry | None = None) -> list[Heuristic]:
    """Register every rule of a file as a heuristic of `genre`, in file order within a level."""
    reg = registry or REGISTRY
    out: list[Heuristic] = []
    plain: list[tuple[Rule, Heuristic]] = []
    for k, rule in enumerate(rules):
        if isinstance(rule, BacktrackRule):
            limit = rule.max_rule_complexity
            out.append(compile_backtrack(
                rule, genre, lambda limit=limit: [h for r, h in plain if r.complexity <= limit], reg, k))
        else:
            h = compile_rule(rule, sig, world_of, genre, reg, k)
            plain.append((rule, h))
            out.append(h)
    return out
