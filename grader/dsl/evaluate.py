"""Proving conditions in a world, with witnesses, and turning conclusions into candidate masks.

`solve(f, env)` yields every extension of env that binds the variables of f that env leaves
open and makes f true: for the existential prefix of a rule these are its witnesses. It binds
a variable straight from an equation (`next(p) = q`) or from a relation's successors
(`points_at(p, q)` with p known) when it can, and only otherwise tries the whole domain; the
answer is the same, only faster. `forall x (phi)` is checked as "no x satisfies not phi".

Semantics of the special values: functions of OOB or nil are OOB / nil (undefined); `=`
and `!=` compare any values (so `val(p) = nil` asks whether p is still empty); an ordering
(<, >, <=, >=) with nil is false; arithmetic with nil is nil; a relation of OOB or nil is false.
"""
from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Container, Iterator
from typing import Any

import attrs

from grader.dsl import ast
from grader.dsl.ast import Type
from grader.dsl.signature import NIL, OOB, Signature, World

ORDER_OPS = {"<": operator.lt, ">": operator.gt, "<=": operator.le, ">=": operator.ge}
UNDEFINED = {Type.POS: OOB, Type.NUM: NIL, Type.DIR: None}


def negate(f: ast.Formula) -> ast.Formula:
    """not f, with the negation pushed inwards where that keeps binders visible."""
    if isinstance(f, ast.Not):
        return f.body
    if isinstance(f, ast.Implies):
        return ast.And((f.premise, negate(f.consequence)), f.at)
    if isinstance(f, ast.Or):
        return ast.And(tuple(negate(i) for i in f.items), f.at)
    if isinstance(f, ast.Compare) and f.op in ("=", "!="):
        return ast.Compare("!=" if f.op == "=" else "=", f.left, f.right, f.at)
    return ast.Not(f, getattr(f, "at", ast.NOWHERE))


# Caches keyed by the identity of syntax nodes; each entry keeps its node alive, so an id is
# never reused while its entry exists. Rules live as long as the program, so this stays small.
_TERMS: dict[int, tuple[Any, Callable[[Any, dict], Any]]] = {}
_FREE: dict[int, tuple[Any, frozenset[str]]] = {}
_NEGATED: dict[int, tuple[Any, ast.Formula]] = {}
_PLANS: dict[tuple[int, frozenset[str]], tuple[Any, tuple[int, ...]]] = {}
_HOLDS: dict[int, tuple[Any, Callable[[Any, dict], bool]]] = {}
_SOLVERS: dict[tuple[int, frozenset[str]], tuple[Any, Callable[[Any, dict], Iterator[dict]]]] = {}


def free_of(node: Any) -> frozenset[str]:
    got = _FREE.get(id(node))
    if got is None:
        got = _FREE[id(node)] = (node, ast.free_vars(node))
    return got[1]


def negated(f: ast.Formula) -> ast.Formula:
    got = _NEGATED.get(id(f))
    if got is None:
        got = _NEGATED[id(f)] = (f, negate(f))
    return got[1]


def _compile_term(t: ast.Term, sig: Signature) -> Callable[[Any, dict], Any]:
    """A term as a Python function of (world, env), built once per syntax node."""
    if isinstance(t, ast.Var):
        name = t.name
        return lambda w, env: env[name]
    if isinstance(t, ast.Const):
        value = t.value
        return lambda w, env: value
    if isinstance(t, ast.Oob):
        return lambda w, env: OOB
    if isinstance(t, ast.Nil):
        return lambda w, env: NIL
    if isinstance(t, ast.Arith):
        left, right = term_fn(t.left, sig), term_fn(t.right, sig)
        if t.op == "+":
            def add(w, env):
                a, b = left(w, env), right(w, env)
                return NIL if a is None or b is None else a + b
            return add

        def sub(w, env):
            a, b = left(w, env), right(w, env)
            return NIL if a is None or b is None else a - b
        return sub
    if isinstance(t, ast.Call):
        sym = sig.symbols[t.name]
        fn, undefined = sym.fn, UNDEFINED[sym.result]  # type: ignore[index]
        args = [term_fn(a, sig) for a in t.args]
        checks = [k is Type.POS for k in sym.args]
        if len(args) == 1 and isinstance(t.args[0], ast.Var):
            name, pos = t.args[0].name, checks[0]

            def call_var(w, env):          # f(x), the usual case: read x straight from env
                a = env[name]
                if a is None or (pos and a == OOB):
                    return undefined
                return fn(w, a)
            return call_var
        if len(args) == 1:
            (arg,), (pos,) = args, checks

            def call1(w, env):
                a = arg(w, env)
                if a is None or (pos and a == OOB):
                    return undefined
                return fn(w, a)
            return call1

        def call(w, env):
            values = [a(w, env) for a in args]
            for v, pos in zip(values, checks):
                if v is None or (pos and v == OOB):
                    return undefined
            return fn(w, *values)
        return call
    raise TypeError(t)


