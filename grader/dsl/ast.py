"""The syntax tree of rule conditions and conclusions (frozen values).

Terms: Var, Const, Oob, Nil, Call, Arith. Formulas: TrueF, Compare, Rel, Not, And, Or,
Implies, Quant. Conclusion: an action (set / exclude / only) on a position term.
Every node keeps the (line, column) where it starts in the rule text, for error messages.
"""
from __future__ import annotations

import enum
from typing import Union

import attrs


class Type(str, enum.Enum):
    POS = "position"
    NUM = "number"
    DIR = "direction"


# Letters of position variables (p, q, r, ...); every other letter except v is a number.
POSITION_LETTERS = frozenset("pqrstuwxyz")


def type_of_var(name: str) -> Type:
    return Type.POS if name in POSITION_LETTERS else Type.NUM


Where = tuple[int, int]          # (line, column), 1-based, within the rule text
NOWHERE: Where = (1, 1)


@attrs.frozen
class Var:
    name: str
    at: Where = attrs.field(default=NOWHERE, eq=False)

    @property
    def type(self) -> Type:
        return type_of_var(self.name)

    def __str__(self) -> str:
        return self.name


@attrs.frozen
class Const:
    value: int
    at: Where = attrs.field(default=NOWHERE, eq=False)

    def __str__(self) -> str:
        return str(self.value)


@attrs.frozen
class Oob:
    at: Where = attrs.field(default=NOWHERE, eq=False)

    def __str__(self) -> str:
        return "OOB"


@attrs.frozen
class Nil:
    at: Where = attrs.field(default=NOWHERE, eq=False)

    def __str__(self) -> str:
        return "nil"


@attrs.frozen
class Call:
    name: str
    args: tuple[Term, ...]
    at: Where = attrs.field(default=NOWHERE, eq=False)

    def __str__(self) -> str:
        return f"{self.name}({', '.join(map(str, self.args))})"


@attrs.frozen
class Arith:
    op: str                      # "+" or "-"
    left: Term
    right: Term
    at: Where = attrs.field(default=NOWHERE, eq=False)

    def __str__(self) -> str:
        return f"{self.left}{self.op}{self.right}"


Term = Union[Var, Const, Oob, Nil, Call, Arith]


@attrs.frozen
class TrueF:
    at: Where = attrs.field(default=NOWHERE, eq=False)


@attrs.frozen
class Compare:
    op: str                      # = != < > <= >=
    left: Term
    right: Term
    at: Where = attrs.field(default=NOWHERE, eq=False)


@attrs.frozen
class Rel:
    name: str
    args: tuple[Term, ...]
    at: Where = attrs.field(default=NOWHERE, eq=False)


@attrs.frozen
class Not:
    body: Formula
    at: Where = attrs.field(default=NOWHERE, eq=False)


@attrs.frozen
class And:
    items: tuple[Formula, ...]
    at: Where = attrs.field(default=NOWHERE, eq=False)


@attrs.frozen
class Or:
    items: tuple[Formula, ...]
    at: Where = attrs.field(default=NOWHERE, eq=False)


@attrs.frozen
class Implies:
    premise: Formula
    consequence: Formula
    at: Where = attrs.field(default=NOWHERE, eq=False)


@attrs.frozen
class Quant:
    kind: str                    # "exists" or "forall"
    vars: tuple[Var, ...]
    body: Formula
    at: Where = attrs.field(default=NOWHERE, eq=False)


Formula = Union[TrueF, Compare, Rel, Not, And, Or, Implies, Quant]


@attrs.frozen
class Conclusion:
    action: str                  # "set", "exclude" or "only"
    position: Term
    op: str                      # "=" for a value, a comparison for exclude(p, >d), "in" for only
    values: tuple[Term, ...]
    at: Where = attrs.field(default=NOWHERE, eq=False)

    def __str__(self) -> str:
        if self.action == "only":
            return f"only({self.position}, [{', '.join(map(str, self.values))}])"
        op = "" if self.op == "=" else self.op
        return f"{self.action}({self.position}, {op}{self.values[0]})"


def parts(node) -> tuple:
    """The direct sub-terms and sub-formulas of a node (none for a leaf)."""
    if isinstance(node, (Call, Rel)):
        return tuple(node.args)
    if isinstance(node, (Arith, Compare)):
        return (node.left, node.right)
    if isinstance(node, (Not, Quant)):
        return (node.body,)
    if isinstance(node, (And, Or)):
        return tuple(node.items)
    if isinstance(node, Implies):
        return (node.premise, node.consequence)
    if isinstance(node, Conclusion):
        return (node.position, *node.values)
    if isinstance(node, (Var, Const, Oob, Nil, TrueF)):
        return ()
    raise TypeError(node)


def free_vars(node) -> frozenset[str]:
    """Variables of a term or formula that no quantifier inside it binds."""
    if isinstance(node, Var):
        return frozenset((node.name,))
    inner = frozenset().union(*map(free_vars, parts(node)))
    return inner - {v.name for v in node.vars} if isinstance(node, Quant) else inner


def existential_prefix(f: Formula) -> tuple[tuple[Var, ...], Formula]:
    """The variables of the leading `exists` quantifiers, and the formula under them."""
    out: list[Var] = []
    while isinstance(f, Quant) and f.kind == "exists":
        names = [v.name for v in f.vars]
        if len(set(names)) != len(names) or any(v.name in names for v in out):
            break       # a quantifier that binds a name again starts the body
        out.extend(f.vars)
        f = f.body
    return tuple(out), f
