"""The engine, independent of any one genre's techniques: registry, loop, grading, hints, exact."""
from __future__ import annotations

import attrs
import pytest

from grader.core import exact
from grader.core.engine import Budget, Solver
from grader.core.errors import Source
from grader.core.explain import describe_removals, fill, phrase_list
from grader.core.grading import grade
from grader.core.registry import (HeuristicInfo, Registry, RegistrationError, TechniqueRow, heuristic,
                                  register_families)
from grader.core.hints import hint
from grader.core.model import Cell, State
from grader.core.steps import Deduction, Later, Status, resuming
from grader.kernels.recent import Recent, Remembered
from support import native

GOOD = dict(id="x.a", name="A", genre="x", level=1, template="{cell} is {what}.", nudge="Look at {cell}.")


def test_registry_validates_on_registration():
    reg = Registry()
    reg.register(HeuristicInfo(**GOOD), lambda p, s, f=None: iter(()))
    with pytest.raises(RegistrationError, match="twice"):
        reg.register(HeuristicInfo(**GOOD), lambda p, s, f=None: iter(()))
    with pytest.raises(RegistrationError, match="level 6"):
        reg.register(HeuristicInfo(**{**GOOD, "id": "x.b", "level": 6}), lambda p, s, f=None: iter(()))
    with pytest.raises(RegistrationError, match="nudge uses fields"):
        reg.register(HeuristicInfo(**{**GOOD, "id": "x.c", "nudge": "{other}"}), lambda p, s, f=None: iter(()))


def test_registry_sorts_by_level_order_and_id():
    reg = Registry()
    for hid, level, order in (("x.z", 2, 1), ("x.y", 1, 5), ("x.w", 1, 5), ("x.v", 1, 1)):
        heuristic(**{**GOOD, "id": hid, "level": level, "order": order}, registry=reg)(lambda p, s, f=None: iter(()))
    assert [h.id for h in reg.for_genre("x")] == ["x.v", "x.w", "x.y", "x.z"]
    assert [h.id for h in reg.for_genre("x", max_level=1)] == ["x.v", "x.w", "x.y"]


def test_the_table_gives_level_and_wording_and_registers_families():
    """A genre's table row sets a technique's level, order and wording; code gives only what a
    shared family words for itself, and the row may override it."""
    table = {"t.own": TechniqueRow(2, 3, name="Own", template="{cell} is own.", nudge="See {cell}."),
             "t.fam": TechniqueRow(1, 1, family="shared", template="{cell} in t's words."),
             "t.unused": TechniqueRow(1, 2, family="absent")}
    reg = Registry(table=lambda genre: table if genre == "t" else None)
    own = heuristic(id="t.own", genre="t", registry=reg)(lambda p, s, f=None: iter(()))
    assert (own.level, own.info.order, own.info.name) == (2, 3, "Own")
    fams = register_families("t", {"shared": ({"name": "Shared", "template": "{cell}.", "nudge": "At {cell}."},
                                              lambda p, s, f=None: iter(()))}, registry=reg)
    assert [(h.id, h.info.name, h.info.template, h.info.nudge) for h in fams] == [
        ("t.fam", "Shared", "{cell} in t's words.", "At {cell}.")]
    assert reg.unlisted("t") == ["t.unused"]
    with pytest.raises(RegistrationError, match="not in rules/techniques/t.yaml"):
        heuristic(id="t.other", genre="t", registry=reg)(lambda p, s, f=None: iter(()))
    with pytest.raises(RegistrationError, match="needs a name"):
        register_families("t", {"absent": (None, lambda p, s, f=None: iter(()))}, registry=reg)


def test_deduction_build_keeps_only_what_is_new_and_reports_impossible_puts():
    s = State((0b11, 0b01, 0b10))
    assert Deduction.build(s, put={1: 0}) is None
    d = Deduction.build(s, put={0: 1}, exclude={2: 0})
    assert d.removals == ((0, 0b01),)
    assert d.apply(State((0b11, 0b01, 0b10))).cands == (0b10, 0b01, 0b10)
    impossible = Deduction.build(s, put={1: 1})
    assert impossible.apply(s).broken