def term_fn(t: ast.Term, sig: Signature) -> Callable[[Any, dict], Any]:
    got = _TERMS.get(id(t))
    if got is None:
        got = _TERMS[id(t)] = (t, _compile_term(t, sig))
    return got[1]


_DOMAINS: dict[tuple[range, range], tuple[tuple, tuple, frozenset, frozenset]] = {}


def _domains(positions, numbers) -> tuple[tuple, tuple, frozenset, frozenset]:
    """The domains as tuples and sets; worked out once per pair of ranges (an evaluator is
    made for every look of every rule)."""
    key = (positions, numbers) if isinstance(positions, range) and isinstance(numbers, range) else None
    got = _DOMAINS.get(key) if key is not None else None
    if got is None:
        ps, ns = tuple(positions), tuple(numbers)
        got = (ps, ns, frozenset(ps), frozenset(ns))
        if key is not None:
            _DOMAINS[key] = got
    return got


class Evaluator:
    """Proves formulas in one world. `tables`: where conjunctions of fixed symbols keep their
    witnesses (see _tabled), shared by every evaluator of one puzzle (None: this one's own)."""

    def __init__(self, sig: Signature, world: World, tables: dict | None = None):
        self.sig, self.world = sig, world
        self.tables = {} if tables is None else tables
        (self._positions, self._numbers,
         self._position_set, self._number_set) = _domains(world.positions(), world.numbers())

    # --- terms ------------------------------------------------------------------------
    def term(self, t: ast.Term, env: dict[str, Any]) -> Any:
        return term_fn(t, self.sig)(self.world, env)

    def domain(self, name: str) -> tuple[Any, ...]:
        return self._positions if ast.type_of_var(name) is Type.POS else self._numbers

    def in_domain(self, name: str, value: Any) -> bool:
        if ast.type_of_var(name) is Type.POS:
            return value in self._position_set
        return value in self._number_set

    # --- truth ----------------------------------------------------------------------------
    def holds(self, f: ast.Formula, env: dict[str, Any]) -> bool:
        got = _HOLDS.get(id(f))
        if got is None:
            got = _HOLDS[id(f)] = (f, _compile_holds(f, self.sig))
        return got[1](self, env)

    # --- witnesses --------------------------------------------------------------------
    def free(self, f: ast.Formula) -> frozenset[str]:
        return free_of(f)

    def solve(self, f: ast.Formula, env: dict[str, Any]) -> Iterator[dict[str, Any]]:
        """Every extension of env binding the open variables of f that makes f true."""
        return _solver(f, frozenset(v for v in free_of(f) if v in env), self)(self, env)

    def _plan(self, items: tuple[ast.Formula, ...], env: dict[str, Any], node: Any) -> tuple[int, ...]:
        """The order to prove conjuncts in, given which variables are bound: it depends only
        on the names bound, so it is worked out once per conjunction and binding pattern."""
        bound = frozenset(v for v in self.free(node) if v in env)
        key = (id(node), bound)
        got = _PLANS.get(key)
        if got is None:
            names = {v: True for v in bound}
            left = list(range(len(items)))
            order = []
            while left:
                k = self._pick([items[i] for i in left], names)
                i = left.pop(k)
                order.append(i)
                for v in self.free(items[i]):
                    names[v] = True
            got = _PLANS[key] = (node, tuple(order))
        return got[1]

    def _pick(self, items: list[ast.Formula], env: dict[str, Any]) -> int:
        """The conjunct to prove next: the one that costs least to bind (a closed test first)."""
        best, best_cost = 0, None
        for k, item in enumerate(items):
            cost = self._cost(item, env)
            if cost == 0:
                return k
            if best_cost is None or cost < best_cost:
                best, best_cost = k, cost
        return best

    def _cost(self, f: ast.Formula, env: dict[str, Any]) -> float:
        """About how many candidate bindings proving f on its own would try."""
        open_ = [v for v in self.free(f) if v not in env]
        if not open_:
            return 0
        if isinstance(f, ast.Compare) and f.op == "=":
            eq = self._equation_var(f, env)
            if eq is not None:
                rest = [v for v in self.free(eq[1]) if v not in env]
                return 1 + self._size(rest)
            if len(open_) == 1 and _preimage_side(f, open_[0], env, self.sig) is not None:
                # next(p) = q with q known: the few arrows listed, not every position
                return 2
        if isinstance(f, ast.Rel) and len(open_) == 1 and self._can_bind(f, env, open_):
            return 4
        if isinstance(f, ast.Quant) and f.kind == "exists":
            return 2 + self._size(open_) / 4
        return 2 + self._size(open_)

    def _size(self, names: list[str]) -> float:
        n = 1.0
        for v in names:
            n *= len(self.domain(v))
        return n

    def _can_bind(self, f: ast.Formula, env: dict[str, Any], open_: list[str]) -> bool:
        if isinstance(f, ast.Compare) and f.op == "=":
            return self._equation_var(f, env) is not None
        if len(open_) != 1:
            return False
        x = open_[0]
        if isinstance(f, ast.Rel) and len(f.args) == 2:
            sym = self.sig.symbols[f.name]
            a, b = f.args
            return (sym.successors is not None and isinstance(b, ast.Var) and b.name == x
                    and x not in self.free(a)) or \
                (sym.predecessors is not None and isinstance(a, ast.Var) and a.name == x
                 and x not in self.free(b))
        return False

    def _equation_var(self, f: ast.Compare, env: dict[str, Any]) -> tuple[str, ast.Term] | None:
        """(x, other side) when f reads `x = term` (or `term = x`) with x open and not in term."""
        for side, other in ((f.left, f.right), (f.right, f.left)):
            if isinstance(side, ast.Var) and side.name not in env and side.name not in self.free(other):
                return side.name, other
        return None

    # --- conclusions ------------------------------------------------------------------
    def keep_mask(self, c: ast.Conclusion, env: dict[str, Any], width: int) -> tuple[Any, int] | None:
        """(position, the candidates it may keep) for one conclusion under a witness, or None
        when the conclusion says nothing there (an OOB position, a nil number)."""
        return keep_fn(c, self.sig)(self.world, env, width)


