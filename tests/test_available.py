"""The count of what a step's level offers (Solver._available): what an earlier count at the
same level found is carried, trimmed to what is still new, so a count looks only when those
fall short of the cap; the solve's path never depends on it."""
from __future__ import annotations

import attrs

from grader.core.engine import Solver
from grader.core.registry import REGISTRY, Heuristic, HeuristicInfo
from grader.core.steps import AVAILABLE_CAP, Deduction
from grader.io.read import load
from support import CORPUS, native

AKARI_SMALL = "genre: akari\ngrid: |\n  . . 1 #\n  . . # .\n  . . . 3\n  . . . .\n"
PUZZLES = [CORPUS / "akari" / "lightup-7x7b20s2d2-grader-1.yaml",
           CORPUS / "yajilin" / "yajilin-6x6-grader-1.yaml",
           CORPUS / "masyu" / "pearl-10x10de-grader-1.yaml"]


def info(hid: str, level: int) -> HeuristicInfo:
    return HeuristicInfo(id=hid, name=hid, genre="akari", level=level, template="t", nudge="n")


def lowest(state, v: int) -> Deduction:
    """Variable v keeps only its lowest value."""
    m = state.cands[v]
    return Deduction(((v, m & (m - 1)),), {})


def undecided(state) -> list[int]:
    return [v for v, m in enumerate(state.cands) if m & (m - 1)]


def test_a_carried_deduction_is_trimmed_and_dropped_once_nothing_of_it_is_new():
    """Heuristic 0 made the step; heuristic 1 (a spy that finds nothing) is the rest of the level."""
    calls = []

    def spy(puzzle, state, focus=None):
        calls.append(focus)
        return iter(())
    puzzle = native(AKARI_SMALL)
    solver = Solver(puzzle, heuristics=[Heuristic(info("t.a", 1), spy), Heuristic(info("t.b", 1), spy)],
                    count_available=True)
    state = solver.initial_state()
    v = undecided(state)
    assert len(v) >= AVAILABLE_CAP + 2
    first, two, other = lowest(state, v[0]), Deduction(((v[1], state.cands[v[1]] & 1), (v[2], state.cands[v[2]] & 1)), {}), lowest(state, v[3])
    pending = {0: set(), 1: None}
    count, offered = solver._available(state, pending, 0, first, iter(()), ())
    assert count == 1 and calls == [None]
    count, offered = solver._available(state, pending, 0, first, iter([two, first, other]), ())
    assert count == 3 and [d.removals for d in offered] == [first.removals, two.removals, other.removals]
    # the step taken (first) and a part of `two` are done: `first` drops out, `two` is trimmed
    later = Deduction(((v[1], state.cands[v[1]] & 1),), {}).apply(first.apply(state))
    fresh = lowest(later, v[4])
    count, offered = solver._available(later, pending, 0, fresh, iter(()), offered)
    assert count == 3
    assert [d.removals for d in offered] == [fresh.removals, ((v[2], state.cands[v[2]] & 1),), other.removals]
    # carried ones that reach the cap with the step: no look at all
    calls.clear()
    many = tuple(lowest(state, w) for w in v[1:AVAILABLE_CAP + 2])
    count, offered = solver._available(state, pending, 0, first, iter(()), many)
    assert count == AVAILABLE_CAP and calls == []


def test_the_carried_deductions_start_afresh_when_the_level_rises():
    """Level 1 offers every undecided one of four variables while the first of them is
    undecided; level 2 then offers one variable at a time. Its first count is 1: the three
    level-1 deductions still open are not carried into level 2."""
    puzzle = native(AKARI_SMALL)
    four = undecided(puzzle.genre.initial_state(puzzle))[:4]

    def easy(puzzle, state, focus=None):
        if state.cands[four[0]] & (state.cands[four[0]] - 1):
            yield from (lowest(state, w) for w in four if state.cands[w] & (state.cands[w] - 1))

    def hard(puzzle, state, focus=None):
        yield from (lowest(state, w) for w in undecided(state)[:1])
    solver = Solver(puzzle, heuristics=[Heuristic(info("t.easy", 1), easy), Heuristic(info("t.hard", 2), hard)],
                    count_available=True)
    steps = solver.solve().steps
    assert [(s.level, s.available) for s in steps[:2]] == [(1, 4), (2, 1)]


def test_the_count_changes_no_step():
    for file in PUZZLES:
        plain = Solver(load(str(file))).solve()
        counted = Solver(load(str(file)), count_available=True).solve()
        assert [(s.heuristic.id, s.deduction.removals) for s in plain.steps] == \
            [(s.heuristic.id, s.deduction.removals) for s in counted.steps]
        assert any(s.available not in (None, 1) for s in counted.steps)


def test_a_count_that_reaches_the_cap_looks_no_further():
    """Yajilin's first counts reach the cap: a spy heuristic listed last in level 1 is asked
    by the count only when the carried deductions and the earlier looks fall short."""
    puzzle_file = str(PUZZLES[1])
    calls = []

    def look(puzzle, state, focus=None):
        calls.append(focus)
        return iter(())
    spy = Heuristic(attrs.evolve(info("test.spy", 1), genre="yajilin", order=99), look)
    heuristics = sorted(REGISTRY.for_genre("yajilin") + [spy], key=lambda h: (h.level, h.info.order))
    plain = Solver(load(puzzle_file), heuristics=heuristics).solve()
    solve_calls = len(calls)
    calls.clear()
    counted = Solver(load(puzzle_file), heuristics=heuristics, count_available=True).solve()
    level1 = [s for s in counted.steps if s.level == 1 and s.available is not None]
    assert sum(s.available == 8 for s in level1) > 5
    assert len(calls) - solve_calls < len(level1)

