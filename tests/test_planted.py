"""Soundness against planted solutions (grader.app.soak): random puzzles built around a random
valid solution, degenerate cases favoured. No step may remove a planted value and no solve may
end in a contradiction. The long soak is `grader benchmark --planted 10000`."""
from __future__ import annotations

import importlib

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from grader.app import soak as planted

# Cases per genre in CI. Levels 1-4 on planted boards with many solutions stop quickly, so
# every genre gets EXAMPLES of them; the full solve's level 5 tries every cell of such a board,
# so a planter may lower its count with CI_EXAMPLES.
EXAMPLES = 200


def _examples(genre: str) -> int:
    module = importlib.import_module(f"grader.genres.{genre}.planted")
    return getattr(module, "CI_EXAMPLES", EXAMPLES)


def _soak(genre: str, examples: int, max_level: int) -> None:
    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(seed=st.integers(0, 2**31))
    def run(seed):
        outcome = planted.check(genre, seed, max_level=max_level)
        assert outcome.finding is None, f"{outcome.finding}\n{outcome.finding.puzzle}"
    run()


@pytest.mark.parametrize("genre", planted.genres_with_planters())
def test_no_step_up_to_level_4_removes_a_planted_value(genre):
    _soak(genre, EXAMPLES, max_level=4)


@pytest.mark.parametrize("genre", planted.genres_with_planters())
def test_no_step_removes_a_planted_value(genre):
    _soak(genre, _examples(genre), max_level=5)


def test_a_planted_puzzle_is_reproducible():
    a = planted.planter("akari")(planted.seeded("akari", 7))
    b = planted.planter("akari")(planted.seeded("akari", 7))
    assert a.puzzle == b.puzzle and a.solution.cands == b.solution.cands


def test_an_unsound_step_is_found():
    """The harness itself: a plant whose 'solution' is not the puzzle's is reported."""
    from grader.core.model import State
    p = planted.planter("akari")(planted.seeded("akari", 3))
    wrong = State(tuple(m ^ 3 if m in (1, 2) and i in p.puzzle.whites else m
                        for i, m in enumerate(p.solution.cands)))
    from grader.core.engine import Solver
    trace = Solver(p.puzzle, assume_unique=False).solve()
    if trace.steps:
        assert planted.first_unsound(p.puzzle, trace, wrong) is not None
