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
Its explanation may show the chain: each rule step of the refuted hypothesis, what it
established and by which rule (worked out again only for the hypothesis that is reported).
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import attrs

from grader.core.engine import solve_memory
from grader.core.registry import REGISTRY, Heuristic, Registry, heuristic
from grader.core.model import Puzzle, State, values_of
from grader.core.steps import Deduction, Later
from grader.dsl import ast
from grader.dsl.evaluate import Evaluator, free_of, keep_fn, reads_candidates, solver_for
from grader.dsl.rules import BacktrackRule, Rule
from grader.dsl.signature import Signature, World
from grader.kernels.recent import Remembered

WorldFactory = Callable[[Puzzle, State], World]

BACKTRACK_TEMPLATE = ("Suppose {cell} held {value}: then {steps} to a contradiction "
                      "({reason}). So {cell} cannot hold {value}.")


def witnesses(rule: Rule, ev: Evaluator, start: dict[str, Any] | None = None
              ) -> Iterator[dict[str, Any]]:
    """Every witness of the rule's existential prefix (extending `start`) that makes its
    condition true."""
    start = dict(start or {})
    solve, missing = _body_solver(rule, tuple(start), ev)
    found = solve(ev, start)
    if not missing:
        yield from found
        return
    # A prefix variable the body never mentions: any value of its domain will do.
    for env in found:
        for values in itertools.product(*(ev.domain(n) for n in missing)):
            yield {**env, **dict(zip(missing, values))}


_BODIES: dict[int, tuple[ast.Formula, ast.Formula]] = {}     # id(condition) -> (it, its body)
_BODY_SOLVERS: dict[tuple[int, tuple[str, ...]], tuple[Rule, Any, list[str]]] = {}


def _body_solver(rule: Rule, names: tuple[str, ...], ev: Evaluator) -> tuple[Any, list[str]]:
    """ev.solve of a rule's body with `names` bound, and the prefix variables its witnesses
    leave unbound (every witness binds the body's free variables and `names`): worked out
    once per binding pattern, not on every look."""
    key = (id(rule), names)
    got = _BODY_SOLVERS.get(key)
    if got is None:
        body = _body(rule.condition)
        free = free_of(body)
        got = _BODY_SOLVERS[key] = (rule, solver_for(body, frozenset(n for n in names if n in free), ev),
                                    [v.name for v in rule.prefix if v.name not in names and v.name not in free])
    return got[1], got[2]


def _body(condition: ast.Formula) -> ast.Formula:
    """The formula under a condition's existential prefix (worked out once per rule)."""
    got = _BODIES.get(id(condition))
    if got is None:
        got = _BODIES[id(condition)] = (condition, ast.existential_prefix(condition)[1])
    return got[1]


def is_local(rule: Rule, sig: Signature) -> bool:
    """Whether the rule reads only its witness positions and the cells they point at, so a
    witness can only become true when one of those changed. Inner position quantifiers must
    be guarded (forall r (points_at(p, r) ^ ... -> ...), exists r (points_at(p, r) ^ ...)) with p
    a witness position, and only read r's own cell (val(r), candidate(r, i), r = q)."""
    if sig.affected is None or sig.local_relation is None:
        return False
    anchors = {v.name for v in rule.prefix if v.type is ast.Type.POS}
    if not anchors:
        return False
    _, body = ast.existential_prefix(rule.condition)
    return _local(body, anchors, sig)


def _conjuncts(f: ast.Formula) -> tuple[ast.Formula, ...]:
    return f.items if isinstance(f, ast.And) else (f,)


def _local(f, anchors: set[str], sig: Signature) -> bool:
    if isinstance(f, ast.Quant):
        guard_zone = f.body.premise if isinstance(f.body, ast.Implies) and f.kind == "forall" else f.body
        for v in f.vars:
            if v.type is not ast.Type.POS:
                continue
            guarded = any(isinstance(c, ast.Rel) and c.name == sig.local_relation
                          and isinstance(c.args[0], ast.Var) and c.args[0].name in anchors
                          and isinstance(c.args[1], ast.Var) and c.args[1].name == v.name
                          for c in _conjuncts(guard_zone))
            if not guarded or not _reads_only_own_cell(f.body, v.name, sig):
                return False
        return _local(f.body, anchors, sig)
    return all(_local(part, anchors, sig) for part in ast.parts(f))


