"""Rule text to syntax trees, with lark (LALR). A syntax error becomes a RuleSyntaxError that
names the line, the column and what was expected; nothing else ever escapes."""
from __future__ import annotations

import functools
from pathlib import Path

import lark

from grader.dsl import ast

GRAMMAR = Path(__file__).with_name("grammar.lark")

# What the parser's terminal names mean to a person.
TERMINAL_WORDS = {
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "BANG": "'!'",
    "CIRCUMFLEX": "'^'", "OR": "'v'", "CMP": "a comparison (= != < > <= >=)", "ADDOP": "'+' or '-'",
    "NAME": "a variable or a function name", "INT": "a number", "EXISTS": "'exists'", "FORALL": "'forall'",
    "__ANON_0": "'->'", "OOB": "'OOB'", "NIL": "'nil'", "$END": "the end of the text",
}


class RuleSyntaxError(ValueError):
    """A rule that does not parse: where (line and column in the rule text) and why."""

    def __init__(self, message: str, line: int, column: int):
        self.message, self.line, self.column = message, line, column
        super().__init__(f"line {line}, column {column}: {message}")


@functools.cache
def _parser() -> lark.Lark:
    return lark.Lark(GRAMMAR.read_text(), parser="lalr", start=["condition", "conclusion"],
                     propagate_positions=True, maybe_placeholders=False)


def _where(meta_or_token) -> ast.Where:
    line = getattr(meta_or_token, "line", None)
    col = getattr(meta_or_token, "column", None)
    return (line or 1, col or 1)


def _word(name: str) -> str:
    if name in TERMINAL_WORDS:
        return TERMINAL_WORDS[name]
    return name.lower() if name.startswith("__") else f"'{name.lower()}'" if len(name) < 3 else name


def _expected(names) -> str:
    words = sorted({_word(n) for n in names})
    if not words:
        return "something else"
    return words[0] if len(words) == 1 else "one of " + ", ".join(words)


@lark.v_args(meta=True)
class _ToAst(lark.Transformer):
    def condition(self, meta, items):
        return items[0] if items else ast.TrueF(_where(meta))

    def implies(self, meta, items):
        return ast.Implies(items[0], items[1], _where(meta))

    def conj(self, meta, items):
        return ast.And(tuple(items), _where(meta))

    def disj(self, meta, items):
        return ast.Or(tuple(i for i in items if not isinstance(i, lark.Token)), _where(meta))

    def negation(self, meta, items):
        return ast.Not(items[0], _where(meta))

    def quantified(self, meta, items):
        kind, names = str(items[0]), items[1]
        body = items[2] if len(items) > 2 else ast.TrueF(_where(meta))
        return ast.Quant(kind, tuple(names), body, _where(meta))

    def varlist(self, meta, items):
        return [ast.Var(str(t), _where(t)) for t in items]

    def compare(self, meta, items):
        return ast.Compare(str(items[1]), items[0], items[2], _where(meta))

    def relation(self, meta, items):
        call = items[0]
        return ast.Rel(call.name, call.args, call.at)

    def call(self, meta, items):
        return ast.Call(str(items[0]), tuple(items[1:]), _where(meta))

    def arith(self, meta, items):
        return ast.Arith(str(items[1]), items[0], items[2], _where(meta))

    def var(self, meta, items):
        return ast.Var(str(items[0]), _where(items[0]))

    def const(self, meta, items):
        return ast.Const(int(items[0]), _where(items[0]))

    def oob(self, meta, items):
        return ast.Oob(_where(meta))

    def nil(self, meta, items):
        return ast.Nil(_where(meta))

    def conclusion(self, meta, items):
        action, position, (op, values) = str(items[0]), items[1], items[2]
        return ast.Conclusion(action, position, op, tuple(values), _where(meta))

    def value(self, meta, items):
        return ("=", [items[0]])

    def bound(self, meta, items):
        return (str(items[0]), [items[1]])

    def choices(self, meta, items):
        return ("in", list(items))


def _parse(text: str, start: str):
    try:
        tree = _parser().parse(text, start=start)
    except lark.exceptions.UnexpectedCharacters as exc:
        raise RuleSyntaxError(f"unexpected character '{text[exc.pos_in_stream]}'"
                              + (f", expected {_expected(exc.allowed)}" if exc.allowed else ""),
                              exc.line, exc.column) from None
    except lark.exceptions.UnexpectedEOF as exc:
        line = text.count("\n") + 1
        column = len(text.rsplit("\n", 1)[-1]) + 1
        raise RuleSyntaxError(f"the text ends too early, expected {_expected(exc.expected)}",
                              line, column) from None
    except lark.exceptions.UnexpectedToken as exc:
        tok = exc.token
        shown = "the end of the text" if tok.type == "$END" else f"'{tok}'"
        line, column = (exc.line, exc.column) if exc.line not in (None, -1) else (
            text.count("\n") + 1, len(text.rsplit("\n", 1)[-1]) + 1)
        raise RuleSyntaxError(f"unexpected {shown}, expected {_expected(exc.expected)}",
                              line, column) from None
    except lark.exceptions.LarkError as exc:      # any other parser complaint, still one line
        raise RuleSyntaxError(str(exc).splitlines()[0], 1, 1) from None
    try:
        return _ToAst().transform(tree)
    except lark.exceptions.VisitError as exc:    # e.g. a number too long to be an int
        raise RuleSyntaxError(f"cannot read this rule: {exc.orig_exc}", 1, 1) from None


def parse_condition(text: str) -> ast.Formula:
    """A condition; the empty text means "always true"."""
    return _parse(text, "condition")


def parse_conclusion(text: str) -> ast.Conclusion:
    return _parse(text, "conclusion")