def test_later_fields_are_worked_out_once_and_only_when_read():
    made = []

    def words(cell):
        made.append(cell)
        return {"cell": cell}
    fields = Later(words, "r1c1")
    d = Deduction.build(State((3, 3)), exclude={0: 0}, params=fields)
    assert d.params is fields and made == []            # build keeps it as it is
    assert dict(d.params) == {"cell": "r1c1"} and d.params["cell"] == "r1c1"
    assert made == ["r1c1"]


def test_a_narrowed_state_knows_what_changed_and_facts_update_from_it():
    start = State((7, 7, 7))
    middle = start.remove(((0, 1), (2, 0)))            # var 2 loses nothing
    assert middle.origin == (start.cands, [0])
    end = middle.restrict(1, 3)                        # middle was never looked at
    assert end.origin == (start.cands, [0, 1])
    recent, updates = Recent(), []

    def update(fact, old, changed):
        updates.append(changed)
        return fact + len(changed)
    assert recent.get(start, lambda: 0, update) == 0
    assert recent.get(end, lambda: -1, update) == 2 and updates == [[0, 1]]


def test_recent_of_keeps_as_many_states_as_asked():
    from grader.kernels.recent import recent_of

    class Owner:
        pass
    owner = Owner()
    kept = recent_of(owner, "fact", size=3)
    assert recent_of(owner, "fact") is kept and recent_of(Owner(), "fact").size == 48
    for i in range(5):
        kept.get(State((i,)), lambda: i, lambda fact, old, changed: None)
    assert [cands for cands, _ in kept.items] == [(2,), (3,), (4,)]


def test_a_remembered_result_holds_until_a_variable_it_read_changes():
    start = State((3, 3, 3, 1))
    entries: dict = {}
    Remembered(entries, start).put("quiet", read=[0, 3])
    assert Remembered(entries, start.remove(((1, 1),))).get("quiet", False)      # var 1 not read
    assert not Remembered(entries, start.remove(((0, 1),))).get("quiet", False)
    # another branch (not a narrowing of the state it was worked out in): never looked up there
    Remembered(entries, State((3, 1, 2, 1))).put("quiet", read=[0, 1, 3])
    assert not Remembered(entries, State((3, 1, 1, 1))).get("quiet", False)


def test_lookups_in_one_state_can_share_the_diffs():
    start, entries, other = State((3, 3, 3, 1)), {}, {}
    Remembered(entries, start).put("quiet", read=[0])
    Remembered(other, start).put("quiet", read=[1])
    now, diffs = start.remove(((1, 1),)), {}
    assert Remembered(entries, now, diffs).get("quiet", False)
    assert len(diffs) == 1          # the diff from `start`, worked out once...
    assert not Remembered(other, now, diffs).get("quiet", False)     # ...and read again here
    assert len(diffs) == 1


def test_phrases():
    assert phrase_list([]) == "" and phrase_list(["a"]) == "a"
    assert phrase_list([Cell(0, 0), Cell(2, 3), Cell(9, 9)]) == "r1c1, r3c4 and r10c10"
    assert fill("{cells} stay dark", {"cells": [Cell(0, 1), Cell(0, 2)]}) == "r1c2 and r1c3 stay dark"


# sgt-lightup --generate 1 '4x4b25s0d0#a': 4x4:b1BbBd3d
AKARI_SMALL = "genre: akari\ngrid: |\n  . . 1 #\n  . . # .\n  . . . 3\n  . . . .\n"


def test_a_none_among_deductions_is_dropped_not_read_as_nothing_more():
    """Deduction.build gives None when nothing is new; a find function that yields it before
    a real deduction still has that deduction taken."""
    reg = Registry()
    p = native(AKARI_SMALL)

    @heuristic(id="t.none-first", name="None first", genre="akari", level=1, template="{x}.",
               nudge="Look.", registry=reg)
    def none_first(puzzle, state, focus=None):
        yield None
        if state.cands[0] & 2:
            yield Deduction(((0, 2),), {"x": "r1c1 holds no bulb"})

    assert none_first.first(p, Solver(p).initial_state()) is not None
    assert len(Solver(p, heuristics=[none_first]).solve().steps) == 1


