"""The rule language of spec/rules-design.md and the rule-driven solver of spec/solver-design.md.

grammar.lark and parse (text to syntax trees), ast, signature (the functions and relations a
genre supplies), typecheck (when rules load), evaluate (witnesses and conclusions), rules (YAML
rule files), compile (rules to ordinary heuristics) and solver (the Solved / NoSolution /
Underconstrained view of a solve).
"""
from grader.dsl.compile import compile_rules
from grader.dsl.parse import RuleSyntaxError, parse_conclusion, parse_condition
from grader.dsl.rules import BacktrackRule, Rule, RuleFileError, load_rule_file, load_rules
from grader.dsl.signature import NIL, OOB, Signature, Symbol

__all__ = [
           "NIL",
           "OOB",
           "BacktrackRule",
           "Rule",
           "RuleFileError",
           "RuleSyntaxError",
           "Signature",
           "Symbol",
           "compile_rules",
           "load_rule_file",
           "load_rules",
           "parse_conclusion",
           "parse_condition",
]
