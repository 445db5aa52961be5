"""The rule language: grammar, type checking when rules load, evaluation with witnesses,
conclusions, the spec's examples, another genre's signature, and fuzzed rule text."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.dsl import (RuleFileError, RuleSyntaxError, ast, compile_rules, load_rules,
                        parse_conclusion, parse_condition)
from grader.dsl.ast import Type
from grader.dsl.evaluate import Evaluator
from grader.dsl.signature import Signature, Symbol
from grader.io.read import load_native
from grader.genres import get
from grader.core.registry import Registry
from heuristics.arrows import SIGNATURE, ArrowsWorld

ARROWS = get("arrows")

SPEC_EXAMPLES = """
oob:
  name: An arrow pointing out of the grid has value 0
  complexity: 1
  condition: exists p (ahead(p) = 0)
  conclusions:
    - set(p, 0)
pair:
  name: Two arrows in a row pointing the same way
  complexity: 2
  condition: exists p,q,i (next(p) = q ^ dir(p) = dir(q) ^ val(q) = i)
  conclusions:
    - only(p, [i, i+1])
room:
  name: No higher than the arrows ahead
  complexity: 1
  condition: exists p,i (ahead(p) = i)
  conclusions:
    - exclude(p, >i)
"""


def puzzle(rows: str):
    body = "".join(f"  {row.strip()}\n" for row in rows.strip().splitlines())
    return load_native("genre: arrows\ngrid: |\n" + body, "<test>")


def compiled(text: str):
    registry = Registry()
    hs = compile_rules(load_rules(text, SIGNATURE, "<rules>"), SIGNATURE, ArrowsWorld, "toy", registry)
    return {h.id.split(".", 1)[1]: h for h in hs}


def results(h, p, state=None):
    state = state or ARROWS.initial_state(p)
    after = state
    for d in h.find(p, state):
        after = d.apply(after)
    return {ARROWS.var_name(p, v): [x for x in range(p.n) if after.cands[v] >> x & 1]
            for v in state.diff(after)}


# --- the spec's examples ---------------------------------------------------------------------

def test_spec_examples_load_and_behave():
    hs = compiled(SPEC_EXAMPLES)
    assert [h.level for h in hs.values()] == [1, 2, 1]
    p = puzzle("→. →. →1 ↑.")
    assert results(hs["oob"], p) == {"r1c4": [0]}
    assert results(hs["pair"], p) == {"r1c2": [1, 2]}
    assert results(hs["room"], p) == {"r1c2": [0, 1, 2], "r1c4": [0]}


def test_spec_full_example_parses():
    f = parse_condition("exists p,q ((p != q ^ points_at(p, q)) -> forall i ((val(p) = i) -> val(q) = i))")
    prefix, body = ast.existential_prefix(f)
    assert [v.name for v in prefix] == ["p", "q"] and isinstance(body, ast.Implies)
    assert str(parse_conclusion("exclude(p, >1)")) == "exclude(p, >1)"
    assert str(parse_conclusion("only(p, [i, i+1, 2])")) == "only(p, [i, i+1, 2])"
    assert str(parse_conclusion("exclude(q, i-2)")) == "exclude(q, i-2)"


def test_grammar_shapes():
    assert isinstance(parse_condition(""), ast.TrueF)
    assert isinstance(parse_condition("   "), ast.TrueF)
    f = parse_condition("exists p (val(p) = nil v val(p) = 0 v !(candidate(p, 1)))")
    assert isinstance(f.body, ast.Or) and len(f.body.items) == 3
    f = parse_condition("forall p (ahead(p) >= 0 ^ next(p) != OOB ^ behind(p) <= 3)")
    assert isinstance(f.body, ast.And) and len(f.body.items) == 3
    # mixing ^ and v needs parentheses
    mixed = "exists p (val(p) = 1 ^ val(p) = 2 v val(p) = 3)"
    with pytest.raises(RuleSyntaxError) as err:
        parse_condition(mixed)
    assert (err.value.line, err.value.column) == (1, mixed.index(" v ") + 2)
    parse_condition("exists p ((val(p) = 1 ^ val(p) = 2) v val(p) = 3)")
    # a quantifier is always followed by parentheses
    with pytest.raises(RuleSyntaxError):
        parse_condition("exists p val(p) = 1")


# --- errors when rules load ------------------------------------------------------------------

def rule_file(condition: str, conclusion: str = "set(p, 0)") -> str:
    return (f"my-rule:\n  name: A rule\n  complexity: 2\n  condition: {condition}\n"
            f"  conclusions:\n    - {conclusion}\n")


def test_syntax_error_names_file_rule_line_column_and_expectation():
    with pytest.raises(RuleFileError) as err:
        load_rules(rule_file("exists p (ahead(p) = 0"), SIGNATURE, "rules/x.yaml")
    message = str(err.value)
    assert message.startswith("rules/x.yaml:4:") and "rule 'my-rule'" in message
    assert "expected" in message and "')'" in message and "\n" not in message
    with pytest.raises(RuleFileError) as err:
        load_rules(rule_file("exists p (ahead(p) = 0)", "set(p 0)"), SIGNATURE, "r.yaml")
    assert str(err.value).startswith("r.yaml:6:13:")


@pytest.mark.parametrize("condition, conclusion, words", [
    ("exists i (ahead(i) = 0)", "set(p, 0)", "argument 1 of ahead must be a position, but i is a number"),
    ("exists p (foo(p) = 0)", "set(p, 0)", "unknown function or relation 'foo'"),
    ("exists p (ahead(p, p) = 0)", "set(p, 0)", "ahead takes 1 argument, not 2"),
    ("exists p (ahead(p) = 0)", "set(q, 0)", "variable 'q' in the conclusion is not bound"),
    ("ahead(p) = 0", "set(p, 0)", "variable 'p' is not bound by any quantifier"),
    ("exists p (dir(p) = 1)", "set(p, 0)", "cannot compare dir(p) (a direction) with 1 (a number)"),
    ("exists p,q (p < q)", "set(p, 0)", "'<' compares numbers"),
    ("exists p,q (points_at(p, q) = 1)", "set(p, 0)", "points_at is a relation"),
    ("exists p (val(p))", "set(p, 0)", "val is a function"),
    ("exists p (ahead(p) = 0)", "set(p, >0)", "set(p, d) takes a number"),
    ("exists p (ahead(p) = 0)", "only(p, 1)", "takes a list"),
    ("exists p (ahead(p) = 0)", "remove(p, 1)", "unknown conclusion 'remove'"),
    ("exists p,i (ahead(p) = i)", "set(i, 0)", "must be a position"),
])
def test_type_errors_at_load(condition: str, conclusion: str, words: str):
    with pytest.raises(RuleFileError) as err:
        load_rules(rule_file(condition, conclusion), SIGNATURE, "t.yaml")
    assert words in str(err.value) and "rule 'my-rule'" in str(err.value)
    assert str(err.value).startswith("t.yaml:")


def test_template_fields_must_be_witnesses():
    text = rule_file("exists p (ahead(p) = 0)") + '  explanation: "{p} and {q}"\n'
    with pytest.raises(RuleFileError) as err:
        load_rules(text, SIGNATURE, "t.yaml")
    assert "{q}" in str(err.value)


def test_bad_rule_file_shapes():
    for text, words in [("- a\n- b\n", "mapping of rule ids"),
                        ("x:\n  name: X\n  complexity: 9\n  condition: ''\n  conclusions: [set(p, 0)]\n",
                         "between 1 and 5"),
                        ("x:\n  name: X\n  complexity: 1\n  condition: ''\n", "list of conclusions"),
                        ("x:\n  name: X\n  complexity: 1\n  colour: red\n", "unknown key 'colour'"),
                        ("x: [\n", "not valid YAML")]:
        with pytest.raises(RuleFileError) as err:
            load_rules(text, SIGNATURE, "bad.yaml")
        assert words in str(err.value)


def test_backtrack_rule_entries():
    text = ("easy:\n  name: E\n  complexity: 1\n  condition: exists p (ahead(p) = 0)\n"
            "  conclusions:\n    - set(p, 0)\n"
            "trial:\n  name: Trial\n  type: BacktrackRule\n  complexity: 4\n  max_rule_complexity: 1\n"
            "  depth: 5\n")
    rules = load_rules(text, SIGNATURE)
    assert rules[1].max_rule_complexity == 1 and rules[1].depth == 5
    with pytest.raises(RuleFileError):
        load_rules(text.replace("max_rule_complexity: 1", "max_rule_complexity: 4"), SIGNATURE)


def test_counted_says_whether_a_step_is_counted_among_those_on_offer():
    text = ("easy:\n  name: E\n  complexity: 1\n  condition: exists p (ahead(p) = 0)\n"
            "  conclusions:\n    - set(p, 0)\n"
            "chain:\n  name: Chain\n  type: BacktrackRule\n  complexity: 4\n  max_rule_complexity: 1\n"
            "  depth: 2\n  counted: false\n"
            "  explanation: 'Suppose {cell} held {value}: then {chain}, a contradiction ({reason}).'\n")
    rules = load_rules(text, SIGNATURE)
    assert rules[0].counted and not rules[1].counted
    hs = compiled(text)
    assert hs["easy"].info.counted and not hs["chain"].info.counted
    with pytest.raises(RuleFileError, match="true or false"):
        load_rules(text.replace("counted: false", "counted: maybe"), SIGNATURE)
    with pytest.raises(RuleFileError, match="BacktrackRule fills"):
        load_rules(text.replace("{reason}", "{why}"), SIGNATURE)


def test_a_backtrack_rule_explains_its_chain_step_by_step():
    """r1c3 points off the grid: supposing it held 1, the spec's first rule leaves it nothing.
    The chain names what each step established and the rule that did it."""
    text = SPEC_EXAMPLES + ("chain:\n  name: Chain\n  type: BacktrackRule\n  complexity: 4\n"
                            "  max_rule_complexity: 2\n  depth: 3\n"
                            "  explanation: 'Suppose {cell} held {value}: then {chain} ({reason}).'\n")
    h = compiled(text)["chain"]
    p = puzzle("→. →. ↑.")
    d = h.first(p, ARROWS.initial_state(p).restrict(2, 0b110))     # r1c3 narrowed to 1 or 2
    assert d.removals == ((2, 1 << 1),)
    assert h.info.template.format(**d.params) == (
        "Suppose r1c3 held 1: then r1c3 has no number left (an arrow pointing out of the grid "
        "has value 0) (no value is left for r1c3).")


# --- evaluation --------------------------------------------------------------------------------

def test_witnesses_fill_the_conclusions_and_contradictions_empty_the_cell():
    hs = compiled(rule_file("exists p,q,i (points_at(p, q) ^ val(q) = i ^ val(p) = nil)", "set(p, i)"))
    h = hs["my-rule"]
    p = puzzle("→. →. →1 ↑.")
    (first, *_) = h.find(p, ARROWS.initial_state(p))
    assert first.params["p"].__str__() in ("r1c1", "r1c2") and first.params["i"] == 1
    # a conclusion that contradicts the state: the cell is left with no value
    p2 = puzzle("→. →2 →1 ↑.")
    hs2 = compiled(rule_file("exists p,q,i (points_at(p, q) ^ val(q) = i ^ val(p) != nil)", "set(p, i)"))
    d = next(iter(hs2["my-rule"].find(p2, ARROWS.initial_state(p2))))
    assert d.apply(ARROWS.initial_state(p2)).broken


def test_nil_and_oob_semantics():
    p = puzzle("→. →1")
    ev = Evaluator(SIGNATURE, ArrowsWorld(p, ARROWS.initial_state(p)))
    holds = lambda text: ev.holds(parse_condition(text), {})
    assert holds("exists p (val(p) = nil)")
    assert not holds("exists p (val(p) = nil ^ val(p) < 5)")         # ordering with nil is false
    assert holds("exists p (next(p) = OOB)")
    assert holds("forall p (val(next(p)) = nil -> next(p) = OOB v val(next(p)) = nil)")
    assert holds("exists p,q (between_free(p, q) = nil)")
    assert holds("forall p (forall q (points_at(p, q) -> q != p))")
    assert holds("")


def test_another_genres_signature():
    """The signature is a table: a toy 'line' genre with its own function and relation."""
    class Line:
        def positions(self):
            return range(5)

        def numbers(self):
            return range(6)

    sig = Signature.of(
        Symbol("succ", (Type.POS,), Type.POS, lambda w, p: p + 1 if p < 4 else -1),
        Symbol("before", (Type.POS, Type.POS), None, lambda w, p, q: p < q,
               successors=lambda w, p: range(p + 1, 5)),
        Symbol("index", (Type.POS,), Type.NUM, lambda w, p: p))
    ev = Evaluator(sig, Line())
    first = parse_condition("exists p (forall q (q != p -> before(p, q)))")
    _, body = ast.existential_prefix(first)
    assert [e["p"] for e in ev.solve(body, {})] == [0]
    pairs = parse_condition("exists p,q,i (succ(p) = q ^ index(q) = i ^ i > 2)")
    _, body = ast.existential_prefix(pairs)
    assert sorted((e["p"], e["q"], e["i"]) for e in ev.solve(body, {})) == [(2, 3, 3), (3, 4, 4)]
    with pytest.raises(RuleFileError):          # arrows functions are not in this signature
        load_rules(rule_file("exists p (ahead(p) = 0)"), sig)



def test_a_rule_of_the_puzzle_alone_is_quiet_for_the_rest_of_the_solve():
    """A rule that reads no candidates (ahead, next, dir...) cannot find more in a narrower
    state once a whole look found nothing: it is not evaluated again in that solve."""
    from grader.core.engine import remembering
    from grader.dsl.compile import reads_state
    rules = load_rules(SPEC_EXAMPLES, SIGNATURE, "<rules>")
    assert [reads_state(r, SIGNATURE) for r in rules] == [False, True, False]
    looks = []

    def world(p, s):
        looks.append(1)
        return ArrowsWorld(p, s)
    oob, pair, room = compile_rules(rules, SIGNATURE, world, "toy", Registry())
    p = puzzle("→. →. →1 ↑.")
    with remembering():
        state = ARROWS.initial_state(p)
        for d in list(room.find(p, state)):
            state = d.apply(state)
        assert list(room.find(p, state)) == []          # a whole look: nothing new
        before = len(looks)
        narrower = state.restrict(0, state.cands[0] & ~1)
        assert list(room.find(p, narrower, frozenset({0}))) == [] and len(looks) == before
        list(pair.find(p, narrower, frozenset({0})))     # one that reads the state looks again
        assert len(looks) == before + 1
    # another solve (a state of its own: the world made for a state serves every look at it)
    again = state.restrict(0, state.cands[0] & ~1)
    assert list(room.find(p, again, frozenset({0}))) == [] and len(looks) == before + 2


def test_an_equation_through_a_preimage_tries_only_the_cells_mapped_there():
    """`next(p) = q` with q known lists the arrows whose first cell is q, in order, as trying
    every p would (and every p where next cannot say: OOB)."""
    p = puzzle("→. ↓. ←.\n→. ↑. ↖.\n↗. →. ↑.")
    ev = Evaluator(SIGNATURE, ArrowsWorld(p, ARROWS.initial_state(p)))
    f = parse_condition("next(p) = q")
    rays = p.rays
    for q in [*range(p.size), -1]:
        every = [x for x in range(p.size) if (rays[x][0] if rays[x] else -1) == q]
        assert [e["p"] for e in ev.solve(f, {"q": q})] == every

def test_a_relation_binds_one_side_from_the_other_as_trying_every_value_would():
    """points_at(p, q) and candidate(p, i) with one side known list the other side's values
    straight from successors or predecessors (no re-check), in their order: the same values
    as trying every one."""
    p = puzzle("→. ↓. ←.\n→. ↑. ↖.\n↗. →. ↑.")
    state = ARROWS.initial_state(p).restrict(4, 0b101)
    ev = Evaluator(SIGNATURE, ArrowsWorld(p, state))
    for text, known, other, domain in (("points_at(p, q)", "p", "q", range(p.size)),
                                       ("points_at(p, q)", "q", "p", range(p.size)),
                                       ("candidate(p, i)", "p", "i", range(p.n + 1))):
        f = parse_condition(text)
        for x in range(p.size):
            every = [y for y in domain if ev.holds(f, {known: x, other: y})]
            assert sorted(e[other] for e in ev.solve(f, {known: x})) == every


def test_a_plan_binds_through_a_preimage_before_a_quantifier_over_numbers():
    """With q known, `next(p) = q` (a few arrows listed) is proved before a forall whose number
    is still open (every number tried), and the witnesses are the same (in the order of p
    first: the rules add dir(p) = dir(q), which leaves one p, so their order is as before)."""
    p = puzzle("→. →. ↓.\n↑. ↓. ←.\n→. →. ↑.")
    ev = Evaluator(SIGNATURE, ArrowsWorld(p, ARROWS.initial_state(p)))
    f = parse_condition("exists p,j (forall k (candidate(q, k) -> j != k) ^ next(p) = q ^ candidate(p, j))")
    body = f.body
    assert ev._plan(body.items, {"q": True}, body)[0] == 1
    for q in range(p.size):
        every = [{"q": q, "p": x, "j": j} for x in range(p.size) for j in range(p.n + 1)
                 if ev.holds(body, {"q": q, "p": x, "j": j})]
        assert list(ev.solve(body, {"q": q})) == every


# --- fuzzing -----------------------------------------------------------------------------------

TOKENS = ["exists", "forall", "p", "q", "i", "j", ",", "(", ")", "^", "v", "!", "->", "=", "!=", "<",
          ">=", "+", "-", "0", "3", "OOB", "nil", "val", "next", "points_at", "ahead", "candidate", " "]


def _check_parse(text: str) -> None:
    try:
        parse_condition(text)
    except RuleSyntaxError as exc:
        assert exc.line >= 1 and exc.column >= 1 and "\n" not in exc.message


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_parser_never_crashes_on_random_text(text: str):
    _check_parse(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=25))
def test_parser_never_crashes_on_random_tokens(tokens: list[str]):
    _check_parse(" ".join(tokens))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=20), st.text(max_size=12))
def test_rule_loader_only_raises_rule_file_errors(tokens: list[str], conclusion: str):
    condition = " ".join(tokens).replace("'", "")
    text = (f"r:\n  name: R\n  complexity: 1\n  condition: '{condition}'\n"
            f"  conclusions:\n    - {conclusion!r}\n")
    try:
        load_rules(text, SIGNATURE, "f.yaml")
    except RuleFileError as exc:
        assert str(exc).startswith("f.yaml")


@pytest.mark.parametrize("style", [">", "|"])
def test_error_place_inside_block_conditions(style: str):
    text = ("r:\n  name: R\n  complexity: 1\n  condition: " + style + "\n"
            "    exists p (ahead(p) = 0 ^\n    val(p) = = 1)\n  conclusions:\n    - set(p, 0)\n")
    with pytest.raises(RuleFileError) as err:
        load_rules(text, SIGNATURE, "f.yaml")
    assert str(err.value).startswith("f.yaml:6:14: rule 'r': unexpected '='")


# --- the evaluator agrees with plain enumeration -------------------------------------------------

ATOMS = ["points_at({p}, {q})", "candidate({p}, {i})", "val({p}) = {i}", "val({p}) = nil",
         "next({p}) = {q}", "ahead({p}) = {i}", "sees_distinct({p}) + {i} = ahead({q})",
         "dir({p}) = dir({q})", "{p} != {q}", "{i} < {j}", "between_free({p}, {q}) = {i}",
         "ahead_free({p}) >= {i} - 1"]


@st.composite
def formulas(draw, depth: int = 3) -> str:
    pos, num = st.sampled_from("pqr"), st.sampled_from("ijk")
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        return draw(st.sampled_from(ATOMS)).format(p=draw(pos), q=draw(pos), i=draw(num), j=draw(num))
    kind = draw(st.sampled_from(["and", "or", "not", "implies", "exists", "forall"]))
    a = draw(formulas(depth - 1))
    if kind == "not":
        return f"!({a})"
    if kind in ("exists", "forall"):
        return f"{kind} {draw(st.sampled_from('pqrijk'))} ({a})"
    b = draw(formulas(depth - 1))
    return f"(({a}) {'^' if kind == 'and' else 'v' if kind == 'or' else '->'} ({b}))"


def naive(ev: Evaluator, f, env: dict) -> bool:
    """Truth by trying every value of every quantified variable (no binding tricks)."""
    if isinstance(f, ast.Quant):
        import itertools
        names = [v.name for v in f.vars]
        tries = (naive(ev, f.body, {**env, **dict(zip(names, vals))})
                 for vals in itertools.product(*(ev.domain(n) for n in names)))
        return any(tries) if f.kind == "exists" else all(tries)
    if isinstance(f, ast.Not):
        return not naive(ev, f.body, env)
    if isinstance(f, ast.And):
        return all(naive(ev, i, env) for i in f.items)
    if isinstance(f, ast.Or):
        return any(naive(ev, i, env) for i in f.items)
    if isinstance(f, ast.Implies):
        return not naive(ev, f.premise, env) or naive(ev, f.consequence, env)
    return ev.holds(f, env)


@settings(max_examples=60, deadline=None)
@given(formulas())
def test_witnesses_agree_with_plain_enumeration(body: str):
    import itertools
    p = puzzle("→. ↓1\n↗. ←.")
    state = ARROWS.initial_state(p).restrict(0, 0b110)
    ev = Evaluator(SIGNATURE, ArrowsWorld(p, state))
    inner = parse_condition(body)
    free = sorted(ast.free_vars(inner))
    condition = parse_condition(f"exists {','.join(free)} ({body})") if free else inner
    prefix, core = ast.existential_prefix(condition)
    names = [v.name for v in prefix]
    fast = set()
    for env in ev.solve(core, {}):
        missing = [n for n in names if n not in env]
        for vals in itertools.product(*(ev.domain(n) for n in missing)):
            full = {**env, **dict(zip(missing, vals))}
            fast.add(tuple(full[n] for n in names))
    slow = {vals for vals in itertools.product(*(ev.domain(n) for n in names))
            if naive(ev, core, dict(zip(names, vals)))}
    assert fast == slow


def test_a_whole_look_of_a_rule_of_the_puzzle_alone_goes_on_from_its_last_first_find():
    """Its next whole look, in a state narrowing the last one's, starts at the witness of the
    last first find (those before it gave nothing, and candidates only go): it finds what a
    look in a solve of its own finds, and in a state that narrows nothing kept, starts over."""
    from grader.core.engine import remembering
    *_, room = compile_rules(load_rules(SPEC_EXAMPLES, SIGNATURE, "<rules>"), SIGNATURE, ArrowsWorld,
                             "toy", Registry())
    p = puzzle("""→. →. ↓. ←.
                  ↑. ←. →. ↓.
                  →. ↑. ←. ↑.""")
    states, looked = [], []
    with remembering():
        state = ARROWS.initial_state(p)
        while True:
            states.append(state)
            looked.append(list(room.find(p, state)))
            if not looked[-1]:
                break
            state = looked[-1][0].apply(state)      # the step a solve takes: the first find
        states.append(states[1])                    # back to an earlier state
        looked.append(list(room.find(p, states[1])))
    assert len(states) > 4
    assert [[d.removals for d in found] for found in looked] == \
        [[d.removals for d in room.find(p, s)] for s in states]   # each in a solve of its own


def arrows_solve_states():
    """(puzzle, the states along its solve) for the corpus/ arrows puzzles."""
    from pathlib import Path
    from grader.io.read import load
    from support import states_of_solve
    for path in sorted((Path(__file__).parent.parent / "corpus" / "arrows").glob("*.yaml")):
        p = load(str(path))
        yield p, [ARROWS.initial_state(p)] + [state for _, state in states_of_solve(p)]


def test_a_rule_with_one_witness_position_lists_its_witnesses_position_by_position():
    """A whole look of such a rule goes on from the position of its last first find (compile.py
    only_position): it relies on witnesses(rule, ev) listing them position by position, as
    looks at each position in turn would."""
    from grader.dsl.compile import only_position, witnesses
    from heuristics.arrows import load as arrows_rules
    rules = [(r, only_position(r, SIGNATURE)) for r in arrows_rules() if not hasattr(r, "depth")]
    rules = [(r, name) for r, name in rules if name is not None]
    assert {r.id for r, _ in rules} >= {"already-seen", "line-complete", "room-for-new"}
    compared = 0
    for p, states in arrows_solve_states():
        for state in states[::3]:
            ev = Evaluator(SIGNATURE, ArrowsWorld(p, state))
            for rule, name in rules:
                by_position = [w for x in range(p.size) for w in witnesses(rule, ev, {name: x})]
                assert list(witnesses(rule, ev)) == by_position, rule.id
                compared += 1
    assert compared > 100


def test_whole_looks_that_go_on_from_their_last_first_find_find_what_fresh_looks_find():
    """Along a solve, every rule's whole look (in the solve's memory, going on from where its
    last whole look first found something) finds what a look in a solve of its own finds."""
    from grader.core.engine import remembering
    from heuristics.arrows import HEURISTICS, load as arrows_rules
    rules = {f"arrows.{r.id}" for r in arrows_rules() if not hasattr(r, "depth")}    # no trials
    looks = [h for h in HEURISTICS if h.id in rules]
    compared = 0
    for p, states in arrows_solve_states():
        with remembering():
            resumed = [[[d.removals for d in h.find(p, s)] for h in looks] for s in states]
        assert resumed == [[[d.removals for d in h.find(p, s)] for h in looks] for s in states]
        compared += len(states)
    assert compared > 50


def test_runs_of_fixed_conjuncts_are_tabled_together_and_state_reads_are_not():
    from grader.dsl.evaluate import _FixedRun, _fixed_runs
    body = ast.existential_prefix(parse_condition(
        "exists p,q,i (next(p) = q ^ dir(p) = dir(q) ^ val(q) = i ^ ahead(p) = 2)"))[1]
    step, same_way, value, room = body.items
    parts = [(step, frozenset("p")), (same_way, frozenset("pq")), (value, frozenset("pq")),
             (room, frozenset("pqi"))]
    (run, bound), rest, test = _fixed_runs(parts, SIGNATURE)
    assert isinstance(run, _FixedRun) and bound == frozenset("p")
    assert run.parts == tuple(parts[:2]) and run.free == frozenset("pq")
    assert (rest, test) == (parts[2], parts[3])      # a run binding no name stays a test


def test_tables_of_fixed_conjunctions_filled_in_other_states_give_the_same_witnesses():
    """Evaluator.tables is shared by every state of a puzzle: what it holds must not depend
    on the state it was filled in."""
    from grader.dsl.compile import witnesses
    from heuristics.arrows import load as arrows_rules
    rules = [r for r in arrows_rules() if not hasattr(r, "depth")]
    compared = 0
    for p, states in arrows_solve_states():
        shared: dict = {}
        for state in states[::2]:
            world = ArrowsWorld(p, state)
            for rule in rules:
                assert list(witnesses(rule, Evaluator(SIGNATURE, world, shared))) == \
                    list(witnesses(rule, Evaluator(SIGNATURE, world, {}))), rule.id
                compared += 1
        assert shared
    assert compared > 100