_KEEPS: dict[int, tuple[Any, Callable[[Any, dict, int], tuple[Any, int] | None]]] = {}


def keep_fn(c: ast.Conclusion, sig: Signature) -> Callable[[Any, dict, int], tuple[Any, int] | None]:
    """Evaluator.keep_mask of one conclusion as a function of (world, env, width), compiled
    once."""
    got = _KEEPS.get(id(c))
    if got is None:
        got = _KEEPS[id(c)] = (c, _compile_keep(c, sig))
    return got[1]


def _compile_keep(c: ast.Conclusion, sig: Signature) -> Callable[[Any, dict, int], tuple[Any, int] | None]:
    """Evaluator.keep_mask of one conclusion as a closure of (world, env, width)."""
    position = term_fn(c.position, sig)
    value_fns = tuple(term_fn(v, sig) for v in c.values)
    action, op = c.action, c.op
    if action == "exclude" and len(value_fns) == 1:
        (value_of,) = value_fns

        def exclude(w, env, width):       # exclude(p, > i): the usual conclusion
            pos = position(w, env)
            if pos is None or pos == OOB:
                return None
            d = value_of(w, env)
            if d is None:
                return None
            return pos, ~_dropped(op, d, width)
        return exclude

    def keep(w, env, width):
        pos = position(w, env)
        if pos is None or pos == OOB:
            return None
        values = [v(w, env) for v in value_fns]
        if None in values:
            return None
        if action == "set":
            return pos, (1 << values[0]) if values[0] >= 0 else 0
        if action == "only":
            mask = 0
            for v in values:
                if v >= 0:
                    mask |= 1 << v
            return pos, mask
        return pos, ~_dropped(op, values[0], width)
    return keep


