"""The difficulty and effort models (rules/levels.yaml): what a step is on offer among, how a
step rates, and how a puzzle's difficulty and effort follow from its steps."""
from __future__ import annotations

import attrs

from grader.core.analysis import analyse
from grader.core.engine import Solver
from grader.core.grading import difficulty_of, effort_of, grade, step_rating
from grader.core.steps import AVAILABLE_CAP, Status
from grader.io.read import load
from support import CORPUS, native

TRIALS = CORPUS / "arrows" / "arrows-5x5-straight-L5-s1.yaml"          # needs a trial (level 5)
EASY = CORPUS / "akari" / "lightup-7x7b20s2d0-grader-1.yaml"
HARD = CORPUS / "akari" / "lightup-7x7b20s2d2-grader-1.yaml"


def path(trace):
    return [(s.heuristic.id, s.deduction.removals) for s in trace.steps]


def test_counting_what_is_on_offer_changes_no_step():
    for file in (EASY, HARD, TRIALS):
        puzzle = load(str(file))
        plain, counted = Solver(puzzle).solve(), Solver(puzzle, count_available=True).solve()
        assert path(plain) == path(counted)
        assert all(s.available is None for s in plain.steps)
        top = 0
        for s in counted.steps:
            top = max(top, s.level)
            if s.level == 5 or s.level < top:      # a trial is rated by its size; easier steps are not counted
                assert s.available is None
            else:
                assert 1 <= s.available <= AVAILABLE_CAP


def test_a_lone_step_rates_above_one_of_many():
    trace = Solver(load(str(HARD)), count_available=True).solve()
    step = next(s for s in trace.steps if s.level == 2 and s.available)
    lone, many = attrs.evolve(step, available=1), attrs.evolve(step, available=AVAILABLE_CAP)
    assert step_rating(lone) > step_rating(many) == 2.2
    assert step_rating(attrs.evolve(step, available=None)) == 2.2


def test_a_trial_rates_above_every_technique_of_levels_1_to_4():
    trace = Solver(load(str(TRIALS)), count_available=True).solve()
    trials = [step_rating(s) for s in trace.steps if s.level == 5]
    others = [step_rating(s) for s in trace.steps if s.level < 5]
    assert trials and min(trials) >= 7.0 > max(others)


def test_difficulty_is_the_hardest_step_and_barely_grows_with_the_number_of_steps():
    assert difficulty_of([]) == 1.0
    assert difficulty_of([1.0, 3.6, 2.2]) == 3.6
    one, many = difficulty_of([3.6] + [1.0] * 10), difficulty_of([3.6] * 1000)
    assert one == 3.6 and 3.6 < many <= 3.6 + 0.6
    assert difficulty_of([9.9] * 50) == 10.0


def test_effort_grows_with_the_work_difficulty_does_not():
    small = native("genre: akari\ngrid: |\n  . . .\n  . 1 .\n  . . .\n")
    trace = Solver(small, count_available=True).solve()
    ratings = [step_rating(s) for s in trace.steps]
    doubled = attrs.evolve(trace, steps=trace.steps + trace.steps)
    assert effort_of(doubled, ratings * 2) > effort_of(trace, ratings) >= 0.0


def test_the_grade_gives_difficulty_and_effort_in_order_of_the_tiers():
    easy, hard = analyse(load(str(EASY)), check_unique=False), analyse(load(str(HARD)), check_unique=False)
    assert 1.0 <= easy.grade.difficulty < hard.grade.difficulty <= 10.0
    assert easy.grade.effort > 0
    row = hard.row()
    assert row["difficulty"] == hard.grade.difficulty and row["effort"] == hard.grade.effort


def test_an_unsolved_path_has_no_difficulty():
    stuck = attrs.evolve(Solver(load(str(EASY))).solve(), status=Status.STUCK)
    g = grade(stuck)
    assert g.label == "unsolved" and g.difficulty is None and g.effort is None
    assert g.to_json()["difficulty"] is None


def test_the_count_leaves_out_a_technique_whose_row_says_so():
    """A technique with `counted: false` (a long chain, not seen at a glance) is never looked
    at by the count of what its level offers; the solve's path is the same either way."""
    from grader.core.registry import REGISTRY, Heuristic, HeuristicInfo

    def spied(counted: bool) -> tuple[list, list]:
        calls = []

        def look(puzzle, state, focus=None):
            calls.append(focus)
            return iter(())
        info = HeuristicInfo(id="test.spy", name="Spy", genre="akari", level=1, order=99,
                             template="t", nudge="n", counted=counted)
        puzzle = load(str(EASY))
        heuristics = REGISTRY.for_genre("akari") + [Heuristic(info, look)]
        heuristics.sort(key=lambda h: (h.level, h.info.order))
        return path(Solver(puzzle, heuristics=heuristics, count_available=True).solve()), calls

    (counted_path, counted_calls), (quiet_path, quiet_calls) = spied(True), spied(False)
    assert counted_path == quiet_path
    assert len(quiet_calls) < len(counted_calls)