def test_loop_statuses():
    p = native(AKARI_SMALL)
    assert Solver(p).solve().status is Status.SOLVED
    assert Solver(p, budget=Budget(max_steps=1)).solve().status is Status.BUDGET
    several = native("genre: akari\ngrid: |\n  . . .\n")
    assert Solver(several, max_level=3).solve().status is Status.STUCK
    from grader.genres import get
    broken = get("akari").parse_marks(p, "* * 1 #\n. . # .\n. . . 3\n. . . .\n", Source("<m>"))
    assert Solver(p).solve(broken).status is Status.CONTRADICTION


def test_a_solve_that_ran_out_of_steps_goes_on_as_one_longer_solve():
    """go_on takes up a solve stopped by its step count where it stopped: the same path as a
    fresh solve with the larger budget; a solve that did not stop on its steps cannot."""
    from grader.io.read import load
    p = load("7x7t0:c213a2a1a3b2101b33b22f2a322a2b33a1b23", "slitherlink")

    def path(trace):
        return [(st.number, st.heuristic.id, sorted(st.deduction.removals)) for st in trace.steps]
    solver = Solver(p, max_level=2, budget=Budget(max_steps=5))
    short = solver.solve()
    assert short.status is Status.BUDGET and len(short.steps) == 5
    longer = solver.go_on(short, 40)
    whole = Solver(p, max_level=2, budget=Budget(max_steps=40)).solve()
    assert path(longer) == path(whole) and longer.status is whole.status and longer.final == whole.final
    assert longer.start == short.start
    assert solver.go_on(longer, 60) is None or longer.status is Status.BUDGET
    assert Solver(p, max_level=2).go_on(short, 40) is None       # not this solver's solve


def test_a_look_goes_on_from_where_the_last_one_found_something():
    """Deduction.resume: a technique that found something looks next from that site on (and
    where the step changed something), not from its first site again; the path and the
    counts of what was on offer stay the same."""
    reg = Registry()
    looked_at: dict[bool, list[int]] = {False: [], True: []}

    def lowest_value(state, focus, resume):
        """Sites are the variables in order: an undecided one keeps only its lowest value."""
        cands = state.cands
        sites = range(len(cands)) if focus is None else sorted(focus)
        for at, v in enumerate(sites):
            looked_at[resume].append(v)
            m = cands[v]
            if m & (m - 1):
                d = Deduction(((v, m & (m - 1)),), {"x": f"variable {v}"})
                yield resuming(d, sites, at) if resume else d

    @heuristic(id="t.again", name="Again", genre="akari", level=2, template="{x}.", nudge="Look.",
               registry=reg)
    def again(puzzle, state, focus=None):
        return lowest_value(state, focus, False)

    @heuristic(id="t.on", name="On", genre="akari", level=2, template="{x}.", nudge="Look.",
               registry=reg)
    def on(puzzle, state, focus=None):
        return lowest_value(state, focus, True)

    p = native(AKARI_SMALL)
    def path(trace):
        return [(st.deduction.removals, st.available) for st in trace.steps], trace.status
    for count in (False, True):
        looked_at[False].clear()
        looked_at[True].clear()
        before = Solver(p, heuristics=[again], count_available=count).solve()
        after = Solver(p, heuristics=[on], count_available=count).solve()
        assert len(before.steps) > 3 and path(after) == path(before)
        assert len(looked_at[True]) < len(looked_at[False])
        if not count:   # each variable looked at once, and again the one a step decided
            assert len(looked_at[True]) <= 2 * len(before.start.cands) + 1 < len(looked_at[False])
    key = [10 * v for v in range(16)]
    assert resuming(None, [1], 0) is None
    assert list(resuming(before.steps[0].deduction, [3, 5, 7], 1, key).resume()) == [50, 70]