_DROPPED: dict[tuple[str, int, int], int] = {}


def _dropped(op: str, d: int, width: int) -> int:
    """The values v in 0..width-1 with `v op d` (what exclude(p, op d) removes), as a mask
    (a few dozen of them in all: each worked out once)."""
    key = (op, d, width)
    got = _DROPPED.get(key)
    if got is None:
        got = _DROPPED[key] = _dropped_mask(op, d, width)
    return got


def _dropped_mask(op: str, d: int, width: int) -> int:
    full = (1 << width) - 1

    def below(n: int) -> int:                  # the values under n
        return (1 << max(0, min(n, width))) - 1
    if op == "=":
        return 1 << d if 0 <= d < width else 0
    if op == "!=":
        return full & ~(1 << d) if 0 <= d < width else full
    if op == "<":
        return below(d)
    if op == "<=":
        return below(d + 1)
    if op == ">":
        return full & ~below(d + 1)
    return full & ~below(d)                     # >=


# --- formulas compiled into closures ------------------------------------------------------
# holds and solve read a formula's syntax once per node (and, for solve, per set of names
# already bound, which fixes every choice the search makes): the closures do at each call only
# what depends on the world and the values bound. Children are compiled on first use, so every
# choice is made when and as the syntax-reading evaluator made it (a plan depends on the world's
# domain sizes when first worked out), and witnesses come in the same order.

Solve = Callable[["Evaluator", dict], Iterator[dict]]


def solver_for(f: ast.Formula, bound: frozenset[str], ev: Evaluator) -> Solve:
    """Evaluator.solve of f for an env that binds exactly `bound` of f's free variables."""
    return _solver(f, bound, ev)


def _solver(f: ast.Formula, bound: frozenset[str], ev: Evaluator) -> Solve:
    """The compiled solve of f when the names `bound` (of its free variables) are bound."""
    key = (id(f), bound)
    got = _SOLVERS.get(key)
    if got is None:
        got = _SOLVERS[key] = (f, _compile_solve(f, bound, ev))
    return got[1]


def _later(f: ast.Formula, bound: frozenset[str]) -> Solve:
    """_solver of a sub-formula, compiled when first called."""
    bound = frozenset(v for v in free_of(f) if v in bound)
    fn: Solve | None = None

    def call(ev, env):
        nonlocal fn
        if fn is None:
            fn = _solver(f, bound, ev)
        return fn(ev, env)
    return call


def _compile_solve(f: ast.Formula, bound: frozenset[str], ev: Evaluator) -> Solve:
    """Every extension of env binding the open variables of f that makes f true: a bound
    variable is bound by every way through (each one binds all of f's free variables), so
    which method applies is known here, once."""
    names_bound = dict.fromkeys(bound, True)      # what the analysis methods take for env
    open_ = [v for v in free_of(f) if v not in bound]
    if not open_:
        return _enumerator(f, bound, ev)
    if isinstance(f, ast.And):
        items = f.items
        plan = ev._plan(items, names_bound, f)
        parts, seen = [], set(bound)
        for k in plan:
            parts.append((items[k], frozenset(seen)))
            seen |= free_of(items[k])
        return _chain(parts, ev.sig)
    if isinstance(f, ast.Or):
        branches = [(_later(item, bound), _enumerator(f, bound | free_of(item), ev)) for item in f.items]

        def either(ev, env):
            for solve_item, rest in branches:
                for e in solve_item(ev, env):
                    yield from rest(ev, e)
        return either
    if isinstance(f, ast.Quant) and f.kind == "exists":
        names = {x.name for x in f.vars}
        body = _later(f.body, frozenset(bound - names))

        def exists(ev, env):
            inner = {k: v for k, v in env.items() if k not in names}
            seen = set()
            for e in body(ev, inner):
                out = dict(env)
                out.update({k: v for k, v in e.items() if k not in names})
                key = tuple(sorted((k, repr(v)) for k, v in out.items()))
                if key not in seen:
                    seen.add(key)
                    yield out
        return exists
    if ev._can_bind(f, names_bound, open_):
        if isinstance(f, ast.Compare):
            return _equation(f, names_bound, ev)
        return _along(f, open_[0], ev)
    return _enumerator(f, bound, ev)