def _reads_only_own_cell(node, name: str, sig: Signature) -> bool:
    if isinstance(node, (ast.Call, ast.Rel)):
        for k, arg in enumerate(node.args):
            if isinstance(arg, ast.Var) and arg.name == name:
                if not ((k == 0 and node.name in sig.local_readers)
                        or (k == 1 and node.name == sig.local_relation)):
                    return False
            elif not _reads_only_own_cell(arg, name, sig):
                return False
        return True
    if isinstance(node, ast.Compare):
        return all(isinstance(side, ast.Var) or _reads_only_own_cell(side, name, sig)
                   for side in (node.left, node.right))
    return all(_reads_only_own_cell(part, name, sig) for part in ast.parts(node))


def focused_witnesses(rule: Rule, ev: Evaluator, anchors: Sequence[int]) -> Iterator[dict[str, Any]]:
    """Witnesses with at least one witness position among `anchors` (a local rule's only
    candidates for news after the cells near the anchors changed)."""
    for name in position_names(rule):
        solve, missing = _body_solver(rule, (name,), ev)
        for x in anchors:
            # what witnesses(rule, ev, {name: x}) does, without its set-up on every anchor
            yield from solve(ev, {name: x}) if not missing else witnesses(rule, ev, {name: x})


_POSITION_NAMES: dict[int, tuple[Rule, tuple[str, ...]]] = {}


def position_names(rule: Rule) -> tuple[str, ...]:
    """The names of the rule's witness positions, in prefix order (found once per rule)."""
    got = _POSITION_NAMES.get(id(rule))
    if got is None:
        got = _POSITION_NAMES[id(rule)] = (rule, tuple(v.name for v in rule.prefix
                                                       if v.type is ast.Type.POS))
    return got[1]


def only_position(rule: Rule, sig: Signature) -> str | None:
    """The name of a local rule's one witness position, if it has only one: its witnesses come
    position by position, each reading that position and the cells it points at."""
    names = position_names(rule)
    return names[0] if len(names) == 1 and is_local(rule, sig) else None


def positions_from(passed: Remembered, key: Any, affected: Callable[[frozenset[int]], Iterable[int]],
                   size: int) -> Iterable[int] | None:
    """The positions a whole look of a rule with one witness position visits, in order: from
    the position of the last whole look's first find (kept under `key`) in a state this one
    narrows, after the positions before it near a change since; None: all of them."""
    got = passed.entries.get(key)
    changed = None if got is None else passed.changed_since(got[0])
    if changed is None:
        return None
    start = got[2]
    return itertools.chain(sorted(x for x in affected(changed) if x < start), range(start, size))


def _by_position(rule: Rule, ev: Evaluator, name: str, sites: Iterable[int] | None
                 ) -> Iterator[dict[str, Any]]:
    """The witnesses of a rule with one witness position `name`, at `sites` in turn (None:
    every position, as witnesses(rule, ev) lists them)."""
    if sites is None:
        yield from witnesses(rule, ev)
        return
    solve, missing = _body_solver(rule, (name,), ev)
    for x in sites:
        yield from solve(ev, {name: x}) if not missing else witnesses(rule, ev, {name: x})


_KEEP_FNS: dict[int, tuple[Rule, list]] = {}


def _keep_fns(rule: Rule, ev: Evaluator) -> list:
    """Evaluator.keep_mask of each of the rule's conclusions, as functions (found once)."""
    got = _KEEP_FNS.get(id(rule))
    if got is None:
        got = _KEEP_FNS[id(rule)] = (rule, [keep_fn(c, ev.sig) for c in rule.conclusions])
    return got[1]


def conclusion_masks(rule: Rule, ev: Evaluator, env: dict[str, Any], width: int) -> dict[int, int]:
    """What the conclusions under one witness let each position keep."""
    keep: dict[int, int] = {}
    world = ev.world
    for c in _keep_fns(rule, ev):
        got = c(world, env, width)
        if got is None:
            continue
        pos, mask = got
        keep[pos] = keep.get(pos, -1) & mask
    return keep


