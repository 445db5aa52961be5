"""Type checking against a genre's signature, when the rules load (never halfway through a
solve): a number variable used as a position, an unknown function, a wrong arity, comparing
a direction with a number, a free variable in a condition, or a variable in a conclusion that
the existential prefix does not bind."""
from __future__ import annotations

from grader.dsl import ast
from grader.dsl.ast import Type
from grader.dsl.signature import Signature

ORDERING = ("<", ">", "<=", ">=")
ACTIONS = ("set", "exclude", "only")


class RuleTypeError(ValueError):
    def __init__(self, message: str, at: ast.Where):
        self.message, (self.line, self.column) = message, at
        super().__init__(f"line {self.line}, column {self.column}: {message}")


def term_type(t: ast.Term, sig: Signature) -> Type:
    if isinstance(t, ast.Var):
        if t.name == "v":
            raise RuleTypeError("'v' means 'or'; it cannot name a variable", t.at)
        return t.type
    if isinstance(t, (ast.Const, ast.Nil)):
        return Type.NUM
    if isinstance(t, ast.Oob):
        return Type.POS
    if isinstance(t, ast.Arith):
        for side in (t.left, t.right):
            if term_type(side, sig) is not Type.NUM:
                raise RuleTypeError(f"'{t.op}' needs numbers, but {side} is a {term_type(side, sig).value}",
                                    side.at)
        return Type.NUM
    if isinstance(t, ast.Call):
        sym = _symbol(t.name, t.args, t.at, sig)
        if sym.is_relation:
            raise RuleTypeError(f"{t.name} is a relation, not a function: it has no value", t.at)
        return sym.result  # type: ignore[return-value]
    raise RuleTypeError(f"unknown term {t!r}", getattr(t, "at", ast.NOWHERE))


def _symbol(name: str, args: tuple[ast.Term, ...], at: ast.Where, sig: Signature):
    sym = sig.get(name)
    if sym is None:
        known = ", ".join(sorted(sig.symbols))
        raise RuleTypeError(f"unknown function or relation '{name}' (known: {known})", at)
    if len(args) != len(sym.args):
        raise RuleTypeError(f"{name} takes {len(sym.args)} argument{'s' if len(sym.args) != 1 else ''}, "
                            f"not {len(args)}", at)
    for k, (arg, want) in enumerate(zip(args, sym.args), start=1):
        got = term_type(arg, sig)
        if got is not want:
            raise RuleTypeError(f"argument {k} of {name} must be a {want.value}, but {arg} is a "
                                f"{got.value}", getattr(arg, "at", at))
    return sym


def check_formula(f: ast.Formula, sig: Signature) -> None:
    if isinstance(f, ast.TrueF):
        return
    if isinstance(f, ast.Compare):
        lt, rt = term_type(f.left, sig), term_type(f.right, sig)
        if lt is not rt:
            raise RuleTypeError(f"cannot compare {f.left} (a {lt.value}) with {f.right} (a {rt.value})", f.at)
        if f.op in ORDERING and lt is not Type.NUM:
            raise RuleTypeError(f"'{f.op}' compares numbers, but {f.left} is a {lt.value}", f.at)
        return
    if isinstance(f, ast.Rel):
        sym = _symbol(f.name, f.args, f.at, sig)
        if not sym.is_relation:
            raise RuleTypeError(f"{f.name} is a function: compare its value, e.g. {f.name}(...) = i", f.at)
        return
    if isinstance(f, ast.Not):
        check_formula(f.body, sig)
    elif isinstance(f, (ast.And, ast.Or)):
        for item in f.items:
            check_formula(item, sig)
    elif isinstance(f, ast.Implies):
        check_formula(f.premise, sig)
        check_formula(f.consequence, sig)
    elif isinstance(f, ast.Quant):
        for v in f.vars:
            if v.name == "v":
                raise RuleTypeError("'v' means 'or'; it cannot name a variable", v.at)
        check_formula(f.body, sig)
    else:
        raise RuleTypeError(f"unknown formula {f!r}", ast.NOWHERE)


def check_condition(f: ast.Formula, sig: Signature) -> tuple[ast.Var, ...]:
    """Check a condition; return its existential prefix (the witness variables)."""
    check_formula(f, sig)
    free = ast.free_vars(f)
    if free:
        name = sorted(free)[0]
        raise RuleTypeError(f"variable '{name}' is not bound by any quantifier", _find_var(f, name))
    prefix, _ = ast.existential_prefix(f)
    return prefix


def check_conclusion(c: ast.Conclusion, prefix: tuple[ast.Var, ...], sig: Signature) -> None:
    if c.action not in ACTIONS:
        raise RuleTypeError(f"unknown conclusion '{c.action}' (expected set, exclude or only)", c.at)
    if c.action == "only" and c.op != "in":
        raise RuleTypeError("only(p, [d1, ..., dn]) takes a list of numbers", c.at)
    if c.action != "only" and c.op == "in":
        raise RuleTypeError(f"{c.action} takes one number, not a list", c.at)
    if c.action == "set" and c.op != "=":
        raise RuleTypeError("set(p, d) takes a number, not a comparison", c.at)
    if term_type(c.position, sig) is not Type.POS:
        raise RuleTypeError(f"the first argument of {c.action} must be a position, but {c.position} "
                            f"is a {term_type(c.position, sig).value}", c.position.at)
    for v in c.values:
        if term_type(v, sig) is not Type.NUM:
            raise RuleTypeError(f"{v} is a {term_type(v, sig).value}, but {c.action} needs a number", v.at)
    bound = {v.name for v in prefix}
    loose = sorted(ast.free_vars(c) - bound)
    if loose:
        raise RuleTypeError(f"variable '{loose[0]}' in the conclusion is not bound by the condition's "
                            "leading exists", c.at)


def _find_var(node, name: str) -> ast.Where:
    if isinstance(node, ast.Var):
        return node.at if node.name == name else None  # type: ignore[return-value]
    for child in _children(node):
        found = _find_var(child, name)
        if found:
            return found
    return getattr(node, "at", ast.NOWHERE)


def _children(node):
    if isinstance(node, (ast.Call, ast.Rel)):
        return node.args
    if isinstance(node, (ast.Arith, ast.Compare)):
        return (node.left, node.right)
    if isinstance(node, ast.Not):
        return (node.body,)
    if isinstance(node, (ast.And, ast.Or)):
        return node.items
    if isinstance(node, ast.Implies):
        return (node.premise, node.consequence)
    if isinstance(node, ast.Quant):
        return (node.body,)
    return ()
