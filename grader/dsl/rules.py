"""Rule files: YAML mappings of rule id to a rule, checked completely when they load.

    same-way-next:
      name: The next arrow points the same way
      complexity: 2
      condition: exists p,q,i (next(p) = q ^ dir(p) = dir(q) ^ val(q) = i)
      conclusions:
        - only(p, [i, i+1])
      explanation: "{p} sees {q} and everything {q} sees, so {conclusion}."
      nudge: "Compare {p} with the arrow in front of it."   # optional

    trial:
      name: Trial and error
      type: BacktrackRule
      complexity: 5
      max_rule_complexity: 4      # rules the hypothesis may use (mock mode)
      depth: 60                   # at most this many rule steps per hypothesis
      counted: false              # optional (default true): see HeuristicInfo.counted

The explanation may use the witness variables of the condition's leading `exists` (positions
print as r3c4) and {conclusion}, what the step establishes. A syntax or type error names the
file, the rule id, the line and column in the file, and what was expected.
"""
from __future__ import annotations

import string
from pathlib import Path
from typing import Any

import attrs
import yaml

from grader.core.errors import InputError
from grader.dsl import ast
from grader.dsl.parse import RuleSyntaxError, parse_conclusion, parse_condition
from grader.dsl.signature import Signature
from grader.dsl.typecheck import RuleTypeError, check_conclusion, check_condition

STANDARD_FIELDS = frozenset({"conclusion"})
RULE_KEYS = frozenset({"name", "condition", "complexity", "conclusions", "explanation", "nudge", "type",
                       "counted"})
BACKTRACK_KEYS = frozenset({"name", "complexity", "max_rule_complexity", "depth", "type",
                            "explanation", "nudge", "counted"})
# fields a BacktrackRule's explanation may use (compile.compile_backtrack fills them)
BACKTRACK_FIELDS = frozenset({"cell", "value", "steps", "chain", "reason"})


@attrs.frozen(eq=False)
class Rule:
    id: str
    name: str
    complexity: int
    condition: ast.Formula
    prefix: tuple[ast.Var, ...]          # the witness variables
    conclusions: tuple[ast.Conclusion, ...]
    explanation: str
    nudge: str
    text: str = ""                       # the condition as written
    counted: bool = True                 # HeuristicInfo.counted


@attrs.frozen(eq=False)
class BacktrackRule:
    id: str
    name: str
    complexity: int
    max_rule_complexity: int
    depth: int
    explanation: str = ""
    nudge: str = ""
    counted: bool = True                 # HeuristicInfo.counted


class RuleFileError(InputError):
    """A rule file problem: the file, the rule, the line and column, and what is wrong."""


def _fields(template: str) -> set[str]:
    try:
        return {f.split(".")[0].split("[")[0] for _, f, _, _ in string.Formatter().parse(template) if f}
    except ValueError as exc:
        raise ValueError(f"bad template: {exc}") from None