@pytest.mark.parametrize("genre, name, rules", [
    ("masyu", "pearl-10x10de-grader-1.yaml",
     ("black-leg-blocked", "black-leg-extend", "white-axis", "white-turn")),
    ("picross", "pattern-15x15-grader-1.yaml",
     ("empty-line", "one-way", "simple-boxes", "full-block", "glue", "lone-block", "block-overlap", "line-solver")),
])
def test_a_look_resumed_at_the_first_deduction_finds_what_a_look_at_everything_finds(genre, name, rules):
    """The techniques that say where to go on (Deduction.resume): in a state where a look at
    the whole board found something, a look at the focus it resumes at finds the same, in the
    same order (the sites before the first deduction gave nothing)."""
    from grader.io.read import load
    from grader.core.registry import REGISTRY
    from support import CORPUS
    p = load(str(CORPUS / genre / name))
    found = {h.id: h for h in REGISTRY.for_genre(genre, 5)}
    looks = 0
    for _, state, _ in list(Solver(p, max_level=4).solve().states())[::2]:
        for rule in rules:
            everything = list(found[f"{genre}.{rule}"].find(p, state))
            if everything:
                looks += 1
                resumed = list(found[f"{genre}.{rule}"].find(p, state, frozenset(everything[0].resume())))
                assert [(d.removals, dict(d.params)) for d in resumed] == [
                    (d.removals, dict(d.params)) for d in everything]
    assert looks > 10


def test_a_solve_inside_a_solve_keeps_the_outer_deadline():
    """A trial's fill inherits the puzzle's deadline, so one level-5 step cannot overrun it;
    a step that gave up on time ends the solve as out of budget, not as stuck."""
    from grader.core import engine
    p = native(AKARI_SMALL)
    token = engine._DEADLINE.set(0.0)          # the outer solve's time is long gone
    try:
        assert engine.out_of_time()
        inner = Solver(p, budget=Budget(max_seconds=1e9)).solve()
    finally:
        engine._DEADLINE.reset(token)
    assert inner.status is Status.BUDGET and not inner.steps
    assert not engine.out_of_time()


def test_a_fill_inside_a_step_counts_steps_not_seconds(monkeypatch):
    """A trial's fill stops on its step count, never on a clock of its own: under any load it
    finds the same (the running solve's deadline alone may end it)."""
    import itertools
    from grader.core import engine, probing
    p = native(AKARI_SMALL)
    start = Solver(p).initial_state()
    everywhere = range(len(start.cands))
    calm = probing.fill(p, start, everywhere, 4, 50)
    clock = itertools.count(step=1000.0)            # every look at the clock: 1000 s later
    monkeypatch.setattr(engine.time, "perf_counter", lambda: next(clock))
    hurried = probing.fill(p, start, everywhere, 4, 50)
    def path(trace):
        return [(s.heuristic.id, s.deduction.removals) for s in trace.steps], trace.status
    assert calm.steps and path(hurried) == path(calm)


def test_solve_memory_lives_with_the_outermost_solve():
    """Fills inside a solve share its scratch memory; each new solve starts afresh, so the
    same puzzle always gets the same trace."""
    from grader.core import engine
    from grader.core.registry import Registry
    seen = []
    reg = Registry()

    @heuristic(**GOOD, registry=reg)
    def note(puzzle, state, focus=None):
        memory = engine.solve_memory()
        seen.append(dict(memory))
        memory["calls"] = memory.get("calls", 0) + 1
        if not memory.get("inner"):
            memory["inner"] = True
            Solver(puzzle, heuristics=list(reg.for_genre("x"))).solve(state)
        return iter(())

    p = native(AKARI_SMALL)
    Solver(p, heuristics=list(reg.for_genre("x"))).solve()
    assert seen == [{}, {"calls": 1, "inner": True}]
    seen.clear()
    Solver(p, heuristics=list(reg.for_genre("x"))).solve()
    assert seen[0] == {}
    assert engine.solve_memory() == {} and engine.solve_memory() is not engine.solve_memory()