def _fixed_witnesses(rule: Rule, ev: Evaluator, puzzle: Puzzle, anchors: Sequence[int] | None,
                     width: int) -> Iterator[tuple[dict[str, Any], dict[int, int]]]:
    """The witnesses of a rule of the puzzle alone, with what their conclusions keep, in the
    order a look finds them (everywhere, or as focused_witnesses near `anchors`). They are
    the same in every state, so each piece is worked out once per puzzle (and width, which
    the masks depend on)."""
    table = puzzle.once("_dsl_fixed_witnesses", dict).setdefault((rule, width), {})
    pieces = [None] if anchors is None else [(name, x) for name in position_names(rule) for x in anchors]
    for piece in pieces:
        got = table.get(piece)
        if got is None:
            found = witnesses(rule, ev, None if piece is None else {piece[0]: piece[1]})
            got = table[piece] = [(env, conclusion_masks(rule, ev, env, width)) for env in found]
        yield from got


def rule_deduction(rule: Rule, ev: Evaluator, puzzle: Puzzle, state: State, env: dict[str, Any],
                   describe: Callable[[Puzzle, int], Any], width: int | None = None,
                   keep: dict[int, int] | None = None) -> Deduction | None:
    """The conclusions under one witness, applied one by one, as a deduction (None if nothing
    changes). `width`: the state's widest candidate mask, in bits (worked out when left out);
    `keep`: what the conclusions keep (worked out when left out). Its words are worked out
    when read: most deductions are made inside trials and counts."""
    cands = state.cands
    if keep is None:
        if width is None:
            width = max(cands, default=0).bit_length()
        fns = _keep_fns(rule, ev)
        if len(fns) == 1:
            # one conclusion (the usual rule): known already is told without building a dict
            got = fns[0](ev.world, env, width)
            if got is None or not cands[got[0]] & ~got[1]:
                return None
            keep = {got[0]: got[1]}
        else:
            keep = conclusion_masks(rule, ev, env, width)
    if not keep:
        return None
    for v, m in keep.items():
        if cands[v] & ~m:
            break
    else:
        return None                     # the usual case: already known
    removed = tuple(sorted((v, cands[v] & ~m) for v, m in keep.items() if cands[v] & ~m))
    premises = tuple(env[name] for name in position_names(rule)
                     if env[name] not in keep and state.decided(env[name]))
    return Deduction(removed, Later(_rule_params, rule, ev, puzzle, state, dict(env), describe, removed),
                     premises)


def _rule_params(rule: Rule, ev: Evaluator, puzzle: Puzzle, state: State, env: dict[str, Any],
                 describe: Callable[[Puzzle, int], Any], removed: tuple[tuple[int, int], ...]) -> dict[str, Any]:
    """A rule step's explanation fields: its witnesses (positions as r3c4) and {conclusion}."""
    from grader.core.explain import describe_removals
    params: dict[str, Any] = {var.name: describe(puzzle, env[var.name]) if var.type is ast.Type.POS
                              else env[var.name] for var in rule.prefix}
    words = getattr(ev.world, "describe_change", None)
    params["conclusion"] = (words(removed) if words is not None
                            else describe_removals(puzzle, state, removed))
    return params


def reads_state(rule: Rule, sig: Signature) -> bool:
    """Whether the rule reads the candidates at all (a symbol not marked fixed)."""
    return reads_candidates(rule.condition, sig) or any(reads_candidates(c, sig) for c in rule.conclusions)


QUIET = "dsl.quiet-fixed-rules"     # solve_memory key: rules of the puzzle alone, found quiet
# solve_memory key: per rule of the puzzle alone or with one witness position (and width), how
# many of its witnesses, or of its positions, a whole look passed before its first find, and in
# which state (one entry each: a few in all)
PASSED = "dsl.passed-witnesses"
TABLES = "_dsl_tables"              # puzzle.once key: Evaluator.tables, shared by its states


def _state_looks(sig: Signature, world_of: WorldFactory, puzzle: Puzzle, state: State
                 ) -> tuple[Evaluator, int, dict[frozenset[int], list[int]]]:
    """What every rule's look at a state shares: one evaluator (and world, with its per-state
    counts), the state's widest candidate mask in bits, and the cells near each focus."""
    return (Evaluator(sig, world_of(puzzle, state), puzzle.once(TABLES, dict)),
            max(state.cands, default=0).bit_length(), {})