class _Loader:
    def __init__(self, origin: str, text: str, sig: Signature):
        self.origin, self.text, self.sig = origin, text, sig

    def error(self, message: str, node: Any = None, rule: str | None = None,
              offset: tuple[int, int] | None = None) -> RuleFileError:
        line = col = None
        if node is not None:
            line, col = node.start_mark.line + 1, node.start_mark.column + 1
            if offset is not None:
                line, col = self._inside(node, *offset)
        where = f"rule '{rule}': " if rule else ""
        return RuleFileError(self.origin, where + message, line, col)

    def _inside(self, node: Any, line: int, col: int) -> tuple[int, int]:
        """A (line, column) inside a scalar's text, as a place in the file."""
        start_line, start_col = node.start_mark.line + 1, node.start_mark.column + 1
        if node.style in ("|", ">"):
            body = self.text.splitlines()[start_line:]
            indent = next((len(l) - len(l.lstrip()) for l in body if l.strip()), 0)
            if node.style == "|" or "\n" in str(node.value).rstrip("\n"):
                return start_line + line, indent + col
            offset = col - 1          # folded: the rule text is the block's lines joined by spaces
            for k, raw in enumerate(body):
                piece = raw.strip()
                if offset <= len(piece):
                    return start_line + 1 + k, indent + offset + 1
                offset -= len(piece) + 1
            return start_line + 1, indent + col
        if line == 1:
            return start_line, start_col + col - 1 + (1 if node.style in ("'", '"') else 0)
        return start_line + line - 1, col

    def load(self) -> list[Rule | BacktrackRule]:
        try:
            root = yaml.compose(self.text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            raise RuleFileError(self.origin, f"not valid YAML: {getattr(exc, 'problem', exc)}",
                                mark.line + 1 if mark else None, mark.column + 1 if mark else None) from None
        if root is None:
            return []
        if not isinstance(root, yaml.MappingNode):
            raise self.error("expected a mapping of rule ids to rules", root)
        rules: list[Rule | BacktrackRule] = []
        seen: set[str] = set()
        for key, node in root.value:
            rid = str(key.value)
            if rid in seen:
                raise self.error("this rule id is used twice", key, rid)
            seen.add(rid)
            rules.append(self.rule(rid, key, node))
        return rules

    def rule(self, rid: str, key: Any, node: Any) -> Rule | BacktrackRule:
        if not isinstance(node, yaml.MappingNode):
            raise self.error("a rule is a mapping with name, condition, complexity and conclusions",
                             node, rid)
        fields = {str(k.value): v for k, v in node.value}
        kind = fields.get("type")
        backtrack = kind is not None and str(kind.value) == "BacktrackRule"
        if kind is not None and not backtrack:
            raise self.error(f"unknown rule type '{kind.value}' (the only type is BacktrackRule)", kind, rid)
        allowed = BACKTRACK_KEYS if backtrack else RULE_KEYS
        for k, v in node.value:
            if str(k.value) not in allowed:
                raise self.error(f"unknown key '{k.value}' (expected {', '.join(sorted(allowed))})", k, rid)
        name = self.scalar(fields, "name", rid, node)
        complexity = self.integer(fields, "complexity", rid, node, 1, 5)
        explanation = str(fields["explanation"].value) if "explanation" in fields else ""
        nudge = str(fields["nudge"].value) if "nudge" in fields else ""
        counted = self.boolean(fields, "counted", rid)
        if backtrack:
            unknown = (_fields(explanation) | _fields(nudge)) - BACKTRACK_FIELDS
            if unknown:
                raise self.error(f"the explanation or nudge uses {{{sorted(unknown)[0]}}}; a "
                                 f"BacktrackRule fills {', '.join(sorted(BACKTRACK_FIELDS))}",
                                 fields.get("explanation") or fields.get("nudge"), rid)
            return BacktrackRule(rid, name, complexity,
                                 self.integer(fields, "max_rule_complexity", rid, node, 1, complexity - 1)
                                 if complexity > 1 else 0,
                                 self.integer(fields, "depth", rid, node, 1, 100000)
                                 if "depth" in fields else 60, explanation, nudge, counted)
        cond_node = fields.get("condition")
        text = "" if cond_node is None or cond_node.value is None else str(cond_node.value)
        if cond_node is not None and not isinstance(cond_node, yaml.ScalarNode):
            raise self.error("the condition must be text", cond_node, rid)
        try:
            condition = parse_condition(text)
            prefix = check_condition(condition, self.sig)
        except RuleSyntaxError as exc:
            raise self.error(exc.message, cond_node, rid, (exc.line, exc.column)) from None
        except RuleTypeError as exc:
            raise self.error(exc.message, cond_node, rid, (exc.line, exc.column)) from None
        conc_node = fields.get("conclusions")
        if conc_node is None or not isinstance(conc_node, yaml.SequenceNode) or not conc_node.value:
            raise self.error("a rule needs a list of conclusions", conc_node or node, rid)
        conclusions = []
        for item in conc_node.value:
            if not isinstance(item, yaml.ScalarNode):
                raise self.error("a conclusion is text such as set(p, 0)", item, rid)
            try:
                c = parse_conclusion(str(item.value))
                check_conclusion(c, prefix, self.sig)
            except RuleSyntaxError as exc:
                raise self.error(exc.message, item, rid, (exc.line, exc.column)) from None
            except RuleTypeError as exc:
                raise self.error(exc.message, item, rid, (exc.line, exc.column)) from None
            conclusions.append(c)
        known = {v.name for v in prefix} | STANDARD_FIELDS
        if not explanation:
            explanation = f"{name}: {{conclusion}}."
        for label, template in (("explanation", explanation), ("nudge", nudge)):
            try:
                unknown = _fields(template) - known
            except ValueError as exc:
                raise self.error(str(exc), fields.get(label), rid) from None
            if unknown:
                raise self.error(f"the {label} uses {{{sorted(unknown)[0]}}}, which the condition's "
                                 f"leading exists does not bind", fields.get(label), rid)
        if nudge and _fields(nudge) - _fields(explanation):
            raise self.error("the nudge may only use fields the explanation uses", fields.get("nudge"), rid)
        return Rule(rid, name, complexity, condition, prefix, tuple(conclusions), explanation,
                    nudge or f"Look for a place where '{name}' applies.", text, counted)

    def scalar(self, fields: dict, key: str, rid: str, node: Any) -> str:
        if key not in fields or fields[key].value in (None, ""):
            raise self.error(f"missing '{key}'", node, rid)
        return str(fields[key].value)

    def boolean(self, fields: dict, key: str, rid: str) -> bool:
        """An optional yes/no key, true when left out."""
        if key not in fields:
            return True
        raw = str(fields[key].value).lower()
        if raw not in ("true", "false"):
            raise self.error(f"'{key}' must be true or false, not '{fields[key].value}'", fields[key], rid)
        return raw == "true"

    def integer(self, fields: dict, key: str, rid: str, node: Any, lo: int, hi: int) -> int:
        raw = self.scalar(fields, key, rid, node)
        try:
            value = int(raw)
        except ValueError:
            raise self.error(f"'{key}' must be a whole number, not '{raw}'", fields[key], rid) from None
        if not lo <= value <= hi:
            raise self.error(f"'{key}' must be between {lo} and {hi}, not {value}", fields[key], rid)
        return value


def load_rules(text: str, sig: Signature, origin: str = "<rules>") -> list[Rule | BacktrackRule]:
    """Parse and type-check every rule of a rule file (errors are RuleFileError)."""
    return _Loader(origin, text, sig).load()


def load_rule_file(path: Path, sig: Signature) -> list[Rule | BacktrackRule]:
    return load_rules(path.read_text(encoding="utf-8"), sig, str(path))