def test_a_case_analysis_stops_once_the_ways_left_open_can_agree_on_nothing(monkeypatch):
    """branch_deduction: once the live ways keep every candidate between them, more ways can
    only keep more, so the rest are not followed (the answer, none, stays the same)."""
    from grader.core import probing
    from grader.core.steps import Trace
    followed = []

    def fake_fill(puzzle, state, changed, *args, **kwargs):
        followed.append(state)
        return Trace(state, (), Status.STUCK, state, 0.0)
    monkeypatch.setattr(probing, "fill", fake_fill)
    p = native(AKARI_SMALL)
    s = Solver(p).initial_state()
    x, y, z = s.undecided()[:3]
    ways = [("a", s.assume({x: 0, y: 0}), (x, y)), ("b", s.assume({x: 1, y: 1}), (x, y)),
            ("c", s.assume({x: 0, y: 1}), (x, y))]
    assert probing.branch_deduction(p, s, ways) is None and len(followed) == 2
    followed.clear()
    agree = [("a", s.assume({x: 0, z: 0}), (x, z)), ("b", s.assume({x: 1, z: 0}), (x, z))]
    d = probing.branch_deduction(p, s, agree)
    assert d.removals == ((z, s.cands[z] & ~1),) and len(followed) == 2


def test_agreed_removals_are_the_candidates_no_branch_keeps():
    from grader.core.probing import agreed_removals
    s = State((7, 3, 1, 6))
    assert agreed_removals(s, [State((1, 1, 1, 2)), State((2, 3, 1, 2))]) == ((0, 4), (3, 4))
    assert agreed_removals(s, [State((1, 2, 1, 6))]) == ((0, 6), (1, 1))
    assert agreed_removals(s, []) == ((0, 7), (1, 3), (2, 1), (3, 6))


def test_a_puzzle_makes_a_table_once_and_empties_a_memo_past_its_limit():
    from grader.io.read import load
    from tests.support import CORPUS
    p = load(str(CORPUS / "akari" / "lightup-7x7b20s2d2-grader-1.yaml"))
    made = []
    assert p.once("_test_table", lambda: made.append(1) or (1, 2)) == (1, 2)
    assert p.once("_test_table", lambda: made.append(1) or (3,)) == (1, 2) and made == [1]
    memo = p.memo("_test_memo", 2)
    memo.update(a=1, b=2)
    assert p.memo("_test_memo", 2) == {"a": 1, "b": 2}          # at the limit: kept
    memo["c"] = 3
    assert p.memo("_test_memo", 2) == {} and p.memo("_test_memo", 2) is memo


def test_last_answer_is_reused_for_an_equal_key_only():
    from grader.kernels.recent import last_answer

    class Owner:
        pass
    owner, calls = Owner(), []

    def ask(key):
        return last_answer(owner, "_test", key, lambda: calls.append(key) or len(calls))
    assert [ask(frozenset({1})), ask(frozenset({1})), ask(frozenset({2})), ask(frozenset({1}))] == [1, 1, 2, 3]


def test_tried_puts_stale_hypotheses_last_until_something_near_changes():
    from grader.core import engine
    from grader.core.probing import Tried
    with engine.remembering():
        tried = Tried("x.trial", lambda puzzle, cells: set(cells) | {c + 1 for c in cells})
        s = State((3, 3, 3, 3, 3))
        tried.failed(None, s, 0, (0,), ())
        assert tried.order(s, [0, 1, 2]) == [1, 2, 0]
        assert tried.order(s.restrict(4, 1), [0, 1, 2]) == [1, 2, 0]     # far away: still stale
        assert tried.order(s.restrict(1, 1), [0, 1, 2]) == [0, 1, 2]     # beside it: fresh again
        assert Tried("x.trial", lambda p, c: c).order(s, [0, 1]) == [1, 0]   # one memory per solve
    assert Tried("x.trial", lambda p, c: c).order(s, [0, 1]) == [0, 1]       # gone with the solve


def test_grade_is_reproducible_and_counts_levels():
    p = native(AKARI_SMALL)
    g1, g2 = grade(Solver(p).solve()), grade(Solver(p).solve())
    assert g1 == g2
    assert g1.level == max(int(k) for k in g1.steps_per_level)
    assert g1.steps == sum(g1.steps_per_level.values())
    assert g1.status is Status.SOLVED and g1.label == {1: "easy", 2: "medium"}[g1.level]