def reads_candidates(node: Any, sig: Signature) -> bool:
    """Whether a formula, term or conclusion reads the state (a symbol not marked fixed)."""
    if isinstance(node, (ast.Call, ast.Rel)) and not sig.symbols[node.name].fixed:
        return True
    return any(reads_candidates(part, sig) for part in ast.parts(node))


@attrs.frozen(eq=False)
class _FixedRun:
    """Consecutive conjuncts of a plan that read only fixed symbols, each with the names bound
    before it: their witnesses depend on the puzzle and the names they read alone."""
    parts: tuple[tuple[ast.Formula, frozenset[str]], ...]
    free: frozenset[str]


def _fixed_runs(parts: list[tuple[ast.Formula, frozenset[str]]], sig: Signature
                ) -> list[tuple[Any, frozenset[str]]]:
    """The plan with each run of fixed conjuncts that binds a name as one _FixedRun."""
    out: list[tuple[Any, frozenset[str]]] = []
    run: list[tuple[ast.Formula, frozenset[str]]] = []
    for part in [*parts, None]:
        if part is not None and not reads_candidates(part[0], sig):
            run.append(part)
            continue
        free = frozenset().union(*(free_of(f) for f, _ in run))
        if run and not free <= run[0][1]:
            out.append((_FixedRun(tuple(run), free), run[0][1]))
        else:
            out.extend(run)
        run = []
        if part is not None:
            out.append(part)
    return out


def _chain(parts: list[tuple[ast.Formula, frozenset[str]]], sig: Signature, tabled: bool = True) -> Solve:
    """Conjuncts (each with the names bound before it) proved one after another, each
    extending the witnesses of the last. A conjunct whose names are all bound before it is a
    test: asked straight after the conjunct that bound them, inside its loop, with no
    generator of its own (the same witnesses in the same order, and the same tests in the same
    order, as proving it like any other conjunct). `tabled`: runs of fixed conjuncts are
    looked up (_tabled), not proved again in every state."""
    lead: list[Callable[[Any, dict], bool]] = []          # tests before any name is bound
    groups: list[tuple[tuple[Any, frozenset[str]], list]] = []
    for f, bound in _fixed_runs(parts, sig) if tabled else parts:
        if not isinstance(f, _FixedRun) and free_of(f) <= bound:
            (groups[-1][1] if groups else lead).append(_compile_holds(f, sig))
        else:
            groups.append(((f, bound), []))
    loops = _loops(groups)
    first = _all_of(lead)
    if first is None:
        return loops

    def tested_first(ev, env):
        if first(ev, env):
            yield from loops(ev, env)
    return tested_first


def _tabled(run: _FixedRun, bound: frozenset[str], ev: Evaluator) -> Solve:
    """The witnesses of a run of fixed conjuncts, found once per puzzle (in ev.tables) for
    each value of the names it reads, in the order proving the run gives them."""
    reads = tuple(sorted(run.free & bound))
    binds = tuple(sorted(run.free - bound))
    prove = _chain(list(run.parts), ev.sig, tabled=False)

    def tabled(ev, env):
        key = (run, *[env[n] for n in reads])
        got = ev.tables.get(key)
        if got is None:
            got = ev.tables[key] = [tuple(e[n] for n in binds)
                                    for e in prove(ev, {n: env[n] for n in reads})]
        for values in got:
            e = dict(env)
            e.update(zip(binds, values))
            yield e

    if len(binds) != 1:
        return tabled
    (name,) = binds

    def tabled1(ev, env):               # one name bound: the usual case
        key = (run, *[env[n] for n in reads])
        got = ev.tables.get(key)
        if got is None:
            got = ev.tables[key] = [e[name] for e in prove(ev, {n: env[n] for n in reads})]
        for value in got:
            e = dict(env)
            e[name] = value
            yield e
    return tabled1


