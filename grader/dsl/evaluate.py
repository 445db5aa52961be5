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
from typing import Any, Iterator

from . import ast
from .ast import Type
from .signature import NIL, OOB, Signature, World

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


class Evaluator:
    def __init__(self, sig: Signature, world: World):
        self.sig, self.world = sig, world
        self._positions = tuple(world.positions())
        self._numbers = tuple(world.numbers())
        self._position_set = frozenset(self._positions)
        self._number_set = frozenset(self._numbers)
        self._free: dict[int, frozenset[str]] = {}

    # --- terms ------------------------------------------------------------------------
    def term(self, t: ast.Term, env: dict[str, Any]) -> Any:
        if isinstance(t, ast.Var):
            return env[t.name]
        if isinstance(t, ast.Const):
            return t.value
        if isinstance(t, ast.Call):
            sym = self.sig.symbols[t.name]
            args = [self.term(a, env) for a in t.args]
            if any(a is None or (k is Type.POS and a == OOB) for a, k in zip(args, sym.args)):
                return UNDEFINED[sym.result]  # type: ignore[index]
            return sym.fn(self.world, *args)
        if isinstance(t, ast.Arith):
            a, b = self.term(t.left, env), self.term(t.right, env)
            if a is None or b is None:
                return NIL
            return a + b if t.op == "+" else a - b
        if isinstance(t, ast.Oob):
            return OOB
        if isinstance(t, ast.Nil):
            return NIL
        raise TypeError(t)

    def domain(self, name: str) -> tuple[Any, ...]:
        return self._positions if ast.type_of_var(name) is Type.POS else self._numbers

    def in_domain(self, name: str, value: Any) -> bool:
        if ast.type_of_var(name) is Type.POS:
            return value in self._position_set
        return value in self._number_set

    # --- truth ------------------------------------------------------------------------
    def holds(self, f: ast.Formula, env: dict[str, Any]) -> bool:
        if isinstance(f, ast.Compare):
            a, b = self.term(f.left, env), self.term(f.right, env)
            if f.op == "=":
                return a == b
            if f.op == "!=":
                return a != b
            return a is not None and b is not None and ORDER_OPS[f.op](a, b)
        if isinstance(f, ast.And):
            return all(self.holds(i, env) for i in f.items)
        if isinstance(f, ast.Rel):
            sym = self.sig.symbols[f.name]
            args = [self.term(a, env) for a in f.args]
            if any(a is None or (k is Type.POS and a == OOB) for a, k in zip(args, sym.args)):
                return False
            return bool(sym.fn(self.world, *args))
        if isinstance(f, ast.Not):
            return not self.holds(f.body, env)
        if isinstance(f, ast.Or):
            return any(self.holds(i, env) for i in f.items)
        if isinstance(f, ast.Implies):
            return not self.holds(f.premise, env) or self.holds(f.consequence, env)
        if isinstance(f, ast.Quant):
            inner = {k: v for k, v in env.items() if k not in {x.name for x in f.vars}}
            if f.kind == "exists":
                return next(self.solve(f.body, inner), None) is not None
            return next(self.solve(negate(f.body), inner), None) is None
        if isinstance(f, ast.TrueF):
            return True
        raise TypeError(f)

    # --- witnesses --------------------------------------------------------------------
    def free(self, f: ast.Formula) -> frozenset[str]:
        key = id(f)
        got = self._free.get(key)
        if got is None:
            got = self._free[key] = ast.free_vars(f)
        return got

    def solve(self, f: ast.Formula, env: dict[str, Any]) -> Iterator[dict[str, Any]]:
        """Every extension of env binding the open variables of f that makes f true."""
        open_ = [v for v in self.free(f) if v not in env]
        if not open_:
            if self.holds(f, env):
                yield env
            return
        if isinstance(f, ast.And):
            yield from self._solve_all(list(f.items), env)
            return
        if isinstance(f, ast.Or):
            for item in f.items:
                for e in self.solve(item, env):
                    yield from self._enumerate(f, e)
            return
        if isinstance(f, ast.Quant) and f.kind == "exists":
            names = {x.name for x in f.vars}
            inner = {k: v for k, v in env.items() if k not in names}
            seen = set()
            for e in self.solve(f.body, inner):
                out = dict(env)
                out.update({k: v for k, v in e.items() if k not in names})
                key = tuple(sorted((k, repr(v)) for k, v in out.items()))
                if key not in seen:
                    seen.add(key)
                    yield out
            return
        bound = self._bind(f, env, open_)
        if bound is not None:
            yield from bound
            return
        yield from self._enumerate(f, env)

    def _solve_all(self, items: list[ast.Formula], env: dict[str, Any]) -> Iterator[dict[str, Any]]:
        if not items:
            yield env
            return
        k = self._pick(items, env)
        rest = items[:k] + items[k + 1:]
        for e in self.solve(items[k], env):
            yield from self._solve_all(rest, e)

    def _pick(self, items: list[ast.Formula], env: dict[str, Any]) -> int:
        """The conjunct to prove next: a closed test first, then one that binds directly."""
        binder = None
        for k, item in enumerate(items):
            open_ = [v for v in self.free(item) if v not in env]
            if not open_:
                return k
            if binder is None and self._can_bind(item, env, open_):
                binder = k
        if binder is not None:
            return binder
        # Otherwise the conjunct with the fewest open variables, to enumerate least.
        return min(range(len(items)), key=lambda k: sum(1 for v in self.free(items[k]) if v not in env))

    def _can_bind(self, f: ast.Formula, env: dict[str, Any], open_: list[str]) -> bool:
        if len(open_) != 1:
            return isinstance(f, ast.Quant) and f.kind == "exists"
        x = open_[0]
        if isinstance(f, ast.Compare) and f.op == "=":
            return (isinstance(f.left, ast.Var) and f.left.name == x) or \
                (isinstance(f.right, ast.Var) and f.right.name == x)
        if isinstance(f, ast.Rel) and len(f.args) == 2:
            sym = self.sig.symbols[f.name]
            return sym.successors is not None and isinstance(f.args[1], ast.Var) and f.args[1].name == x
        return False

    def _bind(self, f: ast.Formula, env: dict[str, Any], open_: list[str]
              ) -> Iterator[dict[str, Any]] | None:
        if not self._can_bind(f, env, open_) or isinstance(f, ast.Quant):
            return None
        x = open_[0]
        if isinstance(f, ast.Compare):
            other = f.right if isinstance(f.left, ast.Var) and f.left.name == x else f.left
            if x in self.free(other):
                return None
            value = self.term(other, env)
            if self.in_domain(x, value):
                return iter(({**env, x: value},))
            return iter(())
        sym = self.sig.symbols[f.name]  # type: ignore[union-attr]
        a = self.term(f.args[0], env)  # type: ignore[union-attr]
        if a is None or (sym.args[0] is Type.POS and a == OOB):
            return iter(())
        return ({**env, x: b} for b in sym.successors(self.world, a) if self.in_domain(x, b))  # type: ignore[misc]

    def _enumerate(self, f: ast.Formula, env: dict[str, Any]) -> Iterator[dict[str, Any]]:
        open_ = sorted(v for v in self.free(f) if v not in env)
        if not open_:
            if self.holds(f, env):
                yield env
            return
        for values in itertools.product(*(self.domain(v) for v in open_)):
            e = {**env, **dict(zip(open_, values))}
            if self.holds(f, e):
                yield e

    # --- conclusions ------------------------------------------------------------------
    def keep_mask(self, c: ast.Conclusion, env: dict[str, Any], width: int) -> tuple[Any, int] | None:
        """(position, the candidates it may keep) for one conclusion under a witness, or None
        when the conclusion says nothing there (an OOB position, a nil number)."""
        pos = self.term(c.position, env)
        if pos is None or pos == OOB:
            return None
        values = [self.term(v, env) for v in c.values]
        if any(v is None for v in values):
            return None
        if c.action == "set":
            return pos, (1 << values[0]) if values[0] >= 0 else 0
        if c.action == "only":
            mask = 0
            for v in values:
                if v >= 0:
                    mask |= 1 << v
            return pos, mask
        d = values[0]
        drop = 0
        for v in range(width):
            if (c.op == "=" and v == d) or (c.op != "=" and c.op != "!=" and ORDER_OPS[c.op](v, d)) \
                    or (c.op == "!=" and v != d):
                drop |= 1 << v
        return pos, ~drop