def test_exact_solver_verdicts():
    assert exact.solve(native(AKARI_SMALL)).verdict is exact.Verdict.UNIQUE
    two = exact.solve(native("genre: akari\ngrid: |\n  . . .\n"))
    assert two.verdict is exact.Verdict.SEVERAL and len(two.solutions) == 2
    assert two.solutions[0] != two.solutions[1]
    assert exact.solve(native("genre: akari\ngrid: |\n  . 3 .\n")).verdict is exact.Verdict.NONE


def test_hint_points_out_a_mistake_before_anything_else():
    from grader.genres import get
    p = native(AKARI_SMALL)
    wrong = get("akari").parse_marks(p, "* . 1 #\n. . # .\n. . . 3\n. . . .\n", Source("<m>"))
    h = hint(p, wrong)
    assert h.kind == "mistake" and h.text == "Something in row 1 is not right." and h.vars == (0,)


def test_a_mistake_hint_comes_in_stages_like_a_step():
    """Where to look, what decides the cell, the chain that decides it, the correction."""
    from grader.genres import get
    p = native(AKARI_SMALL)
    wrong = get("akari").parse_marks(p, "* . 1 #\n. . # .\n. . . 3\n. . . .\n", Source("<m>"))
    texts = {stage: hint(p, wrong, stage).text for stage in ("nudge", "technique", "explain", "answer")}
    assert "r1c1" not in texts["nudge"]
    assert texts["technique"].startswith("Look again at r1c1: '") and "decides it from your other marks" in texts["technique"]
    assert texts["explain"].startswith("Take away the mark at r1c1 and follow the steps that decide it: ")
    assert texts["explain"].endswith("So r1c1 is empty.")
    assert texts["answer"] == "The mark at r1c1 is wrong: r1c1 is empty."


def test_hint_stages_disclose_more_and_more():
    from grader.genres import get
    p = native(AKARI_SMALL)
    start = get("akari").initial_state(p)
    texts = {stage: hint(p, start, stage).text for stage in ("nudge", "technique", "explain", "answer")}
    assert "r1c3" in texts["nudge"]
    assert "level 1" in texts["technique"]
    assert texts["answer"].startswith(texts["explain"]) and "Answer:" in texts["answer"]


def test_hints_use_no_uniqueness_technique_on_a_puzzle_with_several_solutions():
    """On this board a bulb may go at r2c1 or r3c1; 'interchangeable bulbs' would pick one by
    assuming one solution, so a hint (and why) must not use it."""
    from grader.core.engine import Solver
    from grader.genres import get
    from grader.core.hints import why
    p = native("genre: akari\ngrid: |\n  # #\n  . #\n  . #\n")
    start = get("akari").initial_state(p)
    assumed = Solver(p, max_level=4).next_step(start)
    assert assumed is not None and assumed[0].info.uses_uniqueness      # what must not happen
    assert hint(p, start, "explain").kind == "stuck"
    assert why(p, start, 3)[1] == []


def test_describe_removals_groups_cells():
    p = native(AKARI_SMALL)
    from grader.genres import get
    s = get("akari").initial_state(p)
    assert describe_removals(p, s, ((1, 2), (0, 2), (4, 1))) == "r1c2 and r1c1 are empty and r2c1 holds a bulb"


def test_why_keeps_only_the_steps_that_decide_the_cell():
    from grader.io.read import load
    from grader.genres import get
    from grader.core.hints import why
    p = load("corpus/akari/lightup-7x7b20s2d2-grader-2.yaml")
    start = get("akari").initial_state(p)
    var = 4 * 7 + 2                              # r5c3
    status, steps = why(p, start, var)
    assert steps and var in steps[-1].deduction.targets
    assert [s.number for s in steps] == list(range(1, len(steps) + 1))
    full = Solver(p).solve(start, until=lambda s: s.decided(var))
    assert len(steps) < len(full.steps)
    state = start
    for s in steps:
        state = s.deduction.apply(state)
    assert state.decided(var)