def _all_of(tests: list[Callable[[Any, dict], bool]]) -> Callable[[Any, dict], bool] | None:
    """The conjunction of some tests, in order (None for none)."""
    if not tests:
        return None
    if len(tests) == 1:
        return tests[0]
    if len(tests) == 2:
        t0, t1 = tests
        return lambda ev, env: t0(ev, env) and t1(ev, env)
    return lambda ev, env: all(t(ev, env) for t in tests)


def _loops(groups: list[tuple[tuple[ast.Formula, frozenset[str]], list]]) -> Solve:
    """Conjuncts that bind names, each followed by its tests: up to three as plain nested loops
    (one generator, not one per conjunct and witness). Each conjunct's solver is compiled on
    its first call (see above) and then called straight from the list."""
    steps: list[Solve] = []
    for k, ((f, bound), _) in enumerate(groups):
        steps.append(_first_call(steps, k, f, bound))
    tests = [_all_of(t) for _, t in groups]
    t0 = tests[0]
    if len(steps) == 1:
        if t0 is None:
            return lambda ev, env: steps[0](ev, env)

        def loop1(ev, env):
            for e in steps[0](ev, env):
                if t0(ev, e):
                    yield e
        return loop1
    t1 = tests[1]
    if len(steps) == 2:
        def loop2(ev, env):
            for e in steps[0](ev, env):
                if t0 is None or t0(ev, e):
                    for e2 in steps[1](ev, e):
                        if t1 is None or t1(ev, e2):
                            yield e2
        return loop2
    t2 = tests[2]
    if len(steps) == 3:
        def loop3(ev, env):
            for e in steps[0](ev, env):
                if t0 is None or t0(ev, e):
                    for e2 in steps[1](ev, e):
                        if t1 is None or t1(ev, e2):
                            for e3 in steps[2](ev, e2):
                                if t2 is None or t2(ev, e3):
                                    yield e3
        return loop3
    rest = _loops(groups[3:])

    def loops(ev, env):
        for e in steps[0](ev, env):
            if t0 is None or t0(ev, e):
                for e2 in steps[1](ev, e):
                    if t1 is None or t1(ev, e2):
                        for e3 in steps[2](ev, e2):
                            if t2 is None or t2(ev, e3):
                                yield from rest(ev, e3)
    return loops


def _first_call(steps: list[Solve], k: int, f: Any, bound: frozenset[str]) -> Solve:
    """A placeholder for steps[k] that compiles the solver of f (a formula or a _FixedRun)
    when first called and puts it in its place."""
    if isinstance(f, _FixedRun):
        bound = f.free & bound

        def first_run(ev, env):
            fn = steps[k] = _tabled(f, bound, ev)
            return fn(ev, env)
        return first_run
    bound = frozenset(v for v in free_of(f) if v in bound)

    def first(ev, env):
        fn = steps[k] = _solver(f, bound, ev)
        return fn(ev, env)
    return first


def _equation(f: ast.Compare, names_bound: dict[str, bool], ev: Evaluator) -> Solve:
    """Bind x from `x = term`: try only the term's own open variables, then compute x."""
    x, other = ev._equation_var(f, names_bound)  # type: ignore[misc]
    value_of = term_fn(other, ev.sig)
    open_ = sorted(v for v in free_of(other) if v not in names_bound)
    x_is_pos = ast.type_of_var(x) is Type.POS
    if not open_:
        def compute(ev, env):
            value = value_of(ev.world, env)
            if value in (ev._position_set if x_is_pos else ev._number_set):
                e = dict(env)
                e[x] = value
                yield e
        return compute

    if len(open_) == 1:
        (y,) = open_

        y_is_pos = ast.type_of_var(y) is Type.POS

        def solve_equation1(ev, env):
            domain = ev._position_set if x_is_pos else ev._number_set
            e = dict(env)
            for value_y in ev._positions if y_is_pos else ev._numbers:
                e[y] = value_y
                value = value_of(ev.world, e)
                if value in domain:
                    out = dict(e)
                    out[x] = value
                    yield out
        return solve_equation1

    def solve_equation(ev, env):
        domain = ev._position_set if x_is_pos else ev._number_set
        for values in itertools.product(*(ev.domain(v) for v in open_)):
            e = {**env, **dict(zip(open_, values))}
            value = value_of(ev.world, e)
            if value in domain:
                e[x] = value
                yield e
    return solve_equation