def compile_rule(rule: Rule, sig: Signature, world_of: WorldFactory, genre: str,
                 registry: Registry | None = None, order: int = 50) -> Heuristic:
    local = is_local(rule, sig)
    # A rule of the puzzle alone (an arrow off the grid) always has the same witnesses and
    # conclusions: once a whole look finds nothing new, nothing narrower ever gives it more.
    fixed = not reads_state(rule, sig)
    single = only_position(rule, sig)
    looks_key = ("dsl.looks", id(sig))

    def find(puzzle: Puzzle, state: State, focus: frozenset[int] | None = None) -> Iterator[Deduction]:
        quiet = Remembered(solve_memory().setdefault(QUIET, {}), state) if fixed else None
        if quiet is not None and quiet.get(rule.id, False):
            return
        ev, width, near = state.derived(looks_key, lambda: _state_looks(sig, world_of, puzzle, state))
        describe = puzzle.genre.var_cell
        anchors = None
        if focus is not None and local:
            # every local rule of a look at this state near `focus` starts from the same cells
            anchors = near.get(focus)
            if anchors is None:
                anchors = near[focus] = sorted(sig.affected(ev.world, focus))  # type: ignore[misc]
        new = False
        if fixed:
            # A whole look goes on from the first find of the last whole look in a state this
            # one narrows: the witnesses before it gave nothing there, and candidates only go,
            # so what they keep stays kept. (The rule's looks get one step's deductions each.)
            passed = None if anchors is not None else \
                Remembered(solve_memory().setdefault(PASSED, {}), state, quiet.diffs)
            start = 0 if passed is None else passed.get((rule.id, width), 0)
            found = itertools.islice(_fixed_witnesses(rule, ev, puzzle, anchors, width), start, None)
            for at, (env, keep) in enumerate(found, start):
                d = rule_deduction(rule, ev, puzzle, state, env, describe, width, keep)
                if d is not None:
                    if passed is not None and not new:
                        passed.put((rule.id, width), (), at)
                    new = True
                    yield d
        elif anchors is None and single is not None:
            # A whole look visits the positions in order (the order of witnesses(rule, ev) for
            # such a rule: tests/test_dsl.py checks the shipped ones), and goes on from the
            # first find of the last whole look in a state this one narrows: the positions
            # before it gave nothing there, and give nothing still unless a cell they read
            # changed since.
            passed = Remembered(solve_memory().setdefault(PASSED, {}), state)
            key = (rule.id, width)
            sites = positions_from(passed, key, lambda changed: sig.affected(ev.world, changed), puzzle.size)
            for env in _by_position(rule, ev, single, sites):
                d = rule_deduction(rule, ev, puzzle, state, env, describe, width)
                if d is not None:
                    if not new:
                        passed.put(key, (), env[single])
                    new = True
                    yield d
        else:
            for env in witnesses(rule, ev) if anchors is None else focused_witnesses(rule, ev, anchors):
                d = rule_deduction(rule, ev, puzzle, state, env, describe, width)
                if d is not None:
                    yield d
        if quiet is not None and focus is None and not new:
            quiet.put(rule.id, ())

    return heuristic(id=f"{genre}.{rule.id}", name=rule.name, genre=genre, level=rule.complexity,
                     order=order, template=rule.explanation, nudge=rule.nudge, counted=rule.counted,
                     registry=registry)(find)


@attrs.frozen
class MockResult:
    """What verifying a hypothesis found: a contradiction or not, after how many rule steps."""
    contradiction: bool
    steps: int
    reason: str = ""