def test_uniqueness_techniques_are_left_out_when_the_puzzle_is_not_unique():
    from grader.core.analysis import analyse
    corridor = native("genre: akari\ngrid: |\n  # # # #\n  . . . .\n  # # # #\n")
    a = analyse(corridor)
    assert a.uniqueness.verdict is exact.Verdict.SEVERAL
    assert a.grade.status is Status.STUCK
    assert not any(s.heuristic.uses_uniqueness for s in a.trace.steps)


def test_a_solve_that_ends_solved_shows_uniqueness_without_the_exact_solver(monkeypatch):
    from grader.core.analysis import analyse
    asked = []
    real = exact.solve
    monkeypatch.setattr(exact, "solve", lambda *args, **kw: asked.append(1) or real(*args, **kw))
    # Numberlink has no technique that assumes uniqueness: its solve shows it
    from pathlib import Path
    from grader.io.read import load
    link = load(str(Path(__file__).parents[1] / "corpus" / "numberlink" / "arukone-5x5-grader-1.yaml"))
    a = analyse(link)
    assert a.grade.status is Status.SOLVED and not asked
    assert a.uniqueness.verdict is exact.Verdict.UNIQUE and a.uniqueness.shown_by == "the solve"
    assert a.row()["unique"] is True
    # one it cannot finish goes to the exact solver
    two = native("genre: numberlink\ngrid: |\n  1 . .\n  . . .\n  . . 1\n")
    a = analyse(two)
    assert asked and a.uniqueness.verdict is exact.Verdict.SEVERAL
    assert a.uniqueness.shown_by == "the exact solver"
    # Akari has such techniques: the exact solver is asked first, even for a puzzle solved
    asked.clear()
    a = analyse(native(AKARI_SMALL))
    assert asked and a.grade.status is Status.SOLVED and a.uniqueness.shown_by == "the exact solver"
    # --no-unique: nothing is checked
    assert analyse(link, check_unique=False).uniqueness is None


def test_a_stuck_solve_goes_on_with_more_techniques_as_one_solve_with_them_all():
    """go_on_past takes up a solve that its techniques left stuck, with more techniques after
    them: the same path as a fresh solve with them all, from the same start and focus."""
    from grader.core.registry import REGISTRY
    from grader.io.read import load
    p = load("7x7t0:c213a2a1a3b2101b33b22f2a322a2b33a1b23", "slitherlink")
    start = Solver(p).initial_state()
    focus = frozenset(range(len(start.cands)))

    def path(trace):
        return [(st.number, st.heuristic.id, sorted(st.deduction.removals)) for st in trace.steps]
    for fewer, more in ((1, 3), (2, 3)):
        first = REGISTRY.for_genre("slitherlink", fewer)
        stuck = Solver(p, heuristics=first, budget=Budget.steps_only(60)).solve(start, focus=focus)
        assert stuck.status is Status.STUCK
        rules = REGISTRY.for_genre("slitherlink", more)
        went_on = Solver(p, heuristics=rules, budget=Budget.steps_only(60)).go_on_past(stuck, len(first), focus)
        whole = Solver(p, heuristics=rules, budget=Budget.steps_only(60)).solve(start, focus=focus)
        assert path(went_on) == path(whole) and len(whole.steps) > len(stuck.steps)
        assert (went_on.status, went_on.final, went_on.start) == (whole.status, whole.final, whole.start)


def test_resuming_keeps_every_field_of_the_deduction():
    # resuming builds the deduction field by field (cheaper than attrs.evolve): a field added
    # to Deduction and left out there would be lost
    d = Deduction(((3, 2),), {"x": 1}, premises=(1,), cells=(Cell(0, 1),), region=(5,), detail=("branch",))
    r = resuming(d, [7, 8, 9], 1)
    for f in attrs.fields(Deduction):
        if f.name != "resume":
            assert getattr(r, f.name) == getattr(d, f.name), f.name
    assert list(r.resume()) == [8, 9]