def _along(f: ast.Rel, x: str, ev: Evaluator) -> Solve:
    """Bind x from a relation with its other side known, through the symbol's successors
    (or predecessors)."""
    sym = ev.sig.symbols[f.name]
    a, b = f.args
    if isinstance(b, ast.Var) and b.name == x and sym.successors is not None:
        known_term, step = a, sym.successors
    else:
        known_term, step = b, sym.predecessors
    known_of = term_fn(known_term, ev.sig)
    x_is_pos = ast.type_of_var(x) is Type.POS
    test = _compile_holds(f, ev.sig)
    if isinstance(known_term, ast.Var):
        known_name = known_term.name

        def along_var(ev, env):         # the other side a bound variable: read it from env
            known = env[known_name]
            if known is None or known == OOB:
                return
            domain = ev._position_set if x_is_pos else ev._number_set
            w = ev.world
            for y in step(w, known):
                if y in domain:         # the relation holds: step lists exactly those
                    e = dict(env)
                    e[x] = y
                    yield e
        return along_var

    def along(ev, env):
        known = known_of(ev.world, env)
        if known is None or known == OOB:
            return
        domain = ev._position_set if x_is_pos else ev._number_set
        for y in step(ev.world, known):
            if y in domain:
                e = {**env, x: y}
                if test(ev, e):
                    yield e
    return along


def _enumerator(f: ast.Formula, bound: frozenset[str], ev: Evaluator) -> Solve:
    """Try every value of f's open variables (the last resort; none open: test f)."""
    open_ = sorted(v for v in free_of(f) if v not in bound)
    holds = _compile_holds(f, ev.sig)
    if not open_:
        def check(ev, env):
            if holds(ev, env):
                yield env
        return check

    by_preimage = _preimage_of(f, open_, bound, ev)
    if by_preimage is not None:
        return by_preimage

    if len(open_) == 1:
        (y,) = open_

        y_is_pos = ast.type_of_var(y) is Type.POS

        def enumerate1(ev, env):
            e = dict(env)
            for value_y in ev._positions if y_is_pos else ev._numbers:
                e[y] = value_y
                if holds(ev, e):
                    yield dict(e)
        return enumerate1

    def enumerate_(ev, env):
        for values in itertools.product(*(ev.domain(v) for v in open_)):
            e = {**env, **dict(zip(open_, values))}
            if holds(ev, e):
                yield e
    return enumerate_


def _preimage_side(f: ast.Compare, x: str, bound: Container[str], sig: Signature
                   ) -> tuple[Callable[[Any, Any], Any], ast.Term] | None:
    """(g's preimage, the other side) when f reads `g(x) = term` (or `term = g(x)`) with every
    name of term in `bound` and g listing its preimage."""
    for side, other in ((f.left, f.right), (f.right, f.left)):
        if isinstance(side, ast.Call) and len(side.args) == 1 and isinstance(side.args[0], ast.Var) \
                and side.args[0].name == x and all(v in bound for v in free_of(other)):
            pre = sig.symbols[side.name].preimage
            if pre is not None:
                return pre, other
    return None


def _preimage_of(f: ast.Formula, open_: list[str], bound: frozenset[str], ev: Evaluator) -> Solve | None:
    """`g(x) = term` with x the one open variable, term known and g listing its preimage: try
    only the x that g maps to the term's value (in domain order, so witnesses come as before)."""
    if not (isinstance(f, ast.Compare) and f.op == "=" and len(open_) == 1):
        return None
    x = open_[0]
    found = _preimage_side(f, x, bound, ev.sig)
    if found is None:
        return None
    pre, other = found
    value_of = term_fn(other, ev.sig)
    holds = _compile_holds(f, ev.sig)
    x_is_pos = ast.type_of_var(x) is Type.POS

    def through_preimage(ev, env):
        listed = pre(ev.world, value_of(ev.world, env))
        if listed is None:
            listed = ev.domain(x)
        domain = ev._position_set if x_is_pos else ev._number_set
        for y in listed:
            if y in domain:
                e = {**env, x: y}
                if holds(ev, e):
                    yield e
    return through_preimage