def mock_verify(puzzle: Puzzle, state: State, changed: Sequence[int], rules: Sequence[Heuristic],
                depth: int, chain: list[tuple[Heuristic, State, tuple]] | None = None) -> MockResult:
    """Apply the rules to a hypothesis without touching the real state (states are values):
    each step takes the first rule that makes progress near `changed`, with every witness it
    has, going on from the rule of the last step (see below). Stops at a contradiction (an
    emptied cell, or a broken rule of the genre), when no rule applies, or after `depth`
    steps. `chain`, when given, gets every step: (the rule, the state before it, what it
    removed)."""
    genre = puzzle.genre
    # Every rule looks near `changed` only, never near what later steps removed, and a rule
    # that finds nothing there is not asked again: so the rules are tried in order, each until
    # it finds nothing. (This was once meant as "near everything changed so far", through a
    # loop `for p in pending: p |= removed.keys()` that rebound p instead of growing the sets;
    # looking wider changes the forcing chains found, so the narrower look is kept.)
    focus = frozenset(changed)
    k = 0 if focus else len(rules)
    for step in range(depth + 1):
        if state.broken:
            var = state.cands.index(0)
            return MockResult(True, step, f"no value is left for {genre.var_name(puzzle, var)}")
        if step == depth:
            break
        while k < len(rules):
            h = rules[k]
            removed: dict[int, int] = {}
            for d in h.find(puzzle, state, focus):
                for var, mask in d.removals:
                    removed[var] = removed.get(var, 0) | mask
            if removed:
                break
            k += 1
        else:
            broken = genre.violations(puzzle, state)
            return MockResult(bool(broken), step, broken[0].message if broken else "")
        if chain is not None:
            chain.append((h, state, tuple(sorted(removed.items()))))
        state = state.remove(removed.items())
    broken = genre.violations(puzzle, state)
    return MockResult(bool(broken), depth, broken[0].message if broken else "")


Describe = Callable[[Puzzle, State, Sequence[tuple[int, int]]], str]


def describe_with(world_of: WorldFactory) -> Describe:
    """What removals establish, in the words of the genre's world when it has its own
    (describe_change), else the generic ones."""
    from grader.core.explain import describe_removals

    def describe(puzzle: Puzzle, state: State, removed: Sequence[tuple[int, int]]) -> str:
        words = getattr(world_of(puzzle, state), "describe_change", None)
        return words(removed) if words is not None else describe_removals(puzzle, state, removed)
    return describe


def compile_backtrack(rule: BacktrackRule, genre: str, lower: Callable[[], Sequence[Heuristic]],
                      registry: Registry | None = None, order: int = 50,
                      describe: Describe | None = None) -> Heuristic:
    from grader.core.probing import probe_order

    def find(puzzle: Puzzle, state: State, focus: frozenset[int] | None = None) -> Iterator[Deduction]:
        rules = list(lower())
        for var in probe_order(state):
            for value in values_of(state.cands[var]):
                assumed = state.restrict(var, 1 << value)
                result = mock_verify(puzzle, assumed, (var,), rules, rule.depth)
                if result.contradiction:
                    yield Deduction(((var, 1 << value),),
                                    Later(_backtrack_fields, puzzle, assumed, var, value, rules,
                                          rule.depth, result, describe))

    return heuristic(id=f"{genre}.{rule.id}", name=rule.name, genre=genre, level=rule.complexity,
                     order=order, template=rule.explanation or BACKTRACK_TEMPLATE,
                     nudge=rule.nudge or "Try a hypothesis at {cell}.", counted=rule.counted,
                     registry=registry)(find)


def _backtrack_fields(puzzle: Puzzle, assumed: State, var: int, value: int, rules: Sequence[Heuristic],
                      depth: int, result: MockResult, describe: Describe | None) -> dict[str, Any]:
    """A refuted hypothesis's explanation fields. The chain, its rule steps in order with what
    each established and by which rule, comes from the same verification again, so the hot
    loop never pays for the words."""
    from grader.core.explain import describe_removals, var_name
    n = result.steps
    steps: list[tuple[Heuristic, State, tuple]] = []
    mock_verify(puzzle, assumed, (var,), rules, depth, steps)
    words = describe or describe_removals
    chain = [f"{words(puzzle, before, removed)} ({h.info.name[0].lower()}{h.info.name[1:]})"
             for h, before, removed in steps]
    return {"cell": var_name(puzzle, var), "value": value,
            "steps": ("the rules at once lead" if n == 0 else "one rule step leads" if n == 1
                      else f"{n} rule steps lead"),
            "chain": "; then ".join(chain) if chain else "at once",
            "reason": result.reason or "a rule is broken"}


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
                rule, genre, lambda limit=limit: [h for r, h in plain if r.complexity <= limit], reg, k,
                describe_with(world_of)))
        else:
            h = compile_rule(rule, sig, world_of, genre, reg, k)
            plain.append((rule, h))
            out.append(h)
    return out
