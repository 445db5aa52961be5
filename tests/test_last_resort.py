"""Level 5's last resort (probing.register_nested deepening) and the solve's wall-clock budget.
Nothing here is timed: budgets are tested as already spent, and searches by what they do."""
from __future__ import annotations

import json
from types import SimpleNamespace

from grader.core import engine
from grader.app.cli import main
from grader.core.engine import Budget, Solver
from grader.io.read import load
from grader.genres import get
from grader.core.registry import REGISTRY, Registry, heuristic
from grader.core.probing import register_nested
from grader.core.steps import Status
from support import native

# Unique, and needs a hypothesis inside a hypothesis when no other technique helps.
ARROWS_3X2 = "genre: arrows\ngrid: |\n  ↘. ↙.\n  ↗. ↖.\n  ↖. ↗.\n"
CORRIDOR = "genre: akari\ngrid: |\n  # # # #\n  . . . .\n  # # # #\n"        # four solutions
BLANK_100 = "https://puzz.link/p?lightup/100/100/" + "z" * 500


def deep_only(genre: str, inner=lambda: []):
    """The deepening nested trial alone, with no other technique in its fills."""
    return register_nested(genre, inner, id=f"{genre}.test-deep", first_round=False, registry=Registry())


def spies(looked: list[int], n: int = 1) -> list:
    """n akari techniques that find nothing and note, in order, each time they are asked."""
    reg = Registry()
    for k in range(n):
        @heuristic(id=f"x.spy{k}", name="Spy", genre="akari", level=1, order=k, template="{cell}.",
                   nudge="{cell}", registry=reg)
        def look(puzzle, state, focus=None, k=k):
            looked.append(k)
            return iter(())
    return reg.for_genre("akari")


def test_the_last_resort_alone_finishes_a_puzzle_with_one_solution():
    p = native(ARROWS_3X2)
    trace = Solver(p, heuristics=[deep_only("arrows")], validate=True).solve()
    assert trace.status is Status.SOLVED
    assert any("hypotheses inside hypotheses, 2 deep" in s.deduction.params["outcome"] for s in trace.steps)
    sentence = trace.steps[0].heuristic.template.format(**trace.steps[0].deduction.params)
    assert sentence.startswith("Trial at r") and "contradiction" in sentence


def test_the_last_resort_gives_up_when_two_solutions_show():
    """Every value of every cell survives in some solution: the search stops once two
    branches of one hypothesis end solved, instead of deepening without end."""
    p = native(CORRIDOR)
    trace = Solver(p, heuristics=[deep_only("akari")]).solve()
    assert trace.status is Status.STUCK and not trace.steps


def test_the_last_resort_asks_once_and_searches_only_where_one_solution_may_be():
    looked, asked = [], []
    h = deep_only("arrows", inner=lambda: looked.append(1) or [])
    p = native(ARROWS_3X2)
    trace = Solver(p, heuristics=[h], one_solution=lambda: asked.append(1) or False).solve()
    assert trace.status is Status.STUCK and asked == [1] and not looked
    # a solve that does not assume one solution never starts it
    trace = Solver(p, heuristics=[h], assume_unique=False).solve()
    assert trace.status is Status.STUCK and not looked


def test_every_genre_has_a_last_resort_ordered_last():
    from grader.genres import all_genres
    for g in all_genres():
        level5 = [h for h in REGISTRY.for_genre(g.name) if h.level == 5]
        assert level5[-1].id.endswith("nested-trial"), g.name
        assert level5[-1].info.effective_score == max(h.info.effective_score for h in level5)


def test_a_spent_budget_stops_before_any_technique_looks():
    looked = []
    board = load(BLANK_100)
    trace = Solver(board, heuristics=spies(looked), budget=Budget(max_seconds=0)).solve()
    assert trace.status is Status.BUDGET and not looked and not trace.steps
    trace = Solver(board, budget=Budget(max_seconds=0)).solve()
    assert trace.status is Status.BUDGET and not trace.steps


def test_the_engine_stops_between_techniques_when_time_is_up(monkeypatch):
    """One look at a large board can take a while: the next technique is not asked."""
    now = [0.0]

    class Looked(list):
        def append(self, k):    # the solve reads its own deadline off the clock: a look spends it all
            super().append(k)
            now[0] += 1e9
    monkeypatch.setattr(engine, "time", SimpleNamespace(perf_counter=lambda: now[0]))
    looked = Looked()
    trace = Solver(native(CORRIDOR), heuristics=spies(looked, 3), budget=Budget(max_seconds=10)).solve()
    assert trace.status is Status.BUDGET and looked == [0]


def test_grade_reports_the_budget_on_a_large_blank_board(capsys):
    code = main(["grade", BLANK_100, "--max-seconds", "0", "--no-unique", "--json"])
    row = json.loads(capsys.readouterr().out)
    assert code == 1 and row["status"] == "budget"


def test_a_large_exact_check_answers_unknown_when_its_time_is_spent():
    """Grounding cannot be interrupted, so a large board's check runs in a child process
    that is stopped at the limit."""
    from grader.core import exact
    board = load("https://puzz.link/p?lightup/60/60/" + "z" * 180)
    assert len(get("akari").initial_state(board).cands) > exact.LARGE
    assert exact.solve(board, seconds=0).verdict is exact.Verdict.UNKNOWN
    small = native(CORRIDOR)
    assert exact.solve(small, seconds=5).verdict is exact.Verdict.SEVERAL


def test_a_hint_looks_within_its_budget():
    looked = []
    p = native(CORRIDOR)
    techniques = spies(looked)
    solver = Solver(p, heuristics=techniques, budget=Budget(max_seconds=0))
    assert solver.next_step(solver.initial_state()) is None and not looked
    assert Solver(p, heuristics=techniques).next_step(solver.initial_state()) is None
    assert looked == [0]


# Registered by the engine for the genres without a nested trial of their own.
LAST_RESORTS = ("akari.nested-trial", "arrows.nested-trial", "hashiwokakero.nested-trial",
                "heyawake.nested-trial", "kuromasu.nested-trial", "masyu.nested-trial",
                "minesweeper.nested-trial", "numberlink.nested-trial", "picross.nested-trial",
                "slitherlink.nested-trial", "yajilin.nested-trial")


def test_the_registered_last_resorts_come_after_every_other_technique_of_their_genre():
    for hid in LAST_RESORTS:
        h = REGISTRY.get(hid)
        assert REGISTRY.for_genre(h.info.genre)[-1] is h and h.info.score == 400


def test_a_registered_last_resort_fills_with_the_genre_s_other_techniques():
    """Alone in the solve, its fills use every other Arrows technique: it finishes the puzzle
    and never removes the solution's value."""
    p = native(ARROWS_3X2)
    from grader.core import exact
    solution = exact.solve(p).solution
    trace = Solver(p, heuristics=[REGISTRY.get("arrows.nested-trial")], validate=True).solve()
    assert trace.status is Status.SOLVED and trace.steps
    assert trace.final == solution