def _pair_relation(fn: Callable[..., Any], a: str, b: str, a_pos: bool, b_pos: bool
                   ) -> Callable[[Any, dict], bool]:
    """A relation of two variables (the usual case: points_at(p, q), candidate(p, i)): the
    general one below, without building argument lists."""
    def rel2(ev, env):
        x, y = env[a], env[b]
        if x is None or y is None or (a_pos and x == OOB) or (b_pos and y == OOB):
            return False
        return bool(fn(ev.world, x, y))
    return rel2


def _compile_holds(f: ast.Formula, sig: Signature) -> Callable[[Any, dict], bool]:
    """Whether f holds under env (every free variable bound), as a closure of (evaluator, env)."""
    if isinstance(f, ast.Compare):
        left, right = term_fn(f.left, sig), term_fn(f.right, sig)
        if f.op in ("=", "!=") and isinstance(f.right, (ast.Const, ast.Nil)):
            value = None if isinstance(f.right, ast.Nil) else f.right.value   # val(p) = 1, val(q) != nil
            if f.op == "=":
                return lambda ev, env: left(ev.world, env) == value
            return lambda ev, env: left(ev.world, env) != value
        if f.op == "=":
            return lambda ev, env: left(ev.world, env) == right(ev.world, env)
        if f.op == "!=":
            return lambda ev, env: left(ev.world, env) != right(ev.world, env)
        op = ORDER_OPS[f.op]

        def order(ev, env):
            a, b = left(ev.world, env), right(ev.world, env)
            return a is not None and b is not None and op(a, b)
        return order
    if isinstance(f, ast.And):
        items = tuple(_compile_holds(i, sig) for i in f.items)
        if len(items) == 2:
            h0, h1 = items
            return lambda ev, env: h0(ev, env) and h1(ev, env)
        return lambda ev, env: all(h(ev, env) for h in items)
    if isinstance(f, ast.Rel):
        sym = sig.symbols[f.name]
        fn = sym.fn
        if len(f.args) == 2 and all(isinstance(a, ast.Var) for a in f.args):
            return _pair_relation(fn, f.args[0].name, f.args[1].name,
                                  sym.args[0] is Type.POS, sym.args[1] is Type.POS)
        args = tuple(term_fn(a, sig) for a in f.args)
        pos = tuple(k is Type.POS for k in sym.args)

        def rel(ev, env):
            w = ev.world
            values = [a(w, env) for a in args]
            for v, p in zip(values, pos):
                if v is None or (p and v == OOB):
                    return False
            return bool(fn(w, *values))
        return rel
    if isinstance(f, ast.Not):
        body = _compile_holds(f.body, sig)
        return lambda ev, env: not body(ev, env)
    if isinstance(f, ast.Or):
        items = tuple(_compile_holds(i, sig) for i in f.items)
        if len(items) == 2:
            h0, h1 = items
            return lambda ev, env: bool(h0(ev, env) or h1(ev, env))
        return lambda ev, env: any(h(ev, env) for h in items)
    if isinstance(f, ast.Implies):
        premise, consequence = _compile_holds(f.premise, sig), _compile_holds(f.consequence, sig)
        return lambda ev, env: not premise(ev, env) or consequence(ev, env)
    if isinstance(f, ast.Quant):
        names = {x.name for x in f.vars}
        body = f.body if f.kind == "exists" else negated(f.body)
        want = f.kind == "exists"
        # every free variable of f is bound here, so the body's bound names are known now
        solve_body = _later(body, free_of(body) - names)

        def quant(ev, env):
            # solvers never change the env they are given: it is copied only to unbind a
            # name the quantifier reuses
            inner = env if names.isdisjoint(env) else {k: v for k, v in env.items() if k not in names}
            return (next(solve_body(ev, inner), None) is not None) == want
        return quant
    if isinstance(f, ast.TrueF):
        return lambda ev, env: True
    raise TypeError(f)
